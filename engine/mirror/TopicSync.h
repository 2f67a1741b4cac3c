#pragma once

#include "engine/core/KafkaHandles.h"
#include "engine/mirror/MirrorJobSpec.h"
#include "engine/mirror/TargetTopicRule.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace md {

// One topic as the engine's metadata read sees it. Not ClusterMetadata.h's
// TopicInfo (the browser's, with partition details): two classes of one name
// are an ODR violation whose inline members the linker mixes up.
struct TopicShape {
    QString name;
    int partitions = 0;
    int replicationFactor = 0;
};

// A whole-cluster metadata read (never a per-topic request, which would make
// a broker with auto.create.topics.enable create the topic).
struct ClusterTopics {
    bool ok = false;
    QString error;
    int brokerCount = 0;
    QMap<QString, TopicShape> topics;
};
ClusterTopics readClusterTopics(rd_kafka_t *rk, int timeoutMs);

// The configs of a source topic that copiedTopicConfigs (TargetTopicRule) lets
// through excludeRegexes.
struct TopicConfigs {
    bool ok = false;
    QString error;
    QMap<QString, QString> configs;
};
TopicConfigs describeTopicOverrides(rd_kafka_t *rk, const QString &topic, const QStringList &excludeRegexes,
                                    int timeoutMs);

// The outcome of making the target topic fit the source topic.
struct TopicSyncResult {
    bool ready = false; // the target topic exists with at least the source's partition count
    int targetPartitions = -1;
    QString error;     // why not ready (operator-readable)
    QStringList infos; // what was done ("created ...", "grew ...")
    QStringList warnings;
};

// Creates the target topic when missing (spec.createTopics) as
// createdTopicSettings (TargetTopicRule) says, which the plan shows too; grows its partitions
// when the source has more. `target` is the cluster's current metadata.
// Blocking admin calls on the given handles: engine thread only.
TopicSyncResult syncTargetTopic(rd_kafka_t *sourceRk, rd_kafka_t *targetRk, const MirrorJobSpec &spec,
                                const TopicShape &source, const QString &targetName, const ClusterTopics &target,
                                int timeoutMs);

// The same for many topics at once, one result per request in order: the
// missing ones are created together (one DescribeConfigs of their sources,
// CreateTopics of up to 100 topics per request, one metadata wait).
struct TopicSyncRequest {
    TopicShape source;
    QString targetName;
};
QList<TopicSyncResult> syncTargetTopics(rd_kafka_t *sourceRk, rd_kafka_t *targetRk, const MirrorJobSpec &spec,
                                        const QList<TopicSyncRequest> &topics, const ClusterTopics &target,
                                        int timeoutMs);

} // namespace md
