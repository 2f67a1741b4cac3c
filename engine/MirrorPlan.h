#pragma once

#include "ClusterProbe.h"
#include "MirrorJobSpec.h"

#include <QList>
#include <QString>

namespace md {

// What a job would do with one selected source topic, given what the target holds now.
struct TopicPlanEntry {
    enum class Action {
        Mirror, // the target topic exists with enough partitions
        Create, // missing on the target; the job creates it (createTopics)
        Error,  // the job would stop: too few target partitions, or missing with createTopics off
    };

    QString sourceTopic;
    int sourcePartitions = 0;
    QString targetTopic;
    int targetPartitions = -1; // -1: missing on the target
    Action action = Action::Mirror;
    QString note; // for the user: "exists, 3 partitions", "will be created with 3 partitions", the error

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
MirrorPlan planMirror(const MirrorJobSpec &spec, const QList<ProbedTopic> &sourceTopics,
                      const QList<ProbedTopic> &targetTopics);

} // namespace md
