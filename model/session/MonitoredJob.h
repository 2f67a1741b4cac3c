#pragma once

#include "engine/mirror/MetricsSnapshot.h"
#include "model/monitor/LagStatus.h"
#include "model/monitor/MetricStore.h"

#include <QObject>
#include <QString>

namespace md {

class MirrorJob;

// One job as the application knows it: the engine that copies (none for a watched consumer
// group, whose poller feeds addSnapshot), the profile file it came from, its metric history
// and its rolled-up lag status. It is the one owner of that state: the job list, a monitor
// (a view, made when opened and deleted when closed), notifications, `run`'s progress line
// and the Prometheus exporter read it and follow its signals, and keep no copy.
class MonitoredJob final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MonitoredJob)
public:
    // Takes ownership of job (may be null). profilePath: canonical, empty when not from a file.
    explicit MonitoredJob(MirrorJob *job, const QString &profilePath = {},
                          const MetricStore::Config &config = MetricStore::Config{}, QObject *parent = nullptr);
    // A history with no engine behind it, fed through addSnapshot.
    explicit MonitoredJob(const MetricStore::Config &config = MetricStore::Config{}, QObject *parent = nullptr);
    ~MonitoredJob() override;

    MirrorJob *job() const { return m_job; }
    const QString &profilePath() const { return m_profilePath; }
    const MetricStore &store() const { return m_store; }
    // As of the latest snapshot (MetricStore::jobStatus); OK before the first.
    JobLagStatus status() const { return m_status; }
    // Why the status is what it is, for a notification: the lag and the worst partitions
    // ("lag 12.3 k records; 2 partitions STALL: orders-3, orders-5").
    QString lagReason() const;
    // "1 partition(s) about to lose records to the source's retention: orders-3 at offset 812
    // (CreateTime 6 d 23 h old, retention 7 d 0 h)"; used by lagReason and `run`.
    static QString retentionRiskText(const MetricsSnapshot &snapshot);

    // A status-only history for headless runs: enough raw samples for the rates a progress
    // line shows and the lag rules, no long-term tiers and no per-partition rings (a job of
    // thousands of partitions would otherwise hold tens of MB nobody draws).
    static MetricStore::Config statusOnlyConfig();

public Q_SLOTS:
    // Takes a snapshot into the history (an older one than the latest is dropped) and updates
    // the status, then emits snapshotAdded and, when the status changed, statusChanged.
    void addSnapshot(const md::MetricsSnapshot &snapshot);

Q_SIGNALS:
    void snapshotAdded(const md::MetricsSnapshot &snapshot);
    void statusChanged(md::JobLagStatus status);

private:
    MirrorJob *m_job = nullptr; // a child: goes with this
    QString m_profilePath;
    MetricStore m_store;
    JobLagStatus m_status = JobLagStatus::Ok;
};

} // namespace md
