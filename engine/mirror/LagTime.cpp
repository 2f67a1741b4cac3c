#include "engine/mirror/LagTime.h"

#include <algorithm>
#include <cmath>

namespace md {

namespace {

// A backlog copied within this many seconds at the copy rate keeps up.
constexpr double kKeepingUpSeconds = 3.0;

} // namespace

qint64 lagTimeMs(qint64 lagRecords, qint64 nextTimestampMs, qint64 nowMs)
{
    if (lagRecords == 0)
        return 0;
    if (lagRecords < 0 || nextTimestampMs < 0)
        return -1;
    // A producer's clock ahead of ours (CreateTime) is not negative lag.
    return std::max<qint64>(0, nowMs - nextTimestampMs);
}

void DrainRate::add(qint64 elapsedMs, qint64 lag, qint64 copied)
{
    if (lag < 0)
        return;
    if (m_lastMs >= 0 && elapsedMs > m_lastMs) {
        const double dt = double(elapsedMs - m_lastMs);
        const double net = double(m_lastLag - lag) * 1000.0 / dt;
        const double copy = double(std::max<qint64>(0, copied - m_lastCopied)) * 1000.0 / dt;
        // Exponential smoothing over time: the weight of a new interval grows with its length.
        const double alpha = m_primed ? 1.0 - std::exp(-dt / m_tau) : 1.0;
        m_net += alpha * (net - m_net);
        m_copy += alpha * (copy - m_copy);
        m_primed = true;
    } else if (m_lastMs >= 0) {
        return; // same instant: nothing to learn
    }
    m_lastMs = elapsedMs;
    m_lastLag = lag;
    m_lastCopied = copied;
}

double partitionCatchUpSeconds(const PartitionBacklog &b)
{
    if (b.lag == 0)
        return 0;
    if (b.lag < 0 || !b.primed)
        return -1;
    if (b.copyPerSec > 0 && double(b.lag) <= b.copyPerSec * kKeepingUpSeconds)
        return double(b.lag) / b.copyPerSec;
    if (b.netPerSec <= 0)
        return kCatchUpNever;
    return double(b.lag) / b.netPerSec;
}

double catchUpSeconds(const QList<PartitionBacklog> &partitions)
{
    QList<double> seconds;
    seconds.reserve(partitions.size());
    for (const PartitionBacklog &b : partitions)
        seconds.append(partitionCatchUpSeconds(b));
    return slowestCatchUp(seconds);
}

double slowestCatchUp(const QList<double> &partitionSeconds)
{
    double worst = -1;
    bool unknown = false;
    for (const double s : partitionSeconds) {
        if (s < 0)
            unknown = true;
        else
            worst = std::max(worst, s);
    }
    // A partition still unknown may be the slowest: only "never" is sure then.
    if (unknown && worst != kCatchUpNever)
        return -1;
    return worst;
}

qint64 retentionMarginMs(qint64 retentionMs)
{
    if (retentionMs <= 0)
        return 0;
    return std::min(retentionMs, std::max<qint64>(retentionMs / 10, 60000));
}

bool retentionAtRisk(qint64 lagRecords, qint64 nextTimestampMs, qint64 retentionMs, qint64 nowMs)
{
    if (lagRecords <= 0 || nextTimestampMs < 0 || retentionMs < 0)
        return false;
    return nowMs - nextTimestampMs >= retentionMs - retentionMarginMs(retentionMs);
}

} // namespace md
