#pragma once

// Lag in time and time to catch up: the pure rules, shared by the mirror
// engine (per job) and the group sampler (per consumer group).

#include <QList>
#include <QString>
#include <QtGlobal>

#include <limits>

namespace md {

// "Never": the backlog grows (or does not shrink) while there is one.
inline constexpr double kCatchUpNever = std::numeric_limits<double>::infinity();

// Lag in seconds of one partition as klag-exporter measures it: now minus the
// timestamp of the next record to copy or read; 0 when caught up (lag 0);
// -1 when that timestamp is not known (yet).
qint64 lagTimeMs(qint64 lagRecords, qint64 nextTimestampMs, qint64 nowMs);

// A partition's net drain rate (records per second the backlog shrinks by,
// negative when it grows) and its copy rate, smoothed exponentially over a
// time constant so a rotating watermark read or one slow batch does not make
// the estimate jump. Fed with the partition's lag and copied total at each
// sample; elapsed time comes from the caller (no clock here, so it is testable).
class DrainRate {
public:
    explicit DrainRate(double timeConstantMs = 10000) : m_tau(timeConstantMs) {}

    void add(qint64 elapsedMs, qint64 lag, qint64 copied);
    bool primed() const { return m_primed; }
    double netPerSec() const { return m_net; }   // backlog shrink rate
    double copyPerSec() const { return m_copy; } // what the job copies of it
    void reset() { *this = DrainRate(m_tau); }

private:
    double m_tau;
    bool m_primed = false; // one interval seen
    qint64 m_lastMs = -1, m_lastLag = -1, m_lastCopied = -1;
    double m_net = 0, m_copy = 0;
};

struct PartitionBacklog {
    qint64 lag = -1; // records; -1 unknown
    bool primed = false;
    double netPerSec = 0;
    double copyPerSec = 0;
};

// Seconds until one partition's backlog is gone: 0 caught up, -1 unknown (no
// rate yet), kCatchUpNever when it does not shrink. A backlog the job copies
// within a few seconds at its copy rate keeps up (records arrive while others
// are copied), even when the net rate is about 0.
double partitionCatchUpSeconds(const PartitionBacklog &b);

// The job's or group's: the slowest partition decides, not the sum (a skewed
// partition keeps the job behind while the others are done). -1 when no
// partition is known.
double catchUpSeconds(const QList<PartitionBacklog> &partitions);
// The same rule over partitions' own answers (partitionCatchUpSeconds).
double slowestCatchUp(const QList<double> &partitionSeconds);

// Retention: how close to deletion a record may get before it is a risk.
// 10% of retention.ms, at least a minute (never more than the retention).
qint64 retentionMarginMs(qint64 retentionMs);

// True when the next record to copy, timestamped nextTimestampMs, is about to
// be (or may already be) removed by the source's retention: older than
// retention.ms minus the margin. retention.ms < 0 (forever) or an unknown
// timestamp is never at risk, and neither is a partition without lag.
bool retentionAtRisk(qint64 lagRecords, qint64 nextTimestampMs, qint64 retentionMs, qint64 nowMs);

} // namespace md
