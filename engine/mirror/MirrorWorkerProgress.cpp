#include "engine/mirror/MirrorWorker.h"

#include "engine/admin/AdminCall.h"
#include "engine/mirror/WatermarkRotation.h"

#include <QDateTime>

#include <algorithm>

namespace md {

// ---------------------------------------------------------------- progress: stop condition and metrics

bool MirrorWorker::caughtUp(bool exceptParked) const
{
    // This instance is caught up: every selected source partition it owns
    // reached its end offset (EOF) and the target acknowledged everything
    // handed to it. Partitions owned by other instances of the job are
    // groupCaughtUp's business. Before the group assigned anything (even
    // nothing): not caught up.
    if (!m_sourceKnown || m_rebalancePending || !m_pending.empty() || m_selected.isEmpty() || !m_joined)
        return false;
    for (const QString &name : m_selected) {
        auto it = m_topics.find(name);
        if (it == m_topics.end() || !m_subscribedSet.contains(name))
            return false;
        for (const auto &p : it->second->parts) {
            if (!p || !p->assigned || (exceptParked && p->parked))
                continue;
            if (!(p->atEof || p->done) || !p->ring.isEmpty() || p->failedOffset >= 0 || p->blocked ||
                p->resumeFrom >= 0)
                return false;
        }
    }
    return true;
}

bool MirrorWorker::groupCaughtUp()
{
    // The job is caught up when no partition of it has lag, whoever owns it:
    // the group's committed progress against the end offsets. Each instance
    // of a shared job asks the same question, so all of them exit.
    const auto now = Clock::now();
    if (now < m_nextGroupCheck)
        return false;
    m_nextGroupCheck = now + std::chrono::seconds(2);
    commit(true); // our own progress first, so the group's answer includes it
    PartitionListPtr all(rd_kafka_topic_partition_list_new(16));
    for (const QString &name : m_selected) {
        auto it = m_topics.find(name);
        if (it == m_topics.end())
            return false;
        for (int i = 0; i < it->second->sourcePartitions; ++i)
            rd_kafka_topic_partition_list_add(all.get(), it->second->nameUtf8.constData(), i)->offset =
                RD_KAFKA_OFFSET_SPEC_LATEST;
    }
    if (all->cnt == 0)
        return false;
    PartitionListPtr committed(rd_kafka_topic_partition_list_copy(all.get()));
    if (rd_kafka_committed(m_consumer.get(), committed.get(), 10000) != RD_KAFKA_RESP_ERR_NO_ERROR)
        return false;
    QString error;
    EventPtr ev = adminCall(
        m_consumer.get(), RD_KAFKA_ADMIN_OP_LISTOFFSETS, 10000,
        [&](rd_kafka_AdminOptions_t *options, rd_kafka_queue_t *queue) {
            ErrorPtr(rd_kafka_AdminOptions_set_isolation_level(options, RD_KAFKA_ISOLATION_LEVEL_READ_COMMITTED));
            rd_kafka_ListOffsets(m_consumer.get(), all.get(), options, queue);
        },
        &error);
    const rd_kafka_ListOffsets_result_t *result = ev ? rd_kafka_event_ListOffsets_result(ev.get()) : nullptr;
    if (!result) {
        debouncedEvent(
            QStringLiteral("group-check"), JobEvent::Severity::Warning,
            QStringLiteral("could not read the source's end offsets to tell whether the job is caught up: %1")
                .arg(error));
        return false;
    }
    size_t cnt = 0;
    const rd_kafka_ListOffsetsResultInfo_t **infos = rd_kafka_ListOffsets_result_infos(result, &cnt);
    int behind = 0;
    for (size_t i = 0; i < cnt; ++i) {
        const rd_kafka_topic_partition_t *end = rd_kafka_ListOffsetsResultInfo_topic_partition(infos[i]);
        if (end->err)
            return false;
        const rd_kafka_topic_partition_t *c =
            rd_kafka_topic_partition_list_find(committed.get(), end->topic, end->partition);
        const qint64 at = c && !c->err ? c->offset : -1;
        // Never written to and never committed: nothing to copy.
        if (end->offset == 0)
            continue;
        if (at < end->offset)
            ++behind;
    }
    if (behind > 0 || cnt != size_t(all->cnt)) {
        if (behind > 0)
            debouncedEvent(
                QStringLiteral("group-behind"), JobEvent::Severity::Info,
                QStringLiteral("caught up here; waiting for %1 partitions of the job that other instances own "
                               "(or that no instance owns yet)")
                    .arg(behind));
        return false;
    }
    return true;
}

void MirrorWorker::checkStopCondition()
{
    if (m_spec.stop == StopCondition::RunForever || m_stopping)
        return;
    if (m_spec.stop == StopCondition::CaughtUp) {
        // A partition the target refuses cannot catch up by itself: a job
        // meant to end must end, with an error that names it, once the
        // rest is copied, rather than wait for ever.
        QStringList parked;
        for (auto &[name, t] : m_topics)
            for (auto &p : t->parts)
                if (p && p->assigned && p->parked)
                    parked << QStringLiteral("%1/%2 at offset %3 (%4)")
                                  .arg(t->name)
                                  .arg(p->partition)
                                  .arg(p->failedOffset >= 0 ? p->failedOffset : p->consumedNext)
                                  .arg(p->lastFailure);
        if (!parked.isEmpty()) {
            if (caughtUp(true))
                fail(QStringLiteral("caught up except what the target refuses: %1")
                         .arg(parked.join(QStringLiteral(", "))));
            return;
        }
        if (caughtUp() && groupCaughtUp()) {
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
    bool allDone = true, any = false;
    for (auto &[name, t] : m_topics)
        for (auto &p : t->parts)
            if (p && p->assigned) {
                any = true;
                if (!p->done)
                    allDone = false;
            }
    if (any && allDone && caughtUp()) {
        event(JobEvent::Severity::Info, QStringLiteral("stop condition reached: stopping"));
        m_stopping = true;
    }
}

void MirrorWorker::sampleMetrics()
{
    const auto now = Clock::now();
    MetricsSnapshot s;
    s.jobName = m_spec.name;
    s.instanceId = m_spec.instanceId;
    s.memberId = m_memberId;
    s.time = QDateTime::currentDateTimeUtc();
    s.elapsedMs = std::chrono::duration_cast<std::chrono::milliseconds>(now - m_started).count();
    s.state = m_state;
    s.recordsConsumed = m_recordsConsumed;
    s.recordsProduced = m_recordsProduced;
    s.bytesConsumed = m_bytesConsumed;
    s.bytesProduced = m_bytesProduced;
    // Over the last few seconds (RateWindow), so every view shows the same steady rate.
    const auto rates =
        m_rates.add(s.elapsedMs, {m_recordsConsumed, m_recordsProduced, m_bytesConsumed, m_bytesProduced});
    s.consumeRecordsPerSec = rates[0];
    s.produceRecordsPerSec = rates[1];
    s.consumeBytesPerSec = rates[2];
    s.produceBytesPerSec = rates[3];
    s.inFlight = m_inFlight;
    s.latency = m_latency.stats();
    m_latency.reset();
    s.throttleBytesPerSecond = m_throttle.rate();
    qint64 lagTime = -1;
    // Watermarks are cached from fetch responses (no broker round trip); a
    // rotating share of them is read (WatermarkRotation.h: each partition at
    // least every m_watermarkEvery snapshots, 2 s at 2,000 and 4 a second),
    // and a partition whose end is not known yet always.
    const qint64 snapshot = m_snapshots++;
    qint64 assigned = 0;
    const qint64 wallMs = s.time.toMSecsSinceEpoch();
    QList<RecordAt> asks;
    takeLagTimeAnswers();
    for (auto &[name, t] : m_topics) {
        for (auto &p : t->parts) {
            if (!p || !p->assigned)
                continue;
            int64_t lo = -1, hi = -1;
            const bool due = watermarkDue(assigned++, snapshot, m_watermarkEvery);
            const bool read = due || p->hi < 0;
            if (read && m_consumer &&
                rd_kafka_get_watermark_offsets(m_consumer.get(), t->nameUtf8.constData(), p->partition, &lo, &hi) ==
                    RD_KAFKA_RESP_ERR_NO_ERROR) {
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
            pm.endOffset =
                p->hi >= 0 ? std::max(p->hi, p->atEof ? p->consumedNext : -1) : (p->atEof ? p->consumedNext : -1);
            pm.lag = pm.endOffset >= 0 && next >= 0 ? std::max<qint64>(0, pm.endOffset - next) : -1;
            pm.records = p->records;
            pm.bytes = p->bytes;
            pm.lastSourceTimestampMs = p->lastAckedTs;
            pm.vanishedRecords = p->vanished;
            s.vanishedRecords += p->vanished;
            pm.paused = p->pausedActual || m_throttle.waiting() || m_backpressure;
            pm.caughtUp = p->atEof && p->ring.isEmpty();
            if (pm.lag > 0)
                s.totalLag += pm.lag;
            if (!p->ring.isEmpty() && p->lastConsumedTs >= 0 && p->lastAckedTs >= 0)
                lagTime = std::max(lagTime, p->lastConsumedTs - p->lastAckedTs);
            else if (pm.caughtUp)
                lagTime = std::max<qint64>(lagTime, 0);
            measureLagTime(t.get(), p.get(), pm, wallMs, asks);
            s.partitions.append(pm);
        }
    }
    s.lagTimeMs = lagTime;
    finishLagTime(s, asks);
    m_watermarkEvery = watermarkRounds(assigned);
    s.caughtUp = caughtUp();
    m_sink->onMetrics(s);
}

} // namespace md
