#include "engine/admin/ClusterMetadata.h"

#include <algorithm>

namespace md {

qint64 TopicInfo::messageCount() const
{
    qint64 total = 0;
    for (const PartitionInfo &p : partitions) {
        if (p.lowWatermark < 0 || p.highWatermark < 0)
            return -1;
        total += p.highWatermark - p.lowWatermark;
    }
    return total;
}

const TopicInfo *ClusterMetadata::topic(const QString &name) const
{
    auto it = std::lower_bound(topics.cbegin(), topics.cend(), name,
                               [](const TopicInfo &t, const QString &n) { return t.name < n; });
    return it != topics.cend() && it->name == name ? &*it : nullptr;
}

} // namespace md
