#include "model/tables/PartitionDetailModel.h"

#include <QColor>
#include <QLocale>

#include <algorithm>

namespace md {

namespace {
QString brokerList(const QList<int> &ids)
{
    QStringList parts;
    parts.reserve(ids.size());
    for (int id : ids)
        parts.append(QString::number(id));
    return parts.join(QStringLiteral(", "));
}

// Sorts broker lists by length first, then element-wise, as a single string would not.
QString brokerListKey(const QList<int> &ids)
{
    QString key = QString::number(ids.size()).rightJustified(4, QLatin1Char('0'));
    for (int id : ids)
        key += QLatin1Char(':') + QString::number(id).rightJustified(10, QLatin1Char('0'));
    return key;
}
} // namespace

PartitionDetailModel::PartitionDetailModel(QObject *parent) : MergingTableModel(parent)
{
}

void PartitionDetailModel::setPartitions(QList<PartitionInfo> partitions)
{
    std::sort(partitions.begin(), partitions.end(),
              [](const PartitionInfo &a, const PartitionInfo &b) { return a.id < b.id; });
    partitions.erase(std::unique(partitions.begin(), partitions.end(),
                                 [](const PartitionInfo &a, const PartitionInfo &b) { return a.id == b.id; }),
                     partitions.end());
    mergeSortedRows(m_partitions, partitions, [](const PartitionInfo &p) { return p.id; });
}

void PartitionDetailModel::clear()
{
    setPartitions({});
}

int PartitionDetailModel::underReplicatedCount() const
{
    return int(std::count_if(m_partitions.cbegin(), m_partitions.cend(), &PartitionDetailModel::isUnderReplicated));
}

int PartitionDetailModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_partitions.size());
}

int PartitionDetailModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PartitionDetailModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PartitionInfo &p = m_partitions[index.row()];
    const bool under = isUnderReplicated(p);
    const bool offline = isOffline(p);
    const bool known = p.lowWatermark >= 0 && p.highWatermark >= 0;
    switch (role) {
    case Qt::DisplayRole:
    case SortRole: {
        const bool display = role == Qt::DisplayRole;
        auto offset = [&](qint64 v) -> QVariant {
            if (v < 0)
                return display ? QVariant(QStringLiteral("?")) : QVariant(qint64(-1));
            return display ? QVariant(QLocale().toString(v)) : QVariant(v);
        };
        switch (index.column()) {
        case Partition: return p.id;
        case Leader:
            if (offline)
                return display ? QVariant(tr("none")) : QVariant(-1);
            return p.leader;
        case Replicas: return display ? brokerList(p.replicas) : brokerListKey(p.replicas);
        case Isr: return display ? brokerList(p.isr) : brokerListKey(p.isr);
        case LowWatermark: return offset(p.lowWatermark);
        case HighWatermark: return offset(p.highWatermark);
        case Messages: return offset(known ? qMax<qint64>(0, p.highWatermark - p.lowWatermark) : -1);
        case Status: {
            // Severity order for sorting: offline, under-replicated, error, ok.
            if (offline)
                return display ? QVariant(tr("offline")) : QVariant(0);
            if (under)
                return display ? QVariant(
                                     tr("under-replicated (%1 of %2 in sync)").arg(p.isr.size()).arg(p.replicas.size()))
                               : QVariant(1);
            if (!p.error.isEmpty())
                return display ? QVariant(p.error) : QVariant(2);
            return display ? QVariant(tr("ok")) : QVariant(3);
        }
        }
        return {};
    }
    case UnderReplicatedRole: return under;
    case OfflineRole: return offline;
    case Qt::BackgroundRole:
        if (offline)
            return QColor(0xf6, 0xc4, 0xc4);
        if (under)
            return QColor(0xfc, 0xe8, 0xb2);
        return {};
    case Qt::ForegroundRole:
        // Dark text on the light marks, whatever the palette.
        if (offline || under)
            return QColor(Qt::black);
        return {};
    case Qt::ToolTipRole:
        if (offline)
            return tr("No leader: the partition cannot be read or written");
        if (under)
            return tr("Replicas %1 are not in sync").arg(brokerList([&] {
                QList<int> out;
                for (int r : p.replicas)
                    if (!p.isr.contains(r))
                        out.append(r);
                return out;
            }()));
        if (!p.error.isEmpty())
            return p.error;
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == LowWatermark || index.column() == HighWatermark || index.column() == Messages ||
            index.column() == Partition || index.column() == Leader)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    return {};
}

QVariant PartitionDetailModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Partition: return tr("Partition");
    case Leader: return tr("Leader");
    case Replicas: return tr("Replicas");
    case Isr: return tr("ISR");
    case LowWatermark: return tr("Low");
    case HighWatermark: return tr("High");
    case Messages: return tr("Messages");
    case Status: return tr("Status");
    }
    return {};
}

} // namespace md
