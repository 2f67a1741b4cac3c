#include "engine/mirror/MirrorWorker.h"

#include "engine/core/ClusterConfig.h"
#include "engine/core/RebalanceProtocol.h"

#include <algorithm>
#include <cstring>

namespace md {

// ---------------------------------------------------------------- group

void MirrorWorker::onRebalance(rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t *parts)
{
    const bool cooperative = rebalanceIsCooperative(rd_kafka_rebalance_protocol(m_consumer.get()), m_cooperative);
    m_cooperative = cooperative;
    if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
        // An assignment that reaches a closing consumer (another instance
        // left at the same moment) is taken and handed straight back by the
        // close: reading its progress then would block the exit for up to
        // 3 x 10 s, since a closing group answers no offset fetch.
        if (!m_stopping)
            assignPartitions(parts);
        if (cooperative)
            ErrorPtr(rd_kafka_incremental_assign(m_consumer.get(), parts));
        else
            rd_kafka_assign(m_consumer.get(), parts);
        m_rebalancePending = false;
        m_joined = true;
        applyPauses();
    } else if (err == RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS) {
        revokePartitions(parts);
        if (cooperative)
            ErrorPtr(rd_kafka_incremental_unassign(m_consumer.get(), parts));
        else
            rd_kafka_assign(m_consumer.get(), nullptr);
        m_rebalancePending = !cooperative && !m_stopping;
    } else {
        event(JobEvent::Severity::Error,
              QStringLiteral("source group %1 rebalance failed: %2").arg(m_groupId, kafkaErrorText(err)));
        rd_kafka_assign(m_consumer.get(), nullptr);
    }
}

void MirrorWorker::assignPartitions(rd_kafka_topic_partition_list_t *parts)
{
    // Progress always wins: a partition with a committed offset in the job's
    // group resumes there, in every run, rebalance and instance. `start` only
    // places partitions without progress (docs/ARCHITECTURE.md).
    PartitionListPtr committed(rd_kafka_topic_partition_list_copy(parts));
    rd_kafka_resp_err_t cerr = RD_KAFKA_RESP_ERR__TIMED_OUT;
    for (int attempt = 0; attempt < 3 && cerr; ++attempt)
        cerr = rd_kafka_committed(m_consumer.get(), committed.get(), 10000);
    if (eos()) {
        mergeTargetProgress(committed.get(), &cerr); // exactly-once: progress lives on the target
        if (!m_fatal.isEmpty() || m_stopping || m_aborting)
            return; // as for an assignment that reaches a closing consumer (onRebalance)
    }
    if (cerr)
        event(JobEvent::Severity::Warning,
              QStringLiteral("could not read the progress of group %1 (%2): the consumer reads it itself; "
                             "partitions without progress start from their first record")
                  .arg(m_groupId, kafkaErrorText(cerr)));

    PartitionListPtr byTime(rd_kafka_topic_partition_list_new(parts->cnt));
    int resumed = 0;
    for (int i = 0; i < parts->cnt; ++i) {
        rd_kafka_topic_partition_t &e = parts->elems[i];
        TopicState *t = topicByName(QString::fromUtf8(e.topic));
        PartState *p = partFor(t, e.partition);
        p->assigned = true;
        p->pausedActual = false;
        p->ring.clear();
        p->atEof = false;
        p->failedOffset = -1;
        p->parked = false;
        p->schemaWaiting = false; // asked again with its first record (schema sync)
        p->schemaWaitId = -1;
        p->schemaFailureShown = false;
        p->failures = 0;
        p->parkRetries = 0;
        p->largestRefusedOffset = -1;
        p->largestRefusedBytes = 0;
        p->resumeFrom = -1;
        p->consumedNext = -1;
        p->map.reset();
        p->done = m_spec.stop == StopCondition::AfterRecords && m_spec.stopAfterRecords <= 0;
        p->blocked = !ensureTargetPartitions(t, e.partition);
        const rd_kafka_topic_partition_t *c =
            cerr ? nullptr : rd_kafka_topic_partition_list_find(committed.get(), e.topic, e.partition);
        const qint64 at = c && !c->err && c->offset >= 0 ? c->offset : -1;
        p->committed = t->recreated ? -1 : at;
        if (t->recreated) {
            e.offset = RD_KAFKA_OFFSET_BEGINNING; // progress of the deleted topic means nothing here
            p->map.resetFirst();                  // and neither do its map records
        } else if (at >= 0) {
            // What follows is checked against this (noteJump): a log start
            // past it means records vanished before they were copied.
            e.offset = at;
            p->consumedNext = at;
            ++resumed;
        } else if (cerr || (c && c->err)) {
            // Unknown: librdkafka reads the committed offset itself when it
            // starts fetching, else auto.offset.reset (earliest): never a skip.
            e.offset = RD_KAFKA_OFFSET_INVALID;
        } else {
            startWithoutProgress(e, byTime.get());
        }
    }
    resizeInFlightWindow();
    if (byTime->cnt > 0) {
        const rd_kafka_resp_err_t err = rd_kafka_offsets_for_times(m_consumer.get(), byTime.get(), 10000);
        for (int i = 0; i < byTime->cnt; ++i) {
            const rd_kafka_topic_partition_t &r = byTime->elems[i];
            rd_kafka_topic_partition_t *e = rd_kafka_topic_partition_list_find(parts, r.topic, r.partition);
            if (!e)
                continue;
            if (err || r.err) {
                // Never skip on doubt: copy from the start.
                e->offset = RD_KAFKA_OFFSET_BEGINNING;
                event(JobEvent::Severity::Warning, QStringLiteral("could not look up the start time in %1/%2 (%3); "
                                                                  "copying from its first record")
                                                       .arg(QString::fromUtf8(r.topic))
                                                       .arg(r.partition)
                                                       .arg(kafkaErrorText(err ? err : r.err)));
            } else {
                e->offset = r.offset >= 0 ? r.offset : RD_KAFKA_OFFSET_END; // -1: nothing that new yet
            }
        }
    }
    if (eos() && parts->cnt > 0)
        claimPartitions(parts);
    if (parts->cnt > 0)
        m_firstAssignmentDone = true;
    for (auto &[name, t] : m_topics)
        t->recreated = false; // only the first assignment after the recreation ignores progress
    if (char *member = rd_kafka_memberid(m_consumer.get())) {
        m_memberId = QString::fromUtf8(member);
        rd_kafka_mem_free(m_consumer.get(), member);
    }
    event(JobEvent::Severity::Info, QStringLiteral("assigned %1 source partitions (%2 resume from committed progress)")
                                        .arg(parts->cnt)
                                        .arg(resumed));
}

void MirrorWorker::startWithoutProgress(rd_kafka_topic_partition_t &e, rd_kafka_topic_partition_list_t *byTime)
{
    switch (m_spec.start) {
    case StartPosition::Committed:
    case StartPosition::Earliest: e.offset = RD_KAFKA_OFFSET_BEGINNING; break;
    case StartPosition::Latest:
        // Only what exists when the job starts is skipped; topics and
        // partitions that appear while it runs are copied from their start.
        e.offset = m_firstAssignmentDone ? RD_KAFKA_OFFSET_BEGINNING : RD_KAFKA_OFFSET_END;
        break;
    case StartPosition::Timestamp:
        rd_kafka_topic_partition_list_add(byTime, e.topic, e.partition)->offset =
            m_spec.startTimestamp.toMSecsSinceEpoch();
        break;
    }
}

void MirrorWorker::revokePartitions(rd_kafka_topic_partition_list_t *parts)
{
    std::vector<PartState *> revoked;
    for (int i = 0; i < parts->cnt; ++i) {
        auto it = m_topics.find(QString::fromUtf8(parts->elems[i].topic));
        if (it == m_topics.end())
            continue;
        // Only what this instance copies: a partition assigned while closing
        // (not taken up) or known from an earlier assignment has nothing to
        // commit, and a stale position must never be committed over another
        // owner's progress.
        if (PartState *p = partFor(it->second.get(), parts->elems[i].partition); p->assigned)
            revoked.push_back(p);
    }
    // Whatever the target has not acknowledged yet would otherwise be copied
    // again by the next owner: wait for it (bounded) and commit. Only the
    // revoked partitions' records are waited for: an incremental rebalance
    // moves a few partitions, and the others keep copying meanwhile.
    if (!m_aborting)
        waitForAcks(revoked, kFlushTimeoutMs);
    if (!m_aborting)
        commit(true, &revoked); // writes the revoked partitions' map first
    for (PartState *p : revoked) {
        p->assigned = false;
        p->pausedActual = false;
        p->atEof = false;
    }
    resizeInFlightWindow();
    // Records consumed but not handed over stay on the source for the next owner.
    std::erase_if(m_pending, [&](const MessagePtr &m) {
        if (!m)
            return true;
        PartState *p = partFor(topicFor(m->rkt), m->partition);
        return !p || !p->assigned;
    });
}

void MirrorWorker::resizeInFlightWindow()
{
    qint64 assigned = 0;
    for (const auto &[name, t] : m_topics)
        for (const auto &p : t->parts)
            assigned += p && p->assigned ? 1 : 0;
    m_inFlightWindow = InFlightWindow::forPartitions(assigned);
}

void MirrorWorker::waitForAcks(const std::vector<PartState *> &parts, int timeoutMs)
{
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    const auto pending = [&] {
        return std::any_of(parts.begin(), parts.end(), [](const PartState *p) { return p->ring.inFlight() > 0; });
    };
    while (pending() && Clock::now() < deadline && !m_aborting && m_fatal.isEmpty())
        rd_kafka_poll(m_producer.get(), 10); // delivery reports
}

void MirrorWorker::commit(bool sync, const std::vector<PartState *> *only)
{
    if (!m_consumer)
        return;
    if (eos()) {
        // `only` are partitions being handed over (a revoke). Their copy to
        // the source group goes without waiting: a revoke also comes when
        // the source is away, and the target already holds the progress.
        commitTransaction(only, false, sync && !only);
        return;
    }
    // The map first: a commit never passes what the map has made durable
    // (commitLimit). A synchronous commit (revoke, stop, caught up) waits for
    // the map's acknowledgements so it can commit everything.
    writeOffsetMap(only);
    if (sync)
        waitForMapAcks(only, 10000);
    commitOffsets(sync, only);
}

void MirrorWorker::commitOffsets(bool sync, const std::vector<PartState *> *only)
{
    if (!m_consumer)
        return;
    PartitionListPtr list(rd_kafka_topic_partition_list_new(16));
    std::vector<PartState *> in;
    auto consider = [&](PartState *p) {
        if (!p || (!p->assigned && !only))
            return;
        const qint64 o = commitLimit(p);
        if (o >= 0 && o != p->committed) {
            rd_kafka_topic_partition_list_add(list.get(), p->topic->nameUtf8.constData(), p->partition)->offset = o;
            in.push_back(p);
        }
    };
    if (only) {
        for (PartState *p : *only)
            consider(p);
    } else {
        for (auto &[name, t] : m_topics)
            for (auto &p : t->parts)
                consider(p.get());
    }
    if (list->cnt == 0)
        return;
    if (!sync) {
        rd_kafka_commit(m_consumer.get(), list.get(), 1); // result in onCommit
        return;
    }
    const rd_kafka_resp_err_t err = rd_kafka_commit(m_consumer.get(), list.get(), 0);
    for (int i = 0; i < list->cnt; ++i) {
        if (!err && !list->elems[i].err)
            in[size_t(i)]->committed = list->elems[i].offset;
    }
    if (err)
        debouncedEvent(
            QStringLiteral("commit"), JobEvent::Severity::Warning,
            QStringLiteral("could not commit progress to source group %1: %2").arg(m_groupId, kafkaErrorText(err)));
}

void MirrorWorker::onCommit(rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t *offsets)
{
    if (err == RD_KAFKA_RESP_ERR__NO_OFFSET)
        return;
    // A periodic commit that meets a rebalance is refused for the old
    // generation; the revoke commits what moves, the next tick the rest.
    if (err == RD_KAFKA_RESP_ERR_ILLEGAL_GENERATION || err == RD_KAFKA_RESP_ERR_REBALANCE_IN_PROGRESS ||
        err == RD_KAFKA_RESP_ERR_UNKNOWN_MEMBER_ID || err == RD_KAFKA_RESP_ERR_STALE_MEMBER_EPOCH)
        return;
    if (err) {
        debouncedEvent(
            QStringLiteral("commit"), JobEvent::Severity::Warning,
            QStringLiteral("could not commit progress to source group %1: %2").arg(m_groupId, kafkaErrorText(err)));
        return;
    }
    for (int i = 0; offsets && i < offsets->cnt; ++i) {
        const rd_kafka_topic_partition_t &e = offsets->elems[i];
        if (e.err || e.offset < 0)
            continue;
        auto it = m_topics.find(QString::fromUtf8(e.topic));
        if (it != m_topics.end())
            if (PartState *p = partFor(it->second.get(), e.partition))
                p->committed = e.offset;
    }
}

// ---------------------------------------------------------------- the offset map's part in commits

qint64 MirrorWorker::commitLimit(const PartState *p) const
{
    // Progress never passes what the map has made durable: a restart copies
    // again from the commit, and the map must already cover everything below it.
    // While the map topic is being created the commit waits too (nothing is
    // acknowledged yet), however long the target takes: the setup either ends
    // with the topic, whose first records cover what was copied meanwhile, or
    // stops the job, and a commit made in between would count copies no map
    // will ever translate.
    const qint64 o = p->committable();
    return m_map.off() ? o : p->map.limit(o);
}

void MirrorWorker::writeOffsetMap(const std::vector<PartState *> *only)
{
    const auto one = [&](PartState *p) {
        if (p)
            m_map.write(p->map, p->committable(), p->topic->name, p->partition, p->topic->targetName);
    };
    if (only) {
        for (PartState *p : *only)
            one(p);
    } else {
        for (auto &[name, t] : m_topics)
            for (auto &p : t->parts)
                if (p && p->assigned)
                    one(p.get());
    }
}

void MirrorWorker::waitForMapAcks(const std::vector<PartState *> *only, int timeoutMs)
{
    if (m_map.off())
        return;
    const auto pending = [&] {
        if (only)
            return std::any_of(only->begin(), only->end(), [](const PartState *p) { return p->map.inFlight() > 0; });
        for (auto &[name, t] : m_topics)
            for (auto &p : t->parts)
                if (p && p->map.inFlight() > 0)
                    return true;
        return false;
    };
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    while (pending() && Clock::now() < deadline && !m_aborting && m_fatal.isEmpty())
        rd_kafka_poll(m_producer.get(), 10);
}

} // namespace md
