// The window's session: closing (running jobs stop first, without blocking the
// event loop, or keep copying with the window in the tray) and the geometry, state, splitters and column widths it
// restores, the open tabs among them.
#include "ui/window/MainWindow.h"

#include "engine/mirror/MirrorJob.h"
#include "model/session/AppSettings.h"
#include "model/session/JobSession.h"
#include "ui/cluster/ClusterPane.h"
#include "ui/cluster/MessagesPanel.h"
#include "ui/job/JobEditorDialog.h"
#include "ui/job/JobWorkspace.h"
#include "ui/window/WorkArea.h"

#include <QCloseEvent>
#include <QGuiApplication>
#include <QHeaderView>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QSystemTrayIcon>
#include <QTableView>
#include <QTimer>

#include <memory>

namespace md {

MainWindow::CloseChoice MainWindow::askOnClose(int runningJobs)
{
    if (m_askOnClose)
        return m_askOnClose(runningJobs);
    if (!QSystemTrayIcon::isSystemTrayAvailable())
        return CloseChoice::StopJobs; // nowhere to keep them
    QMessageBox box(QMessageBox::Question, tr("Mirror jobs are running"),
                    tr("%n mirror job(s) still running.", "", runningJobs), QMessageBox::NoButton, this);
    box.setInformativeText(tr("Stopping flushes what is in flight and commits the progress first, so the next "
                              "start copies nothing twice. In the tray they keep copying."));
    QPushButton *stop = box.addButton(tr("Stop Jobs and Quit"), QMessageBox::AcceptRole);
    QPushButton *keep = box.addButton(tr("Keep Running in the Tray"), QMessageBox::ActionRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(stop);
    box.exec();
    if (box.clickedButton() == stop)
        return CloseChoice::StopJobs;
    return box.clickedButton() == keep ? CloseChoice::KeepInTray : CloseChoice::Cancel;
}

QSystemTrayIcon *MainWindow::ensureTray()
{
    if (m_tray)
        return m_tray;
    m_tray = new QSystemTrayIcon(this);
    QIcon icon = windowIcon();
    if (icon.isNull())
        icon = style()->standardIcon(QStyle::SP_ComputerIcon);
    m_tray->setIcon(icon);
    m_tray->setToolTip(QStringLiteral("MirrorDesk"));
    auto *menu = new QMenu(this);
    menu->addAction(tr("Show MirrorDesk"), this, [this] {
        QGuiApplication::setQuitOnLastWindowClosed(true);
        showNormal();
        raise();
        activateWindow();
    });
    menu->addAction(tr("Quit"), this, [this] {
        m_quitAsked = true;
        close();
    });
    m_tray->setContextMenu(menu);
    connect(m_tray, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason reason) {
        if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick) {
            QGuiApplication::setQuitOnLastWindowClosed(true);
            showNormal();
            raise();
            activateWindow();
        }
    });
    m_tray->show();
    return m_tray;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_closeWhenStopped) { // every job has stopped, or the wait gave up
        QGuiApplication::setQuitOnLastWindowClosed(true);
        saveSettings();
        event->accept();
        // A window closed from the tray was hidden: its closing alone does not end the application.
        if (m_quitAsked)
            QCoreApplication::quit();
        return;
    }
    // Unsaved profiles first: the user may still cancel closing.
    if (!m_workspace->closeAll()) {
        event->ignore();
        return;
    }
    const QList<MirrorJob *> running = m_session->runningJobs();
    if (running.isEmpty()) {
        saveSettings();
        event->accept();
        return;
    }
    event->ignore();
    if (m_stopping)
        return; // already waiting
    switch (m_quitAsked ? CloseChoice::StopJobs : askOnClose(int(running.size()))) {
    case CloseChoice::Cancel: return;
    case CloseChoice::KeepInTray:
        // Closing another window (a compare view, a group monitor) must not quit the jobs.
        QGuiApplication::setQuitOnLastWindowClosed(false);
        hide();
        ensureTray()->showMessage(tr("MirrorDesk keeps copying"),
                                  tr("%n mirror job(s) still running. The tray icon opens the window again; its "
                                     "menu quits.",
                                     "", int(running.size())),
                                  QSystemTrayIcon::Information, 10000);
        return;
    case CloseChoice::StopJobs: break;
    }
    // Graceful stops flush and commit on the engine threads, in parallel. The
    // window waits for them with its event loop running (it repaints, the
    // jobs' last events show) and closes when the last one has finished.
    m_stopping = true;
    auto closeNow = [this] {
        m_closeWhenStopped = true;
        close();
    };
    auto left = std::make_shared<qsizetype>(running.size());
    for (MirrorJob *job : std::as_const(running)) {
        connect(job, &MirrorJob::finished, this, [left, closeNow] {
            if (--*left == 0)
                closeNow();
        });
        job->stop();
    }
    statusBar()->showMessage(
        tr("Stopping %n job(s): flushing and committing before the window closes\u2026", "", int(running.size())));
    // A job that cannot reach its clusters stops by its own timeouts; the window does not wait longer than this.
    QTimer::singleShot(kCloseWaitMs, this, closeNow);
}

namespace {
// "sourcePane.topicSplitter": a widget by its named ancestors up to its cluster pane (or
// the window), so the two panes' splitters keep their own sizes wherever their tabs are.
QString objectPath(const QObject *object, const QWidget *window)
{
    QStringList path;
    for (const QObject *o = object; o && o != window; o = o->parent()) {
        if (!o->objectName().isEmpty() && !o->objectName().startsWith(QLatin1String("qt_")))
            path.prepend(o->objectName());
        if (qobject_cast<const ClusterPane *>(o))
            break;
    }
    return path.join(QLatin1Char('.'));
}

} // namespace

QList<QSplitter *> MainWindow::namedSplitters() const
{
    QList<QSplitter *> out;
    for (QSplitter *s : findChildren<QSplitter *>()) {
        if (!s->objectName().isEmpty() && s->window() == this)
            out.append(s);
    }
    return out;
}

QList<QTableView *> MainWindow::namedTables() const
{
    // The job list has its key of old (AppSettings::jobColumns); the job monitors' tables are per job.
    return {m_source->topicView(), m_target->topicView(), m_source->messagesPanel()->view(),
            m_target->messagesPanel()->view()};
}

void MainWindow::saveSettings() const
{
    AppSettings settings;
    settings.setWindowGeometry(saveGeometry());
    settings.setWindowState(saveState());
    settings.setJobColumns(m_jobView->horizontalHeader()->saveState());
    for (const QTableView *view : namedTables())
        settings.setTableColumns(objectPath(view, this), view->horizontalHeader()->saveState());
    for (const QSplitter *s : namedSplitters())
        settings.setSplitterSizes(objectPath(s, this), s->saveState());
    const QList<QStringList> tabs = m_workArea->layout();
    for (int side = 0; side < 2; ++side)
        settings.setOpenTabs(side, tabs.value(side));
    settings.setNavigatorVisible(m_navigatorAction->isChecked());
}

void MainWindow::restoreSettings()
{
    const AppSettings settings;
    const QByteArray geometry = settings.windowGeometry();
    // restoreGeometry keeps a saved window on a screen that still exists and fits it there.
    if (geometry.isEmpty() || !restoreGeometry(geometry)) {
        if (const QScreen *screen = this->screen())
            setGeometry(screen->availableGeometry());
        // Under a window manager, the whole work area; without one, the size just set.
        setWindowState(windowState() | Qt::WindowMaximized);
    } else {
        resize(size().boundedTo(fitToScreen(this, size(), 1.0)));
    }
    restoreState(settings.windowState());
    m_jobView->horizontalHeader()->restoreState(settings.jobColumns());
    for (QTableView *view : namedTables()) {
        const QByteArray state = settings.tableColumns(objectPath(view, this));
        if (!state.isEmpty())
            view->horizontalHeader()->restoreState(state);
    }
    // The open tabs first: a side left empty hides before the splitters take their sizes.
    if (settings.hasOpenTabs()) {
        const QList<QStringList> tabs{settings.openTabs(0), settings.openTabs(1)};
        m_workArea->restoreLayout(tabs);
        reopenGroupMonitors(tabs);
    }
    for (int row = 0; row < m_session->count(); ++row) {
        if (m_workArea->hasPendingPage(monitorKey(row)))
            openJobMonitor(row);
    }
    for (QSplitter *s : namedSplitters()) {
        const QByteArray state = settings.splitterSizes(objectPath(s, this));
        if (!state.isEmpty())
            s->restoreState(state);
    }
    m_navigatorAction->setChecked(settings.navigatorVisible());
}

} // namespace md
