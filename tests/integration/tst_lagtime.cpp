// Lag in time against the harness brokers, with records whose CreateTime the
// test sets: a job's lag in seconds is the age of the record at its next
// offset (not the newest's, not the last copied one's) and 0 once caught up;
// time to catch up is finite while a job drains and "never" while a throttled
// job falls behind its producer; a partition whose next record nears the
// source's retention raises a job event, ERR and the metric. A consumer
// group's lag in seconds is the age of the record at its committed offset.
#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/admin/GroupLagSampler.h"
#include "engine/mirror/LagTime.h"
#include "model/session/MonitoredJob.h"
#include "service/PrometheusExporter.h"
#include "tst_mirror_support.h"

#include <QDateTime>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <cmath>

using namespace md;

namespace {

constexpr qint64 kMinute = 60000;
constexpr qint64 kHour = 60 * kMinute;

// `count` records of `bytes` bytes each on `partition`, the i-th timestamped timestampOf(i).
QList<test::TestRecord> timedRecords(int partition, int count, int bytes, const std::function<qint64(int)> &timestampOf)
{
    QList<test::TestRecord> out;
    for (int i = 0; i < count; ++i) {
        test::TestRecord r;
        r.key = QByteArray::number(i);
        r.value = QByteArray(bytes, 'v');
        r.partition = partition;
        r.timestamp = timestampOf(i);
        out.append(r);
    }
    return out;
}

const PartitionMetrics *partitionOf(const MetricsSnapshot &s, int p)
{
    for (const PartitionMetrics &m : s.partitions) {
        if (m.partition == p)
            return &m;
    }
    return nullptr;
}

} // namespace

class TstLagTime final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // 400 records on partition 0: offsets 0-199 about 2 h old, 200-399 about 1 h
    // old, each timestamp distinct (1 s apart), so every offset names its record.
    // A throttle makes the job copy them over ~15 s, mostly with nothing in flight
    // (the read at the next offset), partly with records in flight (the ring's).
    void jobLagSecondsIsTheNextRecordsAge()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        const QString topic = test::uniqueName(QStringLiteral("lagtime"));
        QString error;
        QVERIFY2(test::createTopic(test::sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const auto timestampOf = [now](int i) { return (i < 200 ? now - 2 * kHour : now - kHour) + i * 1000; };
        QVERIFY2(test::produce(test::sourceBootstrap(), topic, timedRecords(0, 400, 1000, timestampOf), &error),
                 qPrintable(error));
        // Partition 1: a few records, copied at once: its lag in time is 0 from then on.
        QVERIFY2(test::produce(test::sourceBootstrap(), topic,
                               timedRecords(1, 5, 100, [now](int) { return now - 30 * kMinute; }), &error),
                 qPrintable(error));

        MirrorJobSpec spec = test::harnessSpec(QStringLiteral("lagtime"), {topic});
        spec.throttleBytesPerSecond = 30000; // ~30 records/s of partition 0
        MirrorJob job(spec);
        const test::JobOutcome outcome = test::runJob(job, 120000);
        QVERIFY2(outcome.finished && outcome.ok,
                 qPrintable(outcome.error + QStringLiteral("\n  ") + test::joined(outcome.events)));

        int exact = 0, older = 0, finite = 0;
        bool sawType = false;
        for (const MetricsSnapshot &s : outcome.snapshots) {
            const PartitionMetrics *p0 = partitionOf(s, 0);
            const PartitionMetrics *p1 = partitionOf(s, 1);
            if (p1 && p1->lag == 0)
                QCOMPARE(p1->lagMs, qint64(0));
            if (!p0)
                continue;
            sawType |= p0->timestampType == QLatin1String("CreateTime");
            if (p0->lag == 0) {
                QCOMPARE(p0->lagMs, qint64(0));
                continue;
            }
            if (p0->lagMs < 0 || p0->nextOffset < 0 || p0->nextOffset >= 400)
                continue;
            if (p0->catchUpSeconds > 0 && p0->catchUpSeconds != kCatchUpNever)
                ++finite;
            // The age of the record at the next offset; while a read of a new offset is
            // under way the last one read (a few offsets older) may stand in, never a newer one.
            const qint64 t = s.time.toMSecsSinceEpoch();
            const qint64 expected = t - timestampOf(int(p0->nextOffset));
            if (p0->lagMs == expected) {
                ++exact;
                continue;
            }
            bool standIn = false;
            for (qint64 o = std::max<qint64>(0, p0->nextOffset - 60); o < p0->nextOffset; ++o)
                standIn |= p0->lagMs == t - timestampOf(int(o));
            if (standIn)
                ++older;
            QVERIFY2(standIn, qPrintable(QStringLiteral("lag in time %1 ms at next offset %2: not the age of that "
                                                        "record (%3 ms) nor of one just before it")
                                             .arg(p0->lagMs)
                                             .arg(p0->nextOffset)
                                             .arg(expected)));
        }
        qInfo("lag in time: %d exact, %d from a record just before (a read under way)", exact, older);
        QVERIFY2(exact >= 10, qPrintable(QStringLiteral("only %1 samples exact").arg(exact)));
        QVERIFY(sawType);
        QVERIFY2(finite > 0, "a draining job never showed a finite time to catch up");
        // The last sample while caught up (the very last may come after the partitions were let go).
        auto caughtUp = std::find_if(outcome.snapshots.crbegin(), outcome.snapshots.crend(),
                                     [](const MetricsSnapshot &s) { return s.caughtUp && !s.partitions.isEmpty(); });
        QVERIFY(caughtUp != outcome.snapshots.crend());
        const MetricsSnapshot &last = *caughtUp;
        QCOMPARE(last.maxLagMs, qint64(0));
        QCOMPARE(last.catchUpSeconds, 0.0);
        QCOMPARE(last.retentionAtRisk, 0);
    }

    // A job throttled to ~5 records/s while ~20 records/s arrive: "never";
    // the same job unthrottled drains the backlog: finite, then 0.
    void catchUpIsNeverWhileAThrottledJobFallsBehind()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        const QString topic = test::uniqueName(QStringLiteral("catchup"));
        QString error;
        QVERIFY2(test::createTopic(test::sourceBootstrap(), topic, 1, {}, &error), qPrintable(error));
        QVERIFY2(test::produce(test::sourceBootstrap(), topic,
                               timedRecords(0, 50, 1000, [](int) { return QDateTime::currentMSecsSinceEpoch(); }),
                               &error),
                 qPrintable(error));
        MirrorJobSpec spec = test::harnessSpec(QStringLiteral("catchup"), {topic});
        spec.stop = StopCondition::RunForever;
        spec.throttleBytesPerSecond = 5000;
        MirrorJob job(spec);
        QList<MetricsSnapshot> snapshots;
        QObject::connect(&job, &MirrorJob::metricsSampled, &job, [&](const MetricsSnapshot &s) { snapshots << s; });
        QTimer producer;
        int batches = 0;
        QObject::connect(&producer, &QTimer::timeout, &job, [&] {
            QString e;
            if (test::produce(test::sourceBootstrap(), topic,
                              timedRecords(0, 10, 1000, [](int) { return QDateTime::currentMSecsSinceEpoch(); }), &e))
                ++batches;
        });
        job.start();
        producer.start(500);
        // The smoothing needs its time constant (10 s) to settle on the net rate.
        QTest::qWait(20000);
        producer.stop();
        QVERIFY2(batches >= 20, qPrintable(QStringLiteral("only %1 batches produced").arg(batches)));
        QVERIFY(!snapshots.isEmpty());
        const MetricsSnapshot behind = snapshots.last();
        QVERIFY2(behind.totalLag > 100, qPrintable(QString::number(behind.totalLag)));
        QVERIFY2(
            behind.catchUpSeconds == kCatchUpNever,
            qPrintable(
                QStringLiteral("catch-up %1 s with lag %2 growing").arg(behind.catchUpSeconds).arg(behind.totalLag)));
        QVERIFY(behind.maxLagMs > 0);

        // Unthrottled, nothing more produced: it drains, with a finite estimate, to 0.
        job.setThrottle(0);
        QSignalSpy finished(&job, &MirrorJob::finished);
        QDeadlineTimer deadline(60000);
        while (!deadline.hasExpired()) {
            QTest::qWait(250);
            const MetricsSnapshot &s = snapshots.last();
            if (s.caughtUp && s.catchUpSeconds == 0.0)
                break;
        }
        const MetricsSnapshot &done = snapshots.last();
        QVERIFY2(done.caughtUp, qPrintable(QString::number(done.totalLag)));
        QCOMPARE(done.catchUpSeconds, 0.0);
        QCOMPARE(done.maxLagMs, qint64(0));
        job.stop();
        QVERIFY(finished.wait(30000));
    }

    // retention.ms 10 min: partition 0's records are 9.5 min old (inside the one-minute
    // margin), partition 1's 1 min old. A throttled job leaves both lagging.
    void retentionRiskWarns()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        const QString topic = test::uniqueName(QStringLiteral("atrisk"));
        QString error;
        QVERIFY2(test::createTopic(test::sourceBootstrap(), topic, 2,
                                   {{QStringLiteral("retention.ms"), QStringLiteral("600000")}}, &error),
                 qPrintable(error));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        QVERIFY2(test::produce(test::sourceBootstrap(), topic,
                               timedRecords(0, 200, 1000, [now](int i) { return now - 9 * kMinute - 30000 + i; }) +
                                   timedRecords(1, 200, 1000, [now](int i) { return now - kMinute + i; }),
                               &error),
                 qPrintable(error));
        MirrorJobSpec spec = test::harnessSpec(QStringLiteral("atrisk"), {topic});
        spec.stop = StopCondition::RunForever;
        spec.throttleBytesPerSecond = 2000;
        auto *job = new MirrorJob(spec);
        MonitoredJob monitored(job, {}, MonitoredJob::statusOnlyConfig());
        PrometheusExporter exporter;
        QObject::connect(&monitored, &MonitoredJob::snapshotAdded, &monitored,
                         [&](const MetricsSnapshot &s) { exporter.update(s, monitored.status()); });
        QStringList warnings, events;
        QObject::connect(job, &MirrorJob::eventRaised, &monitored, [&](const JobEvent &e) {
            events << e.text;
            if (e.text.contains(QLatin1String("about to be removed by the source's retention")))
                warnings << e.text;
        });
        job->start();
        const auto describe = [&] {
            QString d = QStringLiteral("events:\n  ") + test::joined(events);
            if (!monitored.store().isEmpty()) {
                for (const PartitionMetrics &p : monitored.store().latest().partitions)
                    d += QStringLiteral(
                             "\n  partition %1: lag %2, next %3, next timestamp age %4 ms, retention %5, at risk %6")
                             .arg(p.partition)
                             .arg(p.lag)
                             .arg(p.nextOffset)
                             .arg(p.lagMs)
                             .arg(p.retentionMs)
                             .arg(p.retentionAtRisk);
            }
            return d;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(!warnings.isEmpty() && !monitored.store().isEmpty() &&
                                      monitored.store().latest().retentionAtRisk > 0,
                                  qPrintable(describe()), 30000);
        const MetricsSnapshot s = monitored.store().latest();
        QCOMPARE(s.retentionAtRisk, 1);
        const PartitionMetrics *p0 = partitionOf(s, 0);
        const PartitionMetrics *p1 = partitionOf(s, 1);
        QVERIFY(p0 && p1);
        QVERIFY(p0->retentionAtRisk);
        QVERIFY(!p1->retentionAtRisk);
        QCOMPARE(p0->retentionMs, qint64(600000));
        QCOMPARE(p0->timestampType, QStringLiteral("CreateTime"));
        // One event so far (debounced), naming the topic, partition, offset, age and retention.
        QCOMPARE(warnings.size(), qsizetype(1));
        const QString &w = warnings.first();
        QVERIFY2(w.startsWith(topic + QStringLiteral("/0: ")), qPrintable(w));
        QVERIFY2(w.contains(QStringLiteral("offset ")) && w.contains(QStringLiteral("CreateTime")) &&
                     w.contains(QStringLiteral("retention.ms 600000")),
                 qPrintable(w));
        QCOMPARE(monitored.status(), JobLagStatus::Err);
        QVERIFY2(monitored.lagReason().contains(topic + QStringLiteral("-0 at offset")),
                 qPrintable(monitored.lagReason()));
        const QByteArray metrics = exporter.render();
        QVERIFY2(metrics.contains("mirrordesk_retention_at_risk_partitions{job=\"atrisk\""), metrics.constData());
        QVERIFY(metrics.contains("mirrordesk_lag_seconds{job=\"atrisk\""));
        QVERIFY(metrics.contains("mirrordesk_catch_up_seconds{job=\"atrisk\""));
        // A few more samples: still one event (the warning repeats every few minutes, not per sample).
        QTest::qWait(2000);
        QCOMPARE(warnings.size(), qsizetype(1));
        QSignalSpy finished(job, &MirrorJob::finished);
        job->stop();
        QVERIFY(finished.wait(30000));
    }

    // A real group committed at offset 4 of partition 0 (timestamps 1 s apart, an hour
    // old) and at the end of partition 1.
    void groupLagSecondsIsTheCommittedRecordsAge()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        const QString bootstrap = test::sourceBootstrap();
        const QString topic = test::uniqueName(QStringLiteral("grouplagtime"));
        const QString group = test::uniqueName(QStringLiteral("grouplagtime-g"));
        QString error;
        QVERIFY2(test::createTopic(bootstrap, topic, 2, {}, &error), qPrintable(error));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const auto timestampOf = [now](int i) { return now - kHour + i * 1000; };
        QVERIFY2(test::produce(bootstrap, topic,
                               timedRecords(0, 10, 100, timestampOf) + timedRecords(1, 6, 100, timestampOf), &error),
                 qPrintable(error));
        test::GroupMember consumer;
        QVERIFY2(consumer.start(bootstrap, group, topic, &error), qPrintable(error));
        QVERIFY2(consumer.commit({{0, 4}, {1, 6}}, &error), qPrintable(error));
        consumer.close();

        GroupLagSampler sampler(test::clusterConfig(QStringLiteral("source")), group);
        sampler.setIntervalMs(500);
        QSignalSpy spy(&sampler, &GroupLagSampler::sampled);
        sampler.start();
        QTRY_VERIFY_WITH_TIMEOUT(
            !spy.isEmpty() &&
                [&] {
                    const auto s = spy.last().first().value<MetricsSnapshot>();
                    const PartitionMetrics *p0 = partitionOf(s, 0);
                    return p0 && p0->lagMs >= 0;
                }(),
            20000);
        const auto s = spy.last().first().value<MetricsSnapshot>();
        const PartitionMetrics *p0 = partitionOf(s, 0);
        const PartitionMetrics *p1 = partitionOf(s, 1);
        QVERIFY(p0 && p1);
        QCOMPARE(p0->lag, qint64(6));
        // Exactly the age of the record at offset 4, the next one the group reads.
        QCOMPARE(p0->nextTimestampMs, timestampOf(4));
        QCOMPARE(p0->lagMs, s.time.toMSecsSinceEpoch() - timestampOf(4));
        QVERIFY(std::abs(double(p0->lagMs) - double(kHour - 4000)) < 60000);
        QCOMPARE(p0->timestampType, QStringLiteral("CreateTime"));
        QCOMPARE(p1->lag, qint64(0));
        QCOMPARE(p1->lagMs, qint64(0));
        QCOMPARE(s.maxLagMs, p0->lagMs);

        // The group reads on to offset 9: the answer follows the new committed offset.
        test::GroupMember again;
        QVERIFY2(again.start(bootstrap, group, topic, &error), qPrintable(error));
        QVERIFY2(again.commit({{0, 9}, {1, 6}}, &error), qPrintable(error));
        again.close();
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const auto l = spy.last().first().value<MetricsSnapshot>();
                const PartitionMetrics *p = partitionOf(l, 0);
                return p && p->lag == 1 && p->nextTimestampMs == timestampOf(9);
            }(),
            20000);
    }
};

QTEST_GUILESS_MAIN(TstLagTime)
#include "tst_lagtime.moc"
