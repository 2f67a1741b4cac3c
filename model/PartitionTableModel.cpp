#include "PartitionTableModel.h"

#include <QColor>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace md {

namespace {

PartitionKey keyOf(const MetricStore::PartitionRow &r)
{
    return {r.metrics.topic, r.metrics.partition};
}

const QString kUnknown = QStringLiteral("\u2014"); // em dash: unknown, never shown as 0

QVariant offsetOrUnknown(qint64 v)
{
    return v < 0 ? QVariant(kUnknown) : QVariant(qlonglong(v));
}

} // namespace

PartitionTableModel::PartitionTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

PartitionTableModel::~PartitionTableModel() = default;

bool PartitionTableModel::sameDisplay(const MetricStore::PartitionRow &a, const MetricStore::PartitionRow &b)
{
    const PartitionMetrics &x = a.metrics;
    const PartitionMetrics &y = b.metrics;
    // Rates are shown with one decimal: a change below that is not a change.
    const bool sameRate = (a.recordsPerSec < 0 && b.recordsPerSec < 0)
                          || std::abs(a.recordsPerSec - b.recordsPerSec) < 0.05;
    return x.targetTopic == y.targetTopic && x.endOffset == y.endOffset && x.nextOffset == y.nextOffset
           && x.committedOffset == y.committedOffset && x.lag == y.lag && sameRate && a.status == b.status;
}

void PartitionTableModel::setRows(QList<MetricStore::PartitionRow> rows)
{
    std::sort(rows.begin(), rows.end(),
              [](const auto &a, const auto &b) { return keyOf(a) < keyOf(b); });
    // A duplicate key would make the row bookkeeping ambiguous; keep one.
    rows.erase(std::unique(rows.begin(), rows.end(),
                           [](const auto &a, const auto &b) { return keyOf(a) == keyOf(b); }),
               rows.end());

    QSet<PartitionKey> incoming;
    incoming.reserve(rows.size());
    for (const auto &r : std::as_const(rows))
        incoming.insert(keyOf(r));

    // 1. Removals, bottom up, one call per contiguous run.
    for (int i = int(m_rows.size()) - 1; i >= 0;) {
        if (incoming.contains(keyOf(m_rows[i]))) {
            --i;
            continue;
        }
        int first = i;
        while (first > 0 && !incoming.contains(keyOf(m_rows[first - 1])))
            --first;
        beginRemoveRows({}, first, i);
        m_rows.remove(first, i - first + 1);
        endRemoveRows();
        i = first - 1;
    }

    // 2. Insertions: what is left is an ordered subsequence of rows; fill the gaps.
    int i = 0;
    while (i < rows.size()) {
        if (i < m_rows.size() && keyOf(m_rows[i]) == keyOf(rows[i])) {
            ++i;
            continue;
        }
        const PartitionKey stopAt = i < m_rows.size() ? keyOf(m_rows[i]) : PartitionKey{};
        int last = i;
        while (last + 1 < rows.size() && (i >= m_rows.size() || !(keyOf(rows[last + 1]) == stopAt)))
            ++last;
        beginInsertRows({}, i, last);
        for (int k = i; k <= last; ++k)
            m_rows.insert(k, rows[k]);
        endInsertRows();
        i = last + 1;
    }

    // 3. Changes: one dataChanged per run of changed rows.
    Q_ASSERT(m_rows.size() == rows.size());
    int runStart = -1;
    for (int r = 0; r <= int(rows.size()); ++r) {
        const bool changed = r < rows.size() && !sameDisplay(m_rows[r], rows[r]);
        if (r < rows.size())
            m_rows[r] = rows[r]; // also picks up invisible fields (records, bytes)
        if (changed && runStart < 0) {
            runStart = r;
        } else if (!changed && runStart >= 0) {
            Q_EMIT dataChanged(index(runStart, 0), index(r - 1, ColumnCount - 1));
            runStart = -1;
        }
    }
}

void PartitionTableModel::applySnapshot(const MetricsSnapshot &snapshot,
                                        const QHash<PartitionKey, PartitionLagStatus> &statuses)
{
    QHash<PartitionKey, qint64> previous;
    for (const PartitionMetrics &p : std::as_const(m_previous.partitions))
        previous.insert({p.topic, p.partition}, p.records);
    const double dtSec = double(snapshot.elapsedMs - m_previous.elapsedMs) / 1000.0;
    const bool havePrevious = !m_previous.partitions.isEmpty() || m_previous.elapsedMs > 0;

    QList<MetricStore::PartitionRow> rows;
    rows.reserve(snapshot.partitions.size());
    for (const PartitionMetrics &p : snapshot.partitions) {
        const PartitionKey key{p.topic, p.partition};
        MetricStore::PartitionRow row;
        row.metrics = p;
        const auto prev = previous.constFind(key);
        if (havePrevious && dtSec > 0 && prev != previous.cend() && p.records >= *prev)
            row.recordsPerSec = double(p.records - *prev) / dtSec;
        row.status = statuses.value(key, PartitionLagStatus::Ok);
        rows.append(row);
    }
    m_previous = snapshot;
    setRows(std::move(rows));
}

void PartitionTableModel::clear()
{
    m_previous = MetricsSnapshot{};
    if (m_rows.isEmpty())
        return;
    beginRemoveRows({}, 0, int(m_rows.size()) - 1);
    m_rows.clear();
    endRemoveRows();
}

PartitionKey PartitionTableModel::keyAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? keyOf(m_rows[row]) : PartitionKey{};
}

int PartitionTableModel::rowOf(const PartitionKey &key) const
{
    const auto it = std::lower_bound(m_rows.cbegin(), m_rows.cend(), key,
                                     [](const auto &r, const PartitionKey &k) { return keyOf(r) < k; });
    return it != m_rows.cend() && keyOf(*it) == key ? int(it - m_rows.cbegin()) : -1;
}

int PartitionTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PartitionTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PartitionTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const MetricStore::PartitionRow &row = m_rows[index.row()];
    const PartitionMetrics &p = row.metrics;
    const auto column = Column(index.column());

    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case TopicColumn: return p.topic;
        case PartitionColumn: return p.partition;
        case TargetTopicColumn: return p.targetTopic;
        case EndOffsetColumn: return offsetOrUnknown(p.endOffset);
        case MirroredOffsetColumn: return offsetOrUnknown(p.nextOffset);
        case CommittedOffsetColumn:
            return p.committedOffset < 0 ? QVariant(tr("none")) : QVariant(qlonglong(p.committedOffset));
        case LagColumn: return offsetOrUnknown(p.lag);
        case RateColumn:
            return row.recordsPerSec < 0 ? kUnknown : QString::number(row.recordsPerSec, 'f', 1);
        case StatusColumn: return partitionLagStatusName(row.status);
        case ColumnCount: break;
        }
        break;
    case SortRole:
        switch (column) {
        case TopicColumn: return p.topic;
        case PartitionColumn: return p.partition;
        case TargetTopicColumn: return p.targetTopic;
        case EndOffsetColumn: return qlonglong(p.endOffset);
        case MirroredOffsetColumn: return qlonglong(p.nextOffset);
        case CommittedOffsetColumn: return qlonglong(p.committedOffset);
        case LagColumn: return qlonglong(p.lag);
        case RateColumn: return row.recordsPerSec;
        case StatusColumn: return int(row.status);
        case ColumnCount: break;
        }
        break;
    case StatusRole:
        return int(row.status);
    case Qt::TextAlignmentRole:
        if (column == TopicColumn || column == TargetTopicColumn || column == StatusColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::ForegroundRole:
        // Mid-tone colours read on light and dark palettes alike.
        if (column == StatusColumn) {
            switch (rollUp(row.status)) {
            case JobLagStatus::Ok: return {};
            case JobLagStatus::Warn: return QColor(0xd0, 0x84, 0x00);
            case JobLagStatus::Err: return QColor(0xd9, 0x36, 0x36);
            }
        }
        break;
    case Qt::ToolTipRole:
        if (column == StatusColumn) {
            switch (row.status) {
            case PartitionLagStatus::Ok: return tr("Keeping up, or catching up.");
            case PartitionLagStatus::Warn: return tr("Mirroring, but the lag grew across the whole window.");
            case PartitionLagStatus::Stall: return tr("The position has not moved across the window while there is lag.");
            case PartitionLagStatus::Stop: return tr("No progress reported for longer than the window.");
            case PartitionLagStatus::Rewind: return tr("The position went backwards.");
            }
        }
        if (column == CommittedOffsetColumn && p.committedOffset < 0)
            return tr("The consumer group has no committed offset for this partition.");
        break;
    default:
        break;
    }
    return {};
}

QVariant PartitionTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case TopicColumn: return tr("Topic");
    case PartitionColumn: return tr("Partition");
    case TargetTopicColumn: return tr("Target topic");
    case EndOffsetColumn: return tr("End offset");
    case MirroredOffsetColumn: return tr("Mirrored offset");
    case CommittedOffsetColumn: return tr("Committed");
    case LagColumn: return tr("Lag");
    case RateColumn: return tr("Records/s");
    case StatusColumn: return tr("Status");
    case ColumnCount: break;
    }
    return {};
}

} // namespace md
