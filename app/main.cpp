#include "app/AppCommands.h"
#include "app/CommandLine.h"
#include "app/Commands.h"
#include "app/CrashReport.h"
#include "app/Mm2Commands.h"
#include "engine/core/OpenSslExit.h"

#include <QCoreApplication>

namespace {

const char kUsage[] =
    "usage:\n"
    "  mirrordesk [FILE.mirrorjob ...]        open the GUI with these profiles\n"
    "  mirrordesk --sandbox                   the GUI on two embedded clusters with a demo job\n"
    "  mirrordesk --new-instance [FILE ...]   a new window even when MirrorDesk already runs\n"
    "  mirrordesk run FILE [--until-caught-up] [--sandbox] [--metrics-port N] [--instance-id NAME]\n"
    "                                         run a job headless (mirrordesk run --help)\n"
    "  mirrordesk verify FILE [--topic REGEX] compare source and target partition by partition\n"
    "  mirrordesk check FILE                  validate a profile and contact both clusters\n"
    "  mirrordesk reset FILE --to earliest|latest|TIME [--topic REGEX] [--dry-run]\n"
    "                                         rewrite the job's progress: where the next run copies from\n"
    "  mirrordesk failover FILE [--groups REGEX] [--max-lag N] [--timeout SECONDS] [--allow-rewind] [--dry-run]\n"
    "                                         move consumer groups' offsets to the target (translated)\n"
    "  mirrordesk cutover FILE [--dry-run] [--fence-all] [--report FILE] | --rollback\n"
    "                                         the guided switch: preflight, fence, drain, move groups, stop\n"
    "  mirrordesk reverse FILE --output FILE2 the failback job (target -> source), started after\n"
    "                                         what the job copied (mirrordesk reverse --help)\n"
    "  mirrordesk import-mm2 FILE --output DIR  one profile per enabled flow of an mm2.properties\n"
    "  mirrordesk export-mm2 FILE [--connect] [--output FILE]  an equivalent MM2 configuration\n"
    "  mirrordesk acl list|check|create|delete FILE [--side source|target] ...\n"
    "                                         ACL bindings of a profile's cluster; check: may P do OP on R?\n"
    "  mirrordesk lag FILE (--group ID ... | --groups REGEX) [--side source|target] [--metrics-port N] [--once]\n"
    "                                         watch consumer and share groups' lag and status, as Burrow does\n"
    "  mirrordesk COMMAND --help              a command's options\n"
    "  mirrordesk --help | --version\n";

} // namespace

int main(int argc, char **argv)
{
    md::installCrashReport();
    // No OpenSSL cleanup at exit, racing a thread that is still ending (issue 40).
    md::disableOpenSslExitCleanup();
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args.append(QString::fromLocal8Bit(argv[i]));
    const QString command = args.value(0);

    // A command is the first argument and parses the rest itself.
    using Command = int (*)(const QStringList &, QTextStream &, QTextStream &);
    const std::pair<const char *, Command> headless[] = {{"run", &md::runRunCommand},
                                                         {"verify", &md::runVerifyCommand},
                                                         {"check", &md::runCheckCommand},
                                                         {"reset", &md::runResetCommand},
                                                         {"failover", &md::runFailoverCommand},
                                                         {"cutover", &md::runCutoverCommand},
                                                         {"reverse", &md::runReverseCommand},
                                                         {"import-mm2", &md::runImportMm2Command},
                                                         {"export-mm2", &md::runExportMm2Command},
                                                         {"acl", &md::runAclCommand},
                                                         {"lag", &md::runLagCommand}};
    for (const auto &[name, fn] : headless) {
        if (command == QLatin1String(name)) {
            QCoreApplication app(argc, argv);
            QCoreApplication::setApplicationName(QStringLiteral("MirrorDesk"));
            QCoreApplication::setApplicationVersion(QStringLiteral(MIRRORDESK_VERSION));
            QTextStream out(stdout);
            QTextStream err(stderr);
            return fn(args.mid(1), out, err);
        }
    }

    // Otherwise the GUI's options and profiles (or --help, --version), parsed like a
    // command's: --sandbox anywhere, `--` before a file whose name starts with a dash.
    md::CommandLine cli{QString(), QString()};
    cli.setHelpText(QString::fromLatin1(kUsage));
    const QCommandLineOption sandbox(QStringLiteral("sandbox"), QStringLiteral("the GUI on two embedded clusters"));
    const QCommandLineOption newInstance(QStringLiteral("new-instance"), QStringLiteral("a new window"));
    const QCommandLineOption version(QStringLiteral("version"), QStringLiteral("the version"));
    cli.addOptions({sandbox, newInstance, version});
    cli.setArguments(QStringLiteral("profile"), 0, -1);
    {
        QTextStream out(stdout);
        QTextStream err(stderr);
        if (const std::optional<int> exitCode = cli.parse(args, out, err))
            return *exitCode;
        if (cli.isSet(version)) {
            out << "mirrordesk " << MIRRORDESK_VERSION << '\n';
            out.flush();
            return 0;
        }
    }
    return md::runGui(argc, argv, cli.arguments(), cli.isSet(sandbox), cli.isSet(newInstance));
}
