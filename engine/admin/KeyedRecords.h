#pragma once

#include "engine/core/ClusterConfig.h"
#include "engine/core/KafkaHandles.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace md {

class AdminService;

// A compacted one-partition topic of keyed JSON records that a job keeps on a
// cluster as its durable memory (the ACL sync's bindings, a cutover's state):
// every instance and every restart reads the same records. The last record of
// a key decides (compaction may not have run); an empty value is a tombstone.
class KeyedRecords final {
public:
    struct Record {
        QByteArray key;
        std::optional<QByteArray> value; // nullopt: a tombstone (the key is gone)
    };

    KeyedRecords(ClusterConfig cluster, QString topic);
    ~KeyedRecords();
    KeyedRecords(const KeyedRecords &) = delete;
    KeyedRecords &operator=(const KeyedRecords &) = delete;

    const QString &topic() const { return m_topic; }
    // The live records (tombstoned keys left out), in the order their keys first
    // appeared; an absent topic holds none. False with *error.
    bool load(AdminService &admin, QList<Record> *records, QString *error);
    // Writes the records in order, creating the topic when it is missing, and
    // waits for the acknowledgements. False with *error naming the topic.
    bool write(AdminService &admin, const QList<Record> &records, QString *error);

private:
    bool ensureTopic(AdminService &admin, QString *error);
    bool ensureProducer(QString *error);

    ClusterConfig m_cluster;
    QString m_topic;
    bool m_topicReady = false;
    KafkaPtr m_producer;
};

} // namespace md
