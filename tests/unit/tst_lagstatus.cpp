// Burrow's consumer lag evaluation rules: the published evaluator cases replayed against
// evaluateLagWindow(), then the tracker that turns 250 ms snapshots into Burrow-like windows.

#include "engine/mirror/MetricsSnapshot.h"
#include "model/monitor/LagStatus.h"

#include <QTest>

using namespace md;

Q_DECLARE_METATYPE(md::PartitionLagStatus)
Q_DECLARE_METATYPE(md::LagObservation)

namespace {

struct Obs {
    qint64 offset;
    qint64 timestampMs;
    qint64 lag; // -1: unknown (Burrow's nil lag)
};

QList<LagObservation> window(std::initializer_list<Obs> list)
{
    QList<LagObservation> w;
    for (const Obs &o : list) {
        LagObservation l;
        l.offset = o.offset;
        l.timestampMs = o.timestampMs;
        if (o.lag >= 0)
            l.lag = o.lag;
        w.append(l);
    }
    return w;
}

// The 15 commits, one a second, of a consumer that is always caught up (Burrow issues #290/#303).
QList<LagObservation> caughtUpEverySecond()
{
    const qint64 ts[] = {1512224618356, 1512224619362, 1512224620366, 1512224621367, 1512224622370,
                         1512224623373, 1512224624378, 1512224625379, 1512224626383, 1512224627383,
                         1512224628383, 1512224629388, 1512224630391, 1512224631394, 1512224632397};
    QList<LagObservation> w;
    qint64 offset = 792748079;
    for (qint64 t : ts) {
        LagObservation l;
        l.offset = offset++;
        l.timestampMs = t;
        l.lag = 0;
        w.append(l);
    }
    return w;
}

MetricsSnapshot snapshotAt(qint64 ms, QList<PartitionMetrics> partitions)
{
    MetricsSnapshot s;
    s.jobName = QStringLiteral("job");
    s.time = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
    s.elapsedMs = ms;
    s.state = JobState::Running;
    s.partitions = std::move(partitions);
    return s;
}

PartitionMetrics pm(const QString &topic, int partition, qint64 next, qint64 end)
{
    PartitionMetrics p;
    p.topic = topic;
    p.targetTopic = topic;
    p.partition = partition;
    p.nextOffset = next;
    p.endOffset = end;
    p.lag = end - next;
    return p;
}

} // namespace

class TestLagStatus final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void burrowCases_data();
    void burrowCases();
    void rollUpToJob_data();
    void rollUpToJob();
    void names();

    void trackerStallWhenPositionDoesNotMove();
    void trackerWarnWhenFallingBehind();
    void trackerOkWhenCatchingUp();
    void trackerStopWhenSilent();
    void trackerRewindIsNeverSmoothedAway();
    void trackerZeroLagIsNeverSmoothedAway();
    void trackerYoungWindowIsOk();
    void trackerWindowIsBoundedAndSpaced();
    void trackerJobRollUpIsWorstPartition();
    void trackerUnknownPositionIsSkipped();
};

void TestLagStatus::burrowCases_data()
{
    QTest::addColumn<QList<LagObservation>>("observations");
    QTest::addColumn<QList<qint64>>("endOffsets");
    QTest::addColumn<qint64>("currentLag");
    QTest::addColumn<qint64>("nowMs");
    QTest::addColumn<PartitionLagStatus>("expected");

    // The cases of Burrow's evaluator test suite (core/internal/evaluator), numbered as there.
    // Timestamps are milliseconds; Burrow's "timeNow" seconds are converted.
    const auto rising =
        window({{1000, 100000, 0}, {2000, 200000, 50}, {3000, 300000, 100}, {4000, 400000, 150}, {5000, 500000, 200}});
    QTest::newRow("0 zero lag somewhere: OK")
        << rising << QList<qint64>{5200} << qint64(200) << qint64(600000) << PartitionLagStatus::Ok;
    QTest::newRow("1 silence equal to the window is not yet STOP")
        << rising << QList<qint64>{5200} << qint64(200) << qint64(900000) << PartitionLagStatus::Ok;
    QTest::newRow("2 silence longer than the window: STOP despite an old zero lag")
        << rising << QList<qint64>{5200} << qint64(200) << qint64(1000000) << PartitionLagStatus::Stop;

    const auto risingNonZero = window(
        {{1000, 100000, 50}, {2000, 200000, 100}, {3000, 300000, 150}, {4000, 400000, 200}, {5000, 500000, 250}});
    QTest::newRow("3 STOP with lag always non-zero")
        << risingNonZero << QList<qint64>{5250} << qint64(250) << qint64(1000000) << PartitionLagStatus::Stop;

    QTest::newRow("4 same offset but a zero lag in the window: OK")
        << window(
               {{1000, 100000, 0}, {1000, 200000, 50}, {1000, 300000, 100}, {1000, 400000, 150}, {1000, 500000, 200}})
        << QList<qint64>{1200} << qint64(200) << qint64(600000) << PartitionLagStatus::Ok;
    QTest::newRow("5 same offset, lag growing: STALL")
        << window({{1000, 100000, 100},
                   {1000, 200000, 150},
                   {1000, 300000, 200},
                   {1000, 400000, 250},
                   {1000, 500000, 300}})
        << QList<qint64>{1300} << qint64(300) << qint64(600000) << PartitionLagStatus::Stall;
    QTest::newRow("6 same offset, same lag: STALL")
        << window({{1000, 100000, 100},
                   {1000, 200000, 100},
                   {1000, 300000, 100},
                   {1000, 400000, 100},
                   {1000, 500000, 100}})
        << QList<qint64>{1100} << qint64(100) << qint64(600000) << PartitionLagStatus::Stall;
    QTest::newRow("7 offset went backwards: REWIND, though the lag also decreased")
        << window({{1000, 100000, 100},
                   {2000, 200000, 150},
                   {3000, 300000, 200},
                   {2000, 400000, 1250},
                   {4000, 500000, 300}})
        << QList<qint64>{4300} << qint64(300) << qint64(600000) << PartitionLagStatus::Rewind;
    QTest::newRow("8 current lag zero: OK whatever the timestamps say")
        << risingNonZero << QList<qint64>{5250} << qint64(0) << qint64(1000000) << PartitionLagStatus::Ok;
    QTest::newRow("9 caught-up history, new data, silent consumer: STOP")
        << caughtUpEverySecond() << QList<qint64>{792749024, 792749000, 792748800, 792748600, 792748500} << qint64(931)
        << qint64(1512224650000) << PartitionLagStatus::Stop;
    QTest::newRow("10 would be STOP, but a recent end offset shows it caught up: OK")
        << caughtUpEverySecond() << QList<qint64>{792748094, 792748093, 792748093, 792748093} << qint64(1)
        << qint64(1512224650000) << PartitionLagStatus::Ok;
    QTest::newRow("11 unknown lags are skipped, not read as zero")
        << window({{1000, 100000, 0},
                   {1500, 150000, -1},
                   {2000, 200000, 50},
                   {2500, 250000, -1},
                   {3000, 300000, 100},
                   {3500, 350000, -1},
                   {4000, 400000, 150},
                   {4500, 450000, -1},
                   {5000, 500000, 200},
                   {5500, 550000, -1}})
        << QList<qint64>{5700} << qint64(200) << qint64(600000) << PartitionLagStatus::Ok;

    // The wiki's narrative cases: ten commits a minute apart, evaluated a minute after the last.
    auto tenCommits = [](std::initializer_list<qint64> offsets, std::initializer_list<qint64> lags) {
        QList<LagObservation> w;
        auto o = offsets.begin();
        auto l = lags.begin();
        for (qint64 t = 0; o != offsets.end(); ++o, ++l, t += 60000) {
            LagObservation obs;
            obs.offset = *o;
            obs.lag = *l;
            obs.timestampMs = t;
            w.append(obs);
        }
        return w;
    };
    const qint64 justAfter = 9 * 60000 + 60000;
    QTest::newRow("wiki: lag was zero in the window: OK")
        << tenCommits({10, 20, 30, 40, 50, 60, 70, 80, 90, 100}, {0, 0, 0, 0, 0, 0, 1, 3, 5, 5}) << QList<qint64>{}
        << qint64(5) << justAfter << PartitionLagStatus::Ok;
    QTest::newRow("wiki: offset never moves, lag fixed: STALL")
        << tenCommits({10, 10, 10, 10, 10, 10, 10, 10, 10, 10}, {5, 5, 5, 5, 5, 5, 5, 5, 5, 5}) << QList<qint64>{}
        << qint64(5) << justAfter << PartitionLagStatus::Stall;
    QTest::newRow("wiki: offsets move, lag never decreases: WARN")
        << tenCommits({10, 20, 30, 40, 50, 60, 70, 80, 90, 100}, {1, 1, 1, 1, 1, 1, 2, 2, 2, 3}) << QList<qint64>{}
        << qint64(3) << justAfter << PartitionLagStatus::Warn;
    QTest::newRow("wiki: lag goes up and down: OK")
        << tenCommits({10, 20, 30, 40, 50, 60, 70, 80, 90, 100}, {5, 3, 5, 2, 1, 1, 2, 1, 4, 6}) << QList<qint64>{}
        << qint64(6) << justAfter << PartitionLagStatus::Ok;
    QTest::newRow("wiki: same window, no commit for longer than the window: STOP")
        << tenCommits({10, 20, 30, 40, 50, 60, 70, 80, 90, 100}, {5, 3, 5, 2, 1, 1, 2, 1, 4, 6}) << QList<qint64>{}
        << qint64(6) << qint64(20 * 60000) << PartitionLagStatus::Stop;
    QTest::newRow("empty window: OK") << QList<LagObservation>{} << QList<qint64>{} << qint64(5) << qint64(1000)
                                      << PartitionLagStatus::Ok;
}

void TestLagStatus::burrowCases()
{
    QFETCH(QList<LagObservation>, observations);
    QFETCH(QList<qint64>, endOffsets);
    QFETCH(qint64, currentLag);
    QFETCH(qint64, nowMs);
    QFETCH(PartitionLagStatus, expected);
    const PartitionLagStatus got = evaluateLagWindow(observations, endOffsets, currentLag, nowMs);
    QCOMPARE(partitionLagStatusName(got), partitionLagStatusName(expected));
}

void TestLagStatus::rollUpToJob_data()
{
    QTest::addColumn<PartitionLagStatus>("partition");
    QTest::addColumn<QString>("job");
    QTest::newRow("ok") << PartitionLagStatus::Ok << QStringLiteral("OK");
    QTest::newRow("warn") << PartitionLagStatus::Warn << QStringLiteral("WARN");
    QTest::newRow("stall") << PartitionLagStatus::Stall << QStringLiteral("ERR");
    QTest::newRow("stop") << PartitionLagStatus::Stop << QStringLiteral("ERR");
    QTest::newRow("rewind") << PartitionLagStatus::Rewind << QStringLiteral("ERR");
}

void TestLagStatus::rollUpToJob()
{
    QFETCH(PartitionLagStatus, partition);
    QFETCH(QString, job);
    QCOMPARE(jobLagStatusName(rollUp(partition)), job);
}

void TestLagStatus::names()
{
    QCOMPARE(partitionLagStatusName(PartitionLagStatus::Stall), QStringLiteral("STALL"));
    QCOMPARE(partitionLagStatusName(PartitionLagStatus::Rewind), QStringLiteral("REWIND"));
    QCOMPARE(jobLagStatusName(JobLagStatus::Err), QStringLiteral("ERR"));
}

// Feeds one partition every 250 ms from t0 for durationMs; next/end given by functions of t.
template <typename Next, typename End>
static void feed(LagStatusTracker &tracker, qint64 t0, qint64 durationMs, Next next, End end,
                 const QString &topic = QStringLiteral("t"), int partition = 0)
{
    for (qint64 t = t0; t <= t0 + durationMs; t += 250)
        tracker.addSnapshot(snapshotAt(t, {pm(topic, partition, next(t), end(t))}));
}

void TestLagStatus::trackerStallWhenPositionDoesNotMove()
{
    LagStatusTracker tracker;
    const PartitionKey key{QStringLiteral("t"), 0};
    // Records keep arriving at the source, the mirror never advances.
    feed(
        tracker, 0, 60000, [](qint64) { return 100; }, [](qint64 t) { return 200 + t / 100; });
    QCOMPARE(partitionLagStatusName(tracker.partitionStatus(key, 60000)), QStringLiteral("STALL"));
    QCOMPARE(jobLagStatusName(tracker.jobStatus(60000)), QStringLiteral("ERR"));
}

void TestLagStatus::trackerWarnWhenFallingBehind()
{
    LagStatusTracker tracker;
    const PartitionKey key{QStringLiteral("t"), 0};
    // Mirror advances 1 record/ms, source grows 2 records/ms: lag rises at every observation.
    feed(
        tracker, 0, 60000, [](qint64 t) { return 1000 + t; }, [](qint64 t) { return 1010 + 2 * t; });
    QCOMPARE(partitionLagStatusName(tracker.partitionStatus(key, 60000)), QStringLiteral("WARN"));
    QCOMPARE(jobLagStatusName(tracker.jobStatus(60000)), QStringLiteral("WARN"));
}

void TestLagStatus::trackerOkWhenCatchingUp()
{
    LagStatusTracker tracker;
    const PartitionKey key{QStringLiteral("t"), 0};
    // Big backlog, mirror faster than the producer: lag goes down.
    feed(
        tracker, 0, 60000, [](qint64 t) { return 2 * t; }, [](qint64 t) { return 1000000 + t; });
    QCOMPARE(partitionLagStatusName(tracker.partitionStatus(key, 60000)), QStringLiteral("OK"));
}

void TestLagStatus::trackerStopWhenSilent()
{
    LagStatusTracker tracker;
    const PartitionKey key{QStringLiteral("t"), 0};
    feed(
        tracker, 0, 60000, [](qint64 t) { return 2 * t; }, [](qint64 t) { return 1000000 + t; });
    const qint64 span = tracker.window(key).last().timestampMs - tracker.window(key).first().timestampMs;
    QVERIFY(span >= 45000);
    // No snapshot for as long as the window: not yet; longer: STOP.
    QCOMPARE(tracker.partitionStatus(key, 60000 + span), PartitionLagStatus::Ok);
    QCOMPARE(partitionLagStatusName(tracker.partitionStatus(key, 60000 + span + 1)), QStringLiteral("STOP"));
    QCOMPARE(tracker.jobStatus(60000 + span + 1), JobLagStatus::Err);
}

void TestLagStatus::trackerRewindIsNeverSmoothedAway()
{
    LagStatusTracker tracker;
    const PartitionKey key{QStringLiteral("t"), 0};
    feed(
        tracker, 0, 30000, [](qint64 t) { return 10000 + t; }, [](qint64 t) { return 20000 + 2 * t; });
    // One sample 250 ms later goes back by 5000, then it moves on again within the interval.
    tracker.addSnapshot(snapshotAt(30250, {pm(QStringLiteral("t"), 0, 35000, 90000)}));
    tracker.addSnapshot(snapshotAt(30500, {pm(QStringLiteral("t"), 0, 35100, 90000)}));
    tracker.addSnapshot(snapshotAt(30750, {pm(QStringLiteral("t"), 0, 35200, 90000)}));
    QCOMPARE(partitionLagStatusName(tracker.partitionStatus(key, 30750)), QStringLiteral("REWIND"));
}

void TestLagStatus::trackerZeroLagIsNeverSmoothedAway()
{
    LagStatusTracker tracker;
    const PartitionKey key{QStringLiteral("t"), 0};
    // Lag grows, except one 250 ms moment where the mirror was caught up.
    for (qint64 t = 0; t <= 40000; t += 250) {
        const qint64 next = 1000 + t;
        const qint64 end = t == 20250 ? next : next + 10 + t / 100;
        tracker.addSnapshot(snapshotAt(t, {pm(QStringLiteral("t"), 0, next, end)}));
    }
    bool sawZero = false;
    for (const LagObservation &o : tracker.window(key))
        sawZero = sawZero || (o.lag && *o.lag == 0);
    QVERIFY(sawZero);
    QCOMPARE(partitionLagStatusName(tracker.partitionStatus(key, 40000)), QStringLiteral("OK"));
}

void TestLagStatus::trackerYoungWindowIsOk()
{
    LagStatusTracker tracker;
    const PartitionKey key{QStringLiteral("t"), 0};
    // Two samples of a position that did not move: far too early to call it STALL.
    feed(
        tracker, 0, 500, [](qint64) { return 5; }, [](qint64) { return 50; });
    QCOMPARE(tracker.partitionStatus(key, 500), PartitionLagStatus::Ok);
    // But a job that went silent right after starting is STOP after minSpanMs.
    QCOMPARE(tracker.partitionStatus(key, 500 + tracker.config().minSpanMs + 1), PartitionLagStatus::Stop);
}

void TestLagStatus::trackerWindowIsBoundedAndSpaced()
{
    LagStatusTracker::Config config;
    config.windowSize = 6;
    config.minIntervalMs = 2000;
    LagStatusTracker tracker(config);
    const PartitionKey key{QStringLiteral("t"), 0};
    feed(
        tracker, 0, 600000, [](qint64 t) { return t; }, [](qint64 t) { return t + 5; });
    const QList<LagObservation> w = tracker.window(key);
    QCOMPARE(w.size(), 6);
    QCOMPARE(w.last().timestampMs, qint64(600000)); // always ends at the newest sample
    for (qsizetype i = 1; i + 1 < w.size(); ++i)
        QVERIFY2(w[i].timestampMs - w[i - 1].timestampMs >= 2000, qPrintable(QString::number(i)));
}

void TestLagStatus::trackerJobRollUpIsWorstPartition()
{
    LagStatusTracker tracker;
    for (qint64 t = 0; t <= 60000; t += 250) {
        tracker.addSnapshot(snapshotAt(t, {
                                              pm(QStringLiteral("a"), 0, t, t),               // caught up
                                              pm(QStringLiteral("a"), 1, t, 2 * t + 10),      // WARN
                                              pm(QStringLiteral("b"), 0, 2 * t, 1000000 + t), // catching up
                                          }));
    }
    const auto all = tracker.evaluate(60000);
    QCOMPARE(all.size(), 3);
    QCOMPARE(all.value({QStringLiteral("a"), 0}), PartitionLagStatus::Ok);
    QCOMPARE(all.value({QStringLiteral("a"), 1}), PartitionLagStatus::Warn);
    QCOMPARE(all.value({QStringLiteral("b"), 0}), PartitionLagStatus::Ok);
    QCOMPARE(tracker.jobStatus(60000), JobLagStatus::Warn);

    // b-0 is revoked and goes silent while the others keep reporting: it turns STOP, the job ERR.
    for (qint64 t = 60250; t <= 200000; t += 250)
        tracker.addSnapshot(snapshotAt(t, {pm(QStringLiteral("a"), 0, t, t)}));
    QCOMPARE(tracker.partitionStatus({QStringLiteral("b"), 0}, 200000), PartitionLagStatus::Stop);
    QCOMPARE(tracker.jobStatus(200000), JobLagStatus::Err);
    tracker.removePartition({QStringLiteral("b"), 0});
    tracker.removePartition({QStringLiteral("a"), 1});
    QCOMPARE(tracker.jobStatus(200000), JobLagStatus::Ok);
}

void TestLagStatus::trackerUnknownPositionIsSkipped()
{
    LagStatusTracker tracker;
    PartitionMetrics p = pm(QStringLiteral("t"), 0, -1, 100);
    p.committedOffset = -1;
    tracker.addSnapshot(snapshotAt(0, {p}));
    QVERIFY(tracker.partitions().isEmpty());
    p.committedOffset = 40; // no mirrored position yet, but a committed one
    p.lag = -1;
    tracker.addSnapshot(snapshotAt(250, {p}));
    QCOMPARE(tracker.partitions().size(), 1);
    QCOMPARE(tracker.window({QStringLiteral("t"), 0}).first().offset, qint64(40));
    QVERIFY(!tracker.window({QStringLiteral("t"), 0}).first().lag.has_value());
}

QTEST_GUILESS_MAIN(TestLagStatus)
#include "tst_lagstatus.moc"
