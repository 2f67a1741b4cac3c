#include "model/monitor/LagStatus.h"

#include "engine/mirror/MetricsSnapshot.h"

#include <algorithm>

namespace md {

QString partitionLagStatusName(PartitionLagStatus s)
{
    switch (s) {
    case PartitionLagStatus::Ok: return QStringLiteral("OK");
    case PartitionLagStatus::Warn: return QStringLiteral("WARN");
    case PartitionLagStatus::Stall: return QStringLiteral("STALL");
    case PartitionLagStatus::Stop: return QStringLiteral("STOP");
    case PartitionLagStatus::Rewind: return QStringLiteral("REWIND");
    }
    return {};
}

QString jobLagStatusName(JobLagStatus s)
{
    switch (s) {
    case JobLagStatus::Ok: return QStringLiteral("OK");
    case JobLagStatus::Warn: return QStringLiteral("WARN");
    case JobLagStatus::Err: return QStringLiteral("ERR");
    }
    return {};
}

JobLagStatus rollUp(PartitionLagStatus s)
{
    switch (s) {
    case PartitionLagStatus::Ok: return JobLagStatus::Ok;
    case PartitionLagStatus::Warn: return JobLagStatus::Warn;
    case PartitionLagStatus::Stall:
    case PartitionLagStatus::Stop:
    case PartitionLagStatus::Rewind: return JobLagStatus::Err;
    }
    return JobLagStatus::Ok;
}

namespace {

bool offsetsStopped(const QList<LagObservation> &w, qint64 nowMs)
{
    const qint64 first = w.first().timestampMs;
    const qint64 last = w.last().timestampMs;
    return nowMs - last > last - first;
}

// The consumer was caught up at some recent end offset: give it a moment before calling it
// stopped (Burrow's answer to slow topics whose first new record would otherwise alert).
bool recentLagZero(const QList<LagObservation> &w, const QList<qint64> &recentEndOffsets)
{
    const qint64 lastOffset = w.last().offset;
    return std::any_of(recentEndOffsets.cbegin(), recentEndOffsets.cend(),
                       [lastOffset](qint64 end) { return end >= 0 && end <= lastOffset; });
}

bool lagAlwaysNonZero(const QList<LagObservation> &w)
{
    return std::none_of(w.cbegin(), w.cend(), [](const LagObservation &o) { return o.lag && *o.lag == 0; });
}

bool offsetsRewind(const QList<LagObservation> &w)
{
    for (qsizetype i = 1; i < w.size(); ++i) {
        if (w[i].offset < w[i - 1].offset)
            return true;
    }
    return false;
}

bool offsetsStalled(const QList<LagObservation> &w)
{
    for (qsizetype i = 1; i < w.size(); ++i) {
        if (w[i].offset != w[i - 1].offset)
            return false;
    }
    return true;
}

bool lagNotDecreasing(const QList<LagObservation> &w)
{
    std::optional<qint64> previous;
    for (const LagObservation &o : w) {
        if (!o.lag)
            continue;
        if (previous && *o.lag < *previous)
            return false;
        previous = o.lag;
    }
    return true;
}

} // namespace

PartitionLagStatus evaluateLagWindow(const QList<LagObservation> &window, const QList<qint64> &recentEndOffsets,
                                     qint64 currentLag, qint64 nowMs)
{
    if (window.isEmpty() || currentLag <= 0)
        return PartitionLagStatus::Ok;
    // Stopped comes first: a zero lag long ago in the window does not excuse a silent consumer.
    if (offsetsStopped(window, nowMs) && !recentLagZero(window, recentEndOffsets))
        return PartitionLagStatus::Stop;
    if (!lagAlwaysNonZero(window))
        return PartitionLagStatus::Ok;
    if (offsetsRewind(window))
        return PartitionLagStatus::Rewind;
    if (offsetsStalled(window))
        return PartitionLagStatus::Stall;
    if (lagNotDecreasing(window))
        return PartitionLagStatus::Warn;
    return PartitionLagStatus::Ok;
}

LagStatusTracker::LagStatusTracker() : LagStatusTracker(Config{})
{
}

LagStatusTracker::LagStatusTracker(const Config &config) : m_config(config)
{
    m_config.windowSize = std::max(2, m_config.windowSize);
    m_config.minIntervalMs = std::max<qint64>(0, m_config.minIntervalMs);
    m_config.minSpanMs = std::max<qint64>(0, m_config.minSpanMs);
}

void LagStatusTracker::addSnapshot(const MetricsSnapshot &snapshot)
{
    const qint64 t = snapshot.time.isValid() ? snapshot.time.toMSecsSinceEpoch() : snapshot.elapsedMs;
    if (snapshot.state == JobState::Paused) {
        // A job the user paused is not lagging by choice of its consumer: its positions stand
        // still on purpose, which the rules would call STALL (then STOP). It has no verdict
        // while paused, and a resumed job starts a fresh window instead of being judged
        // against positions from before the pause.
        m_windows.clear();
        m_latestMs = std::max(m_latestMs, t);
        return;
    }
    for (const PartitionMetrics &p : snapshot.partitions) {
        const qint64 position = p.nextOffset >= 0 ? p.nextOffset : p.committedOffset;
        if (position < 0)
            continue;
        observe(PartitionKey{p.topic, p.partition}, position, p.lag, p.endOffset, t);
    }
}

void LagStatusTracker::observe(const PartitionKey &key, qint64 offset, qint64 lag, qint64 endOffset, qint64 timestampMs)
{
    m_latestMs = std::max(m_latestMs, timestampMs);
    PartitionWindow &w = m_windows[key];
    LagObservation o;
    o.offset = offset;
    if (lag >= 0)
        o.lag = lag;
    o.timestampMs = timestampMs;
    w.currentLag = lag;

    auto &obs = w.observations;
    bool replaceProvisional = false;
    if (obs.size() >= 2) {
        const LagObservation &provisional = obs.last();
        const LagObservation &previous = obs[obs.size() - 2];
        // The provisional entry becomes permanent once it is an interval past the one before.
        const bool tooSoon = provisional.timestampMs - previous.timestampMs < m_config.minIntervalMs;
        const bool losesZeroLag = provisional.lag && *provisional.lag == 0 && !(o.lag && *o.lag == 0);
        const bool losesRewind = offset < provisional.offset || provisional.offset < previous.offset;
        replaceProvisional = tooSoon && !losesZeroLag && !losesRewind;
    }
    if (replaceProvisional) {
        obs.last() = o;
    } else {
        obs.append(o);
        while (obs.size() > m_config.windowSize)
            obs.removeFirst();
    }

    if (endOffset >= 0) {
        auto &ends = w.recentEndOffsets;
        // End offsets grow, so within one interval the first is the one that matters to
        // "was the consumer caught up recently": keep it and skip the rest.
        if (ends.isEmpty() || w.lastEndOffsetMs < 0 || timestampMs - w.lastEndOffsetMs >= m_config.minIntervalMs) {
            ends.append(endOffset);
            w.lastEndOffsetMs = timestampMs;
            while (ends.size() > m_config.windowSize)
                ends.removeFirst();
        }
    }
}

void LagStatusTracker::removePartition(const PartitionKey &key)
{
    m_windows.remove(key);
}

void LagStatusTracker::clear()
{
    m_windows.clear();
    m_latestMs = 0;
}

PartitionLagStatus LagStatusTracker::evaluateOne(const PartitionWindow &w, qint64 nowMs) const
{
    const auto &obs = w.observations;
    if (obs.isEmpty())
        return PartitionLagStatus::Ok;
    const qint64 span = obs.last().timestampMs - obs.first().timestampMs;
    if (span < m_config.minSpanMs) {
        // Too young to judge progress; silence is still silence.
        if (w.currentLag > 0 && nowMs - obs.last().timestampMs > m_config.minSpanMs &&
            !recentLagZero(obs, w.recentEndOffsets))
            return PartitionLagStatus::Stop;
        return PartitionLagStatus::Ok;
    }
    return evaluateLagWindow(obs, w.recentEndOffsets, w.currentLag, nowMs);
}

PartitionLagStatus LagStatusTracker::partitionStatus(const PartitionKey &key, qint64 nowMs) const
{
    const auto it = m_windows.constFind(key);
    return it == m_windows.cend() ? PartitionLagStatus::Ok : evaluateOne(*it, nowMs);
}

QHash<PartitionKey, PartitionLagStatus> LagStatusTracker::evaluate(qint64 nowMs) const
{
    QHash<PartitionKey, PartitionLagStatus> result;
    result.reserve(m_windows.size());
    for (auto it = m_windows.cbegin(); it != m_windows.cend(); ++it)
        result.insert(it.key(), evaluateOne(it.value(), nowMs));
    return result;
}

PartitionLagStatus LagStatusTracker::worstPartitionStatus(qint64 nowMs) const
{
    PartitionLagStatus worst = PartitionLagStatus::Ok;
    for (auto it = m_windows.cbegin(); it != m_windows.cend(); ++it)
        worst = std::max(worst, evaluateOne(it.value(), nowMs));
    return worst;
}

JobLagStatus LagStatusTracker::jobStatus(qint64 nowMs) const
{
    return rollUp(worstPartitionStatus(nowMs));
}

QList<LagObservation> LagStatusTracker::window(const PartitionKey &key) const
{
    return m_windows.value(key).observations;
}

} // namespace md
