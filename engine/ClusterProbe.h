#pragma once

#include "ClusterConfig.h"

#include <QList>
#include <QString>

namespace md {

struct ProbedTopic {
    QString name;
    int partitions = 0;
    QString error; // a topic-level error the broker reported, or empty
    int replicationFactor = 0; // of its first partition; 0 when unknown

    bool operator==(const ProbedTopic &) const = default;
};

struct ClusterProbeResult {
    bool reachable = false;
    // Why the cluster could not be used, naming the bootstrap address and
    // librdkafka's reason ("localhost:1: cannot reach the cluster: ... Connection refused").
    QString error;
    int brokerCount = 0;
    QList<ProbedTopic> topics; // sorted by name, internal topics included
    qint64 elapsedMs = 0;

    const ProbedTopic *topic(const QString &name) const;
};

// Contacts one cluster and lists its topics with partition counts. Blocking,
// for worker threads and headless commands only (never the UI thread).
// Returns within about `timeoutMs`; sooner when librdkafka reports that every
// bootstrap broker is down or that authentication failed, because waiting
// longer would only repeat the same answer.
ClusterProbeResult probeCluster(const ClusterConfig &cluster, int timeoutMs);

} // namespace md
