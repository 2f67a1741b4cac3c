// Job profiles that mean something wrong: meaning errors with key paths and
// positions, and a wrong type for every key.

#include "JobProfileTestUtil.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace md;
using namespace md::test;

// No raw string literals below: moc (6.4) loses the class on some of them.
class TstProfileErrors final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void meaningError_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("keyPath");
        QTest::addColumn<QString>("message");

        const QJsonValue none(QJsonValue::Undefined); // remove the key
        // The format version
        QTest::newRow("no version") << profileWith(QStringLiteral("mirrordesk"), none) << "mirrordesk"
                                    << "missing required key: the format version";
        QTest::newRow("version as string")
            << profileWith(QStringLiteral("mirrordesk"), QStringLiteral("1")) << "mirrordesk"
            << "must be a whole number (1), found a string";
        QTest::newRow("newer version") << profileWith(QStringLiteral("mirrordesk"), 2) << "mirrordesk"
                                       << "format version 2 is newer than this build of MirrorDesk understands";
        QTest::newRow("version 0") << profileWith(QStringLiteral("mirrordesk"), 0) << "mirrordesk"
                                   << "unknown format version 0";
        QTest::newRow("version 1.5") << profileWith(QStringLiteral("mirrordesk"), 1.5) << "mirrordesk"
                                     << "whole number";
        QTest::newRow("empty object") << QByteArray("{}") << "mirrordesk"
                                      << "is this a MirrorDesk job profile?";
        // Sides
        QTest::newRow("no source") << profileWith(QStringLiteral("source"), none) << "source"
                                   << "missing required key";
        QTest::newRow("source is a string")
            << profileWith(QStringLiteral("source"), QStringLiteral("kafka:9092")) << "source"
            << "expected an object, found a string";
        QTest::newRow("no source.bootstrap")
            << profileWith(QStringLiteral("source.bootstrap"), none) << "source.bootstrap"
            << "missing required key";
        QTest::newRow("no target.bootstrap")
            << profileWith(QStringLiteral("target.bootstrap"), none) << "target.bootstrap"
            << "missing required key";
        QTest::newRow("empty target.bootstrap")
            << profileWith(QStringLiteral("target.bootstrap"), QStringLiteral(" ")) << "target.bootstrap"
            << "required";
        QTest::newRow("bootstrap is a number")
            << profileWith(QStringLiteral("source.bootstrap"), 9092) << "source.bootstrap"
            << "expected a string, found a number";
        QTest::newRow("bootstrap bad port")
            << profileWith(QStringLiteral("source.bootstrap"), QStringLiteral("a:9092,b:99999")) << "source.bootstrap"
            << "\"b:99999\": the port must be a number from 1 to 65535";
        QTest::newRow("bootstrap empty entry")
            << profileWith(QStringLiteral("source.bootstrap"), QStringLiteral("a:9092,,b:1")) << "source.bootstrap"
            << "empty server";
        QTest::newRow("bad reference") << profileWith(QStringLiteral("source.bootstrap"), QStringLiteral("${sandbox"))
                                       << "source.bootstrap"
                                       << "unterminated reference";
        QTest::newRow("reference without kind")
            << profileWith(QStringLiteral("source.bootstrap"), QStringLiteral("${source}")) << "source.bootstrap"
            << "malformed reference \"${source}\"";
        QTest::newRow("alias is a bool") << profileWith(QStringLiteral("target.alias"), true) << "target.alias"
                                         << "expected a string, found a boolean";
        // Security
        QTest::newRow("unknown security")
            << profileWith(QStringLiteral("source.security"), QStringLiteral("tls")) << "source.security"
            << "unknown security protocol \"tls\" (expected plaintext, ssl, sasl_plaintext or sasl_ssl)";
        QTest::newRow("sasl_ssl without sasl")
            << profileWith(QStringLiteral("source.security"), QStringLiteral("sasl_ssl")) << "source.sasl"
            << "required with security sasl_ssl";
        QTest::newRow("sasl is an array") << profileWith(QStringLiteral("source.sasl"), QJsonArray()) << "source.sasl"
                                          << "expected an object, found an array";
        QTest::newRow("GSSAPI") << profileWith({{QStringLiteral("target.security"), QStringLiteral("sasl_plaintext")},
                                                {QStringLiteral("target.sasl"),
                                                 parse("{\"mechanism\": \"GSSAPI\", \"username\": \"u\",\n"
                                                       "                                                               "
                                                       "                            \"password\": \"${env:P}\"}")}})
                                << "target.sasl.mechanism"
                                << "unsupported mechanism \"GSSAPI\" (expected PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512)";
        QTest::newRow("sasl without password")
            << profileWith({{QStringLiteral("target.security"), QStringLiteral("sasl_plaintext")},
                            {QStringLiteral("target.sasl"), parse("{\"mechanism\": \"PLAIN\", \"username\": \"u\"}")}})
            << "target.sasl.password"
            << "required with security sasl_plaintext";
        QTest::newRow("sasl without mechanism")
            << profileWith(
                   {{QStringLiteral("target.security"), QStringLiteral("sasl_ssl")},
                    {QStringLiteral("target.sasl"), parse("{\"username\": \"u\", \"password\": \"${env:P}\"}")}})
            << "target.sasl.mechanism"
            << "required with security sasl_ssl";
        QTest::newRow("password is a number")
            << profileWith({{QStringLiteral("source.security"), QStringLiteral("sasl_ssl")},
                            {QStringLiteral("source.sasl"),
                             parse("{\"mechanism\": \"PLAIN\", \"username\": \"u\", \"password\": 1234}")}})
            << "source.sasl.password"
            << "expected a string, found a number";
        // The schema registry beside a cluster
        QTest::newRow("registry url not http")
            << profileWith(QStringLiteral("source.schemaRegistry"), parse("{\"url\": \"ftp://registry:8081\"}"))
            << "source.schemaRegistry.url"
            << "not an http(s) URL";
        QTest::newRow("registry url no host")
            << profileWith(QStringLiteral("target.schemaRegistry"), parse("{\"url\": \"registry:8081\"}"))
            << "target.schemaRegistry.url"
            << "not an http(s) URL";
        QTest::newRow("registry without url")
            << profileWith(QStringLiteral("source.schemaRegistry"), parse("{\"ca\": \"ca.pem\"}"))
            << "source.schemaRegistry.url"
            << "required with schemaRegistry";
        QTest::newRow("registry password without username")
            << profileWith(QStringLiteral("source.schemaRegistry"),
                           parse("{\"url\": \"https://r/apis/ccompat/v7\", \"password\": \"${env:P}\"}"))
            << "source.schemaRegistry.password"
            << "needs schemaRegistry.username";
        QTest::newRow("registry username without password")
            << profileWith(QStringLiteral("source.schemaRegistry"),
                           parse("{\"url\": \"https://r\", \"username\": \"u\"}"))
            << "source.schemaRegistry.username"
            << "needs schemaRegistry.password";
        QTest::newRow("registry token with username")
            << profileWith(QStringLiteral("source.schemaRegistry"),
                           parse("{\"url\": \"https://r\", \"username\": \"u\", \"password\": \"${env:P}\", "
                                 "\"token\": \"${env:T}\"}"))
            << "source.schemaRegistry.token"
            << "not together with schemaRegistry.username";
        QTest::newRow("ssl cert without key")
            << profileWith({{QStringLiteral("source.security"), QStringLiteral("ssl")},
                            {QStringLiteral("source.ssl"), parse("{\"cert\": \"c.pem\"}")}})
            << "source.ssl.key"
            << "required with ssl.cert";
        QTest::newRow("ssl.ca is null") << profileWith(QStringLiteral("source.ssl"), parse("{\"ca\": null}"))
                                        << "source.ssl.ca"
                                        << "expected a string, found null";
        // Free properties
        QTest::newRow("property is an array")
            << profileWith(QStringLiteral("source.properties"), parse("{\"client.rack\": []}"))
            << "source.properties[\"client.rack\"]"
            << "expected a string, number or boolean, found an array";
        QTest::newRow("properties is a list")
            << profileWith(QStringLiteral("target.producerProperties"), parse("[1]")) << "target.producerProperties"
            << "expected an object";
        // Topics
        QTest::newRow("no topics") << profileWith(QStringLiteral("topics"), none) << "topics"
                                   << "missing required key";
        QTest::newRow("no topics.include") << profileWith(QStringLiteral("topics.include"), none) << "topics.include"
                                           << "missing required key";
        QTest::newRow("empty topics.include")
            << profileWith(QStringLiteral("topics.include"), QJsonArray()) << "topics.include"
            << "at least one regular expression is required";
        QTest::newRow("include not a list") << profileWith(QStringLiteral("topics.include"), 7) << "topics.include"
                                            << "expected an array of strings, found a number";
        QTest::newRow("include element number")
            << profileWith(QStringLiteral("topics.include"), parse("[\"a\", 3]")) << "topics.include[1]"
            << "expected a string, found a number";
        QTest::newRow("regex after a wrong element")
            << profileWith(QStringLiteral("topics.include"), parse("[\"a\", 3, \"(b\"]")) << "topics.include[2]"
            << "invalid regular expression";
        QTest::newRow("invalid include regex")
            << profileWith(QStringLiteral("topics.include"), parse("[\"orders(\", \"x\"]")) << "topics.include[0]"
            << "invalid regular expression: missing closing parenthesis at offset 7";
        QTest::newRow("invalid exclude regex")
            << profileWith(QStringLiteral("topics.exclude"), parse("[\"ok\", \"*x\"]")) << "topics.exclude[1]"
            << "invalid regular expression: ";
        QTest::newRow("empty include regex")
            << profileWith(QStringLiteral("topics.include"), parse("[\"\"]")) << "topics.include[0]"
            << "empty regular expression";
        QTest::newRow("invalid configExclude")
            << profileWith(QStringLiteral("configExclude"), parse("[\"[a-\"]")) << "configExclude[0]"
            << "invalid regular expression";
        QTest::newRow("excludeInternal string")
            << profileWith(QStringLiteral("topics.excludeInternal"), QStringLiteral("yes")) << "topics.excludeInternal"
            << "expected true or false, found a string";
        // Naming
        QTest::newRow("unknown policy") << profileWith(QStringLiteral("naming.policy"), QStringLiteral("x"))
                                        << "naming.policy"
                                        << "unknown policy \"x\" (expected identity, prefix or template)";
        QTest::newRow("naming is a number") << profileWith(QStringLiteral("naming"), 3) << "naming"
                                            << "expected an object";
        QTest::newRow("template without topic")
            << profileWith({{QStringLiteral("naming.policy"), QStringLiteral("template")},
                            {QStringLiteral("naming.template"), QStringLiteral("dr-orders")}})
            << "naming.template"
            << "must contain ${topic}";
        QTest::newRow("template missing")
            << profileWith(QStringLiteral("naming.policy"), QStringLiteral("template")) << "naming.template"
            << "required with naming policy template";
        QTest::newRow("template bad char")
            << profileWith({{QStringLiteral("naming.policy"), QStringLiteral("template")},
                            {QStringLiteral("naming.template"), QStringLiteral("dr/${topic}")}})
            << "naming.template"
            << "cannot make a topic name";
        QTest::newRow("prefix without alias") << profileWith(QStringLiteral("source.alias"), none) << "source.alias"
                                              << "required with naming policy prefix";
        QTest::newRow("separator with space")
            << profileWith(QStringLiteral("naming.separator"), QStringLiteral(" ")) << "naming.separator"
            << "cannot be part of a topic name";
        QTest::newRow("identity onto itself")
            << profileWith({{QStringLiteral("naming.policy"), QStringLiteral("identity")},
                            {QStringLiteral("target.bootstrap"), QStringLiteral("kafka-eu:9092")}})
            << "naming.policy"
            << "identity naming would mirror every topic onto itself";
        // Start and stop
        QTest::newRow("unknown start") << profileWith(QStringLiteral("start"), QStringLiteral("yesterday")) << "start"
                                       << "unknown start position \"yesterday\"";
        QTest::newRow("start is a number") << profileWith(QStringLiteral("start"), 0) << "start"
                                           << "found a number";
        QTest::newRow("start timestamp without zone")
            << profileWith(QStringLiteral("start"), parse("{\"timestamp\": \"2026-11-01T00:00:00\"}"))
            << "start.timestamp"
            << "has no time zone";
        QTest::newRow("start timestamp garbage")
            << profileWith(QStringLiteral("start"), parse("{\"timestamp\": \"tomorrow\"}")) << "start.timestamp"
            << "\"tomorrow\" is not an ISO 8601 date and time";
        QTest::newRow("start timestamp impossible date")
            << profileWith(QStringLiteral("start"), parse("{\"timestamp\": \"2026-02-30T00:00:00Z\"}"))
            << "start.timestamp"
            << "is not an ISO 8601 date and time";
        QTest::newRow("start timestamp number")
            << profileWith(QStringLiteral("start"), parse("{\"timestamp\": 1700000000}")) << "start.timestamp"
            << "found a number";
        QTest::newRow("start object without timestamp")
            << profileWith(QStringLiteral("start"), parse("{}")) << "start.timestamp"
            << "missing required key";
        QTest::newRow("unknown stop") << profileWith(QStringLiteral("stop"), QStringLiteral("soon")) << "stop"
                                      << "unknown stop condition \"soon\"";
        QTest::newRow("stop records 0") << profileWith(QStringLiteral("stop"), parse("{\"records\": 0}"))
                                        << "stop.records"
                                        << "out of range";
        QTest::newRow("stop records text")
            << profileWith(QStringLiteral("stop"), parse("{\"records\": \"10\"}")) << "stop.records"
            << "expected a whole number, found a string";
        QTest::newRow("stop both") << profileWith(QStringLiteral("stop"),
                                                  parse("{\"records\": 1, \"timestamp\": \"2026-01-01T00:00:00Z\"}"))
                                   << "stop"
                                   << "not both";
        QTest::newRow("stop before start")
            << profileWith({{QStringLiteral("start"), parse("{\"timestamp\": \"2026-11-02T00:00:00Z\"}")},
                            {QStringLiteral("stop"), parse("{\"timestamp\": \"2026-11-01T00:00:00+01:00\"}")}})
            << "stop.timestamp"
            << "must be later than start.timestamp";
        // Everything else
        QTest::newRow("transactionIntervalMs too small")
            << profileWith(QStringLiteral("transactionIntervalMs"), 5) << "transactionIntervalMs"
            << "5 is out of range";
        QTest::newRow("transactionMaxRecords 0")
            << profileWith(QStringLiteral("transactionMaxRecords"), 0) << "transactionMaxRecords"
            << "0 is out of range";
        QTest::newRow("delivery unknown")
            << profileWith(QStringLiteral("delivery"), QStringLiteral("maybe")) << "delivery"
            << "unknown delivery guarantee";
        QTest::newRow("createTopics string")
            << profileWith(QStringLiteral("createTopics"), QStringLiteral("yes")) << "createTopics"
            << "expected true or false, found a string";
        QTest::newRow("syncTopicConfigs number")
            << profileWith(QStringLiteral("syncTopicConfigs"), 1) << "syncTopicConfigs"
            << "expected true or false, found a number";
        QTest::newRow("negative throttle")
            << profileWith(QStringLiteral("throttleBytesPerSecond"), -1) << "throttleBytesPerSecond"
            << "-1 is out of range";
        QTest::newRow("fractional throttle")
            << profileWith(QStringLiteral("throttleBytesPerSecond"), 1.5) << "throttleBytesPerSecond"
            << "expected a whole number";
        QTest::newRow("throttle string") << profileWith(QStringLiteral("throttleBytesPerSecond"),
                                                        QStringLiteral("10MB"))
                                         << "throttleBytesPerSecond"
                                         << "expected a whole number, found a string";
        QTest::newRow("huge throttle") << profileWith(QStringLiteral("throttleBytesPerSecond"), 1e300)
                                       << "throttleBytesPerSecond"
                                       << "out of range";
        QTest::newRow("sampling 0") << profileWith(QStringLiteral("samplingIntervalMs"), 0) << "samplingIntervalMs"
                                    << "out of range";
        QTest::newRow("refresh null") << profileWith(QStringLiteral("topicRefreshIntervalMs"),
                                                     QJsonValue(QJsonValue::Null))
                                      << "topicRefreshIntervalMs"
                                      << "found null";
        QTest::newRow("name is a number") << profileWith(QStringLiteral("name"), 5) << "name"
                                          << "expected a string, found a number";
        QTest::newRow("groupId is an object") << profileWith(QStringLiteral("groupId"), QJsonObject()) << "groupId"
                                              << "expected a string, found an object";
        // Group offset sync
        QTest::newRow("invalid groups.include regex")
            << profileWith(QStringLiteral("groups"), parse("{\"include\": [\"ok\", \"billing(\"]}"))
            << "groups.include[1]"
            << "invalid regular expression: missing closing parenthesis";
        QTest::newRow("invalid groups.exclude regex")
            << profileWith(QStringLiteral("groups"), parse("{\"include\": [\".*\"], \"exclude\": [\"*x\"]}"))
            << "groups.exclude[0]"
            << "invalid regular expression";
        QTest::newRow("groups is a list") << profileWith(QStringLiteral("groups"), parse("[\"a\"]")) << "groups"
                                          << "expected an object, found an array";
        QTest::newRow("syncGroupOffsets string")
            << profileWith(QStringLiteral("syncGroupOffsets"), QStringLiteral("yes")) << "syncGroupOffsets"
            << "expected true or false, found a string";
        QTest::newRow("groupSyncIntervalMs too small")
            << profileWith(QStringLiteral("groupSyncIntervalMs"), 999) << "groupSyncIntervalMs"
            << "999 is out of range: must be at least 1000";
        // ACL sync
        QTest::newRow("acls is a bool") << profileWith(QStringLiteral("acls"), true) << "acls"
                                        << "expected an object, found a boolean";
        QTest::newRow("acls.sync string")
            << profileWith(QStringLiteral("acls.sync"), QStringLiteral("yes")) << "acls.sync"
            << "expected true or false, found a string";
        QTest::newRow("acls.mode unknown")
            << profileWith(QStringLiteral("acls"), parse("{\"sync\": true, \"mode\": \"loose\"}")) << "acls.mode"
            << "unknown ACL sync mode \"loose\" (expected safe or exact)";
        QTest::newRow("acls.mode in capitals")
            << profileWith(QStringLiteral("acls.mode"), QStringLiteral("EXACT")) << "acls.mode"
            << "unknown ACL sync mode \"EXACT\" (expected safe or exact)";
        QTest::newRow("acls.intervalMs too small")
            << profileWith(QStringLiteral("acls"), parse("{\"sync\": true, \"intervalMs\": 999}")) << "acls.intervalMs"
            << "999 is out of range: must be at least 1000";
        QTest::newRow("acls.intervalMs too large")
            << profileWith(QStringLiteral("acls.intervalMs"), 86400001) << "acls.intervalMs"
            << "86400001 is out of range: must be at most 86400000";
        QTest::newRow("acls.intervalMs fractional")
            << profileWith(QStringLiteral("acls.intervalMs"), 1500.5) << "acls.intervalMs"
            << "expected a whole number";
        QTest::newRow("offsetMapTopic invalid")
            << profileWith(QStringLiteral("offsetMapTopic"), QStringLiteral("map topic/1")) << "offsetMapTopic"
            << "is not a valid Kafka topic name";
        QTest::newRow("offsetMapTopic too long")
            << profileWith(QStringLiteral("offsetMapTopic"), QString(250, QLatin1Char('m'))) << "offsetMapTopic"
            << "is not a valid Kafka topic name";
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
        const auto match =
            std::find_if(errors.begin(), errors.end(), [&](const ProfileIssue &i) { return i.keyPath == keyPath; });
        QVERIFY2(match != errors.end(),
                 qPrintable(QStringLiteral("no error at %1 in:\n%2").arg(keyPath, describe(issues))));
        QVERIFY2(match->message.contains(message), qPrintable(match->toString()));
        QCOMPARE(match->file, QStringLiteral("job.mirrorjob"));
        // Meaning errors also point into the file: at the key's value, or at the object missing it.
        const QRegularExpression shape(QStringLiteral("^job\\.mirrorjob(:\\d+:\\d+)?: error: ") +
                                       QRegularExpression::escape(keyPath) + QStringLiteral(": "));
        QVERIFY2(shape.match(match->toString()).hasMatch(), qPrintable(match->toString()));
        QVERIFY2(match->line > 0 && match->column > 0, qPrintable(match->toString()));
        // One problem, one error: a wrong type is not reported again as "missing".
        QVERIFY2(std::count_if(errors.begin(), errors.end(),
                               [&](const ProfileIssue &i) { return i.keyPath == keyPath; }) == 1,
                 qPrintable(describe(issues)));

        QList<ProfileIssue> specIssues;
        QVERIFY(!JobProfile::fromJson(data, QString(), nullptr).toSpec({}, &specIssues) || hasErrors(issues));
    }

    // Every key of the format with a value of the wrong type: an error at exactly that key.
    void wrongTypeForEveryKey_data()
    {
        QTest::addColumn<QString>("keyPath");
        QTest::addColumn<QJsonValue>("value");
        const QStringList strings = {QStringLiteral("name"),
                                     QStringLiteral("groupId"),
                                     QStringLiteral("delivery"),
                                     QStringLiteral("source.alias"),
                                     QStringLiteral("source.bootstrap"),
                                     QStringLiteral("source.security"),
                                     QStringLiteral("target.alias"),
                                     QStringLiteral("target.bootstrap"),
                                     QStringLiteral("target.security"),
                                     QStringLiteral("source.sasl.mechanism"),
                                     QStringLiteral("source.sasl.username"),
                                     QStringLiteral("source.sasl.password"),
                                     QStringLiteral("source.ssl.ca"),
                                     QStringLiteral("source.ssl.cert"),
                                     QStringLiteral("source.ssl.key"),
                                     QStringLiteral("source.ssl.keyPassword"),
                                     QStringLiteral("source.schemaRegistry.url"),
                                     QStringLiteral("source.schemaRegistry.username"),
                                     QStringLiteral("target.schemaRegistry.password"),
                                     QStringLiteral("target.schemaRegistry.token"),
                                     QStringLiteral("source.schemaRegistry.ca"),
                                     QStringLiteral("naming.policy"),
                                     QStringLiteral("naming.separator"),
                                     QStringLiteral("naming.template"),
                                     QStringLiteral("acls.mode")};
        for (const QString &k : strings) {
            QTest::addRow("%s = []", qPrintable(k)) << k << QJsonValue(QJsonArray());
            QTest::addRow("%s = 1", qPrintable(k)) << k << QJsonValue(1);
        }
        const QStringList bools = {QStringLiteral("createTopics"), QStringLiteral("syncTopicConfigs"),
                                   QStringLiteral("topics.excludeInternal"), QStringLiteral("offsetMap"),
                                   QStringLiteral("acls.sync")};
        for (const QString &k : bools)
            QTest::addRow("%s = \"true\"", qPrintable(k)) << k << QJsonValue(QStringLiteral("true"));
        const QStringList numbers = {QStringLiteral("mirrordesk"), QStringLiteral("throttleBytesPerSecond"),
                                     QStringLiteral("samplingIntervalMs"), QStringLiteral("topicRefreshIntervalMs"),
                                     QStringLiteral("acls.intervalMs")};
        for (const QString &k : numbers)
            QTest::addRow("%s = \"1\"", qPrintable(k)) << k << QJsonValue(QStringLiteral("1"));
        const QStringList objects = {QStringLiteral("source"),
                                     QStringLiteral("target"),
                                     QStringLiteral("topics"),
                                     QStringLiteral("source.sasl"),
                                     QStringLiteral("source.ssl"),
                                     QStringLiteral("source.schemaRegistry"),
                                     QStringLiteral("source.properties"),
                                     QStringLiteral("source.consumerProperties"),
                                     QStringLiteral("target.producerProperties"),
                                     QStringLiteral("target.adminProperties"),
                                     QStringLiteral("acls")};
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
                             [&](const ProfileIssue &i) {
                                 return i.keyPath == keyPath && i.message.contains(QLatin1String("found"));
                             }),
                 qPrintable(describe(issues)));
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
        const QByteArray missing =
            "{\"mirrordesk\": 1,\n\"source\": {\"alias\": \"eu\"},\n\"target\": {\"bootstrap\": \"b:1\"},\n"
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
        const auto it =
            std::find_if(issues.begin(), issues.end(), [&](const ProfileIssue &i) { return i.keyPath == keyPath; });
        QVERIFY2(it != issues.end(), qPrintable(describe(issues)));
        QCOMPARE(it->line, line);
        QCOMPARE(it->column, column);
        QVERIFY(it->toString().startsWith(QStringLiteral("pos.mirrorjob:%1:%2: ").arg(line).arg(column)));
    }

    // ------------------------------------------------------------ never a crash
};

QTEST_GUILESS_MAIN(TstProfileErrors)
#include "tst_profileerrors.moc"
