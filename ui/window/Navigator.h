#pragma once

#include <QList>
#include <QWidget>

class QAbstractButton;
class QStandardItemModel;
class QTableView;
class QTreeView;

namespace md {

class ClusterPane;
class FlowLayout;
class JobListModel;

// The window's left side (qBittorrent's list, Qt Creator's navigator): the mirror jobs
// with their state, rate and status above the job buttons' row, and the clusters shown,
// each with its pages (Topics, Brokers, ACLs, ...). It only lists and asks: the window
// opens what an entry names.
class Navigator final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Navigator)
public:
    // The columns a narrow list shows first; the header's context menu shows the others.
    static QList<int> defaultHiddenColumns();

    Navigator(JobListModel *jobs, const QList<ClusterPane *> &panes, QWidget *parent = nullptr);

    QTableView *jobView() const { return m_jobView; }
    QTreeView *clusterView() const { return m_clusterView; }
    QStandardItemModel *clusterModel() const { return m_clusterModel; }
    // The width that shows the job list's visible columns whole.
    int listWidth() const;
    // A job action's button, in the row above the list (it wraps on a narrow navigator).
    void addJobButton(QAbstractButton *button);
    // The pages of the panes again (a pane connected elsewhere, a tab added).
    void updateClusters();

Q_SIGNALS:
    // A job activated (double-click, Enter): open its monitor.
    void jobActivated(int row);
    // A cluster entry clicked: page -1 is the pane itself, else its tab of that index.
    void clusterPageRequested(md::ClusterPane *pane, int page);

private:
    void showColumnMenu(const QPoint &pos);

    JobListModel *m_jobs;
    QList<ClusterPane *> m_panes;
    QTableView *m_jobView;
    FlowLayout *m_buttons;
    QTreeView *m_clusterView;
    QStandardItemModel *m_clusterModel;
};

} // namespace md
