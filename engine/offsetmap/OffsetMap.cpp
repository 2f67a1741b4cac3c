#include "engine/offsetmap/OffsetMap.h"

#include <QList>

#include <algorithm>
#include <iterator>

namespace md {

// ---------------------------------------------------------------- one segment

qint64 OffsetSegment::shiftAt(qint64 source) const
{
    auto it = std::upper_bound(steps.begin(), steps.end(), source,
                               [](qint64 o, const OffsetStep &st) { return o < st.source; });
    return it == steps.begin() ? 0 : std::prev(it)->shift;
}

qint64 OffsetSegment::sourceOf(qint64 target) const
{
    if (target < targetStart || target >= targetEnd())
        return -1;
    // The last run (from sourceStart, or from a step) that begins at or before `target`.
    auto it = std::upper_bound(steps.begin(), steps.end(), target, [this](qint64 t, const OffsetStep &st) {
        return t < targetStart + (st.source - sourceStart) + st.shift;
    });
    const qint64 runSource = it == steps.begin() ? sourceStart : std::prev(it)->source;
    const qint64 runTarget = targetOf(runSource);
    const qint64 runEnd = it == steps.end() ? sourceEnd : it->source;
    const qint64 source = runSource + (target - runTarget);
    return source < runEnd ? source : -1; // else a skipped target offset (a marker)
}

OffsetSegment OffsetSegment::before(qint64 cut) const
{
    OffsetSegment out = *this;
    out.sourceEnd = cut;
    out.steps.erase(std::lower_bound(out.steps.begin(), out.steps.end(), cut,
                                     [](const OffsetStep &st, qint64 o) { return st.source < o; }),
                    out.steps.end());
    return out;
}

OffsetSegment OffsetSegment::from(qint64 cut) const
{
    OffsetSegment out = *this;
    out.sourceStart = cut;
    out.targetStart = targetOf(cut);
    const qint64 base = shiftAt(cut);
    out.steps.clear();
    for (const OffsetStep &st : steps)
        if (st.source > cut)
            out.steps.push_back({st.source, st.shift - base});
    return out;
}

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
        if (old.sourceStart < s.sourceStart)
            keep.push_back(old.before(s.sourceStart));
        if (old.sourceEnd > s.sourceEnd)
            keep.push_back(old.from(s.sourceEnd));
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
        t.targetOffset = at.targetOf(o);
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
        if (const qint64 source = s.sourceOf(targetOffset); source >= 0)
            return source;
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

// Value format, version 1: "1 sourceStart sourceEnd targetStart covered targetTopic";
// version 2 (a segment with steps) adds " steps": comma-separated "d" or "d:k",
// a step d source offsets after the previous one (or sourceStart) where the
// target skips k more offsets (1 when not written). Version 1 is still
// written where there are no steps, so most records read as before.
constexpr char kVersion[] = "1";
constexpr char kVersionSteps[] = "2";
// Bounds on what a parser accepts, well above what the writer makes: an
// offset (and a record's summed skips) below 2^60, so that no translation of
// a record read from the topic overflows.
constexpr int kParsedStepsMax = 100000;
constexpr qint64 kParsedOffsetMax = qint64(1) << 60;

bool toOffset(const QByteArray &s, qint64 *out)
{
    bool ok = false;
    const qint64 v = s.toLongLong(&ok);
    if (!ok || v < 0 || v >= kParsedOffsetMax || s.startsWith('+'))
        return false;
    *out = v;
    return true;
}

// "topic/partition/last" (topic names cannot contain '/').
bool parseKey(const QByteArray &key, QString *topic, qint64 *partition, QByteArray *last)
{
    const QList<QByteArray> k = key.split('/');
    if (k.size() != 3 || k[0].isEmpty() || !toOffset(k[1], partition) || *partition > 0x7fffffff)
        return false;
    *topic = QString::fromUtf8(k[0]);
    *last = k[2];
    return true;
}

QByteArray stepsText(const OffsetSegment &s)
{
    QByteArray out;
    qint64 source = s.sourceStart, shift = 0;
    for (const OffsetStep &st : s.steps) {
        if (!out.isEmpty())
            out += ',';
        out += QByteArray::number(st.source - source);
        if (st.shift - shift != 1)
            out += ':' + QByteArray::number(st.shift - shift);
        source = st.source;
        shift = st.shift;
    }
    return out;
}

bool parseSteps(const QByteArray &text, OffsetSegment *s)
{
    const QList<QByteArray> items = text.split(',');
    if (items.size() > kParsedStepsMax)
        return false;
    qint64 source = s->sourceStart, shift = 0;
    for (const QByteArray &item : items) {
        const qsizetype colon = item.indexOf(':');
        qint64 d = 0, k = 1;
        if (!toOffset(colon < 0 ? item : item.left(colon), &d) || (colon >= 0 && !toOffset(item.mid(colon + 1), &k)))
            return false;
        if (d < 1 || k < 1 || d >= s->sourceEnd - source)
            return false; // each step strictly after the last, before sourceEnd; each a skip forward
        source += d;
        shift += k;
        if (shift >= kParsedOffsetMax)
            return false;
        s->steps.push_back({source, shift});
    }
    return true;
}

} // namespace

QByteArray offsetMapKey(const QString &sourceTopic, int partition, qint64 sourceStart)
{
    return sourceTopic.toUtf8() + '/' + QByteArray::number(partition) + '/' + QByteArray::number(sourceStart);
}

QByteArray offsetMapValue(const OffsetSegment &s)
{
    QByteArray out = QByteArray(s.steps.empty() ? kVersion : kVersionSteps) + ' ' + QByteArray::number(s.sourceStart) +
                     ' ' + QByteArray::number(s.sourceEnd) + ' ' + QByteArray::number(s.targetStart) + ' ' +
                     QByteArray::number(s.covered) + ' ' + s.targetTopic.toUtf8();
    if (!s.steps.empty())
        out += ' ' + stepsText(s);
    return out;
}

bool parseOffsetMapRecord(const QByteArray &key, const QByteArray &value, QString *sourceTopic, int *partition,
                          OffsetSegment *segment)
{
    QString topic;
    qint64 part = -1, keyStart = -1;
    QByteArray last;
    if (!parseKey(key, &topic, &part, &last) || !toOffset(last, &keyStart))
        return false;
    const QList<QByteArray> v = value.split(' ');
    const bool withSteps = v.value(0) == kVersionSteps;
    if (v.size() != (withSteps ? 7 : 6) || (v[0] != kVersion && !withSteps) || v[5].isEmpty())
        return false;
    OffsetSegment s;
    if (!toOffset(v[1], &s.sourceStart) || !toOffset(v[2], &s.sourceEnd) || !toOffset(v[3], &s.targetStart) ||
        !toOffset(v[4], &s.covered))
        return false;
    if (s.sourceStart != keyStart || s.sourceEnd < s.sourceStart || s.covered < s.sourceEnd)
        return false;
    if (withSteps && !parseSteps(v[6], &s))
        return false;
    s.targetTopic = QString::fromUtf8(v[5]);
    *sourceTopic = topic;
    *partition = int(part);
    *segment = s;
    return true;
}

QByteArray offsetMapResetKey(const QString &sourceTopic, int partition)
{
    return sourceTopic.toUtf8() + '/' + QByteArray::number(partition) + "/reset";
}

QByteArray offsetMapResetValue()
{
    return QByteArrayLiteral("reset");
}

bool parseOffsetMapReset(const QByteArray &key, const QByteArray &value, QString *sourceTopic, int *partition)
{
    QString topic;
    qint64 part = -1;
    QByteArray last;
    if (!parseKey(key, &topic, &part, &last) || last != "reset" || value != "reset")
        return false;
    *sourceTopic = topic;
    *partition = int(part);
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
