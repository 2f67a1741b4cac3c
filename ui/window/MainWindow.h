#pragma once

#include "engine/core/ClusterConfig.h"
#include "engine/mirror/MirrorJobSpec.h"

#include <QHash>
#include <QMainWindow>
#include <QPointer>

#include <functional>

class QAction;
class QLabel;
class QMenu;
class QSplitter;
class QSystemTrayIcon;
class QTableView;
class QToolButton;

namespace md {

class ClusterPane;
class CompareView;
class GroupMonitor;
class JobEditorDialog;
class JobListModel;
class JobMonitor;
class JobWorkspace;
class MirrorJob;
class MonitoredJob;
class JobSession;
class Navigator;
class Notifier;
class OtherSideLookup;
class CutoverDialog;
class FailoverDialog;
enum class JobLagStatus;
class ResetProgressDialog;
class VerifyDialog;
class WorkArea;

// Assembles the panes: the navigator (jobs, clusters) beside the work area, whose two
// tabbed sides hold the source's and the target's cluster views, the jobs' monitors and
// comparisons. Each pane and job keeps its own logic; the window only wires them.
class MainWindow final : public QMainWindow {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    void showClusters(const ClusterConfig &source, const ClusterConfig &target);
    // Takes ownership; the job is shown in the job list and stopped when the window closes.
    // profilePath: the file the job's profile came from, if any.
    void addJob(MirrorJob *job, const QString &profilePath = {});
    // Starts a job of this profile and shows its monitor, unless the same profile already
    // runs in this window (runningDuplicate): then shows that job's monitor instead and says
    // so in the status bar. Returns the job that runs the profile.
    MirrorJob *runJob(const MirrorJobSpec &spec, const QString &profilePath = {});
    // A running job of this window (other than `except`) with the same profile: the same file,
    // or the same source cluster (a bootstrap server in common) and consumer group. Null if none;
    // *why, when given, says which.
    MirrorJob *runningDuplicate(const MirrorJobSpec &spec, const QString &profilePath,
                                const MirrorJob *except = nullptr, QString *why = nullptr) const;

    ClusterPane *sourcePane() const { return m_source; }
    ClusterPane *targetPane() const { return m_target; }
    JobListModel *jobModel() const { return m_jobModel; }
    // The window's jobs and their state; the window, its monitors and the notifier observe it.
    JobSession *session() const { return m_session; }
    // "Show on the Other Cluster" of both message browsers, through the job list's jobs.
    OtherSideLookup *otherSideLookup() const { return m_otherSide; }
    // The open monitor of the job in row (a tab of the work area); null while it is closed.
    JobMonitor *jobMonitor(int row) const;
    // Opens the job's monitor as a tab (an open one is made current; a closed one is made
    // anew and draws the job's whole history); null without that row.
    JobMonitor *openJobMonitor(int row);
    WorkArea *workArea() const { return m_workArea; }
    Navigator *navigator() const { return m_navigator; }
    // The open job profiles (editor tabs in the editor's own window, shown while a profile is
    // open); File menu New/Open/Save/Close act on it.
    JobWorkspace *workspace() const { return m_workspace; }
    JobEditorDialog *editorDialog() const { return m_editorDialog; }
    // Window geometry and state, the splitters, the open tabs and the tables' columns (AppSettings).
    // The window saves them when it closes; the application restores them before showing it.
    void saveSettings() const;
    void restoreSettings();
    // Job menu and job list context menu: Start, Compare Clusters, Verify, Reset Progress, Fail Over.
    QAction *openMonitorAction() const { return m_openMonitorAction; }
    QAction *startAction() const { return m_startAction; }
    QAction *verifyAction() const { return m_verifyAction; }
    QAction *resetProgressAction() const { return m_resetAction; }
    QAction *failoverAction() const { return m_failoverAction; }
    QAction *cutoverAction() const { return m_cutoverAction; }
    // Why the progress of the job group of `spec` cannot be reset from here now; empty: it can.
    QString resetBlockedReason(const md::MirrorJobSpec &spec) const;
    // Opens profiles handed over by a later launch and brings the window forward.
    void openFilesFromOutside(const QStringList &files);

    // Closing while jobs run: stop them (flush and commit, then the window
    // closes), keep them copying with the window in the tray, or not close.
    // Where a tray exists the user is asked; elsewhere the jobs stop.
    enum class CloseChoice { StopJobs, KeepInTray, Cancel };
    using CloseQuestion = std::function<CloseChoice(int runningJobs)>;
    void setCloseQuestion(CloseQuestion ask) { m_askOnClose = std::move(ask); } // tests answer it
    // The tray icon, once a job status or the tray choice needed it; null before.
    QSystemTrayIcon *trayIcon() const { return m_tray; }
    // WARN, ERR, failed and recovered jobs, told by desktop notification, tray or banner.
    Notifier *notifier() const { return m_notifier; }

public Q_SLOTS:
    // Opens the Compare view (a tab, one per job) for the selected job's spec; null without a job.
    CompareView *compareSelectedJob();
    // Opens the Reset Progress dialog for the selected job; null without a job or while it runs here.
    ResetProgressDialog *resetSelectedJobProgress();
    // Opens the Fail Over Consumer Groups dialog for the selected job; null without a job.
    FailoverDialog *failoverSelectedJob();
    // Opens the Cut Over wizard for the selected job; null without a job. The cutover runs the
    // job in this window (starting it when it does not run) and stops it at the end.
    CutoverDialog *cutoverSelectedJob();
    // Opens the Verify dialog for the selected job (one per job: an open one is raised); null without a job.
    VerifyDialog *verifySelectedJob();
    // The Reset Progress dialog of a job (one per job group: an open one is raised). Reset is
    // unavailable in it while this window runs a job of that group.
    ResetProgressDialog *openResetProgress(const md::MirrorJobSpec &spec);
    // Opens (or raises) the tab watching a consumer group of either cluster over time (a
    // groups panel's watchGroupRequested(groupId), with the pane's ClusterConfig); closing
    // the tab parks it, and the saved layout brings it back for a cluster a pane shows.
    GroupMonitor *watchGroup(const md::ClusterConfig &cluster, const QString &groupId);
    // The work area's key of a group's monitor.
    static QString groupMonitorKey(const md::ClusterConfig &cluster, const QString &groupId);

Q_SIGNALS:
    void openProfileRequested(const QString &path);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    MirrorJob *selectedJob() const;
    void updateJobButtons();
    void showJobContextMenu(const QPoint &pos);
    void openProfile();
    void createJobActions();
    QString monitorKey(int row) const; // the work area's key of the job's monitor
    // Opens the group monitors of a restored layout whose cluster a pane shows.
    void reopenGroupMonitors(const QList<QStringList> &layout);
    // Selects the job's row (its monitor shows) and says why it was not started again.
    void showDuplicate(MirrorJob *running, const QString &why);
    QList<QSplitter *> namedSplitters() const;
    QList<QTableView *> namedTables() const; // whose columns are saved

    ClusterPane *m_source;
    ClusterPane *m_target;
    JobSession *m_session;           // owns the jobs and their state
    JobListModel *m_jobModel;        // the session's
    QTableView *m_jobView = nullptr; // the navigator's
    QToolButton *m_start;
    QToolButton *m_compare = nullptr;
    QAction *m_openMonitorAction = nullptr;
    QAction *m_startAction = nullptr;
    QAction *m_compareAction = nullptr;
    QAction *m_resetAction = nullptr;
    QAction *m_failoverAction = nullptr;
    QAction *m_cutoverAction = nullptr;
    QAction *m_verifyAction = nullptr;
    QMenu *m_jobMenu = nullptr;
    QList<QPointer<VerifyDialog>> m_verifyDialogs;
    QList<QPointer<ResetProgressDialog>> m_resetDialogs;
    QHash<const MonitoredJob *, QPointer<JobMonitor>> m_monitors; // the open ones
    WorkArea *m_workArea = nullptr;
    Navigator *m_navigator = nullptr;
    QAction *m_navigatorAction = nullptr;
    QSystemTrayIcon *m_tray = nullptr; // only where a tray exists
    Notifier *m_notifier = nullptr;
    JobWorkspace *m_workspace = nullptr;
    JobEditorDialog *m_editorDialog = nullptr;
    OtherSideLookup *m_otherSide = nullptr;
    // Closing with running jobs: stop them, close when they have finished.
    static constexpr int kCloseWaitMs = 15000;
    CloseChoice askOnClose(int runningJobs);
    QSystemTrayIcon *ensureTray();
    CloseQuestion m_askOnClose;
    bool m_quitAsked = false; // the tray's Quit: no question, the jobs stop
    bool m_stopping = false;
    bool m_closeWhenStopped = false;
};

} // namespace md
