// The README's pictures, made again from the sandbox (issue 16).
//
//   take_screenshots OUTDIR        (run by tests/screenshots/run.sh under Xvfb at 1366x768)
//
// Starts the sandbox's two embedded clusters and its demo job as `mirrordesk --sandbox`
// does, lays the window out on the screen's available geometry, lets the job copy for a
// while, then walks the main views and saves each as a PNG: the window (the navigator, the
// job's monitor tab and the target's view), the monitor's lag map, a message search, the
// comparison's tab and the job editor. Exits non-zero when a step does not come to pass.

#include "app/ProfileLoader.h"
#include "engine/mirror/MirrorJob.h"
#include "engine/sandbox/Sandbox.h"
#include "ui/cluster/ClusterPane.h"
#include "ui/cluster/MessageSearchBar.h"
#include "ui/cluster/MessagesPanel.h"
#include "ui/job/CompareView.h"
#include "ui/job/JobEditorDialog.h"
#include "ui/job/JobMonitor.h"
#include "ui/job/JobWorkspace.h"
#include "ui/window/MainWindow.h"
#include "ui/window/WorkArea.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QScreen>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <cstdio>
#include <functional>

using namespace md;

namespace {

QString g_dir;

bool save(QWidget *w, const QString &name)
{
    QApplication::processEvents();
    const QString path = QDir(g_dir).filePath(name);
    if (!w->grab().save(path)) {
        std::fprintf(stderr, "take_screenshots: cannot write %s\n", qPrintable(path));
        return false;
    }
    std::printf("wrote %s\n", qPrintable(path));
    return true;
}

bool waitFor(const std::function<bool()> &done, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > ms)
            return false;
        QTest::qWait(50);
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("MirrorDesk"));
    QApplication::setOrganizationName(QStringLiteral("MirrorDesk-screenshots")); // not the user's settings
    if (argc < 2) {
        std::fprintf(stderr, "usage: take_screenshots OUTDIR\n");
        return 2;
    }
    g_dir = QString::fromLocal8Bit(argv[1]);
    QDir().mkpath(g_dir);

    QString error;
    std::unique_ptr<SandboxClusters> sandbox = SandboxClusters::start(&error);
    if (!sandbox) {
        std::fprintf(stderr, "take_screenshots: %s\n", qPrintable(error));
        return 1;
    }
    QTextStream err(stderr);
    std::optional<MirrorJobSpec> spec = loadSandboxDemoJob(*sandbox, err);
    if (!spec)
        return 1;

    MainWindow window;
    window.setWindowTitle(QStringLiteral("MirrorDesk \u2014 sandbox"));
    window.runJob(*spec); // the monitor opens as a tab beside the target's view
    window.workspace()->setResolver(makeResolver(sandbox.get()));
    window.setGeometry(window.screen()->availableGeometry());
    window.show();

    // Let the job copy and the monitor fill for a while.
    QTest::qWait(25000);
    bool ok = save(&window, QStringLiteral("main-window.png"));

    JobMonitor *monitor = window.jobMonitor(0);
    if (monitor) {
        // The monitor's tab has the window's height: the lag map and the partition table.
        monitor->setCurrentChart(JobMonitor::Partitions);
        QTest::qWait(1500);
        ok = save(&window, QStringLiteral("lag-map.png")) && ok;
        monitor->setCurrentChart(JobMonitor::Throughput);
    } else {
        ok = false;
    }

    // A message search on the source's demo.orders.
    ClusterPane *pane = window.sourcePane();
    window.workArea()->raise(pane);
    pane->tabs()->setCurrentWidget(pane->messagesPanel());
    MessagesPanel *messages = pane->messagesPanel();
    messages->topicBox()->setCurrentText(QStringLiteral("demo.orders"));
    messages->modeBox()->setCurrentIndex(messages->modeBox()->findData(int(MessageQuery::Mode::LatestN)));
    messages->countBox()->setValue(200);
    MessageSearchBar *bar = messages->searchBar();
    bar->matchBox()->setCurrentIndex(bar->matchBox()->findData(int(FilterCondition::Match::JsonPath)));
    bar->textEdit()->setText(QStringLiteral("$.region == \"eu-west\" && $.amount > 500"));
    bool searched = false;
    QObject::connect(messages, &MessagesPanel::searchFinished, [&] { searched = true; });
    messages->search();
    if (waitFor([&] { return searched; }, 30000) && messages->model()->rowCount() > 0) {
        messages->view()->selectRow(0);
        ok = save(&window, QStringLiteral("message-search.png")) && ok;
    } else {
        std::fprintf(stderr, "take_screenshots: the search found nothing: %s\n", qPrintable(messages->statusText()));
        ok = false;
    }

    // The comparison of the job's topics, a tab on the right.
    if (auto *jobs = window.findChild<QTableView *>(QStringLiteral("jobs")))
        jobs->selectRow(0);
    if (CompareView *compare = window.compareSelectedJob()) {
        bool refreshed = false;
        QObject::connect(compare, &CompareView::refreshed, [&] { refreshed = true; });
        if (!waitFor([&] { return refreshed; }, 60000))
            std::fprintf(stderr, "take_screenshots: the comparison did not finish in 60 s\n");
        QTest::qWait(500);
        ok = save(&window, QStringLiteral("compare.png")) && ok;
        window.workArea()->closePage(compare);
    } else {
        ok = false;
    }

    // The job editor with a new job.
    window.workspace()->newDocument();
    QTest::qWait(1500);
    ok = save(window.editorDialog(), QStringLiteral("job-editor.png")) && ok;

    return ok ? 0 : 1; // the window's end stops the job gracefully; the sandbox ends after it
}
