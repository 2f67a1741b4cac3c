#include "model/tables/GroupSyncTableModel.h"

#include <QLocale>

#include <algorithm>

namespace md {

void GroupSyncTableModel::setGroups(const QList<GroupSyncMetrics> &groups)
{
    QList<GroupSyncMetrics> next = groups;
    std::sort(next.begin(), next.end(),
              [](const GroupSyncMetrics &a, const GroupSyncMetrics &b) { return a.group < b.group; });
    mergeSortedRows(m_rows, next, [](const GroupSyncMetrics &g) { return g.group; });
}

int GroupSyncTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int GroupSyncTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GroupSyncTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const GroupSyncMetrics &g = m_rows.at(index.row());
    if (role == Qt::TextAlignmentRole && (index.column() == PartitionsColumn || index.column() == LagColumn))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == NoteColumn && !g.skipReason.isEmpty())
        return g.skipReason;
    if (role != Qt::DisplayRole)
        return {};
    const QLocale locale;
    switch (index.column()) {
    case GroupColumn: return g.group;
    case PartitionsColumn: return tr("%1 of %2").arg(g.partitionsTranslated).arg(g.partitions);
    case LagColumn: return g.lag >= 0 ? locale.toString(qlonglong(g.lag)) : tr("unknown");
    case LastSyncColumn:
        return g.lastSync.isValid() ? locale.toString(g.lastSync.toLocalTime(), QLocale::ShortFormat) : tr("never");
    case NoteColumn: return g.skipReason;
    default: return {};
    }
}

QVariant GroupSyncTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case GroupColumn: return tr("Group");
    case PartitionsColumn: return tr("Partitions on target");
    case LagColumn: return tr("Behind source (records)");
    case LastSyncColumn: return tr("Last sync");
    case NoteColumn: return tr("Not synced because");
    default: return {};
    }
}

} // namespace md
