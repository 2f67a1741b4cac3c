#include "engine/admin/AdminService.h"

#include "engine/admin/AdminServiceDetail.h"
#include "engine/schema/RegistryDecoders.h"

#include <QDeadlineTimer>
#include <QMap>
#include <QThread>

#include <algorithm>
#include <utility>

namespace md {

using admin_detail::errorText;
using admin_detail::utf8;

namespace {

// The first per-topic error of a topic result list, or empty.
QString topicResultsError(const rd_kafka_topic_result_t **results, size_t count)
{
    for (size_t i = 0; i < count; ++i) {
        if (rd_kafka_topic_result_error(results[i])) {
            QString msg = utf8(rd_kafka_topic_result_error_string(results[i]));
            if (msg.isEmpty())
                msg = kafkaErrorText(rd_kafka_topic_result_error(results[i]));
            return msg;
        }
    }
    return {};
}

} // namespace

QString configSourceName(ConfigSource source)
{
    switch (source) {
    case ConfigSource::Default: return QStringLiteral("default");
    case ConfigSource::Dynamic: return QStringLiteral("dynamic");
    case ConfigSource::DynamicBroker: return QStringLiteral("dynamic broker");
    case ConfigSource::Static: return QStringLiteral("static");
    case ConfigSource::Unknown: break;
    }
    return QStringLiteral("unknown");
}

QString groupStateName(GroupState state)
{
    switch (state) {
    case GroupState::PreparingRebalance: return QStringLiteral("PreparingRebalance");
    case GroupState::CompletingRebalance: return QStringLiteral("CompletingRebalance");
    case GroupState::Stable: return QStringLiteral("Stable");
    case GroupState::Dead: return QStringLiteral("Dead");
    case GroupState::Empty: return QStringLiteral("Empty");
    case GroupState::Assigning: return QStringLiteral("Assigning");
    case GroupState::Reconciling: return QStringLiteral("Reconciling");
    case GroupState::Unknown: break;
    }
    return QStringLiteral("Unknown");
}

QString groupTypeName(GroupType type)
{
    switch (type) {
    case GroupType::Classic: return QStringLiteral("classic");
    case GroupType::Consumer: return QStringLiteral("consumer");
    case GroupType::Share: return QStringLiteral("share");
    case GroupType::Streams: return QStringLiteral("streams");
    case GroupType::Unknown: break;
    }
    return {};
}

// --- lifecycle ------------------------------------------------------------------

std::unique_ptr<AdminService> AdminService::create(const ClusterConfig &config, QString *error, int timeoutMs,
                                                   std::shared_ptr<RegistryDecoders> decoders)
{
    std::unique_ptr<AdminService> self(new AdminService);
    self->m_config = config;
    self->m_decoders = decoders ? std::move(decoders) : std::make_shared<RegistryDecoders>(config.schemaRegistry);
    self->m_timeoutMs = qMax(1000, timeoutMs);
    self->m_probe = ProbeClient::create(config, error, qMin(self->m_timeoutMs, 10000));
    if (!self->m_probe)
        return nullptr;
    return self;
}

AdminService::~AdminService() = default;

std::shared_ptr<SchemaDecoderCache> AdminService::decoderCache()
{
    return m_decoders->cache();
}

rd_kafka_t *AdminService::groupOffsetsHandle(QString *error)
{
    if (!m_groupOffsetsProbe)
        m_groupOffsetsProbe = ProbeClient::createForGroupOffsets(m_config, error, qMin(m_timeoutMs, 10000));
    return m_groupOffsetsProbe ? m_groupOffsetsProbe->handle() : nullptr;
}

EventPtr AdminService::runAdmin(rd_kafka_admin_op_t op, const QString &what,
                                const std::function<void(rd_kafka_AdminOptions_t *, rd_kafka_queue_t *)> &call,
                                QString *error, rd_kafka_resp_err_t *code, rd_kafka_t *on)
{
    rd_kafka_t *handle = on ? on : rk();
    AdminOptionsPtr options(rd_kafka_AdminOptions_new(handle, op));
    char errstr[256];
    rd_kafka_AdminOptions_set_request_timeout(options.get(), m_timeoutMs, errstr, sizeof errstr);
    // Topic operations: let the controller finish before it answers, within our bound.
    if (op == RD_KAFKA_ADMIN_OP_CREATETOPICS || op == RD_KAFKA_ADMIN_OP_DELETETOPICS ||
        op == RD_KAFKA_ADMIN_OP_CREATEPARTITIONS)
        rd_kafka_AdminOptions_set_operation_timeout(options.get(), m_timeoutMs, errstr, sizeof errstr);
    QueuePtr queue(rd_kafka_queue_new(handle));
    call(options.get(), queue.get());
    // The request timeout bounds librdkafka; the margin covers its own bookkeeping.
    EventPtr event(rd_kafka_queue_poll(queue.get(), m_timeoutMs + 2000));
    if (!event) {
        if (code)
            *code = RD_KAFKA_RESP_ERR__TIMED_OUT;
        *error = describeFailure(what, RD_KAFKA_RESP_ERR__TIMED_OUT,
                                 QStringLiteral("no answer within %1 s").arg(m_timeoutMs / 1000.0));
        return nullptr;
    }
    if (rd_kafka_resp_err_t err = rd_kafka_event_error(event.get())) {
        if (code)
            *code = err;
        *error = describeFailure(what, err, utf8(rd_kafka_event_error_string(event.get())));
        return nullptr;
    }
    return event;
}

AdminResult<QList<ConfigEntry>> AdminService::describeConfigs(rd_kafka_ResourceType_t type, const QString &name,
                                                              const QString &what)
{
    using R = AdminResult<QList<ConfigEntry>>;
    ConfigResourcePtr res(rd_kafka_ConfigResource_new(type, name.toUtf8().constData()));
    QString error;
    EventPtr ev = runAdmin(
        RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS, what,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            rd_kafka_ConfigResource_t *arr[] = {res.get()};
            rd_kafka_DescribeConfigs(rk(), arr, 1, o, q);
        },
        &error);
    if (!ev)
        return R::failure(error);
    size_t count = 0;
    const rd_kafka_ConfigResource_t **resources =
        rd_kafka_DescribeConfigs_result_resources(rd_kafka_event_DescribeConfigs_result(ev.get()), &count);
    if (count < 1)
        return R::failure(describeFailure(what, RD_KAFKA_RESP_ERR__FAIL, QStringLiteral("empty answer")));
    if (rd_kafka_resp_err_t err = rd_kafka_ConfigResource_error(resources[0]))
        return R::failure(describeFailure(what, err, utf8(rd_kafka_ConfigResource_error_string(resources[0]))));
    size_t n = 0;
    const rd_kafka_ConfigEntry_t **entries = rd_kafka_ConfigResource_configs(resources[0], &n);
    // Sorted by name through a map: std::sort over ConfigEntry (std::optional<QString>
    // members) gets a false -Wmaybe-uninitialized from GCC 12 at -O2 in this file.
    QMultiMap<QString, ConfigEntry> byName;
    for (size_t i = 0; i < n; ++i) {
        ConfigEntry e = configEntryFrom(entries[i]);
        const QString key = e.name;
        byName.insert(key, std::move(e));
    }
    return {byName.values(), {}};
}

AdminResult<Done>
AdminService::topicRequest(rd_kafka_admin_op_t op, const QString &what,
                           const std::function<void(rd_kafka_AdminOptions_t *, rd_kafka_queue_t *)> &call,
                           const std::function<const rd_kafka_topic_result_t **(rd_kafka_event_t *, size_t *)> &results)
{
    QString error;
    EventPtr ev = runAdmin(op, what, call, &error);
    if (!ev)
        return AdminResult<Done>::failure(error);
    size_t n = 0;
    const rd_kafka_topic_result_t **topics = results(ev.get(), &n);
    if (QString e = topicResultsError(topics, n); !e.isEmpty())
        return AdminResult<Done>::failure(what + QStringLiteral(": ") + e);
    return {};
}

// --- cluster and topics ------------------------------------------------------------

AdminResult<ClusterMetadata> AdminService::metadata()
{
    QString error;
    std::optional<ClusterMetadata> md = m_probe->fetchMetadata(m_timeoutMs, false, &error);
    if (!md)
        return AdminResult<ClusterMetadata>::failure(error);
    return {*md, {}};
}

AdminResult<QList<ConfigEntry>> AdminService::describeTopicConfigs(const QString &topic)
{
    if (topic.isEmpty())
        return AdminResult<QList<ConfigEntry>>::failure(QStringLiteral("describe configs: no topic name given"));
    return describeConfigs(RD_KAFKA_RESOURCE_TOPIC, topic,
                           QStringLiteral("cannot describe the configs of topic \"%1\"").arg(topic));
}

AdminResult<Done> AdminService::createTopic(const NewTopicSpec &spec)
{
    using R = AdminResult<Done>;
    if (spec.name.isEmpty())
        return R::failure(QStringLiteral("create topic: no topic name given"));
    if (spec.partitions < 1)
        return R::failure(QStringLiteral("create topic \"%1\": partitions must be at least 1, not %2")
                              .arg(spec.name)
                              .arg(spec.partitions));
    if (spec.replicationFactor < 1 && spec.replicationFactor != -1)
        return R::failure(QStringLiteral("create topic \"%1\": replication factor must be at least 1, not %2")
                              .arg(spec.name)
                              .arg(spec.replicationFactor));
    const QString what = QStringLiteral("cannot create topic \"%1\"").arg(spec.name);
    char errstr[512];
    NewTopicPtr nt(rd_kafka_NewTopic_new(spec.name.toUtf8().constData(), spec.partitions, spec.replicationFactor,
                                         errstr, sizeof errstr));
    if (!nt)
        return R::failure(what + QStringLiteral(": ") + utf8(errstr));
    for (auto it = spec.configs.cbegin(); it != spec.configs.cend(); ++it) {
        if (rd_kafka_NewTopic_set_config(nt.get(), it.key().toUtf8().constData(), it.value().toUtf8().constData()))
            return R::failure(what + QStringLiteral(": invalid config ") + it.key());
    }
    AdminResult<Done> created = topicRequest(
        RD_KAFKA_ADMIN_OP_CREATETOPICS, what,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            rd_kafka_NewTopic_t *arr[] = {nt.get()};
            rd_kafka_CreateTopics(rk(), arr, 1, o, q);
        },
        [](rd_kafka_event_t *ev, size_t *n) {
            return rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev), n);
        });
    if (created.ok())
        waitUntilListed(spec.name);
    return created;
}

// Kafka answers CreateTopics once the controller has the topic; a broker applies it to its own
// metadata a little later and until then answers requests for the topic (its configs, its
// offsets) with UNKNOWN_TOPIC_OR_PARTITION. "Created" should mean "usable": the next request
// of the same client runs after this. Bounded by the client's timeout; the topic was created
// either way, so running out of time is no failure.
void AdminService::waitUntilListed(const QString &topic)
{
    TopicPtr handle(rd_kafka_topic_new(rk(), topic.toUtf8().constData(), nullptr));
    if (!handle)
        return;
    QDeadlineTimer deadline(m_timeoutMs);
    while (!deadline.hasExpired()) {
        const rd_kafka_metadata_t *raw = nullptr;
        const int waitMs = int(std::clamp<qint64>(deadline.remainingTime(), 100, 1000));
        if (rd_kafka_metadata(rk(), 0, handle.get(), &raw, waitMs) == RD_KAFKA_RESP_ERR_NO_ERROR) {
            const MetadataPtr md(raw);
            if (md->topic_cnt == 1 && md->topics[0].err == RD_KAFKA_RESP_ERR_NO_ERROR &&
                md->topics[0].partition_cnt > 0)
                return;
        }
        QThread::msleep(50);
    }
}

AdminResult<Done> AdminService::deleteTopic(const QString &topic)
{
    using R = AdminResult<Done>;
    if (topic.isEmpty())
        return R::failure(QStringLiteral("delete topic: no topic name given"));
    const QString what = QStringLiteral("cannot delete topic \"%1\"").arg(topic);
    DeleteTopicPtr dt(rd_kafka_DeleteTopic_new(topic.toUtf8().constData()));
    return topicRequest(
        RD_KAFKA_ADMIN_OP_DELETETOPICS, what,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            rd_kafka_DeleteTopic_t *arr[] = {dt.get()};
            rd_kafka_DeleteTopics(rk(), arr, 1, o, q);
        },
        [](rd_kafka_event_t *ev, size_t *n) {
            return rd_kafka_DeleteTopics_result_topics(rd_kafka_event_DeleteTopics_result(ev), n);
        });
}

AdminResult<Done> AdminService::addPartitions(const QString &topic, int newTotal)
{
    using R = AdminResult<Done>;
    const QString what = QStringLiteral("cannot add partitions to topic \"%1\"").arg(topic);
    if (topic.isEmpty() || newTotal < 1)
        return R::failure(what + QStringLiteral(": a topic name and a new total of at least 1 are needed"));
    char errstr[512];
    NewPartitionsPtr np(
        rd_kafka_NewPartitions_new(topic.toUtf8().constData(), size_t(newTotal), errstr, sizeof errstr));
    if (!np)
        return R::failure(what + QStringLiteral(": ") + utf8(errstr));
    return topicRequest(
        RD_KAFKA_ADMIN_OP_CREATEPARTITIONS, what,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            rd_kafka_NewPartitions_t *arr[] = {np.get()};
            rd_kafka_CreatePartitions(rk(), arr, 1, o, q);
        },
        [](rd_kafka_event_t *ev, size_t *n) {
            return rd_kafka_CreatePartitions_result_topics(rd_kafka_event_CreatePartitions_result(ev), n);
        });
}

AdminResult<Done> AdminService::alterTopicConfigs(const QString &topic,
                                                  const QMap<QString, std::optional<QString>> &changes)
{
    using R = AdminResult<Done>;
    const QString what = QStringLiteral("cannot change the configs of topic \"%1\"").arg(topic);
    // IncrementalAlterConfigs (KIP-339): only the named configs change, on the
    // broker, atomically; a change someone else makes meanwhile is kept, and
    // sensitive configs whose values we cannot read are left alone.
    if (changes.isEmpty())
        return {};
    ConfigResourcePtr res(rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, topic.toUtf8().constData()));
    for (auto it = changes.cbegin(); it != changes.cend(); ++it) {
        if (it.key().trimmed().isEmpty())
            return R::failure(what + QStringLiteral(": empty config name"));
        const QByteArray name = it.key().toUtf8();
        const QByteArray value = it.value() ? it.value()->toUtf8() : QByteArray();
        ErrorPtr added(rd_kafka_ConfigResource_add_incremental_config(res.get(), name.constData(),
                                                                      it.value() ? RD_KAFKA_ALTER_CONFIG_OP_TYPE_SET
                                                                                 : RD_KAFKA_ALTER_CONFIG_OP_TYPE_DELETE,
                                                                      it.value() ? value.constData() : nullptr));
        if (added)
            return R::failure(what + QStringLiteral(": ") + it.key() + QStringLiteral(": ") + errorText(added.get()));
    }
    QString error;
    EventPtr ev = runAdmin(
        RD_KAFKA_ADMIN_OP_INCREMENTALALTERCONFIGS, what,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            rd_kafka_ConfigResource_t *arr[] = {res.get()};
            rd_kafka_IncrementalAlterConfigs(rk(), arr, 1, o, q);
        },
        &error);
    if (!ev)
        return R::failure(error);
    size_t n = 0;
    const rd_kafka_ConfigResource_t **resources =
        rd_kafka_IncrementalAlterConfigs_result_resources(rd_kafka_event_IncrementalAlterConfigs_result(ev.get()), &n);
    for (size_t i = 0; i < n; ++i) {
        if (rd_kafka_resp_err_t err = rd_kafka_ConfigResource_error(resources[i]))
            return R::failure(describeFailure(what, err, utf8(rd_kafka_ConfigResource_error_string(resources[i]))));
    }
    return {};
}

} // namespace md
