// The main window on the sandbox: both panes connect on their admin threads,
// the source pane lists the demo topics with their partition counts, the
// target pane the topics the sandbox prepared, and the demo job runs.
#include "engine/admin/ClusterClient.h"
#include "engine/mirror/MirrorJob.h"
#include "engine/mirror/TopicNaming.h"
#include "engine/sandbox/Sandbox.h"
#include "model/tables/JobListModel.h"
#include "model/tables/TopicTableModel.h"
#include "ui/cluster/ClusterPane.h"
#include "ui/job/JobEditor.h"
#include "ui/job/JobMonitor.h"
#include "ui/job/JobWorkspace.h"
#include "ui/window/MainWindow.h"
#include "ui/window/WorkArea.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QElapsedTimer>
#include <QFile>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QTabWidget>
#include <QTableView>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <optional>

using namespace md;

namespace {
int rowOf(const TopicTableModel *m, const QString &name)
{
    for (int r = 0; r < m->rowCount(); ++r) {
        if (m->index(r, TopicTableModel::Name).data().toString() == name)
            return r;
    }
    return -1;
}

bool writeProfile(const QString &path, const QString &name, const QString &bootstrap, const QString &target)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(QStringLiteral(R"({"mirrordesk": 1, "name": "%1",
        "source": {"alias": "src", "bootstrap": "%2", "security": "plaintext"},
        "target": {"alias": "dst", "bootstrap": "%3", "security": "plaintext"},
        "topics": {"include": ["demo\\.payments"]}, "syncTopicConfigs": false})")
                   .arg(name, bootstrap, target)
                   .toUtf8());
    return true;
}
// The job's monitor is open and the current tab of its side of the work area.
bool monitorShown(MainWindow &window, int row)
{
    WorkArea *area = window.workArea();
    JobMonitor *monitor = window.jobMonitor(row);
    return monitor && area->isOpen(monitor) && area->tabs(area->sideOf(monitor))->currentWidget() == monitor;
}
// A job copying demo.orders from the sandbox's source to its target, whose
// target topic the sandbox has made.
MirrorJobSpec ordersJob(SandboxClusters &sandbox, const QString &name, std::optional<StopCondition> stop = {})
{
    MirrorJobSpec spec;
    spec.name = name;
    spec.source.bootstrap = sandbox.sourceBootstrap();
    spec.target.bootstrap = sandbox.targetBootstrap();
    spec.include = {QStringLiteral("demo\\.orders")};
    spec.naming = NamingPolicy::Identity;
    spec.start = StartPosition::Earliest;
    if (stop)
        spec.stop = *stop;
    spec.syncTopicConfigs = false;
    sandbox.prepareTarget(spec);
    return spec;
}
} // namespace

class TestMainWindow final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sandboxShowsBothClustersAndRunsTheDemoJob()
    {
        QString error;
        auto sandbox = SandboxClusters::start(&error);
        QVERIFY2(sandbox, qPrintable(error));

        MirrorJobSpec spec;
        spec.name = QStringLiteral("sandbox demo");
        spec.source.alias = QStringLiteral("src");
        spec.source.bootstrap = sandbox->sourceBootstrap();
        spec.target.alias = QStringLiteral("dst");
        spec.target.bootstrap = sandbox->targetBootstrap();
        spec.include = {QStringLiteral("demo\\..*")};
        spec.start = StartPosition::Earliest;
        spec.syncTopicConfigs = false;
        const QStringList prepared = sandbox->prepareTarget(spec);
        QCOMPARE(prepared.size(), SandboxClusters::demoTopics().size() + 1); // and the job's offset map

        MainWindow window;
        QAbstractItemModelTester sourceTester(window.sourcePane()->topicModel(),
                                              QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester jobTester(window.jobModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        window.showClusters(spec.source, spec.target);
        auto *job = new MirrorJob(spec);
        window.addJob(job);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        job->start();

        const TopicTableModel *source = window.sourcePane()->topicModel();
        for (const SandboxClusters::DemoTopic &t : SandboxClusters::demoTopics()) {
            QTRY_VERIFY_WITH_TIMEOUT(rowOf(source, t.name) >= 0, 15000);
            QCOMPARE(source->index(rowOf(source, t.name), TopicTableModel::Partitions).data().toInt(), t.partitions);
            // The view shows it too (through the sort/filter proxy).
        }
        QVERIFY(window.sourcePane()->topicView()->model()->rowCount() >= SandboxClusters::demoTopics().size());
        const TopicTableModel *target = window.targetPane()->topicModel();
        QTRY_VERIFY_WITH_TIMEOUT(rowOf(target, targetTopicName(spec, QStringLiteral("demo.orders"))) >= 0, 15000);

        // The demo job copies records and the job list shows it.
        QTRY_VERIFY_WITH_TIMEOUT(window.jobModel()->metrics(0).recordsProduced > 0, 30000);
        QCOMPARE(window.jobModel()->index(0, JobListModel::State).data().toString(), QStringLiteral("running"));
        window.close();
        QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 20000); // once the job has stopped
    }

    void anOpenedJobWaitsForStart()
    {
        QString error;
        auto sandbox = SandboxClusters::start(&error);
        QVERIFY2(sandbox, qPrintable(error));
        const MirrorJobSpec spec = ordersJob(*sandbox, QStringLiteral("opened"));

        MainWindow window;
        auto *job = new MirrorJob(spec);
        window.addJob(job);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *start = window.findChild<QToolButton *>(QStringLiteral("startJob"));
        QVERIFY(start);
        QVERIFY(start->isEnabled());
        QTest::qWait(500);
        QVERIFY(!job->isRunning()); // nothing runs until the user says so
        QTest::mouseClick(start, Qt::LeftButton);
        QVERIFY(job->isRunning());
        QVERIFY(!start->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(window.jobModel()->metrics(0).recordsProduced > 0, 30000);
        window.close();
        QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 20000);
    }

    // Closing with a running job stops it gracefully without blocking the event
    // loop: close() returns with the window still up and saying why, the job
    // flushes and commits on its thread, and the window closes once it finished.
    void closingStopsRunningJobsWithoutBlockingTheWindow()
    {
        QString error;
        auto sandbox = SandboxClusters::start(&error);
        QVERIFY2(sandbox, qPrintable(error));
        const MirrorJobSpec spec = ordersJob(*sandbox, QStringLiteral("closing"), StopCondition::RunForever);

        MainWindow window;
        auto *job = new MirrorJob(spec);
        window.addJob(job);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        job->start();
        QTRY_VERIFY_WITH_TIMEOUT(window.jobModel()->metrics(0).recordsProduced > 0, 30000);
        bool finished = false;
        bool ok = false;
        connect(job, &MirrorJob::finished, this, [&](bool o) {
            finished = true;
            ok = o;
        });

        window.close();
        // The old close waited here, on the UI thread, until every job had stopped.
        QVERIFY(window.isVisible());
        QVERIFY2(window.statusBar()->currentMessage().startsWith(QStringLiteral("Stopping 1 job")),
                 qPrintable(window.statusBar()->currentMessage()));
        window.close(); // asking again while it waits changes nothing
        QVERIFY(window.isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!window.isVisible(), 20000);
        QVERIFY(finished);
        QVERIFY(ok); // a graceful stop, not the give-up deadline
        QVERIFY(!job->isRunning());
        QCOMPARE(window.jobModel()->index(0, JobListModel::State).data().toString(), QStringLiteral("stopped"));
    }

    // Closing asks (where a tray exists) what to do with running jobs: Cancel
    // keeps the window; the tray keeps them copying with the window hidden, and
    // the tray menu's Quit then stops them gracefully and closes, without asking.
    void closingCanKeepJobsRunningInTheTray()
    {
        QString error;
        auto sandbox = SandboxClusters::start(&error);
        QVERIFY2(sandbox, qPrintable(error));
        const MirrorJobSpec spec = ordersJob(*sandbox, QStringLiteral("tray"), StopCondition::RunForever);

        MainWindow window;
        QList<int> asked;
        MainWindow::CloseChoice answer = MainWindow::CloseChoice::Cancel;
        window.setCloseQuestion([&](int running) {
            asked << running;
            return answer;
        });
        auto *job = new MirrorJob(spec);
        window.addJob(job);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        job->start();
        QTRY_VERIFY_WITH_TIMEOUT(window.jobModel()->metrics(0).recordsProduced > 0, 30000);

        window.close(); // Cancel
        QCOMPARE(asked, QList<int>{1});
        QVERIFY(window.isVisible());
        QVERIFY(job->isRunning());

        answer = MainWindow::CloseChoice::KeepInTray;
        window.close();
        QCOMPARE(asked.size(), 2);
        QVERIFY(!window.isVisible());
        QVERIFY(job->isRunning());
        QVERIFY(window.trayIcon());
        QVERIFY(!QGuiApplication::quitOnLastWindowClosed()); // another window closing keeps the jobs
        const qint64 before = window.jobModel()->metrics(0).recordsProduced;
        QTRY_VERIFY_WITH_TIMEOUT(window.jobModel()->metrics(0).recordsProduced > before, 30000); // still copying

        QAction *quit = nullptr;
        for (QAction *a : window.trayIcon()->contextMenu()->actions()) {
            if (a->text() == QStringLiteral("Quit"))
                quit = a;
        }
        QVERIFY(quit);
        // The signal, not isRunning(): the job is done before its queued finished() arrives.
        QSignalSpy finished(job, &MirrorJob::finished);
        quit->trigger();
        QCOMPARE(asked.size(), 2); // Quit does not ask again
        QVERIFY(finished.wait(20000));
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
        QVERIFY(!job->isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(window.jobModel()->index(0, JobListModel::State).data().toString(),
                                  QStringLiteral("stopped"), 5000);
        QVERIFY(QGuiApplication::quitOnLastWindowClosed());
    }

    void aJobsClustersOpenInThePanesWithOneAction()
    {
        QString error;
        auto sandbox = SandboxClusters::start(&error);
        QVERIFY2(sandbox, qPrintable(error));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("browse.mirrorjob"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral(R"({"mirrordesk": 1, "name": "browse me",
            "source": {"alias": "src", "bootstrap": "%1", "security": "plaintext"},
            "target": {"alias": "dst", "bootstrap": "%2", "security": "plaintext"},
            "topics": {"include": ["demo\..*"]}})")
                       .arg(sandbox->sourceBootstrap(), sandbox->targetBootstrap())
                       .toUtf8());
        file.close();

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.workspace()->openFile(path));
        QCOMPARE(window.sourcePane()->client()->state(), ClusterClient::State::Disconnected);
        auto *browse = window.findChild<QPushButton *>(QStringLiteral("browseClusters"));
        QVERIFY(browse);
        QTest::mouseClick(browse, Qt::LeftButton);

        const TopicTableModel *source = window.sourcePane()->topicModel();
        for (const SandboxClusters::DemoTopic &t : SandboxClusters::demoTopics())
            QTRY_VERIFY_WITH_TIMEOUT(rowOf(source, t.name) >= 0, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(window.targetPane()->client()->state(), ClusterClient::State::Connected, 15000);
        QCOMPARE(window.jobModel()->rowCount(), 0); // browsing starts nothing
        window.close();
    }

    void theSameProfileRunsOnceInAWindow()
    {
        QString error;
        auto sandbox = SandboxClusters::start(&error);
        QVERIFY2(sandbox, qPrintable(error));
        QTemporaryDir dir;
        const QString source = sandbox->sourceBootstrap();
        const QString target = sandbox->targetBootstrap();
        const QString pathA = dir.filePath(QStringLiteral("payments.mirrorjob"));
        QVERIFY(writeProfile(pathA, QStringLiteral("payments once"), source, target));
        // Another file, the same job: the same name (so the same consumer group), the source
        // cluster named by one of its servers in capitals.
        const QString pathB = dir.filePath(QStringLiteral("payments-copy.mirrorjob"));
        QVERIFY(writeProfile(pathB, QStringLiteral("payments once"), source.section(QLatin1Char(','), -1).toUpper(),
                             target));
        const QString pathC = dir.filePath(QStringLiteral("payments-other-group.mirrorjob"));
        QVERIFY(writeProfile(pathC, QStringLiteral("payments elsewhere"), source, target));

        MainWindow window;
        QAbstractItemModelTester jobTester(window.jobModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        JobWorkspace *ws = window.workspace();
        ws->setQuestionHook([](JobWorkspace::Question, const QString &) { return int(QMessageBox::Discard); });
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *jobs = window.findChild<QTableView *>(QStringLiteral("jobs"));
        QVERIFY(jobs);

        JobEditor *a = ws->openFile(pathA);
        QVERIFY(a);
        ws->run(a);
        QCOMPARE(window.jobModel()->rowCount(), 1);
        MirrorJob *first = window.jobMonitor(0)->job();
        QVERIFY(first && first->isRunning());
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("Started")));

        QVERIFY(monitorShown(window, 0));
        // Run again: no second job; the running one's monitor shows and the status bar says why.
        jobs->clearSelection();
        window.workArea()->raise(window.sourcePane()); // the monitor behind the source's view
        QVERIFY(!monitorShown(window, 0));
        ws->run(a);
        QCOMPARE(window.jobModel()->rowCount(), 1);
        QString message = window.statusBar()->currentMessage();
        QVERIFY2(message.contains(QStringLiteral("already runs")) &&
                     message.contains(QStringLiteral("same profile file")),
                 qPrintable(message));
        QVERIFY(monitorShown(window, 0));

        // The same source cluster and consumer group from another file: refused too.
        JobEditor *b = ws->openFile(pathB);
        QVERIFY(b);
        ws->run(b);
        QCOMPARE(window.jobModel()->rowCount(), 1);
        message = window.statusBar()->currentMessage();
        QVERIFY2(message.contains(QStringLiteral("consumer group mirrordesk-payments-once")), qPrintable(message));

        // Another group on the same cluster is another job.
        JobEditor *c = ws->openFile(pathC);
        QVERIFY(c);
        ws->run(c);
        QCOMPARE(window.jobModel()->rowCount(), 2);
        QVERIFY(monitorShown(window, 1));

        // Start on a waiting job of a running profile is refused the same way.
        MirrorJobSpec spec;
        spec.name = QStringLiteral("payments once");
        spec.groupId = QStringLiteral("mirrordesk-payments-once"); // what the profile derives
        spec.source.bootstrap = source;
        spec.target.bootstrap = target;
        spec.include = {QStringLiteral("demo\\.payments")};
        spec.syncTopicConfigs = false;
        auto *waiting = new MirrorJob(spec);
        window.addJob(waiting);
        jobs->selectRow(2);
        auto *start = window.findChild<QToolButton *>(QStringLiteral("startJob"));
        QVERIFY(start && start->isEnabled());
        QTest::mouseClick(start, Qt::LeftButton);
        QVERIFY(!waiting->hasStarted());
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("already runs")));
        QVERIFY(monitorShown(window, 0));

        // Once the first run has stopped, the profile runs again.
        first->stop();
        QTRY_VERIFY_WITH_TIMEOUT(!first->isRunning(), 30000);
        ws->run(a);
        QCOMPARE(window.jobModel()->rowCount(), 4);
        QVERIFY(window.jobMonitor(3)->job()->isRunning());
        window.close();
    }

    void unreachableClusterShowsAnErrorAndTheWindowStaysResponsive()
    {
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        const quint16 port = server.serverPort();
        server.close();
        ClusterConfig dead;
        dead.bootstrap = QStringLiteral("127.0.0.1:%1").arg(port);

        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QElapsedTimer timer;
        timer.start();
        window.showClusters(dead, dead);
        // The event loop keeps turning while the admin thread waits on Kafka.
        qint64 longestGap = 0;
        qint64 last = timer.elapsed();
        while (!window.sourcePane()->statusText().startsWith(QLatin1String("Unreachable")) && timer.elapsed() < 12000) {
            QTest::qWait(20);
            longestGap = std::max(longestGap, timer.elapsed() - last);
            last = timer.elapsed();
        }
        QVERIFY2(window.sourcePane()->statusText().startsWith(QLatin1String("Unreachable")),
                 qPrintable(window.sourcePane()->statusText()));
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(window.sourcePane()->statusText().contains(dead.bootstrap));
        QVERIFY2(longestGap < 1000, qPrintable(QString::number(longestGap)));
    }

    // A black hole: the port accepts connections and never answers (a broker
    // that hangs, a firewall that drops replies). The window stays responsive
    // while both panes wait, each says which cluster does not answer within its
    // timeout, and the window closes at once while the clients still wait.
    void silentClusterShowsAnErrorAndTheWindowStaysResponsive()
    {
        QTcpServer hole; // accepts (the kernel completes the handshake) and never reads or writes
        hole.setMaxPendingConnections(1000);
        QVERIFY(hole.listen(QHostAddress::LocalHost));
        ClusterConfig silent;
        silent.bootstrap = QStringLiteral("127.0.0.1:%1").arg(hole.serverPort());

        auto *window = new MainWindow;
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window));
        QElapsedTimer timer;
        timer.start();
        window->showClusters(silent, silent);
        qint64 longestGap = 0;
        qint64 last = timer.elapsed();
        const auto bothSaySo = [&] {
            return window->sourcePane()->statusText().startsWith(QLatin1String("Unreachable")) &&
                   window->targetPane()->statusText().startsWith(QLatin1String("Unreachable"));
        };
        while (!bothSaySo() && timer.elapsed() < 60000) {
            QTest::qWait(20);
            longestGap = std::max(longestGap, timer.elapsed() - last);
            last = timer.elapsed();
        }
        const qint64 reportedMs = timer.elapsed();
        QVERIFY2(bothSaySo(), qPrintable(window->sourcePane()->statusText() + QStringLiteral(" | ") +
                                         window->targetPane()->statusText()));
        QVERIFY(hole.hasPendingConnections()); // the clients did connect: the silence is what they met
        QVERIFY2(window->sourcePane()->statusText().contains(silent.bootstrap),
                 qPrintable(window->sourcePane()->statusText()));
        QVERIFY2(longestGap < 1000, qPrintable(QString::number(longestGap)));
        qInfo("reported after %lld ms: %s", reportedMs, qPrintable(window->sourcePane()->statusText()));

        // Browsing again while the clients still wait, then closing: nothing waits on the UI thread.
        window->sourcePane()->refresh();
        QElapsedTimer closing;
        closing.start();
        window->close();
        delete window;
        QVERIFY2(closing.elapsed() < 1000, qPrintable(QString::number(closing.elapsed())));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
