#include "engine/mirror/MirrorWorker.h"

#include "engine/admin/AdminCall.h"
#include "engine/core/ClusterConfig.h"

#include <algorithm>
#include <memory>

namespace md {

// ---------------------------------------------------------------- the offset map (docs/ARCHITECTURE.md)

// What a map record's delivery report needs; its type is the tag that tells
// it from a mirrored record, whose opaque is the consumed message.
struct MirrorWorker::MapWrite {
    PartState *part = nullptr;
    int generation = 0;
    qint64 sourceStart = -1;
    qint64 sourceEnd = -1; // written (clipped to covered)
    qint64 covered = -1;
    bool whole = false; // the segment's whole extent as of the write
};

void MirrorWorker::setupOffsetMap()
{
    // Asked without waiting (pollOffsetMapSetup takes the answer): an
    // unreachable target must not hold the engine before its loop, where
    // Stop is served. Until the topic is there, records wait in line
    // (handleMessage), so a refused map stops the job before it copies.
    m_mapTopic = m_spec.offsetMapTopic.isEmpty() ? defaultOffsetMapTopic(m_groupId) : m_spec.offsetMapTopic;
    if (!m_spec.offsetMap) {
        // Asked for by the profile: no topic, no records, and commits never
        // wait for the map (commitLimit); copies note no segments.
        m_mapOff = true;
        event(JobEvent::Severity::Info, noOffsetMapReason() + QStringLiteral(": no map topic is created or written"));
        return;
    }
    char errstr[512];
    const QByteArray name = m_mapTopic.toUtf8();
    // One partition: the map's records are applied in the order they were
    // written. The cluster's default replication factor (-1).
    NewTopicPtr nt(rd_kafka_NewTopic_new(name.constData(), 1, -1, errstr, sizeof errstr));
    if (!nt) {
        giveUpOffsetMap(QString::fromUtf8(errstr));
        return;
    }
    rd_kafka_NewTopic_set_config(nt.get(), "cleanup.policy", "compact");
    if (!m_mapQueue)
        m_mapQueue.reset(rd_kafka_queue_new(m_producer.get()));
    AdminOptionsPtr options(rd_kafka_AdminOptions_new(m_producer.get(), RD_KAFKA_ADMIN_OP_CREATETOPICS));
    rd_kafka_AdminOptions_set_request_timeout(options.get(), 15000, errstr, sizeof errstr);
    rd_kafka_NewTopic_t *arr[] = {nt.get()};
    rd_kafka_CreateTopics(m_producer.get(), arr, 1, options.get(), m_mapQueue.get());
    m_mapSetupPending = true;
    m_mapSetupSent = Clock::now();
}

void MirrorWorker::pollOffsetMapSetup()
{
    if (!m_mapSetupPending) {
        if (!m_mapRkt && !m_mapOff && m_mapSetupAttempts > 0 && Clock::now() >= m_mapSetupRetryAt)
            setupOffsetMap();
        return;
    }
    EventPtr ev(rd_kafka_queue_poll(m_mapQueue.get(), 0));
    QString why;
    rd_kafka_resp_err_t code = RD_KAFKA_RESP_ERR_NO_ERROR;
    if (!ev) {
        if (Clock::now() - m_mapSetupSent < std::chrono::seconds(15))
            return;
        m_mapQueue.reset(); // a late answer goes with it
        why = QStringLiteral("the target did not answer within 15 s");
    } else if (rd_kafka_event_error(ev.get()) == RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE) {
        // A cluster that cannot create topics (librdkafka's mock, the
        // sandbox's, which creates the map topic itself): the map is written
        // to the topic as it is; a missing one fails its writes, which say so.
        event(JobEvent::Severity::Info,
              QStringLiteral("the target does not create topics (no CreateTopics): the offset map goes to %1 as it is")
                  .arg(m_mapTopic));
    } else if (rd_kafka_event_error(ev.get())) {
        code = rd_kafka_event_error(ev.get());
        why = QString::fromUtf8(rd_kafka_event_error_string(ev.get()));
    } else {
        size_t cnt = 0;
        const rd_kafka_topic_result_t **res =
            rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev.get()), &cnt);
        if (cnt < 1) {
            why = QStringLiteral("empty CreateTopics answer");
        } else if (const rd_kafka_resp_err_t err = rd_kafka_topic_result_error(res[0]);
                   err && err != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
            const char *text = rd_kafka_topic_result_error_string(res[0]);
            code = err;
            why = QString::fromUtf8(text && *text ? text : rd_kafka_err2str(err));
        } else if (!err) {
            event(JobEvent::Severity::Info,
                  QStringLiteral("created offset map topic %1 on the target").arg(m_mapTopic));
        }
    }
    m_mapSetupPending = false;
    ++m_mapSetupAttempts;
    if (!why.isEmpty()) {
        // A refusal is an answer, not a hiccup: asking twice more only delays it.
        const bool refused = code == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED ||
                             code == RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED ||
                             code == RD_KAFKA_RESP_ERR_POLICY_VIOLATION;
        if (refused || m_mapSetupAttempts >= 3) {
            giveUpOffsetMap(why);
            return;
        }
        debouncedEvent(QStringLiteral("offset-map-setup"), JobEvent::Severity::Warning,
                       QStringLiteral("offset map topic %1 not created on the target yet (%2); trying again in 30 s")
                           .arg(m_mapTopic, why));
        m_mapSetupRetryAt = Clock::now() + std::chrono::seconds(30);
        return;
    }
    m_mapRkt.reset(rd_kafka_topic_new(m_producer.get(), m_mapTopic.toUtf8().constData(), nullptr));
    if (!m_mapRkt)
        giveUpOffsetMap(kafkaErrorText(rd_kafka_last_error()));
}

void MirrorWorker::giveUpOffsetMap(const QString &why)
{
    offsetMapLost(QStringLiteral("offset map topic %1 could not be created on the target (%2)").arg(m_mapTopic, why));
}

// The map is what makes consumer-group failover, group sync, checkpoints and "show on the other
// cluster" exact. A job that keeps one ("offsetMap": true, the default) stops rather than copy
// what it could not translate; its progress stays where the map reaches (commitLimit), so the
// next run copies the rest again, with its map. A plain migration says "offsetMap": false.
void MirrorWorker::offsetMapLost(const QString &what)
{
    m_mapFailed = true;
    fail(what + QStringLiteral(". The job keeps an offset map (\"offsetMap\": true, the default) so that consumer "
                               "groups can fail over exactly, and stops rather than copy what it cannot translate: "
                               "let the target user create and write %1 (or create it: one partition, "
                               "cleanup.policy=compact), or set \"offsetMap\": false for a plain migration")
                    .arg(m_mapTopic));
}

qint64 MirrorWorker::commitLimit(const PartState *p) const
{
    const qint64 o = p->committable();
    // Progress never passes what the map has made durable: a restart copies
    // again from the commit, and the map must already cover everything below it.
    // While the map topic is being created the commit waits too (mapAcked
    // -1), however long the target takes: the setup either ends with the
    // topic, whose first records cover what was copied meanwhile, or stops the
    // job (offsetMapLost), and a commit made in between would count copies no
    // map will ever translate.
    if (m_mapOff || !p->mapUsed)
        return o;
    return std::min(o, p->mapAcked);
}

void MirrorWorker::writeOffsetMap(const std::vector<PartState *> *only)
{
    if (!m_mapRkt || m_mapOff)
        return;
    const auto produce = [&](PartState *p, const PartState::MapSegment &s, qint64 end, qint64 covered) {
        OffsetSegment seg;
        seg.sourceStart = s.sourceStart;
        seg.sourceEnd = end;
        seg.targetStart = s.targetStart;
        seg.covered = covered;
        seg.targetTopic = p->topic->targetName;
        const QByteArray key = offsetMapKey(p->topic->name, p->partition, s.sourceStart);
        const QByteArray value = offsetMapValue(seg);
        auto w =
            std::make_unique<MapWrite>(MapWrite{p, p->mapGeneration, s.sourceStart, end, covered, end == s.sourceEnd});
        // Partition 0 always: one order for every record of the map.
        const rd_kafka_resp_err_t err = rd_kafka_producev(
            m_producer.get(), RD_KAFKA_V_RKT(m_mapRkt.get()), RD_KAFKA_V_PARTITION(0),
            RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(key.constData(), size_t(key.size())),
            RD_KAFKA_V_VALUE(const_cast<char *>(value.constData()), size_t(value.size())), RD_KAFKA_V_OPAQUE(w.get()),
            RD_KAFKA_V_END);
        if (err) {
            debouncedEvent(QStringLiteral("map-produce"), JobEvent::Severity::Warning,
                           QStringLiteral("could not write the offset map to %1: %2; trying again at the next commit")
                               .arg(m_mapTopic, kafkaErrorText(err)));
            return false;
        }
        (void)w.release(); // owned by its delivery report
        ++p->mapInFlight;
        ++m_mapInFlight;
        return true;
    };
    const auto one = [&](PartState *p) {
        if (!p || p->mapSegs.empty())
            return;
        const qint64 covered = p->committable();
        if (covered < 0)
            return;
        bool wrote = false, failed = false;
        for (PartState::MapSegment &s : p->mapSegs) {
            if (!s.dirty)
                continue;
            // Only what is below covered is final (acknowledged in order).
            const qint64 end = std::min(s.sourceEnd, covered);
            if (end <= s.sourceStart)
                continue;
            if (!produce(p, s, end, covered)) {
                failed = true;
                break;
            }
            wrote = true;
            if (end == s.sourceEnd)
                s.dirty = false;
            s.acked = false;
        }
        // Progress without new copies (control records, aborted records at
        // the end): the last segment again, with the new covered.
        if (!wrote && !failed && covered != p->mapWrittenCovered) {
            PartState::MapSegment &last = p->mapSegs.back();
            const qint64 end = std::min(last.sourceEnd, covered);
            if (end > last.sourceStart) {
                if (produce(p, last, end, covered))
                    last.acked = false;
                else
                    failed = true;
            }
        }
        if (!failed)
            p->mapWrittenCovered = covered;
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
    if (!m_mapRkt)
        return;
    const auto pending = [&] {
        if (only)
            return std::any_of(only->begin(), only->end(), [](const PartState *p) { return p->mapInFlight > 0; });
        for (auto &[name, t] : m_topics)
            for (auto &p : t->parts)
                if (p && p->mapInFlight > 0)
                    return true;
        return false;
    };
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    while (pending() && Clock::now() < deadline && !m_aborting && m_fatal.isEmpty())
        rd_kafka_poll(m_producer.get(), 10);
}

void MirrorWorker::onMapDelivery(const rd_kafka_message_t *dm)
{
    std::unique_ptr<MapWrite> w(static_cast<MapWrite *>(dm->_private));
    PartState *p = w->part;
    --p->mapInFlight;
    --m_mapInFlight;
    if (w->generation != p->mapGeneration)
        return; // written for an earlier assignment of the partition
    if (dm->err && eos()) {
        if (dm->err != RD_KAFKA_RESP_ERR__PURGE_QUEUE && dm->err != RD_KAFKA_RESP_ERR__PURGE_INFLIGHT &&
            !m_txnAbortPending) {
            m_txnAbortPending = true;
            m_txnAbortWhy = QStringLiteral("the target did not take offset map records (topic %1): %2")
                                .arg(m_mapTopic, QString::fromUtf8(rd_kafka_err2str(dm->err)));
        }
        return;
    }
    if (dm->err) {
        // Everything of this partition again, in order, at the next commit;
        // the commit stays where the map was last made durable.
        for (PartState::MapSegment &s : p->mapSegs) {
            s.dirty = true;
            s.acked = false;
        }
        p->mapWrittenCovered = -1;
        if (dm->err == RD_KAFKA_RESP_ERR__PURGE_QUEUE || dm->err == RD_KAFKA_RESP_ERR__PURGE_INFLIGHT)
            return;
        // A target that keeps refusing the map (ACLs, a deleted topic) must
        // not hold the job's progress back for ever: the job stops and says why.
        if (++m_mapFailures > 20 && !m_mapFailed) {
            offsetMapLost(QStringLiteral("the target refused %1 offset map records in a row for %2 (%3)")
                              .arg(m_mapFailures)
                              .arg(m_mapTopic, QString::fromUtf8(rd_kafka_err2str(dm->err))));
            return;
        }
        debouncedEvent(QStringLiteral("map-delivery"), JobEvent::Severity::Warning,
                       QStringLiteral("the target did not take offset map records for %1/%2 (topic %3): %4; writing "
                                      "them again at the next commit")
                           .arg(p->topic->name)
                           .arg(p->partition)
                           .arg(m_mapTopic, QString::fromUtf8(rd_kafka_err2str(dm->err))));
        return;
    }
    m_mapFailures = 0;
    p->mapAcked = std::max(p->mapAcked, w->covered);
    for (PartState::MapSegment &s : p->mapSegs)
        if (s.sourceStart == w->sourceStart && w->whole && s.sourceEnd == w->sourceEnd && !s.dirty)
            s.acked = true;
    // Closed segments whose last write is durable are done with, oldest first.
    while (p->mapSegs.size() > 1 && p->mapSegs.front().acked && !p->mapSegs.front().dirty)
        p->mapSegs.pop_front();
}

} // namespace md
