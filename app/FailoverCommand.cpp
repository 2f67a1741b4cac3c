#include "app/Commands.h"

#include "app/CommandLine.h"
#include "app/ProfileLoader.h"
#include "app/TextTable.h"
#include "engine/groupsync/GroupOffsetSync.h"
#include "engine/offsetmap/OffsetMap.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QLocale>
#include <QRegularExpression>
#include <QThread>

#include <algorithm>

namespace md {

namespace {

constexpr int kCallTimeoutMs = 30000;

const char kFailoverUsage[] =
    "usage: mirrordesk failover FILE.mirrorjob [--groups REGEX] [--max-lag N] [--timeout SECONDS]\n"
    "                           [--allow-rewind] [--dry-run]\n"
    "\n"
    "Moves consumer groups from the source to the target: waits until the job has copied\n"
    "everything (its lag, the source's end offsets against the job's offset map, is at most\n"
    "--max-lag records), then writes each selected source group's committed offsets, translated\n"
    "through the offset map, as the same group's offsets on the target. A consumer of the group\n"
    "started on the target then reads first the record it would have read next on the source.\n"
    "Groups: the profile's \"groups\" (include/exclude regexes). Groups with active members on the\n"
    "target are refused; a target offset is never moved backwards without --allow-rewind.\n"
    "Stop the group's consumers on the source first, so its offsets no longer move.\n"
    "\n"
    "  --groups REGEX       only groups whose whole name matches REGEX (with a profile that\n"
    "                       lists no groups: the groups REGEX matches)\n"
    "  --max-lag N          proceed once at most N records are not copied yet (default 0); a\n"
    "                       group past the copy then goes to where the copy stands\n"
    "  --timeout SECONDS    how long to wait for the copy (default 60)\n"
    "  --allow-rewind       move a target group back when it is ahead of the translation\n"
    "  --dry-run            show the table, write nothing\n"
    "  -h, --help           this text\n"
    "\n"
    "exit codes: 0 done (or a dry run that would succeed), 1 refused or incomplete (active\n"
    "members on the target, offsets that cannot be translated, the copy not caught up in time),\n"
    "2 could not run (bad arguments or profile, unreachable cluster, no offset map)\n";

QString offsetText(qint64 n)
{
    return n >= 0 ? QString::number(n) : QStringLiteral("-");
}

QString stateText(const QString &state, const QStringList &members)
{
    if (state == QLatin1String("Dead") && members.isEmpty())
        return QStringLiteral("no such group yet");
    QString s = state;
    if (!members.isEmpty())
        s += QStringLiteral(", %1 member%2: %3")
                 .arg(members.size())
                 .arg(members.size() == 1 ? QString() : QStringLiteral("s"))
                 .arg(members.join(QStringLiteral(", ")));
    return s;
}

void printGroup(const GroupSyncEntry &g, QTextStream &out)
{
    out << "group " << g.group << " (source: " << (g.sourceState.isEmpty() ? QStringLiteral("?") : g.sourceState)
        << "; target: " << stateText(g.targetState, g.targetMembers) << ")\n";
    QList<QStringList> rows{{QStringLiteral("TOPIC"), QStringLiteral("PARTITION"), QStringLiteral("COMMITTED"),
                             QStringLiteral("TARGET-TOPIC"), QStringLiteral("TARGET-OFFSET"),
                             QStringLiteral("TARGET-NOW"), QStringLiteral("READ-AGAIN"),
                             QStringLiteral("NOT-ON-TARGET"), QStringLiteral("ACTION")}};
    QStringList notes;
    for (const GroupPartitionSync &p : g.partitions) {
        const bool placed = p.translation.targetOffset >= 0 && p.action != GroupSyncAction::SkipNotTranslatable;
        rows.append({p.topic, QString::number(p.partition), offsetText(p.sourceCommitted), p.targetTopic,
                     placed ? offsetText(p.translation.targetOffset) : QStringLiteral("-"), offsetText(p.targetCurrent),
                     placed ? QString::number(p.readAgain) : QStringLiteral("-"), offsetText(p.neverReached),
                     groupSyncActionName(p.action)});
        if (!p.note.isEmpty())
            notes.append(QStringLiteral("  %1[%2]: %3").arg(p.topic).arg(p.partition).arg(p.note));
    }
    printTextTable(rows, out, QStringLiteral("  "), true);
    for (const QString &n : std::as_const(notes))
        out << n << '\n';
}

} // namespace

int runFailoverCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    CommandLine cli(QStringLiteral("failover"), QString());
    cli.setHelpText(QString::fromLatin1(kFailoverUsage));
    const QCommandLineOption groups(QStringLiteral("groups"), QStringLiteral("only groups matching REGEX"),
                                    QStringLiteral("regex"));
    const QCommandLineOption maxLag(QStringLiteral("max-lag"), QStringLiteral("records"), QStringLiteral("n"));
    const QCommandLineOption timeout(QStringLiteral("timeout"), QStringLiteral("seconds"), QStringLiteral("seconds"));
    const QCommandLineOption allowRewind(QStringLiteral("allow-rewind"), QStringLiteral("move target groups back"));
    const QCommandLineOption dryRun(QStringLiteral("dry-run"), QStringLiteral("write nothing"));
    cli.addOptions({groups, maxLag, timeout, allowRewind, dryRun});
    cli.setArguments(QStringLiteral("profile"), 1, 1);
    if (const std::optional<int> exitCode = cli.parse(args, out, err))
        return *exitCode;

    GroupSyncOptions options;
    options.allowRewind = cli.isSet(allowRewind);
    options.allowPartial = true; // only after the wait below: what --max-lag allowed
    if (cli.isSet(groups)) {
        options.groupPattern = cli.value(groups);
        const QRegularExpression re(QRegularExpression::anchoredPattern(options.groupPattern));
        if (options.groupPattern.isEmpty() || !re.isValid())
            return cli.usageError(err, QStringLiteral("--groups: invalid regular expression \"%1\"%2")
                                           .arg(options.groupPattern,
                                                re.isValid() ? QString() : QStringLiteral(": ") + re.errorString()));
    }
    qint64 lagAllowed = 0;
    if (cli.isSet(maxLag)) {
        bool ok = false;
        lagAllowed = cli.value(maxLag).toLongLong(&ok);
        if (!ok || lagAllowed < 0)
            return cli.usageError(
                err, QStringLiteral("--max-lag: \"%1\" is not a number of records (0 or more)").arg(cli.value(maxLag)));
    }
    int timeoutS = 60;
    if (cli.isSet(timeout)) {
        bool ok = false;
        timeoutS = cli.value(timeout).toInt(&ok);
        if (!ok || timeoutS < 1 || timeoutS > 86400)
            return cli.usageError(
                err,
                QStringLiteral("--timeout: \"%1\" is not a number of seconds (1 to 86400)").arg(cli.value(timeout)));
    }

    const QString path = cli.arguments().first();
    const std::optional<MirrorJobSpec> spec = loadJobSpec(path, nullptr, err);
    if (!spec) {
        err << "mirrordesk failover: " << path << " has errors\n";
        err.flush();
        return 2;
    }
    if (!spec->offsetMap) {
        err << "mirrordesk failover: " << noOffsetMapReason()
            << ": group offsets cannot be translated to the target; nothing written\n";
        err.flush();
        return 2;
    }

    const GroupFilter filter(*spec, options.groupPattern);
    if (!filter.isValid() || !filter.selectsAny()) {
        err << "mirrordesk failover: "
            << (filter.isValid()
                    ? QStringLiteral("no group selected: the profile lists no \"groups\" and no --groups was given")
                    : filter.error())
            << '\n';
        err.flush();
        return 2;
    }

    // Wait for the copy: the map is read again each round, as the running job extends it.
    const QString mapTopic = offsetMapTopicOf(*spec);
    const QDeadlineTimer deadline(qint64(timeoutS) * 1000);
    QElapsedTimer sinceProgress;
    OffsetMap map;
    CopyLag lag;
    for (bool first = true;; first = false) {
        map = OffsetMap();
        QString error;
        const int callMs = int(std::clamp<qint64>(deadline.remainingTime(), 1000, kCallTimeoutMs));
        if (!readOffsetMap(spec->target, mapTopic, callMs, &map, &error)) {
            err << "mirrordesk failover: cannot read the job's offset map " << mapTopic << ": " << error << '\n';
            err.flush();
            return 2;
        }
        lag = readCopyLag(*spec, map, callMs);
        if (!lag.ok) {
            err << "mirrordesk failover: cannot read the source's end offsets: " << lag.error << '\n';
            err.flush();
            return 2;
        }
        if (lag.total() <= lagAllowed)
            break;
        if (deadline.hasExpired()) {
            const QList<CopyLag::Partition> behind = lag.behind();
            err << "mirrordesk failover: the copy is not caught up after " << timeoutS
                << " s: " << formatNumber(lag.total()) << " records in " << behind.size()
                << " partitions are not on the target yet (--max-lag " << lagAllowed << "); nothing written\n";
            for (qsizetype i = 0; i < behind.size() && i < 50; ++i) {
                const CopyLag::Partition &p = behind.at(i);
                err << "  " << p.topic << '[' << p.partition << "]: " << formatNumber(p.lag) << " records not copied ("
                    << (p.covered >= 0 ? QStringLiteral("copied up to %1").arg(p.covered)
                                       : QStringLiteral("nothing copied"))
                    << ", end " << p.end << ")\n";
            }
            if (behind.size() > 50)
                err << "  ... and " << behind.size() - 50 << " more partitions\n";
            if (map.isEmpty())
                err << "the offset map " << mapTopic
                    << " is empty or missing: run the job (a version that writes the map) first\n";
            err.flush();
            return 1;
        }
        if (first || sinceProgress.elapsed() >= 1000) {
            err << "waiting for the copy: " << formatNumber(lag.total()) << " records in " << lag.behind().size()
                << " partitions not on the target yet (--max-lag " << lagAllowed << "), "
                << (deadline.remainingTime() + 999) / 1000 << " s left\n";
            err.flush();
            sinceProgress.restart();
        }
        QThread::msleep(500);
    }
    out << "job \"" << spec->name << "\": " << lag.partitions.size() << " partitions, " << formatNumber(lag.total())
        << " records not on the target yet (--max-lag " << lagAllowed << "), offset map " << mapTopic << '\n';

    const GroupSyncPlan plan = planGroupSync(*spec, map, options, kCallTimeoutMs);
    if (!plan.ok) {
        out.flush();
        err << "mirrordesk failover: cannot plan: " << plan.error << '\n';
        err.flush();
        return 2;
    }
    if (plan.groups.isEmpty()) {
        out.flush();
        err << "mirrordesk failover: nothing to fail over: no selected group (of " << plan.groupsListed
            << " on the source) has committed offsets on the mirrored topics\n";
        err.flush();
        return 1;
    }
    for (const GroupSyncEntry &g : plan.groups)
        printGroup(g, out);
    out.flush();

    int exitCode = 0;
    for (const GroupSyncEntry &g : plan.groups) {
        if (g.count(GroupSyncAction::SkipActiveMembers) > 0) {
            err << "refused: group " << g.group << " has active members on the target ("
                << stateText(g.targetState, g.targetMembers)
                << "); its offsets there are not changed: stop its consumers on the target first\n";
            exitCode = 1;
        }
        if (const int n = g.count(GroupSyncAction::SkipNotTranslatable); n > 0) {
            err << "incomplete: " << n << " partition" << (n == 1 ? "" : "s") << " of group " << g.group
                << " cannot be translated (see the notes above)\n";
            exitCode = 1;
        }
        if (const int n = g.count(GroupSyncAction::SkipWouldRewind); n > 0 && !options.allowRewind)
            err << "warning: " << n << " partition" << (n == 1 ? "" : "s") << " of group " << g.group
                << " are ahead on the target and not moved back (--allow-rewind moves them)\n";
        if (groupStateActive(g.sourceState, {}))
            err << "warning: group " << g.group << " is still " << g.sourceState
                << " on the source: its offsets may move after this\n";
    }
    const int toWrite = plan.count(GroupSyncAction::Write);
    if (cli.isSet(dryRun)) {
        out << "dry run: " << toWrite << " partition" << (toWrite == 1 ? "" : "s")
            << " would be written; nothing written\n";
        out.flush();
        err.flush();
        return exitCode;
    }
    const GroupSyncOutcome outcome = applyGroupSync(*spec, plan, kCallTimeoutMs);
    for (const QString &r : outcome.refused) {
        err << "refused: group " << r << " became active on the target; its offsets there are not changed\n";
        exitCode = 1;
    }
    for (const GroupSyncOutcome::Failure &f : outcome.failures) {
        err << "failed: group " << f.group;
        if (!f.topic.isEmpty())
            err << ' ' << f.topic << '[' << f.partition << ']';
        err << ": " << f.error << '\n';
        exitCode = 1;
    }
    if (!outcome.error.isEmpty()) {
        err << "mirrordesk failover: " << outcome.error << '\n';
        exitCode = 2;
    }
    out << "wrote " << outcome.partitionsWritten << " partition offsets of " << outcome.groupsWritten << " group"
        << (outcome.groupsWritten == 1 ? "" : "s") << " on the target\n";
    out.flush();
    err.flush();
    return exitCode;
}

} // namespace md
