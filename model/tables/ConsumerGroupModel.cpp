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

namespace {

QString partitionsText(const QList<TopicPartitionRef> &parts)
{
    QStringList out;
    for (const TopicPartitionRef &tp : parts)
        out.append(tp.topic + QLatin1Char('[') + QString::number(tp.partition) + QLatin1Char(']'));
    return out.join(QStringLiteral(", "));
}

} // namespace

QString ConsumerGroupModel::typeDescription(GroupType type)
{
    switch (type) {
    case GroupType::Classic: return tr("Classic protocol: members join and the group leader assigns partitions");
    case GroupType::Consumer:
        return tr("Consumer protocol (KIP-848, Kafka 4): the broker assigns partitions; members reconcile to it");
    case GroupType::Share:
        return tr("Share group (KIP-932): members share partitions record by record; its position is each "
                  "partition's start offset (the records before it acknowledged), its lag what lies after it");
    case GroupType::Streams:
        return tr("Streams group (KIP-1071): listed only, as librdkafka cannot describe streams groups");
    case GroupType::Unknown: break;
    }
    return tr("The broker did not say (ListGroups before version 5)");
}

QString ConsumerGroupModel::assignmentText(const GroupMember &member)
{
    QString text = member.assignment.isEmpty() ? tr("(no partitions)") : partitionsText(member.assignment);
    // A consumer-protocol member still moving to what the coordinator gave it.
    if (!member.targetAssignment.isEmpty() && member.targetAssignment != member.assignment)
        text += tr(" \u2192 target: %1").arg(partitionsText(member.targetAssignment));
    return text;
}

QString ConsumerGroupModel::describeMembers(const ConsumerGroupInfo &group)
{
    QStringList lines;
    for (const GroupMember &m : group.members)
        lines.append(m.clientId + QStringLiteral(" @ ") + m.host + QStringLiteral(": ") + assignmentText(m));
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
        case Type: return groupTypeName(g->type);
        case Protocol: return g->protocol;
        case Members:
            // A streams group's members are not known (not described).
            if (g->type == GroupType::Streams)
                return role == SortRole ? QVariant(-1) : QVariant(QString());
            return int(g->members.size());
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
        if (index.column() == Type)
            return typeDescription(g->type);
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
    case Type: return tr("Type");
    case Protocol: return tr("Assignor");
    case Members: return tr("Members");
    case Coordinator: return tr("Coordinator");
    case Simple: return tr("Simple");
    default: return {};
    }
}

} // namespace md
