#include "model/tables/FailoverPlanModel.h"

#include "model/tables/ProgressTableModel.h"

#include <QBrush>
#include <QColor>

namespace md {

FailoverPlanModel::FailoverPlanModel(QObject *parent) : QAbstractTableModel(parent)
{
}

FailoverPlanModel::~FailoverPlanModel() = default;

void FailoverPlanModel::setPlan(const GroupSyncPlan &plan)
{
    beginResetModel();
    m_groups = plan.groups;
    m_rows.clear();
    for (int g = 0; g < m_groups.size(); ++g)
        for (int p = 0; p < m_groups.at(g).partitions.size(); ++p)
            m_rows.append({g, p});
    endResetModel();
}

int FailoverPlanModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int FailoverPlanModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FailoverPlanModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    const GroupSyncEntry &g = m_groups.at(row.group);
    const GroupPartitionSync &p = g.partitions.at(row.partition);
    const qint64 target = p.translation.targetOffset;
    const auto offsetText = [](qint64 v) { return v >= 0 ? formatOffset(v) : QStringLiteral("none"); };
    if (role == SortRole) {
        switch (index.column()) {
        case GroupColumn: return g.group;
        case TopicColumn: return p.topic;
        case PartitionColumn: return p.partition;
        case SourceOffsetColumn: return p.sourceCommitted;
        case TargetOffsetColumn: return target;
        case TargetNowColumn: return p.targetCurrent;
        case ReadAgainColumn: return p.readAgain;
        case NotCopiedColumn: return p.neverReached;
        case ActionColumn: return groupSyncActionName(p.action);
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case GroupColumn: return g.group;
        case TopicColumn: return p.topic;
        case PartitionColumn: return p.partition;
        case SourceOffsetColumn: return offsetText(p.sourceCommitted);
        case TargetOffsetColumn: return target >= 0 ? formatOffset(target) : QStringLiteral("\u2014");
        case TargetNowColumn: return offsetText(p.targetCurrent);
        case ReadAgainColumn: return formatOffset(p.readAgain);
        case NotCopiedColumn: return p.neverReached >= 0 ? formatOffset(p.neverReached) : QStringLiteral("?");
        case ActionColumn: return groupSyncActionName(p.action);
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == ActionColumn || index.column() == TargetOffsetColumn)
            return p.note.isEmpty() ? QVariant() : QVariant(p.note);
        if (index.column() == GroupColumn && !g.targetMembers.isEmpty())
            return tr("Active on the target: %1").arg(g.targetMembers.join(QStringLiteral(", ")));
        return {};
    }
    if (role == Qt::TextAlignmentRole) {
        if (index.column() >= PartitionColumn && index.column() <= NotCopiedColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (role == Qt::ForegroundRole && index.column() == ActionColumn && p.action != GroupSyncAction::Write &&
        p.action != GroupSyncAction::AlreadyThere)
        return QBrush(QColor(0x8a, 0x5a, 0x00));
    return {};
}

QVariant FailoverPlanModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case GroupColumn: return tr("Group");
    case TopicColumn: return tr("Topic");
    case PartitionColumn: return tr("Partition");
    case SourceOffsetColumn: return tr("Source offset");
    case TargetOffsetColumn: return tr("Target offset");
    case TargetNowColumn: return tr("Target now");
    case ReadAgainColumn: return tr("Read again");
    case NotCopiedColumn: return tr("Not on target");
    case ActionColumn: return tr("Action");
    }
    return {};
}

} // namespace md
