#pragma once

#include "engine/mirror/MetricsSnapshot.h"
#include "engine/mirror/RateWindow.h"
#include "model/monitor/LagStatus.h"
#include "model/monitor/RingBuffer.h"

#include <QHash>
#include <QList>

#include <array>
#include <limits>
#include <vector>

namespace md {

// The time series of one job, fed by its MetricsSnapshots (one per sampling tick, 250 ms by
// default), read by the charts, the lag map and the partition table.
//
// Memory is fixed by the configuration, never by the length of the run: every series lives in
// fixed-size rings. Raw samples are kept for the last rawCapacity ticks (15 min at 250 ms);
// older data survives only as aggregates per bucket (5 s for 2 h, 1 min for 24 h, 15 min for
// 7 days by default), each keeping min, max and mean so a downsampled chart still shows the
// spikes. Every tier aggregates the raw samples directly, so its min/max/mean are exact.
// Per-partition lag rings share the job rings' slots (same timestamps, NaN where the
// partition was not assigned) and are capped at maxPartitions partitions.
//
// Measured (tests/bench/bench_metricstore, 24 h of 250 ms snapshots = 345,600, default config):
//   12 partitions:  memoryBytes() 1.46 MiB, heap actually grown 1.50 MiB
//   100 partitions: memoryBytes() 6.34 MiB, heap actually grown 6.42 MiB
// i.e. about 0.83 MiB per job plus 57 KiB per partition. The rings are allocated up front, so
// the figure is reached with the first snapshot and never grows (the bench checks it). addSnapshot costs ~18 us (12
// partitions) to ~140 us (100 partitions) per tick.
//
// Not thread-safe: it lives on the thread that receives the snapshots (the UI thread).
class MetricStore final {
public:
    enum class Series {
        ConsumeRecordsPerSec,
        ProduceRecordsPerSec,
        ConsumeBytesPerSec,
        ProduceBytesPerSec,
        TotalLag,
        LagTimeMs,
        LatencyP50Ms,
        LatencyP99Ms,
        InFlight,
    };
    static constexpr int SeriesCount = 9;

    // Lag series (and p99) are drawn by their maximum: a mean would hide the peak an operator
    // needs to see. The others are drawn by their mean. min/max are always available.
    static bool isPeakSeries(Series s);
    static QString seriesName(Series s);

    struct Point {
        qint64 timeMs = 0;                                       // sample time, or bucket start for aggregates
        double value = std::numeric_limits<double>::quiet_NaN(); // what to draw (see isPeakSeries)
        double min = std::numeric_limits<double>::quiet_NaN();
        double max = std::numeric_limits<double>::quiet_NaN();
        double avg = std::numeric_limits<double>::quiet_NaN();
    };

    struct Tier {
        qint64 bucketMs = 0;
        qsizetype capacity = 0;
    };

    struct Config {
        qsizetype rawCapacity = 3600; // 15 min at 250 ms
        QList<Tier> tiers{{5000, 1440}, {60000, 1440}, {900000, 672}};
        int maxPartitions = 1000; // partitions with a lag history; the table shows them all
        LagStatusTracker::Config lag;
    };

    // One row of the partition table: the latest metrics of a partition and what they mean.
    struct PartitionRow {
        PartitionMetrics metrics;
        double recordsPerSec = -1; // -1 until two snapshots are known
        PartitionLagStatus status = PartitionLagStatus::Ok;
    };

    MetricStore();
    explicit MetricStore(const Config &config);

    const Config &config() const { return m_config; }

    // Returns false (and stores nothing) for a snapshot older than the previous one.
    bool addSnapshot(const MetricsSnapshot &snapshot);
    void clear();

    bool isEmpty() const { return m_raw.isEmpty(); }
    qint64 sampleCount() const { return m_sampleCount; }
    qint64 firstTimeMs() const; // oldest point still held, any tier
    qint64 lastTimeMs() const { return m_lastTimeMs; }

    // Points of [fromMs, toMs] from the finest tier that still holds fromMs (the coarsest
    // one when none does), merged down to at most maxPoints (<= 0: no limit). Aggregated
    // tiers end with the bucket still being filled, so the live edge is never missing.
    QList<Point> series(Series s, qint64 fromMs, qint64 toMs, int maxPoints) const;
    QList<Point> partitionLagSeries(const PartitionKey &key, qint64 fromMs, qint64 toMs, int maxPoints) const;
    // -1 = raw samples, 0.. = config().tiers index.
    int tierFor(qint64 fromMs) const;
    QList<PartitionKey> partitionsWithHistory() const; // sorted

    const MetricsSnapshot &latest() const { return m_latest; }
    // The mean of a series over the raw samples of the last windowMs up to the latest one
    // (the latest alone when it is the only one); NaN when empty. A snapshot's rates cover
    // its own 250 ms tick, and records arrive in fetch and delivery batches, so one tick
    // reads 0/s and the next a burst: a figure shown as text takes this instead.
    double recentMean(Series s, qint64 windowMs = 2000) const;
    QList<PartitionRow> partitionTable() const; // latest snapshot's partitions, sorted
    const LagStatusTracker &lagStatus() const { return m_lag; }
    // As of the latest snapshot. A job that stopped reporting is only seen as STOP when asked
    // with the wall clock: lagStatus().jobStatus(QDateTime::currentMSecsSinceEpoch()).
    JobLagStatus jobStatus() const { return m_lag.jobStatus(m_lastTimeMs); }

    // Estimate of the heap held (rings dominate; containers and strings approximated).
    qsizetype memoryBytes() const;

private:
    struct Acc {
        double min = std::numeric_limits<double>::infinity();
        double max = -std::numeric_limits<double>::infinity();
        double sum = 0;
        quint32 count = 0;
        void add(double v);
        void reset() { *this = Acc{}; }
    };
    struct RawSample {
        qint64 timeMs = 0;
        std::array<double, SeriesCount> v{};
    };
    // Aggregates are stored as float (7 significant digits, plenty for a chart) to halve
    // the rings; they are accumulated in double.
    struct AggValue {
        float min, max, avg;
    };
    struct JobBucket {
        qint64 startMs = 0;
        std::array<AggValue, SeriesCount> v{};
        std::array<quint32, SeriesCount> count{};
    };
    struct TierState {
        qint64 bucketMs = 0;
        RingBuffer<JobBucket> ring;
        qint64 openStartMs = -1;
        std::array<Acc, SeriesCount> open{};
    };
    struct PartitionSeries {
        RingBuffer<float> raw;
        std::vector<RingBuffer<AggValue>> tiers;
        std::vector<Acc> open; // per tier
        qint64 lastSeenMs = 0;
    };

    static AggValue toAgg(const Acc &a);
    static void fillNan(RingBuffer<float> &ring, qsizetype n);
    static void fillNan(RingBuffer<AggValue> &ring, qsizetype n);
    PartitionSeries &createSeries(const PartitionKey &key);
    void closeBucket(int tier);
    void prune();
    bool layoutMatches(const MetricsSnapshot &snapshot) const;
    void rebuildLayout(const MetricsSnapshot &snapshot);

    Config m_config;
    RingBuffer<RawSample> m_raw;
    std::vector<TierState> m_tiers;
    QHash<PartitionKey, PartitionSeries> m_partitions;
    LagStatusTracker m_lag;
    MetricsSnapshot m_latest;
    QList<double> m_rateAt;                           // records/s of m_latest.partitions[i], -1 unknown
    QHash<PartitionKey, RateWindow<1>> m_rateWindows; // per partition, the same window as the job's rates
    // The last snapshot's partitions in its order, with their rate window and series: while a
    // job's partitions stay the same (every sample but a few), a snapshot walks this instead of
    // looking each partition up in the hashes (50,000 partitions: most of a snapshot's cost).
    // Cleared whenever m_partitions or m_rateWindows gain or lose an entry: their nodes move.
    struct LayoutEntry {
        PartitionKey key;
        RateWindow<1> *window = nullptr;
        PartitionSeries *series = nullptr; // null past Config::maxPartitions
    };
    std::vector<LayoutEntry> m_layout;
    qint64 m_lastTimeMs = std::numeric_limits<qint64>::min();
    qint64 m_sampleCount = 0;
};

} // namespace md
