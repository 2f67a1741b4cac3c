#include "ui/window/MainWindow.h"

#include "ui/connections/ConnectionDialog.h"

#include "engine/mirror/MirrorJob.h"
#include "engine/mirror/TopicNaming.h"
#include "model/session/JobSession.h"
#include "model/session/MonitoredJob.h"
#include "model/tables/JobListModel.h"
#include "ui/cluster/ClusterPane.h"
#include "ui/cluster/MessagesPanel.h"
#include "ui/cluster/OtherSideLookup.h"
#include "ui/dialogs/CutoverDialog.h"
#include "ui/dialogs/FailoverDialog.h"
#include "ui/dialogs/ResetProgressDialog.h"
#include "ui/dialogs/VerifyDialog.h"
#include "ui/job/CompareView.h"
#include "ui/job/GroupMonitor.h"
#include "ui/job/JobEditorDialog.h"
#include "ui/job/JobMonitor.h"
#include "ui/job/JobWorkspace.h"
#include "ui/window/Navigator.h"
#include "ui/window/NotificationBanner.h"
#include "ui/window/Notifier.h"
#include "ui/window/WorkArea.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSet>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

namespace md {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_source(new ClusterPane(tr("Source"), this)), m_target(new ClusterPane(tr("Target"), this)),
      m_session(new JobSession(this)), m_jobModel(m_session->listModel()), m_start(new QToolButton(this))
{
    setWindowTitle(QStringLiteral("MirrorDesk"));
    // The first size is the screen's available area (a laptop's 1366x768 included);
    // restoreSettings() brings back the user's own.
    if (const QScreen *screen = this->screen()) {
        const QRect available = screen->availableGeometry();
        resize(available.size());
        move(available.topLeft());
    }

    const auto listedJobs = [this] { return m_session->specs(); };
    m_otherSide = new OtherSideLookup(m_source, m_target, listedJobs, this);
    // "Watch lag" on a group in either pane opens its lag monitor.
    for (ClusterPane *pane : {m_source, m_target}) {
        connect(pane, &ClusterPane::watchGroupRequested, this,
                [this, pane](const QString &groupId) { watchGroup(pane->client()->config(), groupId); });
    }

    // The work area: the source's cluster view on the left, the target's on the right (as
    // the two panes always were); job monitors and comparisons open as tabs beside them.
    m_workArea = new WorkArea(this);
    m_workArea->addPinned(m_source, QStringLiteral("source"), m_source->title(), WorkArea::Left);
    m_workArea->addPinned(m_target, QStringLiteral("target"), m_target->title(), WorkArea::Right);
    connect(m_otherSide, &OtherSideLookup::paneShown, m_workArea, &WorkArea::raise);

    m_navigator = new Navigator(m_jobModel, {m_source, m_target}, this);
    m_jobView = m_navigator->jobView();
    m_jobView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_jobView, &QWidget::customContextMenuRequested, this, &MainWindow::showJobContextMenu);
    connect(m_jobView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MainWindow::updateJobButtons);
    connect(m_jobModel, &QAbstractItemModel::dataChanged, this, &MainWindow::updateJobButtons);
    connect(m_navigator, &Navigator::jobActivated, this, &MainWindow::openJobMonitor);
    connect(m_navigator, &Navigator::clusterPageRequested, this, [this](ClusterPane *pane, int page) {
        m_workArea->raise(pane);
        if (page >= 0)
            pane->tabs()->setCurrentIndex(page);
    });
    // Selecting or clicking a job brings its open monitor forward (a double-click opens a
    // closed one).
    const auto raiseSelectedMonitor = [this] {
        if (MirrorJob *job = selectedJob()) {
            JobMonitor *monitor = jobMonitor(m_session->rowOf(job));
            if (monitor && m_workArea->isOpen(monitor))
                m_workArea->raise(monitor);
        }
    };
    connect(m_jobView->selectionModel(), &QItemSelectionModel::selectionChanged, this, raiseSelectedMonitor);
    connect(m_jobView, &QAbstractItemView::clicked, this, raiseSelectedMonitor);

    // A profile opened from a file waits for the user; pause, resume, stop and
    // the throttle sit beside each job's charts.
    m_start->setText(tr("Start"));
    m_start->setObjectName(QStringLiteral("startJob"));
    connect(m_start, &QToolButton::clicked, this, [this] {
        if (MirrorJob *job = selectedJob()) {
            QString why;
            const int row = m_session->rowOf(job);
            if (MirrorJob *running = runningDuplicate(job->spec(), m_session->at(row)->profilePath(), job, &why)) {
                showDuplicate(running, why);
            } else {
                job->start();
                openJobMonitor(row);
            }
        }
        updateJobButtons();
    });
    m_navigator->addJobButton(m_start);
    createJobActions();

    auto *main = new QSplitter(Qt::Horizontal, this);
    main->setObjectName(QStringLiteral("windowSplitter"));
    main->addWidget(m_navigator);
    main->addWidget(m_workArea);
    main->setChildrenCollapsible(false);
    main->setStretchFactor(0, 0);
    main->setStretchFactor(1, 1);
    // The navigator as wide as the job list's name, state, rate and status, at most a quarter.
    const int navigatorWidth = std::clamp(m_navigator->listWidth(), 200, std::max(200, width() / 4));
    main->setSizes({navigatorWidth, std::max(width() - navigatorWidth, 400)});
    // Above the panes, the notifications' banner (shown only where no service or tray can).
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    auto *banner = new NotificationBanner(central);
    centralLayout->addWidget(banner);
    centralLayout->addWidget(main, 1);
    setCentralWidget(central);
    // A pane connected elsewhere (Cluster > Connections) retitles its tab.
    for (ClusterPane *pane : {m_source, m_target}) {
        connect(pane->client(), &ClusterClient::stateChanged, this,
                [this, pane] { m_workArea->setTitle(pane, pane->title(), pane->client()->config().bootstrap); });
    }
    const auto tray = [this] { return ensureTray(); };
    m_notifier = new Notifier(banner, tray, this);
    connect(m_session, &JobSession::jobEventRaised, this, [this](MonitoredJob *job, const JobEvent &e) {
        statusBar()->showMessage(job->job()->spec().name + QStringLiteral(": ") + e.text, 10000);
    });
    connect(m_session, &JobSession::jobFinished, this, [this](MonitoredJob *job, bool ok, const QString &error) {
        if (!ok)
            statusBar()->showMessage(job->job()->spec().name + QStringLiteral(" failed: ") + error);
    });

    // Job profiles open as editor tabs in their own window, several at once; Run adds the
    // job to the list.
    m_workspace = new JobWorkspace(nullptr, this);
    m_editorDialog = new JobEditorDialog(m_workspace, this);
    connect(m_workspace, &JobWorkspace::documentCountChanged, m_editorDialog, [this](int count) {
        if (count > 0)
            m_editorDialog->showFitted();
        else
            m_editorDialog->hide();
    });
    connect(m_workspace, &JobWorkspace::statusMessage, this,
            [this](const QString &text) { statusBar()->showMessage(text, 10000); });
    connect(m_workspace, &JobWorkspace::browseRequested, this,
            [this](const MirrorJobSpec &spec) { showClusters(spec.source, spec.target); });
    connect(m_workspace, &JobWorkspace::resetProgressRequested, this, &MainWindow::openResetProgress);
    connect(m_workspace, &JobWorkspace::runRequested, this,
            [this](const MirrorJobSpec &spec, const QString &path) { runJob(spec, path); });

    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_workspace->addFileActions(file);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    m_workspace->addEditActions(edit);
    // Their shortcuts work in the editor's window too.
    m_editorDialog->addActions(file->actions());
    m_editorDialog->addActions(edit->actions());
    m_jobMenu = menuBar()->addMenu(tr("&Job"));
    m_jobMenu->setToolTipsVisible(true); // a disabled action says why
    m_jobMenu->addActions({m_openMonitorAction, m_startAction, m_compareAction, m_verifyAction});
    m_jobMenu->addSeparator();
    m_jobMenu->addAction(m_resetAction);
    m_jobMenu->addAction(m_failoverAction);
    m_jobMenu->addAction(m_cutoverAction);
    m_jobMenu->addSeparator();
    m_jobMenu->addAction(m_notifier->enableAction());
    QMenu *cluster = menuBar()->addMenu(tr("&Cluster"));
    cluster->addAction(tr("&Connections…"), this, [this] {
        // One manager per window, found again by name: no member needed here.
        auto *dlg = findChild<ConnectionDialog *>(QStringLiteral("connectionDialog"));
        if (!dlg) {
            dlg = new ConnectionDialog(this);
            dlg->setObjectName(QStringLiteral("connectionDialog"));
            connect(dlg, &ConnectionDialog::connectRequested, this,
                    [this](ConnectionDialog::Side side, const ClusterConfig &config) {
                        (side == ConnectionDialog::Side::Source ? sourcePane() : targetPane())->connectTo(config);
                    });
        }
        dlg->show();
        dlg->raise();
        dlg->activateWindow();
    });
    QMenu *view = menuBar()->addMenu(tr("&View"));
    m_navigatorAction = view->addAction(tr("&Navigator"));
    m_navigatorAction->setObjectName(QStringLiteral("navigatorAction"));
    m_navigatorAction->setCheckable(true);
    m_navigatorAction->setChecked(true);
    m_navigatorAction->setShortcut(QKeySequence(Qt::ALT | Qt::Key_0)); // Qt Creator's sidebar key
    connect(m_navigatorAction, &QAction::toggled, m_navigator, &QWidget::setVisible);
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About MirrorDesk"), this, [this] {
        QMessageBox::about(this, tr("About MirrorDesk"),
                           tr("MirrorDesk %1\nBrowse two Kafka clusters side by side and mirror topics between them.")
                               .arg(QApplication::applicationVersion()));
    });
    statusBar()->showMessage(tr("Ready"));
    updateJobButtons();
}

MainWindow::~MainWindow()
{
    // The views before what they view: a monitor draws from its job's store.
    for (const QPointer<JobMonitor> &monitor : std::as_const(m_monitors))
        delete monitor.data();
}

void MainWindow::createJobActions()
{
    // The job's actions, for the Job menu, the list's context menu and the navigator's buttons.
    m_openMonitorAction = new QAction(tr("&Open Monitor"), this);
    m_openMonitorAction->setObjectName(QStringLiteral("openMonitorAction"));
    m_openMonitorAction->setToolTip(tr("The job's charts, lag map and partitions, as a tab"));
    connect(m_openMonitorAction, &QAction::triggered, this, [this] {
        if (MirrorJob *job = selectedJob())
            openJobMonitor(m_session->rowOf(job));
    });
    m_startAction = new QAction(tr("&Start"), this);
    m_startAction->setObjectName(QStringLiteral("startJobAction"));
    connect(m_startAction, &QAction::triggered, m_start, &QToolButton::click);
    m_compareAction = new QAction(tr("&Compare Clusters\u2026"), this);
    m_compareAction->setObjectName(QStringLiteral("compareClustersAction"));
    m_compareAction->setToolTip(tr("The selected job's topics on the source and on the target, side by side"));
    m_compareAction->setIconText(tr("Compare\u2026"));
    connect(m_compareAction, &QAction::triggered, this, &MainWindow::compareSelectedJob);
    m_resetAction = new QAction(tr("Reset &Progress\u2026"), this);
    m_resetAction->setObjectName(QStringLiteral("resetProgressAction"));
    m_resetAction->setIconText(tr("Reset\u2026"));
    connect(m_resetAction, &QAction::triggered, this, &MainWindow::resetSelectedJobProgress);
    m_failoverAction = new QAction(tr("Fail &Over Consumer Groups\u2026"), this);
    m_failoverAction->setObjectName(QStringLiteral("failoverAction"));
    m_failoverAction->setToolTip(tr("Move consumer groups to the target: their offsets translated through the job's "
                                    "offset map"));
    connect(m_failoverAction, &QAction::triggered, this, &MainWindow::failoverSelectedJob);
    m_cutoverAction = new QAction(tr("Cu&t Over\u2026"), this);
    m_cutoverAction->setObjectName(QStringLiteral("cutoverAction"));
    m_cutoverAction->setToolTip(tr("Switch the applications to the target: drift report, fence the source's "
                                   "producers, drain, move the groups, stop the job"));
    connect(m_cutoverAction, &QAction::triggered, this, &MainWindow::cutoverSelectedJob);
    m_verifyAction = new QAction(tr("&Verify\u2026"), this);
    m_verifyAction->setObjectName(QStringLiteral("verifyAction"));
    m_verifyAction->setToolTip(tr("Compare the job's source partitions with the target, record by record"));
    m_verifyAction->setIconText(tr("Verify\u2026"));
    connect(m_verifyAction, &QAction::triggered, this, &MainWindow::verifySelectedJob);
    // Short texts: the row wraps in a narrow navigator, the menu has the long names.
    const auto button = [this](QAction *action, const QString &name) {
        auto *b = new QToolButton(this);
        b->setObjectName(name);
        b->setDefaultAction(action);
        m_navigator->addJobButton(b);
        return b;
    };
    m_compare = button(m_compareAction, QStringLiteral("compareClusters"));
    button(m_verifyAction, QStringLiteral("verifyJob"));
    button(m_resetAction, QStringLiteral("resetProgress"));
}

void MainWindow::showClusters(const ClusterConfig &source, const ClusterConfig &target)
{
    m_source->connectTo(source);
    m_target->connectTo(target);
    // Each messages tab copies to the other side's cluster.
    m_source->messagesPanel()->setClusters(source, target);
    m_target->messagesPanel()->setClusters(target, source);
    connect(m_target->client(), &ClusterClient::metadataReady, m_source->messagesPanel(),
            &MessagesPanel::setOtherMetadata, Qt::UniqueConnection);
    connect(m_source->client(), &ClusterClient::metadataReady, m_target->messagesPanel(),
            &MessagesPanel::setOtherMetadata, Qt::UniqueConnection);
    for (ClusterPane *pane : {m_source, m_target}) {
        m_workArea->setTitle(pane, pane->title(), pane->client()->config().bootstrap);
        m_workArea->raise(pane);
    }
    m_navigator->updateClusters();
    m_otherSide->update();
}

MirrorJob *MainWindow::runningDuplicate(const MirrorJobSpec &spec, const QString &profilePath, const MirrorJob *except,
                                        QString *why) const
{
    const MonitoredJob *running = m_session->runningDuplicate(spec, profilePath, except, why);
    return running ? running->job() : nullptr;
}

void MainWindow::showDuplicate(MirrorJob *running, const QString &why)
{
    const int row = m_session->rowOf(running);
    m_jobView->selectRow(row);
    openJobMonitor(row);
    statusBar()->showMessage(tr("%1 already runs in this window (%2): showing its monitor. To share its "
                                "partitions, run the profile on another machine.")
                                 .arg(running->spec().name, why),
                             15000);
}

MirrorJob *MainWindow::runJob(const MirrorJobSpec &spec, const QString &profilePath)
{
    QString why;
    if (MirrorJob *running = runningDuplicate(spec, profilePath, nullptr, &why)) {
        showDuplicate(running, why);
        return running;
    }
    showClusters(spec.source, spec.target);
    auto *job = new MirrorJob(spec);
    addJob(job, profilePath);
    m_jobView->selectRow(m_jobModel->rowCount() - 1);
    job->start();
    openJobMonitor(m_jobModel->rowCount() - 1); // the full height: charts, lag map and partitions
    statusBar()->showMessage(tr("Started %1").arg(spec.name), 10000);
    updateJobButtons();
    return job;
}

void MainWindow::addJob(MirrorJob *job, const QString &profilePath)
{
    // Ten busy jobs' librdkafka threads on two cores kept the window waiting
    // for a core (event-loop p99 of 195-346 ms; docs/PERFORMANCE.md).
    job->setBackgroundPriority(true);
    MonitoredJob *monitored = m_session->add(job, profilePath);
    const int row = m_session->rowOf(monitored);
    m_notifier->watch(monitored);
    if (m_jobView->selectionModel()->selectedRows().isEmpty())
        m_jobView->selectRow(row);
    // A monitor left open last time (restoreSettings) opens again with its job.
    if (m_workArea->hasPendingPage(monitorKey(row)))
        openJobMonitor(row);
    updateJobButtons();
    m_otherSide->update(); // the new job may connect the clusters shown
}

MirrorJob *MainWindow::selectedJob() const
{
    const QModelIndexList rows = m_jobView->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return nullptr;
    const MonitoredJob *monitored = m_session->at(rows.first().row());
    return monitored ? monitored->job() : nullptr;
}

QString MainWindow::monitorKey(int row) const
{
    // By the profile's file when it has one: the same job after a restart.
    const MonitoredJob *monitored = m_session->at(row);
    const QString path = monitored->profilePath();
    return QStringLiteral("job:") + (path.isEmpty() ? monitored->job()->spec().name : path);
}

JobMonitor *MainWindow::jobMonitor(int row) const
{
    return m_monitors.value(m_session->at(row)).data();
}

JobMonitor *MainWindow::openJobMonitor(int row)
{
    MonitoredJob *monitored = m_session->at(row);
    if (!monitored)
        return nullptr;
    // A view of the job's state, made when opened and deleted when closed: the session keeps
    // recording, and a monitor opened again draws the whole history.
    QPointer<JobMonitor> &monitor = m_monitors[monitored];
    if (!monitor)
        monitor = new JobMonitor(monitored, m_workArea);
    const MirrorJobSpec &spec = monitored->job()->spec();
    // On the left, over the source's view: the target's stays in sight.
    m_workArea->open(monitor, monitorKey(row), spec.name, WorkArea::Left, WorkArea::OnClose::Delete);
    m_workArea->setTitle(monitor, spec.name,
                         tr("%1: %2 → %3").arg(spec.name, spec.source.bootstrap, spec.target.bootstrap));
    return monitor;
}

void MainWindow::updateJobButtons()
{
    MirrorJob *job = selectedJob();
    m_start->setEnabled(job && !job->hasStarted());
    if (m_compare)
        m_compare->setEnabled(job != nullptr);
    if (!m_resetAction)
        return;
    m_startAction->setEnabled(m_start->isEnabled());
    m_openMonitorAction->setEnabled(job != nullptr);
    m_compareAction->setEnabled(job != nullptr);
    m_failoverAction->setEnabled(job != nullptr);
    m_cutoverAction->setEnabled(job != nullptr);
    m_verifyAction->setEnabled(job != nullptr);
    const QString blocked = job ? resetBlockedReason(job->spec()) : tr("Select a job in the list first");
    m_resetAction->setEnabled(blocked.isEmpty());
    const QString tip = blocked.isEmpty()
                            ? tr("Choose where the job's group restarts each partition, preview it, then reset")
                            : tr("Reset progress is unavailable: %1").arg(blocked);
    m_resetAction->setToolTip(tip);
    m_resetAction->setStatusTip(tip);
    // Open dialogs follow the jobs that start and stop here.
    m_resetDialogs.removeAll(nullptr);
    for (const QPointer<ResetProgressDialog> &dlg : std::as_const(m_resetDialogs)) {
        const QString reason = resetBlockedReason(dlg->spec());
        if (reason != dlg->blockedReason())
            dlg->setBlockedReason(reason);
    }
}

void MainWindow::showJobContextMenu(const QPoint &pos)
{
    const QModelIndex index = m_jobView->indexAt(pos);
    if (!index.isValid())
        return;
    m_jobView->selectRow(index.row());
    QMenu menu(this);
    menu.setToolTipsVisible(true);
    menu.addAction(m_openMonitorAction);
    menu.setDefaultAction(m_openMonitorAction); // what a double-click does
    menu.addActions({m_startAction, m_compareAction, m_verifyAction});
    menu.addSeparator();
    menu.addActions({m_resetAction, m_failoverAction, m_cutoverAction});
    menu.exec(m_jobView->viewport()->mapToGlobal(pos));
}

QString MainWindow::resetBlockedReason(const MirrorJobSpec &spec) const
{
    return m_session->resetBlockedReason(spec);
}

ResetProgressDialog *MainWindow::resetSelectedJobProgress()
{
    MirrorJob *job = selectedJob();
    if (!job || !resetBlockedReason(job->spec()).isEmpty())
        return nullptr;
    return openResetProgress(job->spec());
}

ResetProgressDialog *MainWindow::openResetProgress(const MirrorJobSpec &spec)
{
    m_resetDialogs.removeAll(nullptr);
    for (const QPointer<ResetProgressDialog> &open : std::as_const(m_resetDialogs)) {
        if (open->spec().groupId == spec.groupId && open->spec().source.bootstrap == spec.source.bootstrap) {
            open->show();
            open->raise();
            open->activateWindow();
            return open;
        }
    }
    auto *dlg = new ResetProgressDialog(spec, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->setBlockedReason(resetBlockedReason(spec));
    m_resetDialogs.append(dlg);
    dlg->show();
    return dlg;
}

FailoverDialog *MainWindow::failoverSelectedJob()
{
    MirrorJob *job = selectedJob();
    if (!job)
        return nullptr;
    auto *dlg = new FailoverDialog(job->spec(), this);
    dlg->show();
    return dlg;
}

CutoverDialog *MainWindow::cutoverSelectedJob()
{
    MirrorJob *job = selectedJob();
    if (!job)
        return nullptr;
    const QPointer<MirrorJob> selected(job);
    const QString path = m_session->at(m_session->rowOf(job))->profilePath();
    const MirrorJobSpec spec = job->spec();
    // The job the cutover drives: the selected one (started if it waits for Start), or
    // this window's run of the profile once that one has ended (a job runs once).
    auto provider = [this, selected, spec, path](QString *) -> MirrorJob * {
        if (selected && (selected->isRunning() || !selected->hasStarted())) {
            if (!selected->hasStarted()) {
                selected->start();
                updateJobButtons();
            }
            return selected;
        }
        return runJob(spec, path);
    };
    auto *dlg = new CutoverDialog(spec, provider, this);
    dlg->show();
    return dlg;
}

VerifyDialog *MainWindow::verifySelectedJob()
{
    MirrorJob *job = selectedJob();
    if (!job)
        return nullptr;
    const MirrorJobSpec &spec = job->spec();
    m_verifyDialogs.removeAll(nullptr);
    for (const QPointer<VerifyDialog> &open : std::as_const(m_verifyDialogs)) {
        if (open->spec().name == spec.name && open->spec().source.bootstrap == spec.source.bootstrap &&
            open->spec().target.bootstrap == spec.target.bootstrap) {
            open->show();
            open->raise();
            open->activateWindow();
            return open;
        }
    }
    auto *dlg = new VerifyDialog(spec, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    m_verifyDialogs.append(dlg);
    dlg->show();
    return dlg;
}

CompareView *MainWindow::compareSelectedJob()
{
    MirrorJob *job = selectedJob();
    if (!job)
        return nullptr;
    // One per job, as a tab on the right (over the target's view); closing it ends it.
    const QString key = QStringLiteral("compare:") + monitorKey(m_session->rowOf(job));
    if (auto *open = qobject_cast<CompareView *>(m_workArea->page(key))) {
        m_workArea->raise(open);
        return open;
    }
    auto *view = new CompareView(job->spec(), m_workArea);
    m_workArea->open(view, key, tr("Compare: %1").arg(job->spec().name), WorkArea::Right, WorkArea::OnClose::Delete);
    return view;
}

void MainWindow::openProfile()
{
    // Profiles open in the job editor now; Run there adds the job to the list.
    m_workspace->openWithDialog();
}

void MainWindow::openFilesFromOutside(const QStringList &files)
{
    for (const QString &f : files)
        m_workspace->openFile(f);
    if (isMinimized())
        setWindowState((windowState() & ~Qt::WindowMinimized) | Qt::WindowActive);
    show();
    raise();
    activateWindow();
}

} // namespace md
