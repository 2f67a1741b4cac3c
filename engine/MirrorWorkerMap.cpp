#include "MirrorWorker.h"

#include "AdminCall.h"
#include "ClusterConfig.h"

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
    m_mapTopic = m_spec.offsetMapTopic.isEmpty() ? defaultOffsetMapTopic(m_groupId) : m_spec.offsetMapTopic;
    const ClusterTopics tgt = readClusterTopics(m_producer.get(), 10000);
    QString why;
    if (!tgt.ok) {
        why = QStringLiteral("cannot list the target's topics: ") + tgt.error;
    } else if (!tgt.topics.contains(m_mapTopic)) {
        // One partition: the map's records are applied in the order they were
        // written. The cluster's default replication factor (-1).
        char errstr[512];
        const QByteArray name = m_mapTopic.toUtf8();
        NewTopicPtr nt(rd_kafka_NewTopic_new(name.constData(), 1, -1, errstr, sizeof errstr));
        if (!nt) {
            why = QString::fromUtf8(errstr);
        } else {
            rd_kafka_NewTopic_set_config(nt.get(), "cleanup.policy", "compact");
            rd_kafka_NewTopic_t *arr[] = {nt.get()};
            QString error;
            EventPtr ev = adminCall(
                m_producer.get(), RD_KAFKA_ADMIN_OP_CREATETOPICS, 10000,
                [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) { rd_kafka_CreateTopics(m_producer.get(), arr, 1, o, q); },
                &error);
            size_t cnt = 0;
            const rd_kafka_topic_result_t **res =
                ev ? rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev.get()), &cnt) : nullptr;
            if (!ev) {
                why = error;
            } else if (cnt < 1) {
                why = QStringLiteral("empty CreateTopics answer");
            } else if (const rd_kafka_resp_err_t err = rd_kafka_topic_result_error(res[0]);
                       err && err != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
                const char *s = rd_kafka_topic_result_error_string(res[0]);
                why = QString::fromUtf8(s ? s : rd_kafka_err2str(err));
            } else {
                event(JobEvent::Severity::Info, QStringLiteral("created offset map topic %1 on the target").arg(m_mapTopic));
            }
        }
    }
    if (!why.isEmpty()) {
        event(JobEvent::Severity::Warning,
              QStringLiteral("offset map topic %1 could not be created on the target (%2): mirroring continues without "
                             "writing the offset map")
                  .arg(m_mapTopic, why));
        return;
    }
    m_mapRkt.reset(rd_kafka_topic_new(m_producer.get(), m_mapTopic.toUtf8().constData(), nullptr));
    if (!m_mapRkt)
        event(JobEvent::Severity::Warning,
              QStringLiteral("offset map topic %1: %2: mirroring continues without writing the offset map")
                  .arg(m_mapTopic, kafkaErrorText(rd_kafka_last_error())));
}

qint64 MirrorWorker::commitLimit(const PartState *p) const
{
    const qint64 o = p->committable();
    // Progress never passes what the map has made durable: a restart copies
    // again from the commit, and the map must already cover everything below it.
    if (!m_mapRkt || m_mapOff || !p->mapUsed)
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
        auto w = std::make_unique<MapWrite>(MapWrite{p, p->mapGeneration, s.sourceStart, end, covered, end == s.sourceEnd});
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
        // not hold the job's progress back for ever.
        if (++m_mapFailures > 20 && !m_mapOff) {
            m_mapOff = true;
            event(JobEvent::Severity::Warning,
                  QStringLiteral("giving up writing the offset map to %1 after %2 failed records (%3): mirroring "
                                 "continues without it")
                      .arg(m_mapTopic)
                      .arg(m_mapFailures)
                      .arg(QString::fromUtf8(rd_kafka_err2str(dm->err))));
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
