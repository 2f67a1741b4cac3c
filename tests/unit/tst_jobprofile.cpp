#include "JobProfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace md;

namespace {

// A valid profile that each case below breaks in one place.
QJsonObject baseObject()
{
    return QJsonDocument::fromJson(R"({
        "mirrordesk": 1,
        "name": "orders to DR",
        "source": { "alias": "eu", "bootstrap": "kafka-eu:9092", "security": "plaintext" },
        "target": { "alias": "dr", "bootstrap": "kafka-dr:9092", "security": "plaintext" },
        "topics": { "include": ["orders\\..*"], "exclude": [".*\\.internal"] },
        "naming": { "policy": "prefix", "separator": "." },
        "start": "earliest",
        "delivery": "at-least-once",
        "createTopics": true,
        "syncTopicConfigs": true,
        "throttleBytesPerSecond": 0
    })")
        .object();
}

// Sets (or with an undefined value removes) a dotted key path in a JSON object.
void setPath(QJsonObject &o, QStringList path, const QJsonValue &v)
{
    const QString key = path.takeFirst();
    if (path.isEmpty()) {
        if (v.isUndefined())
            o.remove(key);
        else
            o.insert(key, v);
        return;
    }
    QJsonObject child = o.value(key).toObject();
    setPath(child, path, v);
    o.insert(key, child);
}

QByteArray profileWith(const QString &path, const QJsonValue &v)
{
    QJsonObject o = baseObject();
    setPath(o, path.split(QLatin1Char('.')), v);
    return QJsonDocument(o).toJson();
}

QByteArray profileWith(std::initializer_list<std::pair<QString, QJsonValue>> changes)
{
    QJsonObject o = baseObject();
    for (const auto &[path, v] : changes)
        setPath(o, path.split(QLatin1Char('.')), v);
    return QJsonDocument(o).toJson();
}

QJsonValue parse(const char *json)
{
    return QJsonDocument::fromJson(QByteArray("[") + json + "]").array().at(0);
}

QString describe(const QList<ProfileIssue> &issues)
{
    QStringList lines;
    for (const ProfileIssue &i : issues)
        lines << i.toString();
    return lines.join(QLatin1Char('\n'));
}

QList<ProfileIssue> errorsOf(const QList<ProfileIssue> &issues)
{
    QList<ProfileIssue> out;
    for (const ProfileIssue &i : issues)
        if (i.isError())
            out << i;
    return out;
}

QList<ProfileIssue> warningsOf(const QList<ProfileIssue> &issues)
{
    QList<ProfileIssue> out;
    for (const ProfileIssue &i : issues)
        if (!i.isError())
            out << i;
    return out;
}

JobProfile fullProfile()
{
    JobProfile p;
    p.name = QStringLiteral("orders to DR ✓");
    p.source.alias = QStringLiteral("eu");
    p.source.bootstrap = QStringLiteral("kafka-eu-1:9092,kafka-eu-2:9092");
    p.source.security = SecurityProtocol::SaslSsl;
    p.source.hasSasl = true;
    p.source.saslMechanism = QStringLiteral("SCRAM-SHA-512");
    p.source.saslUsername = QStringLiteral("mirror");
    p.source.saslPassword = QStringLiteral("${env:EU_PASSWORD}");
    p.source.sslCa = QStringLiteral("/etc/ssl/eu-ca.pem");
    p.source.sslCert = QStringLiteral("certs/client.pem");
    p.source.sslKey = QStringLiteral("certs/client.key");
    p.source.sslKeyPassword = QStringLiteral("${keychain:mirrordesk/eu-key}");
    p.source.properties = {{QStringLiteral("client.rack"), QStringLiteral("eu-1a")}};
    p.source.consumerProperties = {{QStringLiteral("fetch.max.bytes"), QStringLiteral("52428800")}};
    p.source.adminProperties = {{QStringLiteral("socket.timeout.ms"), QStringLiteral("5000")}};
    p.target.alias = QStringLiteral("dr");
    p.target.bootstrap = QStringLiteral("kafka-dr:9092");
    p.target.security = SecurityProtocol::Ssl;
    p.target.sslCa = QStringLiteral("dr-ca.pem");
    p.target.producerProperties = {{QStringLiteral("linger.ms"), QStringLiteral("20")},
                                   {QStringLiteral("compression.type"), QStringLiteral("zstd")}};
    p.include = {QStringLiteral("orders\\..*"), QStringLiteral("payments")};
    p.exclude = {QStringLiteral(".*\\.internal")};
    p.excludeInternalTopics = false;
    p.naming = NamingPolicy::Template;
    p.separator = QStringLiteral("_");
    p.nameTemplate = QStringLiteral("dr-${topic}");
    p.groupId = QStringLiteral("custom-group");
    p.start = StartPosition::Timestamp;
    p.startTimestamp = QDateTime(QDate(2026, 11, 1), QTime(0, 0), Qt::UTC);
    p.stop = StopCondition::AtTimestamp;
    p.stopTimestamp = QDateTime(QDate(2026, 11, 2), QTime(12, 30, 0, 250), Qt::UTC);
    p.createTopics = false;
    p.syncTopicConfigs = false;
    p.configExclude = {QStringLiteral("retention\\..*")};
    p.throttleBytesPerSecond = 10 * 1024 * 1024;
    p.samplingIntervalMs = 500;
    p.topicRefreshIntervalMs = 5000;
    return p;
}

} // namespace

// No raw string literals below: moc (6.4) loses the class on some of them.
class TstJobProfile final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // ------------------------------------------------------------ syntax: file, line, column

    void syntaxError_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");

        QTest::newRow("empty") << QByteArray() << 0 << 0 << "file is empty";
        QTest::newRow("only whitespace") << QByteArray(" \n\t\n") << 0 << 0 << "file is empty";
        QTest::newRow("NUL bytes") << QByteArray("{\"a\"\0\0\0", 7) << 1 << 5 << "binary data";
        QTest::newRow("png header") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16) << 3 << 1 << "binary data";
        QTest::newRow("invalid UTF-8") << QByteArray("{\n  \"name\": \"a\xff\"\n}") << 2 << 13 << "invalid UTF-8 (byte 0xff)";
        QTest::newRow("overlong UTF-8") << QByteArray("{\"n\": \"\xc0\xaf\"}") << 1 << 8 << "invalid UTF-8";
        QTest::newRow("UTF-16 surrogate in UTF-8") << QByteArray("{\"n\": \"\xed\xa0\x80\"}") << 1 << 8 << "invalid UTF-8";
        QTest::newRow("truncated after value") << QByteArray("{\n  \"mirrordesk\": 1,\n  \"name\": \"x\"") << 3 << 14
                                               << "truncated?";
        QTest::newRow("truncated in string") << QByteArray("{\n  \"name\": \"abc") << 2 << 15 << "truncated?";
        QTest::newRow("truncated after brace") << QByteArray("{") << 1 << 2 << "truncated?";
        // Columns count characters: "äöü" is six bytes but three columns. Qt's
        // parser reports the position just after the offending token.
        QTest::newRow("missing comma after UTF-8") << QByteArray("{\n\"name\": \"äöü\" \"mirrordesk\": 1}") << 2 << 16
                                                   << "JSON syntax error";
        QTest::newRow("missing colon") << QByteArray("{\n  \"a\" 1}") << 2 << 8 << "missing name separator";
        QTest::newRow("garbage at end") << QByteArray("{\"mirrordesk\": 1}\n}") << 2 << 1 << "garbage at the end";
        QTest::newRow("trailing comma") << QByteArray("{\"mirrordesk\": 1,\n}") << 2 << 2 << "JSON syntax error";
        QTest::newRow("top-level array") << QByteArray("  [1, 2]") << 1 << 3 << "found an array";
        QTest::newRow("top-level number") << QByteArray("\n42") << 2 << 1 << "found a number";
        QTest::newRow("top-level string") << QByteArray("\"profile\"") << 1 << 1 << "found a string";
        QTest::newRow("top-level null") << QByteArray("null") << 1 << 1 << "found null";
        QTest::newRow("top-level true") << QByteArray("true") << 1 << 1 << "found a boolean";
        QTest::newRow("not JSON at all") << QByteArray("mirrordesk = 1\n") << 1 << 1 << "not JSON";
        QTest::newRow("deep nesting") << (QByteArray("{\"a\":") + QByteArray(5000, '[') + QByteArray(5000, ']') + "}") << 0 << 0
                                      << "JSON syntax error";
    }

    void syntaxError()
    {
        QFETCH(QByteArray, data);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);

        QList<ProfileIssue> issues;
        JobProfile::fromJson(data, QStringLiteral("bad.mirrorjob"), &issues);
        const QList<ProfileIssue> errors = errorsOf(issues);
        QVERIFY2(errors.size() == 1, qPrintable(describe(issues)));
        const ProfileIssue &e = errors.first();
        QCOMPARE(e.file, QStringLiteral("bad.mirrorjob"));
        QVERIFY2(e.message.contains(message), qPrintable(e.toString()));
        QVERIFY(e.keyPath.isEmpty());
        if (line > 0) {
            QCOMPARE(e.line, line);
            QCOMPARE(e.column, column);
            QVERIFY2(e.toString().startsWith(QStringLiteral("bad.mirrorjob:%1:%2: error: ").arg(line).arg(column)),
                     qPrintable(e.toString()));
        }

        // load() refuses the same bytes from a file and names the path.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.mirrorjob"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(data);
        f.close();
        QList<ProfileIssue> loadIssues;
        QVERIFY(!JobProfile::load(path, &loadIssues));
        QVERIFY(hasErrors(loadIssues));
        QCOMPARE(loadIssues.first().file, path);
    }

    // ------------------------------------------------------------ meaning: key paths

    void meaningError_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("keyPath");
        QTest::addColumn<QString>("message");

        const QJsonValue none(QJsonValue::Undefined); // remove the key
        // The format version
        QTest::newRow("no version") << profileWith(QStringLiteral("mirrordesk"), none) << "mirrordesk"
                                    << "missing required key: the format version";
        QTest::newRow("version as string") << profileWith(QStringLiteral("mirrordesk"), QStringLiteral("1")) << "mirrordesk"
                                           << "must be a whole number (1), found a string";
        QTest::newRow("newer version") << profileWith(QStringLiteral("mirrordesk"), 2) << "mirrordesk"
                                       << "format version 2 is newer than this build of MirrorDesk understands";
        QTest::newRow("version 0") << profileWith(QStringLiteral("mirrordesk"), 0) << "mirrordesk" << "unknown format version 0";
        QTest::newRow("version 1.5") << profileWith(QStringLiteral("mirrordesk"), 1.5) << "mirrordesk" << "whole number";
        QTest::newRow("empty object") << QByteArray("{}") << "mirrordesk" << "is this a MirrorDesk job profile?";
        // Sides
        QTest::newRow("no source") << profileWith(QStringLiteral("source"), none) << "source" << "missing required key";
        QTest::newRow("source is a string") << profileWith(QStringLiteral("source"), QStringLiteral("kafka:9092")) << "source"
                                            << "expected an object, found a string";
        QTest::newRow("no source.bootstrap") << profileWith(QStringLiteral("source.bootstrap"), none) << "source.bootstrap"
                                             << "missing required key";
        QTest::newRow("no target.bootstrap") << profileWith(QStringLiteral("target.bootstrap"), none) << "target.bootstrap"
                                             << "missing required key";
        QTest::newRow("empty target.bootstrap") << profileWith(QStringLiteral("target.bootstrap"), QStringLiteral(" "))
                                                << "target.bootstrap" << "required";
        QTest::newRow("bootstrap is a number") << profileWith(QStringLiteral("source.bootstrap"), 9092) << "source.bootstrap"
                                               << "expected a string, found a number";
        QTest::newRow("bootstrap bad port") << profileWith(QStringLiteral("source.bootstrap"), QStringLiteral("a:9092,b:99999"))
                                            << "source.bootstrap" << "\"b:99999\": the port must be a number from 1 to 65535";
        QTest::newRow("bootstrap empty entry") << profileWith(QStringLiteral("source.bootstrap"), QStringLiteral("a:9092,,b:1"))
                                               << "source.bootstrap" << "empty server";
        QTest::newRow("bad reference") << profileWith(QStringLiteral("source.bootstrap"), QStringLiteral("${sandbox"))
                                       << "source.bootstrap" << "unterminated reference";
        QTest::newRow("reference without kind") << profileWith(QStringLiteral("source.bootstrap"), QStringLiteral("${source}"))
                                                << "source.bootstrap" << "malformed reference \"${source}\"";
        QTest::newRow("alias is a bool") << profileWith(QStringLiteral("target.alias"), true) << "target.alias"
                                         << "expected a string, found a boolean";
        // Security
        QTest::newRow("unknown security") << profileWith(QStringLiteral("source.security"), QStringLiteral("tls"))
                                          << "source.security"
                                          << "unknown security protocol \"tls\" (expected plaintext, ssl, sasl_plaintext or sasl_ssl)";
        QTest::newRow("sasl_ssl without sasl") << profileWith(QStringLiteral("source.security"), QStringLiteral("sasl_ssl"))
                                               << "source.sasl" << "required with security sasl_ssl";
        QTest::newRow("sasl is an array") << profileWith(QStringLiteral("source.sasl"), QJsonArray()) << "source.sasl"
                                          << "expected an object, found an array";
        QTest::newRow("GSSAPI") << profileWith({{QStringLiteral("target.security"), QStringLiteral("sasl_plaintext")},
                                                {QStringLiteral("target.sasl"), parse("{\"mechanism\": \"GSSAPI\", \"username\": \"u\",\n"
            "                                                                                           \"password\": \"${env:P}\"}")}})
                                << "target.sasl.mechanism"
                                << "unsupported mechanism \"GSSAPI\" (expected PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512)";
        QTest::newRow("sasl without password")
            << profileWith({{QStringLiteral("target.security"), QStringLiteral("sasl_plaintext")},
                            {QStringLiteral("target.sasl"), parse("{\"mechanism\": \"PLAIN\", \"username\": \"u\"}")}})
            << "target.sasl.password" << "required with security sasl_plaintext";
        QTest::newRow("sasl without mechanism")
            << profileWith({{QStringLiteral("target.security"), QStringLiteral("sasl_ssl")},
                            {QStringLiteral("target.sasl"), parse("{\"username\": \"u\", \"password\": \"${env:P}\"}")}})
            << "target.sasl.mechanism" << "required with security sasl_ssl";
        QTest::newRow("password is a number")
            << profileWith({{QStringLiteral("source.security"), QStringLiteral("sasl_ssl")},
                            {QStringLiteral("source.sasl"), parse("{\"mechanism\": \"PLAIN\", \"username\": \"u\", \"password\": 1234}")}})
            << "source.sasl.password" << "expected a string, found a number";
        QTest::newRow("ssl cert without key")
            << profileWith({{QStringLiteral("source.security"), QStringLiteral("ssl")},
                            {QStringLiteral("source.ssl"), parse("{\"cert\": \"c.pem\"}")}})
            << "source.ssl.key" << "required with ssl.cert";
        QTest::newRow("ssl.ca is null") << profileWith(QStringLiteral("source.ssl"), parse("{\"ca\": null}")) << "source.ssl.ca"
                                        << "expected a string, found null";
        // Free properties
        QTest::newRow("property is an array") << profileWith(QStringLiteral("source.properties"), parse("{\"client.rack\": []}"))
                                              << "source.properties[\"client.rack\"]"
                                              << "expected a string, number or boolean, found an array";
        QTest::newRow("properties is a list") << profileWith(QStringLiteral("target.producerProperties"), parse("[1]"))
                                              << "target.producerProperties" << "expected an object";
        // Topics
        QTest::newRow("no topics") << profileWith(QStringLiteral("topics"), none) << "topics" << "missing required key";
        QTest::newRow("no topics.include") << profileWith(QStringLiteral("topics.include"), none) << "topics.include"
                                           << "missing required key";
        QTest::newRow("empty topics.include") << profileWith(QStringLiteral("topics.include"), QJsonArray()) << "topics.include"
                                              << "at least one regular expression is required";
        QTest::newRow("include not a list") << profileWith(QStringLiteral("topics.include"), 7) << "topics.include"
                                            << "expected an array of strings, found a number";
        QTest::newRow("include element number") << profileWith(QStringLiteral("topics.include"), parse("[\"a\", 3]"))
                                                << "topics.include[1]" << "expected a string, found a number";
        QTest::newRow("regex after a wrong element") << profileWith(QStringLiteral("topics.include"), parse("[\"a\", 3, \"(b\"]"))
                                                     << "topics.include[2]" << "invalid regular expression";
        QTest::newRow("invalid include regex") << profileWith(QStringLiteral("topics.include"), parse("[\"orders(\", \"x\"]"))
                                               << "topics.include[0]"
                                               << "invalid regular expression: missing closing parenthesis at offset 7";
        QTest::newRow("invalid exclude regex") << profileWith(QStringLiteral("topics.exclude"), parse("[\"ok\", \"*x\"]"))
                                               << "topics.exclude[1]" << "invalid regular expression: ";
        QTest::newRow("empty include regex") << profileWith(QStringLiteral("topics.include"), parse("[\"\"]")) << "topics.include[0]"
                                             << "empty regular expression";
        QTest::newRow("invalid configExclude") << profileWith(QStringLiteral("configExclude"), parse("[\"[a-\"]"))
                                               << "configExclude[0]" << "invalid regular expression";
        QTest::newRow("excludeInternal string") << profileWith(QStringLiteral("topics.excludeInternal"), QStringLiteral("yes"))
                                                << "topics.excludeInternal" << "expected true or false, found a string";
        // Naming
        QTest::newRow("unknown policy") << profileWith(QStringLiteral("naming.policy"), QStringLiteral("x")) << "naming.policy"
                                        << "unknown policy \"x\" (expected identity, prefix or template)";
        QTest::newRow("naming is a number") << profileWith(QStringLiteral("naming"), 3) << "naming" << "expected an object";
        QTest::newRow("template without topic")
            << profileWith({{QStringLiteral("naming.policy"), QStringLiteral("template")},
                            {QStringLiteral("naming.template"), QStringLiteral("dr-orders")}})
            << "naming.template" << "must contain ${topic}";
        QTest::newRow("template missing") << profileWith(QStringLiteral("naming.policy"), QStringLiteral("template"))
                                          << "naming.template" << "required with naming policy template";
        QTest::newRow("template bad char")
            << profileWith({{QStringLiteral("naming.policy"), QStringLiteral("template")},
                            {QStringLiteral("naming.template"), QStringLiteral("dr/${topic}")}})
            << "naming.template"
            << "cannot make a topic name";
        QTest::newRow("prefix without alias") << profileWith(QStringLiteral("source.alias"), none) << "source.alias"
                                              << "required with naming policy prefix";
        QTest::newRow("separator with space") << profileWith(QStringLiteral("naming.separator"), QStringLiteral(" ")) << "naming.separator"
                                              << "cannot be part of a topic name";
        QTest::newRow("identity onto itself")
            << profileWith({{QStringLiteral("naming.policy"), QStringLiteral("identity")},
                            {QStringLiteral("target.bootstrap"), QStringLiteral("kafka-eu:9092")}})
            << "naming.policy" << "identity naming would mirror every topic onto itself";
        // Start and stop
        QTest::newRow("unknown start") << profileWith(QStringLiteral("start"), QStringLiteral("yesterday")) << "start"
                                       << "unknown start position \"yesterday\"";
        QTest::newRow("start is a number") << profileWith(QStringLiteral("start"), 0) << "start" << "found a number";
        QTest::newRow("start timestamp without zone")
            << profileWith(QStringLiteral("start"), parse("{\"timestamp\": \"2026-11-01T00:00:00\"}")) << "start.timestamp"
            << "has no time zone";
        QTest::newRow("start timestamp garbage") << profileWith(QStringLiteral("start"), parse("{\"timestamp\": \"tomorrow\"}"))
                                                 << "start.timestamp" << "\"tomorrow\" is not an ISO 8601 date and time";
        QTest::newRow("start timestamp impossible date")
            << profileWith(QStringLiteral("start"), parse("{\"timestamp\": \"2026-02-30T00:00:00Z\"}")) << "start.timestamp"
            << "is not an ISO 8601 date and time";
        QTest::newRow("start timestamp number") << profileWith(QStringLiteral("start"), parse("{\"timestamp\": 1700000000}"))
                                                << "start.timestamp" << "found a number";
        QTest::newRow("start object without timestamp") << profileWith(QStringLiteral("start"), parse("{}")) << "start.timestamp"
                                                        << "missing required key";
        QTest::newRow("unknown stop") << profileWith(QStringLiteral("stop"), QStringLiteral("soon")) << "stop"
                                      << "unknown stop condition \"soon\"";
        QTest::newRow("stop records 0") << profileWith(QStringLiteral("stop"), parse("{\"records\": 0}")) << "stop.records"
                                        << "out of range";
        QTest::newRow("stop records text") << profileWith(QStringLiteral("stop"), parse("{\"records\": \"10\"}")) << "stop.records"
                                           << "expected a whole number, found a string";
        QTest::newRow("stop both") << profileWith(QStringLiteral("stop"), parse("{\"records\": 1, \"timestamp\": \"2026-01-01T00:00:00Z\"}"))
                                   << "stop" << "not both";
        QTest::newRow("stop before start")
            << profileWith({{QStringLiteral("start"), parse("{\"timestamp\": \"2026-11-02T00:00:00Z\"}")},
                            {QStringLiteral("stop"), parse("{\"timestamp\": \"2026-11-01T00:00:00+01:00\"}")}})
            << "stop.timestamp" << "must be later than start.timestamp";
        // Everything else
        QTest::newRow("delivery exactly-once") << profileWith(QStringLiteral("delivery"), QStringLiteral("exactly-once")) << "delivery"
                                               << "exactly-once is not supported by this build yet";
        QTest::newRow("delivery unknown") << profileWith(QStringLiteral("delivery"), QStringLiteral("maybe")) << "delivery"
                                          << "unknown delivery guarantee";
        QTest::newRow("createTopics string") << profileWith(QStringLiteral("createTopics"), QStringLiteral("yes")) << "createTopics"
                                             << "expected true or false, found a string";
        QTest::newRow("syncTopicConfigs number") << profileWith(QStringLiteral("syncTopicConfigs"), 1) << "syncTopicConfigs"
                                                 << "expected true or false, found a number";
        QTest::newRow("negative throttle") << profileWith(QStringLiteral("throttleBytesPerSecond"), -1) << "throttleBytesPerSecond"
                                           << "-1 is out of range";
        QTest::newRow("fractional throttle") << profileWith(QStringLiteral("throttleBytesPerSecond"), 1.5) << "throttleBytesPerSecond"
                                             << "expected a whole number";
        QTest::newRow("throttle string") << profileWith(QStringLiteral("throttleBytesPerSecond"), QStringLiteral("10MB"))
                                         << "throttleBytesPerSecond" << "expected a whole number, found a string";
        QTest::newRow("huge throttle") << profileWith(QStringLiteral("throttleBytesPerSecond"), 1e300) << "throttleBytesPerSecond"
                                       << "out of range";
        QTest::newRow("sampling 0") << profileWith(QStringLiteral("samplingIntervalMs"), 0) << "samplingIntervalMs" << "out of range";
        QTest::newRow("refresh null") << profileWith(QStringLiteral("topicRefreshIntervalMs"), QJsonValue(QJsonValue::Null))
                                      << "topicRefreshIntervalMs" << "found null";
        QTest::newRow("name is a number") << profileWith(QStringLiteral("name"), 5) << "name" << "expected a string, found a number";
        QTest::newRow("groupId is an object") << profileWith(QStringLiteral("groupId"), QJsonObject()) << "groupId"
                                              << "expected a string, found an object";
    }

    void meaningError()
    {
        QFETCH(QByteArray, data);
        QFETCH(QString, keyPath);
        QFETCH(QString, message);

        QList<ProfileIssue> issues;
        JobProfile::fromJson(data, QStringLiteral("job.mirrorjob"), &issues);
        const QList<ProfileIssue> errors = errorsOf(issues);
        QVERIFY2(!errors.isEmpty(), qPrintable(describe(issues)));
        const auto match = std::find_if(errors.begin(), errors.end(), [&](const ProfileIssue &i) { return i.keyPath == keyPath; });
        QVERIFY2(match != errors.end(), qPrintable(QStringLiteral("no error at %1 in:\n%2").arg(keyPath, describe(issues))));
        QVERIFY2(match->message.contains(message), qPrintable(match->toString()));
        QCOMPARE(match->file, QStringLiteral("job.mirrorjob"));
        // Meaning errors also point into the file: at the key's value, or at the object missing it.
        const QRegularExpression shape(QStringLiteral("^job\\.mirrorjob(:\\d+:\\d+)?: error: ") + QRegularExpression::escape(keyPath)
                                       + QStringLiteral(": "));
        QVERIFY2(shape.match(match->toString()).hasMatch(), qPrintable(match->toString()));
        QVERIFY2(match->line > 0 && match->column > 0, qPrintable(match->toString()));
        // One problem, one error: a wrong type is not reported again as "missing".
        QVERIFY2(std::count_if(errors.begin(), errors.end(), [&](const ProfileIssue &i) { return i.keyPath == keyPath; }) == 1,
                 qPrintable(describe(issues)));

        QList<ProfileIssue> specIssues;
        QVERIFY(!JobProfile::fromJson(data, QString(), nullptr).toSpec({}, &specIssues) || hasErrors(issues));
    }

    // Every key of the format with a value of the wrong type: an error at exactly that key.
    void wrongTypeForEveryKey_data()
    {
        QTest::addColumn<QString>("keyPath");
        QTest::addColumn<QJsonValue>("value");
        const QStringList strings = {QStringLiteral("name"), QStringLiteral("groupId"), QStringLiteral("delivery"),
                                     QStringLiteral("source.alias"), QStringLiteral("source.bootstrap"),
                                     QStringLiteral("source.security"), QStringLiteral("target.alias"),
                                     QStringLiteral("target.bootstrap"), QStringLiteral("target.security"),
                                     QStringLiteral("source.sasl.mechanism"), QStringLiteral("source.sasl.username"),
                                     QStringLiteral("source.sasl.password"), QStringLiteral("source.ssl.ca"),
                                     QStringLiteral("source.ssl.cert"), QStringLiteral("source.ssl.key"),
                                     QStringLiteral("source.ssl.keyPassword"), QStringLiteral("naming.policy"),
                                     QStringLiteral("naming.separator"), QStringLiteral("naming.template")};
        for (const QString &k : strings) {
            QTest::addRow("%s = []", qPrintable(k)) << k << QJsonValue(QJsonArray());
            QTest::addRow("%s = 1", qPrintable(k)) << k << QJsonValue(1);
        }
        const QStringList bools = {QStringLiteral("createTopics"), QStringLiteral("syncTopicConfigs"),
                                   QStringLiteral("topics.excludeInternal")};
        for (const QString &k : bools)
            QTest::addRow("%s = \"true\"", qPrintable(k)) << k << QJsonValue(QStringLiteral("true"));
        const QStringList numbers = {QStringLiteral("mirrordesk"), QStringLiteral("throttleBytesPerSecond"),
                                     QStringLiteral("samplingIntervalMs"), QStringLiteral("topicRefreshIntervalMs")};
        for (const QString &k : numbers)
            QTest::addRow("%s = \"1\"", qPrintable(k)) << k << QJsonValue(QStringLiteral("1"));
        const QStringList objects = {QStringLiteral("source"), QStringLiteral("target"), QStringLiteral("topics"),
                                     QStringLiteral("source.sasl"), QStringLiteral("source.ssl"),
                                     QStringLiteral("source.properties"), QStringLiteral("source.consumerProperties"),
                                     QStringLiteral("target.producerProperties"), QStringLiteral("target.adminProperties")};
        for (const QString &k : objects)
            QTest::addRow("%s = 1", qPrintable(k)) << k << QJsonValue(1);
        const QStringList lists = {QStringLiteral("topics.include"), QStringLiteral("topics.exclude"),
                                   QStringLiteral("configExclude")};
        for (const QString &k : lists)
            QTest::addRow("%s = {}", qPrintable(k)) << k << QJsonValue(QJsonObject());
        QTest::addRow("start = true") << QStringLiteral("start") << QJsonValue(true);
        QTest::addRow("stop = []") << QStringLiteral("stop") << QJsonValue(QJsonArray());
        QTest::addRow("naming = null") << QStringLiteral("naming") << QJsonValue(QJsonValue::Null);
    }

    void wrongTypeForEveryKey()
    {
        QFETCH(QString, keyPath);
        QFETCH(QJsonValue, value);
        QList<ProfileIssue> issues;
        JobProfile::fromJson(profileWith(keyPath, value), QStringLiteral("t.mirrorjob"), &issues);
        const QList<ProfileIssue> errors = errorsOf(issues);
        QVERIFY2(std::any_of(errors.begin(), errors.end(),
                             [&](const ProfileIssue &i) { return i.keyPath == keyPath && i.message.contains(QLatin1String("found")); }),
                 qPrintable(describe(issues)));
    }

    // ------------------------------------------------------------ never a crash

    void everyTruncationIsAnError()
    {
        const QByteArray full = fullProfile().toJson();
        for (qsizetype n = 0; n < full.size(); ++n) {
            QList<ProfileIssue> issues;
            JobProfile::fromJson(full.left(n), QStringLiteral("t"), &issues);
            // Cutting inside the trailing newline leaves a complete object.
            if (full.left(n).trimmed() == full.trimmed())
                continue;
            QVERIFY2(hasErrors(issues), qPrintable(QStringLiteral("prefix of %1 bytes accepted").arg(n)));
        }
    }

    void randomBytesNeverCrash()
    {
        const QByteArray full = fullProfile().toJson();
        QRandomGenerator rng(20261101);
        for (int round = 0; round < 3000; ++round) {
            QByteArray data = full;
            const int flips = 1 + int(rng.bounded(4));
            for (int k = 0; k < flips; ++k)
                data[qsizetype(rng.bounded(quint32(data.size())))] = char(rng.bounded(256));
            QList<ProfileIssue> issues;
            const JobProfile p = JobProfile::fromJson(data, QStringLiteral("t"), &issues);
            if (!hasErrors(issues)) {
                // Whatever parsed cleanly must also write out and read back.
                QList<ProfileIssue> again;
                JobProfile::fromJson(p.toJson(), QStringLiteral("t"), &again);
                QVERIFY2(!hasErrors(again), qPrintable(describe(again)));
            }
        }
        for (int round = 0; round < 200; ++round) {
            QByteArray noise(qsizetype(rng.bounded(2000)), Qt::Uninitialized);
            for (char &c : noise)
                c = char(rng.bounded(256));
            QList<ProfileIssue> issues;
            JobProfile::fromJson(noise, QStringLiteral("noise"), &issues);
            QVERIFY(hasErrors(issues));
        }
    }

    void oversizedFileIsRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("huge.mirrorjob"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QByteArray pad = "{\"mirrordesk\": 1, \"name\": \"" + QByteArray(JobProfile::MaxFileSize, 'x') + "\"}";
        f.write(pad);
        f.close();
        QList<ProfileIssue> issues;
        QVERIFY(!JobProfile::load(path, &issues));
        QCOMPARE(issues.size(), 1);
        QVERIFY2(issues.first().message.contains(QLatin1String("too large")), qPrintable(issues.first().toString()));
        QCOMPARE(issues.first().file, path);

        issues.clear();
        JobProfile::fromJson(pad, QStringLiteral("huge"), &issues);
        QVERIFY(hasErrors(issues));
        QVERIFY(issues.first().message.contains(QLatin1String("too large")));
    }

    void manyProblemsAreCapped()
    {
        QJsonArray include;
        for (int i = 0; i < 5000; ++i)
            include.append(i % 2 ? QJsonValue(i) : QJsonValue(QStringLiteral("(bad")));
        QList<ProfileIssue> issues;
        JobProfile::fromJson(profileWith(QStringLiteral("topics.include"), include), QStringLiteral("many"), &issues);
        QCOMPARE(issues.size(), 201);
        QCOMPARE(issues.last().message, QStringLiteral("4800 more problems not shown"));
        QVERIFY(issues.last().isError());
    }

    void missingAndDirectoryPaths()
    {
        QTemporaryDir dir;
        QList<ProfileIssue> issues;
        QVERIFY(!JobProfile::load(dir.filePath(QStringLiteral("nope.mirrorjob")), &issues));
        QVERIFY(issues.first().message.contains(QLatin1String("file not found")));
        issues.clear();
        QVERIFY(!JobProfile::load(dir.path(), &issues));
        QVERIFY(issues.first().message.contains(QLatin1String("directory")));
    }

    // ------------------------------------------------------------ warnings

    void unknownKeysWarn_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("keyPath");
        QTest::addColumn<QString>("message");
        QTest::newRow("top level") << profileWith(QStringLiteral("colour"), QStringLiteral("blue")) << "colour"
                                   << "unknown key, ignored";
        QTest::newRow("typo in side") << profileWith(QStringLiteral("source.bootstrapServers"), QStringLiteral("x"))
                                      << "source.bootstrapServers" << "unknown key";
        QTest::newRow("did you mean") << profileWith(QStringLiteral("target.secuirty"), QStringLiteral("ssl")) << "target.secuirty"
                                      << "did you mean \"security\"?";
        QTest::newRow("in naming") << profileWith(QStringLiteral("naming.prefix"), QStringLiteral("x")) << "naming.prefix"
                                   << "unknown key";
        QTest::newRow("in topics") << profileWith(QStringLiteral("topics.includes"), QJsonArray()) << "topics.includes"
                                   << "did you mean \"include\"?";
        QTest::newRow("in sasl")
            << profileWith({{QStringLiteral("source.security"), QStringLiteral("sasl_plaintext")},
                            {QStringLiteral("source.sasl"), parse("{\"mechanism\": \"PLAIN\", \"username\": \"u\", "
                                                                  "\"password\": \"${env:X}\", \"user\": \"u\"}")}})
                                 << "source.sasl.user" << "unknown key";
        QTest::newRow("sasl with plaintext") << profileWith(QStringLiteral("source.sasl"), parse("{\"mechanism\": \"PLAIN\"}"))
                                             << "source.sasl" << "ignored with security plaintext";
        QTest::newRow("engine-owned property")
            << profileWith(QStringLiteral("source.consumerProperties"), parse("{\"enable.auto.commit\": true}"))
            << "source.consumerProperties[\"enable.auto.commit\"]" << "sets this property itself";
    }

    void unknownKeysWarn()
    {
        QFETCH(QByteArray, data);
        QFETCH(QString, keyPath);
        QFETCH(QString, message);
        QList<ProfileIssue> issues;
        JobProfile::fromJson(data, QStringLiteral("w.mirrorjob"), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        const QList<ProfileIssue> warnings = warningsOf(issues);
        QCOMPARE(warnings.size(), 1);
        QCOMPARE(warnings.first().keyPath, keyPath);
        QVERIFY2(warnings.first().message.contains(message), qPrintable(warnings.first().toString()));
        QVERIFY2(warnings.first().toString().contains(QStringLiteral(": warning: ") + keyPath + QStringLiteral(": ")),
                 qPrintable(warnings.first().toString()));
        QVERIFY(warnings.first().line > 0);
    }

    void unknownTopLevelKeysSurviveASave()
    {
        QList<ProfileIssue> issues;
        const JobProfile p = JobProfile::fromJson(profileWith(QStringLiteral("futureFeature"), parse("{\"a\": [1, \"b\"]}")),
                                                  QStringLiteral("f"), &issues);
        QVERIFY(!hasErrors(issues));
        const QJsonObject written = QJsonDocument::fromJson(p.toJson()).object();
        QCOMPARE(written.value(QStringLiteral("futureFeature")), parse("{\"a\": [1, \"b\"]}"));
    }

    void clearPasswordWarnsWithoutShowingIt_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("keyPath");
        const QString secret = QStringLiteral("hunter2-Sup3rS3cret");
        QTest::newRow("sasl.password")
            << profileWith({{QStringLiteral("source.security"), QStringLiteral("sasl_plaintext")},
                            {QStringLiteral("source.sasl"), QJsonObject{{QStringLiteral("mechanism"), QStringLiteral("SCRAM-SHA-256")},
                                                                        {QStringLiteral("username"), QStringLiteral("u")},
                                                                        {QStringLiteral("password"), secret}}}})
            << "source.sasl.password";
        QTest::newRow("ssl.keyPassword")
            << profileWith({{QStringLiteral("target.security"), QStringLiteral("ssl")},
                            {QStringLiteral("target.ssl"), QJsonObject{{QStringLiteral("cert"), QStringLiteral("c.pem")},
                                                                       {QStringLiteral("key"), QStringLiteral("k.pem")},
                                                                       {QStringLiteral("keyPassword"), secret}}}})
            << "target.ssl.keyPassword";
        QTest::newRow("password property")
            << profileWith(QStringLiteral("target.properties"), QJsonObject{{QStringLiteral("ssl.keystore.password"), secret}})
            << "target.properties[\"ssl.keystore.password\"]";
    }

    void clearPasswordWarnsWithoutShowingIt()
    {
        QFETCH(QByteArray, data);
        QFETCH(QString, keyPath);
        QList<ProfileIssue> issues;
        const JobProfile p = JobProfile::fromJson(data, QStringLiteral("c.mirrorjob"), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        const QList<ProfileIssue> warnings = warningsOf(issues);
        QCOMPARE(warnings.size(), 1);
        QCOMPARE(warnings.first().keyPath, keyPath);
        QVERIFY(warnings.first().message.contains(QLatin1String("clear text")));
        QVERIFY(p.hasClearSecret());
        QVERIFY(!describe(issues).contains(QLatin1String("hunter2")));
        QVERIFY(!describe(p.validate()).contains(QLatin1String("hunter2")));
    }

    void referencedPasswordDoesNotWarn()
    {
        QList<ProfileIssue> issues;
        const JobProfile p = JobProfile::fromJson(
            profileWith({{QStringLiteral("source.security"), QStringLiteral("sasl_ssl")},
                         {QStringLiteral("source.sasl"), parse("{\"mechanism\": \"scram-sha-512\", \"username\": \"u\",\n"
            "                                                                   \"password\": \"${env:EU_PASSWORD}\"}")}}),
            QStringLiteral("r"), &issues);
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
        QVERIFY(!p.hasClearSecret());
    }

    // ------------------------------------------------------------ good profiles

    void designExampleLoads()
    {
        // The example of DESIGN.md, verbatim.
        const QByteArray design = "{\n"
            "  \"mirrordesk\": 1,\n"
            "  \"name\": \"orders to DR\",\n"
            "  \"source\": { \"alias\": \"eu\", \"bootstrap\": \"kafka-eu:9092\",\n"
            "              \"security\": \"plaintext\",\n"
            "              \"sasl\": { \"mechanism\": \"SCRAM-SHA-512\", \"username\": \"mirror\",\n"
            "                        \"password\": \"${env:EU_PASSWORD}\" },\n"
            "              \"ssl\": { \"ca\": \"/etc/ssl/eu-ca.pem\" },\n"
            "              \"properties\": { \"client.rack\": \"eu-1a\" } },\n"
            "  \"target\": { \"alias\": \"dr\", \"bootstrap\": \"kafka-dr:9092\", \"security\": \"plaintext\" },\n"
            "  \"topics\": { \"include\": [\"orders\\\\..*\"], \"exclude\": [\".*\\\\.internal\"] },\n"
            "  \"naming\": { \"policy\": \"prefix\", \"separator\": \".\" },\n"
            "  \"start\": \"earliest\",\n"
            "  \"delivery\": \"at-least-once\",\n"
            "  \"createTopics\": true,\n"
            "  \"syncTopicConfigs\": true,\n"
            "  \"throttleBytesPerSecond\": 0\n"
            "}";
        QList<ProfileIssue> issues;
        const JobProfile p = JobProfile::fromJson(design, QStringLiteral("design"), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        // Its sasl and ssl blocks are written with security plaintext: said, not fatal.
        QCOMPARE(warningsOf(issues).size(), 2);
        QCOMPARE(p.name, QStringLiteral("orders to DR"));
        QCOMPARE(p.source.alias, QStringLiteral("eu"));
        QCOMPARE(p.source.saslMechanism, QStringLiteral("SCRAM-SHA-512"));
        QCOMPARE(p.source.sslCa, QStringLiteral("/etc/ssl/eu-ca.pem"));
        QCOMPARE(p.source.properties.value(QStringLiteral("client.rack")), QStringLiteral("eu-1a"));
        QCOMPARE(p.include, QStringList{QStringLiteral("orders\\..*")});
        QCOMPARE(p.naming, NamingPolicy::Prefix);
        QCOMPARE(p.start, StartPosition::Earliest);
        QCOMPARE(p.stop, StopCondition::RunForever);
    }

    void sandboxExampleLoadsAndResolves()
    {
        const QString path = QStringLiteral(MIRRORDESK_SOURCE_DIR "/resources/examples/sandbox-demo.mirrorjob");
        QList<ProfileIssue> issues;
        const std::optional<JobProfile> p = JobProfile::load(path, &issues);
        QVERIFY2(p, qPrintable(describe(issues)));
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
        QCOMPARE(p->source.bootstrap, QStringLiteral("${sandbox:source}"));

        QStringList asked;
        const ReferenceResolver sandbox = [&](const QString &kind, const QString &arg, QString *error) -> std::optional<QString> {
            asked << kind + QLatin1Char(':') + arg;
            if (kind != QLatin1String("sandbox")) {
                *error = QStringLiteral("not here");
                return std::nullopt;
            }
            return arg == QLatin1String("source") ? QStringLiteral("127.0.0.1:40001") : QStringLiteral("127.0.0.1:40002");
        };
        const std::optional<MirrorJobSpec> spec = p->toSpec(sandbox, &issues);
        QVERIFY2(spec, qPrintable(describe(issues)));
        QCOMPARE(asked, (QStringList{QStringLiteral("sandbox:source"), QStringLiteral("sandbox:target")}));
        QCOMPARE(spec->source.bootstrap, QStringLiteral("127.0.0.1:40001"));
        QCOMPARE(spec->target.bootstrap, QStringLiteral("127.0.0.1:40002"));
        QCOMPARE(spec->source.alias, QStringLiteral("src"));
        QCOMPARE(spec->naming, NamingPolicy::Prefix);
        QCOMPARE(spec->start, StartPosition::Earliest);
        QCOMPARE(spec->groupId, QStringLiteral("mirrordesk-sandbox-demo"));

        // Without a resolver the sandbox reference is an error naming the key and the reference.
        issues.clear();
        QVERIFY(!p->toSpec({}, &issues));
        QCOMPARE(issues.first().keyPath, QStringLiteral("source.bootstrap"));
        QVERIFY(issues.first().message.contains(QLatin1String("${sandbox:source}")));
    }

    void propertiesBecomeStrings()
    {
        QList<ProfileIssue> issues;
        const JobProfile p = JobProfile::fromJson(
            profileWith(QStringLiteral("source.properties"),
                        parse("{\"fetch.max.bytes\": 52428800, \"check.crcs\": true, \"socket.keepalive.enable\": false,\n"
            "                                  \"client.rack\": \"eu-1a\", \"queued.max.messages.kbytes\": 1.5}")),
            QStringLiteral("p"), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        QCOMPARE(p.source.properties.value(QStringLiteral("fetch.max.bytes")), QStringLiteral("52428800"));
        QCOMPARE(p.source.properties.value(QStringLiteral("check.crcs")), QStringLiteral("true"));
        QCOMPARE(p.source.properties.value(QStringLiteral("socket.keepalive.enable")), QStringLiteral("false"));
        QCOMPARE(p.source.properties.value(QStringLiteral("client.rack")), QStringLiteral("eu-1a"));
        QCOMPARE(p.source.properties.value(QStringLiteral("queued.max.messages.kbytes")), QStringLiteral("1.5"));
    }

    void shorthandsAndDefaults()
    {
        QList<ProfileIssue> issues;
        JobProfile p = JobProfile::fromJson(
            profileWith({{QStringLiteral("naming"), QStringLiteral("identity")},
                         {QStringLiteral("topics.include"), QStringLiteral("orders")},
                         {QStringLiteral("stop"), QStringLiteral("caught-up")},
                         {QStringLiteral("source.security"), QStringLiteral("SASL_SSL")},
                         {QStringLiteral("source.sasl"), parse("{\"mechanism\": \"PLAIN\", \"username\": \"u\", \"password\": \"${env:X}\"}")}}),
            QStringLiteral("s"), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        QCOMPARE(p.naming, NamingPolicy::Identity);
        QCOMPARE(p.include, QStringList{QStringLiteral("orders")});
        QCOMPARE(p.stop, StopCondition::CaughtUp);
        QCOMPARE(p.source.security, SecurityProtocol::SaslSsl);

        // A template alone selects the template policy; prefix defaults to ".".
        issues.clear();
        p = JobProfile::fromJson(profileWith(QStringLiteral("naming"), parse("{\"template\": \"dr-${topic}\"}")), QStringLiteral("s"),
                                 &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        QCOMPARE(p.naming, NamingPolicy::Template);
        p = JobProfile::fromJson(profileWith(QStringLiteral("naming"), parse("{\"policy\": \"prefix\"}")), QStringLiteral("s"), &issues);
        QCOMPARE(p.separator, QStringLiteral("."));

        // Timestamps with offsets are the same instant in UTC; stop after N records.
        issues.clear();
        p = JobProfile::fromJson(profileWith({{QStringLiteral("start"), parse("{\"timestamp\": \"2026-11-01T01:00:00+01:00\"}")},
                                              {QStringLiteral("stop"), parse("{\"records\": 1000}")}}),
                                 QStringLiteral("s"), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
        QCOMPARE(p.start, StartPosition::Timestamp);
        QCOMPARE(p.startTimestamp, QDateTime(QDate(2026, 11, 1), QTime(0, 0), Qt::UTC));
        QCOMPARE(p.stop, StopCondition::AfterRecords);
        QCOMPARE(p.stopAfterRecords, 1000);

        // A UTF-8 byte order mark is accepted.
        issues.clear();
        JobProfile::fromJson("\xEF\xBB\xBF" + profileWith(QStringLiteral("name"), QStringLiteral("bom")), QStringLiteral("s"), &issues);
        QVERIFY2(!hasErrors(issues), qPrintable(describe(issues)));
    }

    // ------------------------------------------------------------ writing

    void roundTrip()
    {
        const JobProfile p = fullProfile();
        QVERIFY2(!hasErrors(p.validate()), qPrintable(describe(p.validate())));
        const QByteArray json = p.toJson();
        QVERIFY2(json.startsWith("{\n  \"mirrordesk\": 1,\n  \"name\": "), json.constData());

        QList<ProfileIssue> issues;
        JobProfile back = JobProfile::fromJson(json, QString(), &issues);
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
        QVERIFY(back == p);
        QCOMPARE(back.toJson(), json); // stable: writing twice gives the same bytes

        // Every stop form round-trips.
        for (const StopCondition stop : {StopCondition::RunForever, StopCondition::CaughtUp, StopCondition::AfterRecords}) {
            JobProfile q = p;
            q.stop = stop;
            q.stopAfterRecords = stop == StopCondition::AfterRecords ? 42 : 0;
            q.start = StartPosition::Latest;
            q.startTimestamp = {};
            if (stop != StopCondition::AtTimestamp)
                q.stopTimestamp = {};
            issues.clear();
            back = JobProfile::fromJson(q.toJson(), QString(), &issues);
            QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
            QVERIFY(back == q);
        }
    }

    void saveAndLoad()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("job.mirrorjob"));
        JobProfile p = fullProfile();
        QString error;
        QVERIFY2(p.save(path, &error), qPrintable(error));
        QList<ProfileIssue> issues;
        std::optional<JobProfile> loaded = JobProfile::load(path, &issues);
        QVERIFY2(loaded, qPrintable(describe(issues)));
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
        QCOMPARE(loaded->fileName, path);
        loaded->fileName.clear();
        QVERIFY(*loaded == p);
        QVERIFY(!p.hasClearSecret());
        struct stat st {};
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
        const ino_t firstInode = st.st_ino;

        // Saving again replaces the file in one step (rename: a new inode), leaving no temporary files.
        p.name = QStringLiteral("renamed");
        p.source.hasSasl = true;
        p.source.saslPassword = QStringLiteral("clear-text-password");
        QVERIFY(p.hasClearSecret());
        QVERIFY2(p.save(path, &error), qPrintable(error));
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
        QVERIFY(st.st_ino != firstInode);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("job.mirrorjob")});
        // A clear secret is readable by the owner only.
        QCOMPARE(st.st_mode & 0777, mode_t(0600));
        issues.clear();
        loaded = JobProfile::load(path, &issues);
        QVERIFY(loaded);
        QCOMPARE(loaded->name, QStringLiteral("renamed"));
        QCOMPARE(warningsOf(issues).size(), 1);
        QVERIFY(!describe(issues).contains(QLatin1String("clear-text-password")));

        // A new file with a clear secret is never created readable by others.
        const QString fresh = dir.filePath(QStringLiteral("fresh.mirrorjob"));
        QVERIFY2(p.save(fresh, &error), qPrintable(error));
        QCOMPARE(::stat(QFile::encodeName(fresh).constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, mode_t(0600));

        // A folder that does not exist: an error naming the path, no file.
        const QString bad = dir.filePath(QStringLiteral("missing/dir/job.mirrorjob"));
        QVERIFY(!p.save(bad, &error));
        QVERIFY2(error.contains(bad), qPrintable(error));
        QVERIFY(!QFileInfo::exists(bad));
    }

    // ------------------------------------------------------------ resolving into the engine's spec

    void toSpecResolvesReferences()
    {
        qputenv("MD_TST_EU_PASSWORD", "s3cret-from-env");
        qputenv("MD_TST_HOST", "kafka-eu.example");
        QTemporaryDir dir;
        QFile ca(dir.filePath(QStringLiteral("ca.pem")));
        QVERIFY(ca.open(QIODevice::WriteOnly));
        ca.write("not really a certificate");
        ca.close();

        JobProfile p;
        p.fileName = dir.filePath(QStringLiteral("job.mirrorjob"));
        p.name = QStringLiteral("Orders → DR (eu)");
        p.source.alias = QStringLiteral("eu");
        p.source.bootstrap = QStringLiteral("${env:MD_TST_HOST}:9092");
        p.source.security = SecurityProtocol::SaslSsl;
        p.source.hasSasl = true;
        p.source.saslMechanism = QStringLiteral("scram-sha-256");
        p.source.saslUsername = QStringLiteral("mirror");
        p.source.saslPassword = QStringLiteral("${env:MD_TST_EU_PASSWORD}");
        p.source.sslCa = QStringLiteral("ca.pem"); // relative to the profile's folder
        p.source.properties = {{QStringLiteral("client.id"), QStringLiteral("cost$${not-a-ref}")}};
        p.target.alias = QStringLiteral("dr");
        p.target.bootstrap = QStringLiteral("kafka-dr:9092");
        p.target.security = SecurityProtocol::SaslPlaintext;
        p.target.hasSasl = true;
        p.target.saslMechanism = QStringLiteral("PLAIN");
        p.target.saslUsername = QStringLiteral("admin");
        p.target.saslPassword = QStringLiteral("${keychain:mirrordesk/dr}");
        p.include = {QStringLiteral("orders.*")};
        p.throttleBytesPerSecond = 1000;

        const ReferenceResolver keychain = [](const QString &kind, const QString &arg, QString *error) -> std::optional<QString> {
            if (kind == QLatin1String("keychain") && arg == QLatin1String("mirrordesk/dr"))
                return QStringLiteral("from-keychain");
            *error = QStringLiteral("no such entry");
            return std::nullopt;
        };
        QList<ProfileIssue> issues;
        const std::optional<MirrorJobSpec> spec = p.toSpec(keychain, &issues);
        QVERIFY2(spec, qPrintable(describe(issues)));
        QCOMPARE(spec->source.bootstrap, QStringLiteral("kafka-eu.example:9092"));
        QCOMPARE(spec->source.saslMechanism, QStringLiteral("SCRAM-SHA-256"));
        QCOMPARE(spec->source.saslPassword, QStringLiteral("s3cret-from-env"));
        QCOMPARE(spec->source.sslCaFile, QFileInfo(ca).absoluteFilePath());
        QCOMPARE(spec->source.properties.value(QStringLiteral("client.id")), QStringLiteral("cost${not-a-ref}"));
        QCOMPARE(spec->target.saslPassword, QStringLiteral("from-keychain"));
        QCOMPARE(spec->target.security, SecurityProtocol::SaslPlaintext);
        QCOMPARE(spec->groupId, QStringLiteral("mirrordesk-orders-dr-eu"));
        QCOMPARE(spec->throttleBytesPerSecond, 1000);
        QCOMPARE(spec->nameTemplate, QStringLiteral("${topic}"));
    }

    void toSpecErrors_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("keyPath");
        QTest::addColumn<QString>("message");
        QTest::newRow("unset env") << "password" << "${env:MD_TST_DOES_NOT_EXIST}" << "source.sasl.password"
                                   << "environment variable MD_TST_DOES_NOT_EXIST is not set";
        QTest::newRow("keychain miss") << "password" << "${keychain:nope}" << "source.sasl.password"
                                       << "cannot resolve ${keychain:nope}: no such entry";
        QTest::newRow("unknown kind") << "bootstrap" << "${vault:x}" << "source.bootstrap" << "cannot resolve ${vault:x}";
        QTest::newRow("empty after resolving") << "bootstrap" << "${env:MD_TST_EMPTY}" << "source.bootstrap"
                                               << "resolves to an empty value";
        QTest::newRow("missing ca file") << "ca" << "no-such-ca.pem" << "source.ssl.ca" << "file not found: ";
    }

    void toSpecErrors()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, keyPath);
        QFETCH(QString, message);
        qputenv("MD_TST_EMPTY", "");
        qputenv("MD_TST_SECRET", "do-not-print-me");
        JobProfile p;
        p.fileName = QStringLiteral("/nonexistent-dir/job.mirrorjob");
        p.source.alias = QStringLiteral("eu");
        p.source.bootstrap = field == QLatin1String("bootstrap") ? value : QStringLiteral("a:1");
        p.source.security = SecurityProtocol::SaslSsl;
        p.source.hasSasl = true;
        p.source.saslMechanism = QStringLiteral("PLAIN");
        p.source.saslUsername = QStringLiteral("${env:MD_TST_SECRET}");
        p.source.saslPassword = field == QLatin1String("password") ? value : QStringLiteral("${env:MD_TST_SECRET}");
        p.source.sslCa = field == QLatin1String("ca") ? value : QString();
        p.target.bootstrap = QStringLiteral("b:1");
        p.include = {QStringLiteral(".*")};
        const ReferenceResolver resolver = [](const QString &, const QString &, QString *error) -> std::optional<QString> {
            *error = QStringLiteral("no such entry");
            return std::nullopt;
        };
        QList<ProfileIssue> issues;
        QVERIFY(!p.toSpec(resolver, &issues));
        QCOMPARE(issues.size(), 1);
        QCOMPARE(issues.first().keyPath, keyPath);
        QVERIFY2(issues.first().message.contains(message), qPrintable(issues.first().toString()));
        QVERIFY(!describe(issues).contains(QLatin1String("do-not-print-me")));
    }

    void toSpecRefusesAnInvalidProfile()
    {
        JobProfile p; // no bootstrap, no include
        QList<ProfileIssue> issues;
        QVERIFY(!p.toSpec({}, &issues));
        QStringList paths;
        for (const ProfileIssue &i : issues)
            paths << i.keyPath;
        QVERIFY2(paths.contains(QStringLiteral("source.bootstrap")), qPrintable(describe(issues)));
        QVERIFY(paths.contains(QStringLiteral("target.bootstrap")));
        QVERIFY(paths.contains(QStringLiteral("topics.include")));
    }

    void meaningIssuesCarryPositions_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("keyPath");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        const QByteArray good = "{\n"
                                "  \"mirrordesk\": 1,\n"
                                "  \"name\": \"ünïcödé\", \"source\": {\"alias\": 5, \"bootstrap\": \"a:1\",\n"
                                "     \"properties\": {\"client.rack\": []}},\n"
                                "  \"target\": {\"bootstrap\": \"b:1\"},\n"
                                "  \"topics\": {\"include\": [\"ok\", \"bad(\"]},\n"
                                "  \"naming\": {\"policy\": \"x\"}\n"
                                "}\n";
        QTest::newRow("regex in array") << good << "topics.include[1]" << 6 << 32;
        QTest::newRow("after UTF-8 text") << good << "source.alias" << 3 << 42;
        QTest::newRow("property map entry") << good << "source.properties[\"client.rack\"]" << 4 << 36;
        QTest::newRow("naming policy") << good << "naming.policy" << 7 << 24;
        const QByteArray missing = "{\"mirrordesk\": 1,\n\"source\": {\"alias\": \"eu\"},\n\"target\": {\"bootstrap\": \"b:1\"},\n"
                                   "\"topics\": {\"include\": [\".*\"]}}";
        QTest::newRow("missing key points at its object") << missing << "source.bootstrap" << 2 << 11;
        const QByteArray twice = "{\"mirrordesk\": 1, \"source\": {\"bootstrap\": \"a:1\", \"alias\": \"eu\"},\n"
                                 "\"target\": {\"bootstrap\": \"b:1\", \"bootstrap\": \"c:1\"},\n"
                                 "\"topics\": {\"include\": [\".*\"]}}";
        QTest::newRow("duplicate key") << twice << "target.bootstrap" << 2 << 32;
    }

    void meaningIssuesCarryPositions()
    {
        QFETCH(QByteArray, data);
        QFETCH(QString, keyPath);
        QFETCH(int, line);
        QFETCH(int, column);
        QList<ProfileIssue> issues;
        JobProfile::fromJson(data, QStringLiteral("pos.mirrorjob"), &issues);
        const auto it = std::find_if(issues.begin(), issues.end(), [&](const ProfileIssue &i) { return i.keyPath == keyPath; });
        QVERIFY2(it != issues.end(), qPrintable(describe(issues)));
        QCOMPARE(it->line, line);
        QCOMPARE(it->column, column);
        QVERIFY(it->toString().startsWith(QStringLiteral("pos.mirrorjob:%1:%2: ").arg(line).arg(column)));
    }

    void groupIdForName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("groupId");
        QTest::newRow("spaces") << "orders to DR" << "mirrordesk-orders-to-dr";
        QTest::newRow("punctuation") << "  EU → DR: orders!! " << "mirrordesk-eu-dr-orders";
        QTest::newRow("keeps dots and underscores") << "eu.orders_v2" << "mirrordesk-eu.orders_v2";
        QTest::newRow("empty") << "" << "mirrordesk-job";
        QTest::newRow("only symbols") << "→→" << "mirrordesk-job";
    }

    void groupIdForName()
    {
        QFETCH(QString, name);
        QFETCH(QString, groupId);
        QCOMPARE(JobProfile::groupIdForName(name), groupId);
        JobProfile p;
        p.name = name;
        QCOMPARE(p.effectiveGroupId(), groupId);
        p.groupId = QStringLiteral("explicit");
        QCOMPARE(p.effectiveGroupId(), QStringLiteral("explicit"));
    }

    void references_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("refs");
        QTest::addColumn<bool>("whole");
        QTest::addColumn<bool>("malformed");
        QTest::newRow("none") << "plain" << QStringList() << false << false;
        QTest::newRow("env") << "${env:EU_PASSWORD}" << QStringList{QStringLiteral("env|EU_PASSWORD")} << true << false;
        QTest::newRow("keychain with slash") << "${keychain:mirrordesk/eu}" << QStringList{QStringLiteral("keychain|mirrordesk/eu")}
                                             << true << false;
        QTest::newRow("embedded twice") << "${env:H}:${env:P}" << QStringList{QStringLiteral("env|H"), QStringLiteral("env|P")} << false
                                        << false;
        QTest::newRow("escaped") << "$${env:X}" << QStringList() << false << false;
        QTest::newRow("lone dollar") << "a$b$" << QStringList() << false << false;
        QTest::newRow("unterminated") << "${env:X" << QStringList() << false << true;
        QTest::newRow("no kind") << "${:X}" << QStringList() << false << true;
        QTest::newRow("no arg") << "${env:}" << QStringList() << false << true;
        QTest::newRow("upper-case kind") << "${ENV:X}" << QStringList() << false << true;
    }

    void references()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, refs);
        QFETCH(bool, whole);
        QFETCH(bool, malformed);
        QString error;
        QStringList found;
        for (const SecretRef &r : SecretRef::findAll(text, &error))
            found << r.kind + QLatin1Char('|') + r.arg;
        QCOMPARE(found, refs);
        QCOMPARE(!error.isEmpty(), malformed);
        QCOMPARE(SecretRef::whole(text).has_value(), whole);
    }
};

QTEST_GUILESS_MAIN(TstJobProfile)
#include "tst_jobprofile.moc"
