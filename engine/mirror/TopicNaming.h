#pragma once

#include "engine/mirror/MirrorJobSpec.h"

#include <QString>

namespace md {

// The name a source topic gets on the target under the job's naming policy:
// identity keeps it, prefix is MM2's DefaultReplicationPolicy
// ("<source alias><separator><topic>"), template substitutes ${topic} (and
// ${source} / ${target}, the cluster aliases) in spec.nameTemplate.
QString targetTopicName(const MirrorJobSpec &spec, const QString &sourceTopic);

// Kafka's Topic.validate: 1..249 characters of [a-zA-Z0-9._-], not "." or "..".
bool isValidKafkaTopicName(const QString &name);

// Kafka's own internal topics (__consumer_offsets, __transaction_state, any
// "__" or "." prefix), MM2's and Kafka Connect's internal topics (heartbeats,
// *.checkpoints.internal, mm2-offset-syncs.*.internal, mm2-configs/-status/
// -offsets.*.internal, connect-configs/-offsets/-status, any *.internal or
// *-internal, *.replica as in MM2's default topics.exclude) and Confluent
// Schema Registry's _schemas.
bool isInternalTopic(const QString &topic);
// A MirrorDesk offset map: "<name>.offset-map" (defaultOffsetMapTopic's form; a profile's own
// offsetMapTopic is warned about without the suffix). Never mirrored, excludeInternalTopics or not.
bool isOffsetMapTopic(const QString &topic);
// A job's record of the ACL bindings it created ("<name>.acl-sync", AclSync.h). Never mirrored either.
bool isAclSyncRecordsTopic(const QString &topic);
bool isCutoverRecordsTopic(const QString &topic); // "<stem>.cutover": a cutover's state

// Why a source topic is not mirrored by this job, or an empty string when it
// is: no include regex matches the whole name, an exclude regex matches, it is
// internal (with excludeInternalTopics), it came from the target (prefix
// policy: "<target alias><separator>..."), or it would loop (source and target
// are the same cluster and the topic is this job's own output or maps onto
// itself). `check` shows these reasons to the user.
QString topicExclusionReason(const MirrorJobSpec &spec, const QString &sourceTopic);

// True when the job mirrors sourceTopic (topicExclusionReason is empty).
bool topicSelected(const MirrorJobSpec &spec, const QString &sourceTopic);

// A librdkafka regex subscription ("^..." marks a regex for rd_kafka_subscribe)
// matching every topic any include regex can match. librdkafka evaluates it
// with POSIX extended regex (or its bundled engine), not PCRE, so it is only a
// coarse pre-filter: when an include uses syntax outside the common subset it
// falls back to "^.*". topicSelected is the authority.
QString subscriptionRegex(const MirrorJobSpec &spec);

// The source consumer group: spec.groupId, or "mirrordesk.<job name>" with
// characters outside [A-Za-z0-9._-] replaced by '-'.
QString consumerGroupId(const MirrorJobSpec &spec);

// True when both sides name the same bootstrap servers (order and case ignored).
bool sameCluster(const MirrorJobSpec &spec);
// True when two cluster configs name the same bootstrap servers (as above; empty: never).
bool sameCluster(const ClusterConfig &a, const ClusterConfig &b);

// `<alias><sep>checkpoints<sep>internal`, as DefaultReplicationPolicy (and
// IdentityReplicationPolicy, which inherits it) names it; sep is
// replication.policy.separator, which export-mm2 sets to the prefix naming's
// separator, "." otherwise.
QString mm2CheckpointsTopic(const QString &alias, const QString &separator = QStringLiteral("."));
// The separator of a job's checkpoints topic: the prefix naming's, "." under the other policies.
QString checkpointsSeparator(NamingPolicy naming, const QString &prefixSeparator);
// The job's: spec.checkpointsAlias (never empty in a spec that emits them).
QString mm2CheckpointsTopicOf(const MirrorJobSpec &spec);

} // namespace md
