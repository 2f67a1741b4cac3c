#include "model/tables/ConsumerGroupModel.h"

#include <QStringList>

#include <algorithm>

namespace md {

ConsumerGroupModel::ConsumerGroupModel(QObject *parent) : MergingTableModel(parent)
{
}

void ConsumerGroupModel::setGroups(QList<ConsumerGroupInfo> groups)
{
    std::sort(groups.begin(), groups.end(),
              [](const ConsumerGroupInfo &a, const ConsumerGroupInfo &b) { return a.groupId < b.groupId; });
    mergeSortedRows(m_groups, groups, [](const ConsumerGroupInfo &g) -> const QString & { return g.groupId; });
}

const ConsumerGroupInfo *ConsumerGroupModel::groupAt(int row) const
{
    return row >= 0 && row < m_groups.size() ? &m_groups.at(row) : nullptr;
}

int ConsumerGroupModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_groups.size());
}

int ConsumerGroupModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ConsumerGroupModel::describeMembers(const ConsumerGroupInfo &group)
{
    QStringList lines;
    for (const GroupMember &m : group.members) {
        QStringList parts;
        for (const TopicPartitionRef &tp : m.assignment)
            parts.append(tp.topic + QLatin1Char('[') + QString::number(tp.partition) + QLatin1Char(']'));
        lines.append(m.clientId + QStringLiteral(" @ ") + m.host + QStringLiteral(": ") +
                     (parts.isEmpty() ? QStringLiteral("(no partitions)") : parts.join(QStringLiteral(", "))));
    }
    return lines.join(QLatin1Char('\n'));
}

QVariant ConsumerGroupModel::data(const QModelIndex &index, int role) const
{
    const ConsumerGroupInfo *g = index.isValid() ? groupAt(index.row()) : nullptr;
    if (!g)
        return {};
    if (role == Qt::DisplayRole || role == SortRole) {
        switch (index.column()) {
        case GroupId: return g->groupId;
        case State: return groupStateName(g->state);
        case Protocol: return g->protocol;
        case Members: return int(g->members.size());
        case Coordinator:
            if (role == SortRole)
                return g->coordinator;
            return g->coordinator >= 0 ? QVariant(g->coordinator) : QVariant(QString());
        case Simple:
            // A simple group only commits offsets (assign(), no membership protocol).
            if (role == SortRole)
                return g->simple;
            return g->simple ? tr("yes") : tr("no");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        if (!g->error.isEmpty())
            return g->error;
        if (index.column() == Members)
            return describeMembers(*g);
        if (index.column() == Simple)
            return g->simple ? tr("Commits offsets only: no members, no partition assignment")
                             : tr("Uses the consumer group protocol");
    }
    if (role == Qt::TextAlignmentRole && (index.column() == Members || index.column() == Coordinator))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant ConsumerGroupModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case GroupId: return tr("Group");
    case State: return tr("State");
    case Protocol: return tr("Assignor");
    case Members: return tr("Members");
    case Coordinator: return tr("Coordinator");
    case Simple: return tr("Simple");
    default: return {};
    }
}

} // namespace md
