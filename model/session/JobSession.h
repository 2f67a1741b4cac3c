#pragma once

#include "engine/mirror/MirrorJobSpec.h"
#include "model/monitor/MetricStore.h"

#include <QList>
#include <QObject>
#include <QString>

namespace md {

class JobListModel;
class MirrorJob;
class MonitoredJob;
struct JobEvent;

// The jobs of one window, in list order, and the job list model that shows them. The session
// owns each job (a MonitoredJob: the engine, its profile path, its metrics and lag status) and
// keeps the list model's rows in step with them; the window, its monitors and the notifier
// observe. Rules about jobs running side by side (a duplicate of a running profile, a reset
// while the job group runs here) are answered here, from the one list.
class JobSession final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobSession)
public:
    explicit JobSession(QObject *parent = nullptr);
    ~JobSession() override;

    // The history each new job keeps (the window's default; tests make it small).
    void setMetricConfig(const MetricStore::Config &config) { m_metricConfig = config; }

    // Takes ownership of job and lists it last. profilePath: the file its profile came from,
    // if any (kept canonical: one file by any link or spelling).
    MonitoredJob *add(MirrorJob *job, const QString &profilePath = {});

    int count() const { return int(m_jobs.size()); }
    MonitoredJob *at(int row) const { return m_jobs.value(row); }
    int rowOf(const MirrorJob *job) const;
    int rowOf(const MonitoredJob *job) const { return int(m_jobs.indexOf(job)); }
    const QList<MonitoredJob *> &jobs() const { return m_jobs; }
    QList<MirrorJobSpec> specs() const;
    QList<MirrorJob *> runningJobs() const;
    JobListModel *listModel() const { return m_model; }

    // A running job (other than `except`) with the same profile: the same file, or the same
    // source cluster (a bootstrap server in common) and consumer group. Null if none; *why,
    // when given, says which.
    MonitoredJob *runningDuplicate(const MirrorJobSpec &spec, const QString &profilePath,
                                   const MirrorJob *except = nullptr, QString *why = nullptr) const;
    // Why the progress of the job group of `spec` cannot be reset now; empty: it can.
    QString resetBlockedReason(const MirrorJobSpec &spec) const;

    static QString canonicalProfilePath(const QString &path);

Q_SIGNALS:
    void jobAdded(md::MonitoredJob *job);
    void jobEventRaised(md::MonitoredJob *job, const md::JobEvent &event);
    void jobFinished(md::MonitoredJob *job, bool ok, const QString &error);

private:
    QList<MonitoredJob *> m_jobs; // children, in list order
    JobListModel *m_model;
    MetricStore::Config m_metricConfig;
};

} // namespace md
