#pragma once

#include "engine/admin/AdminService.h"
#include "engine/admin/ClusterMetadata.h"
#include "engine/mirror/MirrorJobSpec.h"

#include <QHash>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

namespace md {

// How one partition of a mirrored topic compares. "Behind" and "ahead" are by end offset
// (high watermark): a mirror from the earliest offset that has caught up has equal end
// offsets on both sides (transaction markers aside), whatever retention did to the start.
struct PartitionDiff {
    enum class Status { InSync, Behind, Ahead, MissingOnTarget, MissingOnSource, Unknown };

    int partition = -1;
    qint64 sourceLow = -1; // -1: unknown or no such partition
    qint64 sourceHigh = -1;
    qint64 targetLow = -1;
    qint64 targetHigh = -1;
    Status status = Status::Unknown;

    bool onSource() const { return sourceHigh >= 0 || status == Status::MissingOnTarget; }
    qint64 sourceCount() const { return sourceHigh >= 0 && sourceLow >= 0 ? sourceHigh - sourceLow : -1; }
    qint64 targetCount() const { return targetHigh >= 0 && targetLow >= 0 ? targetHigh - targetLow : -1; }
    // Source end minus target end; 0 when either is unknown.
    qint64 endDelta() const { return sourceHigh >= 0 && targetHigh >= 0 ? sourceHigh - targetHigh : 0; }

    bool operator==(const PartitionDiff &) const = default;
};

// A topic config whose value differs; nullopt = not set (unknown or sensitive) on that side.
struct ConfigDiff {
    QString name;
    std::optional<QString> source;
    std::optional<QString> target;

    bool operator==(const ConfigDiff &) const = default;
};

// One selected source topic (or one orphan target topic) and how it compares.
struct TopicDiff {
    // The primary verdict, worst first: the summary counts each topic once, under it.
    enum class Status { Error, MissingOnTarget, MissingOnSource, PartitionCount, Behind, Ahead, Configs, InSync };

    QString sourceTopic; // for MissingOnSource: the source name the target topic maps from
    QString targetTopic;
    int sourcePartitions = -1; // -1: missing on that side
    int targetPartitions = -1;
    QList<PartitionDiff> partitions; // union of both sides' partition ids, ascending
    QList<ConfigDiff> configs;       // only when both sides' configs were given
    bool configsCompared = false;
    QString error; // a topic error reported by either side

    Status status = Status::InSync;
    qint64 recordsBehind = 0; // sum of positive end deltas over partitions on both sides
    qint64 recordsAhead = 0;  // sum of negative end deltas, as a positive number

    bool partitionCountDiffers() const
    {
        return sourcePartitions >= 0 && targetPartitions >= 0 && sourcePartitions != targetPartitions;
    }
    bool inSync() const { return status == Status::InSync; }
    qint64 sourceCount() const; // messages summed over partitions, -1 when unknown or missing
    qint64 targetCount() const;
    // Every difference in plain words ("3 partitions on the source, 2 on the target; retention.ms: 1000 vs 2000").
    QString details() const;

    bool operator==(const TopicDiff &) const = default;
};

struct ClusterDiff {
    QList<TopicDiff> topics; // selected source topics in name order, then orphan target topics

    int count(TopicDiff::Status status) const;
    qint64 totalRecordsBehind() const;
    // "12 topics: 10 in sync, 1 missing on target, 1 behind by 300 records".
    QString summary() const;
};

QString topicDiffStatusName(TopicDiff::Status status);         // "in sync", "missing on target", ...
QString partitionDiffStatusName(PartitionDiff::Status status); // "in sync", "behind", ...

// Per-topic configs as AdminService::describeTopicConfigs returns them, keyed by topic name.
using TopicConfigMap = QHash<QString, QList<ConfigEntry>>;

// The topic configs the job would copy: set on the topic itself (dynamic), with a value,
// not sensitive, and not excluded by spec.configExclude (MM2's defaults when empty).
QHash<QString, QString> mirroredTopicConfigs(const MirrorJobSpec &spec, const QList<ConfigEntry> &entries);

// Pure: compares the job's topics on both clusters. The metadata should carry watermarks
// (else partitions are Unknown). Configs are compared for a topic only when both maps hold
// it (sourceConfigs by source name, targetConfigs by target name): a name either side sets
// on the topic, that the job copies, whose effective values differ.
// Target topics that the job's naming maps from a selected source name absent on the
// source are listed as MissingOnSource.
ClusterDiff diffClusters(const MirrorJobSpec &spec, const ClusterMetadata &source, const ClusterMetadata &target,
                         const TopicConfigMap &sourceConfigs = {}, const TopicConfigMap &targetConfigs = {});

// The selected source topics of spec in source, with their target names (for fetching configs).
QList<QPair<QString, QString>> selectedTopicPairs(const MirrorJobSpec &spec, const ClusterMetadata &source);

// The source name a target topic would come from under the job's naming, or nullopt when
// the naming cannot produce it.
std::optional<QString> sourceNameFor(const MirrorJobSpec &spec, const QString &targetTopic);

} // namespace md
