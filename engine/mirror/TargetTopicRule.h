#pragma once

// The one rule for what a target topic the job creates looks like: the
// engine's topic sync creates topics by it and the plan (MirrorPlan) predicts
// with it, so what the editor and `check` show is what the job does.
// Pure: no Kafka calls.

#include "engine/admin/ConfigEntry.h"
#include "engine/mirror/MirrorJobSpec.h"

#include <QMap>
#include <QString>
#include <QStringList>

namespace md {

// The MM2 DefaultConfigPropertyFilter defaults (regexes, whole-name match):
// configs that must not follow a topic to the target.
QStringList defaultConfigExcludes();

// spec.configExclude, or the defaults when it is empty.
QStringList configExcludes(const MirrorJobSpec &spec);

// The configs that follow a topic to the target: those set on the source topic
// itself (DYNAMIC_TOPIC_CONFIG; broker and static defaults belong to the source
// cluster), with a value, neither sensitive nor read-only, and not matching any
// of excludeRegexes.
QMap<QString, QString> copiedTopicConfigs(const QStringList &excludeRegexes, const QList<ConfigEntry> &sourceConfigs);

// Whether creating a target topic reads its source topic's configs.
bool createdTopicsCopyConfigs(const MirrorJobSpec &spec);

// What a created target topic gets.
struct CreatedTopicSettings {
    int partitions = 0;
    int replicationFactor = 0;
    QMap<QString, QString> configs; // set on the new topic; everything else is the target's default

    bool operator==(const CreatedTopicSettings &) const = default;
};

// The source's partition count; replication factor min(source RF, target
// brokers) and at least 1 (an unknown RF or broker count counts as 1); with
// spec.syncTopicConfigs the copied configs minus configExcludes(spec),
// otherwise none.
CreatedTopicSettings createdTopicSettings(const MirrorJobSpec &spec, int sourcePartitions, int sourceReplicationFactor,
                                          int targetBrokerCount, const QList<ConfigEntry> &sourceConfigs);

// "cleanup.policy=compact, retention.ms=3600000" (sorted by name); empty for none.
QString configsText(const QMap<QString, QString> &configs);

} // namespace md
