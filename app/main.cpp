#include "AppCommands.h"
#include "Commands.h"
#include "Mm2Commands.h"

#include <QCoreApplication>

#include <cstdio>

namespace {

const char kUsage[] =
    "usage:\n"
    "  mirrordesk [FILE.mirrorjob ...]        open the GUI with these profiles\n"
    "  mirrordesk --sandbox                   the GUI on two embedded clusters with a demo job\n"
    "  mirrordesk --new-instance [FILE ...]   a new window even when MirrorDesk already runs\n"
    "  mirrordesk run FILE [--until-caught-up] [--sandbox] [--metrics-port N]\n"
    "                                         run a job headless\n"
    "  mirrordesk verify FILE [--topic REGEX] compare source and target partition by partition\n"
    "  mirrordesk check FILE                  validate a profile and contact both clusters\n"
    "  mirrordesk reset FILE --to earliest|latest|TIME [--topic REGEX] [--dry-run]\n"
    "                                         rewrite the job's progress: where the next run copies from\n"
    "  mirrordesk import-mm2 FILE --output DIR  one profile per enabled flow of an mm2.properties\n"
    "  mirrordesk export-mm2 FILE [--connect] [--output FILE]  an equivalent MM2 configuration\n"
    "  mirrordesk --help | --version\n";

} // namespace

int main(int argc, char **argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args.append(QString::fromLocal8Bit(argv[i]));
    const QString command = args.value(0);

    if (command == QLatin1String("--help") || command == QLatin1String("-h")) {
        std::fputs(kUsage, stdout);
        return 0;
    }
    if (command == QLatin1String("--version")) {
        std::printf("mirrordesk %s\n", MIRRORDESK_VERSION);
        return 0;
    }
    using Command = int (*)(const QStringList &, QTextStream &, QTextStream &);
    const std::pair<const char *, Command> headless[] = {
        {"run", &md::runRunCommand},
        {"verify", &md::runVerifyCommand},
        {"check", &md::runCheckCommand},
        {"reset", &md::runResetCommand},
        {"import-mm2", &md::runImportMm2Command},
        {"export-mm2", &md::runExportMm2Command}};
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

    QStringList files;
    bool sandbox = false;
    bool newInstance = false;
    for (const QString &a : std::as_const(args)) {
        if (a == QLatin1String("--sandbox")) {
            sandbox = true;
        } else if (a == QLatin1String("--new-instance")) {
            newInstance = true;
        } else if (a.startsWith(QLatin1Char('-'))) {
            std::fprintf(stderr, "mirrordesk: unknown option %s\n%s", qPrintable(a), kUsage);
            return 2;
        } else {
            files.append(a);
        }
    }
    return md::runGui(argc, argv, files, sandbox, newInstance);
}
