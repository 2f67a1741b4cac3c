#include "model/tables/GroupOffsetsModel.h"

#include <algorithm>

namespace md {

GroupOffsetsModel::GroupOffsetsModel(QObject *parent) : MergingTableModel(parent)
{
}

void GroupOffsetsModel::setOffsets(const QString &groupId, QList<GroupPartitionOffset> offsets)
{
    if (groupId != m_groupId)
        clear();
    m_groupId = groupId;
    auto key = [](const GroupPartitionOffset &o) { return TopicPartitionRef{o.topic, o.partition}; };
    std::sort(offsets.begin(), offsets.end(),
              [&](const GroupPartitionOffset &a, const GroupPartitionOffset &b) { return key(a) < key(b); });
    mergeSortedRows(m_rows, offsets, key);
}

void GroupOffsetsModel::setShareGroup(bool share)
{
    if (share == m_share)
        return;
    m_share = share;
    Q_EMIT headerDataChanged(Qt::Horizontal, Committed, Committed);
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, Committed), index(int(m_rows.size()) - 1, Committed), {Qt::ToolTipRole});
}

void GroupOffsetsModel::clear()
{
    if (!m_rows.isEmpty()) {
        beginRemoveRows({}, 0, int(m_rows.size()) - 1);
        m_rows.clear();
        endRemoveRows();
    }
    m_groupId.clear();
}

qint64 GroupOffsetsModel::totalLag() const
{
    qint64 total = -1;
    for (const GroupPartitionOffset &o : m_rows) {
        if (const qint64 lag = o.lag(); lag >= 0)
            total = qMax<qint64>(total, 0) + lag;
    }
    return total;
}

int GroupOffsetsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int GroupOffsetsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GroupOffsetsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const GroupPartitionOffset &o = m_rows.at(index.row());
    if (role == SortRole) {
        switch (index.column()) {
        case Topic: return o.topic;
        case Partition: return o.partition;
        case Committed: return o.committed;
        case EndOffset: return o.endOffset;
        case Lag: return o.lag();
        default: return {};
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Topic: return o.topic;
        case Partition: return o.partition;
        case Committed: return o.committed >= 0 ? QVariant(o.committed) : QVariant(tr("none"));
        case EndOffset: return o.endOffset >= 0 ? QVariant(o.endOffset) : QVariant(tr("unknown"));
        case Lag:
            if (o.committed < 0)
                return tr("none");
            return o.endOffset >= 0 ? QVariant(o.lag()) : QVariant(tr("unknown"));
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == Committed && o.committed < 0)
        return m_share ? tr("The share partition has no start offset yet: the group has not read it")
                       : tr("The group has no committed offset for this partition");
    if (role == Qt::ToolTipRole && index.column() == Committed && m_share)
        return tr("Start offset: every record before it is acknowledged (or archived). Kafka 4.1 writes it "
                  "with the next change of the share partition's state, so it can trail the acknowledgements.");
    if (role == Qt::TextAlignmentRole && index.column() != Topic)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant GroupOffsetsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Topic: return tr("Topic");
    case Partition: return tr("Partition");
    case Committed: return m_share ? tr("Start offset") : tr("Committed");
    case EndOffset: return tr("End offset");
    case Lag: return tr("Lag");
    default: return {};
    }
}

} // namespace md
