#include "app/AppCommands.h"

#include "app/ProfileLoader.h"
#include "engine/mirror/MirrorJob.h"
#include "engine/sandbox/Sandbox.h"
#include "ui/job/JobWorkspace.h"
#include "ui/window/MainWindow.h"
#include "ui/window/SingleInstance.h"

#include <QApplication>
#include <QFileInfo>
#include <QMessageBox>

namespace md {

namespace {

// Opens a profile in the job editor (where Run starts it) and, when its
// references resolve, its clusters in the panes.
void openProfileInWindow(MainWindow &window, const QString &path, const SandboxClusters *sandbox)
{
    if (!window.workspace()->openFile(path))
        return;
    QString messages;
    QTextStream err(&messages);
    if (std::optional<MirrorJobSpec> spec = loadJobSpec(path, sandbox, err))
        window.showClusters(spec->source, spec->target);
}

} // namespace

int runGui(int argc, char **argv, const QStringList &files, bool sandboxMode, bool newInstance)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("MirrorDesk"));
    QApplication::setOrganizationName(QStringLiteral("MirrorDesk"));
    QApplication::setApplicationVersion(QStringLiteral(MIRRORDESK_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.github.mirrordesk.MirrorDesk"));

    // One window per user: hand the files to a running instance and leave.
    // The sandbox is a world of its own and never takes part.
    std::unique_ptr<SingleInstance> instance;
    if (!sandboxMode && !newInstance) {
        instance = std::make_unique<SingleInstance>();
        QStringList absolute;
        for (const QString &f : files)
            absolute.append(QFileInfo(f).absoluteFilePath());
        if (instance->sendToRunning(absolute))
            return 0;
        QString error;
        if (!instance->listen(&error))
            QTextStream(stderr) << "mirrordesk: later launches will open their own window: " << error << Qt::endl;
    }

    std::unique_ptr<SandboxClusters> sandbox;
    MainWindow window;
    if (instance) {
        const bool printOpenEvents = qEnvironmentVariableIsSet("MIRRORDESK_PRINT_OPEN_EVENTS"); // tests
        QObject::connect(instance.get(), &SingleInstance::filesReceived, &window,
                         [&window, printOpenEvents](const QStringList &f) {
                             if (printOpenEvents) {
                                 QTextStream out(stdout);
                                 out << "open-event " << f.size();
                                 for (const QString &path : f)
                                     out << ' ' << path;
                                 out << Qt::endl;
                             }
                             window.openFilesFromOutside(f);
                         });
    }
    QObject::connect(&window, &MainWindow::openProfileRequested, &window,
                     [&](const QString &path) { openProfileInWindow(window, path, sandbox.get()); });

    if (sandboxMode) {
        QString error;
        sandbox = SandboxClusters::start(&error);
        if (!sandbox) {
            QTextStream(stderr) << "mirrordesk: " << error << Qt::endl;
            return 1;
        }
        QTextStream err(stderr);
        std::optional<MirrorJobSpec> spec = loadSandboxDemoJob(*sandbox, err);
        if (!spec)
            return 1;
        window.setWindowTitle(QStringLiteral("MirrorDesk \u2014 sandbox"));
        window.runJob(*spec); // its clusters in the panes, its monitor as a tab
    }
    window.workspace()->setResolver(makeResolver(sandbox.get()));
    for (const QString &file : files)
        openProfileInWindow(window, file, sandbox.get());

    window.restoreSettings();
    window.show();
    const int rc = QApplication::exec();
    return rc;
}

} // namespace md
