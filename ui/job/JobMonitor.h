#pragma once

#include "engine/admin/AdminService.h"
#include "engine/mirror/MetricsSnapshot.h"
#include "engine/mirror/MirrorJob.h"
#include "model/monitor/LagStatus.h"
#include "model/monitor/MetricStore.h"
#include "model/session/MonitoredJob.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QComboBox;
class QCPColorMap;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QToolButton;

namespace md {

class ChartPanel;
class GroupLagSampler;
class LagMapWidget;
class MonitorChart;
class GroupSyncTableModel;
class PartitionTableModel;

// The live view of one mirror job: throughput, lag, lag in time and latency charts, a
// per-partition lag map and table, the job's controls and exports.
//
// A view only: the job's history and status belong to its MonitoredJob (the session's), which
// outlives the monitor; a monitor made for a job that has run for hours draws all of it.
// Snapshots go into that MetricStore as they come (fixed rate, a few per second); drawing is
// decoupled: new data arms a single ~100 ms timer unless one is pending, so the
// charts replot at most ~10 times a second however fast snapshots arrive, and not at all
// while the monitor is hidden (a hidden monitor only marks itself stale). Only the visible
// tab is redrawn, and it queries only its time window, about one point per pixel.
//
// Several instances of one profile share its partitions through the consumer group. While a
// job's monitor is shown, a GroupLagSampler (its own thread) describes the job's group every
// few seconds, so the partition table also lists the partitions other members own, and whom.
class JobMonitor final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobMonitor)

public:
    enum Chart { Throughput, Lag, LagTime, Latency, Partitions, ChartCount };
    // What feeds the monitor: a mirror job (all charts and the job's controls), or a consumer
    // group's poller (GroupLagSampler): the same charts, lag map, partition table and status
    // rules, without the job controls and without the lag-in-time and latency charts a
    // group's committed offsets cannot tell.
    enum class Kind { MirrorJob, ConsumerGroup };
    // Window lengths of the window combo, in its order; 0 = the whole run.
    static const QList<qint64> &windowChoicesMs();
    static constexpr int redrawIntervalMs = 100;
    // How often a shown monitor asks the job's group who owns which partition.
    static constexpr int ownersIntervalMs = 3000;

    // Shows `monitored` (which must outlive the monitor) and wires the controls to its job.
    explicit JobMonitor(MonitoredJob *monitored, QWidget *parent = nullptr);
    JobMonitor(Kind kind, MonitoredJob *monitored, QWidget *parent = nullptr);
    ~JobMonitor() override;

    MonitoredJob *monitored() const { return m_monitored; }
    MirrorJob *job() const { return m_monitored->job(); } // null for a group
    Kind kind() const { return m_kind; }
    // The line above the charts ("running • 1.2 k records/s • lag 300 • OK").
    QString summaryText() const;

    const MetricStore &store() const { return m_monitored->store(); }
    JobLagStatus status() const { return m_monitored->status(); }

    // Current chart (tab) and time window.
    void setCurrentChart(Chart chart);
    Chart currentChart() const;
    void setWindowMs(qint64 windowMs); // one of windowChoicesMs(); also returns to live
    qint64 windowMs() const { return m_windowMs; }
    bool followsLive() const { return m_followLive; }
    void setFollowLive(bool live);
    // Shows [fromMs, toMs] and stops following live (as a user's zoom would).
    void showRange(qint64 fromMs, qint64 toMs);

    QCustomPlot *plot(Chart chart) const;
    MonitorChart *chart(Chart chart) const;
    QCPColorMap *lagMap() const;
    PartitionTableModel *partitionModel() const { return m_partitionModel; }
    GroupSyncTableModel *groupsModel() const { return m_groupsModel; }
    QSortFilterProxyModel *partitionProxy() const { return m_partitionProxy; }
    QDoubleSpinBox *throttleBox() const { return m_throttle; }
    QToolButton *pauseButton() const { return m_pause; }
    QToolButton *resumeButton() const { return m_resume; }
    QToolButton *stopButton() const { return m_stop; }
    // Describes the job's group while the monitor is shown; null before setJob and for a group.
    GroupLagSampler *ownersSampler() const { return m_ownersSampler; }
    // Members of the job's group other than this window's job, as last described.
    int otherMemberCount() const { return m_otherMembers; }

    // Exports of the current chart. The files are written atomically (CSV) or not at all;
    // on failure error says why and where.
    bool savePng(const QString &path, QString *error = nullptr);
    bool savePdf(const QString &path, QString *error = nullptr);
    bool saveCsv(const QString &path, QString *error = nullptr);

    // Redraws done by the coalescing timer since construction (for tests and the bench),
    // and the wall time they took.
    int redrawCount() const { return m_redraws; }
    qint64 redrawNanoseconds() const { return m_redrawNs; }
    bool redrawPending() const { return m_redrawTimer.isActive(); }

public Q_SLOTS:
    // The job's group as described (members, assignments) with its committed offsets: the
    // partitions other members own go into the partition table. Called by the owners sampler.
    void setGroupMembers(const md::ConsumerGroupInfo &group, const md::MetricsSnapshot &groupOffsets);
    // Redraws the current chart now (the timer's target).
    void redraw();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void build();
    void onSnapshot(const md::MetricsSnapshot &snapshot);
    void watchJob();
    void scheduleRedraw();
    void updateControls();
    void currentWindow(qint64 *fromMs, qint64 *toMs) const;
    void exportWithDialog(const QString &kind);
    void updateOwnersPolling();

    Kind m_kind = Kind::MirrorJob;
    MonitoredJob *m_monitored;
    bool m_followLive = true;
    qint64 m_windowMs = 5 * 60 * 1000;
    qint64 m_viewFromMs = 0; // user's window when not following live
    qint64 m_viewToMs = 0;
    bool m_stale = false; // data arrived while hidden
    QTimer m_redrawTimer;
    int m_redraws = 0;
    qint64 m_redrawNs = 0;

    QTabWidget *m_tabs = nullptr;
    QList<MonitorChart *> m_charts;
    LagMapWidget *m_lagMap = nullptr;
    PartitionTableModel *m_partitionModel = nullptr;
    GroupSyncTableModel *m_groupsModel = nullptr; // group offset sync, its tab shown once a snapshot has groups
    int m_groupsTab = -1;
    QSortFilterProxyModel *m_partitionProxy = nullptr;
    QTableView *m_partitionView = nullptr;
    QComboBox *m_window = nullptr;
    QToolButton *m_live = nullptr;
    QToolButton *m_pause = nullptr;
    QToolButton *m_resume = nullptr;
    QToolButton *m_stop = nullptr;
    QDoubleSpinBox *m_throttle = nullptr;
    QLabel *m_summary = nullptr;
    GroupLagSampler *m_ownersSampler = nullptr;
    int m_otherMembers = 0;
};

} // namespace md
