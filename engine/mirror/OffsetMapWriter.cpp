#include "engine/mirror/OffsetMapWriter.h"

#include "engine/core/ClusterConfig.h"
#include "engine/core/KafkaError.h"
#include "engine/offsetmap/OffsetMap.h"

#include <memory>

namespace md {

// What a map record's delivery report needs.
struct OffsetMapWriter::Written {
    MapSegments *map = nullptr;
    MapSegments::Write write;
    QString sourceTopic;
    int32_t partition = -1;
};

OffsetMapWriter::OffsetMapWriter(Reports reports, bool transactional)
    : m_reports(std::move(reports)), m_transactional(transactional)
{
}

OffsetMapWriter::~OffsetMapWriter() = default;

void OffsetMapWriter::start(rd_kafka_t *producer, const QString &topic, bool enabled)
{
    // Asked without waiting (poll takes the answer): an unreachable target
    // must not hold the engine before its loop, where Stop is served. Until
    // the topic is there, records wait in line (settled), so a refused map
    // stops the job before it copies.
    m_producer = producer;
    m_topic = topic;
    if (!enabled) {
        // Asked for by the profile: no topic, no records, and commits never
        // wait for the map; copies note no segments.
        m_off = true;
        m_reports.event(JobEvent::Severity::Info,
                        noOffsetMapReason() + QStringLiteral(": no map topic is created or written"));
        return;
    }
    char errstr[512];
    const QByteArray name = m_topic.toUtf8();
    // One partition: the map's records are applied in the order they were
    // written. The cluster's default replication factor (-1).
    NewTopicPtr nt(rd_kafka_NewTopic_new(name.constData(), 1, -1, errstr, sizeof errstr));
    if (!nt) {
        giveUp(QString::fromUtf8(errstr));
        return;
    }
    rd_kafka_NewTopic_set_config(nt.get(), "cleanup.policy", "compact");
    // Compaction cleans only closed segments, and a commit rewrites its
    // partitions' current records (docs/decisions/0022): a segment closed
    // every hour keeps the rewrites an hour's worth, not the default week's
    // or gigabyte's (an exactly-once job wrote 34 MB an hour at 2,000
    // records/s over 6 partitions, of which 0.7 MB stay).
    rd_kafka_NewTopic_set_config(nt.get(), "segment.ms", "3600000");
    if (!m_queue)
        m_queue.reset(rd_kafka_queue_new(m_producer));
    AdminOptionsPtr options(rd_kafka_AdminOptions_new(m_producer, RD_KAFKA_ADMIN_OP_CREATETOPICS));
    rd_kafka_AdminOptions_set_request_timeout(options.get(), 15000, errstr, sizeof errstr);
    rd_kafka_NewTopic_t *arr[] = {nt.get()};
    rd_kafka_CreateTopics(m_producer, arr, 1, options.get(), m_queue.get());
    m_setupPending = true;
    m_setupSent = std::chrono::steady_clock::now();
}

void OffsetMapWriter::poll()
{
    using Clock = std::chrono::steady_clock;
    if (!m_setupPending) {
        if (!m_rkt && !m_off && !m_lost && m_setupAttempts > 0 && Clock::now() >= m_setupRetryAt)
            start(m_producer, m_topic, true);
        return;
    }
    EventPtr ev(rd_kafka_queue_poll(m_queue.get(), 0));
    QString why;
    rd_kafka_resp_err_t code = RD_KAFKA_RESP_ERR_NO_ERROR;
    if (!ev) {
        if (Clock::now() - m_setupSent < std::chrono::seconds(15))
            return;
        m_queue.reset(); // a late answer goes with it
        why = QStringLiteral("the target did not answer within 15 s");
    } else if (rd_kafka_event_error(ev.get()) == RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE) {
        // A cluster that cannot create topics (librdkafka's mock, the
        // sandbox's, which creates the map topic itself): the map is written
        // to the topic as it is; a missing one fails its writes, which say so.
        m_reports.event(
            JobEvent::Severity::Info,
            QStringLiteral("the target does not create topics (no CreateTopics): the offset map goes to %1 as it is")
                .arg(m_topic));
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
            m_reports.event(JobEvent::Severity::Info,
                            QStringLiteral("created offset map topic %1 on the target").arg(m_topic));
        }
    }
    m_setupPending = false;
    ++m_setupAttempts;
    if (!why.isEmpty()) {
        // A refusal is an answer, not a hiccup: asking twice more only delays it.
        const bool refused = code == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED ||
                             code == RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED ||
                             code == RD_KAFKA_RESP_ERR_POLICY_VIOLATION;
        if (refused || m_setupAttempts >= 3) {
            giveUp(why);
            return;
        }
        m_reports.debouncedEvent(
            QStringLiteral("offset-map-setup"), JobEvent::Severity::Warning,
            QStringLiteral("offset map topic %1 not created on the target yet (%2); trying again in 30 s")
                .arg(m_topic, why));
        m_setupRetryAt = Clock::now() + std::chrono::seconds(30);
        return;
    }
    m_rkt.reset(rd_kafka_topic_new(m_producer, m_topic.toUtf8().constData(), nullptr));
    if (!m_rkt)
        giveUp(kafkaErrorText(rd_kafka_last_error()));
}

void OffsetMapWriter::giveUp(const QString &why)
{
    lose(QStringLiteral("offset map topic %1 could not be created on the target (%2)").arg(m_topic, why));
}

// The map is what makes consumer-group failover, group sync, checkpoints and "show on the other
// cluster" exact. A job that keeps one ("offsetMap": true, the default) stops rather than copy
// what it could not translate; its progress stays where the map reaches (MapSegments::limit), so
// the next run copies the rest again, with its map. A plain migration says "offsetMap": false.
void OffsetMapWriter::lose(const QString &what)
{
    m_lost = true;
    m_reports.lost(what +
                   QStringLiteral(". The job keeps an offset map (\"offsetMap\": true, the default) so that consumer "
                                  "groups can fail over exactly, and stops rather than copy what it cannot translate: "
                                  "let the target user create and write %1 (or create it: one partition, "
                                  "cleanup.policy=compact), or set \"offsetMap\": false for a plain migration")
                       .arg(m_topic));
}

void OffsetMapWriter::write(MapSegments &map, qint64 covered, const QString &sourceTopic, int32_t partition,
                            const QString &targetTopic)
{
    if (!m_rkt || m_off)
        return;
    map.write(covered, [&](const MapSegments::Write &w) {
        QByteArray key, value;
        if (w.reset) {
            key = offsetMapResetKey(sourceTopic, partition);
            value = offsetMapResetValue();
        } else {
            OffsetSegment seg;
            seg.sourceStart = w.sourceStart;
            seg.sourceEnd = w.sourceEnd;
            seg.targetStart = w.targetStart;
            seg.covered = w.covered;
            seg.targetTopic = targetTopic;
            seg.steps = w.steps;
            key = offsetMapKey(sourceTopic, partition, w.sourceStart);
            value = offsetMapValue(seg);
        }
        auto opaque = std::make_unique<Written>(Written{&map, w, sourceTopic, partition});
        // Partition 0 always: one order for every record of the map.
        const rd_kafka_resp_err_t err = rd_kafka_producev(
            m_producer, RD_KAFKA_V_RKT(m_rkt.get()), RD_KAFKA_V_PARTITION(0), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
            RD_KAFKA_V_KEY(key.constData(), size_t(key.size())),
            RD_KAFKA_V_VALUE(const_cast<char *>(value.constData()), size_t(value.size())),
            RD_KAFKA_V_OPAQUE(opaque.get()), RD_KAFKA_V_END);
        if (err) {
            m_reports.debouncedEvent(
                QStringLiteral("map-produce"), JobEvent::Severity::Warning,
                QStringLiteral("could not write the offset map to %1: %2; trying again at the next commit")
                    .arg(m_topic, kafkaErrorText(err)));
            return false;
        }
        (void)opaque.release(); // owned by its delivery report
        ++m_inFlight;
        return true;
    });
}

void OffsetMapWriter::onDelivery(const rd_kafka_message_t *dm)
{
    std::unique_ptr<Written> w(static_cast<Written *>(dm->_private));
    --m_inFlight;
    if (!w->map->settle(w->write))
        return; // written for an earlier assignment of the partition
    const bool purged = dm->err == RD_KAFKA_RESP_ERR__PURGE_QUEUE || dm->err == RD_KAFKA_RESP_ERR__PURGE_INFLIGHT;
    // A map record reported delivered without an offset may be lost
    // (writeConfirmed): its segment is written again like a refused one, as a
    // missing segment would read as a gap and a group moved through it would
    // skip those records.
    const bool failed = !writeConfirmed(dm);
    if (failed && m_transactional) {
        if (!purged)
            m_reports.transactionFailed(QStringLiteral("the target did not take offset map records (topic %1): %2")
                                            .arg(m_topic, unconfirmedWriteText(dm)));
        return;
    }
    if (failed) {
        // Everything of this partition again, in order, at the next commit;
        // the commit stays where the map was last made durable.
        w->map->refused();
        if (purged)
            return;
        // A target that keeps refusing the map (ACLs, a deleted topic) must
        // not hold the job's progress back for ever: the job stops and says why.
        if (++m_failures > 20 && !m_lost) {
            lose(QStringLiteral("the target refused %1 offset map records in a row for %2 (%3)")
                     .arg(m_failures)
                     .arg(m_topic, unconfirmedWriteText(dm)));
            return;
        }
        m_reports.debouncedEvent(
            QStringLiteral("map-delivery"), JobEvent::Severity::Warning,
            QStringLiteral("the target did not take offset map records for %1/%2 (topic %3): %4; writing "
                           "them again at the next commit")
                .arg(w->sourceTopic)
                .arg(w->partition)
                .arg(m_topic, unconfirmedWriteText(dm)));
        return;
    }
    m_failures = 0;
    w->map->acknowledged(w->write);
}

void OffsetMapWriter::closeQueue()
{
    m_queue.reset();
}

void OffsetMapWriter::close()
{
    m_rkt.reset();
}

} // namespace md
