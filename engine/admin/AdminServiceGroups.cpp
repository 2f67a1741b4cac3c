#include "engine/admin/AdminService.h"

#include "engine/admin/AdminServiceDetail.h"
#include "engine/admin/GroupDescribeErrors.h"

#include <QSet>

#include <algorithm>
#include <vector>

namespace md {

using admin_detail::errorText;
using admin_detail::utf8;

namespace {

GroupState mapState(rd_kafka_consumer_group_state_t s)
{
    switch (s) {
    case RD_KAFKA_CONSUMER_GROUP_STATE_PREPARING_REBALANCE: return GroupState::PreparingRebalance;
    case RD_KAFKA_CONSUMER_GROUP_STATE_COMPLETING_REBALANCE: return GroupState::CompletingRebalance;
    case RD_KAFKA_CONSUMER_GROUP_STATE_STABLE: return GroupState::Stable;
    case RD_KAFKA_CONSUMER_GROUP_STATE_DEAD: return GroupState::Dead;
    case RD_KAFKA_CONSUMER_GROUP_STATE_EMPTY: return GroupState::Empty;
    case RD_KAFKA_CONSUMER_GROUP_STATE_ASSIGNING: return GroupState::Assigning;
    case RD_KAFKA_CONSUMER_GROUP_STATE_RECONCILING: return GroupState::Reconciling;
    default: return GroupState::Unknown;
    }
}

GroupType mapType(rd_kafka_consumer_group_type_t t)
{
    switch (t) {
    case RD_KAFKA_CONSUMER_GROUP_TYPE_CLASSIC: return GroupType::Classic;
    case RD_KAFKA_CONSUMER_GROUP_TYPE_CONSUMER: return GroupType::Consumer;
    case RD_KAFKA_CONSUMER_GROUP_TYPE_SHARE: return GroupType::Share;
    case RD_KAFKA_CONSUMER_GROUP_TYPE_STREAMS: return GroupType::Streams;
    default: return GroupType::Unknown;
    }
}

QList<TopicPartitionRef> sortedPartitions(const rd_kafka_MemberAssignment_t *a)
{
    QList<TopicPartitionRef> out;
    if (const rd_kafka_topic_partition_list_t *parts = a ? rd_kafka_MemberAssignment_partitions(a) : nullptr)
        for (int p = 0; p < parts->cnt; ++p)
            out.append({utf8(parts->elems[p].topic), parts->elems[p].partition});
    std::sort(out.begin(), out.end());
    return out;
}

QString groupResultsError(const rd_kafka_group_result_t **results, size_t count)
{
    for (size_t i = 0; i < count; ++i) {
        if (const rd_kafka_error_t *e = rd_kafka_group_result_error(results[i]))
            return errorText(e);
        if (const rd_kafka_topic_partition_list_t *parts = rd_kafka_group_result_partitions(results[i])) {
            for (int p = 0; p < parts->cnt; ++p) {
                if (parts->elems[p].err)
                    return utf8(parts->elems[p].topic) + QStringLiteral("[") +
                           QString::number(parts->elems[p].partition) + QStringLiteral("]: ") +
                           kafkaErrorText(parts->elems[p].err);
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
    g.type = mapType(rd_kafka_ConsumerGroupDescription_type(d));
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
        member.assignment = sortedPartitions(rd_kafka_MemberDescription_assignment(md));
        member.targetAssignment = sortedPartitions(rd_kafka_MemberDescription_target_assignment(md));
        g.members.append(std::move(member));
    }
    std::sort(g.members.begin(), g.members.end(),
              [](const GroupMember &a, const GroupMember &b) { return a.memberId < b.memberId; });
    return g;
}

// A ListConsumerGroupOffsets result (committed offsets, or the patched share
// start offsets) as rows, their topics added; false with *error on a group error.
bool offsetRows(rd_kafka_event_t *ev, QMap<TopicPartitionRef, GroupPartitionOffset> *rows, QSet<QString> *topics,
                QString *error)
{
    size_t n = 0;
    const rd_kafka_group_result_t **groups =
        rd_kafka_ListConsumerGroupOffsets_result_groups(rd_kafka_event_ListConsumerGroupOffsets_result(ev), &n);
    for (size_t g = 0; g < n; ++g) {
        if (const rd_kafka_error_t *e = rd_kafka_group_result_error(groups[g])) {
            *error = errorText(e);
            return false;
        }
        const rd_kafka_topic_partition_list_t *parts = rd_kafka_group_result_partitions(groups[g]);
        for (int i = 0; parts && i < parts->cnt; ++i) {
            const rd_kafka_topic_partition_t &e = parts->elems[i];
            GroupPartitionOffset row;
            row.topic = utf8(e.topic);
            row.partition = e.partition;
            // -1: none (a share partition whose state has no start offset yet:
            // Kafka 4.1 writes it with the first acknowledgement).
            row.committed = e.err || e.offset < 0 ? -1 : e.offset;
            if (e.metadata && e.metadata_size > 0)
                row.metadata = QString::fromUtf8(static_cast<const char *>(e.metadata), qsizetype(e.metadata_size));
            topics->insert(row.topic);
            rows->insert({row.topic, row.partition}, row);
        }
    }
    return true;
}

} // namespace

// --- consumer groups -----------------------------------------------------------

AdminResult<QList<ConsumerGroupInfo>> AdminService::consumerGroups()
{
    using R = AdminResult<QList<ConsumerGroupInfo>>;
    const QString what = QStringLiteral("cannot list consumer groups");
    QString error;
    EventPtr ev = runAdmin(
        RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPS, what,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) { rd_kafka_ListConsumerGroups(rk(), o, q); }, &error);
    if (!ev)
        return R::failure(error);
    const auto *listed = rd_kafka_event_ListConsumerGroups_result(ev.get());
    size_t errCount = 0;
    const rd_kafka_error_t **errors = rd_kafka_ListConsumerGroups_result_errors(listed, &errCount);
    size_t n = 0;
    const rd_kafka_ConsumerGroupListing_t **groups = rd_kafka_ListConsumerGroups_result_valid(listed, &n);
    if (n == 0 && errCount > 0)
        return R::failure(what + QStringLiteral(": ") + errorText(errors[0]));
    QList<QByteArray> ids, shareIds;
    QList<ConsumerGroupInfo> out;
    for (size_t i = 0; i < n; ++i) {
        const GroupType type = mapType(rd_kafka_ConsumerGroupListing_type(groups[i]));
        if (type == GroupType::Streams) {
            // Listed only: librdkafka has no StreamsGroupDescribe.
            ConsumerGroupInfo g;
            g.groupId = utf8(rd_kafka_ConsumerGroupListing_group_id(groups[i]));
            g.type = type;
            g.state = mapState(rd_kafka_ConsumerGroupListing_state(groups[i]));
            out.append(std::move(g));
            continue;
        }
        (type == GroupType::Share ? shareIds : ids)
            .append(QByteArray(rd_kafka_ConsumerGroupListing_group_id(groups[i])));
    }
    ev.reset();
    for (const bool share : {false, true}) {
        const QList<QByteArray> &these = share ? shareIds : ids;
        if (these.isEmpty())
            continue;
        std::vector<const char *> raw;
        for (const QByteArray &id : these)
            raw.push_back(id.constData());
        EventPtr dev = describeGroups(raw, share,
                                      share ? QStringLiteral("cannot describe share groups")
                                            : QStringLiteral("cannot describe consumer groups"),
                                      &error);
        if (!dev)
            return R::failure(error);
        size_t dn = 0;
        const rd_kafka_ConsumerGroupDescription_t **descs =
            rd_kafka_DescribeConsumerGroups_result_groups(rd_kafka_event_DescribeConsumerGroups_result(dev.get()), &dn);
        for (size_t i = 0; i < dn; ++i)
            out.append(groupFromDescription(descs[i]));
    }
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
    ConsumerGroupInfo g;
    // share: asked with ShareGroupDescribe; *answered: the broker knows the group as that type.
    const auto describeAs = [&](bool share, bool *answered) {
        return retryTransientGroupErrors(10000, [&](bool *transient) {
            EventPtr ev = describeGroups({ids[0]}, share, what, &error);
            if (!ev)
                return false;
            size_t n = 0;
            const rd_kafka_ConsumerGroupDescription_t **descs = rd_kafka_DescribeConsumerGroups_result_groups(
                rd_kafka_event_DescribeConsumerGroups_result(ev.get()), &n);
            if (n < 1) {
                error = what + QStringLiteral(": empty answer");
                return false;
            }
            if (const rd_kafka_error_t *e = rd_kafka_ConsumerGroupDescription_error(descs[0])) {
                *transient = isTransientGroupError(e);
                *answered = rd_kafka_error_code(e) != RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND;
                error = what + QStringLiteral(": ") + groupErrorText(e);
                return false;
            }
            *answered = true;
            g = groupFromDescription(descs[0]);
            return true;
        });
    };
    bool answered = false;
    if (!describeAs(false, &answered))
        return R::failure(error);
    // The consumer describe falls back to the classic one, which calls a share
    // group Dead without members: such a group may be a share group.
    if (g.state == GroupState::Dead && g.members.isEmpty()) {
        const ConsumerGroupInfo dead = g;
        bool shareAnswered = false;
        if (!describeAs(true, &shareAnswered)) {
            if (shareAnswered) // a share group the broker could not describe
                return R::failure(error);
            g = dead; // not a share group either: Dead it is
        }
    }
    g.groupId = groupId;
    return {g, {}};
}

EventPtr AdminService::describeGroups(std::vector<const char *> ids, bool share, const QString &what, QString *error)
{
    return runAdmin(
        RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS, what,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            // Share groups: installer/librdkafka-patches/0003 (ShareGroupDescribe),
            // answered in DescribeConsumerGroups' result type.
            (share ? rd_kafka_DescribeShareGroups : rd_kafka_DescribeConsumerGroups)(rk(), ids.data(), ids.size(), o,
                                                                                     q);
        },
        error);
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
            *error = describeFailure(
                QStringLiteral("cannot read the offsets of %1[%2]").arg(utf8(e.topic)).arg(e.partition), e.err);
            return false;
        }
        out->insert({utf8(e.topic), e.partition}, e.offset);
    }
    return true;
}

AdminResult<QList<GroupPartitionOffset>> AdminService::groupOffsets(const QString &groupId,
                                                                    std::optional<ConsumerGroupInfo> *description)
{
    if (description)
        description->reset();
    using R = AdminResult<QList<GroupPartitionOffset>>;
    const QString what = QStringLiteral("cannot read the committed offsets of group \"%1\"").arg(groupId);
    if (groupId.isEmpty())
        return R::failure(QStringLiteral("group offsets: no group id given"));
    const QByteArray id = groupId.toUtf8();
    // No partition list: the broker answers every partition the group committed.
    std::unique_ptr<rd_kafka_ListConsumerGroupOffsets_t, KafkaDeleter> req(
        rd_kafka_ListConsumerGroupOffsets_new(id.constData(), nullptr));
    QString error;
    rd_kafka_t *handle = groupOffsetsHandle(&error);
    if (!handle)
        return R::failure(what + QStringLiteral(": ") + error);
    EventPtr ev = runAdmin(
        RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS, what,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            rd_kafka_ListConsumerGroupOffsets_t *arr[] = {req.get()};
            rd_kafka_ListConsumerGroupOffsets(handle, arr, 1, o, q);
        },
        &error, nullptr, handle);
    if (!ev)
        return R::failure(error);
    QMap<TopicPartitionRef, GroupPartitionOffset> rows;
    QSet<QString> topics;
    if (!offsetRows(ev.get(), &rows, &topics, &error))
        return R::failure(what + QStringLiteral(": ") + error);
    // Partitions assigned to members count too, committed or not.
    AdminResult<ConsumerGroupInfo> desc = describeGroup(groupId);
    // A share group commits nothing: its position is the start offset of each
    // share partition (every record before it acknowledged), its lag what lies
    // from there to the partition's end (Kafka 4.1 reports no lag of its own).
    if (desc.ok() && desc.value.type == GroupType::Share && !shareStartOffsets(groupId, &rows, &topics, &error))
        return R::failure(what + QStringLiteral(": ") + error);
    if (desc.ok()) {
        for (const GroupMember &m : desc.value.members) {
            for (const TopicPartitionRef &tp : m.assignment)
                topics.insert(tp.topic);
        }
        if (description)
            *description = desc.value;
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

bool AdminService::shareStartOffsets(const QString &groupId, QMap<TopicPartitionRef, GroupPartitionOffset> *rows,
                                     QSet<QString> *topics, QString *error)
{
    const QByteArray id = groupId.toUtf8();
    std::unique_ptr<rd_kafka_ListConsumerGroupOffsets_t, KafkaDeleter> req(
        rd_kafka_ListConsumerGroupOffsets_new(id.constData(), nullptr));
    QString failure;
    EventPtr ev = runAdmin(
        RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS, QStringLiteral("DescribeShareGroupOffsets"),
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            // installer/librdkafka-patches/0003: the start offsets in the
            // committed offsets' result type.
            rd_kafka_ListConsumerGroupOffsets_t *arr[] = {req.get()};
            rd_kafka_ListShareGroupOffsets(rk(), arr, 1, o, q);
        },
        &failure);
    if (!ev) {
        *error = failure;
        return false;
    }
    if (!offsetRows(ev.get(), rows, topics, error)) {
        *error = QStringLiteral("share start offsets: ") + *error;
        return false;
    }
    return true;
}

AdminResult<QList<GroupPartitionOffset>> AdminService::resetGroupOffsets(const QString &groupId,
                                                                         const OffsetReset &reset)
{
    using R = AdminResult<QList<GroupPartitionOffset>>;
    const QString what = QStringLiteral("cannot reset the offsets of group \"%1\"").arg(groupId);
    AdminResult<ConsumerGroupInfo> desc = describeGroup(groupId);
    if (!desc.ok())
        return R::failure(desc.error);
    // Kafka 4.1's AlterShareGroupOffsets answers without moving the start
    // offsets (its own tool's --reset-offsets is "not yet implemented"): a
    // share group is refused rather than reported reset.
    if (desc.value.type == GroupType::Share)
        return R::failure(what + QStringLiteral(": it is a share group, and Kafka 4.1 cannot move a share group's "
                                                "start offsets yet (kafka-share-groups.sh --reset-offsets is not "
                                                "implemented there either)"));
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
    case OffsetReset::Mode::Earliest: wanted = low; break;
    case OffsetReset::Mode::Latest: wanted = high; break;
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
                return R::failure(what +
                                  QStringLiteral(": no offset given for %1[%2]").arg(tp.topic).arg(tp.partition));
            const qint64 o = reset.explicitOffsets.value(tp);
            if (o < low.value(tp) || o > high.value(tp))
                return R::failure(what +
                                  QStringLiteral(": offset %1 for %2[%3] is outside the partition's range %4..%5")
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
    EventPtr ev = runAdmin(
        RD_KAFKA_ADMIN_OP_ALTERCONSUMERGROUPOFFSETS, what,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            rd_kafka_AlterConsumerGroupOffsets_t *arr[] = {req.get()};
            rd_kafka_AlterConsumerGroupOffsets(rk(), arr, 1, o, q);
        },
        &error);
    if (!ev)
        return R::failure(error);
    size_t n = 0;
    const rd_kafka_group_result_t **groups =
        rd_kafka_AlterConsumerGroupOffsets_result_groups(rd_kafka_event_AlterConsumerGroupOffsets_result(ev.get()), &n);
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
    EventPtr ev = runAdmin(
        RD_KAFKA_ADMIN_OP_DELETEGROUPS, what,
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

} // namespace md
