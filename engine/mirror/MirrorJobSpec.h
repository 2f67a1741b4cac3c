#pragma once

#include "engine/core/ClusterConfig.h"

#include <QDateTime>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <cstdint>

namespace md {

enum class NamingPolicy { Identity, Prefix, Template };

enum class StartPosition { Committed, Earliest, Latest, Timestamp };

// At-least-once: a crash may copy a record twice. Exactly-once: records,
// progress and offset-map entries commit in one target transaction, so a
// read_committed consumer of the target sees each source record once
// (docs/ARCHITECTURE.md, "Exactly-once").
enum class DeliveryGuarantee { AtLeastOnce, ExactlyOnce };

// When a one-off copy ends; RunForever is a continuous mirror.
enum class StopCondition { RunForever, CaughtUp, AtTimestamp, AfterRecords };

// Everything the engine needs to run one mirror job, with secrets resolved.
// model/ turns a *.mirrorjob profile into this; the engine never reads files.
struct MirrorJobSpec {
    // The defaults a profile leaves out, written once: JobProfile takes them
    // from here and docs/PROFILE.md's table is tested against JobProfile.
    static constexpr int DefaultTransactionIntervalMs = 100;
    static constexpr int DefaultTransactionMaxRecords = 300000;
    static constexpr int DefaultSamplingIntervalMs = 250;
    static constexpr int DefaultTopicRefreshIntervalMs = 10000;
    static constexpr int DefaultGroupSyncIntervalMs = 10000;
    static constexpr int DefaultAclSyncIntervalMs = 60000;
    static constexpr int DefaultMapPruneIntervalMs = 600000;
    static constexpr int DefaultSchemaSyncIntervalMs = 60000;

    QString name;
    ClusterConfig source;
    ClusterConfig target;
    QStringList include; // regular expressions, matched against whole topic names
    QStringList exclude;
    bool excludeInternalTopics = true; // __consumer_offsets, MM2's heartbeats/checkpoints/offset-syncs, ...
    NamingPolicy naming = NamingPolicy::Prefix;
    QString separator = QStringLiteral(".");
    QString nameTemplate = QStringLiteral("${topic}"); // NamingPolicy::Template
    QString groupId;                                   // empty: derived from the name
    // Where the exact source->target offset map is written on the target
    // (docs/ARCHITECTURE.md, "The offset map"). Empty: defaultOffsetMapTopic(group).
    QString offsetMapTopic;
    // How often the running job deletes the map records that lie below the
    // source's log start (OffsetMapPruneRunner; 0: never). Not in the profile:
    // tests shorten it.
    int mapPruneIntervalMs = DefaultMapPruneIntervalMs;
    // false: no map is kept (no topic created, nothing written, commits never
    // wait for it); group sync, checkpoints, failover and exactly-once need it.
    bool offsetMap = true;
    // Static membership (group.instance.id): a restarted instance gets its
    // partitions back without a rebalance. Empty: a dynamic member.
    QString instanceId;
    StartPosition start = StartPosition::Committed;
    QDateTime startTimestamp;
    StopCondition stop = StopCondition::RunForever;
    QDateTime stopTimestamp;
    qint64 stopAfterRecords = 0; // per partition
    DeliveryGuarantee delivery = DeliveryGuarantee::AtLeastOnce;
    // Exactly-once: a transaction commits after this long or this many
    // records, whichever comes first (latency for read_committed readers
    // against the cost of a commit).
    int transactionIntervalMs = DefaultTransactionIntervalMs;
    int transactionMaxRecords = DefaultTransactionMaxRecords;
    bool createTopics = true;
    bool syncTopicConfigs = true;
    QStringList configExclude;         // topic configs never copied (regexes); empty: MM2's defaults
    qint64 throttleBytesPerSecond = 0; // 0: unlimited
    int samplingIntervalMs = DefaultSamplingIntervalMs;
    int topicRefreshIntervalMs = DefaultTopicRefreshIntervalMs;
    int configSyncIntervalMs = 60000; // target topic configs follow the source within this
    // Source consumer groups whose committed offsets follow to the target,
    // translated through the offset map (engine/groupsync/GroupOffsetSync.h): regexes
    // matched against whole group names. Empty include: no group. The job's own
    // group and the mirrordesk-* groups of jobs are never selected.
    QStringList groupsInclude;
    QStringList groupsExclude;
    bool syncGroupOffsets = true;                         // while the job runs (only with groupsInclude)
    int groupSyncIntervalMs = DefaultGroupSyncIntervalMs; // how often the running job syncs them
    // MM2-format checkpoints of those groups (engine/offsetmap/Mm2Checkpoints.h), written
    // every group sync round to <checkpointsAlias>.checkpoints.internal on the
    // target, for applications that call MM2's RemoteClusterUtils.translateOffsets.
    bool emitCheckpoints = false;
    QString checkpointsAlias; // the alias those applications pass; the profile's default: source.alias
    // ACL bindings of the mirrored topics and selected groups follow to the
    // target while the job runs (engine/acl/AclSync.h). Safe: as MirrorMaker 2
    // does, no ALLOW WRITE on mirrored topics (only the mirror writes them) and
    // ALLOW ALL becomes READ; Exact: as they are (a migration's cutover).
    // Active/active without loops under identity naming: copies carry this
    // header (the first source cluster's id; a copy of a copy keeps it), and a
    // record whose header names the target cluster is not copied back. Empty: off.
    QString originHeader;
    bool syncAcls = false;
    int aclSyncIntervalMs = DefaultAclSyncIntervalMs;
    enum class AclSyncMode { Safe, Exact };
    AclSyncMode aclSyncMode = AclSyncMode::Safe;
    // The registry subjects of the mirrored topics (<topic>-key and -value,
    // TopicNameStrategy, renamed with the topics) and what they reference
    // follow to the target's registry (engine/schemasync/), before the first
    // record that uses them. Translate: the target registry numbers them and
    // the engine rewrites the id in each record's wire-format header;
    // Preserve: the same ids (the target registry in IMPORT mode).
    bool syncSchemas = false;
    enum class SchemaIds { Translate, Preserve };
    SchemaIds schemaIds = SchemaIds::Translate;
    QStringList
        schemaSubjectsInclude; // regexes on whole source subject names; empty: every subject of a mirrored topic
    QStringList schemaSubjectsExclude;
    int schemaSyncIntervalMs = DefaultSchemaSyncIntervalMs;

    bool operator==(const MirrorJobSpec &) const = default;
};

} // namespace md

Q_DECLARE_METATYPE(md::MirrorJobSpec)
