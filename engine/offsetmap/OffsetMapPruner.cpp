#include "engine/offsetmap/OffsetMapPruner.h"

#include "engine/admin/AdminService.h"
#include "engine/admin/KeyedRecords.h"

#include <QMap>
#include <QSet>

#include <algorithm>
#include <vector>

namespace md {

// ---------------------------------------------------------------- the keys

bool OffsetMapKeys::note(const QByteArray &key, const QByteArray *value)
{
    if (!value) {
        m_keys.remove(key);
        return true;
    }
    QString topic;
    int partition = -1;
    OffsetSegment s;
    if (parseOffsetMapReset(key, *value, &topic, &partition)) {
        for (auto it = m_keys.begin(); it != m_keys.end();) {
            if (it->partition == Partition{topic, partition})
                it = m_keys.erase(it);
            else
                ++it;
        }
        return true;
    }
    if (!parseOffsetMapRecord(key, *value, &topic, &partition, &s))
        return false;
    m_keys.insert(key, Entry{{topic, partition}, s.sourceEnd, s.covered});
    return true;
}

void OffsetMapKeys::forget(const QList<QByteArray> &keys)
{
    for (const QByteArray &k : keys)
        m_keys.remove(k);
}

QList<OffsetMapKeys::Partition> OffsetMapKeys::partitions() const
{
    QSet<Partition> seen;
    for (const Entry &e : m_keys)
        seen.insert(e.partition);
    QList<Partition> out(seen.cbegin(), seen.cend());
    std::sort(out.begin(), out.end());
    return out;
}

QList<QByteArray> OffsetMapKeys::belowLogStart(const QHash<Partition, qint64> &logStarts, int limit) const
{
    QHash<Partition, qint64> furthest; // the largest covered of each partition's records
    for (const Entry &e : m_keys) {
        qint64 &f = furthest[e.partition];
        f = std::max(f, e.covered);
    }
    std::vector<std::pair<qint64, QByteArray>> doomed;
    for (auto it = m_keys.cbegin(); it != m_keys.cend(); ++it) {
        const Entry &e = it.value();
        const auto start = logStarts.constFind(e.partition);
        if (start == logStarts.cend() || e.sourceEnd > *start || e.covered >= furthest.value(e.partition))
            continue;
        doomed.emplace_back(e.sourceEnd, it.key());
    }
    std::sort(doomed.begin(), doomed.end());
    QList<QByteArray> out;
    for (size_t i = 0; i < doomed.size() && int(i) < limit; ++i)
        out.append(doomed[i].second);
    return out;
}

// ---------------------------------------------------------------- one pass

OffsetMapPruner::OffsetMapPruner(ClusterConfig source, ClusterConfig target, QString mapTopic)
    : m_source(std::move(source)), m_target(std::move(target)), m_mapTopic(std::move(mapTopic))
{
}

OffsetMapPruner::~OffsetMapPruner() = default;

void OffsetMapPruner::close()
{
    m_writer.reset();
    m_sourceAdmin.reset();
    m_targetAdmin.reset();
    m_cursor.reader.reset();
}

bool OffsetMapPruner::pass(int timeoutMs, Result *result, QString *error)
{
    const auto fail = [&](const QString &why) {
        *error = why;
        m_cursor.reset(); // the next pass reads the whole map again
        m_cursor.reader.reset();
        return false;
    };
    const OffsetMapRecordSink sink{
        [this] { m_keys.clear(); },
        [this](const QByteArray &key, const QByteArray *value) { return m_keys.note(key, value); }};
    QString why;
    if (!readOffsetMapRecords(m_target, m_mapTopic, timeoutMs, sink, &why, &m_cursor))
        return fail(why);
    result->keys = m_keys.size();
    result->pruned = 0;
    if (m_keys.size() == 0)
        return true;

    if (!m_sourceAdmin && !(m_sourceAdmin = AdminService::create(m_source, &why, timeoutMs)))
        return fail(QStringLiteral("source cluster %1: %2").arg(m_source.bootstrap, why));
    // Only partitions the source still has: a deleted source topic keeps its records.
    const QList<OffsetMapKeys::Partition> parts = m_keys.partitions();
    QSet<QString> topics;
    for (const OffsetMapKeys::Partition &p : parts)
        topics.insert(p.first);
    QMap<QString, QList<int>> present;
    if (!m_sourceAdmin->partitionsOf(QStringList(topics.cbegin(), topics.cend()), &present, &why))
        return fail(QStringLiteral("source cluster %1: %2").arg(m_source.bootstrap, why));
    QList<TopicPartitionRef> ask;
    for (const OffsetMapKeys::Partition &p : parts)
        if (present.value(p.first).contains(p.second))
            ask.append({p.first, p.second});
    QMap<TopicPartitionRef, qint64> starts;
    if (!m_sourceAdmin->offsetsAt(ask, -2, &starts, &why))
        return fail(QStringLiteral("source cluster %1: %2").arg(m_source.bootstrap, why));
    QHash<OffsetMapKeys::Partition, qint64> logStarts;
    for (auto it = starts.cbegin(); it != starts.cend(); ++it)
        if (it.value() >= 0)
            logStarts.insert({it.key().topic, it.key().partition}, it.value());

    const QList<QByteArray> doomed = m_keys.belowLogStart(logStarts, kMaxPerPass);
    if (doomed.isEmpty())
        return true;
    if (!m_targetAdmin && !(m_targetAdmin = AdminService::create(m_target, &why, timeoutMs)))
        return fail(QStringLiteral("target cluster %1: %2").arg(m_target.bootstrap, why));
    if (!m_writer)
        m_writer = std::make_unique<KeyedRecords>(m_target, m_mapTopic);
    QList<KeyedRecords::Record> tombstones;
    tombstones.reserve(doomed.size());
    for (const QByteArray &key : doomed)
        tombstones.append({key, std::nullopt});
    if (!m_writer->write(*m_targetAdmin, tombstones, &why))
        return fail(QStringLiteral("target cluster %1: %2").arg(m_target.bootstrap, why));
    m_keys.forget(doomed);
    result->keys = m_keys.size();
    result->pruned = int(doomed.size());
    return true;
}

} // namespace md
