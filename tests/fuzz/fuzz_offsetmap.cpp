// libFuzzer target: offset map records as a reader meets them on the target
// (anyone allowed to write the map topic can write anything there). Lines of
// "key<TAB>value" (a line without a tab: a tombstone) are parsed and applied
// to one map in order, as readOffsetMap does; then every offset near the
// segments is translated both ways. A record that parses must write back to
// the same value and parse to the same segment: a reader and the writer that
// disagree on a map record would translate a group to the wrong copy.
#include "engine/offsetmap/OffsetMap.h"

#include <QByteArray>
#include <QList>

#include <cstdint>
#include <cstdlib>

using namespace md;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    OffsetMap map;
    for (const QByteArray &line : bytes.split('\n')) {
        const qsizetype tab = line.indexOf('\t');
        if (tab < 0)
            continue; // a tombstone: nothing to apply
        const QByteArray key = line.left(tab), value = line.mid(tab + 1);
        QString topic;
        int partition = -1;
        OffsetSegment s;
        if (!parseOffsetMapRecord(key, value, &topic, &partition, &s)) {
            if (parseOffsetMapReset(key, value, &topic, &partition))
                map.forget(topic, partition); // a partition's reset record
            continue;
        }
        OffsetSegment back;
        QString topic2;
        int partition2 = -1;
        if (!parseOffsetMapRecord(offsetMapKey(topic, partition, s.sourceStart), offsetMapValue(s), &topic2,
                                  &partition2, &back) ||
            !(back == s) || topic2 != topic || partition2 != partition)
            std::abort();
        map.apply(topic, partition, s);
    }
    for (const auto &[topic, partition] : map.partitions()) {
        const PartitionOffsetMap *p = map.partition(topic, partition);
        int asked = 0;
        for (const OffsetSegment &s : p->segments()) {
            if (++asked > 64)
                break;
            for (qint64 o : {s.sourceStart - 1, s.sourceStart, s.sourceEnd - 1, s.sourceEnd, s.covered}) {
                const OffsetTranslation t = p->translate(o);
                if (t.kind == OffsetTranslation::Kind::Exact && t.targetOffset < 0)
                    std::abort();
                (void)p->sourceFor(t.targetOffset);
            }
            for (const OffsetStep &st : s.steps)
                (void)p->sourceFor(s.targetOf(st.source) - 1);
        }
    }
    return 0;
}
