#pragma once

#include "engine/mirror/MirrorJobSpec.h"
#include "engine/offsetmap/OffsetMap.h"

#include <QString>

namespace md {

// "Show on the other cluster": where a record of one side of a mirror job is
// on the other, through the job's offset map (docs/ARCHITECTURE.md, "The
// offset map"). Only exact answers: a record the map cannot place is never
// sent to a neighbour.

enum class LookupDirection {
    SourceToTarget, // a record of the job's source: its copy on the target
    TargetToSource, // a copy on the job's target: the source record it came from
};

struct OtherSideOffset {
    enum class Kind {
        Found,     // topic/partition/offset: the record on the other side
        NotCopied, // past what the map covers (source: not copied yet; target: after the job's last copy)
        BeforeMap, // below the first offset the map knows (copied before the map, or never by this job)
        NoRecord, // inside the map but not one record's: a marker, an aborted or compacted record, a replaced duplicate
        NotInMap, // the map knows nothing of this topic/partition
        Error,    // the map could not be read
    };
    Kind kind = Kind::NotInMap;
    QString topic; // the other side's topic (Found; else the best known name)
    int partition = -1;
    qint64 offset = -1;
    QString why; // every kind but Found: in plain words, naming the offset
    bool found() const { return kind == Kind::Found; }
};

// Pure: the answer of `map` (the job's whole map) for one record. `topic` is
// the record's topic on its own side (the target's name for TargetToSource).
OtherSideOffset otherSideOffset(const MirrorJobSpec &spec, const OffsetMap &map, const QString &topic, int partition,
                                qint64 offset, LookupDirection direction);

// Blocking (never on the UI thread): reads the job's map topic on its target
// (offsetMapTopicOf), then answers as above; Error when the map cannot be read.
OtherSideOffset lookUpOtherSide(const MirrorJobSpec &spec, const QString &topic, int partition, qint64 offset,
                                LookupDirection direction, int timeoutMs);

} // namespace md
