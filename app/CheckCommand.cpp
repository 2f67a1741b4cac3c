#include "app/Commands.h"

#include "app/CommandLine.h"
#include "app/ProfileLoader.h"
#include "engine/acl/AclSyncRecords.h"
#include "engine/acl/AclSyncRunner.h"
#include "engine/admin/AdminService.h"
#include "engine/admin/ClusterProbe.h"
#include "engine/mirror/JobProgress.h"
#include "engine/mirror/MirrorPlan.h"
#include "engine/mirror/RetentionCheck.h"
#include "engine/mirror/TargetTopicRule.h"
#include "engine/mirror/TopicNaming.h"
#include "engine/mirror/TransactionCheck.h"
#include "engine/schema/RegistryCompare.h"
#include "engine/schemasync/SchemaSyncRunner.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>

namespace md {

namespace {

// Each cluster gets this long; both are contacted at once, so `check` answers within 20 s.
constexpr int kCheckProbeTimeoutMs = 15000;

QString sideLine(const QString &role, const ClusterConfig &cluster, const ClusterProbeResult &probe)
{
    QString line = role + QLatin1Char(' ') + (cluster.alias.isEmpty() ? QString() : cluster.alias + QLatin1Char(' ')) +
                   QLatin1Char('(') + cluster.bootstrap + QStringLiteral("): ");
    if (!probe.reachable)
        return line + QStringLiteral("UNREACHABLE: ") + probe.error;
    return line + QStringLiteral("reachable, %1 broker%2, %3 topics (%4 s)")
                      .arg(probe.brokerCount)
                      .arg(probe.brokerCount == 1 ? QString() : QStringLiteral("s"))
                      .arg(probe.topics.size())
                      .arg(double(probe.elapsedMs) / 1000.0, 0, 'f', 1);
}

// Where each mirrored partition starts, why, and what that copies (the engine's
// "progress always wins" rule), with a warning for records that vanished before
// they were copied. A failed read is a warning: it does not make the profile invalid.
void printPartitionStarts(const MirrorJobSpec &spec, QTextStream &out, QTextStream &err)
{
    const JobProgress progress = readJobProgress(spec, kCheckProbeTimeoutMs);
    if (!progress.ok) {
        err << "warning: cannot read where the job starts: " << progress.error << '\n';
        err.flush();
        return;
    }
    const QLocale english(QLocale::English);
    const bool noGroup = progress.groupState == QLatin1String("Dead") && progress.members.isEmpty();
    out << "where the job starts (group " << progress.groupId << ", "
        << (noGroup ? QStringLiteral("no such group yet") : progress.groupState);
    if (!progress.members.isEmpty())
        out << ", " << progress.members.size() << (progress.members.size() == 1 ? " member: " : " members: ")
            << progress.members.join(QStringLiteral(", "));
    out << "):\n";
    for (const PartitionStart &p : progress.partitions) {
        out << "  " << p.topic << '[' << p.partition << "]: " << p.describe() << ", "
            << english.toString(qlonglong(p.toCopy)) << " to copy\n";
        if (const QString vanished = p.vanishedText(); !vanished.isEmpty())
            out << "    warning: " << vanished << '\n';
    }
    const qsizetype n = progress.partitions.size();
    out << "records to copy: " << english.toString(qlonglong(progress.totalToCopy())) << " in " << n
        << (n == 1 ? " partition" : " partitions");
    if (const qint64 skipped = progress.totalSkipped(); skipped > 0)
        out << " (" << english.toString(qlonglong(skipped)) << " vanished before they were copied)";
    out << '\n';
    out.flush();
}

// The delivery guarantee, and for exactly-once whether the target can run the
// job's transactions; returns the number of errors (each stops every transaction).
int printDelivery(const MirrorJobSpec &spec, const ClusterProbeResult &target, QTextStream &out)
{
    if (spec.delivery != DeliveryGuarantee::ExactlyOnce) {
        out << "delivery: at-least-once (after a crash, the records copied since the last commit are copied again)\n";
        return 0;
    }
    out << "delivery: exactly-once (records and progress commit in target transactions, every "
        << spec.transactionIntervalMs << " ms or " << spec.transactionMaxRecords
        << " records; progress lives on the target)\n";
    const TransactionCheckResult t = checkTransactions(
        spec, target.brokerCount, target.topic(QStringLiteral("__transaction_state")) != nullptr, kCheckProbeTimeoutMs);
    if (!t.error.isEmpty())
        out << "  warning: transactions not checked: " << t.error << '\n';
    else
        out << "  target: " << t.summary << '\n';
    for (const QString &p : t.problems)
        out << "  ERROR: " << p << '\n';
    out << "  note: consumers of the target see each record once only when they read with "
           "isolation.level=read_committed\n";
    out.flush();
    return int(t.problems.size());
}

// The mirrored topics' subjects on both registries: records are copied byte for
// byte, so a schema id the target registry lacks or holds as another schema
// breaks its readers. Warnings only: the job itself runs either way.
void printSchemas(const MirrorJobSpec &spec, const MirrorPlan &plan, QTextStream &out)
{
    QList<MirroredTopic> topics;
    for (const TopicPlanEntry &e : plan.topics)
        topics.append({e.sourceTopic, e.targetTopic});
    const RegistryComparison c =
        readRegistryComparison(spec.source.schemaRegistry, spec.target.schemaRegistry, topics, kCheckProbeTimeoutMs);
    if (c.state == RegistryComparison::State::NoRegistry)
        return;
    out << "schemas (TopicNameStrategy subjects of the mirrored topics):\n";
    for (const QString &note : c.notes)
        out << "  warning: " << note << '\n';
    for (const SchemaFinding &f : c.findings)
        out << "  warning: " << f.text << '\n';
    out << "  " << c.summary() << '\n';
    out.flush();
}

// What the job's schema sync would register on the target registry now
// (nothing is registered), and the id map as far as the target has the
// schemas. Preserve against a registry that cannot take given ids is an error.
int printSchemaSync(const MirrorJobSpec &spec, QTextStream &out)
{
    out << "schema sync (ids " << (spec.schemaIds == MirrorJobSpec::SchemaIds::Preserve ? "preserved" : "translated")
        << ", every " << spec.schemaSyncIntervalMs / 1000.0 << " s):\n";
    SchemaRegistryClient source(spec.source.schemaRegistry, kCheckProbeTimeoutMs);
    SchemaRegistryClient target(spec.target.schemaRegistry, kCheckProbeTimeoutMs);
    const SchemaSyncRound r = runSchemaSyncRound(spec, source, target, false);
    if (r.fatal) {
        out << "ERROR: " << r.error << '\n';
        return 1;
    }
    if (!r.ok) {
        out << "  warning: not checked: " << r.error << '\n';
        return 0;
    }
    int toRegister = 0;
    QStringList mapped;
    for (const SchemaCopyStep &s : r.steps) {
        if (s.created) {
            ++toRegister;
            out << "  register " << s.targetSubject << " from " << s.sourceSubject << " version " << s.sourceVersion
                << " (source id " << s.sourceId << ')';
            if (!s.compatibility.isEmpty())
                out << ", compatibility " << s.compatibility;
            out << '\n';
        } else {
            mapped << QStringLiteral("%1 -> %2").arg(s.sourceId).arg(s.targetId);
        }
    }
    for (const QString &f : r.failures)
        out << "  warning: " << f << '\n';
    mapped.removeDuplicates();
    if (!mapped.isEmpty())
        out << "  ids already on the target (source -> target): " << mapped.join(QStringLiteral(", ")) << '\n';
    out << "  " << r.subjects.size() << " subject(s) follow the job (with what they reference): " << toRegister
        << " version(s) to register, " << (r.steps.size() - toRegister) << " already on the target\n";
    out.flush();
    return 0;
}

// What the job's ACL sync would create and delete on the target now (nothing is
// changed). A target without an authorizer is a warning: the job then runs without it.
void printAclSync(const MirrorJobSpec &spec, QTextStream &out)
{
    if (!spec.syncAcls)
        return;
    out << "ACL sync (" << (spec.aclSyncMode == MirrorJobSpec::AclSyncMode::Safe ? "safe" : "exact") << " mode, every "
        << spec.aclSyncIntervalMs / 1000.0 << " s):\n";
    QString error;
    std::unique_ptr<AdminService> source = AdminService::create(spec.source, &error, kCheckProbeTimeoutMs);
    std::unique_ptr<AdminService> target =
        source ? AdminService::create(spec.target, &error, kCheckProbeTimeoutMs) : nullptr;
    if (!source || !target) {
        out << "  warning: not checked: " << error << '\n';
        return;
    }
    AclSyncRecords records(spec.target, aclSyncRecordsTopicOf(spec));
    const AclSyncRound r = runAclSyncRound(spec, *source, *target, records, false);
    if (!r.ok) {
        out << "  warning: "
            << (r.stop == AclSyncRound::Stop::NoTargetAuthorizer
                    ? QStringLiteral("the job would run without ACL sync: ")
                    : QStringLiteral("not checked: "))
            << r.error << '\n';
        return;
    }
    if (!r.sourceHasAuthorizer)
        out << "  note: the source has no authorizer: no binding to copy\n";
    for (const AclEntry &b : r.plan.create)
        out << "  create " << describeAcl(b) << '\n';
    for (const AclEntry &b : r.plan.remove)
        out << "  delete " << describeAcl(b) << " (made by this job, gone from the source)\n";
    for (const QString &note : r.plan.notes)
        out << "  note: " << note << '\n';
    out << "  " << r.plan.wanted.size() << " binding(s) follow the job, " << r.plan.create.size() << " to create, "
        << r.plan.remove.size() << " to delete (the target's own bindings are never touched)\n";
}

// A profile beside this one that mirrors the other way (its source is this one's
// target and its target this one's source): under identity naming both would
// copy every record back and forth, unless both stamp and honour the same
// originHeader. Prefix naming never copies "<alias>.*" back, so it needs none.
QStringList activeActiveProblems(const QString &path, const MirrorJobSpec &spec)
{
    QStringList problems;
    if (spec.naming != NamingPolicy::Identity)
        return problems;
    const QFileInfo self(path);
    const QFileInfoList siblings =
        self.absoluteDir().entryInfoList({QStringLiteral("*.mirrorjob")}, QDir::Files, QDir::Name);
    for (const QFileInfo &f : siblings) {
        if (f.absoluteFilePath() == self.absoluteFilePath())
            continue;
        QList<ProfileIssue> ignored;
        const std::optional<JobProfile> other = JobProfile::load(f.absoluteFilePath(), &ignored);
        if (!other || other->naming != NamingPolicy::Identity)
            continue;
        ClusterConfig otherSource, otherTarget;
        otherSource.bootstrap = other->source.bootstrap;
        otherTarget.bootstrap = other->target.bootstrap;
        if (!sameCluster(otherSource, spec.target) || !sameCluster(otherTarget, spec.source))
            continue;
        if (!spec.originHeader.isEmpty() && spec.originHeader == other->originHeader)
            continue;
        problems << QStringLiteral("%1 mirrors the other way and both use identity naming: every record would be "
                                   "copied back and forth; set the same \"originHeader\" (for example "
                                   "\"mirrordesk.origin\") in both profiles")
                        .arg(f.fileName());
    }
    return problems;
}

} // namespace

int runCheckCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    CommandLine cli(QStringLiteral("check"), QStringLiteral("FILE.mirrorjob"));
    cli.setDescription(
        QStringLiteral("Validates a profile, contacts both clusters and shows what a run would do: the topics it\n"
                       "mirrors (and creates), where each partition starts, and, with schema registries, the mirrored\n"
                       "topics' subjects and schema ids the target's registry lacks or holds otherwise (warnings).\n"
                       "Nothing is written."));
    cli.setArguments(QStringLiteral("profile"), 1, 1);
    cli.setFooter(
        QStringLiteral("exit codes: 0 valid and both clusters answered, 1 the profile has errors or the job would\n"
                       "fail on these clusters, 2 a cluster could not be reached (or a usage error)"));
    if (const std::optional<int> exitCode = cli.parse(args, out, err))
        return *exitCode;
    const QString path = cli.arguments().first();
    // Prints every warning and error of the profile (and of its ${...} references).
    const std::optional<MirrorJobSpec> spec = loadJobSpec(path, nullptr, err);
    err.flush();
    if (!spec) {
        out << path << ": profile has errors\n";
        out.flush();
        return 1;
    }
    out << path << ": profile is valid (job \"" << spec->name << "\")\n";
    out.flush();

    // Both clusters at once, then the configs of the source topics the job would create.
    const ProbedPlan probed = probeAndPlan(*spec, kCheckProbeTimeoutMs);
    const ClusterProbeResult &source = probed.source;
    const ClusterProbeResult &target = probed.target;
    out << sideLine(QStringLiteral("source"), spec->source, source) << '\n';
    out << sideLine(QStringLiteral("target"), spec->target, target) << '\n';
    out.flush();
    if (!source.reachable || !target.reachable) {
        if (!source.reachable)
            err << "error: source cluster unreachable: " << source.error << '\n';
        if (!target.reachable)
            err << "error: target cluster unreachable: " << target.error << '\n';
        err.flush();
        return 2;
    }

    const MirrorPlan &plan = probed.plan;
    int created = 0, errors = 0;
    out << "topics mirrored (" << plan.topics.size() << "):\n";
    for (const TopicPlanEntry &e : plan.topics) {
        out << "  " << e.sourceTopic << " (" << e.sourcePartitions << " partitions) -> " << e.targetTopic << ": ";
        if (e.action == TopicPlanEntry::Action::Error) {
            out << "ERROR: ";
            ++errors;
        } else if (e.action == TopicPlanEntry::Action::Create) {
            ++created;
        }
        out << e.note << '\n';
        if (e.action == TopicPlanEntry::Action::Create) {
            // What the engine will set on the new topic; everything else is the target's default.
            const QString configs = configsText(e.configs);
            out << "      configs: " << (configs.isEmpty() ? QStringLiteral("none (the target's defaults)") : configs);
            if (!e.configsNote.isEmpty())
                out << " (" << e.configsNote << ')';
            out << '\n';
        }
    }
    if (plan.topics.isEmpty())
        out << "  (none: no source topic matches the include patterns)\n";
    if (!plan.excluded.isEmpty()) {
        out << "matching but not mirrored (" << plan.excluded.size() << "):\n";
        for (const ExcludedTopic &x : plan.excluded)
            out << "  " << x.topic << ": " << x.reason << '\n';
    }
    for (const QString &p : activeActiveProblems(path, *spec)) {
        out << "ERROR: active/active: " << p << '\n';
        ++errors;
    }
    errors += printDelivery(*spec, target, out);
    printPartitionStarts(*spec, out, err);
    // History the target would delete on arrival: source records older than the target topic's retention.
    const RetentionCheckResult retention = checkRetention(*spec, plan, kCheckProbeTimeoutMs);
    for (const QString &w : retention.warnings())
        out << "warning: " << w << '\n';
    for (const QString &p : retention.problems)
        out << "note: retention not checked: " << p << '\n';
    if (spec->syncSchemas)
        errors += printSchemaSync(*spec, out); // what the registries lack is what the sync copies
    else
        printSchemas(*spec, plan, out);
    printAclSync(*spec, out);

    out << "check: " << plan.topics.size() << " topics to mirror, " << created << " to create, " << errors
        << (errors == 1 ? " error" : " errors") << '\n';
    out.flush();
    return errors ? 1 : 0;
}

} // namespace md
