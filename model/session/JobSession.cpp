#include "model/session/JobSession.h"

#include "engine/mirror/MirrorJob.h"
#include "engine/mirror/TopicNaming.h"
#include "model/session/MonitoredJob.h"
#include "model/tables/JobListModel.h"

#include <QFileInfo>
#include <QSet>

namespace md {

namespace {

// "Kafka-EU:9092, kafka-eu2:9092" -> {"kafka-eu:9092", "kafka-eu2:9092"}
QSet<QString> bootstrapServers(const QString &bootstrap)
{
    QSet<QString> out;
    for (const QString &server : bootstrap.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        QString s = server.trimmed().toLower();
        if (const qsizetype scheme = s.indexOf(QLatin1String("://")); scheme >= 0)
            s = s.mid(scheme + 3); // "PLAINTEXT://host:9092"
        if (!s.isEmpty())
            out.insert(s);
    }
    return out;
}

} // namespace

JobSession::JobSession(QObject *parent) : QObject(parent), m_model(new JobListModel(this))
{
}

// The jobs go first: their last signals must not reach a list model that is gone.
JobSession::~JobSession()
{
    qDeleteAll(m_jobs);
}

QString JobSession::canonicalProfilePath(const QString &path)
{
    if (path.isEmpty())
        return {};
    const QFileInfo info(path);
    const QString canonical = info.canonicalFilePath(); // one file by any link or spelling
    return canonical.isEmpty() ? info.absoluteFilePath() : canonical;
}

MonitoredJob *JobSession::add(MirrorJob *job, const QString &profilePath)
{
    auto *monitored = new MonitoredJob(job, canonicalProfilePath(profilePath), m_metricConfig, this);
    const int row = m_model->addJob(job->spec().name);
    Q_ASSERT(row == m_jobs.size());
    m_jobs.append(monitored);
    // Rows are looked up at each signal: a row number would go stale if jobs were removed.
    connect(monitored, &MonitoredJob::snapshotAdded, this,
            [this, monitored](const MetricsSnapshot &s) { m_model->setMetrics(rowOf(monitored), s); });
    connect(monitored, &MonitoredJob::statusChanged, this,
            [this, monitored](JobLagStatus status) { m_model->setStatus(rowOf(monitored), status); });
    connect(job, &MirrorJob::stateChanged, this,
            [this, monitored](JobState state) { m_model->setState(rowOf(monitored), state); });
    connect(job, &MirrorJob::eventRaised, this, [this, monitored](const JobEvent &e) {
        m_model->setLastEvent(rowOf(monitored), e);
        Q_EMIT jobEventRaised(monitored, e);
    });
    connect(job, &MirrorJob::finished, this, [this, monitored](bool ok, const QString &error) {
        m_model->setState(rowOf(monitored), ok ? JobState::Stopped : JobState::Failed);
        Q_EMIT jobFinished(monitored, ok, error);
    });
    m_model->setStatus(row, monitored->status());
    Q_EMIT jobAdded(monitored);
    return monitored;
}

int JobSession::rowOf(const MirrorJob *job) const
{
    for (int row = 0; row < m_jobs.size(); ++row) {
        if (m_jobs[row]->job() == job)
            return row;
    }
    return -1;
}

QList<MirrorJobSpec> JobSession::specs() const
{
    QList<MirrorJobSpec> out;
    out.reserve(m_jobs.size());
    for (const MonitoredJob *m : m_jobs)
        out.append(m->job()->spec());
    return out;
}

QList<MirrorJob *> JobSession::runningJobs() const
{
    QList<MirrorJob *> out;
    for (const MonitoredJob *m : m_jobs) {
        if (m->job()->isRunning())
            out.append(m->job());
    }
    return out;
}

MonitoredJob *JobSession::runningDuplicate(const MirrorJobSpec &spec, const QString &profilePath,
                                           const MirrorJob *except, QString *why) const
{
    const QString path = canonicalProfilePath(profilePath);
    const QSet<QString> servers = bootstrapServers(spec.source.bootstrap);
    const QString group = consumerGroupId(spec);
    for (MonitoredJob *m : m_jobs) {
        const MirrorJob *job = m->job();
        if (job == except || !job->isRunning())
            continue;
        if (!path.isEmpty() && m->profilePath() == path) {
            if (why)
                *why = tr("the same profile file");
            return m;
        }
        // Two jobs of one group in one window would only split the partitions between them.
        if (consumerGroupId(job->spec()) == group &&
            bootstrapServers(job->spec().source.bootstrap).intersects(servers)) {
            if (why)
                *why = tr("the same source cluster and consumer group %1").arg(group);
            return m;
        }
    }
    return nullptr;
}

QString JobSession::resetBlockedReason(const MirrorJobSpec &spec) const
{
    // A running job commits its own progress over a reset; it is also an active
    // member, which applyReset refuses anyway, with less to go on.
    for (const MonitoredJob *m : m_jobs) {
        const MirrorJob *job = m->job();
        if (job->isRunning() && job->spec().groupId == spec.groupId &&
            job->spec().source.bootstrap == spec.source.bootstrap)
            return tr("\u201c%1\u201d runs in this window; stop it first").arg(job->spec().name);
    }
    return {};
}

} // namespace md
