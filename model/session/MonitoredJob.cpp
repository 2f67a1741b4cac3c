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
    // Records about to be removed by the source's retention are lost unless the job
    // catches up: as serious as a stalled partition, and notified like one.
    if (snapshot.retentionAtRisk > 0)
        m_status = JobLagStatus::Err;
    Q_EMIT snapshotAdded(snapshot);
    if (m_status != previous)
        Q_EMIT statusChanged(m_status);
}

QString MonitoredJob::retentionRiskText(const MetricsSnapshot &snapshot)
{
    QStringList names;
    for (const PartitionMetrics &p : snapshot.partitions) {
        if (!p.retentionAtRisk)
            continue;
        if (names.size() == 3) {
            names.append(QStringLiteral("\u2026"));
            break;
        }
        names.append(tr("%1-%2 at offset %3 (%4 %5 old, retention %6)")
                         .arg(p.topic)
                         .arg(p.partition)
                         .arg(p.nextOffset >= 0        ? p.nextOffset
                              : p.committedOffset >= 0 ? p.committedOffset
                                                       : p.logStartOffset)
                         .arg(p.timestampType.isEmpty() ? tr("timestamp") : p.timestampType, lagTimeText(p.lagMs),
                              lagTimeText(p.retentionMs)));
    }
    return tr("%n partition(s) about to lose records to the source's retention: %1", "", snapshot.retentionAtRisk)
        .arg(names.join(QStringLiteral(", ")));
}

QString MonitoredJob::lagReason() const
{
    const MetricsSnapshot &latest = m_store.latest();
    QString text = tr("lag %1 records").arg(formatCount(double(latest.totalLag)));
    if (latest.maxLagMs > 0)
        text += tr(", %1 behind").arg(lagTimeText(latest.maxLagMs));
    if (latest.retentionAtRisk > 0)
        text = retentionRiskText(latest) + QStringLiteral("; ") + text;
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
