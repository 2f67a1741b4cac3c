#include "engine/mirror/JobProgress.h"

#include "engine/admin/GroupDescribeErrors.h"
#include "engine/core/ClusterConfig.h"
#include "engine/core/KafkaHandles.h"
#include "engine/groupsync/GroupAdmin.h"
#include "engine/mirror/TopicNaming.h"
#include "engine/mirror/TopicSync.h"

#include <QLocale>
#include <QMap>
#include <QRegularExpression>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

namespace md {

namespace {

using Key = std::pair<QString, int>; // topic, partition

QString number(qint64 n)
{
    return QLocale(QLocale::English).toString(qlonglong(n));
}

QString timeText(const QDateTime &t)
{
    return t.toUTC().toString(Qt::ISODateWithMs).replace(QLatin1String(".000Z"), QLatin1String("Z"));
}

// One admin client of the source cluster for the calls of one read, plan or reset (never
// cancelled), each bounded by what is left of the caller's timeout.
using groupadmin::Admin;
using groupadmin::utf8;

// ListOffsets for `keys` at `spec` (an rd_kafka_OffsetSpec_t or a timestamp in ms).
// Unknown offsets (a timestamp past every record) come back as -1.
bool listOffsets(Admin &admin, const QList<Key> &keys, qint64 spec, rd_kafka_IsolationLevel_t isolation,
                 const QString &what, QMap<Key, qint64> *out, QString *error)
{
    if (keys.isEmpty())
        return true;
    PartitionListPtr list(rd_kafka_topic_partition_list_new(int(keys.size())));
    for (const Key &k : keys)
        rd_kafka_topic_partition_list_add(list.get(), k.first.toUtf8().constData(), k.second)->offset = spec;
    EventPtr ev = admin.call(
        RD_KAFKA_ADMIN_OP_LISTOFFSETS, what,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            ErrorPtr(rd_kafka_AdminOptions_set_isolation_level(o, isolation));
            rd_kafka_ListOffsets(admin.rk(), list.get(), o, q);
        },
        error);
    if (!ev)
        return false;
    size_t n = 0;
    const rd_kafka_ListOffsetsResultInfo_t **infos =
        rd_kafka_ListOffsets_result_infos(rd_kafka_event_ListOffsets_result(ev.get()), &n);
    for (size_t i = 0; i < n; ++i) {
        const rd_kafka_topic_partition_t *tp = rd_kafka_ListOffsetsResultInfo_topic_partition(infos[i]);
        if (!tp)
            continue;
        if (tp->err) {
            *error = admin.failure(
                what,
                QStringLiteral("%1[%2]: %3").arg(utf8(tp->topic)).arg(tp->partition).arg(kafkaErrorText(tp->err)));
            return false;
        }
        out->insert({utf8(tp->topic), tp->partition}, tp->offset);
    }
    for (const Key &k : keys) {
        if (!out->contains(k)) {
            *error =
                admin.failure(what, QStringLiteral("%1[%2]: no answer for this partition").arg(k.first).arg(k.second));
            return false;
        }
    }
    return true;
}

QString memberText(const rd_kafka_MemberDescription_t *m)
{
    QString host = utf8(rd_kafka_MemberDescription_host(m));
    if (host.startsWith(QLatin1Char('/')))
        host.remove(0, 1);
    return utf8(rd_kafka_MemberDescription_client_id(m)) + QStringLiteral(" on ") + host;
}

// The group's state and members ("Dead" with none: no such group).
bool describeGroupOnce(Admin &admin, const QString &groupId, QString *state, QStringList *members, QString *error,
                       bool *transient)
{
    const QString what = QStringLiteral("DescribeConsumerGroups(%1)").arg(groupId);
    const QByteArray id = groupId.toUtf8();
    const char *ids[] = {id.constData()};
    EventPtr ev = admin.call(
        RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS, what,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            rd_kafka_DescribeConsumerGroups(admin.rk(), ids, 1, o, q);
        },
        error);
    if (!ev)
        return false;
    size_t n = 0;
    const rd_kafka_ConsumerGroupDescription_t **groups =
        rd_kafka_DescribeConsumerGroups_result_groups(rd_kafka_event_DescribeConsumerGroups_result(ev.get()), &n);
    if (n < 1) {
        *error = admin.failure(what, QStringLiteral("empty answer"));
        return false;
    }
    const rd_kafka_ConsumerGroupDescription_t *d = groups[0];
    if (const rd_kafka_error_t *e = rd_kafka_ConsumerGroupDescription_error(d)) {
        // Newer brokers answer a group that does not exist with GROUP_ID_NOT_FOUND, older ones with Dead.
        if (rd_kafka_error_code(e) == RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND) {
            *state = QStringLiteral("Dead");
            members->clear();
            return true;
        }
        *transient = isTransientGroupError(e);
        *error = admin.failure(what, groupErrorText(e));
        return false;
    }
    *state = utf8(rd_kafka_consumer_group_state_name(rd_kafka_ConsumerGroupDescription_state(d)));
    members->clear();
    const size_t count = rd_kafka_ConsumerGroupDescription_member_count(d);
    for (size_t i = 0; i < count; ++i)
        members->append(memberText(rd_kafka_ConsumerGroupDescription_member(d, i)));
    members->sort();
    return true;
}

bool describeGroup(Admin &admin, const QString &groupId, QString *state, QStringList *members, QString *error)
{
    return retryTransientGroupErrors(
        10000, [&](bool *transient) { return describeGroupOnce(admin, groupId, state, members, error, transient); });
}

// Every committed offset of the group (none: an empty map).
bool groupOffsets(Admin &admin, const QString &groupId, QMap<Key, qint64> *out, QString *error)
{
    const QString what = QStringLiteral("ListConsumerGroupOffsets(%1)").arg(groupId);
    const QByteArray id = groupId.toUtf8();
    std::unique_ptr<rd_kafka_ListConsumerGroupOffsets_t, KafkaDeleter> req(
        rd_kafka_ListConsumerGroupOffsets_new(id.constData(), nullptr));
    EventPtr ev = admin.call(
        RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS, what,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            // Offsets a transaction is still committing count once it ends.
            ErrorPtr(rd_kafka_AdminOptions_set_require_stable_offsets(o, 1));
            rd_kafka_ListConsumerGroupOffsets_t *arr[] = {req.get()};
            rd_kafka_ListConsumerGroupOffsets(admin.rk(), arr, 1, o, q);
        },
        error);
    if (!ev)
        return false;
    size_t n = 0;
    const rd_kafka_group_result_t **groups =
        rd_kafka_ListConsumerGroupOffsets_result_groups(rd_kafka_event_ListConsumerGroupOffsets_result(ev.get()), &n);
    for (size_t g = 0; g < n; ++g) {
        if (const rd_kafka_error_t *e = rd_kafka_group_result_error(groups[g])) {
            if (rd_kafka_error_code(e) == RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND)
                continue;
            *error = admin.failure(what, utf8(rd_kafka_error_string(e)));
            return false;
        }
        const rd_kafka_topic_partition_list_t *parts = rd_kafka_group_result_partitions(groups[g]);
        for (int i = 0; parts && i < parts->cnt; ++i) {
            const rd_kafka_topic_partition_t &e = parts->elems[i];
            if (e.err == RD_KAFKA_RESP_ERR_NO_ERROR && e.offset >= 0)
                out->insert({utf8(e.topic), e.partition}, e.offset);
        }
    }
    return true;
}

QList<Key> keysOf(const QList<PartitionStart> &parts)
{
    QList<Key> keys;
    keys.reserve(parts.size());
    for (const PartitionStart &p : parts)
        keys.append({p.topic, p.partition});
    return keys;
}

// Where a partition without progress starts, for a timestamp start or reset:
// the first record at or after the time, the end when there is none.
bool offsetsAtTime(Admin &admin, const QList<Key> &keys, const QDateTime &time, QMap<Key, qint64> *out, QString *error)
{
    return listOffsets(admin, keys, std::max<qint64>(0, time.toMSecsSinceEpoch()),
                       RD_KAFKA_ISOLATION_LEVEL_READ_COMMITTED,
                       QStringLiteral("ListOffsets(at %1)").arg(timeText(time)), out, error);
}

JobProgress readWith(Admin &admin, const MirrorJobSpec &spec)
{
    JobProgress out;
    out.groupId = consumerGroupId(spec);
    if (!admin.ok()) {
        out.error = admin.error();
        return out;
    }
    if (spec.start == StartPosition::Timestamp && !spec.startTimestamp.isValid()) {
        out.error = QStringLiteral("start: a timestamp start without a valid time");
        return out;
    }
    const ClusterTopics topics = readClusterTopics(admin.rk(), admin.callTimeoutMs());
    if (!topics.ok) {
        out.error = admin.failure(QStringLiteral("metadata"), topics.error);
        return out;
    }
    QList<Key> keys;
    for (const TopicShape &t : topics.topics) { // QMap: by topic name
        if (!topicSelected(spec, t.name))
            continue;
        for (int p = 0; p < t.partitions; ++p)
            keys.append({t.name, p});
    }

    QString error;
    QMap<Key, qint64> committed, low, end;
    if (!describeGroup(admin, out.groupId, &out.groupState, &out.members, &error) ||
        !groupOffsets(admin, out.groupId, &committed, &error) ||
        !listOffsets(admin, keys, RD_KAFKA_OFFSET_SPEC_EARLIEST, RD_KAFKA_ISOLATION_LEVEL_READ_COMMITTED,
                     QStringLiteral("ListOffsets(earliest)"), &low, &error) ||
        !listOffsets(admin, keys, RD_KAFKA_OFFSET_SPEC_LATEST, RD_KAFKA_ISOLATION_LEVEL_READ_COMMITTED,
                     QStringLiteral("ListOffsets(latest, read_committed)"), &end, &error)) {
        out.error = error;
        return out;
    }

    // A committed offset past the last stable offset may still be inside the log
    // (an open transaction): only past the high watermark is it past the end.
    QList<Key> beyondStable, withoutProgress;
    for (const Key &k : std::as_const(keys)) {
        const qint64 c = committed.value(k, -1);
        if (c < 0)
            withoutProgress.append(k);
        else if (c > end.value(k))
            beyondStable.append(k);
    }
    QMap<Key, qint64> high, atTime;
    if (!listOffsets(admin, beyondStable, RD_KAFKA_OFFSET_SPEC_LATEST, RD_KAFKA_ISOLATION_LEVEL_READ_UNCOMMITTED,
                     QStringLiteral("ListOffsets(latest)"), &high, &error) ||
        (spec.start == StartPosition::Timestamp &&
         !offsetsAtTime(admin, withoutProgress, spec.startTimestamp, &atTime, &error))) {
        out.error = error;
        return out;
    }

    for (const Key &k : std::as_const(keys)) {
        PartitionStart p;
        p.topic = k.first;
        p.partition = k.second;
        p.logStart = low.value(k);
        p.end = end.value(k);
        p.committed = committed.value(k, -1);
        if (p.committed >= 0) {
            if (p.committed < p.logStart) {
                p.reason = StartReason::CommittedBelowLogStart;
                p.start = p.logStart;
                p.skipped = p.logStart - p.committed;
            } else if (p.committed > p.end && p.committed > high.value(k, p.end)) {
                p.reason = StartReason::CommittedPastEnd;
                p.start = p.logStart;
            } else {
                p.reason = StartReason::Committed;
                p.start = p.committed;
            }
        } else {
            switch (spec.start) {
            case StartPosition::Committed:
            case StartPosition::Earliest:
                p.reason = StartReason::Earliest;
                p.start = p.logStart;
                break;
            case StartPosition::Latest:
                p.reason = StartReason::Latest;
                p.start = p.end;
                break;
            case StartPosition::Timestamp: {
                p.reason = StartReason::Timestamp;
                p.startTime = spec.startTimestamp;
                const qint64 at = atTime.value(k, -1);
                p.start = at >= 0 ? std::min(std::max(at, p.logStart), p.end) : p.end;
                break;
            }
            }
        }
        p.toCopy = std::max<qint64>(0, p.end - p.start);
        out.partitions.append(p);
    }
    out.ok = true;
    return out;
}

bool groupIsActive(const QString &state, const QStringList &members)
{
    return !members.isEmpty() ||
           (state != QLatin1String("Empty") && state != QLatin1String("Dead") && state != QLatin1String("Unknown"));
}

} // namespace

QString PartitionStart::describe() const
{
    switch (reason) {
    case StartReason::Committed: return QStringLiteral("resumes at %1 (committed)").arg(number(start));
    case StartReason::CommittedBelowLogStart:
        return QStringLiteral("starts at %1 (the log start: committed %2 is below it, %3 records vanished)")
            .arg(number(start), number(committed), number(skipped));
    case StartReason::CommittedPastEnd:
        return QStringLiteral(
                   "starts at %1 (the log start: committed %2 is past the end %3, topic recreated or truncated)")
            .arg(number(start), number(committed), number(end));
    case StartReason::Earliest: return QStringLiteral("starts at %1 (earliest, no progress)").arg(number(start));
    case StartReason::Latest: return QStringLiteral("starts at %1 (latest, no progress)").arg(number(start));
    case StartReason::Timestamp:
        if (start >= end && toCopy == 0)
            return QStringLiteral("starts at %1 (the end: no record at or after %2, no progress)")
                .arg(number(start), timeText(startTime));
        return QStringLiteral("starts at %1 (first record at or after %2, no progress)")
            .arg(number(start), timeText(startTime));
    case StartReason::Reset:
        if (startTime.isValid())
            return QStringLiteral("moves to %1 (reset: first record at or after %2)")
                .arg(number(start), timeText(startTime));
        return QStringLiteral("moves to %1 (reset)").arg(number(start));
    }
    return {};
}

QString PartitionStart::vanishedText() const
{
    if (reason != StartReason::CommittedBelowLogStart || skipped <= 0)
        return {};
    return QStringLiteral("%1 record%2 vanished before %3 copied: offsets %4..%5")
        .arg(number(skipped), skipped == 1 ? QString() : QStringLiteral("s"),
             skipped == 1 ? QStringLiteral("it was") : QStringLiteral("they were"), number(committed),
             number(logStart - 1));
}

qint64 JobProgress::totalToCopy() const
{
    qint64 total = 0;
    for (const PartitionStart &p : partitions)
        total += p.toCopy;
    return total;
}

qint64 JobProgress::totalSkipped() const
{
    qint64 total = 0;
    for (const PartitionStart &p : partitions)
        total += p.skipped;
    return total;
}

bool JobProgress::groupActive() const
{
    return groupIsActive(groupState, members);
}

JobProgress readJobProgress(const MirrorJobSpec &spec, int timeoutMs)
{
    Admin admin(spec.source, QStringLiteral("source"), timeoutMs, nullptr);
    return readWith(admin, spec);
}

JobProgress planReset(const MirrorJobSpec &spec, const ResetRequest &request, int timeoutMs)
{
    JobProgress plan;
    plan.groupId = consumerGroupId(spec);
    QRegularExpression topicFilter;
    if (!request.topicPattern.isEmpty()) {
        topicFilter.setPattern(QRegularExpression::anchoredPattern(request.topicPattern));
        if (!topicFilter.isValid()) {
            plan.error = QStringLiteral("--topic: invalid regular expression \"%1\": %2")
                             .arg(request.topicPattern, topicFilter.errorString());
            return plan;
        }
    }
    if (request.to == ResetRequest::To::Timestamp && !request.timestamp.isValid()) {
        plan.error = QStringLiteral("reset: no valid time given");
        return plan;
    }
    Admin admin(spec.source, QStringLiteral("source"), timeoutMs, nullptr);
    JobProgress current = readWith(admin, spec);
    if (!current.ok)
        return current;
    plan = current;
    plan.partitions.clear();
    for (const PartitionStart &p : std::as_const(current.partitions)) {
        if (request.topicPattern.isEmpty() || topicFilter.match(p.topic).hasMatch())
            plan.partitions.append(p);
    }
    QMap<Key, qint64> atTime;
    if (request.to == ResetRequest::To::Timestamp) {
        QString error;
        if (!offsetsAtTime(admin, keysOf(plan.partitions), request.timestamp, &atTime, &error)) {
            plan.ok = false;
            plan.error = error;
            return plan;
        }
    }
    for (PartitionStart &p : plan.partitions) {
        switch (request.to) {
        case ResetRequest::To::Earliest: p.start = p.logStart; break;
        case ResetRequest::To::Latest: p.start = p.end; break;
        case ResetRequest::To::Timestamp: {
            const qint64 at = atTime.value({p.topic, p.partition}, -1);
            p.start = at >= 0 ? std::min(std::max(at, p.logStart), p.end) : p.end;
            p.startTime = request.timestamp;
            break;
        }
        }
        p.reason = StartReason::Reset;
        p.skipped = 0;
        p.toCopy = std::max<qint64>(0, p.end - p.start);
    }
    return plan;
}

ResetOutcome applyReset(const MirrorJobSpec &spec, const JobProgress &plan, int timeoutMs)
{
    ResetOutcome outcome;
    if (!plan.ok) {
        outcome.error = plan.error.isEmpty() ? QStringLiteral("reset: the plan is not valid") : plan.error;
        return outcome;
    }
    const QString groupId = plan.groupId.isEmpty() ? consumerGroupId(spec) : plan.groupId;
    Admin admin(spec.source, QStringLiteral("source"), timeoutMs, nullptr);
    if (!admin.ok()) {
        outcome.error = admin.error();
        return outcome;
    }
    // Asked again now: the plan may be minutes old.
    QString state, error;
    QStringList members;
    if (!describeGroup(admin, groupId, &state, &members, &error)) {
        outcome.error = error;
        return outcome;
    }
    if (groupIsActive(state, members)) {
        outcome.error =
            QStringLiteral("refused: group %1 is %2 with %3 active member%4%5; offsets can only be reset "
                           "while the group has no members: stop the job's instances first")
                .arg(groupId, state)
                .arg(members.size())
                .arg(members.size() == 1 ? QString() : QStringLiteral("s"))
                .arg(members.isEmpty() ? QString() : QStringLiteral(": ") + members.join(QStringLiteral(", ")));
        return outcome;
    }
    if (plan.partitions.isEmpty()) {
        outcome.ok = true;
        return outcome;
    }
    PartitionListPtr list(rd_kafka_topic_partition_list_new(int(plan.partitions.size())));
    for (const PartitionStart &p : plan.partitions) {
        if (p.start < 0) {
            outcome.error = QStringLiteral("reset: no position for %1[%2]").arg(p.topic).arg(p.partition);
            return outcome;
        }
        rd_kafka_topic_partition_list_add(list.get(), p.topic.toUtf8().constData(), p.partition)->offset = p.start;
    }
    const QString what = QStringLiteral("AlterConsumerGroupOffsets(%1)").arg(groupId);
    const QByteArray id = groupId.toUtf8();
    std::unique_ptr<rd_kafka_AlterConsumerGroupOffsets_t, KafkaDeleter> req(
        rd_kafka_AlterConsumerGroupOffsets_new(id.constData(), list.get()));
    EventPtr ev = admin.call(
        RD_KAFKA_ADMIN_OP_ALTERCONSUMERGROUPOFFSETS, what,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            rd_kafka_AlterConsumerGroupOffsets_t *arr[] = {req.get()};
            rd_kafka_AlterConsumerGroupOffsets(admin.rk(), arr, 1, o, q);
        },
        &error);
    if (!ev) {
        outcome.error = error;
        return outcome;
    }
    size_t n = 0;
    const rd_kafka_group_result_t **groups =
        rd_kafka_AlterConsumerGroupOffsets_result_groups(rd_kafka_event_AlterConsumerGroupOffsets_result(ev.get()), &n);
    int written = 0;
    for (size_t g = 0; g < n; ++g) {
        if (const rd_kafka_error_t *e = rd_kafka_group_result_error(groups[g])) {
            outcome.error = admin.failure(what, utf8(rd_kafka_error_string(e)));
            return outcome;
        }
        const rd_kafka_topic_partition_list_t *parts = rd_kafka_group_result_partitions(groups[g]);
        for (int i = 0; parts && i < parts->cnt; ++i) {
            const rd_kafka_topic_partition_t &e = parts->elems[i];
            if (e.err) {
                outcome.error = admin.failure(
                    what, QStringLiteral("%1[%2]: %3").arg(utf8(e.topic)).arg(e.partition).arg(kafkaErrorText(e.err)));
                outcome.partitionsWritten = written;
                return outcome;
            }
            ++written;
        }
    }
    outcome.partitionsWritten = written;
    outcome.ok = true;
    return outcome;
}

} // namespace md
