#pragma once

#include "engine/core/ClusterConfig.h"
#include "engine/offsetmap/OffsetMap.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

#include <memory>

namespace md {

class AdminService;
class KeyedRecords;

// The keys of a map topic as compaction leaves them (the last value of each),
// and which of them a job may delete: a record whose whole range lies below
// its source partition's log start. Retention or DeleteRecords took those
// records, so no group can be there any more, and a group still below the log
// start translates to the first copy (BeforeMap), as it reads from the log
// start on the source. The record with a partition's furthest `covered` stays
// whatever its range: it says how far the job has copied.
class OffsetMapKeys final {
public:
    using Partition = QPair<QString, int>;

    void clear() { m_keys.clear(); }
    // One record of the map topic, in order (value null: a tombstone). False
    // when it is not a map record. A partition's reset record (its topic was
    // deleted and created again) takes the keys noted before it out of
    // consideration: readers skip them, and a tombstone could meet the new
    // log's copy writing the same key (a segment starting at the same offset)
    // and delete that instead. They stay until the new log writes them again.
    bool note(const QByteArray &key, const QByteArray *value);
    void forget(const QList<QByteArray> &keys);
    int size() const { return int(m_keys.size()); }
    QList<Partition> partitions() const;
    // The keys to delete given each partition's log start (a partition
    // without one keeps everything), at most `limit`, oldest ranges first.
    QList<QByteArray> belowLogStart(const QHash<Partition, qint64> &logStarts, int limit) const;

private:
    struct Entry {
        Partition partition;
        qint64 sourceEnd = -1;
        qint64 covered = -1;
    };
    QHash<QByteArray, Entry> m_keys;
};

// One job's pruning of its offset map (issue "Reliability v3": the map
// bounded by live discontinuities, not by time). pass() is blocking (the
// runner's own thread): reads what is new in the map topic (a cursor, a whole
// read now and then), asks the source for the log starts of the partitions it
// names, and writes a tombstone under each key below them.
class OffsetMapPruner final {
public:
    struct Result {
        int keys = 0;   // map keys after the pass
        int pruned = 0; // tombstones written by it
    };
    // Tombstones written in one pass at most (a producer's queue holds 100,000).
    static constexpr int kMaxPerPass = 20000;

    OffsetMapPruner(ClusterConfig source, ClusterConfig target, QString mapTopic);
    ~OffsetMapPruner();
    OffsetMapPruner(const OffsetMapPruner &) = delete;
    OffsetMapPruner &operator=(const OffsetMapPruner &) = delete;

    // False with *error naming the cluster and what failed; the next pass
    // starts again from the map read.
    bool pass(int timeoutMs, Result *result, QString *error);
    // Clients close on the thread that used them.
    void close();

private:
    ClusterConfig m_source, m_target;
    QString m_mapTopic;
    OffsetMapCursor m_cursor;
    OffsetMapKeys m_keys;
    std::unique_ptr<AdminService> m_sourceAdmin, m_targetAdmin;
    std::unique_ptr<KeyedRecords> m_writer;
};

} // namespace md
