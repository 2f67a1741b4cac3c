#include "engine/admin/KeyedRecords.h"

#include "engine/admin/AdminService.h"
#include "engine/core/KafkaError.h"

#include <QDeadlineTimer>
#include <QHash>

#include <vector>

namespace md {

namespace {

constexpr int kWriteTimeoutMs = 30000;

void onDelivery(rd_kafka_t *, const rd_kafka_message_t *m, void *)
{
    // Delivered without an offset may be lost (writeConfirmed): not written.
    *static_cast<rd_kafka_resp_err_t *>(m->_private) =
        writeConfirmed(m) ? RD_KAFKA_RESP_ERR_NO_ERROR : (m->err ? m->err : RD_KAFKA_RESP_ERR__INCONSISTENT);
}

} // namespace

KeyedRecords::KeyedRecords(ClusterConfig cluster, QString topic)
    : m_cluster(std::move(cluster)), m_topic(std::move(topic))
{
}

KeyedRecords::~KeyedRecords() = default;

bool KeyedRecords::load(AdminService &admin, QList<Record> *records, QString *error)
{
    records->clear();
    const AdminResult<ClusterMetadata> md = admin.metadata();
    if (!md.ok()) {
        *error = md.error;
        return false;
    }
    if (!md.value.topic(m_topic))
        return true; // nothing written yet
    m_topicReady = true;
    MessageQuery q;
    q.topic = m_topic;
    q.partition = 0;
    q.mode = MessageQuery::Mode::FromOffset;
    q.offset = 0;
    q.maxMessages = 1000000;
    q.timeoutMs = 30000;
    const AdminResult<QList<KafkaMessage>> read = admin.readMessages(q);
    if (!read.ok()) {
        *error = QStringLiteral("cannot read %1: %2").arg(m_topic, read.error);
        return false;
    }
    QHash<QByteArray, std::optional<QByteArray>> last;
    QList<QByteArray> order;
    for (const KafkaMessage &m : read.value) {
        if (!m.key)
            continue;
        if (!last.contains(*m.key))
            order.append(*m.key);
        last.insert(*m.key, m.value && !m.value->isEmpty() ? m.value : std::nullopt);
    }
    for (const QByteArray &key : std::as_const(order)) {
        if (const std::optional<QByteArray> &value = last.value(key))
            records->append({key, value});
    }
    return true;
}

bool KeyedRecords::ensureTopic(AdminService &admin, QString *error)
{
    if (m_topicReady)
        return true;
    const AdminResult<ClusterMetadata> md = admin.metadata();
    if (md.ok() && md.value.topic(m_topic)) {
        m_topicReady = true;
        return true;
    }
    // One partition (the records of a key in order), compacted (the last per key).
    const AdminResult<Done> done =
        admin.createTopic({m_topic, 1, -1, {{QStringLiteral("cleanup.policy"), QStringLiteral("compact")}}});
    if (!done.ok() && done.kafkaError.code != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
        *error = QStringLiteral("cannot create %1 on %2: %3")
                     .arg(m_topic, m_cluster.alias.isEmpty() ? m_cluster.bootstrap : m_cluster.alias, done.error);
        return false;
    }
    m_topicReady = true;
    return true;
}

bool KeyedRecords::ensureProducer(QString *error)
{
    if (m_producer)
        return true;
    ConfResult conf = makeKafkaConf(m_cluster, ClientRole::Producer,
                                    {{QStringLiteral("acks"), QStringLiteral("all")},
                                     {QStringLiteral("enable.idempotence"), QStringLiteral("true")},
                                     {QStringLiteral("message.timeout.ms"), QString::number(kWriteTimeoutMs)}});
    if (!conf.conf) {
        *error = QStringLiteral("invalid client setting ") + conf.error;
        return false;
    }
    rd_kafka_conf_set_dr_msg_cb(conf.conf.get(), &onDelivery);
    rd_kafka_conf_set_log_cb(conf.conf.get(), [](const rd_kafka_t *, int, const char *, const char *) {});
    char errstr[512];
    m_producer.reset(rd_kafka_new(RD_KAFKA_PRODUCER, conf.conf.get(), errstr, sizeof errstr));
    if (!m_producer) {
        *error = QString::fromUtf8(errstr);
        return false;
    }
    conf.conf.release(); // rd_kafka_new took it
    return true;
}

bool KeyedRecords::write(AdminService &admin, const QList<Record> &records, QString *error)
{
    if (records.isEmpty())
        return true;
    if (!ensureTopic(admin, error) || !ensureProducer(error))
        return false;
    const QByteArray topic = m_topic.toUtf8();
    std::vector<rd_kafka_resp_err_t> results(size_t(records.size()), RD_KAFKA_RESP_ERR__IN_PROGRESS);
    for (qsizetype i = 0; i < records.size(); ++i) {
        const Record &r = records.at(i);
        // The macros cast their arguments: computed first.
        char *value = r.value ? const_cast<char *>(r.value->constData()) : nullptr;
        const size_t valueSize = r.value ? size_t(r.value->size()) : 0;
        const rd_kafka_resp_err_t err = rd_kafka_producev(
            m_producer.get(), RD_KAFKA_V_TOPIC(topic.constData()), RD_KAFKA_V_PARTITION(0),
            RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(r.key.constData(), size_t(r.key.size())),
            RD_KAFKA_V_VALUE(value, valueSize), RD_KAFKA_V_OPAQUE(&results[size_t(i)]), RD_KAFKA_V_END);
        if (err)
            results[size_t(i)] = err;
    }
    QDeadlineTimer deadline(kWriteTimeoutMs + 5000);
    while (rd_kafka_outq_len(m_producer.get()) > 0 && !deadline.hasExpired())
        rd_kafka_poll(m_producer.get(), 100);
    for (const rd_kafka_resp_err_t r : results) {
        if (r) {
            *error = QStringLiteral("cannot record in %1: %2")
                         .arg(m_topic, r == RD_KAFKA_RESP_ERR__IN_PROGRESS ? QStringLiteral("not acknowledged in time")
                                       : r == RD_KAFKA_RESP_ERR__INCONSISTENT
                                           ? QStringLiteral("acknowledged without an offset, so the write is not "
                                                            "confirmed; run it again")
                                           : kafkaErrorText(r));
            // Reports still to come point into `results`: wait them out before it goes.
            rd_kafka_flush(m_producer.get(), kWriteTimeoutMs);
            return false;
        }
    }
    return true;
}

} // namespace md
