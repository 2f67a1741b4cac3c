#pragma once

#include "engine/admin/AdminService.h"
#include "model/tables/KeyedMerge.h"

namespace md {

// Consumer groups of one cluster, merged by group id on every refresh.
class ConsumerGroupModel final : public MergingTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConsumerGroupModel)
public:
    enum Column { GroupId, State, Type, Protocol, Members, Coordinator, Simple, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1; // raw values for QSortFilterProxyModel

    explicit ConsumerGroupModel(QObject *parent = nullptr);

    void setGroups(QList<ConsumerGroupInfo> groups); // any order
    const QList<ConsumerGroupInfo> &groups() const { return m_groups; }
    const ConsumerGroupInfo *groupAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "client-1 @ /10.0.0.1: orders[0], orders[1]", one line per member.
    static QString describeMembers(const ConsumerGroupInfo &group);
    // "orders[0], orders[1]", and " -> target: ..." while a consumer-protocol member reconciles.
    static QString assignmentText(const GroupMember &member);
    static QString typeDescription(GroupType type); // what the group's type means, for a tooltip

private:
    QList<ConsumerGroupInfo> m_groups;
};

} // namespace md
