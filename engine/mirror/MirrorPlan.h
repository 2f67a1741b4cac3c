#pragma once

#include "engine/admin/ClusterProbe.h"
#include "engine/admin/ConfigEntry.h"
#include "engine/mirror/MirrorJobSpec.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace md {

// What a job would do with one selected source topic, given what the target holds now.
struct TopicPlanEntry {
    enum class Action {
        Mirror, // the target topic exists (with too few partitions: the job adds them)
        Create, // missing on the target; the job creates it (createTopics)
        Error,  // the job would stop: missing with createTopics off, or the target topic unusable
    };

    QString sourceTopic;
    int sourcePartitions = 0;
    QString targetTopic;
    int targetPartitions = -1; // -1: missing on the target
    Action action = Action::Mirror;
    QString note; // for the user: "exists, 3 partitions", "will be created with 3 partitions", the error

    // Create only, by the rule the engine creates topics with (TargetTopicRule):
    int replicationFactor = 0;      // 0 when the target's broker count was not given
    QMap<QString, QString> configs; // set on the new topic (only what differs from the target's defaults)
    // Why configs is empty or may not be the whole story: "syncTopicConfigs is off",
    // "the source topic's configs could not be read: ...", "not read"; empty otherwise.
    QString configsNote;

    bool operator==(const TopicPlanEntry &) const = default;
};

// A source topic an include pattern matches that the job still leaves out, and why
// (excluded, internal, came from the target, would loop).
struct ExcludedTopic {
    QString topic;
    QString reason;

    bool operator==(const ExcludedTopic &) const = default;
};

struct MirrorPlan {
    QList<TopicPlanEntry> topics; // in source topic order
    QList<ExcludedTopic> excluded;

    bool hasErrors() const;
};

// Pure: decides from two topic listings (ClusterProbeResult::topics) what the job would do.
// A created topic's replication factor needs targetBrokerCount (> 0), its configs
// sourceConfigs (DescribeConfigs of the source topics, see topicsNeedingConfigs);
// without them the entry says what it could not tell.
MirrorPlan planMirror(const MirrorJobSpec &spec, const QList<ProbedTopic> &sourceTopics,
                      const QList<ProbedTopic> &targetTopics, int targetBrokerCount = 0,
                      const TopicConfigsByName *sourceConfigs = nullptr);

// The source topics whose configs a plan's created topics take (none when
// created topics copy no configs).
QStringList topicsNeedingConfigs(const MirrorJobSpec &spec, const MirrorPlan &plan);

struct ProbedPlan {
    ClusterProbeResult source;
    ClusterProbeResult target;
    MirrorPlan plan; // empty unless both clusters were reached
};

// Blocking (worker threads, headless commands; never the UI thread): probes both
// clusters at once, reads the configs of the source topics the job would create
// (batched DescribeConfigs), and plans with all of it.
ProbedPlan probeAndPlan(const MirrorJobSpec &spec, int timeoutMs);

} // namespace md
