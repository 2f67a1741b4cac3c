#include "ClusterProbe.h"

#include "ProbeClient.h"

#include <QElapsedTimer>

#include <algorithm>

namespace md {

const ProbedTopic *ClusterProbeResult::topic(const QString &name) const
{
    auto it = std::lower_bound(topics.cbegin(), topics.cend(), name,
                               [](const ProbedTopic &t, const QString &n) { return t.name < n; });
    return it != topics.cend() && it->name == name ? &*it : nullptr;
}

ClusterProbeResult probeCluster(const ClusterConfig &cluster, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    ClusterProbeResult result;
    const QString where = cluster.bootstrap.isEmpty() ? QStringLiteral("(no bootstrap address)") : cluster.bootstrap;
    QString error;
    std::unique_ptr<ProbeClient> probe = ProbeClient::create(cluster, &error, timeoutMs);
    if (!probe) {
        result.error = error.startsWith(cluster.bootstrap + QLatin1Char(':')) && !cluster.bootstrap.isEmpty()
            ? error
            : where + QStringLiteral(": ") + error;
    } else if (std::optional<ClusterMetadata> md = probe->fetchMetadata(timeoutMs, false, &error)) {
        result.reachable = true;
        result.brokerCount = int(md->brokers.size());
        result.topics.reserve(md->topics.size());
        for (const TopicInfo &t : std::as_const(md->topics))
            result.topics.append({t.name, int(t.partitions.size()), t.error, t.replicationFactor()});
    } else {
        result.error = error;
    }
    result.elapsedMs = timer.elapsed();
    return result;
}

} // namespace md
