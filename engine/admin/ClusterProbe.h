#pragma once

#include "engine/admin/ClusterMetadata.h"
#include "engine/core/ClusterConfig.h"
#include "engine/core/KafkaError.h"

#include <QList>
#include <QString>

#include <atomic>
#include <optional>

namespace md {

struct ProbedTopic {
    QString name;
    int partitions = 0;
    QString error;             // a topic-level error the broker reported, or empty
    int replicationFactor = 0; // of its first partition; 0 when unknown

    bool operator==(const ProbedTopic &) const = default;
};

struct ClusterProbeResult {
    bool reachable = false;
    // Why the cluster could not be used, naming the bootstrap address and
    // librdkafka's reason ("localhost:1: cannot reach the cluster: ... Connection refused").
    QString error;
    KafkaError failure; // the same error with its code and kind; message == error
    int brokerCount = 0;
    QList<ProbedTopic> topics; // sorted by name, internal topics included
    qint64 elapsedMs = 0;

    const ProbedTopic *topic(const QString &name) const;
};

// Contacts one cluster and lists its topics with partition counts. Blocking,
// for worker threads and headless commands only (never the UI thread).
// Returns within about `timeoutMs`; sooner when librdkafka reports that every
// bootstrap broker is down or that authentication failed, because waiting
// longer would only repeat the same answer. A set `cancel` flag ends it
// within about a second (between metadata rounds), as unreachable.
ClusterProbeResult probeCluster(const ClusterConfig &cluster, int timeoutMs, const std::atomic_bool *cancel = nullptr);

// The connection test's answer: the cluster's metadata, or the step that
// failed and why.
struct ConnectionTestResult {
    enum class Step {
        CreateClient, // the settings or the client's TLS files were refused; nothing was sent
        Connect,      // no usable answer from the cluster
    };
    std::optional<ClusterMetadata> metadata; // brokers and topics when connected
    Step failedStep = Step::Connect;         // meaningful only without metadata
    KafkaError error;                        // None when connected
    qint64 elapsedMs = 0;

    bool ok() const { return metadata.has_value(); }
};

// Creates a client, fetches the cluster's metadata once and says what went
// wrong in which step. Blocking like probeCluster: for worker threads only.
ConnectionTestResult testConnection(const ClusterConfig &cluster, int timeoutMs,
                                    const std::atomic_bool *cancel = nullptr);

} // namespace md
