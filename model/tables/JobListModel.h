#pragma once

#include "engine/mirror/MetricsSnapshot.h"
#include "model/monitor/LagStatus.h"

#include <QAbstractTableModel>

#include <optional>
#include <utility>

namespace md {

// The jobs of a window, one row each, with the figures of their latest
// metrics snapshot. One dataChanged per snapshot per job. The rate is the
// snapshot's, which the engine takes over a few seconds (RateWindow).
class JobListModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobListModel)
public:
    // LagTime and CatchUp came last, so saved column layouts keep their places.
    enum Column { Name, State, Records, Rate, Lag, Status, LastEvent, LagTime, CatchUp, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit JobListModel(QObject *parent = nullptr);

    int addJob(const QString &name); // returns its row
    void removeJob(int row);
    void setState(int row, JobState state);
    void setMetrics(int row, const MetricsSnapshot &snapshot);
    void setStatus(int row, JobLagStatus status); // the lag status rolled up (shown as PAUSED while paused)
    void setLastEvent(int row, const JobEvent &event);
    const MetricsSnapshot &metrics(int row) const { return m_jobs[row].metrics; }
    JobState state(int row) const { return m_jobs[row].state; }
    double rate(int row) const { return m_jobs[row].rate; } // records/s produced (the snapshot's)

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Job {
        QString name;
        JobState state = JobState::Starting;
        MetricsSnapshot metrics;
        std::optional<JobLagStatus> status; // none before the first verdict
        JobEvent lastEvent;
        double rate = 0;
    };
    void rowChanged(int row);

    QList<Job> m_jobs;
};

} // namespace md
