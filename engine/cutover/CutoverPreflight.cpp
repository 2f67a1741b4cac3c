#include "engine/cutover/CutoverPreflight.h"

#include "engine/acl/AclSyncRecords.h"
#include "engine/acl/AclSyncRunner.h"
#include "engine/admin/AdminService.h"
#include "engine/mirror/MirrorPlan.h"
#include "engine/mirror/TargetTopicRule.h"
#include "engine/mirror/TopicNaming.h"
#include "engine/offsetmap/OffsetMap.h"
#include "engine/schema/RegistryCompare.h"
#include "engine/schema/SchemaRegistryClient.h"
#include "engine/schemasync/SchemaSyncRunner.h"

#include <QHash>

#include <algorithm>

namespace md {

namespace {

using Severity = CutoverFinding::Severity;

// More topics than this are judged by their partition counts only: a cutover
// of thousands of topics must not wait on one DescribeConfigs each.
constexpr int kConfigTopicsMax = 500;

struct Report {
    CutoverPreflight *out;
    void add(Severity s, const QString &subject, const QString &text, const QString &fix = {})
    {
        out->findings.append({s, subject, text, fix});
    }
};

void judgeTopics(const MirrorJobSpec &spec, const MirrorPlan &plan, AdminService *source, AdminService *target,
                 Report &r)
{
    for (const TopicPlanEntry &t : plan.topics) {
        const QString subject = QStringLiteral("topic ") + t.sourceTopic;
        switch (t.action) {
        case TopicPlanEntry::Action::Error:
            r.add(Severity::Blocker, subject, t.note,
                  QStringLiteral("make the target topic %1 usable (or let the job create it: \"createTopics\")")
                      .arg(t.targetTopic));
            continue;
        case TopicPlanEntry::Action::Create:
            r.add(Severity::Info, subject,
                  QStringLiteral("%1 is not on the target yet: the job creates it with %2 partitions when it starts")
                      .arg(t.targetTopic)
                      .arg(t.sourcePartitions));
            continue;
        case TopicPlanEntry::Action::Mirror: break;
        }
        if (t.targetPartitions < t.sourcePartitions)
            r.add(Severity::Info, subject,
                  QStringLiteral("%1 has %2 partitions, the source %3: the job adds the missing ones")
                      .arg(t.targetTopic)
                      .arg(t.targetPartitions)
                      .arg(t.sourcePartitions));
        else if (t.targetPartitions > t.sourcePartitions)
            r.add(Severity::Warning, subject,
                  QStringLiteral("%1 has %2 partitions, the source %3: producers that switch send a key to "
                                 "another partition than on the source, so per-key order across the switch is lost")
                      .arg(t.targetTopic)
                      .arg(t.targetPartitions)
                      .arg(t.sourcePartitions),
                  QStringLiteral("accept it, or recreate %1 with %2 partitions before the copy")
                      .arg(t.targetTopic)
                      .arg(t.sourcePartitions));
    }
    if (!source || !target)
        return;
    // The configs that follow (as the job's config sync picks them) against the target's values.
    const QStringList excludes = configExcludes(spec);
    int judged = 0;
    for (const TopicPlanEntry &t : plan.topics) {
        if (t.action != TopicPlanEntry::Action::Mirror)
            continue;
        if (++judged > kConfigTopicsMax) {
            r.add(Severity::Info, QStringLiteral("topic configs"),
                  QStringLiteral("configs compared for the first %1 topics only").arg(kConfigTopicsMax));
            break;
        }
        const AdminResult<QList<ConfigEntry>> s = source->describeTopicConfigs(t.sourceTopic);
        const AdminResult<QList<ConfigEntry>> d = target->describeTopicConfigs(t.targetTopic);
        if (!s.ok() || !d.ok()) {
            r.add(Severity::Warning, QStringLiteral("topic ") + t.sourceTopic,
                  QStringLiteral("configs not compared: %1").arg(s.ok() ? d.error : s.error),
                  QStringLiteral("compare them by hand (Compare tab)"));
            continue;
        }
        QHash<QString, QString> targetValues;
        for (const ConfigEntry &e : d.value)
            if (e.value)
                targetValues.insert(e.name, *e.value);
        const QMap<QString, QString> wanted = copiedTopicConfigs(excludes, s.value);
        for (auto it = wanted.cbegin(); it != wanted.cend(); ++it) {
            const QString now = targetValues.value(it.key());
            if (now == it.value())
                continue;
            r.add(Severity::Warning, QStringLiteral("topic ") + t.sourceTopic,
                  QStringLiteral("%1 is %2 on the source, %3 on %4")
                      .arg(it.key(), it.value(), now.isEmpty() ? QStringLiteral("unset") : now, t.targetTopic),
                  spec.syncTopicConfigs ? QStringLiteral("the job's config sync sets it while it runs (every %1 s)")
                                              .arg(spec.configSyncIntervalMs / 1000)
                                        : QStringLiteral("set it on the target topic (the job does not sync configs)"));
        }
    }
}

void judgeGroups(const MirrorJobSpec &spec, const CutoverOptions &options, const OffsetMap &map, int timeoutMs,
                 Report &r)
{
    const GroupFilter filter(spec, options.groupPattern);
    if (!filter.isValid()) {
        r.add(Severity::Blocker, QStringLiteral("groups"), filter.error(),
              QStringLiteral("correct the regular expression"));
        return;
    }
    if (!filter.selectsAny()) {
        r.add(Severity::Info, QStringLiteral("groups"),
              QStringLiteral("no consumer group is selected: none moves (the profile's \"groups\" or --groups)"));
        return;
    }
    GroupSyncOptions go;
    go.groupPattern = options.groupPattern;
    const GroupSyncPlan plan = planGroupSync(spec, map, go, timeoutMs);
    if (!plan.ok) {
        r.add(Severity::Blocker, QStringLiteral("groups"), QStringLiteral("cannot plan: ") + plan.error,
              QStringLiteral("make both clusters reachable for the job's user"));
        return;
    }
    r.out->groupsSelected = int(plan.groups.size());
    if (plan.groups.isEmpty())
        r.add(Severity::Info, QStringLiteral("groups"),
              QStringLiteral("no selected group (of %1 on the source) has committed offsets on the mirrored topics")
                  .arg(plan.groupsListed));
    // Partitions the drain takes care of: records still to copy, or none at all
    // (an empty partition translates to its target partition's end, once the
    // job has made it).
    QHash<QString, bool> drained;
    for (const CopyLag::Partition &p : r.out->lag.partitions)
        drained.insert(p.topic + QLatin1Char('\n') + QString::number(p.partition), p.lag > 0 || p.logStart == p.end);
    for (const GroupSyncEntry &g : plan.groups) {
        const QString subject = QStringLiteral("group ") + g.group;
        if (g.targetActive())
            r.add(Severity::Blocker, subject,
                  QStringLiteral("has active members on the target (%1, %2)")
                      .arg(g.targetState, g.targetMembers.join(QStringLiteral(", "))),
                  QStringLiteral("stop its consumers on the target: its offsets there are never moved under them"));
        if (groupStateActive(g.sourceState, {}))
            r.add(Severity::Warning, subject,
                  QStringLiteral("is still %1 on the source: its offsets move until its consumers stop")
                      .arg(g.sourceState),
                  QStringLiteral("stop its consumers on the source before the groups step"));
        int waiting = 0;
        for (const GroupPartitionSync &p : g.partitions) {
            if (p.action != GroupSyncAction::SkipNotTranslatable)
                continue;
            if (drained.value(p.topic + QLatin1Char('\n') + QString::number(p.partition))) {
                ++waiting; // the drain copies what it needs
                continue;
            }
            r.add(Severity::Blocker, subject,
                  QStringLiteral("%1[%2] at %3 cannot be translated: %4")
                      .arg(p.topic)
                      .arg(p.partition)
                      .arg(p.sourceCommitted)
                      .arg(p.note),
                  QStringLiteral("reset the group's offset on the source past the gap, or leave the group out "
                                 "(--groups)"));
        }
        if (waiting == 0 && !g.targetActive() && g.count(GroupSyncAction::SkipNotTranslatable) == 0)
            r.add(Severity::Info, subject,
                  QStringLiteral("%1 partitions, each translatable now").arg(g.partitions.size()));
        if (waiting > 0)
            r.add(Severity::Info, subject,
                  QStringLiteral("%1 partitions are translatable once the copy reaches their committed offsets "
                                 "(the drain step)")
                      .arg(waiting));
    }
}

void judgeSchemas(const MirrorJobSpec &spec, const MirrorPlan &plan, int timeoutMs, Report &r)
{
    if (!spec.source.schemaRegistry.isSet() || !spec.target.schemaRegistry.isSet())
        return;
    const QString subject = QStringLiteral("schemas");
    if (spec.syncSchemas) {
        SchemaRegistryClient source(spec.source.schemaRegistry, timeoutMs);
        SchemaRegistryClient target(spec.target.schemaRegistry, timeoutMs);
        const SchemaSyncRound round = runSchemaSyncRound(spec, source, target, false);
        if (!round.ok) {
            r.add(Severity::Blocker, subject, QStringLiteral("the job's schema sync cannot run: ") + round.error,
                  QStringLiteral("make both registries reachable (and, to preserve ids, the target in IMPORT mode)"));
            return;
        }
        for (const QString &f : round.failures)
            r.add(Severity::Blocker, subject, f, QStringLiteral("make the version compatible on the target registry"));
        const auto pending =
            std::count_if(round.steps.cbegin(), round.steps.cend(), [](const SchemaCopyStep &s) { return s.created; });
        r.add(Severity::Info, subject,
              pending > 0 ? QStringLiteral("%1 subject versions of %2 subjects still to register on the target: "
                                           "the job's schema sync does it")
                                .arg(pending)
                                .arg(round.subjects.size())
                          : QStringLiteral("all %1 subjects are on the target registry").arg(round.subjects.size()));
        return;
    }
    QList<MirroredTopic> topics;
    for (const TopicPlanEntry &e : plan.topics)
        topics.append({e.sourceTopic, e.targetTopic});
    const RegistryComparison c =
        readRegistryComparison(spec.source.schemaRegistry, spec.target.schemaRegistry, topics, timeoutMs);
    for (const QString &note : c.notes)
        r.add(Severity::Warning, subject, note, QStringLiteral("check the registries by hand"));
    for (const SchemaFinding &f : c.findings)
        r.add(f.kind == SchemaFinding::Kind::Unchecked ? Severity::Warning : Severity::Blocker, subject, f.text,
              QStringLiteral("set \"schemas\": {\"sync\": true} in the profile (or copy the schemas) so that "
                             "consumers on the target can decode what they read"));
}

void judgeAcls(const MirrorJobSpec &spec, const CutoverOptions &options, AdminService &source, AdminService &target,
               Report &r)
{
    if (spec.syncAcls) {
        AclSyncRecords records(spec.target, aclSyncRecordsTopicOf(spec));
        const AclSyncRound round = runAclSyncRound(spec, source, target, records, false);
        if (!round.ok)
            r.add(Severity::Warning, QStringLiteral("acls"), QStringLiteral("the job's ACL sync: ") + round.error,
                  QStringLiteral("let the job's users describe and create ACLs on both clusters"));
        else
            r.add(Severity::Info, QStringLiteral("acls"),
                  round.plan.create.isEmpty()
                      ? QStringLiteral("every binding the job syncs is on the target")
                      : QStringLiteral("%1 bindings still to create on the target: the job's ACL sync does it")
                            .arg(round.plan.create.size()));
    } else {
        r.add(Severity::Info, QStringLiteral("acls"),
              QStringLiteral("the job does not sync ACLs: the applications' users need their bindings on the target "
                             "(\"acls\": {\"sync\": true, \"mode\": \"exact\"}, or mirrordesk acl)"));
    }
    if (!options.fences())
        return;
    const AdminResult<QList<AclEntry>> acls = source.listAcls();
    if (!acls.ok()) {
        r.add(Severity::Blocker, QStringLiteral("fence"),
              acls.kafkaError.code == RD_KAFKA_RESP_ERR_SECURITY_DISABLED
                  ? QStringLiteral("the source has no authorizer: ACLs cannot fence its producers")
                  : QStringLiteral("cannot read the source's ACLs: ") + acls.error,
              acls.kafkaError.code == RD_KAFKA_RESP_ERR_SECURITY_DISABLED
                  ? QStringLiteral("stop the producers by hand and cut over without a fence")
                  : QStringLiteral("let the job's source user describe and create ACLs (ALTER on the cluster)"));
        return;
    }
    const AdminResult<AclRules> rules = source.aclRules();
    if (rules.ok() && !rules.value.superUsers.isEmpty())
        r.add(Severity::Warning, QStringLiteral("fence"),
              QStringLiteral("super users are never fenced by ACLs: %1")
                  .arg(rules.value.superUsers.join(QStringLiteral(", "))),
              QStringLiteral("stop producers that use these principals by hand"));
    else if (!rules.ok() || rules.value.superUsersHidden)
        r.add(Severity::Warning, QStringLiteral("fence"),
              QStringLiteral("the brokers' super users (not shown to the job's user) are never fenced by ACLs"),
              QStringLiteral("stop producers that use a super user's principal by hand"));
    if (!spec.originHeader.isEmpty())
        r.add(Severity::Warning, QStringLiteral("fence"),
              QStringLiteral("the job copies both ways (originHeader): the fence also stops the job that writes "
                             "back into the source"),
              QStringLiteral("stop the reverse job first; it has nothing to do after the switch"));
}

void judgeInstances(const MirrorJobSpec &spec, AdminService &source, Report &r)
{
    const AdminResult<ConsumerGroupInfo> g = source.describeGroup(consumerGroupId(spec));
    if (!g.ok() || g.value.members.isEmpty())
        return;
    const qsizetype n = g.value.members.size();
    r.add(Severity::Info, QStringLiteral("job"),
          QStringLiteral("%1 running now (group %2): the cutover stops the instance it drives; stop any other after "
                         "it (with the source fenced, it has nothing left to copy)")
              .arg(n == 1 ? QStringLiteral("1 instance of this job is")
                          : QStringLiteral("%1 instances of this job are").arg(n),
                   consumerGroupId(spec)));
}

} // namespace

QString cutoverSeverityName(CutoverFinding::Severity s)
{
    switch (s) {
    case Severity::Blocker: return QStringLiteral("BLOCKER");
    case Severity::Warning: return QStringLiteral("warning");
    case Severity::Info: return QStringLiteral("info");
    }
    return {};
}

std::optional<QString> normalizedPrincipal(const QString &name, QString *error)
{
    const QString n = name.trimmed();
    if (n.isEmpty() || n == QLatin1String("User:")) {
        *error = QStringLiteral("an empty principal");
        return std::nullopt;
    }
    if (n == QLatin1String("*"))
        return QStringLiteral("User:*");
    const qsizetype colon = n.indexOf(QLatin1Char(':'));
    if (colon < 0)
        return QStringLiteral("User:") + n;
    if (colon == 0 || colon == n.size() - 1) {
        *error = QStringLiteral("\"%1\" is not a principal (Type:name, e.g. User:alice)").arg(n);
        return std::nullopt;
    }
    return n;
}

bool CutoverPreflight::blocked() const
{
    return !ok || count(CutoverFinding::Severity::Blocker) > 0;
}

int CutoverPreflight::count(CutoverFinding::Severity s) const
{
    return int(
        std::count_if(findings.cbegin(), findings.cend(), [s](const CutoverFinding &f) { return f.severity == s; }));
}

CutoverPreflight runCutoverPreflight(const MirrorJobSpec &spec, const CutoverOptions &options, int timeoutMs)
{
    CutoverPreflight out;
    Report r{&out};
    const ProbedPlan probed = probeAndPlan(spec, timeoutMs);
    if (!probed.source.reachable || !probed.target.reachable) {
        out.error = !probed.source.reachable ? QStringLiteral("source: ") + probed.source.error
                                             : QStringLiteral("target: ") + probed.target.error;
        return out;
    }
    for (const TopicPlanEntry &t : probed.plan.topics)
        out.sourceTopics.append(t.sourceTopic);
    std::sort(out.sourceTopics.begin(), out.sourceTopics.end());
    if (out.sourceTopics.isEmpty())
        r.add(Severity::Blocker, QStringLiteral("topics"), QStringLiteral("the job mirrors no topic of the source"),
              QStringLiteral("check the profile's topics (include/exclude)"));

    QString error;
    std::unique_ptr<AdminService> source = AdminService::create(spec.source, &error, timeoutMs);
    std::unique_ptr<AdminService> target = source ? AdminService::create(spec.target, &error, timeoutMs) : nullptr;
    if (!source || !target) {
        out.error = error;
        return out;
    }
    judgeTopics(spec, probed.plan, source.get(), target.get(), r);

    OffsetMap map;
    if (!spec.offsetMap) {
        r.add(Severity::Blocker, QStringLiteral("offset map"),
              noOffsetMapReason() + QStringLiteral(": the drain cannot tell what is copied, and no group can move"),
              QStringLiteral("set \"offsetMap\": true and run the job until it has copied everything once"));
    } else if (!readOffsetMap(spec.target, offsetMapTopicOf(spec), timeoutMs, &map, &error)) {
        r.add(Severity::Blocker, QStringLiteral("offset map"), error,
              QStringLiteral("let the job's target user read %1").arg(offsetMapTopicOf(spec)));
    } else {
        out.lag = readCopyLag(spec, map, timeoutMs);
        if (!out.lag.ok)
            r.add(Severity::Blocker, QStringLiteral("copy"),
                  QStringLiteral("cannot read the copy's lag: ") + out.lag.error,
                  QStringLiteral("make the source reachable"));
        else if (const qint64 total = out.lag.total(); total > 0)
            r.add(Severity::Info, QStringLiteral("copy"),
                  QStringLiteral("%1 records in %2 partitions are not copied yet: the drain step waits for them")
                      .arg(total)
                      .arg(out.lag.behind().size()));
        else
            r.add(Severity::Info, QStringLiteral("copy"), QStringLiteral("every record of the source is copied"));
        judgeGroups(spec, options, map, timeoutMs, r);
    }
    judgeSchemas(spec, probed.plan, timeoutMs, r);
    judgeAcls(spec, options, *source, *target, r);
    judgeInstances(spec, *source, r);
    out.ok = true;
    // Blockers first, then warnings, then the rest, each in the order found.
    std::stable_sort(out.findings.begin(), out.findings.end(),
                     [](const CutoverFinding &a, const CutoverFinding &b) { return a.severity < b.severity; });
    return out;
}

} // namespace md
