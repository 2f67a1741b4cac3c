#include "AppCommands.h"

#include "MainWindow.h"
#include "MirrorJob.h"
#include "ProfileLoader.h"
#include "Sandbox.h"

#include <QApplication>
#include <QFile>
#include <QMessageBox>

namespace md {

namespace {

// Opens a profile in the window: its clusters in the panes and its job in the
// job list, ready to start.
void openProfileInWindow(MainWindow &window, const QString &path, const SandboxClusters *sandbox)
{
    QString messages;
    QTextStream err(&messages);
    std::optional<MirrorJobSpec> spec = loadJobSpec(path, sandbox, err);
    if (!spec) {
        QMessageBox::warning(&window, QObject::tr("Cannot open profile"), messages);
        return;
    }
    window.showClusters(spec->source, spec->target);
    window.addJob(new MirrorJob(*spec));
}

} // namespace

int runGui(int argc, char **argv, const QStringList &files, bool sandboxMode)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("MirrorDesk"));
    QApplication::setOrganizationName(QStringLiteral("MirrorDesk"));
    QApplication::setApplicationVersion(QStringLiteral(MIRRORDESK_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.github.mirrordesk.MirrorDesk"));

    std::unique_ptr<SandboxClusters> sandbox;
    MainWindow window;
    QObject::connect(&window, &MainWindow::openProfileRequested, &window,
                     [&](const QString &path) { openProfileInWindow(window, path, sandbox.get()); });

    if (sandboxMode) {
        QString error;
        sandbox = SandboxClusters::start(&error);
        if (!sandbox) {
            QTextStream(stderr) << "mirrordesk: " << error << Qt::endl;
            return 1;
        }
        QFile demo(QStringLiteral(":/mirrordesk/examples/sandbox-demo.mirrorjob"));
        if (!demo.open(QIODevice::ReadOnly))
            return 1;
        QTextStream err(stderr);
        std::optional<MirrorJobSpec> spec = loadJobSpecFromData(demo.readAll(), QStringLiteral("sandbox-demo.mirrorjob"),
                                                                sandbox.get(), err);
        if (!spec)
            return 1;
        sandbox->prepareTarget(*spec);
        window.setWindowTitle(QStringLiteral("MirrorDesk \u2014 sandbox"));
        window.showClusters(spec->source, spec->target);
        auto *job = new MirrorJob(*spec);
        window.addJob(job);
        job->start();
    }
    for (const QString &file : files)
        openProfileInWindow(window, file, sandbox.get());

    window.show();
    const int rc = QApplication::exec();
    return rc;
}

} // namespace md
