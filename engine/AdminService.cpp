#include "AdminService.h"

#include <QElapsedTimer>
#include <QSet>

#include <algorithm>
#include <tuple>
#include <vector>

namespace md {

namespace {

QString utf8(const char *s)
{
    return s ? QString::fromUtf8(s) : QString();
}

QString errorText(const rd_kafka_error_t *e)
{
    return e ? utf8(rd_kafka_error_string(e)) : QString();
}

GroupState mapState(rd_kafka_consumer_group_state_t s)
{
    switch (s) {
    case RD_KAFKA_CONSUMER_GROUP_STATE_PREPARING_REBALANCE:
        return GroupState::PreparingRebalance;
    case RD_KAFKA_CONSUMER_GROUP_STATE_COMPLETING_REBALANCE:
        return GroupState::CompletingRebalance;
    case RD_KAFKA_CONSUMER_GROUP_STATE_STABLE:
        return GroupState::Stable;
    case RD_KAFKA_CONSUMER_GROUP_STATE_DEAD:
        return GroupState::Dead;
    case RD_KAFKA_CONSUMER_GROUP_STATE_EMPTY:
        return GroupState::Empty;
    default:
        return GroupState::Unknown;
    }
}

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

QString groupResultsError(const rd_kafka_group_result_t **results, size_t count)
{
    for (size_t i = 0; i < count; ++i) {
        if (const rd_kafka_error_t *e = rd_kafka_group_result_error(results[i]))
            return errorText(e);
        if (const rd_kafka_topic_partition_list_t *parts = rd_kafka_group_result_partitions(results[i])) {
            for (int p = 0; p < parts->cnt; ++p) {
                if (parts->elems[p].err)
                    return utf8(parts->elems[p].topic) + QStringLiteral("[") + QString::number(parts->elems[p].partition)
                        + QStringLiteral("]: ") + kafkaErrorText(parts->elems[p].err);
            }
        }
    }
    return {};
}

// A consumer group as DescribeConsumerGroups answers it, members and assignments sorted.
ConsumerGroupInfo groupFromDescription(const rd_kafka_ConsumerGroupDescription_t *d)
{
    ConsumerGroupInfo g;
    g.groupId = utf8(rd_kafka_ConsumerGroupDescription_group_id(d));
    if (const rd_kafka_error_t *e = rd_kafka_ConsumerGroupDescription_error(d))
        g.error = errorText(e);
    g.state = mapState(rd_kafka_ConsumerGroupDescription_state(d));
    g.protocol = utf8(rd_kafka_ConsumerGroupDescription_partition_assignor(d));
    g.simple = rd_kafka_ConsumerGroupDescription_is_simple_consumer_group(d);
    if (const rd_kafka_Node_t *node = rd_kafka_ConsumerGroupDescription_coordinator(d))
        g.coordinator = rd_kafka_Node_id(node);
    const size_t members = rd_kafka_ConsumerGroupDescription_member_count(d);
    for (size_t m = 0; m < members; ++m) {
        const rd_kafka_MemberDescription_t *md = rd_kafka_ConsumerGroupDescription_member(d, m);
        GroupMember member;
        member.memberId = utf8(rd_kafka_MemberDescription_consumer_id(md));
        member.clientId = utf8(rd_kafka_MemberDescription_client_id(md));
        member.host = utf8(rd_kafka_MemberDescription_host(md));
        member.groupInstanceId = utf8(rd_kafka_MemberDescription_group_instance_id(md));
        if (const rd_kafka_MemberAssignment_t *a = rd_kafka_MemberDescription_assignment(md)) {
            if (const rd_kafka_topic_partition_list_t *parts = rd_kafka_MemberAssignment_partitions(a)) {
                for (int p = 0; p < parts->cnt; ++p)
                    member.assignment.append({utf8(parts->elems[p].topic), parts->elems[p].partition});
            }
        }
        std::sort(member.assignment.begin(), member.assignment.end());
        g.members.append(std::move(member));
    }
    std::sort(g.members.begin(), g.members.end(),
              [](const GroupMember &a, const GroupMember &b) { return a.memberId < b.memberId; });
    return g;
}

QString noAuthorizer()
{
    return QStringLiteral("ACLs are not available: security is disabled on this cluster "
                          "(no authorizer is configured on the brokers)");
}

std::optional<QByteArray> bytes(const void *data, size_t size)
{
    if (!data)
        return std::nullopt;
    return QByteArray(static_cast<const char *>(data), qsizetype(size));
}

} // namespace

QString configSourceName(ConfigSource source)
{
    switch (source) {
    case ConfigSource::Default:
        return QStringLiteral("default");
    case ConfigSource::Dynamic:
        return QStringLiteral("dynamic");
    case ConfigSource::DynamicBroker:
        return QStringLiteral("dynamic broker");
    case ConfigSource::Static:
        return QStringLiteral("static");
    case ConfigSource::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QString groupStateName(GroupState state)
{
    switch (state) {
    case GroupState::PreparingRebalance:
        return QStringLiteral("PreparingRebalance");
    case GroupState::CompletingRebalance:
        return QStringLiteral("CompletingRebalance");
    case GroupState::Stable:
        return QStringLiteral("Stable");
    case GroupState::Dead:
        return QStringLiteral("Dead");
    case GroupState::Empty:
        return QStringLiteral("Empty");
    case GroupState::Unknown:
        break;
    }
    return QStringLiteral("Unknown");
}

// --- lifecycle ------------------------------------------------------------------

std::unique_ptr<AdminService> AdminService::create(const ClusterConfig &config, QString *error, int timeoutMs)
{
    std::unique_ptr<AdminService> self(new AdminService);
    self->m_config = config;
    self->m_timeoutMs = qMax(1000, timeoutMs);
    self->m_probe = ProbeClient::create(config, error, qMin(self->m_timeoutMs, 10000));
    if (!self->m_probe)
        return nullptr;
    return self;
}

AdminService::~AdminService() = default;

EventPtr AdminService::runAdmin(rd_kafka_admin_op_t op, const QString &what,
                                const std::function<void(rd_kafka_AdminOptions_t *, rd_kafka_queue_t *)> &call,
                                QString *error, rd_kafka_resp_err_t *code)
{
    AdminOptionsPtr options(rd_kafka_AdminOptions_new(rk(), op));
    char errstr[256];
    rd_kafka_AdminOptions_set_request_timeout(options.get(), m_timeoutMs, errstr, sizeof errstr);
    // Topic operations: let the controller finish before it answers, within our bound.
    if (op == RD_KAFKA_ADMIN_OP_CREATETOPICS || op == RD_KAFKA_ADMIN_OP_DELETETOPICS
        || op == RD_KAFKA_ADMIN_OP_CREATEPARTITIONS)
        rd_kafka_AdminOptions_set_operation_timeout(options.get(), m_timeoutMs, errstr, sizeof errstr);
    QueuePtr queue(rd_kafka_queue_new(rk()));
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
    EventPtr ev = runAdmin(RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS, what,
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
    QList<ConfigEntry> out;
    out.reserve(qsizetype(n));
    for (size_t i = 0; i < n; ++i)
        out.append(configEntryFrom(entries[i]));
    std::sort(out.begin(), out.end(), [](const ConfigEntry &a, const ConfigEntry &b) { return a.name < b.name; });
    return {out, {}};
}

AdminResult<Done> AdminService::topicRequest(
    rd_kafka_admin_op_t op, const QString &what,
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
                              .arg(spec.name).arg(spec.partitions));
    if (spec.replicationFactor < 1 && spec.replicationFactor != -1)
        return R::failure(QStringLiteral("create topic \"%1\": replication factor must be at least 1, not %2")
                              .arg(spec.name).arg(spec.replicationFactor));
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
    return topicRequest(
        RD_KAFKA_ADMIN_OP_CREATETOPICS, what,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            rd_kafka_NewTopic_t *arr[] = {nt.get()};
            rd_kafka_CreateTopics(rk(), arr, 1, o, q);
        },
        [](rd_kafka_event_t *ev, size_t *n) {
            return rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev), n);
        });
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
    NewPartitionsPtr np(rd_kafka_NewPartitions_new(topic.toUtf8().constData(), size_t(newTotal), errstr, sizeof errstr));
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
        ErrorPtr added(rd_kafka_ConfigResource_add_incremental_config(
            res.get(), name.constData(),
            it.value() ? RD_KAFKA_ALTER_CONFIG_OP_TYPE_SET : RD_KAFKA_ALTER_CONFIG_OP_TYPE_DELETE,
            it.value() ? value.constData() : nullptr));
        if (added)
            return R::failure(what + QStringLiteral(": ") + it.key() + QStringLiteral(": ") + errorText(added.get()));
    }
    QString error;
    EventPtr ev = runAdmin(RD_KAFKA_ADMIN_OP_INCREMENTALALTERCONFIGS, what,
                           [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
                               rd_kafka_ConfigResource_t *arr[] = {res.get()};
                               rd_kafka_IncrementalAlterConfigs(rk(), arr, 1, o, q);
                           },
                           &error);
    if (!ev)
        return R::failure(error);
    size_t n = 0;
    const rd_kafka_ConfigResource_t **resources = rd_kafka_IncrementalAlterConfigs_result_resources(
        rd_kafka_event_IncrementalAlterConfigs_result(ev.get()), &n);
    for (size_t i = 0; i < n; ++i) {
        if (rd_kafka_resp_err_t err = rd_kafka_ConfigResource_error(resources[i]))
            return R::failure(describeFailure(what, err, utf8(rd_kafka_ConfigResource_error_string(resources[i]))));
    }
    return {};
}

// --- consumer groups -----------------------------------------------------------

AdminResult<QList<ConsumerGroupInfo>> AdminService::consumerGroups()
{
    using R = AdminResult<QList<ConsumerGroupInfo>>;
    const QString what = QStringLiteral("cannot list consumer groups");
    QString error;
    EventPtr ev = runAdmin(RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPS, what,
                           [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
                               rd_kafka_ListConsumerGroups(rk(), o, q);
                           },
                           &error);
    if (!ev)
        return R::failure(error);
    const auto *listed = rd_kafka_event_ListConsumerGroups_result(ev.get());
    size_t errCount = 0;
    const rd_kafka_error_t **errors = rd_kafka_ListConsumerGroups_result_errors(listed, &errCount);
    size_t n = 0;
    const rd_kafka_ConsumerGroupListing_t **groups = rd_kafka_ListConsumerGroups_result_valid(listed, &n);
    if (n == 0 && errCount > 0)
        return R::failure(what + QStringLiteral(": ") + errorText(errors[0]));
    QList<QByteArray> ids;
    for (size_t i = 0; i < n; ++i)
        ids.append(QByteArray(rd_kafka_ConsumerGroupListing_group_id(groups[i])));
    ev.reset();
    QList<ConsumerGroupInfo> out;
    if (ids.isEmpty())
        return {out, {}};
    std::vector<const char *> raw;
    for (const QByteArray &id : ids)
        raw.push_back(id.constData());
    EventPtr dev = runAdmin(RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS, QStringLiteral("cannot describe consumer groups"),
                            [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
                                rd_kafka_DescribeConsumerGroups(rk(), raw.data(), raw.size(), o, q);
                            },
                            &error);
    if (!dev)
        return R::failure(error);
    size_t dn = 0;
    const rd_kafka_ConsumerGroupDescription_t **descs =
        rd_kafka_DescribeConsumerGroups_result_groups(rd_kafka_event_DescribeConsumerGroups_result(dev.get()), &dn);
    for (size_t i = 0; i < dn; ++i)
        out.append(groupFromDescription(descs[i]));
    std::sort(out.begin(), out.end(),
              [](const ConsumerGroupInfo &a, const ConsumerGroupInfo &b) { return a.groupId < b.groupId; });
    return {out, {}};
}

AdminResult<ConsumerGroupInfo> AdminService::describeGroup(const QString &groupId)
{
    using R = AdminResult<ConsumerGroupInfo>;
    const QString what = QStringLiteral("cannot describe consumer group \"%1\"").arg(groupId);
    if (groupId.isEmpty())
        return R::failure(QStringLiteral("describe group: no group id given"));
    const QByteArray id = groupId.toUtf8();
    const char *ids[] = {id.constData()};
    QString error;
    EventPtr ev = runAdmin(RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS, what,
                           [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
                               rd_kafka_DescribeConsumerGroups(rk(), ids, 1, o, q);
                           },
                           &error);
    if (!ev)
        return R::failure(error);
    size_t n = 0;
    const rd_kafka_ConsumerGroupDescription_t **descs =
        rd_kafka_DescribeConsumerGroups_result_groups(rd_kafka_event_DescribeConsumerGroups_result(ev.get()), &n);
    if (n < 1)
        return R::failure(what + QStringLiteral(": empty answer"));
    const rd_kafka_ConsumerGroupDescription_t *d = descs[0];
    if (const rd_kafka_error_t *e = rd_kafka_ConsumerGroupDescription_error(d))
        return R::failure(what + QStringLiteral(": ") + errorText(e));
    ConsumerGroupInfo g = groupFromDescription(d);
    g.groupId = groupId;
    return {g, {}};
}

bool AdminService::partitionsOf(const QStringList &topics, QMap<QString, QList<int>> *out, QString *error)
{
    if (topics.isEmpty())
        return true;
    AdminResult<ClusterMetadata> md = metadata();
    if (!md.ok()) {
        *error = md.error;
        return false;
    }
    for (const QString &t : topics) {
        if (const TopicInfo *info = md.value.topic(t)) {
            QList<int> ids;
            for (const PartitionInfo &p : info->partitions)
                ids.append(p.id);
            out->insert(t, ids);
        }
    }
    return true;
}

bool AdminService::offsetsAt(const QList<TopicPartitionRef> &parts, qint64 sentinelOrTimestamp,
                             QMap<TopicPartitionRef, qint64> *out, QString *error)
{
    if (parts.isEmpty())
        return true;
    PartitionListPtr list(rd_kafka_topic_partition_list_new(int(parts.size())));
    for (const TopicPartitionRef &p : parts)
        rd_kafka_topic_partition_list_add(list.get(), p.topic.toUtf8().constData(), p.partition)->offset =
            sentinelOrTimestamp;
    // ListOffsets: -2 is the earliest offset, -1 the latest, otherwise the first
    // record at or after the timestamp (-1 when there is none).
    if (rd_kafka_resp_err_t err = rd_kafka_offsets_for_times(rk(), list.get(), m_timeoutMs)) {
        *error = describeFailure(QStringLiteral("cannot read partition offsets"), err);
        return false;
    }
    for (int i = 0; i < list->cnt; ++i) {
        const rd_kafka_topic_partition_t &e = list->elems[i];
        if (e.err) {
            *error = describeFailure(QStringLiteral("cannot read the offsets of %1[%2]").arg(utf8(e.topic)).arg(e.partition),
                                     e.err);
            return false;
        }
        out->insert({utf8(e.topic), e.partition}, e.offset);
    }
    return true;
}

AdminResult<QList<GroupPartitionOffset>> AdminService::groupOffsets(const QString &groupId)
{
    using R = AdminResult<QList<GroupPartitionOffset>>;
    const QString what = QStringLiteral("cannot read the committed offsets of group \"%1\"").arg(groupId);
    if (groupId.isEmpty())
        return R::failure(QStringLiteral("group offsets: no group id given"));
    const QByteArray id = groupId.toUtf8();
    // No partition list: the broker answers every partition the group committed.
    std::unique_ptr<rd_kafka_ListConsumerGroupOffsets_t, KafkaDeleter> req(
        rd_kafka_ListConsumerGroupOffsets_new(id.constData(), nullptr));
    QString error;
    EventPtr ev = runAdmin(RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS, what,
                           [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
                               rd_kafka_ListConsumerGroupOffsets_t *arr[] = {req.get()};
                               rd_kafka_ListConsumerGroupOffsets(rk(), arr, 1, o, q);
                           },
                           &error);
    if (!ev)
        return R::failure(error);
    size_t n = 0;
    const rd_kafka_group_result_t **groups =
        rd_kafka_ListConsumerGroupOffsets_result_groups(rd_kafka_event_ListConsumerGroupOffsets_result(ev.get()), &n);
    QMap<TopicPartitionRef, GroupPartitionOffset> rows;
    QSet<QString> topics;
    for (size_t g = 0; g < n; ++g) {
        if (const rd_kafka_error_t *e = rd_kafka_group_result_error(groups[g]))
            return R::failure(what + QStringLiteral(": ") + errorText(e));
        const rd_kafka_topic_partition_list_t *parts = rd_kafka_group_result_partitions(groups[g]);
        for (int i = 0; parts && i < parts->cnt; ++i) {
            const rd_kafka_topic_partition_t &e = parts->elems[i];
            GroupPartitionOffset row;
            row.topic = utf8(e.topic);
            row.partition = e.partition;
            row.committed = e.err || e.offset < 0 ? -1 : e.offset;
            if (e.metadata && e.metadata_size > 0)
                row.metadata = QString::fromUtf8(static_cast<const char *>(e.metadata), qsizetype(e.metadata_size));
            topics.insert(row.topic);
            rows.insert({row.topic, row.partition}, row);
        }
    }
    // Partitions assigned to members count too, committed or not.
    AdminResult<ConsumerGroupInfo> desc = describeGroup(groupId);
    if (desc.ok()) {
        for (const GroupMember &m : desc.value.members) {
            for (const TopicPartitionRef &tp : m.assignment)
                topics.insert(tp.topic);
        }
    }
    // Every partition of those topics, so one without a commit shows as "none".
    QMap<QString, QList<int>> partitions;
    if (!partitionsOf(QStringList(topics.cbegin(), topics.cend()), &partitions, &error))
        return R::failure(what + QStringLiteral(": ") + error);
    for (auto it = partitions.cbegin(); it != partitions.cend(); ++it) {
        for (int p : it.value()) {
            const TopicPartitionRef key{it.key(), p};
            if (!rows.contains(key))
                rows.insert(key, GroupPartitionOffset{it.key(), p, -1, -1, {}});
        }
    }
    QMap<TopicPartitionRef, qint64> ends;
    // End offsets are a nicety: committed offsets without them are still an answer.
    QString endError;
    if (offsetsAt(rows.keys(), -1, &ends, &endError)) {
        for (auto it = rows.begin(); it != rows.end(); ++it)
            it->endOffset = ends.value(it.key(), -1);
    }
    return {rows.values(), {}};
}

AdminResult<QList<GroupPartitionOffset>> AdminService::resetGroupOffsets(const QString &groupId,
                                                                         const OffsetReset &reset)
{
    using R = AdminResult<QList<GroupPartitionOffset>>;
    const QString what = QStringLiteral("cannot reset the offsets of group \"%1\"").arg(groupId);
    AdminResult<ConsumerGroupInfo> desc = describeGroup(groupId);
    if (!desc.ok())
        return R::failure(desc.error);
    const GroupState state = desc.value.state;
    if (state != GroupState::Empty && state != GroupState::Dead) {
        return R::failure(what + QStringLiteral(": the group is %1 with %2 active member(s); offsets can only be "
                                                "reset while it has no members: stop its consumers first")
                                     .arg(groupStateName(state))
                                     .arg(desc.value.members.size()));
    }
    QList<TopicPartitionRef> targets = reset.partitions;
    if (targets.isEmpty() && reset.mode == OffsetReset::Mode::Explicit)
        targets = reset.explicitOffsets.keys();
    if (targets.isEmpty()) {
        AdminResult<QList<GroupPartitionOffset>> current = groupOffsets(groupId);
        if (!current.ok())
            return R::failure(current.error);
        for (const GroupPartitionOffset &o : current.value)
            targets.append({o.topic, o.partition});
    }
    if (targets.isEmpty())
        return R::failure(what + QStringLiteral(": the group has no committed offsets and no partitions were given"));
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());

    QString error;
    QMap<TopicPartitionRef, qint64> low, high, wanted;
    if (!offsetsAt(targets, -2, &low, &error) || !offsetsAt(targets, -1, &high, &error))
        return R::failure(what + QStringLiteral(": ") + error);
    switch (reset.mode) {
    case OffsetReset::Mode::Earliest:
        wanted = low;
        break;
    case OffsetReset::Mode::Latest:
        wanted = high;
        break;
    case OffsetReset::Mode::Timestamp:
        if (reset.timestampMs < 0)
            return R::failure(what + QStringLiteral(": no timestamp given"));
        if (!offsetsAt(targets, reset.timestampMs, &wanted, &error))
            return R::failure(what + QStringLiteral(": ") + error);
        for (auto it = wanted.begin(); it != wanted.end(); ++it) {
            if (*it < 0) // nothing at or after the time: the end of the partition
                *it = high.value(it.key());
        }
        break;
    case OffsetReset::Mode::Explicit:
        for (const TopicPartitionRef &tp : targets) {
            if (!reset.explicitOffsets.contains(tp))
                return R::failure(what + QStringLiteral(": no offset given for %1[%2]").arg(tp.topic).arg(tp.partition));
            const qint64 o = reset.explicitOffsets.value(tp);
            if (o < low.value(tp) || o > high.value(tp))
                return R::failure(what + QStringLiteral(": offset %1 for %2[%3] is outside the partition's range %4..%5")
                                             .arg(o)
                                             .arg(tp.topic)
                                             .arg(tp.partition)
                                             .arg(low.value(tp))
                                             .arg(high.value(tp)));
            wanted.insert(tp, o);
        }
        break;
    }

    PartitionListPtr list(rd_kafka_topic_partition_list_new(int(targets.size())));
    for (const TopicPartitionRef &tp : targets)
        rd_kafka_topic_partition_list_add(list.get(), tp.topic.toUtf8().constData(), tp.partition)->offset =
            wanted.value(tp);
    const QByteArray id = groupId.toUtf8();
    std::unique_ptr<rd_kafka_AlterConsumerGroupOffsets_t, KafkaDeleter> req(
        rd_kafka_AlterConsumerGroupOffsets_new(id.constData(), list.get()));
    EventPtr ev = runAdmin(RD_KAFKA_ADMIN_OP_ALTERCONSUMERGROUPOFFSETS, what,
                           [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
                               rd_kafka_AlterConsumerGroupOffsets_t *arr[] = {req.get()};
                               rd_kafka_AlterConsumerGroupOffsets(rk(), arr, 1, o, q);
                           },
                           &error);
    if (!ev)
        return R::failure(error);
    size_t n = 0;
    const rd_kafka_group_result_t **groups = rd_kafka_AlterConsumerGroupOffsets_result_groups(
        rd_kafka_event_AlterConsumerGroupOffsets_result(ev.get()), &n);
    if (QString e = groupResultsError(groups, n); !e.isEmpty())
        return R::failure(what + QStringLiteral(": ") + e);
    QList<GroupPartitionOffset> out;
    for (const TopicPartitionRef &tp : targets)
        out.append({tp.topic, tp.partition, wanted.value(tp), high.value(tp, -1), {}});
    return {out, {}};
}

AdminResult<Done> AdminService::deleteGroup(const QString &groupId)
{
    using R = AdminResult<Done>;
    const QString what = QStringLiteral("cannot delete consumer group \"%1\"").arg(groupId);
    if (groupId.isEmpty())
        return R::failure(QStringLiteral("delete group: no group id given"));
    DeleteGroupPtr dg(rd_kafka_DeleteGroup_new(groupId.toUtf8().constData()));
    QString error;
    EventPtr ev = runAdmin(RD_KAFKA_ADMIN_OP_DELETEGROUPS, what,
                           [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
                               rd_kafka_DeleteGroup_t *arr[] = {dg.get()};
                               rd_kafka_DeleteGroups(rk(), arr, 1, o, q);
                           },
                           &error);
    if (!ev)
        return R::failure(error);
    size_t n = 0;
    const rd_kafka_group_result_t **groups =
        rd_kafka_DeleteGroups_result_groups(rd_kafka_event_DeleteGroups_result(ev.get()), &n);
    if (QString e = groupResultsError(groups, n); !e.isEmpty())
        return R::failure(what + QStringLiteral(": ") + e);
    return {};
}

// --- ACLs ------------------------------------------------------------------------

AdminResult<QList<AclEntry>> AdminService::listAcls()
{
    using R = AdminResult<QList<AclEntry>>;
    const QString what = QStringLiteral("cannot list ACLs");
    char errstr[512];
    std::unique_ptr<rd_kafka_AclBindingFilter_t, KafkaDeleter> filter(rd_kafka_AclBindingFilter_new(
        RD_KAFKA_RESOURCE_ANY, nullptr, RD_KAFKA_RESOURCE_PATTERN_ANY, nullptr, nullptr, RD_KAFKA_ACL_OPERATION_ANY,
        RD_KAFKA_ACL_PERMISSION_TYPE_ANY, errstr, sizeof errstr));
    if (!filter)
        return R::failure(what + QStringLiteral(": ") + utf8(errstr));
    QString error;
    rd_kafka_resp_err_t code = RD_KAFKA_RESP_ERR_NO_ERROR;
    EventPtr ev = runAdmin(RD_KAFKA_ADMIN_OP_DESCRIBEACLS, what,
                           [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
                               rd_kafka_DescribeAcls(rk(), filter.get(), o, q);
                           },
                           &error, &code);
    if (!ev) {
        // A broker without an authorizer answers SECURITY_DISABLED: not a fault, a fact.
        if (code == RD_KAFKA_RESP_ERR_SECURITY_DISABLED || error.contains(QLatin1String("SECURITY_DISABLED"))
            || error.contains(QLatin1String("Security features are disabled"), Qt::CaseInsensitive)
            || error.contains(QLatin1String("no authorizer"), Qt::CaseInsensitive))
            return R::failure(noAuthorizer());
        return R::failure(error);
    }
    size_t n = 0;
    const rd_kafka_AclBinding_t **acls = rd_kafka_DescribeAcls_result_acls(rd_kafka_event_DescribeAcls_result(ev.get()), &n);
    QList<AclEntry> out;
    for (size_t i = 0; i < n; ++i) {
        const rd_kafka_AclBinding_t *a = acls[i];
        out.append({utf8(rd_kafka_ResourceType_name(rd_kafka_AclBinding_restype(a))), utf8(rd_kafka_AclBinding_name(a)),
                    utf8(rd_kafka_ResourcePatternType_name(rd_kafka_AclBinding_resource_pattern_type(a))),
                    utf8(rd_kafka_AclBinding_principal(a)), utf8(rd_kafka_AclBinding_host(a)),
                    utf8(rd_kafka_AclOperation_name(rd_kafka_AclBinding_operation(a))),
                    utf8(rd_kafka_AclPermissionType_name(rd_kafka_AclBinding_permission_type(a)))});
    }
    ev.reset();
    // librdkafka (2.0.2, and later releases too) drops DescribeAcls' top-level
    // error code: a broker without an authorizer (SECURITY_DISABLED) answers
    // like a cluster with no ACLs. Tell them apart by the broker's own
    // authorizer.class.name, read with DescribeConfigs (which reports errors).
    if (out.isEmpty()) {
        AdminResult<ClusterMetadata> md = metadata();
        if (md.ok() && !md.value.brokers.isEmpty()) {
            const int brokerId = md.value.controllerId >= 0 ? md.value.controllerId : md.value.brokers.first().id;
            AdminResult<QList<ConfigEntry>> configs =
                describeConfigs(RD_KAFKA_RESOURCE_BROKER, QString::number(brokerId), what);
            if (configs.ok()) {
                const auto it = std::find_if(configs.value.cbegin(), configs.value.cend(), [](const ConfigEntry &e) {
                    return e.name == QLatin1String("authorizer.class.name");
                });
                if (it == configs.value.cend() || !it->value || it->value->isEmpty())
                    return R::failure(noAuthorizer());
            }
        }
    }
    return {out, {}};
}

// --- messages ----------------------------------------------------------------------

AdminResult<QList<KafkaMessage>> AdminService::readMessages(const MessageQuery &query)
{
    using R = AdminResult<QList<KafkaMessage>>;
    const QString what = QStringLiteral("cannot read messages of topic \"%1\"").arg(query.topic);
    if (query.topic.isEmpty())
        return R::failure(QStringLiteral("read messages: no topic name given"));
    if (query.maxMessages < 1)
        return R::failure(what + QStringLiteral(": the message count must be at least 1"));
    QElapsedTimer clock;
    clock.start();
    const int budgetMs = qMax(1000, query.timeoutMs);

    QString error;
    QMap<QString, QList<int>> partitions;
    if (!partitionsOf({query.topic}, &partitions, &error))
        return R::failure(what + QStringLiteral(": ") + error);
    if (!partitions.contains(query.topic))
        return R::failure(what + QStringLiteral(": the topic does not exist"));
    QList<TopicPartitionRef> parts;
    for (int p : partitions.value(query.topic)) {
        if (query.partition < 0 || p == query.partition)
            parts.append({query.topic, p});
    }
    if (parts.isEmpty())
        return R::failure(what + QStringLiteral(": the topic has no partition %1").arg(query.partition));

    QMap<TopicPartitionRef, qint64> low, high, start;
    if (!offsetsAt(parts, -2, &low, &error) || !offsetsAt(parts, -1, &high, &error))
        return R::failure(what + QStringLiteral(": ") + error);
    switch (query.mode) {
    case MessageQuery::Mode::FromOffset:
        for (const TopicPartitionRef &tp : parts)
            start.insert(tp, qBound(low.value(tp), query.offset, high.value(tp)));
        break;
    case MessageQuery::Mode::FromTimestamp:
        if (!offsetsAt(parts, query.timestampMs, &start, &error))
            return R::failure(what + QStringLiteral(": ") + error);
        for (auto it = start.begin(); it != start.end(); ++it) {
            if (*it < 0)
                *it = high.value(it.key());
        }
        break;
    case MessageQuery::Mode::LatestN:
        // The newest N overall are among the newest N of each partition.
        for (const TopicPartitionRef &tp : parts)
            start.insert(tp, qMax(low.value(tp), high.value(tp) - query.maxMessages));
        break;
    }

    // The range to read per partition: [start, end of the partition at the start of the read).
    PartitionListPtr assignment(rd_kafka_topic_partition_list_new(int(parts.size())));
    QMap<int, qint64> endOf;
    for (const TopicPartitionRef &tp : parts) {
        if (start.value(tp) >= high.value(tp))
            continue;
        rd_kafka_topic_partition_list_add(assignment.get(), tp.topic.toUtf8().constData(), tp.partition)->offset =
            start.value(tp);
        endOf.insert(tp.partition, high.value(tp));
    }
    QList<KafkaMessage> out;
    if (endOf.isEmpty())
        return {out, {}};

    ConfResult conf = makeKafkaConf(m_config, ClientRole::Consumer,
                                    {{QStringLiteral("group.id"), QStringLiteral("mirrordesk-browser")},
                                     {QStringLiteral("enable.auto.commit"), QStringLiteral("false")},
                                     {QStringLiteral("enable.auto.offset.store"), QStringLiteral("false")},
                                     {QStringLiteral("enable.partition.eof"), QStringLiteral("true")},
                                     {QStringLiteral("auto.offset.reset"), QStringLiteral("earliest")},
                                     {QStringLiteral("isolation.level"), QStringLiteral("read_uncommitted")}});
    if (!conf.conf)
        return R::failure(what + QStringLiteral(": invalid client setting ") + conf.error);
    rd_kafka_conf_set_log_cb(conf.conf.get(), [](const rd_kafka_t *, int, const char *, const char *) {});
    char errstr[512];
    KafkaPtr consumer(rd_kafka_new(RD_KAFKA_CONSUMER, conf.conf.get(), errstr, sizeof errstr));
    if (!consumer)
        return R::failure(what + QStringLiteral(": ") + utf8(errstr));
    conf.conf.release();
    // assign() only: the group id above is never joined and nothing is committed,
    // so browsing leaves no trace in the cluster.
    rd_kafka_poll_set_consumer(consumer.get());
    if (rd_kafka_resp_err_t err = rd_kafka_assign(consumer.get(), assignment.get()))
        return R::failure(what + QStringLiteral(": ") + kafkaErrorText(err));

    // Offset/timestamp reads stop at maxMessages per partition (the overall first
    // N are among them); LatestN ranges are already bounded.
    QMap<int, int> taken;
    while (!endOf.isEmpty()) {
        const qint64 left = budgetMs - clock.elapsed();
        if (left <= 0)
            break;
        MessagePtr msg(rd_kafka_consumer_poll(consumer.get(), int(qMin<qint64>(left, 200))));
        if (!msg)
            continue;
        if (msg->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
            endOf.remove(msg->partition);
            continue;
        }
        if (msg->err) {
            if (msg->err == RD_KAFKA_RESP_ERR__TRANSPORT || msg->err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN)
                continue; // retried by librdkafka within our budget
            rd_kafka_assign(consumer.get(), nullptr);
            return R::failure(what + QStringLiteral(": ") + utf8(rd_kafka_message_errstr(msg.get())));
        }
        if (!endOf.contains(msg->partition))
            continue;
        KafkaMessage m;
        m.topic = query.topic;
        m.partition = msg->partition;
        m.offset = msg->offset;
        rd_kafka_timestamp_type_t tstype = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
        m.timestampMs = rd_kafka_message_timestamp(msg.get(), &tstype);
        m.logAppendTime = tstype == RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME;
        m.key = bytes(msg->key, msg->key_len);
        m.value = bytes(msg->payload, msg->len);
        rd_kafka_headers_t *hdrs = nullptr; // owned by the message
        if (rd_kafka_message_headers(msg.get(), &hdrs) == RD_KAFKA_RESP_ERR_NO_ERROR && hdrs) {
            const char *name = nullptr;
            const void *value = nullptr;
            size_t size = 0;
            for (size_t i = 0; rd_kafka_header_get_all(hdrs, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++i)
                m.headers.append({utf8(name), bytes(value, size)});
        }
        out.append(std::move(m));
        const int count = ++taken[msg->partition];
        if (msg->offset + 1 >= endOf.value(msg->partition)
            || (query.mode != MessageQuery::Mode::LatestN && count >= query.maxMessages))
            endOf.remove(msg->partition);
    }
    rd_kafka_assign(consumer.get(), nullptr);
    const bool complete = endOf.isEmpty();

    // One partition reads in offset order; several interleave by time.
    const bool byOffset = parts.size() == 1;
    std::stable_sort(out.begin(), out.end(), [byOffset](const KafkaMessage &a, const KafkaMessage &b) {
        if (byOffset)
            return a.offset < b.offset;
        return std::tie(a.timestampMs, a.partition, a.offset) < std::tie(b.timestampMs, b.partition, b.offset);
    });
    if (out.size() > query.maxMessages) {
        if (query.mode == MessageQuery::Mode::LatestN)
            out.remove(0, out.size() - query.maxMessages);
        else
            out.resize(query.maxMessages);
    }
    if (!complete && out.isEmpty())
        return R::failure(what + QStringLiteral(": no message arrived within %1 s").arg(budgetMs / 1000.0));
    return {out, {}};
}

} // namespace md
