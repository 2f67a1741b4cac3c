#pragma once

#include "engine/core/ClusterConfig.h"
#include "engine/core/KafkaHandles.h"

#include <QByteArray>
#include <QDeadlineTimer>
#include <QHash>
#include <QList>
#include <QString>

#include <functional>
#include <map>
#include <vector>

namespace md {

// A jump of the target inside a segment: from source offset `source` on, each
// copy sits `shift` offsets further than consecutive copies would (the jumps
// so far, summed). An exactly-once job's every commit puts a marker into each
// target partition it wrote; as steps, a busy partition's ten transactions a
// second extend one map record instead of beginning ten.
struct OffsetStep {
    qint64 source = -1;
    qint64 shift = 0;
    bool operator==(const OffsetStep &) const = default;
};

// The exact source -> target offset map of a mirror job (docs/ARCHITECTURE.md,
// "The offset map"). Per source partition, segments of consecutive copied
// source offsets whose `target - source` is constant but for the segment's
// steps (the target skipping offsets: transaction markers, another writer);
// a new segment starts where the source skips (compaction gaps, its own
// markers and aborted records), where the target goes back (a re-copy after a
// crash), and after kMaxOffsetSteps steps. Where segments overlap (a re-copy),
// the later one wins: a group that moves to the target continues after the
// newest copy.
//
// `covered` is the job's committed progress when the segment was written:
// every source offset below it is either in a segment or has no record (a
// gap), so it translates exactly; at or past it the map says "not copied yet".
struct OffsetSegment {
    qint64 sourceStart = -1;       // first copied source offset
    qint64 sourceEnd = -1;         // one past the last copied source offset
    qint64 targetStart = -1;       // target offset of sourceStart
    qint64 covered = -1;           // >= sourceEnd: offsets in [sourceEnd, covered) are gaps
    QString targetTopic;           // where the records went
    std::vector<OffsetStep> steps; // ascending, each inside (sourceStart, sourceEnd)

    qint64 shiftAt(qint64 source) const;
    // The copy of `source`, which must lie in [sourceStart, sourceEnd).
    qint64 targetOf(qint64 source) const { return targetStart + (source - sourceStart) + shiftAt(source); }
    qint64 targetEnd() const { return sourceEnd > sourceStart ? targetOf(sourceEnd - 1) + 1 : targetStart; }
    // The source offset copied to `target`, -1 when no copy of this segment is there.
    qint64 sourceOf(qint64 target) const;
    // The parts before and from `cut` (sourceStart < cut < sourceEnd), their steps with them.
    OffsetSegment before(qint64 cut) const;
    OffsetSegment from(qint64 cut) const;
    bool operator==(const OffsetSegment &) const = default;
};

// Steps in one map record at most: its value stays a few hundred bytes while
// it is written again at every commit.
inline constexpr int kMaxOffsetSteps = 64;

struct OffsetTranslation {
    enum class Kind {
        Exact,     // the offset was copied: targetOffset is its copy
        Gap,       // no record at this source offset: targetOffset is the next copied record's
        End,       // at the map's covered end: targetOffset is the target's next offset
        NotCopied, // past what the job has copied: targetOffset is where copying stands (covered's target)
        BeforeMap, // below the first offset the job copied: targetOffset is the first copy's
        Unknown,   // the map knows nothing of this partition: targetOffset -1
    };
    Kind kind = Kind::Unknown;
    qint64 targetOffset = -1;
    QString targetTopic;
    qint64 notCopied = 0; // NotCopied: source offsets between covered and the asked offset
    bool exact() const { return kind == Kind::Exact || kind == Kind::Gap || kind == Kind::End; }
};

// One partition's map. Segments are added in the order they were written (the
// map topic's order); later ones override the parts of earlier ones they overlap.
class PartitionOffsetMap final {
public:
    void apply(const OffsetSegment &segment);
    OffsetTranslation translate(qint64 sourceOffset) const;
    // Source offset whose copy is at `targetOffset` (failback, "show on the other cluster"), -1: none.
    qint64 sourceFor(qint64 targetOffset) const;
    qint64 covered() const { return m_covered; }
    int segmentCount() const { return int(m_segments.size()); }
    QList<OffsetSegment> segments() const; // ascending source offsets, overlaps resolved

private:
    std::map<qint64, OffsetSegment> m_segments; // by sourceStart, non-overlapping
    qint64 m_covered = -1;
    QString m_targetTopic;
};

class OffsetMap final {
public:
    void apply(const QString &sourceTopic, int partition, const OffsetSegment &segment);
    // A reset record: the partition's source log was replaced (its topic
    // deleted and created again); what came before it is of the old log.
    void forget(const QString &sourceTopic, int partition) { m_parts.remove({sourceTopic, partition}); }
    OffsetTranslation translate(const QString &sourceTopic, int partition, qint64 sourceOffset) const;
    const PartitionOffsetMap *partition(const QString &sourceTopic, int partition) const;
    QList<QPair<QString, int>> partitions() const;
    int segmentCount() const;
    bool isEmpty() const { return m_parts.isEmpty(); }

private:
    QHash<QPair<QString, int>, PartitionOffsetMap> m_parts;
};

// The map topic's records: key "topic/partition/sourceStart" (topic names
// cannot contain '/'), value a versioned text line. Returns false on a record
// that is not one (it is skipped with a warning by readers).
QByteArray offsetMapKey(const QString &sourceTopic, int partition, qint64 sourceStart);
QByteArray offsetMapValue(const OffsetSegment &segment);
bool parseOffsetMapRecord(const QByteArray &key, const QByteArray &value, QString *sourceTopic, int *partition,
                          OffsetSegment *segment);
// A partition's reset record (MapSegments::resetFirst): key
// "topic/partition/reset", value "reset". Readers of earlier versions skip it.
QByteArray offsetMapResetKey(const QString &sourceTopic, int partition);
QByteArray offsetMapResetValue();
bool parseOffsetMapReset(const QByteArray &key, const QByteArray &value, QString *sourceTopic, int *partition);

// The job's map topic when the profile names none: derived from the job's group.
QString defaultOffsetMapTopic(const QString &groupId);

// Why a job with "offsetMap": false cannot translate: said instead of a read
// error of a map topic that was never created.
QString noOffsetMapReason();

// Where a reader of a map topic stopped, so that the next read takes only
// what was written since: group sync keeps one (with its map) across passes,
// and a map that grows with every transaction is then not read again whole
// every interval. A different topic, a topic recreated or shortened, or a
// position gone from the log reads the whole topic again.
struct OffsetMapCursor {
    QString topic;
    std::vector<qint64> next; // per map partition: the first offset not read yet
    QDeadlineTimer wholeBy;   // the next whole read, at the latest (default: expired)
    // What the last successful read did (tests, logs).
    bool lastReadWhole = false;
    qint64 lastRecords = 0;
    // The reading consumer, kept for the next read (opening one each pass cost
    // more than a quiet pass's reads). Dropped after a failed read.
    KafkaPtr reader;
    void reset()
    {
        topic.clear();
        next.clear();
        wholeBy = QDeadlineTimer();
    }
};

// Blocking (engine threads and headless commands, never the UI thread): reads
// the map topic on the target to its end (as of the call). Without a cursor,
// or with one that does not fit, the whole topic into a cleared *map;
// otherwise only what follows the cursor, applied to *map, which must be the
// map the cursor's earlier reads filled. On error returns false and says why,
// naming the cluster and the topic (the cursor is then reset).
bool readOffsetMap(const ClusterConfig &target, const QString &mapTopic, int timeoutMs, OffsetMap *map, QString *error,
                   OffsetMapCursor *cursor = nullptr);

// The records themselves, for a reader that needs their keys (the pruner):
// `restart` before a whole read (forget what earlier reads gave), then
// `record` for each in order, value null for a tombstone; `record` returns
// false for one that is not a map record (counted and logged). The same
// cursor rules as readOffsetMap.
struct OffsetMapRecordSink {
    std::function<void()> restart;
    std::function<bool(const QByteArray &key, const QByteArray *value)> record;
};
bool readOffsetMapRecords(const ClusterConfig &target, const QString &mapTopic, int timeoutMs,
                          const OffsetMapRecordSink &sink, QString *error, OffsetMapCursor *cursor = nullptr);

} // namespace md
