#include "app/Commands.h"

#include "app/AppCommands.h"
#include "app/CommandLine.h"
#include "app/ProfileLoader.h"
#include "app/SignalBridge.h"
#include "engine/cutover/CutoverReport.h"
#include "engine/mirror/MirrorJob.h"
#include "model/cutover/CutoverTask.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <cstdlib>

namespace md {

namespace {

const char kCutoverUsage[] =
    "usage: mirrordesk cutover FILE.mirrorjob [--dry-run] [--fence-principals P1,P2 | --fence-all]\n"
    "                          [--groups REGEX] [--timeout SECONDS] [--settle SECONDS] [--report FILE]\n"
    "       mirrordesk cutover FILE.mirrorjob --rollback [--no-restart]\n"
    "\n"
    "Switches the applications from the source to the target, step by step:\n"
    "  1. preflight: per mirrored topic the target's partitions and configs, schemas and ACLs as\n"
    "     far as the job syncs them, the selected groups, the copy's lag; what would block the\n"
    "     cutover, each with its fix (--dry-run stops here: exit 0 or 1)\n"
    "  2. fence: DENY WRITE bindings on the mirrored topics on the source for the given\n"
    "     principals (recorded, so --rollback removes exactly those); then the source's end\n"
    "     offsets must stand still for --settle seconds (producers still writing are named)\n"
    "  3. drain: the job (run by this command) copies until nothing is left\n"
    "  4. groups: every selected group's offsets, translated exactly, on the target (groups with\n"
    "     active members on the target are refused)\n"
    "  5. stop: the job stops cleanly; the report says where each group resumes on the target,\n"
    "     the records never copied (0) and the settings the applications switch to\n"
    "Each step is recorded on the target before it acts: a cutover interrupted anywhere (a\n"
    "signal, a crash, a cluster down) goes on from where it was when run again.\n"
    "\n"
    "  --dry-run                  the preflight only; writes nothing\n"
    "  --fence-principals P1,P2   fence these principals (User:alice or alice)\n"
    "  --fence-all                fence every principal (User:*) but the brokers' super users;\n"
    "                             the job only reads the source, so it is not held up\n"
    "  --groups REGEX             groups to move besides (or without) the profile's \"groups\"\n"
    "  --timeout SECONDS          how long the fence may wait for quiet and the drain for the\n"
    "                             copy (default 300)\n"
    "  --settle SECONDS           quiet time the source's ends need after the fence (default 5)\n"
    "  --report FILE              also write the report as JSON (also when the cutover stops early)\n"
    "  --rollback                 remove the recorded fence, forget the cutover and run the job\n"
    "                             again (as `mirrordesk run FILE`)\n"
    "  --no-restart               with --rollback: do not run the job afterwards\n"
    "  -h, --help                 this text\n"
    "\n"
    "exit codes: 0 done (a dry run without blockers), 1 blocked, refused, not done in time or\n"
    "interrupted (run again to go on), 2 could not run (bad arguments or profile, unreachable cluster)\n";

void printPreflight(const CutoverPreflight &p, QTextStream &out)
{
    out << "preflight: " << p.sourceTopics.size() << " topics, " << p.groupsSelected << " groups; "
        << p.count(CutoverFinding::Severity::Blocker) << " blockers, " << p.count(CutoverFinding::Severity::Warning)
        << " warnings\n";
    for (const CutoverFinding &f : p.findings) {
        out << "  " << cutoverSeverityName(f.severity) << ' ' << f.subject << ": " << f.text << '\n';
        if (!f.fix.isEmpty() && f.severity != CutoverFinding::Severity::Info)
            out << "      fix: " << f.fix << '\n';
    }
    out.flush();
}

QJsonObject reportJson(const CutoverOutcome &o)
{
    QJsonObject r = o.report;
    QJsonArray findings;
    for (const CutoverFinding &f : o.preflight.findings) {
        QJsonObject o{{QStringLiteral("severity"), cutoverSeverityName(f.severity).toLower()},
                      {QStringLiteral("subject"), f.subject},
                      {QStringLiteral("text"), f.text}};
        if (!f.fix.isEmpty())
            o.insert(QStringLiteral("fix"), f.fix);
        findings.append(o);
    }
    r.insert(QStringLiteral("preflight"), findings);
    r.insert(QStringLiteral("exitCode"), o.exitCode);
    r.insert(QStringLiteral("reached"), cutoverStepName(o.reached));
    if (!o.error.isEmpty())
        r.insert(QStringLiteral("error"), o.error);
    return r;
}

bool writeReport(const QString &path, const QJsonObject &report, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = file.errorString();
        return false;
    }
    file.write(QJsonDocument(report).toJson(QJsonDocument::Indented));
    if (!file.commit()) {
        *error = file.errorString();
        return false;
    }
    return true;
}

} // namespace

int runCutoverCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    CommandLine cli(QStringLiteral("cutover"), QString());
    cli.setHelpText(QString::fromLatin1(kCutoverUsage));
    const QCommandLineOption dryRun(QStringLiteral("dry-run"), QStringLiteral("preflight only"));
    const QCommandLineOption fencePrincipals(QStringLiteral("fence-principals"), QStringLiteral("principals"),
                                             QStringLiteral("list"));
    const QCommandLineOption fenceAll(QStringLiteral("fence-all"), QStringLiteral("fence every principal"));
    const QCommandLineOption groups(QStringLiteral("groups"), QStringLiteral("regex"), QStringLiteral("regex"));
    const QCommandLineOption timeout(QStringLiteral("timeout"), QStringLiteral("seconds"), QStringLiteral("seconds"));
    const QCommandLineOption settle(QStringLiteral("settle"), QStringLiteral("seconds"), QStringLiteral("seconds"));
    const QCommandLineOption report(QStringLiteral("report"), QStringLiteral("file"), QStringLiteral("file"));
    const QCommandLineOption rollback(QStringLiteral("rollback"), QStringLiteral("undo"));
    const QCommandLineOption noRestart(QStringLiteral("no-restart"), QStringLiteral("with --rollback"));
    cli.addOptions({dryRun, fencePrincipals, fenceAll, groups, timeout, settle, report, rollback, noRestart});
    cli.setArguments(QStringLiteral("profile"), 1, 1);
    if (const std::optional<int> exitCode = cli.parse(args, out, err))
        return *exitCode;

    CutoverOptions options;
    options.dryRun = cli.isSet(dryRun);
    if (cli.isSet(fencePrincipals) && cli.isSet(fenceAll))
        return cli.usageError(err, QStringLiteral("--fence-principals and --fence-all: give one of them"));
    if (cli.isSet(fenceAll))
        options.fencePrincipals = {QStringLiteral("User:*")};
    if (cli.isSet(fencePrincipals)) {
        for (const QString &name : cli.value(fencePrincipals).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            QString why;
            const std::optional<QString> p = normalizedPrincipal(name, &why);
            if (!p)
                return cli.usageError(err, QStringLiteral("--fence-principals: %1").arg(why));
            if (!options.fencePrincipals.contains(*p))
                options.fencePrincipals.append(*p);
        }
        if (options.fencePrincipals.isEmpty())
            return cli.usageError(err, QStringLiteral("--fence-principals needs at least one principal"));
    }
    options.groupPattern = cli.value(groups);
    const auto seconds = [&](const QCommandLineOption &o, int fallback, int min, int *value) {
        *value = fallback;
        if (!cli.isSet(o))
            return true;
        bool ok = false;
        *value = cli.value(o).toInt(&ok);
        return ok && *value >= min && *value <= 86400;
    };
    if (!seconds(timeout, 300, 1, &options.timeoutS))
        return cli.usageError(
            err, QStringLiteral("--timeout: \"%1\" is not a number of seconds (1 to 86400)").arg(cli.value(timeout)));
    if (!seconds(settle, 5, 0, &options.settleS))
        return cli.usageError(
            err, QStringLiteral("--settle: \"%1\" is not a number of seconds (0 to 86400)").arg(cli.value(settle)));
    if (cli.isSet(noRestart) && !cli.isSet(rollback))
        return cli.usageError(err, QStringLiteral("--no-restart goes with --rollback"));
    if (cli.isSet(rollback) && (options.dryRun || options.fences() || cli.isSet(groups)))
        return cli.usageError(err, QStringLiteral("--rollback takes no other option but --no-restart"));

    const QString path = cli.arguments().first();
    const std::optional<MirrorJobSpec> spec = loadJobSpec(path, nullptr, err);
    if (!spec) {
        err << "mirrordesk cutover: " << path << " has errors\n";
        err.flush();
        return 2;
    }

    CutoverTask task(*spec, options);
    CutoverOutcome outcome;
    QObject::connect(&task, &CutoverTask::preflightFinished, &task,
                     [&](const CutoverPreflight &p) { printPreflight(p, out); });
    QObject::connect(&task, &CutoverTask::stepUpdated, &task,
                     [&](CutoverStep step, CutoverStepState state, const QString &text) {
                         if (step == CutoverStep::Preflight && state != CutoverStepState::Failed)
                             return; // the preflight prints itself
                         const char *what = state == CutoverStepState::Running   ? "..."
                                            : state == CutoverStepState::Done    ? "done"
                                            : state == CutoverStepState::Skipped ? "skipped"
                                                                                 : "FAILED";
                         QTextStream &s = state == CutoverStepState::Failed ? err : out;
                         s << "[" << cutoverStepName(step) << "] " << cutoverStepTitle(step) << ": " << what;
                         if (!text.isEmpty())
                             s << " (" << text << ')';
                         s << Qt::endl;
                     });
    QObject::connect(&task, &CutoverTask::progressLine, &task,
                     [&](const QString &line) { out << "    " << line << Qt::endl; });
    QObject::connect(&task, &CutoverTask::jobEvent, &task, [&](const JobEvent &e) {
        if (e.severity != JobEvent::Severity::Info)
            err << (e.severity == JobEvent::Severity::Error ? "job error: " : "job warning: ") << e.text << Qt::endl;
    });
    QObject::connect(&task, &CutoverTask::finished, &task, [&](const CutoverOutcome &o) {
        outcome = o;
        QCoreApplication::exit(0);
    });
    int signals = 0;
    SignalBridge bridge([&](int) {
        if (++signals == 1) {
            err << "interrupting: the cutover stops at the next step and records where it was (signal again to "
                   "abort at once)"
                << Qt::endl;
            task.cancel();
        } else {
            std::_Exit(130);
        }
    });
    if (cli.isSet(rollback))
        task.startRollback();
    else
        task.start();
    QCoreApplication::exec();
    // A cutover that ended early leaves its own job running: stopped cleanly
    // (flushed, committed) before the process ends, so the next run resumes
    // from where this one copied to.
    if (MirrorJob *job = task.job(); job && job->isRunning()) {
        err << "stopping the job: flushing and committing" << Qt::endl;
        job->stop();
        job->waitForFinished(180000);
    }

    if (cli.isSet(rollback)) {
        if (outcome.exitCode != 0) {
            err << "mirrordesk cutover --rollback: " << outcome.error << Qt::endl;
            return outcome.exitCode;
        }
        if (outcome.reached == CutoverStep::Done)
            err << "warning: that cutover had finished: applications that switched to the target must switch back "
                   "before the job copies again"
                << Qt::endl;
        else
            out << "the cutover had stopped before step \"" << cutoverStepName(outcome.reached) << '"' << Qt::endl;
        out << "rolled back: the fence is gone and the cutover is forgotten" << Qt::endl;
        if (cli.isSet(noRestart))
            return 0;
        return runRunCommand({path}, out, err);
    }
    if (cli.isSet(report)) {
        QString why;
        if (!writeReport(cli.value(report), reportJson(outcome), &why)) {
            err << "mirrordesk cutover: cannot write the report " << cli.value(report) << ": " << why << Qt::endl;
            if (outcome.exitCode == 0)
                outcome.exitCode = 2;
        }
    }
    if (outcome.alreadyDone)
        out << "this job's cutover was done before; --rollback undoes it" << Qt::endl;
    if (outcome.exitCode == 0 && !options.dryRun)
        out << cutoverReportText(outcome.report) << Qt::flush;
    else if (outcome.exitCode == 0)
        out << "dry run: nothing blocks the cutover; nothing written" << Qt::endl;
    else
        err << "mirrordesk cutover: stopped at step \"" << cutoverStepName(outcome.reached) << "\": " << outcome.error
            << Qt::endl;
    return outcome.exitCode;
}

} // namespace md
