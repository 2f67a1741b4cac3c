#include "engine/admin/ClusterProbe.h"

#include "engine/admin/ProbeClient.h"

#include <QElapsedTimer>

#include <algorithm>

namespace md {

const ProbedTopic *ClusterProbeResult::topic(const QString &name) const
{
    auto it = std::lower_bound(topics.cbegin(), topics.cend(), name,
                               [](const ProbedTopic &t, const QString &n) { return t.name < n; });
    return it != topics.cend() && it->name == name ? &*it : nullptr;
}

ConnectionTestResult testConnection(const ClusterConfig &cluster, int timeoutMs, const std::atomic_bool *cancel)
{
    QElapsedTimer timer;
    timer.start();
    ConnectionTestResult result;
    std::unique_ptr<ProbeClient> probe = ProbeClient::create(cluster, &result.error, timeoutMs);
    if (!probe) {
        result.failedStep = ConnectionTestResult::Step::CreateClient;
    } else {
        probe->setCancelFlag(cancel);
        result.metadata = probe->fetchMetadata(timeoutMs, false, &result.error);
        if (result.metadata)
            result.error = {};
    }
    result.elapsedMs = timer.elapsed();
    return result;
}

ClusterProbeResult probeCluster(const ClusterConfig &cluster, int timeoutMs, const std::atomic_bool *cancel)
{
    ConnectionTestResult test = testConnection(cluster, timeoutMs, cancel);
    ClusterProbeResult result;
    result.elapsedMs = test.elapsedMs;
    if (test.metadata) {
        const ClusterMetadata &md = *test.metadata;
        result.reachable = true;
        result.brokerCount = int(md.brokers.size());
        result.topics.reserve(md.topics.size());
        for (const TopicInfo &t : md.topics)
            result.topics.append({t.name, int(t.partitions.size()), t.error, t.replicationFactor()});
        return result;
    }
    result.failure = test.error;
    // Every message names the bootstrap address, also when the client could
    // not even be created (an empty address included).
    if (test.failedStep == ConnectionTestResult::Step::CreateClient &&
        (cluster.bootstrap.isEmpty() || !result.failure.message.startsWith(cluster.bootstrap + QLatin1Char(':')))) {
        const QString where =
            cluster.bootstrap.isEmpty() ? QStringLiteral("(no bootstrap address)") : cluster.bootstrap;
        result.failure.message = where + QStringLiteral(": ") + result.failure.message;
    }
    result.error = result.failure.message;
    return result;
}

} // namespace md
