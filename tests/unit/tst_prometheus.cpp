// The Prometheus exporter's text: what it serves is PARSED with a strict
// reader of the text exposition format 0.0.4 (names, labels with escapes,
// values, HELP/TYPE rules), then checked figure by figure; stopped, removed
// and moved jobs, instance labels, and counters that never go down. Serving
// it over HTTP: tst_prometheushttp.

#include "PrometheusTestUtil.h"
#include "service/PrometheusExporter.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <optional>

using namespace md;
using namespace md::test;

class TestPrometheus final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parserRejectsBrokenText_data();
    void parserRejectsBrokenText();
    void servesParsableMetrics();
    void labelValuesAreEscaped();
    void severalJobsShareFamilies();
    void stoppedAndRemovedJobs();
    void lagInTimeAndRetentionRisk();
    void everySeriesNamesTheInstance();
    void vanishedCounterNeverGoesDown();
    void watchedGroupsHaveTheirOwnSeries();
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

void TestPrometheus::lagInTimeAndRetentionRisk()
{
    PrometheusExporter exporter;
    MetricsSnapshot s = sampleSnapshot(QStringLiteral("j"));
    for (PartitionMetrics &p : s.partitions) {
        // Partition 0 in seconds, with the fraction; partition 1 not read yet: no sample rather than -1.
        p.lagMs = p.partition == 0 ? 3600500 : -1;
        p.retentionAtRisk = p.partition == 0;
    }
    s.maxLagMs = 3600500;
    s.catchUpSeconds = std::numeric_limits<double>::infinity(); // never
    s.retentionAtRisk = 1;
    exporter.update(s, JobLagStatus::Err);
    Exposition e = parseExposition(exporter.render());
    QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
    const QString job = QStringLiteral("job");
    QCOMPARE(e.value(QStringLiteral("mirrordesk_lag_seconds"),
                     {{job, QStringLiteral("j")}, {QStringLiteral("partition"), QStringLiteral("0")}}),
             3600.5);
    QCOMPARE(e.find(QStringLiteral("mirrordesk_lag_seconds")).size(), 1);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_job_lag_seconds"), {{job, QStringLiteral("j")}}), 3600.5);
    QVERIFY(std::isinf(*e.value(QStringLiteral("mirrordesk_catch_up_seconds"), {{job, QStringLiteral("j")}})));
    QCOMPARE(e.value(QStringLiteral("mirrordesk_retention_at_risk_partitions"), {{job, QStringLiteral("j")}}), 1.0);
    QCOMPARE(e.types.value(QStringLiteral("mirrordesk_catch_up_seconds")), QStringLiteral("gauge"));
    // Unknown catch-up: no sample; caught up: 0.
    s.catchUpSeconds = -1;
    exporter.update(s, JobLagStatus::Err);
    e = parseExposition(exporter.render());
    QVERIFY(e.find(QStringLiteral("mirrordesk_catch_up_seconds")).isEmpty());
    s.catchUpSeconds = 0;
    s.retentionAtRisk = 0;
    exporter.update(s, JobLagStatus::Ok);
    e = parseExposition(exporter.render());
    QCOMPARE(e.value(QStringLiteral("mirrordesk_catch_up_seconds"), {{job, QStringLiteral("j")}}), 0.0);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_retention_at_risk_partitions"), {{job, QStringLiteral("j")}}), 0.0);
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

// `mirrordesk lag`'s groups: mirrordesk_group_* labelled by group (no job or instance),
// their type and state in an info series, down without the rest after a failed poll.
void TestPrometheus::watchedGroupsHaveTheirOwnSeries()
{
    PrometheusExporter exporter;
    MetricsSnapshot share = sampleSnapshot(QStringLiteral("queue \"q\""));
    share.partitions[1].lag = -1; // not initialised: no position, no lag sample
    exporter.updateGroup(share, JobLagStatus::Warn, {QStringLiteral("share"), QStringLiteral("Stable"), 2});
    exporter.update(sampleSnapshot(QStringLiteral("job")), JobLagStatus::Ok);
    Exposition e = parseExposition(exporter.render());
    QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
    const QMap<QString, QString> g{{QStringLiteral("group"), QStringLiteral("queue \"q\"")}};
    QCOMPARE(e.value(QStringLiteral("mirrordesk_group_up"), g), 1.0);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_group_info"), {{QStringLiteral("type"), QStringLiteral("share")},
                                                               {QStringLiteral("state"), QStringLiteral("Stable")}}),
             1.0);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_group_members"), g), 2.0);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_group_lag_records"), g), 130.0);
    QCOMPARE(
        e.value(QStringLiteral("mirrordesk_group_status"), {{QStringLiteral("group"), QStringLiteral("queue \"q\"")},
                                                            {QStringLiteral("status"), QStringLiteral("WARN")}}),
        1.0);
    QCOMPARE(e.value(QStringLiteral("mirrordesk_group_partition_offset"),
                     {{QStringLiteral("partition"), QStringLiteral("0")}}),
             850.0);
    QCOMPARE(e.find(QStringLiteral("mirrordesk_group_partition_lag")).size(), 1);
    QCOMPARE(e.find(QStringLiteral("mirrordesk_group_partition_end_offset")).size(), 2);
    for (const Sample &s : e.find(QStringLiteral("mirrordesk_group_partition_lag")))
        QVERIFY(!s.labels.contains(QStringLiteral("job")) && !s.labels.contains(QStringLiteral("instance")));
    QCOMPARE(e.find(QStringLiteral("mirrordesk_job_up")).size(), 1); // the job's series unchanged beside them

    exporter.groupDown(QStringLiteral("queue \"q\""));
    e = parseExposition(exporter.render());
    QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
    QCOMPARE(e.value(QStringLiteral("mirrordesk_group_up"), g), 0.0);
    QVERIFY(e.find(QStringLiteral("mirrordesk_group_lag_records")).isEmpty());
    QVERIFY(e.find(QStringLiteral("mirrordesk_group_partition_offset")).isEmpty());
}

QTEST_GUILESS_MAIN(TestPrometheus)
#include "tst_prometheus.moc"
