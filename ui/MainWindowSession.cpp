// The window's session: closing (running jobs stop first, without blocking the
// event loop) and the geometry, state, splitters and column widths it restores.
#include "MainWindow.h"

#include "JobEditorDialog.h"
#include "JobWorkspace.h"
#include "MirrorJob.h"

#include <QCloseEvent>
#include <QHeaderView>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>

#include <memory>

namespace md {

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_closeWhenStopped) { // every job has stopped, or the wait gave up
        saveSettings();
        event->accept();
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
    // Graceful stops flush and commit on the engine threads, in parallel. The
    // window waits for them with its event loop running (it repaints, the
    // jobs' last events show) and closes when the last one has finished.
    event->ignore();
    if (m_stopping)
        return; // already waiting
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
