#include "engine/offsetmap/OffsetLookup.h"

#include "engine/groupsync/GroupOffsetSync.h"
#include "engine/mirror/TopicNaming.h"

#include <algorithm>

namespace md {

namespace {

QString where(const QString &topic, int partition, qint64 offset)
{
    return QStringLiteral("%1 [%2] offset %3").arg(topic).arg(partition).arg(offset);
}

OtherSideOffset sourceToTarget(const MirrorJobSpec &spec, const OffsetMap &map, const QString &topic, int partition,
                               qint64 offset)
{
    OtherSideOffset out;
    out.topic = targetTopicName(spec, topic);
    out.partition = partition;
    const QString at = where(topic, partition, offset);
    const PartitionOffsetMap *p = map.partition(topic, partition);
    if (!p) {
        out.why =
            QStringLiteral("%1: the offset map of job \"%2\" has nothing of this partition (not copied by it yet)")
                .arg(at, spec.name);
        return out;
    }
    const OffsetTranslation t = p->translate(offset);
    if (!t.targetTopic.isEmpty())
        out.topic = t.targetTopic;
    switch (t.kind) {
    case OffsetTranslation::Kind::Exact:
        out.kind = OtherSideOffset::Kind::Found;
        out.offset = t.targetOffset;
        break;
    case OffsetTranslation::Kind::Gap:
        out.kind = OtherSideOffset::Kind::NoRecord;
        out.why = QStringLiteral("%1 was not copied as a record (a transaction marker, an aborted or compacted-away "
                                 "record); the next copy is at target offset %2")
                      .arg(at)
                      .arg(t.targetOffset);
        break;
    case OffsetTranslation::Kind::End:
    case OffsetTranslation::Kind::NotCopied: // End: the record at `covered` is the next to copy
        out.kind = OtherSideOffset::Kind::NotCopied;
        out.why = QStringLiteral("%1 is not copied yet: job \"%2\" has copied this partition up to offset %3")
                      .arg(at, spec.name)
                      .arg(p->covered());
        break;
    case OffsetTranslation::Kind::BeforeMap:
        out.kind = OtherSideOffset::Kind::BeforeMap;
        out.why = QStringLiteral("%1 is before the first offset in the map of job \"%2\" (%3): copied before the map "
                                 "was kept, or never by this job")
                      .arg(at, spec.name)
                      .arg(p->segments().value(0).sourceStart);
        break;
    case OffsetTranslation::Kind::Unknown:
        out.why =
            QStringLiteral("%1: the offset map of job \"%2\" has no segment of this partition").arg(at, spec.name);
        break;
    }
    return out;
}

OtherSideOffset targetToSource(const MirrorJobSpec &spec, const OffsetMap &map, const QString &targetTopic,
                               int partition, qint64 offset)
{
    OtherSideOffset out;
    out.partition = partition;
    const QString at = where(targetTopic, partition, offset);
    // The map is keyed by source topic; its segments name where they went,
    // which is the authority (the naming may have changed since).
    const PartitionOffsetMap *p = nullptr;
    for (const auto &[topic, part] : map.partitions()) {
        if (part != partition)
            continue;
        const PartitionOffsetMap *candidate = map.partition(topic, part);
        const QList<OffsetSegment> segments = candidate->segments();
        if (std::any_of(segments.cbegin(), segments.cend(),
                        [&](const OffsetSegment &s) { return s.targetTopic == targetTopic; })) {
            p = candidate;
            out.topic = topic;
            break;
        }
    }
    if (!p) {
        out.why = QStringLiteral("%1: the offset map of job \"%2\" has no copies in this partition").arg(at, spec.name);
        return out;
    }
    const qint64 source = p->sourceFor(offset);
    if (source >= 0) {
        out.kind = OtherSideOffset::Kind::Found;
        out.offset = source;
        return out;
    }
    qint64 firstTarget = -1, lastTargetEnd = -1;
    for (const OffsetSegment &s : p->segments()) {
        firstTarget = firstTarget < 0 ? s.targetStart : std::min(firstTarget, s.targetStart);
        lastTargetEnd = std::max(lastTargetEnd, s.targetEnd());
    }
    if (offset < firstTarget) {
        out.kind = OtherSideOffset::Kind::BeforeMap;
        out.why = QStringLiteral("%1 is before the first copy in the map of job \"%2\" (target offset %3)")
                      .arg(at, spec.name)
                      .arg(firstTarget);
    } else if (offset >= lastTargetEnd) {
        out.kind = OtherSideOffset::Kind::NotCopied;
        out.why = QStringLiteral("%1 is after the last copy in the map of job \"%2\" (target offset %3): written on "
                                 "the target by something else, or not in the map yet")
                      .arg(at, spec.name)
                      .arg(lastTargetEnd - 1);
    } else {
        out.kind = OtherSideOffset::Kind::NoRecord;
        out.why = QStringLiteral("%1 is not a copy in the map of job \"%2\": a transaction marker, or an older "
                                 "duplicate that a later copy replaced")
                      .arg(at, spec.name);
    }
    return out;
}

} // namespace

OtherSideOffset otherSideOffset(const MirrorJobSpec &spec, const OffsetMap &map, const QString &topic, int partition,
                                qint64 offset, LookupDirection direction)
{
    return direction == LookupDirection::SourceToTarget ? sourceToTarget(spec, map, topic, partition, offset)
                                                        : targetToSource(spec, map, topic, partition, offset);
}

OtherSideOffset lookUpOtherSide(const MirrorJobSpec &spec, const QString &topic, int partition, qint64 offset,
                                LookupDirection direction, int timeoutMs)
{
    OffsetMap map;
    QString error;
    if (!spec.offsetMap)
        error = noOffsetMapReason();
    if (!error.isEmpty() || !readOffsetMap(spec.target, offsetMapTopicOf(spec), timeoutMs, &map, &error)) {
        OtherSideOffset out;
        out.kind = OtherSideOffset::Kind::Error;
        out.partition = partition;
        out.why = error;
        return out;
    }
    return otherSideOffset(spec, map, topic, partition, offset, direction);
}

} // namespace md
