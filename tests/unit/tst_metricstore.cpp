// The per-job metric store: fixed rings, exact min/max/mean downsampling, window queries that
// pick the finest tier holding the window, wrap-around, and per-partition lag history.

#include "model/monitor/MetricStore.h"
#include "model/monitor/RingBuffer.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace md;
using Series = MetricStore::Series;

namespace {

constexpr qint64 kT0 = 1'700'000'000'000; // a whole second, so buckets start at kT0

MetricsSnapshot snap(qint64 t, double rate, qint64 lag, QList<PartitionMetrics> partitions = {})
{
    MetricsSnapshot s;
    s.jobName = QStringLiteral("job");
    s.time = QDateTime::fromMSecsSinceEpoch(t, Qt::UTC);
    s.elapsedMs = t - kT0;
    s.state = JobState::Running;
    s.consumeRecordsPerSec = rate;
    s.produceRecordsPerSec = rate / 2;
    s.totalLag = lag;
    s.lagTimeMs = -1;
    s.latency.p50Ms = rate / 10;
    s.latency.p99Ms = -1;
    s.partitions = std::move(partitions);
    return s;
}

PartitionMetrics part(const QString &topic, int partition, qint64 lag, qint64 records = 0)
{
    PartitionMetrics p;
    p.topic = topic;
    p.targetTopic = QStringLiteral("dr.") + topic;
    p.partition = partition;
    p.endOffset = 1000 + lag;
    p.nextOffset = 1000;
    p.lag = lag;
    p.records = records;
    return p;
}

MetricStore::Config smallConfig()
{
    MetricStore::Config c;
    c.rawCapacity = 8;                // 2 s of 250 ms samples
    c.tiers = {{1000, 4}, {4000, 3}}; // 1 s for 4 s, 4 s for 12 s
    c.maxPartitions = 3;
    return c;
}

} // namespace

class TestMetricStore final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void ringBufferWrapsAndKeepsOrder();
    void ringBufferZeroCapacity();
    void rawWindowBeforeAnyWrap();
    void downsamplingIsExactMinMaxMean();
    void unknownValuesAreGapsNotZeros();
    void tierChoiceFollowsRetention();
    void windowBoundsAreRespected();
    void maxPointsMergesHonestly();
    void boundsNeverExceededOnLongRuns();
    void partitionSeriesAlignWithJobSlots();
    void partitionsGoneLongerThanRetentionArePruned();
    void partitionCapIsHonoured();
    void partitionTableHasRatesAndStatus();
    void figuresFollowThePartitionNotItsPlace();
    void olderSnapshotIsRejected();
    void recentMeanSmoothsBatchedTicks();
    void defaultConfigCoversADay();
};

void TestMetricStore::ringBufferWrapsAndKeepsOrder()
{
    RingBuffer<int> r(4);
    QCOMPARE(r.capacity(), 4);
    for (int i = 0; i < 3; ++i)
        r.push(i);
    QCOMPARE(r.size(), 3);
    QVERIFY(!r.hasDropped());
    QCOMPARE(r.first(), 0);
    for (int i = 3; i < 11; ++i)
        r.push(i);
    QCOMPARE(r.size(), 4);
    QVERIFY(r.hasDropped());
    for (int i = 0; i < 4; ++i)
        QCOMPARE(r.at(i), 7 + i);
    QCOMPARE(r.last(), 10);
    QCOMPARE(r.memoryBytes(), qsizetype(4 * sizeof(int)));
    RingBuffer<int> copy = r;
    r.push(11);
    QCOMPARE(copy.last(), 10);
    QCOMPARE(r.last(), 11);
    r.clear();
    QVERIFY(r.isEmpty());
    QCOMPARE(r.capacity(), 4);
}

void TestMetricStore::ringBufferZeroCapacity()
{
    RingBuffer<double> r(0);
    r.push(1.0);
    QCOMPARE(r.size(), 0);
    QVERIFY(r.hasDropped());
}

void TestMetricStore::rawWindowBeforeAnyWrap()
{
    MetricStore store(smallConfig());
    for (int i = 0; i < 5; ++i)
        QVERIFY(store.addSnapshot(snap(kT0 + i * 250, 100 + i, 10 * i)));
    QCOMPARE(store.tierFor(0), -1); // nothing dropped yet: raw holds the whole run
    const auto pts = store.series(Series::ConsumeRecordsPerSec, 0, kT0 + 10000, 0);
    QCOMPARE(pts.size(), 5);
    for (int i = 0; i < 5; ++i) {
        QCOMPARE(pts[i].timeMs, kT0 + i * 250);
        QCOMPARE(pts[i].value, 100.0 + i);
        QCOMPARE(pts[i].min, 100.0 + i);
        QCOMPARE(pts[i].max, 100.0 + i);
    }
    QCOMPARE(store.series(Series::ProduceRecordsPerSec, 0, kT0 + 10000, 0).last().value, 52.0);
}

void TestMetricStore::downsamplingIsExactMinMaxMean()
{
    MetricStore store(smallConfig());
    // Four samples per 1 s bucket. Bucket k: rates 10k+{1,5,3,7}, lags 100k+{4,0,9,2}.
    const double rates[4] = {1, 5, 3, 7};
    const qint64 lags[4] = {4, 0, 9, 2};
    for (int k = 0; k < 6; ++k) {
        for (int j = 0; j < 4; ++j)
            store.addSnapshot(snap(kT0 + k * 1000 + j * 250, 10 * k + rates[j], 100 * k + lags[j]));
    }
    // 24 samples, raw keeps 8 (the last 2 s): a window from kT0 + 1 s comes from the 1 s tier;
    // one from kT0 only from the 4 s tier, as the 1 s tier already dropped its first bucket.
    QCOMPARE(store.tierFor(kT0 + 1000), 0);
    QCOMPARE(store.tierFor(kT0), 1);
    const auto rate = store.series(Series::ConsumeRecordsPerSec, kT0 + 1000, kT0 + 6000, 0);
    // Tier 0 keeps 4 closed buckets (k = 1..4) plus the open one (k = 5); k = 0 wrapped away.
    QCOMPARE(rate.size(), 5);
    for (int i = 0; i < rate.size(); ++i) {
        const int k = i + 1;
        QCOMPARE(rate[i].timeMs, kT0 + k * 1000);
        QCOMPARE(rate[i].min, 10.0 * k + 1);
        QCOMPARE(rate[i].max, 10.0 * k + 7);
        QCOMPARE(rate[i].avg, 10.0 * k + 4);  // (1+5+3+7)/4
        QCOMPARE(rate[i].value, rate[i].avg); // rates are drawn by their mean
    }
    const auto lag = store.series(Series::TotalLag, kT0 + 1000, kT0 + 6000, 0);
    QCOMPARE(lag.size(), 5);
    for (int i = 0; i < lag.size(); ++i) {
        const int k = i + 1;
        QCOMPARE(lag[i].min, 100.0 * k);
        QCOMPARE(lag[i].max, 100.0 * k + 9);
        QCOMPARE(lag[i].avg, 100.0 * k + 3.75);
        QCOMPARE(lag[i].value, lag[i].max); // lag is drawn by its peak
    }
    // The 4 s tier aggregates raw samples directly: bucket [kT0+4000, kT0+8000) is open and
    // holds k = 4, 5; bucket [kT0, kT0+4000) is closed with k = 0..3.
    QCOMPARE(store.tierFor(kT0 - 1), 1);
    const auto coarse = store.series(Series::ConsumeRecordsPerSec, kT0 - 1, kT0 + 6000, 0);
    QCOMPARE(coarse.size(), 2);
    QCOMPARE(coarse[0].timeMs, kT0);
    QCOMPARE(coarse[0].min, 1.0);
    QCOMPARE(coarse[0].max, 37.0);
    QCOMPARE(coarse[0].avg, 19.0); // mean of 10k+4 for k = 0..3
    QCOMPARE(coarse[1].timeMs, kT0 + 4000);
    QCOMPARE(coarse[1].min, 41.0);
    QCOMPARE(coarse[1].max, 57.0);
    QCOMPARE(coarse[1].avg, 49.0);
}

void TestMetricStore::unknownValuesAreGapsNotZeros()
{
    MetricStore store(smallConfig());
    for (int i = 0; i < 12; ++i) {
        MetricsSnapshot s = snap(kT0 + i * 250, 10, 5);
        s.lagTimeMs = (i % 4 == 1) ? 800 + i : -1;
        store.addSnapshot(s);
    }
    const auto raw = store.series(Series::LagTimeMs, kT0 + 1000, kT0 + 3000, 0);
    QCOMPARE(raw.size(), 8);
    QVERIFY(std::isnan(raw[0].value));
    QCOMPARE(raw[1].value, 805.0);
    const auto p99 = store.series(Series::LatencyP99Ms, kT0 + 1000, kT0 + 3000, 0);
    QVERIFY(std::all_of(p99.cbegin(), p99.cend(), [](const auto &p) { return std::isnan(p.value); }));
    // Aggregates ignore unknown samples instead of averaging zeros in.
    const auto agg = store.series(Series::LagTimeMs, kT0, kT0 + 3000, 0);
    QCOMPARE(store.tierFor(kT0), 0);
    QCOMPARE(agg.first().timeMs, kT0);
    QCOMPARE(agg.first().min, 801.0);
    QCOMPARE(agg.first().max, 801.0);
    QCOMPARE(agg.first().avg, 801.0);
}

void TestMetricStore::tierChoiceFollowsRetention()
{
    MetricStore store(smallConfig());
    for (int i = 0; i < 80; ++i) // 20 s
        store.addSnapshot(snap(kT0 + i * 250, i, i));
    const qint64 last = kT0 + 79 * 250;
    QCOMPARE(store.lastTimeMs(), last);
    QCOMPARE(store.tierFor(last - 1000), -1); // raw holds the last 2 s
    QCOMPARE(store.tierFor(last - 1750), -1);
    QCOMPARE(store.tierFor(last - 2000), 0); // raw wrapped past it
    QCOMPARE(store.tierFor(last - 4000), 0); // 1 s buckets for 4 s (+ the open one)
    QCOMPARE(store.tierFor(last - 8000), 1);
    QCOMPARE(store.tierFor(kT0), 1); // nothing covers it: coarsest
    QVERIFY(store.firstTimeMs() > kT0);
    QCOMPARE(store.firstTimeMs(), kT0 + 4000); // 4 s tier: closed buckets at 4, 8, 12 s + open 16 s
    // The coarsest answer still ends at the live edge.
    const auto pts = store.series(Series::TotalLag, kT0, last, 0);
    QCOMPARE(pts.size(), 4);
    QCOMPARE(pts.last().timeMs, kT0 + 16000);
    QCOMPARE(pts.last().max, 79.0);
}

void TestMetricStore::windowBoundsAreRespected()
{
    MetricStore store(smallConfig());
    for (int i = 0; i < 8; ++i)
        store.addSnapshot(snap(kT0 + i * 250, i, i));
    const auto pts = store.series(Series::ConsumeRecordsPerSec, kT0 + 500, kT0 + 1250, 0);
    QCOMPARE(pts.size(), 4);
    QCOMPARE(pts.first().timeMs, kT0 + 500);
    QCOMPARE(pts.last().timeMs, kT0 + 1250);
    QVERIFY(store.series(Series::ConsumeRecordsPerSec, kT0 + 5000, kT0 + 6000, 0).isEmpty());
    QVERIFY(store.series(Series::ConsumeRecordsPerSec, kT0 + 600, kT0 + 700, 0).isEmpty());

    for (int i = 8; i < 40; ++i)
        store.addSnapshot(snap(kT0 + i * 250, i, i));
    // From a 1 s tier: a bucket that overlaps the window start is included, later ones not.
    const auto agg = store.series(Series::ConsumeRecordsPerSec, kT0 + 6500, kT0 + 8200, 0);
    QCOMPARE(store.tierFor(kT0 + 6500), 0);
    QCOMPARE(agg.size(), 3);
    QCOMPARE(agg[0].timeMs, kT0 + 6000);
    QCOMPARE(agg[2].timeMs, kT0 + 8000);
}

void TestMetricStore::maxPointsMergesHonestly()
{
    MetricStore::Config c = smallConfig();
    c.rawCapacity = 100;
    MetricStore store(c);
    for (int i = 0; i < 100; ++i) // a spike at i = 37
        store.addSnapshot(snap(kT0 + i * 250, i == 37 ? 1000 : 1, i == 37 ? 500 : 0));
    const auto pts = store.series(Series::ConsumeRecordsPerSec, kT0, kT0 + 100000, 10);
    QCOMPARE(pts.size(), 10);
    for (int g = 0; g < 10; ++g) {
        QCOMPARE(pts[g].timeMs, kT0 + g * 2500);
        if (g == 3) {
            QCOMPARE(pts[g].max, 1000.0); // the spike survives the merge
            QCOMPARE(pts[g].min, 1.0);
            QCOMPARE(pts[g].avg, (9 + 1000) / 10.0);
        } else {
            QCOMPARE(pts[g].max, 1.0);
            QCOMPARE(pts[g].avg, 1.0);
        }
    }
    const auto lag = store.series(Series::TotalLag, kT0, kT0 + 100000, 10);
    QCOMPARE(lag[3].value, 500.0);
    QCOMPARE(lag[4].value, 0.0);
    // Fewer points than the limit are returned as they are.
    QCOMPARE(store.series(Series::TotalLag, kT0, kT0 + 100000, 1000).size(), 100);
    // Uneven split: 100 points into 7 groups of 15 (the last one shorter).
    QCOMPARE(store.series(Series::TotalLag, kT0, kT0 + 100000, 7).size(), 7);
}

void TestMetricStore::boundsNeverExceededOnLongRuns()
{
    MetricStore store(smallConfig());
    qsizetype memoryAfterWarmUp = 0;
    for (int i = 0; i < 4000; ++i) { // 1000 s, far more than every tier holds
        QList<PartitionMetrics> parts{part(QStringLiteral("a"), 0, i), part(QStringLiteral("a"), 1, 2 * i)};
        store.addSnapshot(snap(kT0 + i * 250, i, i, parts));
        if (i == 200)
            memoryAfterWarmUp = store.memoryBytes();
        if (i % 97 == 0) {
            QVERIFY(store.series(Series::TotalLag, kT0, kT0 + i * 250, 0).size() <= 3 + 1);
            QVERIFY(store.series(Series::TotalLag, store.lastTimeMs() - 3000, kT0 + i * 250, 0).size() <= 4 + 1);
            QVERIFY(store.series(Series::TotalLag, store.lastTimeMs() - 1000, kT0 + i * 250, 0).size() <= 8);
            QVERIFY(store.partitionLagSeries({QStringLiteral("a"), 1}, kT0, kT0 + i * 250, 0).size() <= 4);
        }
    }
    QVERIFY(memoryAfterWarmUp > 0);
    QCOMPARE(store.memoryBytes(), memoryAfterWarmUp); // flat: nothing grows with the run
    QCOMPARE(store.sampleCount(), qint64(4000));
    // Wrap-around kept the newest samples in order.
    const auto raw = store.series(Series::ConsumeRecordsPerSec, store.lastTimeMs() - 1750, store.lastTimeMs(), 0);
    QCOMPARE(raw.size(), 8);
    for (int i = 0; i < 8; ++i)
        QCOMPARE(raw[i].value, double(3992 + i));
    const auto p1 =
        store.partitionLagSeries({QStringLiteral("a"), 1}, store.lastTimeMs() - 1750, store.lastTimeMs(), 0);
    QCOMPARE(p1.size(), 8);
    QCOMPARE(p1.last().value, 2.0 * 3999);
}

void TestMetricStore::partitionSeriesAlignWithJobSlots()
{
    MetricStore store(smallConfig());
    const PartitionKey a0{QStringLiteral("a"), 0};
    const PartitionKey b0{QStringLiteral("b"), 0};
    for (int i = 0; i < 8; ++i) {
        QList<PartitionMetrics> parts{part(QStringLiteral("a"), 0, 100 + i)};
        if (i >= 3 && i < 6) // b-0 assigned for three samples only
            parts.append(part(QStringLiteral("b"), 0, 50 * i));
        store.addSnapshot(snap(kT0 + i * 250, 1, 0, parts));
    }
    QCOMPARE(store.partitionsWithHistory(), (QList<PartitionKey>{a0, b0}));
    const auto b = store.partitionLagSeries(b0, kT0, kT0 + 2000, 0);
    QCOMPARE(b.size(), 8);
    for (int i = 0; i < 8; ++i) {
        QCOMPARE(b[i].timeMs, kT0 + i * 250);
        if (i >= 3 && i < 6)
            QCOMPARE(b[i].value, 50.0 * i);
        else
            QVERIFY2(std::isnan(b[i].value), qPrintable(QString::number(i)));
    }
    for (int i = 8; i < 24; ++i)
        store.addSnapshot(snap(kT0 + i * 250, 1, 0, {part(QStringLiteral("a"), 0, 100 + i)}));
    // Only the 4 s tier still holds kT0; b-0 lived in its first bucket.
    QCOMPARE(store.tierFor(kT0), 1);
    const auto coarse = store.partitionLagSeries(b0, kT0, kT0 + 6000, 0);
    QCOMPARE(coarse.size(), 2);
    QCOMPARE(coarse[0].max, 250.0); // [kT0, kT0 + 4000): lags 150, 200, 250
    QCOMPARE(coarse[0].min, 150.0);
    QCOMPARE(coarse[0].avg, 200.0);
    QVERIFY(std::isnan(coarse[1].value));
    const auto a = store.partitionLagSeries(a0, kT0, kT0 + 6000, 0);
    QCOMPARE(a[0].max, 115.0);
    QCOMPARE(a[1].max, 123.0);
}

void TestMetricStore::partitionsGoneLongerThanRetentionArePruned()
{
    MetricStore store(smallConfig());
    const PartitionKey gone{QStringLiteral("gone"), 0};
    store.addSnapshot(snap(kT0, 1, 0, {part(QStringLiteral("gone"), 0, 7)}));
    QVERIFY(store.partitionsWithHistory().contains(gone));
    for (int i = 1; i < 30; ++i)
        store.addSnapshot(snap(kT0 + i * 250, 1, 0, {part(QStringLiteral("a"), 0, 1)}));
    QVERIFY(store.partitionsWithHistory().contains(gone)); // its sample is still in the 4 s tier
    const qsizetype before = store.memoryBytes();
    for (int i = 30; i < 100; ++i)
        store.addSnapshot(snap(kT0 + i * 250, 1, 0, {part(QStringLiteral("a"), 0, 1)}));
    QVERIFY(!store.partitionsWithHistory().contains(gone));
    QVERIFY(store.memoryBytes() < before);
}

void TestMetricStore::partitionCapIsHonoured()
{
    MetricStore store(smallConfig()); // maxPartitions = 3
    QList<PartitionMetrics> parts;
    for (int p = 0; p < 5; ++p)
        parts.append(part(QStringLiteral("t"), p, p));
    store.addSnapshot(snap(kT0, 1, 0, parts));
    QCOMPARE(store.partitionsWithHistory().size(), 3);
    QCOMPARE(store.partitionTable().size(), 5); // the table still shows every partition
}

void TestMetricStore::partitionTableHasRatesAndStatus()
{
    MetricStore store;
    store.addSnapshot(snap(kT0, 1, 0, {part(QStringLiteral("b"), 0, 5, 100), part(QStringLiteral("a"), 2, 0, 0)}));
    auto rows = store.partitionTable();
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows[0].metrics.topic, QStringLiteral("a")); // sorted by topic, partition
    QCOMPARE(rows[0].recordsPerSec, -1.0);                // unknown from one sample
    store.addSnapshot(
        snap(kT0 + 500, 1, 0, {part(QStringLiteral("b"), 0, 5, 300), part(QStringLiteral("a"), 2, 0, 10)}));
    rows = store.partitionTable();
    QCOMPARE(rows[0].recordsPerSec, 20.0);
    QCOMPARE(rows[1].recordsPerSec, 400.0);
    QCOMPARE(rows[1].metrics.targetTopic, QStringLiteral("dr.b"));
    QCOMPARE(rows[1].status, PartitionLagStatus::Ok);

    // b-0 stays at the same position with lag for a minute: STALL, job ERR.
    for (int i = 2; i < 260; ++i)
        store.addSnapshot(
            snap(kT0 + i * 250, 1, 5, {part(QStringLiteral("b"), 0, 5 + i, 300), part(QStringLiteral("a"), 2, 0, 10)}));
    rows = store.partitionTable();
    QCOMPARE(partitionLagStatusName(rows[1].status), QStringLiteral("STALL"));
    QCOMPARE(rows[1].recordsPerSec, 0.0);
    QCOMPARE(store.jobStatus(), JobLagStatus::Err);
    QCOMPARE(store.latest().partitions.size(), 2);
}

// The same partitions in a shuffled order, some leaving and coming back, against the same
// in a fixed order: every rate, status and lag series follows its partition, whatever its
// place in the list (a store walks the last snapshot's order while it stays the same).
void TestMetricStore::figuresFollowThePartitionNotItsPlace()
{
    MetricStore shuffled(smallConfig()), ordered(smallConfig());
    QList<PartitionMetrics> all;
    for (int i = 0; i < 60; ++i) {
        QList<PartitionMetrics> parts;
        for (int p = 0; p < 4; ++p) {
            if (p == 3 && i % 10 >= 5)
                continue; // t-3 comes and goes
            parts.append(part(QStringLiteral("t"), p, qint64(p * 100 + i), qint64((p + 1) * 37 * i)));
        }
        QList<PartitionMetrics> mixed = parts;
        if (i % 3 == 1)
            std::reverse(mixed.begin(), mixed.end());
        else if (i % 3 == 2)
            std::rotate(mixed.begin(), mixed.begin() + 1, mixed.end());
        QVERIFY(ordered.addSnapshot(snap(kT0 + i * 250, 1, 0, parts)));
        QVERIFY(shuffled.addSnapshot(snap(kT0 + i * 250, 1, 0, mixed)));
        const auto a = ordered.partitionTable(), b = shuffled.partitionTable();
        QCOMPARE(a.size(), b.size());
        for (qsizetype r = 0; r < a.size(); ++r) {
            QCOMPARE(b[r].metrics.partition, a[r].metrics.partition);
            QCOMPARE(b[r].recordsPerSec, a[r].recordsPerSec);
            QCOMPARE(b[r].status, a[r].status);
        }
    }
    QVERIFY(ordered.partitionTable().at(1).recordsPerSec > 0);
    for (int p = 0; p < 3; ++p) { // the cap: three series
        const PartitionKey key{QStringLiteral("t"), p};
        const auto a = ordered.partitionLagSeries(key, kT0, kT0 + 60 * 250, 0);
        const auto b = shuffled.partitionLagSeries(key, kT0, kT0 + 60 * 250, 0);
        QCOMPARE(a.size(), b.size());
        for (qsizetype i = 0; i < a.size(); ++i)
            QVERIFY2(a[i].value == b[i].value || (std::isnan(a[i].value) && std::isnan(b[i].value)),
                     qPrintable(QStringLiteral("t-%1 point %2").arg(p).arg(i)));
    }
}

void TestMetricStore::olderSnapshotIsRejected()
{
    MetricStore store(smallConfig());
    QVERIFY(store.addSnapshot(snap(kT0 + 1000, 1, 1)));
    QVERIFY(!store.addSnapshot(snap(kT0 + 750, 2, 2)));
    QVERIFY(store.addSnapshot(snap(kT0 + 1000, 3, 3))); // same time is fine
    QCOMPARE(store.sampleCount(), qint64(2));
    QCOMPARE(store.latest().totalLag, qint64(3));
}

void TestMetricStore::defaultConfigCoversADay()
{
    const MetricStore::Config c;
    QCOMPARE(c.rawCapacity * 250, qint64(15 * 60 * 1000));
    qint64 longest = 0;
    for (const auto &t : c.tiers)
        longest = std::max(longest, t.bucketMs * t.capacity);
    QVERIFY(longest >= 24LL * 3600 * 1000);
    // The estimate for a full day is what the benchmark measured (see MetricStore.h).
    MetricStore store;
    QList<PartitionMetrics> parts;
    for (int p = 0; p < 12; ++p)
        parts.append(part(QStringLiteral("orders"), p, p));
    store.addSnapshot(snap(kT0, 1, 1, parts));
    QVERIFY(store.memoryBytes() > 1'000'000);
    QVERIFY(store.memoryBytes() < 2'000'000);
}

void TestMetricStore::recentMeanSmoothsBatchedTicks()
{
    MetricStore store;
    QVERIFY(std::isnan(store.recentMean(Series::ProduceRecordsPerSec)));
    // One batch a second at 250 ms ticks: the latest snapshot alone reads 0 three times in four.
    for (int tick = 1; tick <= 40; ++tick) {
        QVERIFY(store.addSnapshot(snap(kT0 + tick * 250, tick % 4 == 0 ? 3200 : 0, 0)));
        QCOMPARE(store.latest().produceRecordsPerSec, tick % 4 == 0 ? 1600.0 : 0.0);
        if (tick >= 8) {
            QCOMPARE(store.recentMean(Series::ProduceRecordsPerSec), 400.0);
            QCOMPARE(store.recentMean(Series::ProduceRecordsPerSec, 1000), 400.0);
        }
    }
    // A window shorter than a tick still has the latest sample.
    QCOMPARE(store.recentMean(Series::ConsumeRecordsPerSec, 1), 3200.0);
}

QTEST_GUILESS_MAIN(TestMetricStore)
#include "tst_metricstore.moc"
