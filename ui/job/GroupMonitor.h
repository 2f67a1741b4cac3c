#pragma once

#include "engine/core/ClusterConfig.h"
#include "ui/job/JobMonitor.h"

#include <QWidget>

class QLabel;
class QSpinBox;
class QToolButton;

namespace md {

class GroupLagSampler;

// Watches one consumer group of either cluster over time: a GroupLagSampler polls its
// committed and end offsets into a MonitoredJob of its own, and a JobMonitor in its
// ConsumerGroup mode shows them
// with the job monitors' charts, lag map, partition table and Burrow status rules.
class GroupMonitor final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GroupMonitor)
public:
    static constexpr int defaultIntervalMs = 5000;

    // Starts polling at once, every intervalMs.
    GroupMonitor(const ClusterConfig &cluster, const QString &groupId, int intervalMs = defaultIntervalMs,
                 QWidget *parent = nullptr);
    // No sampler: fed through addSnapshot (tests, replays).
    explicit GroupMonitor(const QString &groupId, QWidget *parent = nullptr);
    ~GroupMonitor() override;

    const QString &groupId() const { return m_groupId; }
    const ClusterConfig &cluster() const { return m_cluster; }
    JobMonitor *monitor() const { return m_monitor; }
    GroupLagSampler *sampler() const { return m_sampler; } // null without one
    QString errorText() const;

public Q_SLOTS:
    void addSnapshot(const md::MetricsSnapshot &snapshot);

Q_SIGNALS:
    void statusChanged(md::JobLagStatus status);

private:
    void build(int intervalMs);
    void showError(const QString &error);

    QString m_groupId;
    ClusterConfig m_cluster;
    GroupLagSampler *m_sampler = nullptr;
    // The group's history. Its monitor is a view of it, as a job's is of the job's; a watched
    // group is not a job of the session, so this tab, kept when closed, holds it.
    MonitoredJob *m_history = nullptr;
    JobMonitor *m_monitor = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_error = nullptr;
    QSpinBox *m_interval = nullptr;
    QToolButton *m_sampleNow = nullptr;
};

} // namespace md
