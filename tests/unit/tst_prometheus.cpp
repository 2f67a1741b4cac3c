// The Prometheus exporter over real loopback sockets: what it serves is PARSED with a strict
// reader of the text exposition format 0.0.4 (names, labels with escapes, values, HELP/TYPE
// rules), then checked figure by figure.

#include "PrometheusExporter.h"

#include <QDeadlineTimer>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

#include <atomic>
#include <cmath>
#include <thread>

using namespace md;

namespace {

// ---- a strict exposition parser -------------------------------------------------------------

struct Sample {
    QString name;
    QMap<QString, QString> labels;
    double value = 0;
};

struct Exposition {
    QHash<QString, QString> types; // family -> type
    QHash<QString, QString> helps;
    QList<Sample> samples;
    QString error; // empty when the whole text was valid

    QList<Sample> find(const QString &name, const QMap<QString, QString> &labels = {}) const
    {
        QList<Sample> out;
        for (const Sample &s : samples) {
            if (s.name != name)
                continue;
            bool match = true;
            for (auto it = labels.cbegin(); it != labels.cend(); ++it)
                match = match && s.labels.value(it.key()) == it.value() && s.labels.contains(it.key());
            if (match)
                out.append(s);
        }
        return out;
    }
    std::optional<double> value(const QString &name, const QMap<QString, QString> &labels) const
    {
        const auto found = find(name, labels);
        if (found.size() != 1)
            return std::nullopt;
        return found.first().value;
    }
};

bool parseValue(const QString &text, double *out)
{
    if (text == QLatin1String("NaN")) {
        *out = std::nan("");
        return true;
    }
    if (text == QLatin1String("+Inf") || text == QLatin1String("-Inf")) {
        *out = text.startsWith(QLatin1Char('+')) ? INFINITY : -INFINITY;
        return true;
    }
    bool ok = false;
    *out = text.toDouble(&ok);
    return ok;
}

Exposition parseExposition(const QByteArray &body)
{
    Exposition e;
    static const QRegularExpression metricName(QStringLiteral("^[a-zA-Z_:][a-zA-Z0-9_:]*$"));
    static const QRegularExpression labelName(QStringLiteral("^[a-zA-Z_][a-zA-Z0-9_]*$"));
    static const QStringList knownTypes{QStringLiteral("counter"), QStringLiteral("gauge"), QStringLiteral("histogram"),
                                        QStringLiteral("summary"), QStringLiteral("untyped")};
    if (!body.isEmpty() && !body.endsWith('\n')) {
        e.error = QStringLiteral("text does not end with a newline");
        return e;
    }
    const QString text = QString::fromUtf8(body);
    const QStringList lines = text.split(QLatin1Char('\n'));
    QSet<QString> finishedFamilies;
    QString currentFamily;
    QSet<QString> seenSeries;
    auto familyOf = [&](const QString &name) {
        for (const char *suffix : {"_sum", "_count", "_bucket"}) {
            const QString s = QString::fromLatin1(suffix);
            if (name.endsWith(s) && e.types.contains(name.chopped(s.size())))
                return name.chopped(s.size());
        }
        return name;
    };
    for (qsizetype n = 0; n < lines.size(); ++n) {
        const QString &line = lines[n];
        const QString where = QStringLiteral("line %1: ").arg(n + 1);
        if (line.isEmpty())
            continue;
        if (line.startsWith(QLatin1Char('#'))) {
            const QStringList parts = line.split(QLatin1Char(' '));
            if (parts.size() >= 3 && (parts[1] == QLatin1String("HELP") || parts[1] == QLatin1String("TYPE"))) {
                const QString &name = parts[2];
                if (!metricName.match(name).hasMatch())
                    return e.error = where + QStringLiteral("bad metric name ") + name, e;
                if (parts[1] == QLatin1String("TYPE")) {
                    if (parts.size() != 4 || !knownTypes.contains(parts[3]))
                        return e.error = where + QStringLiteral("bad TYPE line"), e;
                    if (e.types.contains(name))
                        return e.error = where + QStringLiteral("second TYPE for ") + name, e;
                    if (finishedFamilies.contains(name) || e.find(name).size() > 0)
                        return e.error = where + QStringLiteral("TYPE after samples of ") + name, e;
                    e.types.insert(name, parts[3]);
                } else {
                    if (e.helps.contains(name))
                        return e.error = where + QStringLiteral("second HELP for ") + name, e;
                    e.helps.insert(name, line.section(QLatin1Char(' '), 3));
                }
            }
            continue; // other comments are allowed
        }
        // name{label="value",...} value [timestamp]
        Sample s;
        qsizetype i = 0;
        while (i < line.size() && line[i] != QLatin1Char('{') && line[i] != QLatin1Char(' '))
            ++i;
        s.name = line.left(i);
        if (!metricName.match(s.name).hasMatch())
            return e.error = where + QStringLiteral("bad metric name ") + s.name, e;
        if (i < line.size() && line[i] == QLatin1Char('{')) {
            ++i;
            while (true) {
                if (i < line.size() && line[i] == QLatin1Char('}')) {
                    ++i;
                    break;
                }
                const qsizetype eq = line.indexOf(QLatin1Char('='), i);
                if (eq < 0)
                    return e.error = where + QStringLiteral("label without '='"), e;
                const QString lname = line.mid(i, eq - i);
                if (!labelName.match(lname).hasMatch())
                    return e.error = where + QStringLiteral("bad label name ") + lname, e;
                i = eq + 1;
                if (i >= line.size() || line[i] != QLatin1Char('"'))
                    return e.error = where + QStringLiteral("label value not quoted"), e;
                ++i;
                QString value;
                bool closed = false;
                while (i < line.size()) {
                    const QChar c = line[i++];
                    if (c == QLatin1Char('\\')) {
                        if (i >= line.size())
                            return e.error = where + QStringLiteral("dangling escape"), e;
                        const QChar x = line[i++];
                        if (x == QLatin1Char('\\'))
                            value += QLatin1Char('\\');
                        else if (x == QLatin1Char('"'))
                            value += QLatin1Char('"');
                        else if (x == QLatin1Char('n'))
                            value += QLatin1Char('\n');
                        else
                            return e.error = where + QStringLiteral("bad escape \\") + x, e;
                    } else if (c == QLatin1Char('"')) {
                        closed = true;
                        break;
                    } else {
                        value += c;
                    }
                }
                if (!closed)
                    return e.error = where + QStringLiteral("unterminated label value"), e;
                if (s.labels.contains(lname))
                    return e.error = where + QStringLiteral("duplicate label ") + lname, e;
                s.labels.insert(lname, value);
                if (i < line.size() && line[i] == QLatin1Char(','))
                    ++i;
                else if (i >= line.size() || line[i] != QLatin1Char('}'))
                    return e.error = where + QStringLiteral("expected ',' or '}'"), e;
            }
        }
        if (i >= line.size() || line[i] != QLatin1Char(' '))
            return e.error = where + QStringLiteral("no value"), e;
        const QStringList rest = line.mid(i + 1).split(QLatin1Char(' '));
        if (rest.isEmpty() || rest.size() > 2 || !parseValue(rest[0], &s.value))
            return e.error = where + QStringLiteral("bad value '") + line.mid(i + 1) + QLatin1Char('\''), e;
        const QString family = familyOf(s.name);
        if (!e.types.contains(family))
            return e.error = where + QStringLiteral("sample before its TYPE: ") + s.name, e;
        if (family != currentFamily) {
            if (finishedFamilies.contains(family))
                return e.error = where + QStringLiteral("family not contiguous: ") + family, e;
            if (!currentFamily.isEmpty())
                finishedFamilies.insert(currentFamily);
            currentFamily = family;
        }
        QString seriesId = s.name;
        for (auto it = s.labels.cbegin(); it != s.labels.cend(); ++it)
            seriesId += QLatin1Char('\x1f') + it.key() + QLatin1Char('=') + it.value();
        if (seenSeries.contains(seriesId))
            return e.error = where + QStringLiteral("duplicate series ") + s.name, e;
        seenSeries.insert(seriesId);
        if (e.types.value(family) == QLatin1String("counter") && !s.name.endsWith(QLatin1String("_total")))
            return e.error = where + QStringLiteral("counter not named *_total: ") + s.name, e;
        e.samples.append(s);
    }
    return e;
}

// ---- HTTP over a raw socket, while the (same-thread) server keeps serving -------------------

struct Response {
    int code = 0;
    QHash<QByteArray, QByteArray> headers; // lower-case names
    QByteArray body;
    QByteArray raw;
};

Response parseResponse(const QByteArray &raw)
{
    Response r;
    r.raw = raw;
    const qsizetype headEnd = raw.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return r;
    const QList<QByteArray> lines = raw.left(headEnd).split('\n');
    const QList<QByteArray> status = lines.value(0).trimmed().split(' ');
    r.code = status.value(1).toInt();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        if (colon > 0)
            r.headers.insert(lines[i].left(colon).trimmed().toLower(), lines[i].mid(colon + 1).trimmed());
    }
    r.body = raw.mid(headEnd + 4);
    return r;
}

Response exchange(quint16 port, const QList<QByteArray> &chunks, int pauseMs = 0,
                  const QHostAddress &host = QHostAddress(QHostAddress::LocalHost))
{
    QTcpSocket socket;
    socket.connectToHost(host, port);
    QDeadlineTimer deadline(10000);
    while (socket.state() != QAbstractSocket::ConnectedState && !deadline.hasExpired())
        QTest::qWait(2);
    for (const QByteArray &chunk : chunks) {
        socket.write(chunk);
        socket.flush();
        if (pauseMs > 0)
            QTest::qWait(pauseMs);
    }
    QByteArray data;
    while (socket.state() != QAbstractSocket::UnconnectedState && !deadline.hasExpired()) {
        QTest::qWait(2);
        data += socket.readAll();
    }
    data += socket.readAll();
    return parseResponse(data);
}

Response get(quint16 port, const QByteArray &path)
{
    return exchange(port, {"GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/plain\r\n\r\n"});
}

MetricsSnapshot sampleSnapshot(const QString &job)
{
    MetricsSnapshot s;
    s.jobName = job;
    s.time = QDateTime::currentDateTimeUtc();
    s.state = JobState::Running;
    s.recordsConsumed = 1500;
    s.recordsProduced = 1400;
    s.totalLag = 130;
    s.lagTimeMs = 2500;
    s.inFlight = 100;
    s.latency.p50Ms = 12.5;
    s.latency.p99Ms = 240.25;
    PartitionMetrics a;
    a.topic = QStringLiteral("orders");
    a.targetTopic = QStringLiteral("eu.orders");
    a.partition = 0;
    a.endOffset = 1000;
    a.nextOffset = 900;
    a.committedOffset = 850;
    a.lag = 100;
    a.records = 900;
    a.bytes = 90000;
    a.vanishedRecords = 12;
    PartitionMetrics b = a;
    b.partition = 1;
    b.endOffset = 530;
    b.nextOffset = 500;
    b.committedOffset = -1; // never committed
    b.lag = 30;
    b.records = 500;
    b.bytes = 51234;
    b.vanishedRecords = 0;
    s.vanishedRecords = 12;
    s.partitions = {b, a};
    return s;
}

using Labels = QMap<QString, QString>;

} // namespace

class TestPrometheus final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parserRejectsBrokenText_data();
    void parserRejectsBrokenText();
    void servesParsableMetrics();
    void labelValuesAreEscaped();
    void severalJobsShareFamilies();
    void stoppedAndRemovedJobs();
    void unknownPathIs404();
    void otherMethodsAndGarbage();
    void partialRequestIsAnswered();
    void oversizedRequestIsRefused();
    void manyClientsAtOnce();
    void updatesFromAnotherThread();
    void worksWithQNetworkAccessManager();
    void listenErrorIsClear();
    void listensOnTheAddressItIsGiven();
    void everySeriesNamesTheInstance();
    void vanishedCounterNeverGoesDown();
};

void TestPrometheus::parserRejectsBrokenText_data()
{
    // The parser must be able to fail, or the tests below prove nothing.
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("no TYPE") << QByteArray("a 1\n");
    QTest::newRow("bad escape") << QByteArray("# TYPE a gauge\na{x=\"\\t\"} 1\n");
    QTest::newRow("unquoted") << QByteArray("# TYPE a gauge\na{x=1} 1\n");
    QTest::newRow("duplicate series") << QByteArray("# TYPE a gauge\na{x=\"1\"} 1\na{x=\"1\"} 2\n");
    QTest::newRow("two TYPEs") << QByteArray("# TYPE a gauge\n# TYPE a gauge\na 1\n");
    QTest::newRow("split family") << QByteArray("# TYPE a gauge\n# TYPE b gauge\na 1\nb 1\na{x=\"2\"} 1\n");
    QTest::newRow("bad value") << QByteArray("# TYPE a gauge\na one\n");
    QTest::newRow("counter name") << QByteArray("# TYPE a counter\na 1\n");
    QTest::newRow("no final newline") << QByteArray("# TYPE a gauge\na 1");
}

void TestPrometheus::parserRejectsBrokenText()
{
    QFETCH(QByteArray, text);
    QVERIFY(!parseExposition(text).error.isEmpty());
    QVERIFY(parseExposition("# HELP a x\n# TYPE a gauge\na{x=\"\\\\\\\"\\n\"} +Inf\n").error.isEmpty());
}

void TestPrometheus::servesParsableMetrics()
{
    PrometheusExporter exporter;
    QString error;
    QVERIFY2(exporter.listen(0, &error), qPrintable(error));
    QVERIFY(exporter.serverPort() > 0);
    exporter.update(sampleSnapshot(QStringLiteral("orders to DR")), JobLagStatus::Warn);

    const Response r = get(exporter.serverPort(), "/metrics");
    QCOMPARE(r.code, 200);
    QCOMPARE(r.headers.value("content-type"), QByteArray("text/plain; version=0.0.4; charset=utf-8"));
    QCOMPARE(r.headers.value("content-length").toLongLong(), qint64(r.body.size()));
    const Exposition e = parseExposition(r.body);
    QVERIFY2(e.error.isEmpty(), qPrintable(e.error + QStringLiteral("\n") + QString::fromUtf8(r.body)));

    const QString job = QStringLiteral("orders to DR");
    const Labels p0{{QStringLiteral("job"), job},
                    {QStringLiteral("topic"), QStringLiteral("orders")},
                    {QStringLiteral("partition"), QStringLiteral("0")}};
    const Labels p1{{QStringLiteral("job"), job},
                    {QStringLiteral("topic"), QStringLiteral("orders")},
                    {QStringLiteral("partition"), QStringLiteral("1")}};
    QCOMPARE(e.value(QStringLiteral("mirrordesk_partition_lag"), p0), 100.0);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_partition_lag"), p1), 30.0);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_partition_end_offset"), p0), 1000.0);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_partition_mirrored_offset"), p1), 500.0);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_partition_committed_offset"), p0), 850.0);
    // "No committed offset" is absent, not zero.
    QVERIFY(e.find(QStringLiteral("mirrordesk_partition_committed_offset"), p1).isEmpty());
    QCOMPARE(e.value(QStringLiteral("mirrordesk_records_copied_total"), p0), 900.0);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_bytes_copied_total"), p1), 51234.0);
    QCOMPARE(e.types.value(QStringLiteral("mirrordesk_records_copied_total")), QStringLiteral("counter"));
    QCOMPARE(e.types.value(QStringLiteral("mirrordesk_bytes_copied_total")), QStringLiteral("counter"));
    QCOMPARE(e.types.value(QStringLiteral("mirrordesk_partition_lag")), QStringLiteral("gauge"));
    QCOMPARE(e.value(QStringLiteral("mirrordesk_replication_latency_ms"),
                     {{QStringLiteral("job"), job}, {QStringLiteral("quantile"), QStringLiteral("0.5")}}),
             12.5);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_replication_latency_ms"),
                     {{QStringLiteral("job"), job}, {QStringLiteral("quantile"), QStringLiteral("0.99")}}),
             240.25);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_job_lag_records"), {{QStringLiteral("job"), job}}), 130.0);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_job_up"), {{QStringLiteral("job"), job}}), 1.0);
    const auto statuses = e.find(QStringLiteral("mirrordesk_job_status"), {{QStringLiteral("job"), job}});
    QCOMPARE(statuses.size(), 3);
    for (const Sample &s : statuses)
        QCOMPARE(s.value, s.labels.value(QStringLiteral("status")) == QLatin1String("WARN") ? 1.0 : 0.0);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_records_vanished_total"), p0), 12.0);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_records_vanished_total"), p1), 0.0); // present from the start
    QCOMPARE(e.types.value(QStringLiteral("mirrordesk_records_vanished_total")), QStringLiteral("counter"));
    // Every family that has samples has HELP and TYPE; every sample carries the job label.
    for (auto it = e.types.cbegin(); it != e.types.cend(); ++it)
        QVERIFY2(e.helps.contains(it.key()), qPrintable(it.key()));
    for (const Sample &s : e.samples)
        QCOMPARE(s.labels.value(QStringLiteral("job")), job);
    // Same text as render(), which the run command can also print.
    QCOMPARE(r.body, exporter.render());
}

void TestPrometheus::labelValuesAreEscaped()
{
    PrometheusExporter exporter;
    QVERIFY(exporter.listen(0));
    const QString job = QStringLiteral("say \"hi\" C:\\dr\nsecond line, {braces}=ok é");
    exporter.update(sampleSnapshot(job), JobLagStatus::Ok);
    QCOMPARE(PrometheusExporter::escapeLabelValue(QStringLiteral("a\\b\"c\nd")), QStringLiteral("a\\\\b\\\"c\\nd"));

    const Response r = get(exporter.serverPort(), "/metrics");
    QCOMPARE(r.code, 200);
    const Exposition e = parseExposition(r.body);
    QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
    QCOMPARE(e.value(QStringLiteral("mirrordesk_job_up"), {{QStringLiteral("job"), job}}), 1.0);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_partition_lag"),
                     {{QStringLiteral("job"), job}, {QStringLiteral("partition"), QStringLiteral("1")}}),
             30.0);
    // On the wire: quote, backslash and newline escaped; nothing else touched.
    QVERIFY(r.body.contains("job=\"say \\\"hi\\\" C:\\\\dr\\nsecond line, {braces}=ok \xc3\xa9\""));
}

void TestPrometheus::severalJobsShareFamilies()
{
    PrometheusExporter exporter;
    exporter.update(sampleSnapshot(QStringLiteral("b-job")), JobLagStatus::Err);
    exporter.update(sampleSnapshot(QStringLiteral("a-job")), JobLagStatus::Ok);
    MetricsSnapshot again = sampleSnapshot(QStringLiteral("a-job"));
    again.partitions[0].lag = 7; // a newer snapshot of a job replaces the older one
    exporter.update(again, JobLagStatus::Ok);
    const Exposition e = parseExposition(exporter.render()); // rejects repeated HELP/TYPE
    QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
    QCOMPARE(e.find(QStringLiteral("mirrordesk_job_up")).size(), 2);
    QCOMPARE(e.find(QStringLiteral("mirrordesk_partition_lag")).size(), 4);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_partition_lag"), {{QStringLiteral("job"), QStringLiteral("a-job")},
                                                                  {QStringLiteral("partition"), QStringLiteral("1")}}),
             7.0);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_job_status"), {{QStringLiteral("job"), QStringLiteral("b-job")},
                                                               {QStringLiteral("status"), QStringLiteral("ERR")}}),
             1.0);
}

void TestPrometheus::stoppedAndRemovedJobs()
{
    PrometheusExporter exporter;
    QVERIFY(parseExposition(exporter.render()).samples.isEmpty());
    MetricsSnapshot s = sampleSnapshot(QStringLiteral("j"));
    s.state = JobState::Failed;
    s.latency = LatencyStats{}; // unknown latency: no sample rather than -1
    s.lagTimeMs = -1;
    exporter.update(s, JobLagStatus::Err);
    Exposition e = parseExposition(exporter.render());
    QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
    QCOMPARE(e.value(QStringLiteral("mirrordesk_job_up"), {{QStringLiteral("job"), QStringLiteral("j")}}), 0.0);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_job_state"), {{QStringLiteral("job"), QStringLiteral("j")},
                                                              {QStringLiteral("state"), QStringLiteral("failed")}}),
             1.0);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_job_status"),
                     {{QStringLiteral("job"), QStringLiteral("j")}, {QStringLiteral("status"), QStringLiteral("ERR")}}),
             1.0);
    QCOMPARE(e.find(QStringLiteral("mirrordesk_job_status"), {{QStringLiteral("job"), QStringLiteral("j")}}).size(), 3);
    QVERIFY(e.find(QStringLiteral("mirrordesk_replication_latency_ms")).isEmpty());
    QVERIFY(!e.types.contains(QStringLiteral("mirrordesk_replication_latency_ms")));
    QVERIFY(e.find(QStringLiteral("mirrordesk_job_lag_time_ms")).isEmpty());
    exporter.removeJob(QStringLiteral("j"));
    e = parseExposition(exporter.render());
    QVERIFY(e.error.isEmpty());
    QVERIFY(e.samples.isEmpty());
}

void TestPrometheus::unknownPathIs404()
{
    PrometheusExporter exporter;
    QVERIFY(exporter.listen(0));
    exporter.update(sampleSnapshot(QStringLiteral("j")), JobLagStatus::Ok);
    QCOMPARE(get(exporter.serverPort(), "/").code, 404);
    QCOMPARE(get(exporter.serverPort(), "/metricsx").code, 404);
    QCOMPARE(get(exporter.serverPort(), "/favicon.ico").code, 404);
    const Response withQuery = get(exporter.serverPort(), "/metrics?name[]=mirrordesk_job_up");
    QCOMPARE(withQuery.code, 200);
    QVERIFY(parseExposition(withQuery.body).error.isEmpty());
}

void TestPrometheus::otherMethodsAndGarbage()
{
    PrometheusExporter exporter;
    QVERIFY(exporter.listen(0));
    const quint16 port = exporter.serverPort();
    const Response post = exchange(port, {"POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n"});
    QCOMPARE(post.code, 405);
    QCOMPARE(post.headers.value("allow"), QByteArray("GET, HEAD"));
    const Response head = exchange(port, {"HEAD /metrics HTTP/1.1\r\n\r\n"});
    QCOMPARE(head.code, 200);
    QVERIFY(head.body.isEmpty());
    QCOMPARE(exchange(port, {"hello there\r\n\r\n"}).code, 400);
    QCOMPARE(exchange(port, {"GET /metrics\r\n\r\n"}).code, 400);
    // The server survived all that.
    QCOMPARE(get(port, "/metrics").code, 200);
}

void TestPrometheus::partialRequestIsAnswered()
{
    PrometheusExporter exporter;
    QVERIFY(exporter.listen(0));
    exporter.update(sampleSnapshot(QStringLiteral("j")), JobLagStatus::Ok);
    const QByteArray request = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\n\r\n";
    QList<QByteArray> bytes;
    for (char c : request)
        bytes.append(QByteArray(1, c));
    const Response r = exchange(exporter.serverPort(), bytes, 3);
    QCOMPARE(r.code, 200);
    const Exposition e = parseExposition(r.body);
    QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
    QCOMPARE(e.find(QStringLiteral("mirrordesk_partition_lag")).size(), 2);
    // Split in the middle of the blank line.
    QCOMPARE(exchange(exporter.serverPort(), {"GET /metrics HTTP/1.1\r\n\r", "\n"}, 20).code, 200);
}

void TestPrometheus::oversizedRequestIsRefused()
{
    PrometheusExporter exporter;
    QVERIFY(exporter.listen(0));
    const QByteArray huge = "GET /metrics HTTP/1.1\r\nX-Junk: " + QByteArray(20000, 'x');
    QCOMPARE(exchange(exporter.serverPort(), {huge}).code, 431);
}

void TestPrometheus::manyClientsAtOnce()
{
    PrometheusExporter exporter;
    QVERIFY(exporter.listen(0));
    exporter.update(sampleSnapshot(QStringLiteral("j")), JobLagStatus::Ok);
    constexpr int kClients = 64;
    std::vector<std::unique_ptr<QTcpSocket>> sockets;
    QList<QByteArray> received(kClients);
    for (int i = 0; i < kClients; ++i) {
        auto s = std::make_unique<QTcpSocket>();
        s->connectToHost(QHostAddress::LocalHost, exporter.serverPort());
        sockets.push_back(std::move(s));
    }
    // Everyone sends half a request first, then the rest: the server juggles them all.
    QDeadlineTimer deadline(20000);
    auto allConnected = [&] {
        return std::all_of(sockets.begin(), sockets.end(),
                           [](const auto &s) { return s->state() == QAbstractSocket::ConnectedState; });
    };
    while (!allConnected() && !deadline.hasExpired())
        QTest::qWait(5);
    QVERIFY(allConnected());
    for (auto &s : sockets)
        s->write("GET /metrics HT");
    QTest::qWait(20);
    for (auto &s : sockets)
        s->write("TP/1.1\r\n\r\n");
    auto allDone = [&] {
        bool done = true;
        for (int i = 0; i < kClients; ++i) {
            received[i] += sockets[size_t(i)]->readAll();
            done = done && sockets[size_t(i)]->state() == QAbstractSocket::UnconnectedState;
        }
        return done;
    };
    while (!allDone() && !deadline.hasExpired())
        QTest::qWait(5);
    QVERIFY(allDone());
    for (int i = 0; i < kClients; ++i) {
        const Response r = parseResponse(received[i]);
        QCOMPARE(r.code, 200);
        QVERIFY(parseExposition(r.body).error.isEmpty());
    }
}

void TestPrometheus::updatesFromAnotherThread()
{
    PrometheusExporter exporter;
    QVERIFY(exporter.listen(0));
    std::atomic<bool> stop{false};
    std::atomic<int> updates{0};
    std::thread engine([&] {
        MetricsSnapshot s = sampleSnapshot(QStringLiteral("threaded"));
        for (qint64 i = 0; !stop.load(); ++i) {
            s.partitions[0].lag = i;
            s.partitions[0].records = i;
            exporter.update(s, i % 2 ? JobLagStatus::Ok : JobLagStatus::Warn);
            updates.fetch_add(1);
        }
    });
    double lastRecords = -1;
    for (int scrape = 0; scrape < 20; ++scrape) {
        const Response r = get(exporter.serverPort(), "/metrics");
        QCOMPARE(r.code, 200);
        const Exposition e = parseExposition(r.body);
        QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
        const auto records = e.find(QStringLiteral("mirrordesk_records_copied_total"),
                                    {{QStringLiteral("partition"), QStringLiteral("1")}});
        if (!records.isEmpty()) {
            QVERIFY(records.first().value >= lastRecords); // a counter never goes back
            lastRecords = records.first().value;
        }
    }
    stop = true;
    engine.join();
    QVERIFY(updates.load() > 0);
}

void TestPrometheus::worksWithQNetworkAccessManager()
{
    PrometheusExporter exporter;
    QVERIFY(exporter.listen(0));
    exporter.update(sampleSnapshot(QStringLiteral("nam")), JobLagStatus::Ok);
    QNetworkAccessManager nam;
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(exporter.serverPort());
    url.setPath(QStringLiteral("/metrics"));
    QNetworkReply *reply = nam.get(QNetworkRequest(url));
    QSignalSpy finished(reply, &QNetworkReply::finished);
    QVERIFY(finished.wait(10000));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    const Exposition e = parseExposition(reply->readAll());
    QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
    QCOMPARE(e.value(QStringLiteral("mirrordesk_job_up"), {{QStringLiteral("job"), QStringLiteral("nam")}}), 1.0);
    reply->deleteLater();
}

void TestPrometheus::listenErrorIsClear()
{
    PrometheusExporter first;
    QVERIFY(first.listen(0));
    PrometheusExporter second;
    QString error;
    QVERIFY(!second.listen(first.serverPort(), &error));
    QVERIFY2(error.contains(QStringLiteral("127.0.0.1:%1").arg(first.serverPort())), qPrintable(error));
    QVERIFY(!second.isListening());
}

void TestPrometheus::listensOnTheAddressItIsGiven()
{
    // Another loopback address stands in for an interface a remote Prometheus reaches.
    const QHostAddress other(QStringLiteral("127.0.0.2"));
    PrometheusExporter exporter;
    QString error;
    QVERIFY2(exporter.listen(0, &error, other), qPrintable(error));
    exporter.update(sampleSnapshot(QStringLiteral("remote")), JobLagStatus::Ok);
    const QByteArray request = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.2\r\n\r\n";
    QCOMPARE(exchange(exporter.serverPort(), {request}, 0, other).code, 200);
    QTcpSocket elsewhere; // not on 127.0.0.1
    elsewhere.connectToHost(QHostAddress::LocalHost, exporter.serverPort());
    QVERIFY(!elsewhere.waitForConnected(2000));

    // An address of no interface here: the error names it.
    PrometheusExporter nowhere;
    QVERIFY(!nowhere.listen(0, &error, QHostAddress(QStringLiteral("192.0.2.1"))));
    QVERIFY2(error.startsWith(QStringLiteral("cannot serve metrics on 192.0.2.1:0: ")), qPrintable(error));
}

void TestPrometheus::everySeriesNamesTheInstance()
{
    PrometheusExporter exporter;
    // Without an instance id: "<hostname>-<pid>", the same for every series of the process.
    exporter.update(sampleSnapshot(QStringLiteral("dynamic")), JobLagStatus::Ok);
    MetricsSnapshot pinned = sampleSnapshot(QStringLiteral("static"));
    pinned.instanceId = QStringLiteral("host-a-orders");
    exporter.update(pinned, JobLagStatus::Ok);
    const Exposition e = parseExposition(exporter.render());
    QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
    const QString fallback = PrometheusExporter::defaultInstance();
    QVERIFY(fallback.endsWith(QLatin1Char('-') + QString::number(QCoreApplication::applicationPid())));
    QVERIFY(fallback.size() > QString::number(QCoreApplication::applicationPid()).size() + 1);
    QVERIFY(!e.samples.isEmpty());
    for (const Sample &s : e.samples) {
        QVERIFY2(s.labels.contains(QStringLiteral("instance")), qPrintable(s.name));
        const QString expected = s.labels.value(QStringLiteral("job")) == QLatin1String("static")
                                     ? QStringLiteral("host-a-orders")
                                     : fallback;
        QCOMPARE(s.labels.value(QStringLiteral("instance")), expected);
    }
    QCOMPARE(e.value(QStringLiteral("mirrordesk_partition_lag"),
                     {{QStringLiteral("instance"), QStringLiteral("host-a-orders")},
                      {QStringLiteral("partition"), QStringLiteral("0")}}),
             100.0);
}

void TestPrometheus::vanishedCounterNeverGoesDown()
{
    PrometheusExporter exporter;
    const Labels p0{{QStringLiteral("job"), QStringLiteral("j")},
                    {QStringLiteral("topic"), QStringLiteral("orders")},
                    {QStringLiteral("partition"), QStringLiteral("0")}};
    const Labels p1{{QStringLiteral("job"), QStringLiteral("j")},
                    {QStringLiteral("topic"), QStringLiteral("orders")},
                    {QStringLiteral("partition"), QStringLiteral("1")}};
    const auto vanished = [&exporter](const Labels &labels) {
        const Exposition e = parseExposition(exporter.render());
        return e.error.isEmpty() ? e.value(QStringLiteral("mirrordesk_records_vanished_total"), labels)
                                 : std::optional<double>{};
    };
    MetricsSnapshot s = sampleSnapshot(QStringLiteral("j"));
    s.partitions[0].vanishedRecords = 5; // partition 1
    exporter.update(s, JobLagStatus::Ok);
    QCOMPARE(vanished(p0), 12.0);
    QCOMPARE(vanished(p1), 5.0);

    // Partition 0 moves to another instance: its count stays, the gauges go.
    MetricsSnapshot moved = s;
    moved.partitions.removeLast();
    exporter.update(moved, JobLagStatus::Ok);
    QCOMPARE(vanished(p0), 12.0);
    QVERIFY(parseExposition(exporter.render()).find(QStringLiteral("mirrordesk_partition_lag"), p0).isEmpty());
    QCOMPARE(vanished(p1), 5.0);

    // It comes back and the engine counts it from zero again: the counter carries on from 12.
    MetricsSnapshot back = s;
    back.partitions[1].vanishedRecords = 3;
    exporter.update(back, JobLagStatus::Ok);
    QCOMPARE(vanished(p0), 15.0);
    back.partitions[1].vanishedRecords = 4;
    exporter.update(back, JobLagStatus::Ok);
    QCOMPARE(vanished(p0), 16.0);

    // Removing the job forgets it.
    exporter.removeJob(QStringLiteral("j"));
    QVERIFY(parseExposition(exporter.render()).find(QStringLiteral("mirrordesk_records_vanished_total")).isEmpty());
}

QTEST_GUILESS_MAIN(TestPrometheus)
#include "tst_prometheus.moc"
