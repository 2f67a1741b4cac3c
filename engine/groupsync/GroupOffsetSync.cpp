// The pure half of group offset sync: which groups, and what to do with each
// partition. The Kafka calls are in GroupOffsetSyncKafka.cpp.

#include "engine/groupsync/GroupOffsetSync.h"

#include "engine/mirror/TopicNaming.h"

#include <QLocale>

#include <algorithm>

namespace md {

namespace {

QString number(qint64 n)
{
    return QLocale(QLocale::English).toString(qlonglong(n));
}

bool compile(const QStringList &patterns, const QString &path, QList<QRegularExpression> *out, QString *error)
{
    for (qsizetype i = 0; i < patterns.size(); ++i) {
        const QRegularExpression re(QRegularExpression::anchoredPattern(patterns.at(i)));
        if (patterns.at(i).isEmpty() || !re.isValid()) {
            *error = QStringLiteral("%1[%2]: invalid regular expression \"%3\"%4")
                         .arg(path)
                         .arg(i)
                         .arg(patterns.at(i), re.isValid() ? QString() : QStringLiteral(": ") + re.errorString());
            return false;
        }
        out->append(re);
    }
    return true;
}

} // namespace

GroupFilter::GroupFilter(const MirrorJobSpec &spec, const QString &extraPattern) : m_ownGroup(consumerGroupId(spec))
{
    if (!compile(spec.groupsInclude, QStringLiteral("groups.include"), &m_include, &m_error) ||
        !compile(spec.groupsExclude, QStringLiteral("groups.exclude"), &m_exclude, &m_error))
        return;
    if (!extraPattern.isEmpty()) {
        m_extra.setPattern(QRegularExpression::anchoredPattern(extraPattern));
        m_hasExtra = true;
        if (!m_extra.isValid())
            m_error = QStringLiteral("--groups: invalid regular expression \"%1\": %2")
                          .arg(extraPattern, m_extra.errorString());
    }
}

bool GroupFilter::selects(const QString &group) const
{
    // Jobs' own groups hold mirror progress, not a consumer's position.
    if (group == m_ownGroup || group.startsWith(QLatin1String("mirrordesk-")) ||
        group.startsWith(QLatin1String("mirrordesk.")))
        return false;
    if (!m_include.isEmpty()) {
        if (std::none_of(m_include.begin(), m_include.end(),
                         [&](const QRegularExpression &re) { return re.match(group).hasMatch(); }))
            return false;
    } else if (!m_hasExtra) {
        return false;
    }
    if (m_hasExtra && !m_extra.match(group).hasMatch())
        return false;
    return std::none_of(m_exclude.begin(), m_exclude.end(),
                        [&](const QRegularExpression &re) { return re.match(group).hasMatch(); });
}

QString groupSyncActionName(GroupSyncAction action)
{
    switch (action) {
    case GroupSyncAction::Write: return QStringLiteral("write");
    case GroupSyncAction::AlreadyThere: return QStringLiteral("already-there");
    case GroupSyncAction::SkipWouldRewind: return QStringLiteral("skip-would-rewind");
    case GroupSyncAction::SkipActiveMembers: return QStringLiteral("skip-active-members");
    case GroupSyncAction::SkipNotTranslatable: return QStringLiteral("skip-not-translatable");
    }
    return {};
}

qint64 GroupPartitionSync::syncedOffset() const
{
    return action == GroupSyncAction::Write || action == GroupSyncAction::AlreadyThere ? translation.targetOffset : -1;
}

void decidePartition(GroupPartitionSync *p, const PartitionOffsetMap *map, bool targetActive, bool allowRewind,
                     bool allowPartial)
{
    using Kind = OffsetTranslation::Kind;
    p->translation = map ? map->translate(p->sourceCommitted) : OffsetTranslation{};
    if (!p->translation.targetTopic.isEmpty())
        p->targetTopic = p->translation.targetTopic;
    p->neverReached =
        map && map->covered() >= 0 && p->sourceEnd >= 0 ? std::max<qint64>(0, p->sourceEnd - map->covered()) : -1;
    p->readAgain = 0;
    p->note.clear();
    const auto skip = [p](const QString &why) {
        p->action = GroupSyncAction::SkipNotTranslatable;
        p->note = why;
    };
    switch (p->translation.kind) {
    case Kind::Exact:
    case Kind::Gap:
    case Kind::End: break;
    case Kind::NotCopied:
        if (!allowPartial)
            return skip(QStringLiteral("not copied yet: the copy stands %1 records before the group's offset")
                            .arg(number(p->translation.notCopied)));
        // Where the copy stands: the group reads the records in between again once they are copied.
        p->readAgain = p->translation.notCopied;
        p->note = QStringLiteral("partial: %1 records past the copy are read again").arg(number(p->readAgain));
        break;
    case Kind::BeforeMap:
        return skip(
            QStringLiteral("below the first record the job copied: the records before it are not on the target"));
    case Kind::Unknown: return skip(QStringLiteral("the offset map knows nothing of this partition"));
    }
    decideAction(p, targetActive, allowRewind);
}

void decideEmptyPartition(GroupPartitionSync *p, const QString &targetTopic, qint64 targetEnd, bool targetActive,
                          bool allowRewind)
{
    p->translation = OffsetTranslation{};
    p->translation.kind = OffsetTranslation::Kind::End;
    p->translation.targetOffset = targetEnd;
    p->translation.targetTopic = targetTopic;
    p->targetTopic = targetTopic;
    p->neverReached = 0;
    p->readAgain = 0;
    p->note = QStringLiteral("an empty partition: the group reads on at the target partition's end");
    decideAction(p, targetActive, allowRewind);
}

void decideAction(GroupPartitionSync *p, bool targetActive, bool allowRewind)
{
    const qint64 to = p->translation.targetOffset;
    const auto skip = [p](const QString &why) {
        p->action = GroupSyncAction::SkipNotTranslatable;
        p->note = why;
    };
    if (to < 0)
        return skip(QStringLiteral("no target offset"));
    if (p->targetCurrent == to) {
        p->action = GroupSyncAction::AlreadyThere;
    } else if (targetActive) {
        p->action = GroupSyncAction::SkipActiveMembers;
        p->note = QStringLiteral("the target group has active members");
    } else if (p->targetCurrent > to && !allowRewind) {
        p->action = GroupSyncAction::SkipWouldRewind;
        p->note = QStringLiteral("the target group is at %1, ahead of %2: not moved back")
                      .arg(number(p->targetCurrent), number(to));
    } else {
        p->action = GroupSyncAction::Write;
    }
}

bool groupStateActive(const QString &state, const QStringList &members)
{
    return !members.isEmpty() || (state != QLatin1String("Empty") && state != QLatin1String("Dead") &&
                                  state != QLatin1String("Unknown") && !state.isEmpty());
}

bool GroupSyncEntry::targetActive() const
{
    return groupStateActive(targetState, targetMembers);
}

int GroupSyncEntry::count(GroupSyncAction action) const
{
    return int(std::count_if(partitions.begin(), partitions.end(),
                             [action](const GroupPartitionSync &p) { return p.action == action; }));
}

int GroupSyncPlan::count(GroupSyncAction action) const
{
    int n = 0;
    for (const GroupSyncEntry &g : groups)
        n += g.count(action);
    return n;
}

qint64 copyLagOf(qint64 logStart, qint64 end, const PartitionOffsetMap *map)
{
    const qint64 from = map && map->covered() >= 0 ? std::max(map->covered(), logStart) : logStart;
    return std::max<qint64>(0, end - from);
}

qint64 CopyLag::total() const
{
    qint64 n = 0;
    for (const Partition &p : partitions)
        n += p.lag;
    return n;
}

QList<CopyLag::Partition> CopyLag::behind() const
{
    QList<Partition> out;
    for (const Partition &p : partitions)
        if (p.lag > 0)
            out.append(p);
    return out;
}

QString offsetMapTopicOf(const MirrorJobSpec &spec)
{
    return spec.offsetMapTopic.isEmpty() ? defaultOffsetMapTopic(consumerGroupId(spec)) : spec.offsetMapTopic;
}

} // namespace md
