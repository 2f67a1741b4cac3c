#pragma once

#include "engine/mirror/MirrorJobSpec.h"
#include "engine/schema/RegistryCompare.h"
#include "model/cluster/ClusterDiff.h"

#include <QString>
#include <QStringList>

#include <atomic>

namespace md {

// What a comparison of one job's two clusters needs, read in one go: both
// clusters' metadata with watermarks and the configs of the job's topics on
// each side. A value: the reader runs on a worker, the widget gets a copy.
struct ClusterSnapshot {
    ClusterMetadata source; // with watermarks
    ClusterMetadata target;
    TopicConfigMap sourceConfigs; // by source topic name
    TopicConfigMap targetConfigs; // by target topic name
    QString error;                // why there is nothing to compare (a cluster unreachable, ...)
    QStringList warnings;         // partial trouble: configs of some topics unreadable
    // What a cluster does not serve at all (the sandbox's mock clusters have no
    // DescribeConfigs): said plainly, not as trouble.
    QStringList notes;
    // The mirrored topics' subjects on both clusters' registries (read once the
    // source's topics are known; a registry that does not answer is a note in it).
    RegistryComparison registry;
};

// Config reads are one request per topic per side; beyond this many topics they are skipped.
inline constexpr int SnapshotMaxConfigTopics = 500;

// Blocking (seconds when a cluster or a registry is unreachable): for a worker thread, never the UI thread.
// A set `cancel` ends it within about a second (between metadata rounds and
// between its steps), with error "cancelled".
ClusterSnapshot readClusterSnapshot(const MirrorJobSpec &spec, int timeoutMs = 10000,
                                    int maxConfigTopics = SnapshotMaxConfigTopics,
                                    const std::atomic_bool *cancel = nullptr);

} // namespace md
