#include "engine/acl/AclSync.h"

#include "engine/groupsync/GroupOffsetSync.h"
#include "engine/mirror/TopicNaming.h"

#include <QSet>

#include <algorithm>

namespace md {

namespace {

bool is(const QString &value, const char *name)
{
    return value == QLatin1String(name);
}

} // namespace

std::optional<AclEntry> targetAclOf(const MirrorJobSpec &spec, const AclEntry &source, const QStringList &sourceTopics,
                                    QString *note, const GroupFilter *groups)
{
    const auto because = [&](const QString &why) -> std::optional<AclEntry> {
        if (note)
            *note = describeAcl(source) + QStringLiteral(": ") + why;
        return std::nullopt;
    };
    AclEntry t = source;
    const bool prefixed = is(source.patternType, "PREFIXED");
    if (is(source.resourceType, "TOPIC")) {
        if (is(source.resourceName, "*"))
            return std::nullopt; // every topic: not the job's to grant on the target
        if (prefixed) {
            if (std::none_of(sourceTopics.cbegin(), sourceTopics.cend(), [&](const QString &topic) {
                    return topic.startsWith(source.resourceName) && topicSelected(spec, topic);
                }))
                return std::nullopt;
            if (spec.naming == NamingPolicy::Template)
                return because(QStringLiteral("not copied: a name template cannot rename a prefix"));
        } else if (!topicSelected(spec, source.resourceName)) {
            return std::nullopt;
        }
        t.resourceName = targetTopicName(spec, source.resourceName);
        if (spec.aclSyncMode == MirrorJobSpec::AclSyncMode::Safe && is(source.permission, "ALLOW")) {
            if (is(source.operation, "WRITE"))
                return because(QStringLiteral("not copied in safe mode: only the mirror writes mirrored topics"));
            if (is(source.operation, "ALL"))
                t.operation = QStringLiteral("READ");
        }
        return t;
    }
    if (is(source.resourceType, "GROUP")) {
        if (is(source.resourceName, "*") || spec.groupsInclude.isEmpty())
            return std::nullopt;
        std::optional<GroupFilter> own;
        if (!groups)
            groups = &own.emplace(spec);
        if (!groups->isValid() || !groups->selects(source.resourceName))
            return std::nullopt;
        return t; // groups keep their names on the target
    }
    return std::nullopt; // the cluster, transactional ids: the target's own
}

AclSyncPlan planAclSync(const MirrorJobSpec &spec, const AclSyncInput &in)
{
    AclSyncPlan plan;
    QSet<QString> wanted;
    const GroupFilter groups(spec); // its regexes compiled once, not per binding
    for (const AclEntry &b : in.source) {
        QString note;
        const std::optional<AclEntry> t = targetAclOf(spec, b, in.sourceTopics, &note, &groups);
        if (!note.isEmpty())
            plan.notes.append(note);
        if (t && !wanted.contains(aclKey(*t))) {
            wanted.insert(aclKey(*t));
            plan.wanted.append(*t);
        }
    }
    QSet<QString> onTarget;
    for (const AclEntry &b : in.target)
        onTarget.insert(aclKey(b));
    for (const AclEntry &b : std::as_const(plan.wanted)) {
        if (!onTarget.contains(aclKey(b)))
            plan.create.append(b);
    }
    for (const AclEntry &b : in.made) {
        if (wanted.contains(aclKey(b)))
            continue;
        (onTarget.contains(aclKey(b)) ? plan.remove : plan.forget).append(b);
    }
    return plan;
}

QString aclSyncRecordsTopicOf(const MirrorJobSpec &spec)
{
    QString stem = offsetMapTopicOf(spec);
    if (stem.endsWith(QLatin1String(".offset-map")))
        stem.chop(int(qstrlen(".offset-map")));
    return stem + QStringLiteral(".acl-sync");
}

} // namespace md
