#pragma once

#include "ClusterConfig.h"

#include <QMainWindow>

class QLabel;
class QTableView;
class QToolButton;

namespace md {

class ClusterPane;
class JobListModel;
class MirrorJob;

// Assembles the panes: source and target side by side, the job list below.
// Each pane and job keeps its own logic; the window only wires them.
class MainWindow final : public QMainWindow {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    void showClusters(const ClusterConfig &source, const ClusterConfig &target);
    // Takes ownership; the job is shown in the job list and stopped when the window closes.
    void addJob(MirrorJob *job);

    ClusterPane *sourcePane() const { return m_source; }
    ClusterPane *targetPane() const { return m_target; }
    JobListModel *jobModel() const { return m_jobModel; }

Q_SIGNALS:
    void openProfileRequested(const QString &path);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    MirrorJob *selectedJob() const;
    void updateJobButtons();
    void openProfile();

    ClusterPane *m_source;
    ClusterPane *m_target;
    JobListModel *m_jobModel;
    QTableView *m_jobView;
    QToolButton *m_pause;
    QToolButton *m_resume;
    QToolButton *m_stop;
    QList<MirrorJob *> m_jobs; // row order of m_jobModel
};

} // namespace md
