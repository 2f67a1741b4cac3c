#include "MirrorWorker.h"

#include <QDateTime>

#include <algorithm>

namespace md {

// ---------------------------------------------------------------- progress: stop condition and metrics

bool MirrorWorker::caughtUp() const
{
    // Caught up: every selected source partition is assigned to this job,
    // its fetch position reached the end offset (EOF) and the target has
    // acknowledged everything handed to it. Nothing assigned: not caught up.
    if (!m_sourceKnown || m_rebalancePending || !m_pending.empty() || m_selected.isEmpty())
        return false;
    int assigned = 0;
    for (const QString &name : m_selected) {
        auto it = m_topics.find(name);
        if (it == m_topics.end() || !m_subscribed.contains(name))
            return false;
        const TopicState &t = *it->second;
        int n = 0;
        for (const auto &p : t.parts) {
            if (!p || !p->assigned)
                continue;
            ++n;
            if (!(p->atEof || p->done) || !p->ring.isEmpty() || p->failedOffset >= 0 || p->blocked || p->resumeFrom >= 0)
                return false;
        }
        if (n < t.sourcePartitions)
            return false;
        assigned += n;
    }
    return assigned > 0;
}

void MirrorWorker::checkStopCondition()
{
    if (m_spec.stop == StopCondition::RunForever || m_stopping)
        return;
    if (m_spec.stop == StopCondition::CaughtUp) {
        if (caughtUp()) {
            event(JobEvent::Severity::Info, QStringLiteral("caught up: stopping"));
            m_stopping = true;
        }
        return;
    }
    const qint64 now = nowMs();
    if (m_spec.stop == StopCondition::AtTimestamp && now >= m_spec.stopTimestamp.toMSecsSinceEpoch()) {
        // Past the stop time, a partition at its end gets no older records.
        for (auto &[name, t] : m_topics)
            for (auto &p : t->parts)
                if (p && p->assigned && p->atEof && !p->done)
                    p->done = true;
    }
    // Done partitions count as at EOF for caughtUp().
    bool allDone = true;
    for (auto &[name, t] : m_topics)
        for (auto &p : t->parts)
            if (p && p->assigned && !p->done)
                allDone = false;
    if (allDone && caughtUp()) {
        event(JobEvent::Severity::Info, QStringLiteral("stop condition reached: stopping"));
        m_stopping = true;
    }
}

void MirrorWorker::sampleMetrics()
{
    const auto now = Clock::now();
    const double dt = std::max(1e-3, std::chrono::duration<double>(now - m_lastSample).count());
    m_lastSample = now;
    MetricsSnapshot s;
    s.jobName = m_spec.name;
    s.time = QDateTime::currentDateTimeUtc();
    s.elapsedMs = std::chrono::duration_cast<std::chrono::milliseconds>(now - m_started).count();
    s.state = m_state;
    s.recordsConsumed = m_recordsConsumed;
    s.recordsProduced = m_recordsProduced;
    s.bytesConsumed = m_bytesConsumed;
    s.bytesProduced = m_bytesProduced;
    s.consumeRecordsPerSec = double(m_recordsConsumed - m_prevConsumed) / dt;
    s.produceRecordsPerSec = double(m_recordsProduced - m_prevProduced) / dt;
    s.consumeBytesPerSec = double(m_bytesConsumed - m_prevBytesConsumed) / dt;
    s.produceBytesPerSec = double(m_bytesProduced - m_prevBytesProduced) / dt;
    m_prevConsumed = m_recordsConsumed;
    m_prevProduced = m_recordsProduced;
    m_prevBytesConsumed = m_bytesConsumed;
    m_prevBytesProduced = m_bytesProduced;
    s.inFlight = m_inFlight;
    s.latency = m_latency.stats();
    m_latency.reset();
    s.throttleBytesPerSecond = m_throttleRate;
    qint64 lagTime = -1;
    for (auto &[name, t] : m_topics) {
        for (auto &p : t->parts) {
            if (!p || !p->assigned)
                continue;
            int64_t lo = -1, hi = -1;
            // Cached from fetch responses: no broker round trip per tick.
            if (m_consumer
                && rd_kafka_get_watermark_offsets(m_consumer.get(), t->nameUtf8.constData(), p->partition, &lo, &hi)
                       == RD_KAFKA_RESP_ERR_NO_ERROR) {
                if (lo >= 0)
                    p->lo = lo;
                if (hi >= 0)
                    p->hi = hi;
            }
            PartitionMetrics pm;
            pm.topic = t->name;
            pm.targetTopic = t->targetName;
            pm.partition = p->partition;
            pm.logStartOffset = p->lo;
            pm.committedOffset = p->committed;
            const qint64 next = p->committable() >= 0 ? p->committable() : p->committed;
            pm.nextOffset = next;
            // The EOF position can be ahead of a cached high watermark.
            pm.endOffset = p->hi >= 0 ? std::max(p->hi, p->atEof ? p->consumedNext : -1) : (p->atEof ? p->consumedNext : -1);
            pm.lag = pm.endOffset >= 0 && next >= 0 ? std::max<qint64>(0, pm.endOffset - next) : -1;
            pm.records = p->records;
            pm.bytes = p->bytes;
            pm.lastSourceTimestampMs = p->lastAckedTs;
            pm.paused = p->pausedActual || m_throttled || m_backpressure;
            pm.caughtUp = p->atEof && p->ring.isEmpty();
            if (pm.lag > 0)
                s.totalLag += pm.lag;
            if (!p->ring.isEmpty() && p->lastConsumedTs >= 0 && p->lastAckedTs >= 0)
                lagTime = std::max(lagTime, p->lastConsumedTs - p->lastAckedTs);
            else if (pm.caughtUp)
                lagTime = std::max<qint64>(lagTime, 0);
            s.partitions.append(pm);
        }
    }
    s.lagTimeMs = lagTime;
    s.caughtUp = caughtUp();
    m_sink->onMetrics(s);
}

} // namespace md
