#pragma once

// Blocking browse and administration calls for one cluster, for the cluster's
// admin thread (AdminClient runs them there) and headless commands; never the
// UI thread. Every call is bounded by the service's timeout and returns a
// value or an error in plain words naming what failed and why.

#include "engine/acl/Acl.h"
#include "engine/acl/AclCheck.h"
#include "engine/admin/ClusterMetadata.h"
#include "engine/admin/ConfigEntry.h"
#include "engine/admin/ProbeClient.h"
#include "engine/core/ClusterConfig.h"
#include "engine/core/KafkaError.h"
#include "engine/schema/SchemaDecoding.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QPair>
#include <QSet>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace md {

class RegistryDecoders;

// A value or the reason there is none.
// `error` is for display; what a caller decides on is `kafkaError`'s code and
// kind (a failure without a code of its own has RD_KAFKA_RESP_ERR_UNKNOWN, kind Other).
template <typename T> struct AdminResult {
    T value{};
    QString error;         // empty on success
    KafkaError kafkaError; // None on success; message == error

    bool ok() const { return error.isEmpty(); }
    static AdminResult failure(const QString &message)
    {
        return failure(KafkaError::withKind(KafkaErrorKind::Other, RD_KAFKA_RESP_ERR_UNKNOWN, message));
    }
    static AdminResult failure(const KafkaError &error)
    {
        AdminResult r;
        r.kafkaError = error;
        if (r.kafkaError.message.isEmpty())
            r.kafkaError.message = QStringLiteral("unknown error");
        r.error = r.kafkaError.message;
        return r;
    }
};
struct Done {
    bool operator==(const Done &) const = default;
};

// ConfigSource and ConfigEntry: ConfigEntry.h.

struct NewTopicSpec {
    QString name;
    int partitions = 1;
    int replicationFactor = 1; // -1 = the broker's default.replication.factor
    QMap<QString, QString> configs;
};

struct TopicPartitionRef {
    QString topic;
    int partition = -1;

    bool operator==(const TopicPartitionRef &) const = default;
    bool operator<(const TopicPartitionRef &o) const
    {
        return topic < o.topic || (topic == o.topic && partition < o.partition);
    }
};

struct GroupMember {
    QString memberId;
    QString clientId;
    QString host;
    QString groupInstanceId;
    QList<TopicPartitionRef> assignment; // sorted
    // A consumer-protocol (KIP-848) member: what the coordinator assigned it,
    // which differs from `assignment` while the group reconciles. Empty for
    // classic members.
    QList<TopicPartitionRef> targetAssignment; // sorted

    bool operator==(const GroupMember &) const = default;
};

// Classic groups' five states, and KIP-848 consumer groups' Assigning and
// Reconciling (Kafka 4; installer/librdkafka-patches/0002).
enum class GroupState { Unknown, PreparingRebalance, CompletingRebalance, Stable, Dead, Empty, Assigning, Reconciling };
QString groupStateName(GroupState state); // "Stable", "Empty", ...

// The group's protocol: classic (JoinGroup/SyncGroup), consumer (KIP-848,
// server-side assignment), share (KIP-932 queues) or streams (KIP-1071).
// Share groups are described and their start offsets read through
// installer/librdkafka-patches/0003; streams groups are listed only
// (librdkafka has no StreamsGroupDescribe).
enum class GroupType { Unknown, Classic, Consumer, Share, Streams };
QString groupTypeName(GroupType type); // "classic", "consumer", ...

struct ConsumerGroupInfo {
    QString groupId;
    GroupState state = GroupState::Unknown;
    GroupType type = GroupType::Unknown;
    QString protocol;    // the partition assignor ("range", "cooperative-sticky"); empty when no members
    bool simple = false; // a group that only commits offsets (no membership protocol)
    int coordinator = -1;
    QList<GroupMember> members; // sorted by member id
    QString error;              // a per-group describe error, or empty

    bool operator==(const ConsumerGroupInfo &) const = default;
};

// One partition's committed position (a share group's: the share partition's
// start offset). committed == -1 means the group has no committed offset for
// it ("none"); lag is then -1 too, never 0.
struct GroupPartitionOffset {
    QString topic;
    int partition = -1;
    qint64 committed = -1;
    qint64 endOffset = -1; // high watermark, -1 when unknown
    QString metadata;      // commit metadata string

    qint64 lag() const { return committed >= 0 && endOffset >= 0 ? qMax<qint64>(0, endOffset - committed) : -1; }
    bool operator==(const GroupPartitionOffset &) const = default;
};

struct OffsetReset {
    enum class Mode { Earliest, Latest, Timestamp, Explicit };
    Mode mode = Mode::Earliest;
    qint64 timestampMs = -1;                         // Timestamp: first record at or after it (end if none)
    QMap<TopicPartitionRef, qint64> explicitOffsets; // Explicit: the exact offsets, within [low, high]
    // Partitions to reset. Empty: every partition of every topic the group has
    // committed offsets for (Explicit: the keys of explicitOffsets).
    QList<TopicPartitionRef> partitions;
};

using RecordHeader = QPair<QString, std::optional<QByteArray>>;

// One record as read; null key/value/header values stay distinct from empty ones.
struct KafkaMessage {
    QString topic;
    int partition = -1;
    qint64 offset = -1;
    qint64 timestampMs = -1;
    bool logAppendTime = false; // the timestamp is the broker's, not the producer's
    std::optional<QByteArray> key;
    std::optional<QByteArray> value;
    QList<RecordHeader> headers; // order and duplicates kept
    // By the cluster's schema registry; Plain when it has none or the bytes
    // are not in its wire format.
    DecodedPart keyDecoded;
    DecodedPart valueDecoded;

    bool operator==(const KafkaMessage &) const = default;
};

// A consumed record as a KafkaMessage (key, value, headers and timestamp copied).
KafkaMessage kafkaMessageFrom(const rd_kafka_message_t *msg, const QString &topic);

// The consumer of the browser's reads and searches: used with assign() only
// (its group id is never joined, nothing is committed, so browsing leaves no
// trace in the cluster), end-of-partition events on, read_uncommitted, its log
// quiet. Null with *error when a client setting is refused.
KafkaPtr newBrowserConsumer(const ClusterConfig &cluster, QString *error);

struct MessageQuery {
    enum class Mode { FromOffset, FromTimestamp, LatestN };
    QString topic;
    int partition = -1; // -1: every partition of the topic
    Mode mode = Mode::LatestN;
    qint64 offset = 0;      // FromOffset (clamped into [low, high] per partition)
    qint64 timestampMs = 0; // FromTimestamp
    int maxMessages = 100;  // at most this many overall (LatestN: the newest N)
    int timeoutMs = 10000;  // overall bound of the read
};

class AdminService final {
    Q_DISABLE_COPY_MOVE(AdminService)
public:
    // Creates the client (does not connect yet). Null with *error on a bad setting.
    // `decoders`: the registry's decoders to share (with searches, say); null:
    // its own, from config.schemaRegistry.
    static std::unique_ptr<AdminService> create(const ClusterConfig &config, QString *error, int timeoutMs = 10000,
                                                std::shared_ptr<RegistryDecoders> decoders = {});
    ~AdminService();

    int timeoutMs() const { return m_timeoutMs; }
    const ClusterConfig &config() const { return m_config; }
    // The cluster's registry decoders (built on first use), null when it has no registry.
    std::shared_ptr<SchemaDecoderCache> decoderCache();
    const std::shared_ptr<RegistryDecoders> &registryDecoders() const { return m_decoders; }

    // Brokers and topics (no watermarks): also the "test connection" answer.
    AdminResult<ClusterMetadata> metadata();

    AdminResult<QList<ConfigEntry>> describeTopicConfigs(const QString &topic);
    AdminResult<Done> createTopic(const NewTopicSpec &spec);
    AdminResult<Done> deleteTopic(const QString &topic);
    AdminResult<Done> addPartitions(const QString &topic, int newTotal);
    // Sets (value) or removes (nullopt: back to the default) topic configs,
    // keeping every other dynamic config of the topic.
    AdminResult<Done> alterTopicConfigs(const QString &topic, const QMap<QString, std::optional<QString>> &changes);

    // Every group, described (state, protocol, members and assignments), sorted by id.
    AdminResult<QList<ConsumerGroupInfo>> consumerGroups();
    AdminResult<ConsumerGroupInfo> describeGroup(const QString &groupId);
    // Committed offsets with end offsets, for every partition of every topic the
    // group has committed to or is assigned; sorted by topic and partition. When
    // `description` is given, it receives the group's description taken on the way
    // (members and assignments), or is reset when that describe failed.
    AdminResult<QList<GroupPartitionOffset>> groupOffsets(const QString &groupId,
                                                          std::optional<ConsumerGroupInfo> *description = nullptr);
    // Refused unless the group is Empty (or unknown to the broker): Kafka would
    // overwrite the new offsets with the active members' next commit. Refused
    // for a share group (Kafka 4.1 does not move its start offsets yet).
    AdminResult<QList<GroupPartitionOffset>> resetGroupOffsets(const QString &groupId, const OffsetReset &reset);
    AdminResult<Done> deleteGroup(const QString &groupId);

    AdminResult<QList<AclEntry>> listAcls();
    // Creates the bindings in one request (each checked by normalizedAcl
    // first); fails naming every binding the broker refused and why (no
    // authorizer, no ALTER on the cluster). Creating an existing one is no error.
    AdminResult<Done> createAcls(const QList<AclEntry> &bindings);
    // The brokers' super.users and allow.everyone.if.no.acl.found, for checkAcl
    // to answer as the broker would (read from the controller's configs).
    AdminResult<AclRules> aclRules();
    // Deletes exactly these bindings (every field matched); the number deleted
    // (a binding that was not there counts 0).
    AdminResult<int> deleteAcls(const QList<AclEntry> &bindings);

    // Key and value decoded by the cluster's schema registry when it has one.
    AdminResult<QList<KafkaMessage>> readMessages(const MessageQuery &query);

    // Partition ids per topic from metadata (topics missing from the cluster are left out).
    bool partitionsOf(const QStringList &topics, QMap<QString, QList<int>> *out, QString *error);
    // Offsets for the given partitions at `sentinelOrTimestamp` (-2 earliest, -1 latest, or a time).
    bool offsetsAt(const QList<TopicPartitionRef> &parts, qint64 sentinelOrTimestamp,
                   QMap<TopicPartitionRef, qint64> *out, QString *error);

private:
    AdminService() = default;
    rd_kafka_t *rk() const { return m_probe->handle(); }
    QString describeFailure(const QString &what, rd_kafka_resp_err_t err, const QString &detail = {}) const
    {
        return m_probe->describeFailure(what, err, detail);
    }
    // Runs one admin request and waits for its result event (bounded). On
    // failure *error says why and *code, when given, holds the event's error.
    // `on`: the handle the call uses (default rk()).
    EventPtr runAdmin(rd_kafka_admin_op_t op, const QString &what,
                      const std::function<void(rd_kafka_AdminOptions_t *, rd_kafka_queue_t *)> &call, QString *error,
                      rd_kafka_resp_err_t *code = nullptr, rd_kafka_t *on = nullptr);
    // The client for ListConsumerGroupOffsets, made on first use (see
    // ProbeClient::createForGroupOffsets); null with *error when it cannot be.
    rd_kafka_t *groupOffsetsHandle(QString *error);
    // DescribeConsumerGroups, or (share) the patched DescribeShareGroups, of these ids.
    EventPtr describeGroups(std::vector<const char *> ids, bool share, const QString &what, QString *error);
    // A share group's start offsets (DescribeShareGroupOffsets) as rows, their topics added.
    bool shareStartOffsets(const QString &groupId, QMap<TopicPartitionRef, GroupPartitionOffset> *rows,
                           QSet<QString> *topics, QString *error);
    // A request on one topic whose answer is a per-topic result list (create,
    // delete, add partitions): success or the topic's error in plain words.
    AdminResult<Done>
    topicRequest(rd_kafka_admin_op_t op, const QString &what,
                 const std::function<void(rd_kafka_AdminOptions_t *, rd_kafka_queue_t *)> &call,
                 const std::function<const rd_kafka_topic_result_t **(rd_kafka_event_t *, size_t *)> &results);
    // DescribeConfigs of one resource (a topic, a broker id), sorted by name.
    AdminResult<QList<ConfigEntry>> describeConfigs(rd_kafka_ResourceType_t type, const QString &name,
                                                    const QString &what);

    // The controller's (else the first broker's) configs: the authorizer's settings.
    AdminResult<QList<ConfigEntry>> brokerConfigs(const QString &what);
    // After a create: until a broker lists the topic, within the timeout (see createTopic).
    void waitUntilListed(const QString &topic);

    ClusterConfig m_config;
    int m_timeoutMs = 10000;
    std::unique_ptr<ProbeClient> m_probe; // the connection and its last error
    std::unique_ptr<ProbeClient> m_groupOffsetsProbe;
    std::shared_ptr<RegistryDecoders> m_decoders;
};

} // namespace md

Q_DECLARE_METATYPE(md::ConfigEntry)
Q_DECLARE_METATYPE(md::ConsumerGroupInfo)
Q_DECLARE_METATYPE(md::GroupPartitionOffset)
Q_DECLARE_METATYPE(md::KafkaMessage)
