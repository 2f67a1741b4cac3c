#pragma once

// Direct librdkafka helpers for tests: make topics, write records with exact
// keys, values, headers, timestamps and partitions, and read a whole topic
// back. They talk to the brokers without going through MirrorDesk's own code,
// so a test can check the engine against an independent reader and writer.
// Every call is bounded by a timeout and reports failures through *error
// (never throws, never hangs).

#include "engine/core/KafkaHandles.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>

#include <memory>
#include <optional>

namespace md::test {

// One Kafka record. std::nullopt is a null key/value/header value, distinct
// from an empty QByteArray (Kafka keeps the difference, and so must mirroring).
struct TestRecord {
    std::optional<QByteArray> key;
    std::optional<QByteArray> value;
    QList<QPair<QString, std::optional<QByteArray>>> headers; // order and duplicates kept
    qint64 timestamp = -1; // ms since the epoch; produce: -1 (and 0, a librdkafka limit) = now
    int partition = -1;    // produce: -1 = the default partitioner; consume: the partition read
    qint64 offset = -1;    // consume only

    // Compares key, value, headers, timestamp and partition (not offset).
    bool operator==(const TestRecord &other) const;
    bool operator!=(const TestRecord &other) const { return !(*this == other); }
};

// Readable one-line form for failure messages (bytes escaped, nulls as <null>).
QString describe(const TestRecord &record);

// Compares what a test wrote with what it read back, record by record in
// order. A field of `expected` left at its "any" value (timestamp -1,
// partition -1) is not compared. Offsets are never compared. On mismatch
// returns false and *difference names the first differing record and field.
bool sameRecords(const QList<TestRecord> &expected, const QList<TestRecord> &actual, QString *difference = nullptr);

// Extra librdkafka properties for every helper (e.g. clientProperties("sasl")
// from KafkaTestEnv.h for the SASL broker).
using ClientProperties = QMap<QString, QString>;

// Creates `topic` with `partitions` partitions, replication factor 1 and the
// given topic configs, and waits until its metadata shows every partition
// with a leader. An existing topic is an error.
bool createTopic(const QString &bootstrap, const QString &topic, int partitions = 1,
                 const QMap<QString, QString> &configs = {}, QString *error = nullptr,
                 const ClientProperties &client = {}, int timeoutMs = 30000);

// The same for many topics in one CreateTopics request, each waited for.
struct TopicToCreate {
    QString name;
    int partitions = 1;
    QMap<QString, QString> configs;
};
bool createTopics(const QString &bootstrap, const QList<TopicToCreate> &topics, QString *error = nullptr,
                  const ClientProperties &client = {}, int timeoutMs = 60000);

// A producer handle for `bootstrap` with nothing else set (and its log
// quiet), for an engine part that takes its caller's client.
KafkaPtr bareClient(const QString &bootstrap);

// Deletes `topic` and waits until the metadata no longer lists it.
// A topic that does not exist is not an error.
bool deleteTopic(const QString &bootstrap, const QString &topic, QString *error = nullptr,
                 const ClientProperties &client = {}, int timeoutMs = 30000);

// Fetches cluster metadata once: true when the broker answered. Otherwise
// false, *error with librdkafka's reason and *errorCode the first client error
// reported (e.g. RD_KAFKA_RESP_ERR__AUTHENTICATION for a wrong SASL password;
// an int so this header needs no librdkafka include).
bool probe(const QString &bootstrap, QString *error = nullptr, const ClientProperties &client = {},
           int timeoutMs = 10000, int *errorCode = nullptr);

// Number of partitions of `topic`, or -1 (and *error) when unknown.
int partitionCount(const QString &bootstrap, const QString &topic, QString *error = nullptr,
                   const ClientProperties &client = {}, int timeoutMs = 15000);

struct ProduceOptions {
    QString compression = QStringLiteral("none"); // none, gzip, snappy, lz4, zstd
    ClientProperties client;                      // extra producer properties
    int timeoutMs = 30000;                        // for the whole call
};

// Produces `records` in order (idempotent producer, acks=all) and waits for
// every delivery report; fails if any record is not delivered.
bool produce(const QString &bootstrap, const QString &topic, const QList<TestRecord> &records, QString *error = nullptr,
             const ProduceOptions &options = {});

// The same for many topics through one producer.
bool produce(const QString &bootstrap, const QMap<QString, QList<TestRecord>> &byTopic, QString *error = nullptr,
             const ProduceOptions &options = {});

// Produces `records` in one transaction (init, begin, produce, flush, then
// commit or abort). A read_committed consumer sees committed records only;
// either way the log holds the records plus a control record (so offsets have
// gaps). `transactionalId` empty = a unique one.
bool produceTransactional(const QString &bootstrap, const QString &topic, const QList<TestRecord> &records, bool commit,
                          QString *error = nullptr, const ProduceOptions &options = {},
                          const QString &transactionalId = {});
inline bool produceTransactionalCommitted(const QString &bootstrap, const QString &topic,
                                          const QList<TestRecord> &records, QString *error = nullptr,
                                          const ProduceOptions &options = {})
{
    return produceTransactional(bootstrap, topic, records, true, error, options);
}
inline bool produceTransactionalAborted(const QString &bootstrap, const QString &topic,
                                        const QList<TestRecord> &records, QString *error = nullptr,
                                        const ProduceOptions &options = {})
{
    return produceTransactional(bootstrap, topic, records, false, error, options);
}

struct ConsumeOptions {
    bool readCommitted = false; // isolation.level=read_committed (stops at the LSO)
    ClientProperties client;    // extra consumer properties
    int timeoutMs = 30000;      // for the whole call
};

// Reads every partition of `topic` from its low watermark to the high
// watermark (or the last stable offset with readCommitted) taken at the start
// of the call, without a consumer group (assign, no commits). Records come out
// ordered by partition, then offset; offset and partition are filled in.
// Returns std::nullopt (and *error) when the topic is unknown or the end is not
// reached in time.
std::optional<QList<TestRecord>> consumeAll(const QString &bootstrap, const QString &topic, QString *error = nullptr,
                                            const ConsumeOptions &options = {});

// Low and high watermark per partition (partition -> {low, high}); std::nullopt
// and *error when the topic is unknown or a broker does not answer in time.
using Watermarks = QMap<int, QPair<qint64, qint64>>;
std::optional<Watermarks> watermarks(const QString &bootstrap, const QString &topic, QString *error = nullptr,
                                     const ClientProperties &client = {}, int timeoutMs = 15000);

// Sum over partitions of (high - low): the records plus control records stored.
qint64 totalMessages(const Watermarks &marks);

// DeleteRecords: moves the log start of each given partition (partition ->
// offset; every record before it is deleted) and waits for the brokers'
// answer. What retention does to a log, on demand.
bool deleteRecords(const QString &bootstrap, const QString &topic, const QMap<int, qint64> &beforeOffsets,
                   QString *error = nullptr, const ClientProperties &client = {}, int timeoutMs = 30000);

// A real consumer group member, for tests that need a group with a member and
// committed offsets: it subscribes to one topic (enable.auto.commit=false,
// auto.offset.reset=earliest) and commits only what a test tells it to, with
// synchronous commits. Closing (or destroying) it leaves the group, which
// then turns Empty.
class GroupMember final {
public:
    GroupMember();
    ~GroupMember(); // close()
    GroupMember(const GroupMember &) = delete;
    GroupMember &operator=(const GroupMember &) = delete;

    // Joins `groupId` on `bootstrap` subscribed to `topic` and waits (up to
    // timeoutMs) until partitions are assigned. `clientId` empty: librdkafka's
    // default.
    bool start(const QString &bootstrap, const QString &groupId, const QString &topic, QString *error = nullptr,
               const QString &clientId = {}, const ClientProperties &client = {}, int timeoutMs = 40000);

    // Commits exactly `offsets` (partition -> next offset) of the topic.
    bool commit(const QMap<int, qint64> &offsets, QString *error = nullptr);

    // Polls until this member has consumed at least up to `offsets`
    // (partition -> next offset; records it polled while starting count),
    // then commits exactly `offsets`, not what it read past them.
    bool consumeAndCommit(const QMap<int, qint64> &offsets, QString *error = nullptr, int timeoutMs = 40000);

    // Leaves the group (consumer close); idempotent.
    void close();

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace md::test
