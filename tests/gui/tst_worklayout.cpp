// The window's layout: the navigator beside two tabbed work areas. The first size is the
// screen's; a started job's monitor opens as a tab (one per job), closes and opens again
// where it was; a tab moves to the other side through its context menu or a drag, and
// stays there in the next window; the navigator's
// cluster entries bring their page forward; the open tabs, splitters and columns come back
// in a new window with the same settings. Brokers: the in-process sandbox, or none.
#include "engine/mirror/MirrorJob.h"
#include "engine/sandbox/Sandbox.h"
#include "model/session/JobSession.h"
#include "model/session/MonitoredJob.h"
#include "model/tables/JobListModel.h"
#include "ui/cluster/ClusterPane.h"
#include "ui/job/JobMonitor.h"
#include "ui/window/MainWindow.h"
#include "ui/window/Navigator.h"
#include "ui/window/WorkArea.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QApplication>
#include <QContextMenuEvent>
#include <QHeaderView>
#include <QMenu>
#include <QMouseEvent>
#include <QPointer>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>

using namespace md;

namespace {

constexpr QSize kLaptop(1366, 768);

MirrorJobSpec demoSpec(const QString &name = QStringLiteral("layout demo"))
{
    MirrorJobSpec spec;
    spec.name = name;
    spec.source.alias = QStringLiteral("src");
    spec.source.bootstrap = QStringLiteral("127.0.0.1:1");
    spec.target.alias = QStringLiteral("dst");
    spec.target.bootstrap = QStringLiteral("127.0.0.1:2");
    spec.include = {QStringLiteral("demo\\..*")};
    return spec;
}

// Open, the current tab of its side, and shown.
bool isCurrent(MainWindow &window, QWidget *page)
{
    WorkArea *area = window.workArea();
    return area->isOpen(page) && area->tabs(area->sideOf(page))->currentWidget() == page && page->isVisible();
}

QAbstractButton *closeButton(QTabWidget *tabs, QWidget *page)
{
    const int index = tabs->indexOf(page);
    for (QTabBar::ButtonPosition pos : {QTabBar::LeftSide, QTabBar::RightSide}) {
        if (auto *b = qobject_cast<QAbstractButton *>(tabs->tabBar()->tabButton(index, pos)))
            return b;
    }
    return nullptr;
}

// As a window system sends it: press, release, press, double-click, release (an item view
// activates only an index pressed just before; QTest::mouseDClick leaves out the second press).
void doubleClick(QWidget *viewport, const QPoint &pos)
{
    QTest::mouseClick(viewport, Qt::LeftButton, {}, pos);
    QTest::mousePress(viewport, Qt::LeftButton, {}, pos);
    QMouseEvent dbl(QEvent::MouseButtonDblClick, pos, viewport->mapToGlobal(pos), Qt::LeftButton, Qt::LeftButton,
                    Qt::NoModifier);
    QApplication::sendEvent(viewport, &dbl);
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, pos);
}

// Presses `page`'s tab, moves in steps (QTabBar starts its own move first) and lets go at
// `pos` of `over`, as a hand does; the work area gets its events through the pressed bar.
void dragTab(QTabWidget *from, QWidget *page, QWidget *over, const QPoint &pos)
{
    QTabBar *bar = from->tabBar();
    const QPoint start = bar->tabRect(from->indexOf(page)).center();
    const QPoint end = bar->mapFromGlobal(over->mapToGlobal(pos));
    QTest::mousePress(bar, Qt::LeftButton, {}, start);
    for (int step = 1; step <= 4; ++step)
        QTest::mouseMove(bar, start + (end - start) * step / 4);
    QTest::mouseRelease(bar, Qt::LeftButton, {}, end);
}

QTableView *jobView(MainWindow &window)
{
    return window.findChild<QTableView *>(QStringLiteral("jobs"));
}

} // namespace

class TestWorkLayout final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("MirrorDesk-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_worklayout"));
        QSettings().clear();
    }

    void theFirstSizeIsTheScreensAvailableArea()
    {
        QSettings().clear();
        MainWindow window;
        const QRect available = window.screen()->availableGeometry();
        QCOMPARE(window.size(), available.size());
        window.restoreSettings(); // nothing saved
        QCOMPARE(window.geometry(), available);
        QVERIFY(window.windowState() & Qt::WindowMaximized);
    }

    void aStartedJobsMonitorOpensAsATab()
    {
        QString error;
        auto sandbox = SandboxClusters::start(&error);
        QVERIFY2(sandbox, qPrintable(error));
        MirrorJobSpec spec;
        spec.name = QStringLiteral("layout orders");
        spec.source.bootstrap = sandbox->sourceBootstrap();
        spec.target.bootstrap = sandbox->targetBootstrap();
        spec.include = {QStringLiteral("demo\\.orders")};
        spec.start = StartPosition::Earliest;
        spec.syncTopicConfigs = false;
        sandbox->prepareTarget(spec);

        MainWindow window;
        QAbstractItemModelTester jobTester(window.jobModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        window.resize(kLaptop);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        WorkArea *area = window.workArea();
        MirrorJob *job = window.runJob(spec);
        JobMonitor *monitor = window.jobMonitor(0);
        QVERIFY(monitor);
        QCOMPARE(monitor->job(), job);
        // A tab over the source's view, the whole height; the target's view stays in sight.
        QVERIFY(isCurrent(window, monitor));
        QCOMPARE(area->sideOf(monitor), WorkArea::Left);
        QVERIFY(isCurrent(window, window.targetPane()));
        QTabWidget *left = area->tabs(WorkArea::Left);
        QVERIFY2(monitor->height() >= left->height() - left->tabBar()->height() - 8,
                 qPrintable(QStringLiteral("%1 of %2").arg(monitor->height()).arg(left->height())));

        // A job waiting for Start has no tab; Start opens it.
        MirrorJobSpec second = spec;
        second.name = QStringLiteral("layout orders two"); // another consumer group
        auto *waiting = new MirrorJob(second);
        window.addJob(waiting);
        QVERIFY(!area->isOpen(window.jobMonitor(1)));
        jobView(window)->selectRow(1);
        auto *start = window.findChild<QToolButton *>(QStringLiteral("startJob"));
        QVERIFY(start && start->isEnabled());
        QTest::mouseClick(start, Qt::LeftButton);
        QVERIFY(waiting->hasStarted());
        QVERIFY(isCurrent(window, window.jobMonitor(1)));
        // One tab per job: opening an open monitor makes it current.
        QCOMPARE(left->count(), 3);
        QCOMPARE(window.openJobMonitor(0), monitor);
        QVERIFY(isCurrent(window, monitor));
        QCOMPARE(left->count(), 3);
        // Selecting a job in the navigator brings its open monitor forward, so does a click
        // on the selected one.
        jobView(window)->selectRow(0);
        jobView(window)->selectRow(1);
        QVERIFY(isCurrent(window, window.jobMonitor(1)));
        window.openJobMonitor(0);
        QTableView *jobs = jobView(window);
        QTest::mouseClick(jobs->viewport(), Qt::LeftButton, {},
                          jobs->visualRect(jobs->model()->index(1, JobListModel::Name)).center());
        QVERIFY(isCurrent(window, window.jobMonitor(1)));

        QTRY_VERIFY_WITH_TIMEOUT(window.jobModel()->metrics(0).recordsProduced > 0, 30000);
        window.close();
        QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 20000); // once the jobs have stopped
    }

    void aClosedMonitorOpensAgainWhereItWas()
    {
        MainWindow window;
        window.addJob(new MirrorJob(demoSpec()));
        window.resize(kLaptop);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        WorkArea *area = window.workArea();
        QTabWidget *left = area->tabs(WorkArea::Left);
        QPointer<JobMonitor> monitor = window.openJobMonitor(0);
        QVERIFY(isCurrent(window, monitor));

        QAbstractButton *close = closeButton(left, monitor);
        QVERIFY(close);
        QTest::mouseClick(close, Qt::LeftButton);
        QVERIFY(!area->isOpen(monitor));
        // The monitor was only a view: it goes, the job and its history stay with the session.
        QTRY_VERIFY(!monitor);
        QVERIFY(!window.jobMonitor(0));
        QCOMPARE(window.jobModel()->rowCount(), 1);
        QVERIFY(isCurrent(window, window.sourcePane()));
        // Fed while no monitor is open, the history goes on growing.
        MonitoredJob *monitored = window.session()->at(0);
        const qint64 recorded = monitored->store().sampleCount();
        MetricsSnapshot later;
        later.time = QDateTime::currentDateTimeUtc().addSecs(60);
        later.state = JobState::Running;
        monitored->addSnapshot(later);
        QCOMPARE(monitored->store().sampleCount(), recorded + 1);

        // The cluster views stay: no close button, closing them does nothing.
        QVERIFY(!closeButton(left, window.sourcePane()));
        QVERIFY(!closeButton(area->tabs(WorkArea::Right), window.targetPane()));
        area->closePage(window.sourcePane());
        QVERIFY(area->isOpen(window.sourcePane()));

        // A double-click on the job in the navigator opens it again.
        QTableView *jobs = jobView(window);
        const QRect row = jobs->visualRect(jobs->model()->index(0, JobListModel::Name));
        doubleClick(jobs->viewport(), row.center());
        monitor = window.jobMonitor(0);
        QVERIFY(monitor);
        QVERIFY(isCurrent(window, monitor));
        QCOMPARE(area->sideOf(monitor), WorkArea::Left);
        QCOMPARE(monitor->store().sampleCount(), recorded + 1); // the whole history, drawn by the new view

        // Moved to the right and closed, it opens again on the right (Job > Open Monitor).
        area->moveToOtherSide(monitor);
        QCOMPARE(area->sideOf(monitor), WorkArea::Right);
        QVERIFY(isCurrent(window, monitor));
        area->closePage(monitor);
        QVERIFY(!area->isOpen(monitor));
        jobs->selectRow(0);
        QVERIFY(window.openMonitorAction()->isEnabled());
        window.openMonitorAction()->trigger();
        monitor = window.jobMonitor(0);
        QVERIFY(monitor);
        QVERIFY(isCurrent(window, monitor));
        QCOMPARE(area->sideOf(monitor), WorkArea::Right);
    }

    void aTabMovesToTheOtherSide()
    {
        MainWindow window;
        window.resize(kLaptop);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        WorkArea *area = window.workArea();
        QTabWidget *left = area->tabs(WorkArea::Left);
        QTabWidget *right = area->tabs(WorkArea::Right);
        ClusterPane *target = window.targetPane();
        QCOMPARE(area->sideOf(target), WorkArea::Right);

        // The target's tab's context menu: Move to the Left Side.
        bool moved = false;
        QTimer::singleShot(100, this, [&] {
            auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
            if (!menu)
                return;
            for (QAction *a : menu->actions()) {
                if (a->objectName() == QLatin1String("moveToOtherSide")) {
                    moved = true;
                    a->trigger();
                }
            }
            menu->close();
        });
        QTabBar *bar = right->tabBar();
        const QPoint pos = bar->tabRect(right->indexOf(target)).center();
        QContextMenuEvent event(QContextMenuEvent::Mouse, pos, bar->mapToGlobal(pos));
        QApplication::sendEvent(bar, &event);
        QVERIFY(moved);
        QCOMPARE(area->sideOf(target), WorkArea::Left);
        QVERIFY(isCurrent(window, target));
        QCOMPARE(left->count(), 2);
        QVERIFY(!closeButton(left, target)); // still a cluster view, not closable
        // The empty side leaves its width to the other.
        QVERIFY(!right->isVisible());
        QTRY_VERIFY(left->width() > area->width() - 10);

        area->moveToOtherSide(target);
        QCOMPARE(area->sideOf(target), WorkArea::Right);
        QVERIFY(right->isVisible());
        QCOMPARE(left->count(), 1);
    }

    void aTabDragsToTheOtherSide()
    {
        QSettings().clear();
        {
            MainWindow window;
            window.addJob(new MirrorJob(demoSpec()));
            window.resize(800, 600);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            WorkArea *area = window.workArea();
            QTabWidget *left = area->tabs(WorkArea::Left);
            QTabWidget *right = area->tabs(WorkArea::Right);
            JobMonitor *monitor = window.openJobMonitor(0);
            ClusterPane *source = window.sourcePane();
            ClusterPane *target = window.targetPane();
            QCOMPARE(area->sideOf(monitor), WorkArea::Left);

            // Let go over the target's tab: the monitor goes there, before it, and is current.
            QTabBar *rightBar = right->tabBar();
            dragTab(left, monitor, rightBar, rightBar->tabRect(right->indexOf(target)).center());
            QTRY_COMPARE(area->sideOf(monitor), WorkArea::Right);
            QCOMPARE(right->indexOf(monitor), 0);
            QVERIFY(isCurrent(window, monitor));
            QCOMPARE(left->count(), 1);

            // A drag that ends on its own bar, or in its own side's page, moves nothing.
            dragTab(right, target, rightBar, rightBar->rect().center() + QPoint(0, 1));
            dragTab(right, target, right, right->rect().center());
            QTest::qWait(50);
            QCOMPARE(area->sideOf(target), WorkArea::Right);

            // The last tab of a side, let go over the other side's page: the empty side hides.
            dragTab(left, source, right->currentWidget(), right->currentWidget()->rect().center());
            QTRY_COMPARE(area->sideOf(source), WorkArea::Right);
            QCOMPARE(right->indexOf(source), right->count() - 1); // not over a tab: at the end
            QVERIFY(!left->isVisible());
            QTRY_VERIFY(right->width() > area->width() - 10);

            // With one side hidden, its edge of the work area stands for it.
            dragTab(right, target, area, QPoint(area->width() / 8, area->height() / 2));
            QTRY_COMPARE(area->sideOf(target), WorkArea::Left);
            QVERIFY(left->isVisible());
            QVERIFY(isCurrent(window, target));
            window.close(); // saves
        }
        // The next start has the tabs where they were dragged.
        MainWindow window;
        window.addJob(new MirrorJob(demoSpec()));
        window.restoreSettings();
        WorkArea *area = window.workArea();
        QCOMPARE(area->sideOf(window.targetPane()), WorkArea::Left);
        QCOMPARE(area->sideOf(window.sourcePane()), WorkArea::Right);
        QVERIFY(area->isOpen(window.jobMonitor(0)));
        QCOMPARE(area->sideOf(window.jobMonitor(0)), WorkArea::Right);
        QCOMPARE(area->tabs(WorkArea::Right)->indexOf(window.jobMonitor(0)), 0);
    }

    void navigatorEntriesBringTheirPageForward()
    {
        MainWindow window;
        window.addJob(new MirrorJob(demoSpec()));
        JobMonitor *monitor = window.openJobMonitor(0); // over the source's view
        window.resize(kLaptop);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QStandardItemModel *model = window.navigator()->clusterModel();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QTreeView *tree = window.navigator()->clusterView();
        QCOMPARE(model->rowCount(), 2);
        const QList<ClusterPane *> panes = {window.sourcePane(), window.targetPane()};
        for (int p = 0; p < 2; ++p) {
            ClusterPane *pane = panes[p];
            const QModelIndex paneIndex = model->index(p, 0);
            QCOMPARE(paneIndex.data().toString(), pane->title());
            QStringList pages;
            for (int c = 0; c < model->rowCount(paneIndex); ++c)
                pages << model->index(c, 0, paneIndex).data().toString();
            for (const char *page : {"Topics", "Brokers", "ACLs", "Consumer groups", "Messages"})
                QVERIFY2(pages.contains(QLatin1String(page)), qPrintable(pages.join(QLatin1Char(','))));
            for (int c = 0; c < model->rowCount(paneIndex); ++c) {
                window.workArea()->raise(monitor);
                const QModelIndex child = model->index(c, 0, paneIndex);
                tree->scrollTo(child);
                QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(child).center());
                QVERIFY2(isCurrent(window, pane), qPrintable(child.data().toString()));
                QCOMPARE(pane->tabs()->currentIndex(), c);
                QCOMPARE(pane->tabs()->tabText(c), child.data().toString());
            }
        }
        // Connecting renames the entries.
        window.showClusters(demoSpec().source, demoSpec().target);
        QVERIFY(model->index(0, 0).data().toString().contains(QStringLiteral("src")));
        QVERIFY(model->index(1, 0).data().toString().contains(QStringLiteral("dst")));
    }

    void theLayoutComesBackOnTheNextStart()
    {
        QSettings().clear();
        QList<int> sizes;
        {
            MainWindow window;
            window.addJob(new MirrorJob(demoSpec()));
            // Its smallest size: the offscreen screen (800x600) clamps a restored window, and
            // splitters keep their sizes only in a window of the same size.
            window.resize(800, 600);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            WorkArea *area = window.workArea();
            JobMonitor *monitor = window.openJobMonitor(0);
            area->moveToOtherSide(monitor); // right: the target's view, then the monitor
            area->raise(window.targetPane());
            auto *split = window.findChild<QSplitter *>(QStringLiteral("windowSplitter"));
            QVERIFY(split);
            const int total = split->sizes().value(0) + split->sizes().value(1);
            split->setSizes({300, total - 300});
            sizes = split->sizes();
            jobView(window)->horizontalHeader()->resizeSection(JobListModel::Name, 211);
            window.sourcePane()->topicView()->horizontalHeader()->resizeSection(0, 177);
            window.close(); // saves
        }
        {
            // The job listed again first (a sandbox or a profile), then the settings.
            MainWindow window;
            window.addJob(new MirrorJob(demoSpec()));
            window.restoreSettings();
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(QSettings().contains(QStringLiteral("mainWindow/geometry")));
            WorkArea *area = window.workArea();
            JobMonitor *monitor = window.jobMonitor(0);
            QVERIFY(area->isOpen(monitor));
            QCOMPARE(area->sideOf(monitor), WorkArea::Right);
            QCOMPARE(area->tabs(WorkArea::Right)->indexOf(monitor), 1);
            QVERIFY(isCurrent(window, window.targetPane()));
            QVERIFY(isCurrent(window, window.sourcePane()));
            QCOMPARE(window.findChild<QSplitter *>(QStringLiteral("windowSplitter"))->sizes(), sizes);
            QCOMPARE(jobView(window)->horizontalHeader()->sectionSize(JobListModel::Name), 211);
            QCOMPARE(window.sourcePane()->topicView()->horizontalHeader()->sectionSize(0), 177);
            window.close(); // saves the same again
        }
        // The settings first, the job listed after: its monitor opens where it was.
        MainWindow window;
        window.restoreSettings();
        window.addJob(new MirrorJob(demoSpec()));
        WorkArea *area = window.workArea();
        QVERIFY(area->isOpen(window.jobMonitor(0)));
        QCOMPARE(area->sideOf(window.jobMonitor(0)), WorkArea::Right);
        // A job whose monitor was not open opens no tab.
        window.addJob(new MirrorJob(demoSpec(QStringLiteral("another"))));
        QVERIFY(!area->isOpen(window.jobMonitor(1)));
    }
};

QTEST_MAIN(TestWorkLayout)
#include "tst_worklayout.moc"
