#include "engine/mirror/TopicNaming.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

namespace md {

namespace {

const QLatin1String kTopicPlaceholder("${topic}");

bool wholeMatch(const QString &pattern, const QString &topic)
{
    // Compiled once per thread and pattern: a topic refresh asks this for
    // every topic of the cluster, and compiling the pattern each time cost
    // more than matching it. Per thread: no lock, and a job's patterns are few.
    thread_local QHash<QString, QRegularExpression> compiled;
    auto it = compiled.constFind(pattern);
    if (it == compiled.constEnd()) {
        if (compiled.size() >= 256)
            compiled.clear();
        it = compiled.insert(pattern, QRegularExpression(QRegularExpression::anchoredPattern(pattern)));
    }
    return it->isValid() && it->match(topic).hasMatch();
}

QSet<QString> bootstrapSet(const QString &bootstrap)
{
    QSet<QString> out;
    for (const QString &part : bootstrap.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        QString p = part.trimmed().toLower();
        if (p.contains(QLatin1String("://")))
            p = p.section(QLatin1String("://"), 1);
        if (!p.isEmpty())
            out.insert(p);
    }
    return out;
}

} // namespace

bool isValidKafkaTopicName(const QString &name)
{
    // Kafka's Topic.validate: 1..249 characters of [a-zA-Z0-9._-], not "." or "..".
    if (name.isEmpty() || name.size() > 249 || name == QLatin1String(".") || name == QLatin1String(".."))
        return false;
    for (const QChar c : name) {
        const char16_t u = c.unicode();
        const bool ok = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') || u == u'.' ||
                        u == u'_' || u == u'-';
        if (!ok)
            return false;
    }
    return true;
}

QString targetTopicName(const MirrorJobSpec &spec, const QString &sourceTopic)
{
    switch (spec.naming) {
    case NamingPolicy::Identity: return sourceTopic;
    case NamingPolicy::Prefix: return spec.source.alias + spec.separator + sourceTopic;
    case NamingPolicy::Template: {
        QString out = spec.nameTemplate;
        out.replace(QLatin1String("${source}"), spec.source.alias);
        out.replace(QLatin1String("${target}"), spec.target.alias);
        out.replace(kTopicPlaceholder, sourceTopic);
        return out;
    }
    }
    return sourceTopic;
}

bool isOffsetMapTopic(const QString &topic)
{
    return topic.endsWith(QLatin1String(".offset-map"));
}

bool isAclSyncRecordsTopic(const QString &topic)
{
    return topic.endsWith(QLatin1String(".acl-sync"));
}

bool isCutoverRecordsTopic(const QString &topic)
{
    return topic.endsWith(QLatin1String(".cutover"));
}

bool isInternalTopic(const QString &topic)
{
    // Kafka: __consumer_offsets, __transaction_state, __share_group_state,
    // __cluster_metadata; MM2 also treats a leading "." as internal.
    if (topic.startsWith(QLatin1String("__")) || topic.startsWith(QLatin1Char('.')))
        return true;
    // MM2 (checkpoints, offset-syncs, its Connect stores) and Connect's usual
    // "-internal"/".internal" names; MM2's default exclude also has *.replica.
    if (topic.endsWith(QLatin1String(".internal")) || topic.endsWith(QLatin1String("-internal")) ||
        topic.endsWith(QLatin1String(".replica")))
        return true;
    // MirrorDesk's own records (offset maps, ACL sync, cutover): a job never
    // mirrors them, its own or another job's.
    if (isOffsetMapTopic(topic) || isAclSyncRecordsTopic(topic) || isCutoverRecordsTopic(topic))
        return true;
    // MM2 heartbeats, at the source ("heartbeats") or already mirrored ("a.heartbeats").
    if (topic == QLatin1String("heartbeats") || topic.endsWith(QLatin1String(".heartbeats")))
        return true;
    // Kafka Connect's default store topics.
    if (topic.startsWith(QLatin1String("connect-")) &&
        (topic.endsWith(QLatin1String("-configs")) || topic.endsWith(QLatin1String("-offsets")) ||
         topic.endsWith(QLatin1String("-status")) || topic.endsWith(QLatin1String("-statuses"))))
        return true;
    // Confluent Schema Registry and Confluent Platform internals.
    return topic == QLatin1String("_schemas") || topic.startsWith(QLatin1String("_confluent"));
}

bool sameCluster(const MirrorJobSpec &spec)
{
    const QSet<QString> a = bootstrapSet(spec.source.bootstrap);
    return !a.isEmpty() && a == bootstrapSet(spec.target.bootstrap);
}

bool sameCluster(const ClusterConfig &a, const ClusterConfig &b)
{
    const QSet<QString> servers = bootstrapSet(a.bootstrap);
    return !servers.isEmpty() && servers == bootstrapSet(b.bootstrap);
}

QString topicExclusionReason(const MirrorJobSpec &spec, const QString &sourceTopic)
{
    bool included = false;
    for (const QString &inc : spec.include) {
        if (wholeMatch(inc, sourceTopic)) {
            included = true;
            break;
        }
    }
    if (!included)
        return QStringLiteral("matches no include pattern");
    for (const QString &exc : spec.exclude) {
        if (wholeMatch(exc, sourceTopic))
            return QStringLiteral("excluded by pattern \"%1\"").arg(exc);
    }
    // Whatever excludeInternalTopics says: a copied map would be read as the target's own
    // (by the reverse job, failover, "show on the other cluster") and translate wrongly.
    if (isOffsetMapTopic(sourceTopic))
        return QStringLiteral("a MirrorDesk offset map (never mirrored)");
    if (isAclSyncRecordsTopic(sourceTopic))
        return QStringLiteral("a MirrorDesk record of synced ACLs (never mirrored)");
    if (spec.excludeInternalTopics && isInternalTopic(sourceTopic))
        return QStringLiteral("internal topic");
    if (spec.naming == NamingPolicy::Template && !spec.nameTemplate.contains(kTopicPlaceholder))
        return QStringLiteral("naming template \"%1\" has no ${topic}").arg(spec.nameTemplate);
    // MM2's loop rule: under the prefix policy a name "<target alias><sep>..."
    // is a copy of a target topic; mirroring it back would loop.
    if (spec.naming == NamingPolicy::Prefix && !spec.target.alias.isEmpty() &&
        sourceTopic.startsWith(spec.target.alias + spec.separator))
        return QStringLiteral("came from the target cluster \"%1\"").arg(spec.target.alias);
    const QString target = targetTopicName(spec, sourceTopic);
    if (!isValidKafkaTopicName(target))
        return QStringLiteral("target name \"%1\" is not a valid Kafka topic name").arg(target);
    if (sameCluster(spec)) {
        if (target == sourceTopic)
            return QStringLiteral("would be mirrored onto itself (source and target are the same cluster)");
        // On one cluster the job's own output also matches its include
        // patterns; copying it again would chase its own tail forever.
        if (spec.naming == NamingPolicy::Prefix && sourceTopic.startsWith(spec.source.alias + spec.separator))
            return QStringLiteral("is this job's own output (source and target are the same cluster)");
        if (spec.naming == NamingPolicy::Template) {
            const QString tmpl = targetTopicName(spec, kTopicPlaceholder);
            const qsizetype at = tmpl.indexOf(kTopicPlaceholder);
            const QString pre = tmpl.left(at);
            const QString post = tmpl.mid(at + kTopicPlaceholder.size());
            if (sourceTopic.size() > pre.size() + post.size() && sourceTopic.startsWith(pre) &&
                sourceTopic.endsWith(post))
                return QStringLiteral("is this job's own output (source and target are the same cluster)");
        }
    }
    return {};
}

bool topicSelected(const MirrorJobSpec &spec, const QString &sourceTopic)
{
    return topicExclusionReason(spec, sourceTopic).isEmpty();
}

QString consumerGroupId(const MirrorJobSpec &spec)
{
    if (!spec.groupId.trimmed().isEmpty())
        return spec.groupId.trimmed();
    QString name = spec.name.trimmed();
    for (QChar &c : name) {
        const char16_t u = c.unicode();
        const bool ok = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') || u == u'.' ||
                        u == u'_' || u == u'-';
        if (!ok)
            c = QLatin1Char('-');
    }
    return QStringLiteral("mirrordesk.") + (name.isEmpty() ? QStringLiteral("job") : name);
}

QString subscriptionRegex(const MirrorJobSpec &spec)
{
    if (spec.include.isEmpty())
        return QStringLiteral("^$");
    // Constructs POSIX extended regex lacks (or spells differently): fall
    // back to everything and let topicSelected decide.
    static const QRegularExpression pcreOnly(QStringLiteral(R"(\(\?|\\[a-zA-Z]|[*+?}]\?|[*+?}]\+)"));
    QStringList parts;
    for (const QString &inc : spec.include) {
        if (!QRegularExpression(inc).isValid() || pcreOnly.match(inc).hasMatch())
            return QStringLiteral("^.*");
        parts << QLatin1Char('(') + inc + QLatin1Char(')');
    }
    return QStringLiteral("^(") + parts.join(QLatin1Char('|')) + QStringLiteral(")$");
}

QString mm2CheckpointsTopic(const QString &alias, const QString &separator)
{
    const QString sep = separator.isEmpty() ? QStringLiteral(".") : separator;
    return alias + sep + QStringLiteral("checkpoints") + sep + QStringLiteral("internal");
}

QString checkpointsSeparator(NamingPolicy naming, const QString &prefixSeparator)
{
    return naming == NamingPolicy::Prefix ? prefixSeparator : QStringLiteral(".");
}

QString mm2CheckpointsTopicOf(const MirrorJobSpec &spec)
{
    return mm2CheckpointsTopic(spec.checkpointsAlias, checkpointsSeparator(spec.naming, spec.separator));
}

} // namespace md
