#pragma once

#include "engine/core/ClusterConfig.h"
#include "engine/core/KafkaHandles.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace md {

// One record's place: what lag in time asks about.
struct RecordAt {
    QString topic;
    int partition = -1;
    qint64 offset = -1;
    bool operator==(const RecordAt &) const = default;
};
inline size_t qHash(const RecordAt &r, size_t seed = 0)
{
    return qHashMulti(seed, r.topic, r.partition, r.offset);
}

struct RecordTime {
    qint64 timestampMs = -1; // of the record at (or, past a marker or a compacted gap, after) the offset
    qint64 offset = -1;      // the record's own offset
    bool logAppendTime = false;
    bool atEnd = false; // no record there (yet): nothing to wait for
};

// What lag in time needs of a topic's configs.
struct TopicTimeConfig {
    qint64 retentionMs = -1; // -1: forever
    QString timestampType;   // message.timestamp.type
    bool deletes = true;     // cleanup.policy includes delete
    bool known = false;
};

// Reads the timestamp of single records by offset, for lag in time: one
// fetch per asked record, never a scan, and each (topic, partition, offset)
// read once (cached; a partition's older entries leave when a newer offset of
// it is read). The records that fetch brought after the asked one are
// answered too (their own offsets as keys), so a position moving on is
// usually answered from the cache. Blocking: lives on a worker thread (the group sampler's, the
// mirror job's LagTimeReader), never the UI thread. Its consumer is made on
// first use and kept, so a read costs one fetch round trip.
class RecordTimestampReader final {
public:
    explicit RecordTimestampReader(ClusterConfig cluster) : m_cluster(std::move(cluster)) {}
    Q_DISABLE_COPY_MOVE(RecordTimestampReader)

    // Answers for the records read within timeoutMs (a record not answered
    // is left out: ask again); error says why when none could be read.
    QHash<RecordAt, RecordTime> read(const QList<RecordAt> &records, int timeoutMs, QString *error = nullptr);
    // retention.ms, message.timestamp.type and cleanup.policy of the topics (DescribeConfigs).
    QHash<QString, TopicTimeConfig> topicConfigs(const QStringList &topics, int timeoutMs);

private:
    bool ensureConsumer(QString *error);

    ClusterConfig m_cluster;
    KafkaPtr m_rk;
    QHash<RecordAt, RecordTime> m_cache;
};

} // namespace md
