#include "engine/acl/AclSyncRecords.h"

#include "engine/admin/AdminService.h"
#include "engine/core/KafkaError.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QJsonObject>

#include <vector>

namespace md {

namespace {

constexpr int kWriteTimeoutMs = 30000;

QByteArray toJson(const AclEntry &b)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("resourceType"), b.resourceType},
                                     {QStringLiteral("resourceName"), b.resourceName},
                                     {QStringLiteral("patternType"), b.patternType},
                                     {QStringLiteral("principal"), b.principal},
                                     {QStringLiteral("host"), b.host},
                                     {QStringLiteral("operation"), b.operation},
                                     {QStringLiteral("permission"), b.permission}})
        .toJson(QJsonDocument::Compact);
}

std::optional<AclEntry> fromJson(const QByteArray &value)
{
    const QJsonObject o = QJsonDocument::fromJson(value).object();
    if (o.isEmpty())
        return std::nullopt;
    const auto s = [&](const char *key) { return o.value(QLatin1String(key)).toString(); };
    QString ignored;
    return normalizedAcl({s("resourceType"), s("resourceName"), s("patternType"), s("principal"), s("host"),
                          s("operation"), s("permission")},
                         &ignored);
}

void onDelivery(rd_kafka_t *, const rd_kafka_message_t *m, void *)
{
    *static_cast<rd_kafka_resp_err_t *>(m->_private) = m->err;
}

} // namespace

AclSyncRecords::AclSyncRecords(ClusterConfig target, QString topic)
    : m_target(std::move(target)), m_topic(std::move(topic))
{
}

AclSyncRecords::~AclSyncRecords() = default;

bool AclSyncRecords::load(AdminService &target, QList<AclEntry> *made, QString *error)
{
    made->clear();
    const AdminResult<ClusterMetadata> md = target.metadata();
    if (!md.ok()) {
        *error = md.error;
        return false;
    }
    if (!md.value.topic(m_topic))
        return true; // nothing made yet
    m_topicReady = true;
    MessageQuery q;
    q.topic = m_topic;
    q.partition = 0;
    q.mode = MessageQuery::Mode::FromOffset;
    q.offset = 0;
    q.maxMessages = 1000000;
    q.timeoutMs = 30000;
    const AdminResult<QList<KafkaMessage>> records = target.readMessages(q);
    if (!records.ok()) {
        *error = QStringLiteral("cannot read %1: %2").arg(m_topic, records.error);
        return false;
    }
    // Compaction may not have run: the last record of a key decides.
    QHash<QString, std::optional<AclEntry>> last;
    QStringList order;
    for (const KafkaMessage &m : records.value) {
        if (!m.key)
            continue;
        const QString key = QString::fromUtf8(*m.key);
        if (!last.contains(key))
            order.append(key);
        last.insert(key, m.value ? fromJson(*m.value) : std::nullopt);
    }
    for (const QString &key : std::as_const(order)) {
        if (const std::optional<AclEntry> &b = last.value(key))
            made->append(*b);
    }
    return true;
}

bool AclSyncRecords::ensureTopic(AdminService &target, QString *error)
{
    if (m_topicReady)
        return true;
    const AdminResult<ClusterMetadata> md = target.metadata();
    if (md.ok() && md.value.topic(m_topic)) {
        m_topicReady = true;
        return true;
    }
    // One partition (the records of a key in order), compacted (the last per binding).
    const AdminResult<Done> done =
        target.createTopic({m_topic, 1, -1, {{QStringLiteral("cleanup.policy"), QStringLiteral("compact")}}});
    if (!done.ok() && done.kafkaError.code != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
        *error = QStringLiteral("cannot create %1 on the target: %2").arg(m_topic, done.error);
        return false;
    }
    m_topicReady = true;
    return true;
}

bool AclSyncRecords::write(AdminService &target, const QList<AclEntry> &bindings, bool made, QString *error)
{
    if (bindings.isEmpty())
        return true;
    if (!ensureTopic(target, error))
        return false;
    if (!m_producer) {
        ConfResult conf = makeKafkaConf(m_target, ClientRole::Producer,
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
    }
    const QByteArray topic = m_topic.toUtf8();
    std::vector<rd_kafka_resp_err_t> results(size_t(bindings.size()), RD_KAFKA_RESP_ERR__IN_PROGRESS);
    for (qsizetype i = 0; i < bindings.size(); ++i) {
        const QByteArray key = aclKey(bindings.at(i)).toUtf8();
        const QByteArray value = made ? toJson(bindings.at(i)) : QByteArray();
        const rd_kafka_resp_err_t err = rd_kafka_producev(
            m_producer.get(), RD_KAFKA_V_TOPIC(topic.constData()), RD_KAFKA_V_PARTITION(0),
            RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(key.constData(), size_t(key.size())),
            RD_KAFKA_V_VALUE(made ? const_cast<char *>(value.constData()) : nullptr, made ? size_t(value.size()) : 0),
            RD_KAFKA_V_OPAQUE(&results[size_t(i)]), RD_KAFKA_V_END);
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
                                                                           : kafkaErrorText(r));
            // Reports still to come point into `results`: wait them out before it goes.
            rd_kafka_flush(m_producer.get(), kWriteTimeoutMs);
            return false;
        }
    }
    return true;
}

} // namespace md
