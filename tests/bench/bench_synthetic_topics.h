#pragma once

// Partitions of a made-up topic for the UI benchmarks that need no cluster:
// leaders and replicas over three brokers, message counts that differ from
// topic to topic (the topic's index) and partition to partition.

#include "engine/admin/ClusterMetadata.h"

namespace md::bench {

inline QList<PartitionInfo> syntheticPartitions(int topicIndex, int partitions)
{
    QList<PartitionInfo> out;
    out.reserve(partitions);
    for (int p = 0; p < partitions; ++p) {
        PartitionInfo pi;
        pi.id = p;
        pi.leader = p % 3;
        pi.replicas = {p % 3};
        pi.isr = {p % 3};
        pi.lowWatermark = 0;
        pi.highWatermark = (topicIndex * 31 + p) % 1000;
        out.append(pi);
    }
    return out;
}

} // namespace md::bench
