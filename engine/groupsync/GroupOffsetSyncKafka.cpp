// The Kafka half of group offset sync (GroupOffsetSync.h): listing and
// describing groups, reading and writing their offsets, on both clusters.
// librdkafka 2.12 takes one group per ListConsumerGroupOffsets and
// AlterConsumerGroupOffsets request, so those are issued concurrently (a bounded
// window per queue; the writes over several connections, GroupAdmin.h);
// DescribeConsumerGroups and ListOffsets are batched.

#include "engine/groupsync/GroupOffsetSync.h"

#include "engine/admin/GroupDescribeErrors.h"
#include "engine/core/ClusterConfig.h"
#include "engine/core/KafkaHandles.h"
#include "engine/groupsync/GroupAdmin.h"
#include "engine/mirror/TopicNaming.h"
#include "engine/mirror/TopicSync.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QMap>
#include <QMutex>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

namespace md {

namespace {

using namespace groupadmin;
using Key = std::pair<QString, int>; // topic, partition
using Offsets = QMap<Key, qint64>;

struct GroupListing {
    QString group;
    QString state;
};

bool listGroups(Admin &admin, QList<GroupListing> *out, QString *error)
{
    const QString what = QStringLiteral("ListConsumerGroups");
    return admin.batch(
        RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPS, what, 1, 1,
        [&](int, rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) { rd_kafka_ListConsumerGroups(admin.rk(), o, q); },
        [&](int, rd_kafka_event_t *ev, QString *err) {
            const rd_kafka_ListConsumerGroups_result_t *r = rd_kafka_event_ListConsumerGroups_result(ev);
            size_t errors = 0;
            const rd_kafka_error_t **errs = rd_kafka_ListConsumerGroups_result_errors(r, &errors);
            if (errors > 0) {
                // A partial listing would silently leave groups out.
                *err = admin.failure(what, utf8(rd_kafka_error_string(errs[0])));
                return false;
            }
            size_t n = 0;
            const rd_kafka_ConsumerGroupListing_t **valid = rd_kafka_ListConsumerGroups_result_valid(r, &n);
            for (size_t i = 0; i < n; ++i)
                out->append({utf8(rd_kafka_ConsumerGroupListing_group_id(valid[i])),
                             utf8(rd_kafka_consumer_group_state_name(rd_kafka_ConsumerGroupListing_state(valid[i])))});
            return true;
        },
        error);
}

QString memberText(const rd_kafka_MemberDescription_t *m)
{
    QString host = utf8(rd_kafka_MemberDescription_host(m));
    if (host.startsWith(QLatin1Char('/')))
        host.remove(0, 1);
    return utf8(rd_kafka_MemberDescription_client_id(m)) + QStringLiteral(" on ") + host;
}

struct GroupState {
    QString state;
    QStringList members;
};

// DescribeConsumerGroups takes many groups per request: chunks of 100, a few at once.
bool describeGroupsOnce(Admin &admin, const QStringList &groups, QHash<QString, GroupState> *out, QString *error,
                        bool *transient)
{
    constexpr int kChunk = 100;
    const int chunks = int((groups.size() + kChunk - 1) / kChunk);
    const QString what = QStringLiteral("DescribeConsumerGroups");
    return admin.batch(
        RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS, what, chunks, 8,
        [&](int i, rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            const QStringList part = groups.mid(qsizetype(i) * kChunk, kChunk);
            QList<QByteArray> ids;
            std::vector<const char *> ptrs;
            for (const QString &g : part)
                ids.append(g.toUtf8());
            for (const QByteArray &id : std::as_const(ids))
                ptrs.push_back(id.constData());
            rd_kafka_DescribeConsumerGroups(admin.rk(), ptrs.data(), ptrs.size(), o, q); // copies the names
        },
        [&](int, rd_kafka_event_t *ev, QString *err) {
            size_t n = 0;
            const rd_kafka_ConsumerGroupDescription_t **descs =
                rd_kafka_DescribeConsumerGroups_result_groups(rd_kafka_event_DescribeConsumerGroups_result(ev), &n);
            for (size_t i = 0; i < n; ++i) {
                const rd_kafka_ConsumerGroupDescription_t *d = descs[i];
                const QString id = utf8(rd_kafka_ConsumerGroupDescription_group_id(d));
                GroupState s;
                if (const rd_kafka_error_t *e = rd_kafka_ConsumerGroupDescription_error(d)) {
                    // Newer brokers answer a group that does not exist with GROUP_ID_NOT_FOUND, older ones with Dead.
                    if (rd_kafka_error_code(e) != RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND) {
                        *transient = isTransientGroupError(e);
                        *err = admin.failure(what + QLatin1Char('(') + id + QLatin1Char(')'), groupErrorText(e));
                        return false;
                    }
                    s.state = QStringLiteral("Dead");
                } else {
                    s.state = utf8(rd_kafka_consumer_group_state_name(rd_kafka_ConsumerGroupDescription_state(d)));
                    const size_t count = rd_kafka_ConsumerGroupDescription_member_count(d);
                    for (size_t m = 0; m < count; ++m)
                        s.members.append(memberText(rd_kafka_ConsumerGroupDescription_member(d, m)));
                    s.members.sort();
                }
                out->insert(id, s);
            }
            return true;
        },
        error);
}

bool describeGroups(Admin &admin, const QStringList &groups, QHash<QString, GroupState> *out, QString *error)
{
    return retryTransientGroupErrors(10000, [&](bool *transient) {
        out->clear();
        return describeGroupsOnce(admin, groups, out, error, transient);
    });
}

// Every committed offset of each group (a group without any: an empty map).
bool groupOffsets(Admin &admin, const QStringList &groups, QHash<QString, Offsets> *out, QString *error)
{
    const QString what = QStringLiteral("ListConsumerGroupOffsets");
    return admin.batch(
        RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS, what, int(groups.size()), kGroupWindow,
        [&](int i, rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            const QByteArray id = groups.at(i).toUtf8();
            std::unique_ptr<rd_kafka_ListConsumerGroupOffsets_t, KafkaDeleter> req(
                rd_kafka_ListConsumerGroupOffsets_new(id.constData(), nullptr));
            // Offsets a transaction is still committing count once it ends.
            ErrorPtr(rd_kafka_AdminOptions_set_require_stable_offsets(o, 1));
            rd_kafka_ListConsumerGroupOffsets_t *arr[] = {req.get()};
            rd_kafka_ListConsumerGroupOffsets(admin.rk(), arr, 1, o, q);
        },
        [&](int i, rd_kafka_event_t *ev, QString *err) {
            size_t n = 0;
            const rd_kafka_group_result_t **res =
                rd_kafka_ListConsumerGroupOffsets_result_groups(rd_kafka_event_ListConsumerGroupOffsets_result(ev), &n);
            Offsets &offsets = (*out)[groups.at(i)];
            for (size_t g = 0; g < n; ++g) {
                if (const rd_kafka_error_t *e = rd_kafka_group_result_error(res[g])) {
                    if (rd_kafka_error_code(e) == RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND)
                        continue;
                    *err = admin.failure(what + QLatin1Char('(') + groups.at(i) + QLatin1Char(')'),
                                         utf8(rd_kafka_error_string(e)));
                    return false;
                }
                const rd_kafka_topic_partition_list_t *parts = rd_kafka_group_result_partitions(res[g]);
                for (int k = 0; parts && k < parts->cnt; ++k) {
                    const rd_kafka_topic_partition_t &e = parts->elems[k];
                    if (e.err == RD_KAFKA_RESP_ERR_NO_ERROR && e.offset >= 0)
                        offsets.insert({utf8(e.topic), e.partition}, e.offset);
                }
            }
            return true;
        },
        error);
}

// ListOffsets (read_committed) of `keys` at `spec`; a partition that fails (a deleted topic) is left out.
bool listOffsets(Admin &admin, const QList<Key> &keys, qint64 spec, Offsets *out, QString *error)
{
    if (keys.isEmpty())
        return true;
    PartitionListPtr list(rd_kafka_topic_partition_list_new(int(keys.size())));
    for (const Key &k : keys)
        rd_kafka_topic_partition_list_add(list.get(), k.first.toUtf8().constData(), k.second)->offset = spec;
    return admin.batch(
        RD_KAFKA_ADMIN_OP_LISTOFFSETS, QStringLiteral("ListOffsets"), 1, 1,
        [&](int, rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            ErrorPtr(rd_kafka_AdminOptions_set_isolation_level(o, RD_KAFKA_ISOLATION_LEVEL_READ_COMMITTED));
            rd_kafka_ListOffsets(admin.rk(), list.get(), o, q);
        },
        [&](int, rd_kafka_event_t *ev, QString *) {
            size_t n = 0;
            const rd_kafka_ListOffsetsResultInfo_t **infos =
                rd_kafka_ListOffsets_result_infos(rd_kafka_event_ListOffsets_result(ev), &n);
            for (size_t i = 0; i < n; ++i) {
                const rd_kafka_topic_partition_t *tp = rd_kafka_ListOffsetsResultInfo_topic_partition(infos[i]);
                if (tp && !tp->err)
                    out->insert({utf8(tp->topic), tp->partition}, tp->offset);
            }
            return true;
        },
        error);
}

} // namespace

GroupSyncPlan planGroupSync(const MirrorJobSpec &spec, const OffsetMap &map, const GroupSyncOptions &options,
                            int timeoutMs)
{
    GroupSyncPlan plan;
    plan.options = options;
    const GroupFilter filter(spec, options.groupPattern);
    if (!filter.isValid()) {
        plan.error = filter.error();
        return plan;
    }
    if (!filter.selectsAny()) {
        plan.ok = true; // no group asked for: nothing to do
        return plan;
    }
    std::unique_ptr<Admin> ownSource, ownTarget;
    Admin &source = Clients::use(options.clients ? &options.clients->source : nullptr, &ownSource, spec.source,
                                 QStringLiteral("source"), timeoutMs, options.cancel);
    if (!source.ok()) {
        plan.error = source.error();
        return plan;
    }
    QList<GroupListing> listed;
    if (!listGroups(source, &listed, &plan.error))
        return plan;
    plan.groupsListed = int(listed.size());
    std::sort(listed.begin(), listed.end(),
              [](const GroupListing &a, const GroupListing &b) { return a.group < b.group; });
    QStringList selected;
    QHash<QString, QString> sourceState;
    for (const GroupListing &g : std::as_const(listed)) {
        if (filter.selects(g.group)) {
            selected.append(g.group);
            sourceState.insert(g.group, g.state);
        }
    }
    QHash<QString, Offsets> committed;
    if (!groupOffsets(source, selected, &committed, &plan.error))
        return plan;

    // Only the partitions of topics this job mirrors.
    QHash<QString, bool> mirrored;
    QHash<QString, QString> targetName;
    QMap<Key, bool> keys;
    for (const QString &g : std::as_const(selected)) {
        const Offsets &offsets = committed[g];
        for (auto it = offsets.begin(); it != offsets.end(); ++it) {
            const QString &topic = it.key().first;
            auto m = mirrored.find(topic);
            if (m == mirrored.end()) {
                m = mirrored.insert(topic, topicSelected(spec, topic));
                targetName.insert(topic, targetTopicName(spec, topic));
            }
            if (*m)
                keys.insert(it.key(), true);
        }
    }
    Offsets ends, starts;
    if (!listOffsets(source, keys.keys(), RD_KAFKA_OFFSET_SPEC_LATEST, &ends, &plan.error))
        return plan;
    // Source partitions the map knows nothing of because they hold no record
    // (log start = end): a group at their end reads next what is produced next,
    // on the target that is at the target partition's end.
    QList<Key> emptyKeys;
    for (const Key &k : keys.keys()) {
        // A partition the job has only ever seen empty has a covered end but no segment.
        const PartitionOffsetMap *pm = map.partition(k.first, k.second);
        if (!pm || pm->translate(0).kind == OffsetTranslation::Kind::Unknown)
            emptyKeys.append(k);
    }
    if (!emptyKeys.isEmpty() && !listOffsets(source, emptyKeys, RD_KAFKA_OFFSET_SPEC_EARLIEST, &starts, &plan.error))
        return plan;

    QStringList withPartitions;
    for (const QString &g : std::as_const(selected)) {
        GroupSyncEntry entry;
        entry.group = g;
        entry.sourceState = sourceState.value(g);
        const Offsets &offsets = committed[g];
        for (auto it = offsets.begin(); it != offsets.end(); ++it) {
            if (!mirrored.value(it.key().first))
                continue;
            GroupPartitionSync p;
            p.topic = it.key().first;
            p.partition = it.key().second;
            p.sourceCommitted = it.value();
            p.sourceEnd = ends.value(it.key(), -1);
            entry.partitions.append(p);
        }
        if (!entry.partitions.isEmpty()) {
            plan.groups.append(entry);
            withPartitions.append(g);
        }
    }
    if (plan.groups.isEmpty()) {
        plan.ok = true;
        return plan;
    }

    Admin &target = Clients::use(options.clients ? &options.clients->target : nullptr, &ownTarget, spec.target,
                                 QStringLiteral("target"), timeoutMs, options.cancel);
    if (!target.ok()) {
        plan.error = target.error();
        return plan;
    }
    QHash<QString, GroupState> states;
    QHash<QString, Offsets> current;
    if (!describeGroups(target, withPartitions, &states, &plan.error) ||
        !groupOffsets(target, withPartitions, &current, &plan.error))
        return plan;
    Offsets emptyTargetEnds; // by source key
    {
        QList<Key> targetKeys;
        for (const Key &k : std::as_const(emptyKeys))
            if (starts.contains(k) && ends.contains(k) && starts.value(k) == ends.value(k))
                targetKeys.append({targetName.value(k.first), k.second});
        Offsets targetEnds;
        QString ignored; // a target partition not there yet stays untranslatable
        listOffsets(target, targetKeys, RD_KAFKA_OFFSET_SPEC_LATEST, &targetEnds, &ignored);
        for (const Key &k : std::as_const(emptyKeys))
            if (const Key t{targetName.value(k.first), k.second}; targetEnds.contains(t))
                emptyTargetEnds.insert(k, targetEnds.value(t));
    }
    plan.targetReadAt = std::chrono::steady_clock::now();
    for (GroupSyncEntry &entry : plan.groups) {
        const GroupState state = states.value(entry.group, GroupState{QStringLiteral("Dead"), {}});
        entry.targetState = state.state;
        entry.targetMembers = state.members;
        const bool active = entry.targetActive();
        const Offsets &now = current[entry.group];
        for (GroupPartitionSync &p : entry.partitions) {
            const PartitionOffsetMap *pm = map.partition(p.topic, p.partition);
            const OffsetTranslation t = pm ? pm->translate(p.sourceCommitted) : OffsetTranslation{};
            p.targetTopic = t.targetTopic.isEmpty() ? targetName.value(p.topic) : t.targetTopic;
            p.targetCurrent = now.value({p.targetTopic, p.partition}, -1);
            if (const auto empty = emptyTargetEnds.constFind({p.topic, p.partition});
                empty != emptyTargetEnds.cend() && p.sourceCommitted == p.sourceEnd)
                decideEmptyPartition(&p, p.targetTopic, *empty, active, options.allowRewind);
            else
                decidePartition(&p, pm, active, options.allowRewind, options.allowPartial);
        }
    }
    plan.ok = true;
    return plan;
}

GroupSyncOutcome applyGroupSync(const MirrorJobSpec &spec, const GroupSyncPlan &plan, int timeoutMs)
{
    GroupSyncOutcome outcome;
    if (!plan.ok) {
        outcome.error = plan.error.isEmpty() ? QStringLiteral("group offset sync: the plan is not valid") : plan.error;
        return outcome;
    }
    // Taken first: connecting below must not make a fresh plan look old.
    const bool fresh = plan.targetReadAt != std::chrono::steady_clock::time_point{} &&
                       std::chrono::steady_clock::now() - plan.targetReadAt < std::chrono::milliseconds(kFreshPlanMs);
    QList<const GroupSyncEntry *> toWrite;
    QStringList names;
    for (const GroupSyncEntry &g : plan.groups) {
        if (g.count(GroupSyncAction::Write) > 0) {
            toWrite.append(&g);
            names.append(g.group);
        }
    }
    if (toWrite.isEmpty()) {
        outcome.ok = true;
        return outcome;
    }
    std::unique_ptr<Admin> ownTarget;
    Admin &target = Clients::use(plan.options.clients ? &plan.options.clients->target : nullptr, &ownTarget,
                                 spec.target, QStringLiteral("target"), timeoutMs, plan.options.cancel);
    if (!target.ok()) {
        outcome.error = target.error();
        return outcome;
    }
    // Asked again unless the plan's answers are fresh: a consumer may have
    // joined, or committed, since the plan (kFreshPlanMs).
    QHash<QString, GroupState> states;
    QHash<QString, Offsets> current;
    if (fresh) {
        for (const GroupSyncEntry *g : std::as_const(toWrite)) {
            states.insert(g->group, GroupState{g->targetState, g->targetMembers});
            Offsets &now = current[g->group];
            for (const GroupPartitionSync &p : g->partitions)
                if (p.targetCurrent >= 0)
                    now.insert({p.targetTopic, p.partition}, p.targetCurrent);
        }
    } else if (!describeGroups(target, names, &states, &outcome.error) ||
               !groupOffsets(target, names, &current, &outcome.error)) {
        return outcome;
    }
    outcome.targetReadAgain = !fresh;

    struct Request {
        QString group;
        PartitionListPtr offsets;
    };
    std::vector<Request> requests;
    for (const GroupSyncEntry *g : std::as_const(toWrite)) {
        const GroupState state = states.value(g->group, GroupState{QStringLiteral("Dead"), {}});
        if (groupStateActive(state.state, state.members)) {
            outcome.refused.append(QStringLiteral("%1 (%2%3)")
                                       .arg(g->group, state.state,
                                            state.members.isEmpty()
                                                ? QString()
                                                : QStringLiteral(": ") + state.members.join(QStringLiteral(", "))));
            continue;
        }
        const Offsets &now = current[g->group];
        PartitionListPtr list(rd_kafka_topic_partition_list_new(int(g->partitions.size())));
        for (const GroupPartitionSync &p : g->partitions) {
            if (p.action != GroupSyncAction::Write)
                continue;
            const qint64 at = now.value({p.targetTopic, p.partition}, -1);
            const qint64 to = p.translation.targetOffset;
            if (at == to || (at > to && !plan.options.allowRewind))
                continue; // moved since the plan: never backwards
            rd_kafka_topic_partition_list_add(list.get(), p.targetTopic.toUtf8().constData(), p.partition)->offset = to;
        }
        if (list->cnt > 0)
            requests.push_back({g->group, std::move(list)});
    }
    QMutex outcomeLock;
    const QString what = QStringLiteral("AlterConsumerGroupOffsets");
    const int total = int(requests.size());
    const bool sent = spread(
        target, total,
        [&](Admin &a, int c, int n, QString *partError) {
            const auto request = [&](int i) -> Request & { return requests[size_t(c + i * n)]; };
            return a.batch(
                RD_KAFKA_ADMIN_OP_ALTERCONSUMERGROUPOFFSETS, what, shareOf(total, c, n), kGroupWindow,
                [&](int i, rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
                    const QByteArray id = request(i).group.toUtf8();
                    std::unique_ptr<rd_kafka_AlterConsumerGroupOffsets_t, KafkaDeleter> req(
                        rd_kafka_AlterConsumerGroupOffsets_new(id.constData(), request(i).offsets.get()));
                    rd_kafka_AlterConsumerGroupOffsets_t *arr[] = {req.get()};
                    rd_kafka_AlterConsumerGroupOffsets(a.rk(), arr, 1, o, q);
                },
                [&](int i, rd_kafka_event_t *ev, QString *) {
                    const QString &group = request(i).group;
                    QMutexLocker lock(&outcomeLock);
                    size_t cnt = 0;
                    const rd_kafka_group_result_t **res = rd_kafka_AlterConsumerGroupOffsets_result_groups(
                        rd_kafka_event_AlterConsumerGroupOffsets_result(ev), &cnt);
                    int written = 0;
                    for (size_t g = 0; g < cnt; ++g) {
                        if (const rd_kafka_error_t *e = rd_kafka_group_result_error(res[g])) {
                            // GROUP_NOT_EMPTY: a member joined between the check and the write.
                            outcome.failures.append({group, QString(), -1, utf8(rd_kafka_error_string(e))});
                            continue;
                        }
                        const rd_kafka_topic_partition_list_t *parts = rd_kafka_group_result_partitions(res[g]);
                        for (int k = 0; parts && k < parts->cnt; ++k) {
                            const rd_kafka_topic_partition_t &e = parts->elems[k];
                            if (e.err)
                                outcome.failures.append({group, utf8(e.topic), e.partition, kafkaErrorText(e.err)});
                            else
                                ++written;
                        }
                    }
                    if (written > 0) {
                        ++outcome.groupsWritten;
                        outcome.partitionsWritten += written;
                        outcome.writtenGroups.append(group);
                    }
                    return true;
                },
                partError);
        },
        &outcome.error);
    outcome.writtenGroups.sort();
    outcome.ok = sent && outcome.failures.isEmpty() && outcome.refused.isEmpty();
    return outcome;
}

CopyLag readCopyLag(const MirrorJobSpec &spec, const OffsetMap &map, int timeoutMs)
{
    CopyLag lag;
    Admin source(spec.source, QStringLiteral("source"), timeoutMs, nullptr);
    if (!source.ok()) {
        lag.error = source.error();
        return lag;
    }
    const ClusterTopics topics = readClusterTopics(source.rk(), source.callTimeoutMs());
    if (!topics.ok) {
        lag.error = source.failure(QStringLiteral("metadata"), topics.error);
        return lag;
    }
    QList<Key> keys;
    for (const TopicShape &t : topics.topics) {
        if (!topicSelected(spec, t.name))
            continue;
        for (int p = 0; p < t.partitions; ++p)
            keys.append({t.name, p});
    }
    Offsets low, end;
    if (!listOffsets(source, keys, RD_KAFKA_OFFSET_SPEC_EARLIEST, &low, &lag.error) ||
        !listOffsets(source, keys, RD_KAFKA_OFFSET_SPEC_LATEST, &end, &lag.error))
        return lag;
    for (const Key &k : std::as_const(keys)) {
        if (!low.contains(k) || !end.contains(k)) {
            lag.error =
                source.failure(QStringLiteral("ListOffsets"),
                               QStringLiteral("%1[%2]: no answer for this partition").arg(k.first).arg(k.second));
            return lag;
        }
        const PartitionOffsetMap *pm = map.partition(k.first, k.second);
        CopyLag::Partition p;
        p.topic = k.first;
        p.partition = k.second;
        p.logStart = low.value(k);
        p.end = end.value(k);
        p.covered = pm ? pm->covered() : -1;
        p.lag = copyLagOf(p.logStart, p.end, pm);
        lag.partitions.append(p);
    }
    lag.ok = true;
    return lag;
}

} // namespace md
