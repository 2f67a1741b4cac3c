#include "model/session/MonitoredJob.h"

#include "engine/mirror/MirrorJob.h"
#include "model/tables/NumberFormat.h"

#include <algorithm>

namespace md {

MonitoredJob::MonitoredJob(MirrorJob *job, const QString &profilePath, const MetricStore::Config &config,
                           QObject *parent)
    : QObject(parent), m_job(job), m_profilePath(profilePath), m_store(config)
{
    if (m_job) {
        m_job->setParent(this);
        connect(m_job, &MirrorJob::metricsSampled, this, &MonitoredJob::addSnapshot);
    }
}

MonitoredJob::MonitoredJob(const MetricStore::Config &config, QObject *parent)
    : MonitoredJob(nullptr, QString(), config, parent)
{
}

MonitoredJob::~MonitoredJob() = default;

MetricStore::Config MonitoredJob::statusOnlyConfig()
{
    MetricStore::Config config;
    config.rawCapacity = 64; // 16 s at 250 ms: recentMean's 2 s and then some
    config.tiers.clear();
    config.maxPartitions = 0;
    return config;
}

void MonitoredJob::addSnapshot(const MetricsSnapshot &snapshot)
{
    if (!m_store.addSnapshot(snapshot))
        return;
    const JobLagStatus previous = m_status;
    m_status = m_store.jobStatus(); // before snapshotAdded: its receivers read the new status
    Q_EMIT snapshotAdded(snapshot);
    if (m_status != previous)
        Q_EMIT statusChanged(m_status);
}

QString MonitoredJob::lagReason() const
{
    QString text = tr("lag %1 records").arg(formatCount(double(m_store.latest().totalLag)));
    const LagStatusTracker &lag = m_store.lagStatus();
    const QHash<PartitionKey, PartitionLagStatus> statuses = lag.evaluate(lag.latestObservationMs());
    PartitionLagStatus worst = PartitionLagStatus::Ok;
    for (PartitionLagStatus s : statuses)
        worst = std::max(worst, s);
    if (worst == PartitionLagStatus::Ok)
        return text;
    QList<PartitionKey> keys;
    for (auto it = statuses.cbegin(); it != statuses.cend(); ++it) {
        if (it.value() == worst)
            keys.append(it.key());
    }
    std::sort(keys.begin(), keys.end());
    QStringList names;
    for (qsizetype i = 0; i < std::min<qsizetype>(keys.size(), 3); ++i)
        names.append(keys[i].topic + QLatin1Char('-') + QString::number(keys[i].partition));
    if (keys.size() > 3)
        names.append(QStringLiteral("\u2026"));
    return text + tr("; %n partition(s) %1: %2", "", int(keys.size()))
                      .arg(partitionLagStatusName(worst), names.join(QStringLiteral(", ")));
}

} // namespace md
