// The window's session: closing (running jobs stop first, without blocking the
// event loop, or keep copying with the window in the tray) and the geometry, state, splitters and column widths it
// restores.
#include "MainWindow.h"

#include "JobEditorDialog.h"
#include "JobWorkspace.h"
#include "MirrorJob.h"

#include <QCloseEvent>
#include <QGuiApplication>
#include <QHeaderView>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
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
    QList<MirrorJob *> running;
    for (MirrorJob *job : std::as_const(m_jobs)) {
        if (job->isRunning())
            running.append(job);
    }
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
const auto kGeometryKey = QLatin1String("mainWindow/geometry");
const auto kStateKey = QLatin1String("mainWindow/state");
const auto kJobColumnsKey = QLatin1String("mainWindow/jobColumns");

// "mainWindow/splitters/sourcePane.topicSplitter": one key per named splitter, by its
// named ancestors, so the two panes' splitters keep their own sizes.
QString splitterKey(const QSplitter *splitter, const QWidget *window)
{
    QStringList path;
    for (const QObject *o = splitter; o && o != window; o = o->parent()) {
        if (!o->objectName().isEmpty())
            path.prepend(o->objectName());
    }
    return QLatin1String("mainWindow/splitters/") + path.join(QLatin1Char('.'));
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

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState());
    settings.setValue(kJobColumnsKey, m_jobView->horizontalHeader()->saveState());
    for (const QSplitter *s : namedSplitters())
        settings.setValue(splitterKey(s, this), s->saveState());
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    const QByteArray geometry = settings.value(kGeometryKey).toByteArray();
    // restoreGeometry keeps a saved window on a screen that still exists and fits it there.
    if (geometry.isEmpty() || !restoreGeometry(geometry))
        resize(fitToScreen(this, QSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX)));
    else
        resize(size().boundedTo(fitToScreen(this, size(), 1.0)));
    restoreState(settings.value(kStateKey).toByteArray());
    m_jobView->horizontalHeader()->restoreState(settings.value(kJobColumnsKey).toByteArray());
    for (QSplitter *s : namedSplitters())
        s->restoreState(settings.value(splitterKey(s, this)).toByteArray());
}

} // namespace md
