#include "MainWindow.h"

#include "ConnectionDialog.h"

#include "ClusterPane.h"
#include "CompareView.h"
#include "FailoverDialog.h"
#include "GroupMonitor.h"
#include "JobEditorDialog.h"
#include "JobListModel.h"
#include "JobMonitor.h"
#include "JobWorkspace.h"
#include "MessagesPanel.h"
#include "MirrorJob.h"
#include "NotificationBanner.h"
#include "Notifier.h"
#include "OtherSideLookup.h"
#include "ResetProgressDialog.h"
#include "TopicNaming.h"
#include "VerifyDialog.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSet>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <memory>

namespace md {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_source(new ClusterPane(tr("Source"), this)), m_target(new ClusterPane(tr("Target"), this)),
      m_jobModel(new JobListModel(this)), m_jobView(new QTableView(this)), m_start(new QToolButton(this))
{
    setWindowTitle(QStringLiteral("MirrorDesk"));
    // The first size comes from the screen (a laptop's 1366x768 included); restoreSettings()
    // brings back the user's own.
    resize(fitToScreen(this, QSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX)));

    auto *clusters = new QSplitter(Qt::Horizontal, this);
    clusters->setObjectName(QStringLiteral("clusterSplitter"));
    clusters->addWidget(m_source);
    clusters->addWidget(m_target);
    clusters->setChildrenCollapsible(false);
    const auto listedJobs = [this] {
        QList<MirrorJobSpec> specs;
        for (const MirrorJob *job : std::as_const(m_jobs))
            specs.append(job->spec());
        return specs;
    };
    m_otherSide = new OtherSideLookup(m_source, m_target, listedJobs, this);
    // "Watch lag" on a group in either pane opens its lag monitor.
    for (ClusterPane *pane : {m_source, m_target}) {
        connect(pane, &ClusterPane::watchGroupRequested, this,
                [this, pane](const QString &groupId) { watchGroup(pane->client()->config(), groupId); });
    }

    m_jobView->setObjectName(QStringLiteral("jobs"));
    m_jobView->setModel(m_jobModel);
    m_jobView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_jobView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_jobView->verticalHeader()->hide();
    m_jobView->horizontalHeader()->setStretchLastSection(true);
    m_jobView->horizontalHeader()->setMinimumSectionSize(40);
    // Narrow figures, so name, state, copied and rate show beside the monitor on a laptop.
    m_jobView->horizontalHeader()->setDefaultSectionSize(
        m_jobView->fontMetrics().horizontalAdvance(QStringLiteral("1234.5 k/s")) + 12);
    m_jobView->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_jobView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_jobView, &QWidget::customContextMenuRequested, this, &MainWindow::showJobContextMenu);
    connect(m_jobView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MainWindow::updateJobButtons);
    connect(m_jobModel, &QAbstractItemModel::dataChanged, this, &MainWindow::updateJobButtons);

    // A profile opened from a file waits for the user; pause, resume, stop and
    // the throttle sit beside each job's charts.
    m_start->setText(tr("Start"));
    m_start->setObjectName(QStringLiteral("startJob"));
    connect(m_start, &QToolButton::clicked, this, [this] {
        if (MirrorJob *job = selectedJob()) {
            QString why;
            const QString path = m_profilePaths.value(int(m_jobs.indexOf(job)));
            if (MirrorJob *running = runningDuplicate(job->spec(), path, job, &why))
                showDuplicate(running, why);
            else
                job->start();
        }
        updateJobButtons();
    });

    auto *jobsPanel = new QWidget(this);
    auto *jobsLayout = new QVBoxLayout(jobsPanel);
    jobsLayout->setContentsMargins(4, 4, 4, 4);
    auto *jobsHeader = new QHBoxLayout;
    auto *jobsTitle = new QLabel(tr("Mirror jobs"), jobsPanel);
    QFont bold = jobsTitle->font();
    bold.setBold(true);
    jobsTitle->setFont(bold);
    jobsHeader->addWidget(jobsTitle, 1);
    jobsHeader->addWidget(m_start);
    m_compare = new QToolButton(jobsPanel);
    m_compare->setObjectName(QStringLiteral("compareClusters"));
    m_compare->setText(tr("Compare clusters\u2026"));
    m_compare->setToolTip(tr("The selected job's topics on the source and on the target, side by side"));
    connect(m_compare, &QToolButton::clicked, this, &MainWindow::compareSelectedJob);
    jobsHeader->addWidget(m_compare);
    // The job's actions, for the Job menu, the list's context menu and the reset button.
    m_startAction = new QAction(tr("&Start"), this);
    m_startAction->setObjectName(QStringLiteral("startJobAction"));
    connect(m_startAction, &QAction::triggered, m_start, &QToolButton::click);
    m_compareAction = new QAction(tr("&Compare Clusters\u2026"), this);
    m_compareAction->setObjectName(QStringLiteral("compareClustersAction"));
    m_compareAction->setToolTip(m_compare->toolTip());
    connect(m_compareAction, &QAction::triggered, this, &MainWindow::compareSelectedJob);
    m_resetAction = new QAction(tr("Reset &Progress\u2026"), this);
    m_resetAction->setObjectName(QStringLiteral("resetProgressAction"));
    connect(m_resetAction, &QAction::triggered, this, &MainWindow::resetSelectedJobProgress);
    m_failoverAction = new QAction(tr("Fail &Over Consumer Groups\u2026"), this);
    m_failoverAction->setObjectName(QStringLiteral("failoverAction"));
    m_failoverAction->setToolTip(tr("Move consumer groups to the target: their offsets translated through the job's "
                                    "offset map"));
    connect(m_failoverAction, &QAction::triggered, this, &MainWindow::failoverSelectedJob);
    m_verifyAction = new QAction(tr("&Verify\u2026"), this);
    m_verifyAction->setObjectName(QStringLiteral("verifyAction"));
    m_verifyAction->setToolTip(tr("Compare the job's source partitions with the target, record by record"));
    connect(m_verifyAction, &QAction::triggered, this, &MainWindow::verifySelectedJob);
    auto *verify = new QToolButton(jobsPanel);
    verify->setObjectName(QStringLiteral("verifyJob"));
    m_verifyAction->setIconText(tr("Verify\u2026"));
    verify->setDefaultAction(m_verifyAction);
    jobsHeader->addWidget(verify);
    auto *reset = new QToolButton(jobsPanel);
    reset->setObjectName(QStringLiteral("resetProgress"));
    m_resetAction->setIconText(tr("Reset progress\u2026")); // the button's text, like its neighbours'
    reset->setDefaultAction(m_resetAction);
    jobsHeader->addWidget(reset);
    jobsLayout->addLayout(jobsHeader);
    // The selected job's monitor beside the job list; hidden monitors skip all drawing.
    m_monitorStack = new QStackedWidget(jobsPanel);
    m_monitorStack->setObjectName(QStringLiteral("monitors"));
    m_monitorStack->addWidget(new QLabel(tr("Start or select a job to see it live."), m_monitorStack));
    auto *jobsSplit = new QSplitter(Qt::Horizontal, jobsPanel);
    jobsSplit->setObjectName(QStringLiteral("jobSplitter"));
    jobsSplit->addWidget(m_jobView);
    jobsSplit->addWidget(m_monitorStack);
    jobsSplit->setStretchFactor(0, 1);
    jobsSplit->setStretchFactor(1, 2);
    jobsLayout->addWidget(jobsSplit);
    connect(m_jobView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MainWindow::showSelectedMonitor);

    auto *main = new QSplitter(Qt::Vertical, this);
    main->setObjectName(QStringLiteral("mainSplitter"));
    main->addWidget(clusters);
    main->addWidget(jobsPanel);
    main->setStretchFactor(0, 3);
    main->setStretchFactor(1, 2);
    // Above the panes, the notifications' banner (shown only where no service or tray can).
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    auto *banner = new NotificationBanner(central);
    centralLayout->addWidget(banner);
    centralLayout->addWidget(main, 1);
    setCentralWidget(central);
    const auto tray = [this] { return ensureTray(); };
    m_notifier = new Notifier(banner, tray, this);

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
    m_jobMenu->addActions({m_startAction, m_compareAction, m_verifyAction});
    m_jobMenu->addSeparator();
    m_jobMenu->addAction(m_resetAction);
    m_jobMenu->addAction(m_failoverAction);
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
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About MirrorDesk"), this, [this] {
        QMessageBox::about(this, tr("About MirrorDesk"),
                           tr("MirrorDesk %1\nBrowse two Kafka clusters side by side and mirror topics between them.")
                               .arg(QApplication::applicationVersion()));
    });
    statusBar()->showMessage(tr("Ready"));
    updateJobButtons();
}

MainWindow::~MainWindow() = default;

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
    m_otherSide->update();
}

namespace {

QString canonicalProfilePath(const QString &path)
{
    if (path.isEmpty())
        return {};
    const QFileInfo info(path);
    const QString canonical = info.canonicalFilePath(); // one file by any link or spelling
    return canonical.isEmpty() ? info.absoluteFilePath() : canonical;
}

// "Kafka-EU:9092, kafka-eu2:9092" -> {"kafka-eu:9092", "kafka-eu2:9092"}
QSet<QString> bootstrapServers(const QString &bootstrap)
{
    QSet<QString> out;
    for (const QString &server : bootstrap.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        QString s = server.trimmed().toLower();
        if (const qsizetype scheme = s.indexOf(QLatin1String("://")); scheme >= 0)
            s = s.mid(scheme + 3); // "PLAINTEXT://host:9092"
        if (!s.isEmpty())
            out.insert(s);
    }
    return out;
}

} // namespace

MirrorJob *MainWindow::runningDuplicate(const MirrorJobSpec &spec, const QString &profilePath, const MirrorJob *except,
                                        QString *why) const
{
    const QString path = canonicalProfilePath(profilePath);
    const QSet<QString> servers = bootstrapServers(spec.source.bootstrap);
    const QString group = consumerGroupId(spec);
    for (qsizetype row = 0; row < m_jobs.size(); ++row) {
        MirrorJob *job = m_jobs[row];
        if (job == except || !job->isRunning())
            continue;
        if (!path.isEmpty() && m_profilePaths.value(row) == path) {
            if (why)
                *why = tr("the same profile file");
            return job;
        }
        // Two jobs of one group in one window would only split the partitions between them.
        if (consumerGroupId(job->spec()) == group &&
            bootstrapServers(job->spec().source.bootstrap).intersects(servers)) {
            if (why)
                *why = tr("the same source cluster and consumer group %1").arg(group);
            return job;
        }
    }
    return nullptr;
}

void MainWindow::showDuplicate(MirrorJob *running, const QString &why)
{
    const int row = int(m_jobs.indexOf(running));
    m_jobView->selectRow(row);
    showSelectedMonitor();
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
    statusBar()->showMessage(tr("Started %1").arg(spec.name), 10000);
    updateJobButtons();
    return job;
}

void MainWindow::addJob(MirrorJob *job, const QString &profilePath)
{
    job->setParent(this);
    const int row = m_jobModel->addJob(job->spec().name);
    m_jobs.append(job);
    m_profilePaths.append(canonicalProfilePath(profilePath));
    connect(job, &MirrorJob::metricsSampled, this,
            [this, job](const MetricsSnapshot &s) { m_jobModel->setMetrics(int(m_jobs.indexOf(job)), s); });
    connect(job, &MirrorJob::stateChanged, this,
            [this, job](JobState state) { m_jobModel->setState(int(m_jobs.indexOf(job)), state); });
    connect(job, &MirrorJob::eventRaised, this, [this, job](const JobEvent &e) {
        m_jobModel->setLastEvent(int(m_jobs.indexOf(job)), e);
        statusBar()->showMessage(job->spec().name + QStringLiteral(": ") + e.text, 10000);
    });
    connect(job, &MirrorJob::finished, this, [this, job](bool ok, const QString &error) {
        m_jobModel->setState(int(m_jobs.indexOf(job)), ok ? JobState::Stopped : JobState::Failed);
        if (!ok)
            statusBar()->showMessage(job->spec().name + QStringLiteral(" failed: ") + error);
    });
    auto *monitor = new JobMonitor(m_monitorStack);
    monitor->setJob(job);
    m_monitors.append(monitor);
    m_monitorStack->addWidget(monitor);
    connect(monitor, &JobMonitor::statusChanged, this,
            [this, job](JobLagStatus status) { m_jobModel->setStatus(int(m_jobs.indexOf(job)), status); });
    m_notifier->watch(job, monitor);
    m_jobModel->setStatus(row, monitor->status());
    if (m_jobView->selectionModel()->selectedRows().isEmpty())
        m_jobView->selectRow(row);
    showSelectedMonitor();
    updateJobButtons();
    m_otherSide->update(); // the new job may connect the clusters shown
}

MirrorJob *MainWindow::selectedJob() const
{
    const QModelIndexList rows = m_jobView->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return nullptr;
    return m_jobs.value(rows.first().row());
}

void MainWindow::showSelectedMonitor()
{
    const QModelIndexList rows = m_jobView->selectionModel()->selectedRows();
    JobMonitor *monitor = rows.isEmpty() ? nullptr : m_monitors.value(rows.first().row());
    m_monitorStack->setCurrentIndex(monitor ? m_monitorStack->indexOf(monitor) : 0);
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
    m_compareAction->setEnabled(job != nullptr);
    m_failoverAction->setEnabled(job != nullptr);
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
    menu.addActions({m_startAction, m_compareAction, m_verifyAction});
    menu.addSeparator();
    menu.addActions({m_resetAction, m_failoverAction});
    menu.exec(m_jobView->viewport()->mapToGlobal(pos));
}

QString MainWindow::resetBlockedReason(const MirrorJobSpec &spec) const
{
    // A running job commits its own progress over a reset; it is also an active
    // member, which applyReset refuses anyway, with less to go on.
    for (MirrorJob *job : m_jobs) {
        if (job->isRunning() && job->spec().groupId == spec.groupId &&
            job->spec().source.bootstrap == spec.source.bootstrap)
            return tr("\u201c%1\u201d runs in this window; stop it first").arg(job->spec().name);
    }
    return {};
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
    auto *view = new CompareView(job->spec(), this);
    view->setWindowFlag(Qt::Window);
    view->setAttribute(Qt::WA_DeleteOnClose);
    view->show();
    return view;
}

GroupMonitor *MainWindow::watchGroup(const ClusterConfig &cluster, const QString &groupId)
{
    auto *monitor = new GroupMonitor(cluster, groupId, GroupMonitor::defaultIntervalMs, this);
    monitor->setWindowFlag(Qt::Window);
    monitor->setAttribute(Qt::WA_DeleteOnClose);
    monitor->show();
    return monitor;
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
