#pragma once

#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace md {

struct MetricsSnapshot;

// One source partition, as a hash key.
struct PartitionKey {
    QString topic;
    int partition = -1;

    friend bool operator==(const PartitionKey &a, const PartitionKey &b)
    {
        return a.partition == b.partition && a.topic == b.topic;
    }
    friend bool operator<(const PartitionKey &a, const PartitionKey &b)
    {
        const int c = a.topic.compare(b.topic);
        return c != 0 ? c < 0 : a.partition < b.partition;
    }
};

inline size_t qHash(const PartitionKey &k, size_t seed = 0) noexcept
{
    return ::qHash(k.topic, seed) ^ ::qHash(k.partition, seed ^ 0x9e3779b9U);
}

// Partition status by Burrow's consumer lag evaluation rules. Ordered by severity so
// that the worst partition is simply the maximum.
enum class PartitionLagStatus { Ok = 0, Warn = 1, Stall = 2, Stop = 3, Rewind = 4 };

// What the job list shows: the worst partition rolled up (STALL, STOP, REWIND are ERR).
enum class JobLagStatus { Ok = 0, Warn = 1, Err = 2 };

QString partitionLagStatusName(PartitionLagStatus s); // "OK", "WARN", "STALL", "STOP", "REWIND"
QString jobLagStatusName(JobLagStatus s);             // "OK", "WARN", "ERR"
JobLagStatus rollUp(PartitionLagStatus s);

// One point of a partition's sliding window: the consumer's position, the lag at that moment
// (unknown lag is skipped by the rules, as Burrow skips a nil lag) and when it was observed.
struct LagObservation {
    qint64 offset = -1;
    std::optional<qint64> lag;
    qint64 timestampMs = 0;
};

// Burrow's rules, applied to one partition's window (oldest first). Pure, so the published
// cases can be replayed exactly.
//  - currentLag 0: OK, whatever the history.
//  - STOP: the last observation is older than the window is long (now - last > last - first),
//    unless a recent end offset shows the consumer was caught up (recentEndOffsets, newest last).
//  - otherwise, lag zero anywhere in the window: OK.
//  - REWIND: the offset went backwards between two observations.
//  - STALL: the offset never changed across the window (while there is lag).
//  - WARN: the lag never decreased between two observations (offsets moving, still falling behind).
//  - else OK (the lag went down at least once: catching up).
PartitionLagStatus evaluateLagWindow(const QList<LagObservation> &window, const QList<qint64> &recentEndOffsets,
                                     qint64 currentLag, qint64 nowMs);

// Keeps one bounded sliding window per partition and evaluates it. Fed by MetricsSnapshots
// (every 250 ms by default) or by any poller of a consumer group's committed offsets.
//
// Burrow's window is one entry per offset commit (commit every 60 s, 10 entries: 10 minutes).
// Snapshots arrive far more often, so the entries are kept at least minIntervalMs apart; the
// newest entry is provisional and replaced by each newer sample until it is minIntervalMs past
// the one before, so the window always ends at the latest observation. A rewind, or the end of
// a zero-lag stretch, is always kept: dropping it would change the verdict.
// A snapshot in which the partition appears counts as a "commit" of its position: while the
// engine runs, a position that does not move is a STALL; a partition that stops appearing
// (job dead, partition revoked) becomes STOP once its silence is longer than its window.
// A window shorter than minSpanMs is too young to judge: only STOP (silence > minSpanMs)
// is reported then, so a freshly started job is not flagged after two samples.
class LagStatusTracker final {
public:
    struct Config {
        int windowSize = 10;         // observations per partition (Burrow's default "intervals")
        qint64 minIntervalMs = 5000; // 10 x 5 s: a 50 s window at the default sampling rate
        qint64 minSpanMs = 10000;    // younger windows: too early to judge (see above)
    };

    LagStatusTracker();
    explicit LagStatusTracker(const Config &config);

    const Config &config() const { return m_config; }

    // Position = the next offset to mirror when known, else the committed offset. A partition
    // with neither is not observed. Lag is the snapshot's (endOffset - nextOffset).
    void addSnapshot(const MetricsSnapshot &snapshot);

    // The general entry point (consumer group monitors call this). lag < 0 means unknown;
    // endOffset < 0 means unknown.
    void observe(const PartitionKey &key, qint64 offset, qint64 lag, qint64 endOffset, qint64 timestampMs);

    void removePartition(const PartitionKey &key);
    void clear();

    PartitionLagStatus partitionStatus(const PartitionKey &key, qint64 nowMs) const;
    QHash<PartitionKey, PartitionLagStatus> evaluate(qint64 nowMs) const;
    // Worst partition; OK with no partitions.
    JobLagStatus jobStatus(qint64 nowMs) const;
    PartitionLagStatus worstPartitionStatus(qint64 nowMs) const;

    QList<PartitionKey> partitions() const { return m_windows.keys(); }
    QList<LagObservation> window(const PartitionKey &key) const;
    qint64 latestObservationMs() const { return m_latestMs; }

private:
    struct PartitionWindow {
        QList<LagObservation> observations; // oldest first, at most windowSize
        QList<qint64> recentEndOffsets;     // newest last, at most windowSize
        qint64 lastEndOffsetMs = -1;
        qint64 currentLag = -1;
    };

    PartitionLagStatus evaluateOne(const PartitionWindow &w, qint64 nowMs) const;

    Config m_config;
    QHash<PartitionKey, PartitionWindow> m_windows;
    qint64 m_latestMs = 0;
};

} // namespace md
