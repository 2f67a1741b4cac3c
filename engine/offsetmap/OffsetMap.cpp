#include "engine/offsetmap/OffsetMap.h"

#include <QList>

#include <algorithm>
#include <iterator>

namespace md {

// ---------------------------------------------------------------- one partition

void PartitionOffsetMap::apply(const OffsetSegment &s)
{
    if (s.sourceStart < 0 || s.sourceEnd < s.sourceStart || s.targetStart < 0)
        return;
    // Covered only grows: a later record with less progress (another
    // instance's older view) does not un-copy what an earlier one covered.
    m_covered = std::max({m_covered, s.covered, s.sourceEnd});
    if (!s.targetTopic.isEmpty())
        m_targetTopic = s.targetTopic;
    if (s.sourceEnd == s.sourceStart)
        return;
    // The later segment wins where they overlap: cut the overlapped parts out
    // of the earlier ones, keeping what lies before and after.
    std::vector<OffsetSegment> keep;
    auto it = m_segments.lower_bound(s.sourceStart);
    if (it != m_segments.begin())
        --it;
    while (it != m_segments.end() && it->second.sourceStart < s.sourceEnd) {
        const OffsetSegment old = it->second;
        if (old.sourceEnd <= s.sourceStart) {
            ++it;
            continue;
        }
        it = m_segments.erase(it);
        if (old.sourceStart < s.sourceStart) {
            OffsetSegment left = old;
            left.sourceEnd = s.sourceStart;
            keep.push_back(left);
        }
        if (old.sourceEnd > s.sourceEnd) {
            OffsetSegment right = old;
            right.sourceStart = s.sourceEnd;
            right.targetStart = old.targetStart + (s.sourceEnd - old.sourceStart);
            keep.push_back(right);
        }
    }
    for (const OffsetSegment &k : keep)
        m_segments.emplace(k.sourceStart, k);
    m_segments.emplace(s.sourceStart, s);
}

OffsetTranslation PartitionOffsetMap::translate(qint64 o) const
{
    OffsetTranslation t;
    if (m_segments.empty())
        return t;
    const OffsetSegment &first = m_segments.begin()->second;
    const OffsetSegment &last = std::prev(m_segments.end())->second;
    // The target's next offset after what the job copied: the newest copy's end.
    const auto targetNext = [&] {
        OffsetTranslation e;
        e.targetOffset = last.targetEnd();
        e.targetTopic = last.targetTopic.isEmpty() ? m_targetTopic : last.targetTopic;
        return e;
    };
    if (o < first.sourceStart) {
        t.kind = OffsetTranslation::Kind::BeforeMap;
        t.targetOffset = first.targetStart;
        t.targetTopic = first.targetTopic;
        return t;
    }
    if (o >= m_covered) {
        t = targetNext();
        if (o == m_covered) {
            t.kind = OffsetTranslation::Kind::End;
        } else {
            t.kind = OffsetTranslation::Kind::NotCopied;
            t.notCopied = o - m_covered;
        }
        return t;
    }
    auto next = m_segments.upper_bound(o); // first segment starting after o
    const OffsetSegment &at = std::prev(next)->second;
    if (o < at.sourceEnd) {
        t.kind = OffsetTranslation::Kind::Exact;
        t.targetOffset = at.targetStart + (o - at.sourceStart);
        t.targetTopic = at.targetTopic;
        return t;
    }
    // No record here: a group at this offset continues at the next copy.
    if (next == m_segments.end()) {
        t = targetNext();
    } else {
        t.targetOffset = next->second.targetStart;
        t.targetTopic = next->second.targetTopic;
    }
    t.kind = OffsetTranslation::Kind::Gap;
    return t;
}

qint64 PartitionOffsetMap::sourceFor(qint64 targetOffset) const
{
    if (targetOffset < 0)
        return -1;
    for (const auto &[start, s] : m_segments)
        if (targetOffset >= s.targetStart && targetOffset < s.targetEnd())
            return s.sourceStart + (targetOffset - s.targetStart);
    return -1;
}

QList<OffsetSegment> PartitionOffsetMap::segments() const
{
    QList<OffsetSegment> out;
    out.reserve(qsizetype(m_segments.size()));
    for (const auto &[start, s] : m_segments)
        out.append(s);
    return out;
}

// ---------------------------------------------------------------- the job's map

void OffsetMap::apply(const QString &sourceTopic, int partition, const OffsetSegment &segment)
{
    m_parts[{sourceTopic, partition}].apply(segment);
}

OffsetTranslation OffsetMap::translate(const QString &sourceTopic, int partition, qint64 sourceOffset) const
{
    const PartitionOffsetMap *p = this->partition(sourceTopic, partition);
    return p ? p->translate(sourceOffset) : OffsetTranslation{};
}

const PartitionOffsetMap *OffsetMap::partition(const QString &sourceTopic, int partition) const
{
    auto it = m_parts.constFind({sourceTopic, partition});
    return it == m_parts.cend() ? nullptr : &it.value();
}

QList<QPair<QString, int>> OffsetMap::partitions() const
{
    QList<QPair<QString, int>> out = m_parts.keys();
    std::sort(out.begin(), out.end());
    return out;
}

int OffsetMap::segmentCount() const
{
    int n = 0;
    for (const PartitionOffsetMap &p : m_parts)
        n += p.segmentCount();
    return n;
}

// ---------------------------------------------------------------- records

namespace {

// Value format, version 1: "1 sourceStart sourceEnd targetStart covered targetTopic".
constexpr char kVersion[] = "1";

bool toOffset(const QByteArray &s, qint64 *out)
{
    bool ok = false;
    const qint64 v = s.toLongLong(&ok);
    if (!ok || v < 0 || s.startsWith('+'))
        return false;
    *out = v;
    return true;
}

} // namespace

QByteArray offsetMapKey(const QString &sourceTopic, int partition, qint64 sourceStart)
{
    return sourceTopic.toUtf8() + '/' + QByteArray::number(partition) + '/' + QByteArray::number(sourceStart);
}

QByteArray offsetMapValue(const OffsetSegment &s)
{
    return QByteArray(kVersion) + ' ' + QByteArray::number(s.sourceStart) + ' ' + QByteArray::number(s.sourceEnd) +
           ' ' + QByteArray::number(s.targetStart) + ' ' + QByteArray::number(s.covered) + ' ' + s.targetTopic.toUtf8();
}

bool parseOffsetMapRecord(const QByteArray &key, const QByteArray &value, QString *sourceTopic, int *partition,
                          OffsetSegment *segment)
{
    const QList<QByteArray> k = key.split('/');
    if (k.size() != 3 || k[0].isEmpty())
        return false;
    qint64 part = -1, keyStart = -1;
    if (!toOffset(k[1], &part) || part > 0x7fffffff || !toOffset(k[2], &keyStart))
        return false;
    const QList<QByteArray> v = value.split(' ');
    if (v.size() != 6 || v[0] != kVersion || v[5].isEmpty())
        return false;
    OffsetSegment s;
    if (!toOffset(v[1], &s.sourceStart) || !toOffset(v[2], &s.sourceEnd) || !toOffset(v[3], &s.targetStart) ||
        !toOffset(v[4], &s.covered))
        return false;
    if (s.sourceStart != keyStart || s.sourceEnd < s.sourceStart || s.covered < s.sourceEnd)
        return false;
    s.targetTopic = QString::fromUtf8(v[5]);
    *sourceTopic = QString::fromUtf8(k[0]);
    *partition = int(part);
    *segment = s;
    return true;
}

QString noOffsetMapReason()
{
    return QStringLiteral("the job keeps no offset map (offsetMap: false)");
}

QString defaultOffsetMapTopic(const QString &groupId)
{
    QString name = QStringLiteral("mirrordesk.") + groupId + QStringLiteral(".offset-map");
    for (QChar &c : name) {
        const char16_t u = c.unicode();
        const bool ok = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') || u == u'.' ||
                        u == u'_' || u == u'-';
        if (!ok)
            c = QLatin1Char('_');
    }
    // Kafka's limit is 249; the suffix stays so the topic is still recognised as a map.
    const QString suffix = QStringLiteral(".offset-map");
    if (name.size() > 249)
        name = name.left(249 - suffix.size()) + suffix;
    return name;
}

} // namespace md
