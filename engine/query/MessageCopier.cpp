#include "engine/query/MessageCopier.h"

#include "engine/core/KafkaError.h"
#include "engine/core/KafkaHandles.h"
#include "engine/core/ReaderConsumer.h"
#include "engine/core/Tasks.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <mutex>

namespace md {

namespace {

QString utf8(const char *s)
{
    return s ? QString::fromUtf8(s) : QString();
}

QString clusterName(const ClusterConfig &c)
{
    return c.alias.isEmpty() ? c.bootstrap : c.alias + QStringLiteral(" (") + c.bootstrap + QLatin1Char(')');
}

// Delivery state shared with librdkafka's delivery-report callback, which runs
// inside rd_kafka_poll/flush on the copying thread.
struct DeliveryState {
    std::atomic<qint64> acked{0};
    std::atomic<qint64> failed{0};
    std::mutex mutex;
    QString firstError;
};

void deliveryCb(rd_kafka_t *, const rd_kafka_message_t *m, void *opaque)
{
    auto *state = static_cast<DeliveryState *>(opaque);
    if (writeConfirmed(m)) {
        ++state->acked;
        return;
    }
    ++state->failed; // delivered without an offset may be lost: counted and said as failed
    std::lock_guard lock(state->mutex);
    if (state->firstError.isEmpty() && m->err != RD_KAFKA_RESP_ERR__PURGE_QUEUE &&
        m->err != RD_KAFKA_RESP_ERR__PURGE_INFLIGHT)
        state->firstError = QStringLiteral("partition %1: %2").arg(m->partition).arg(unconfirmedWriteText(m));
}

void quietLog(const rd_kafka_t *, int, const char *, const char *)
{
}

// One record as the mirror engine writes it: key/value null vs empty kept (a
// null pointer is a null field), headers handed over, CreateTime kept.
// RD_KAFKA_MSG_F_COPY: the caller's buffers may go away right after the call.
// On success the producer owns `headers`; on failure it is left with the caller.
rd_kafka_resp_err_t produceRecord(rd_kafka_t *producer, const QByteArray &topic, int partition, const void *key,
                                  size_t keyLen, const void *value, size_t valueLen, qint64 timestampMs,
                                  HeadersPtr &headers, QString *error)
{
    rd_kafka_vu_t vu[8];
    size_t n = 0;
    vu[n].vtype = RD_KAFKA_VTYPE_TOPIC;
    vu[n++].u.cstr = topic.constData();
    vu[n].vtype = RD_KAFKA_VTYPE_PARTITION;
    vu[n++].u.i32 = partition;
    vu[n].vtype = RD_KAFKA_VTYPE_VALUE;
    vu[n].u.mem.ptr = const_cast<void *>(value);
    vu[n++].u.mem.size = valueLen;
    vu[n].vtype = RD_KAFKA_VTYPE_KEY;
    vu[n].u.mem.ptr = const_cast<void *>(key);
    vu[n++].u.mem.size = keyLen;
    vu[n].vtype = RD_KAFKA_VTYPE_MSGFLAGS;
    vu[n++].u.i = RD_KAFKA_MSG_F_COPY;
    if (timestampMs > 0) {
        vu[n].vtype = RD_KAFKA_VTYPE_TIMESTAMP;
        vu[n++].u.i64 = timestampMs;
    }
    if (headers) {
        vu[n].vtype = RD_KAFKA_VTYPE_HEADERS;
        vu[n++].u.headers = headers.get();
    }
    ErrorPtr err{rd_kafka_produceva(producer, vu, n)};
    if (!err) {
        (void)headers.release(); // the record owns them now
        return RD_KAFKA_RESP_ERR_NO_ERROR;
    }
    *error = utf8(rd_kafka_error_string(err.get()));
    return rd_kafka_error_code(err.get());
}

HeadersPtr headersOf(const QList<RecordHeader> &list)
{
    if (list.isEmpty())
        return {};
    HeadersPtr h(rd_kafka_headers_new(size_t(list.size())));
    for (const RecordHeader &header : list) {
        const QByteArray name = header.first.toUtf8();
        if (header.second)
            rd_kafka_header_add(h.get(), name.constData(), name.size(), header.second->constData(),
                                header.second->size());
        else
            rd_kafka_header_add(h.get(), name.constData(), name.size(), nullptr, 0);
    }
    return h;
}

constexpr int kRoundMs = 1000;          // a blocking call's slice while connecting: how soon a cancel is seen
constexpr int kCancelledFlushMs = 1000; // how long a cancelled copy waits for records already sent

class Copier {
public:
    Copier(const CopySpec &spec, const std::atomic_bool *cancel, const CopyProgress &progress,
           std::atomic_bool *writing, const CopySchemaIds &schemaIds)
        : m_spec(spec), m_cancel(cancel), m_progress(progress), m_writing(writing), m_schemaIdsSeen(schemaIds)
    {
    }

    CopyResult run()
    {
        if (m_spec.targetTopic.isEmpty())
            return fail(QStringLiteral("copy: no target topic given"));
        if (m_spec.target.bootstrap.isEmpty())
            return fail(QStringLiteral("copy: the target cluster has no bootstrap servers"));
        const bool range = m_spec.messages.isEmpty();
        if (range && m_spec.sourceTopic.isEmpty())
            return fail(QStringLiteral("copy: nothing to copy (no messages and no source partition given)"));
        if (range && m_spec.sourcePartition < 0)
            return fail(QStringLiteral("copy: an offset range needs one source partition"));
        if (!openProducer() || !readTarget()) {
            m_result.cancelled = cancelled();
            if (m_result.cancelled)
                m_result.error.clear(); // a cancel, not a failure: the timeout it cut short says nothing
            return m_result;
        }
        if (range)
            copyRange();
        else
            copyGiven();
        finish();
        return m_result;
    }

private:
    bool cancelled() const { return m_cancel && m_cancel->load(); }

    // A blocking call repeated in slices until it answers otherwise than by a
    // timeout, `timeoutMs` pass or the copy is cancelled: a cluster that does
    // not answer must not hold a cancelled copy for the whole timeout.
    template <typename Call> rd_kafka_resp_err_t inRounds(int timeoutMs, Call call) const
    {
        QElapsedTimer clock;
        clock.start();
        for (;;) {
            const qint64 left = timeoutMs - clock.elapsed();
            const rd_kafka_resp_err_t err = call(int(std::clamp<qint64>(left, 1, kRoundMs)));
            if (err != RD_KAFKA_RESP_ERR__TIMED_OUT || cancelled() || clock.elapsed() >= timeoutMs)
                return err;
        }
    }

    // Said before the first record is produced; false: cancelled, write nothing.
    bool mayWrite()
    {
        if (m_writing && !m_writingSaid) {
            m_writing->store(true);
            m_writingSaid = true;
        }
        return !cancelled();
    }

    CopyResult fail(const QString &error)
    {
        m_result.error = error;
        return m_result;
    }

    QString targetWhat() const
    {
        return QStringLiteral("topic \"%1\" on %2").arg(m_spec.targetTopic, clusterName(m_spec.target));
    }

    bool openProducer()
    {
        ConfResult pc =
            makeKafkaConf(m_spec.target, ClientRole::Producer,
                          {{QStringLiteral("enable.idempotence"), QStringLiteral("true")},
                           {QStringLiteral("acks"), QStringLiteral("all")},
                           {QStringLiteral("allow.auto.create.topics"), QStringLiteral("false")},
                           {QStringLiteral("message.timeout.ms"), QString::number(qMax(1000, m_spec.timeoutMs))},
                           {QStringLiteral("linger.ms"), QStringLiteral("5")}});
        if (!pc.conf) {
            fail(QStringLiteral("target cluster configuration: ") + pc.error);
            return false;
        }
        rd_kafka_conf_set_opaque(pc.conf.get(), &m_delivery);
        rd_kafka_conf_set_dr_msg_cb(pc.conf.get(), &deliveryCb);
        rd_kafka_conf_set_log_cb(pc.conf.get(), &quietLog);
        char errstr[512];
        m_producer.reset(rd_kafka_new(RD_KAFKA_PRODUCER, pc.conf.get(), errstr, sizeof errstr));
        if (!m_producer) {
            fail(QStringLiteral("target producer: ") + utf8(errstr));
            return false;
        }
        (void)pc.conf.release();
        return true;
    }

    // The target topic must exist (a copy never creates one with broker
    // defaults); its partition count decides where records go.
    bool readTarget()
    {
        const QByteArray name = m_spec.targetTopic.toUtf8();
        TopicPtr rkt(rd_kafka_topic_new(m_producer.get(), name.constData(), nullptr));
        MetadataPtr meta;
        const rd_kafka_resp_err_t err = inRounds(qMax(1000, m_spec.timeoutMs), [&](int ms) {
            const rd_kafka_metadata_t *raw = nullptr;
            const rd_kafka_resp_err_t e = rd_kafka_metadata(m_producer.get(), 0, rkt.get(), &raw, ms);
            meta.reset(raw);
            return e;
        });
        if (err) {
            fail(QStringLiteral("cannot reach the target cluster %1: %2")
                     .arg(clusterName(m_spec.target), kafkaErrorText(err)));
            return false;
        }
        if (meta->topic_cnt < 1 || meta->topics[0].err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART ||
            (meta->topics[0].err == RD_KAFKA_RESP_ERR_NO_ERROR && meta->topics[0].partition_cnt == 0)) {
            fail(QStringLiteral("cannot copy to %1: the topic does not exist (create it first)").arg(targetWhat()));
            return false;
        }
        if (meta->topics[0].err) {
            fail(QStringLiteral("cannot copy to %1: %2").arg(targetWhat(), kafkaErrorText(meta->topics[0].err)));
            return false;
        }
        m_targetPartitions = meta->topics[0].partition_cnt;
        return true;
    }

    int targetPartition(int sourcePartition) const
    {
        return sourcePartition >= 0 && sourcePartition < m_targetPartitions ? sourcePartition : RD_KAFKA_PARTITION_UA;
    }

    void report(bool force = false)
    {
        if (!force && m_lastReport.isValid() && m_lastReport.elapsed() < 100)
            return;
        m_lastReport.start();
        if (m_schemaIdsSeen) {
            if (const QList<int> fresh = m_schemaIds.takeNew(); !fresh.isEmpty())
                m_schemaIdsSeen(fresh);
        }
        if (m_progress)
            m_progress(m_delivery.acked.load(), m_result.requested);
    }

    bool deliveryFailed()
    {
        std::lock_guard lock(m_delivery.mutex);
        return !m_delivery.firstError.isEmpty();
    }

    // Produces one record, waiting out a full local queue. False stops the copy.
    bool produce(int partition, const void *key, size_t keyLen, const void *value, size_t valueLen, qint64 ts,
                 HeadersPtr headers, qint64 sourceOffset)
    {
        const QByteArray topic = m_spec.targetTopic.toUtf8();
        if (!mayWrite())
            return false;
        for (;;) {
            QString error;
            const rd_kafka_resp_err_t err =
                produceRecord(m_producer.get(), topic, partition, key, keyLen, value, valueLen, ts, headers, &error);
            if (!err) {
                ++m_produced;
                rd_kafka_poll(m_producer.get(), 0);
                report();
                return true;
            }
            if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
                m_result.error = QStringLiteral("cannot copy the record at offset %1 to %2: %3")
                                     .arg(sourceOffset)
                                     .arg(targetWhat(), error);
                return false;
            }
            if (cancelled() || deliveryFailed())
                return false;
            rd_kafka_poll(m_producer.get(), 20); // delivery reports free queue space
        }
    }

    void copyGiven()
    {
        m_result.requested = m_spec.messages.size();
        report(true);
        for (const KafkaMessage &m : m_spec.messages) {
            if (cancelled() || deliveryFailed())
                return;
            const QByteArray *key = m.key ? &*m.key : nullptr;
            const QByteArray *value = m.value ? &*m.value : nullptr;
            // A null field is a null pointer; an empty one a non-null pointer of size 0.
            if (!produce(targetPartition(m.partition), key ? key->constData() : nullptr, key ? size_t(key->size()) : 0,
                         value ? value->constData() : nullptr, value ? size_t(value->size()) : 0, m.timestampMs,
                         headersOf(m.headers), m.offset))
                return;
        }
    }

    void copyRange()
    {
        const QString what = QStringLiteral("%1[%2]").arg(m_spec.sourceTopic).arg(m_spec.sourcePartition);
        // As the mirror: aborted transactions are never copied (read_committed).
        ConfResult cc = readerConf(m_spec.source, {.groupId = QStringLiteral("mirrordesk-copy")});
        if (!cc.conf) {
            m_result.error = QStringLiteral("source cluster configuration: ") + cc.error;
            return;
        }
        rd_kafka_conf_set_log_cb(cc.conf.get(), &quietLog);
        char errstr[512];
        KafkaPtr consumer(rd_kafka_new(RD_KAFKA_CONSUMER, cc.conf.get(), errstr, sizeof errstr));
        if (!consumer) {
            m_result.error = QStringLiteral("source consumer: ") + utf8(errstr);
            return;
        }
        (void)cc.conf.release();
        rd_kafka_poll_set_consumer(consumer.get());

        const QByteArray topic = m_spec.sourceTopic.toUtf8();
        int64_t low = 0, high = 0;
        if (rd_kafka_resp_err_t err = inRounds(qMax(1000, m_spec.timeoutMs), [&](int ms) {
                return rd_kafka_query_watermark_offsets(consumer.get(), topic.constData(), m_spec.sourcePartition, &low,
                                                        &high, ms);
            })) {
            if (cancelled())
                return; // finish() says cancelled
            m_result.error =
                QStringLiteral("cannot read %1 on %2: %3").arg(what, clusterName(m_spec.source), kafkaErrorText(err));
            return;
        }
        const qint64 first = qMax<qint64>(m_spec.firstOffset, low);
        const qint64 last = m_spec.lastOffset < 0 ? high - 1 : qMin<qint64>(m_spec.lastOffset, high - 1);
        if (first > last) {
            m_result.error =
                QStringLiteral("nothing to copy: %1 holds offsets %2 to %3, the range asked for is %4 to %5")
                    .arg(what)
                    .arg(low)
                    .arg(high - 1)
                    .arg(m_spec.firstOffset)
                    .arg(m_spec.lastOffset < 0 ? QStringLiteral("the end") : QString::number(m_spec.lastOffset));
            return;
        }
        m_result.requested = last - first + 1; // an upper bound (transaction markers, compaction)
        report(true);

        PartitionListPtr assignment(rd_kafka_topic_partition_list_new(1));
        rd_kafka_topic_partition_list_add(assignment.get(), topic.constData(), m_spec.sourcePartition)->offset = first;
        if (rd_kafka_resp_err_t err = rd_kafka_assign(consumer.get(), assignment.get())) {
            m_result.error = QStringLiteral("cannot read %1: %2").arg(what, kafkaErrorText(err));
            return;
        }
        QElapsedTimer idle;
        idle.start();
        bool done = false;
        while (!done && !cancelled() && !deliveryFailed()) {
            MessagePtr msg(rd_kafka_consumer_poll(consumer.get(), 100));
            rd_kafka_poll(m_producer.get(), 0);
            if (!msg) {
                if (idle.elapsed() > m_spec.timeoutMs) {
                    m_result.error = QStringLiteral("reading %1 stalled at offset %2: nothing arrived within %3 s")
                                         .arg(what)
                                         .arg(m_nextOffset < 0 ? first : m_nextOffset)
                                         .arg(m_spec.timeoutMs / 1000.0);
                    break;
                }
                continue;
            }
            idle.restart();
            if (msg->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
                done = true; // the range ended in markers or compacted records
                continue;
            }
            if (msg->err) {
                if (msg->err == RD_KAFKA_RESP_ERR__TRANSPORT || msg->err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN)
                    continue; // librdkafka retries; the idle bound stops us
                m_result.error =
                    QStringLiteral("cannot read %1: %2").arg(what, utf8(rd_kafka_message_errstr(msg.get())));
                break;
            }
            if (msg->offset > last) {
                done = true;
                continue;
            }
            m_nextOffset = msg->offset + 1;
            rd_kafka_timestamp_type_t tsType = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
            const qint64 ts = rd_kafka_message_timestamp(msg.get(), &tsType);
            rd_kafka_headers_t *raw = nullptr;
            HeadersPtr headers;
            if (rd_kafka_message_detach_headers(msg.get(), &raw) == RD_KAFKA_RESP_ERR_NO_ERROR)
                headers.reset(raw);
            m_schemaIds.add(msg->key, msg->key_len);
            m_schemaIds.add(msg->payload, msg->len);
            if (!produce(targetPartition(msg->partition), msg->key, msg->key_len, msg->payload, msg->len,
                         tsType == RD_KAFKA_TIMESTAMP_NOT_AVAILABLE ? -1 : ts, std::move(headers), msg->offset))
                break;
            if (msg->offset >= last)
                done = true;
        }
        rd_kafka_assign(consumer.get(), nullptr);
        rd_kafka_consumer_close(consumer.get());
        if (done)
            m_result.requested = m_produced; // what the range really held
        m_result.schemaIds = m_schemaIds.ids();
    }

    void finish()
    {
        // Wait for every delivery report (bounded), or drop the rest on cancel/failure.
        QElapsedTimer flush;
        flush.start();
        const bool stop = cancelled() || !m_result.error.isEmpty();
        if (stop)
            rd_kafka_purge(m_producer.get(), RD_KAFKA_PURGE_F_QUEUE);
        auto waitMs = [this] { return cancelled() ? kCancelledFlushMs : m_spec.timeoutMs + 5000; };
        while (rd_kafka_outq_len(m_producer.get()) > 0 && flush.elapsed() < waitMs()) {
            if (!stop && cancelled())
                rd_kafka_purge(m_producer.get(), RD_KAFKA_PURGE_F_QUEUE);
            rd_kafka_poll(m_producer.get(), 50);
            report();
        }
        m_result.copied = m_delivery.acked.load();
        // Cut short, or before the range was known (nothing asked for yet).
        m_result.cancelled = cancelled() && (m_result.copied < m_result.requested || m_result.requested == 0);
        if (m_result.cancelled)
            m_result.unanswered = rd_kafka_outq_len(m_producer.get());
        if (m_result.error.isEmpty()) {
            std::lock_guard lock(m_delivery.mutex);
            if (!m_delivery.firstError.isEmpty())
                m_result.error = QStringLiteral("the target refused records (%1 of %2 written) to %3: %4")
                                     .arg(m_result.copied)
                                     .arg(m_result.requested)
                                     .arg(targetWhat(), m_delivery.firstError);
            else if (!m_result.cancelled && rd_kafka_outq_len(m_producer.get()) > 0)
                m_result.error = QStringLiteral("%1 records not acknowledged by %2 in time")
                                     .arg(rd_kafka_outq_len(m_producer.get()))
                                     .arg(targetWhat());
        }
        report(true);
        // Purge before the handle goes: rd_kafka_destroy would otherwise wait for in-flight records.
        rd_kafka_purge(m_producer.get(), RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
        rd_kafka_poll(m_producer.get(), 0);
    }

    const CopySpec &m_spec;
    const std::atomic_bool *m_cancel;
    const CopyProgress &m_progress;
    std::atomic_bool *m_writing;
    const CopySchemaIds &m_schemaIdsSeen;
    WireSchemaIdSet m_schemaIds;
    bool m_writingSaid = false;
    QElapsedTimer m_lastReport;
    DeliveryState m_delivery;
    KafkaPtr m_producer;
    int m_targetPartitions = 0;
    qint64 m_produced = 0;
    qint64 m_nextOffset = -1;
    CopyResult m_result;
};

} // namespace

QString CopyResult::summary(const CopySpec &spec) const
{
    const QString where = spec.target.alias.isEmpty() ? spec.target.bootstrap : spec.target.alias;
    if (!error.isEmpty())
        return error;
    if (cancelled && copied == 0 && unanswered == 0)
        return QStringLiteral("cancelled: nothing copied to %1 on %2").arg(spec.targetTopic, where);
    if (cancelled) {
        QString text = QStringLiteral("cancelled: copied %1 of %2 records to %3 on %4")
                           .arg(copied)
                           .arg(requested)
                           .arg(spec.targetTopic, where);
        if (unanswered > 0)
            text += QStringLiteral("; %1 more were sent without an answer and may still be written").arg(unanswered);
        return text;
    }
    return QStringLiteral("copied %1 record%2 to %3 on %4")
        .arg(copied)
        .arg(copied == 1 ? QString() : QStringLiteral("s"))
        .arg(spec.targetTopic, where);
}

CopyResult copyMessages(const CopySpec &spec, const std::atomic_bool *cancel, const CopyProgress &progress,
                        std::atomic_bool *writing, const CopySchemaIds &schemaIds)
{
    Copier copier(spec, cancel, progress, writing, schemaIds);
    return copier.run();
}

MessageCopyJob::MessageCopyJob(CopySpec spec, QObject *parent) : BackgroundJob(parent), m_spec(std::move(spec))
{
    static const bool registered = [] {
        qRegisterMetaType<CopyResult>("md::CopyResult");
        return true;
    }();
    Q_UNUSED(registered);
}

void MessageCopyJob::start()
{
    if (!beginRun())
        return;
    m_total = 0;
    m_writing = std::make_shared<std::atomic_bool>(false);
    // The copy sees the cancel flag between records (or at its next
    // connection round), purges what is queued and ends on its own.
    auto future = runTask([spec = m_spec, cancel = cancelFlag(), writing = m_writing, deliver = deliverer(this)] {
        const CopyResult result = copyMessages(
            spec, cancel.get(),
            [deliver](qint64 done, qint64 total) {
                deliver([done, total](MessageCopyJob *job) {
                    job->m_total = total;
                    Q_EMIT job->progress(done, total);
                });
            },
            writing.get(),
            [deliver](const QList<int> &ids) {
                deliver([ids](MessageCopyJob *job) { Q_EMIT job->schemaIdsSeen(ids); });
            });
        deliver([result](MessageCopyJob *job) {
            job->endRun();
            Q_EMIT job->finished(result);
        });
    });
    Q_UNUSED(future)
}

void MessageCopyJob::cancel()
{
    raiseCancel();
    // Set, then read: if the copy has not said it writes, it never will.
    if (!isRunning() || m_writing->load())
        return;
    endRun();
    CopyResult result;
    result.cancelled = true;
    result.requested = m_total;
    Q_EMIT finished(result);
}

} // namespace md
