#include "app/Commands.h"

#include "app/CommandLine.h"
#include "app/ProfileLoader.h"
#include "app/TextTable.h"
#include "engine/mirror/ReversePlan.h"
#include "engine/mirror/TopicNaming.h"
#include "engine/offsetmap/OffsetMap.h"
#include "model/profile/JobProfile.h"

#include <QFileInfo>
#include <QLocale>

#include <algorithm>

namespace md {

namespace {

constexpr int kReverseTimeoutMs = 30000;

const char kReverseUsage[] =
    "usage: mirrordesk reverse FILE.mirrorjob --output FILE2.mirrorjob [--dry-run] [--force]\n"
    "\n"
    "Failback: writes the job that copies the target back to the source, and sets where each of\n"
    "its partitions starts, so that what came from the source is not copied back.\n"
    "  - prefix naming: the reverse job writes \"<target alias>.<topic>\" on the source and never\n"
    "    takes the \"<source alias>.*\" topics, so both jobs may run at once;\n"
    "  - identity naming: each partition the job filled starts after the last record it copied\n"
    "    there (from the job's offset map); stop the forward job first, or the two would copy\n"
    "    each other's records back and forth (refused while it has members);\n"
    "  - template naming cannot be reversed automatically (refused).\n"
    "The start positions are written as the reverse job's committed progress (its group on the\n"
    "target cluster); refused while that group has active members.\n"
    "\n"
    "  --output FILE2   the reverse profile to write (refused if it exists, unless --force)\n"
    "  --dry-run        show the start positions, write nothing\n"
    "  --force          overwrite FILE2\n"
    "  -h, --help       this text\n"
    "\n"
    "exit codes: 0 written (or dry run), 1 refused or failed, 2 usage or profile error\n";

JobProfile reversedProfile(const JobProfile &forward, const MirrorJobSpec &reverse)
{
    JobProfile r = forward;
    std::swap(r.source, r.target);
    r.name = reverse.name;
    r.groupId = reverse.groupId;
    r.offsetMapTopic.clear();
    r.start = StartPosition::Earliest;
    r.startTimestamp = {};
    r.stop = StopCondition::RunForever;
    r.stopTimestamp = {};
    r.stopAfterRecords = 0;
    r.fileName.clear();
    return r;
}

void printTable(const JobProgress &plan, QTextStream &out)
{
    const QStringList header = {QStringLiteral("TOPIC"), QStringLiteral("PARTITION"), QStringLiteral("LOG START"),
                                QStringLiteral("END"),   QStringLiteral("STARTS AT"), QStringLiteral("TO COPY BACK")};
    QList<QStringList> rows;
    for (const PartitionStart &p : plan.partitions)
        rows.append({p.topic, QString::number(p.partition), formatNumber(p.logStart), formatNumber(p.end),
                     formatNumber(p.start), formatNumber(p.toCopy)});
    rows.prepend(header);
    printTextTable(rows, out);
}

} // namespace

int runReverseCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    CommandLine cli(QStringLiteral("reverse"), QString());
    cli.setHelpText(QString::fromLatin1(kReverseUsage));
    const QCommandLineOption output(QStringLiteral("output"), QStringLiteral("the reverse profile"),
                                    QStringLiteral("file"));
    const QCommandLineOption dryRun(QStringLiteral("dry-run"), QStringLiteral("write nothing"));
    const QCommandLineOption force(QStringLiteral("force"), QStringLiteral("overwrite the output"));
    cli.addOptions({output, dryRun, force});
    cli.setArguments(QStringLiteral("profile"), 1, 1);
    if (const std::optional<int> exitCode = cli.parse(args, out, err))
        return *exitCode;
    const QCommandLineParser &parser = cli.parser();
    if (!parser.isSet(output) || parser.value(output).trimmed().isEmpty())
        return cli.usageError(err, QStringLiteral("--output FILE2 is required"));
    const QString outPath = parser.value(output);
    const QString path = parser.positionalArguments().first();
    if (QFileInfo(outPath).absoluteFilePath() == QFileInfo(path).absoluteFilePath())
        return cli.usageError(err, QStringLiteral("--output must not be the forward profile itself"));
    if (QFileInfo::exists(outPath) && !parser.isSet(force) && !parser.isSet(dryRun))
        return cli.usageError(err, QStringLiteral("%1 exists; pass --force to overwrite it").arg(outPath));

    QList<ProfileIssue> issues;
    const std::optional<JobProfile> profile = JobProfile::load(path, &issues);
    const std::optional<MirrorJobSpec> forward = profile ? loadJobSpec(path, nullptr, err) : std::nullopt;
    if (!profile || !forward) {
        for (const ProfileIssue &i : std::as_const(issues))
            err << i.toString() << '\n';
        err << "mirrordesk reverse: " << path << " has errors\n";
        err.flush();
        return 2;
    }
    if (!forward->offsetMap) {
        // Where the reverse job starts is read off the forward map.
        err << "mirrordesk reverse: " << noOffsetMapReason()
            << ": where the copy ends on the target is not known, so the reverse job's start cannot be planned\n";
        err.flush();
        return 1;
    }
    const ReverseJob reverse = reverseSpec(*forward);
    if (!reverse.ok) {
        err << "mirrordesk reverse: " << reverse.error << '\n';
        err.flush();
        return 1;
    }

    // Identity naming both ways loops: the forward job must not be running.
    if (forward->naming == NamingPolicy::Identity) {
        const JobProgress running = readJobProgress(*forward, kReverseTimeoutMs);
        if (!running.ok) {
            err << "mirrordesk reverse: cannot read the forward job's group: " << running.error << '\n';
            err.flush();
            return 1;
        }
        if (running.groupActive()) {
            err << "mirrordesk reverse: the forward job is running (group " << running.groupId << ": "
                << running.members.join(QStringLiteral(", "))
                << "); with identity naming the two jobs would copy each other's records back and forth: stop it "
                   "first\n";
            err.flush();
            return 1;
        }
    }

    OffsetMap map;
    QString error;
    const QString mapTopic =
        forward->offsetMapTopic.isEmpty() ? defaultOffsetMapTopic(consumerGroupId(*forward)) : forward->offsetMapTopic;
    if (!readOffsetMap(forward->target, mapTopic, kReverseTimeoutMs, &map, &error)) {
        err << "mirrordesk reverse: cannot read the job's offset map: " << error << '\n';
        err.flush();
        return 1;
    }
    const JobProgress plan = planReverseStart(*forward, reverse.spec, map, kReverseTimeoutMs);
    if (!plan.ok) {
        err << "mirrordesk reverse: cannot plan the reverse job: " << plan.error << '\n';
        err.flush();
        return 1;
    }
    out << "reverse job \"" << reverse.spec.name << "\": " << reverse.spec.source.bootstrap << " -> "
        << reverse.spec.target.bootstrap << ", group " << plan.groupId << ", "
        << (forward->naming == NamingPolicy::Identity ? "identity naming" : "prefix naming") << '\n';
    if (plan.partitions.isEmpty())
        out << "no topic on the target matches the job's selection yet; the reverse job copies them from their "
               "start when they appear\n";
    else
        printTable(plan, out);
    out << QStringLiteral(
               "%1 partitions, %2 records to copy back; the offset map covers %3 partitions of the forward job\n")
               .arg(formatNumber(plan.partitions.size()), formatNumber(plan.totalToCopy()),
                    formatNumber(map.partitions().size()));
    if (parser.isSet(dryRun)) {
        out << "dry run: nothing written\n";
        out.flush();
        return 0;
    }
    if (plan.groupActive()) {
        err << "mirrordesk reverse: group " << plan.groupId << " has active members ("
            << plan.members.join(QStringLiteral(", ")) << "): stop the reverse job's instances first\n";
        err.flush();
        return 1;
    }
    // Progress first: a profile without its start positions would copy everything back.
    if (!plan.partitions.isEmpty()) {
        const ResetOutcome written = applyReset(reverse.spec, plan, kReverseTimeoutMs);
        if (!written.ok) {
            err << "mirrordesk reverse: cannot write the start positions: " << written.error << '\n';
            err.flush();
            return 1;
        }
    }
    const JobProfile reversed = reversedProfile(*profile, reverse.spec);
    if (!reversed.save(outPath, &error)) {
        err << "mirrordesk reverse: cannot write " << outPath << ": " << error << '\n';
        err.flush();
        return 1;
    }
    out << "wrote " << outPath << "; start it with: mirrordesk run " << outPath << '\n';
    out.flush();
    return 0;
}

} // namespace md
