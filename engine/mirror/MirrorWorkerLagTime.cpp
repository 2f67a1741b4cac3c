#include "engine/mirror/MirrorWorker.h"

#include "engine/mirror/RetentionCheck.h"

#include <algorithm>

namespace md {

// ---------------------------------------------------------------- lag in time, time to catch up, retention risk

namespace {

// A read not answered within this is asked again (the reader was busy, the broker away).
constexpr auto kAskAgainAfter = std::chrono::seconds(10);
// A partition at risk is named again this often while it stays at risk.
constexpr auto kRiskRepeat = std::chrono::minutes(5);
// Timestamps kept per partition (the reader answers up to 2,000 after an asked record).
constexpr qsizetype kKnownBound = 4096;

} // namespace

void MirrorWorker::takeLagTimeAnswers()
{
    if (!m_lagTime)
        return;
    m_topicTimes = m_lagTime->topicConfigs();
    const QHash<RecordAt, RecordTime> answers = m_lagTime->takeAnswers();
    for (auto it = answers.cbegin(); it != answers.cend(); ++it) {
        // Looked up, never made (topicByName and partFor make what is missing).
        const auto topic = m_topics.find(it.key().topic);
        if (topic == m_topics.end() || it.key().partition < 0 ||
            size_t(it.key().partition) >= topic->second->parts.size())
            continue;
        PartState *p = topic->second->parts[size_t(it.key().partition)].get();
        if (!p || it.value().atEnd || it.value().timestampMs < 0)
            continue;
        p->knownTs.insert(it.key().offset, it.value().timestampMs);
        if (p->knownTs.size() > kKnownBound)
            p->knownTs.erase(p->knownTs.begin()); // the oldest: the position is past it
    }
}

void MirrorWorker::measureLagTime(TopicState *t, PartState *p, PartitionMetrics &pm, qint64 nowMs,
                                  QList<RecordAt> &asks)
{
    const auto config = m_topicTimes.constFind(t->name);
    if (config != m_topicTimes.constEnd()) {
        pm.timestampType = config->timestampType;
        pm.retentionMs = config->deletes ? config->retentionMs : -1;
    }
    qint64 next = pm.nextOffset;
    qint64 lag = pm.lag;
    // No position yet (nothing committed, nothing consumed: a throttled job that has not
    // reached the partition): it starts at the log start, whose record's age and
    // retention matter most.
    if (next < 0 && p->committed < 0 && pm.logStartOffset >= 0 && pm.endOffset >= 0 &&
        (m_spec.start == StartPosition::Earliest || m_spec.start == StartPosition::Committed)) {
        next = pm.logStartOffset;
        lag = std::max<qint64>(0, pm.endOffset - next);
    }
    p->drain.add(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - m_started).count(), lag,
                 p->records);
    if (lag > 0 && next >= 0) {
        if (!p->ring.isEmpty()) {
            // The record at the next offset is in flight: its timestamp came with it.
            pm.nextTimestampMs = p->ring.frontTimestamp();
        } else {
            // Nothing in flight (paused, throttled, not fetched yet): the record at the
            // next offset read once (one fetch, which brings the following ones too).
            // Until it answers, the newest record read before it (older, so the lag
            // shown is an upper bound) stands in.
            // What is behind the position is not needed again (the newest kept to stand in).
            while (p->knownTs.size() > 1 && std::next(p->knownTs.begin()).key() < next)
                p->knownTs.erase(p->knownTs.begin());
            const auto known = p->knownTs.lowerBound(next);
            if (known != p->knownTs.end() && known.key() == next) {
                pm.nextTimestampMs = known.value();
            } else {
                if (known != p->knownTs.begin())
                    pm.nextTimestampMs = std::prev(known).value();
                const auto now = Clock::now();
                if (p->tsAskedFor != next || now - p->tsAskedAt > kAskAgainAfter) {
                    asks.append(RecordAt{t->name, p->partition, next});
                    p->tsAskedFor = next;
                    p->tsAskedAt = now;
                }
            }
        }
    }
    pm.lagMs = lagTimeMs(lag, pm.nextTimestampMs, nowMs);
    pm.catchUpSeconds = partitionCatchUpSeconds({lag, p->drain.primed(), p->drain.netPerSec(), p->drain.copyPerSec()});
    pm.retentionAtRisk = retentionAtRisk(lag, pm.nextTimestampMs, pm.retentionMs, nowMs);
    warnRetention(pm, p, next, nowMs);
}

void MirrorWorker::warnRetention(const PartitionMetrics &pm, PartState *p, qint64 next, qint64 nowMs)
{
    // Debounced per partition: a partition that leaves and re-enters the risk (a stand-in
    // answer, a watermark read late) is not named again within kRiskRepeat.
    if (!pm.retentionAtRisk)
        return;
    const auto now = Clock::now();
    if (p->riskWarned && now - p->riskWarnedAt < kRiskRepeat)
        return;
    p->riskWarned = true;
    p->riskWarnedAt = now;
    const QString type = pm.timestampType.isEmpty() ? QStringLiteral("timestamp") : pm.timestampType;
    event(JobEvent::Severity::Warning,
          QStringLiteral("%1/%2: the next record to copy (offset %3, %4 %5 old) is about to be removed by the "
                         "source's retention (retention.ms %6, %7): the job must catch up or it loses records")
              .arg(pm.topic)
              .arg(pm.partition)
              .arg(next)
              .arg(type, durationText(nowMs - pm.nextTimestampMs))
              .arg(pm.retentionMs)
              .arg(durationText(pm.retentionMs)));
}

void MirrorWorker::finishLagTime(MetricsSnapshot &s, const QList<RecordAt> &asks)
{
    QList<double> catchUp;
    catchUp.reserve(s.partitions.size());
    for (const PartitionMetrics &pm : std::as_const(s.partitions)) {
        if (pm.lagMs >= 0)
            s.maxLagMs = std::max(s.maxLagMs, pm.lagMs);
        if (pm.retentionAtRisk)
            ++s.retentionAtRisk;
        catchUp.append(pm.catchUpSeconds);
    }
    s.catchUpSeconds = slowestCatchUp(catchUp);
    if (m_lagTime) {
        m_lagTime->setTopics(m_subscribed);
        if (!asks.isEmpty())
            m_lagTime->ask(asks);
    }
}

} // namespace md
