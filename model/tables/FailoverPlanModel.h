#pragma once

#include "engine/groupsync/GroupOffsetSync.h"

#include <QAbstractTableModel>

namespace md {

// A failover plan (GroupSyncPlan), one row per group and partition, in the
// plan's order: what `mirrordesk failover` prints, for the GUI's "Fail Over
// Consumer Groups…" preview. Sort through a QSortFilterProxyModel with
// sortRole = SortRole (raw numbers; -1 for none).
class FailoverPlanModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FailoverPlanModel)
public:
    enum Column {
        GroupColumn,
        TopicColumn,
        PartitionColumn,
        SourceOffsetColumn, // the source group's committed offset
        TargetOffsetColumn, // its translation on the target
        TargetNowColumn,    // the target group's committed offset now
        ReadAgainColumn,
        NotCopiedColumn, // records not on the target yet
        ActionColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit FailoverPlanModel(QObject *parent = nullptr);
    ~FailoverPlanModel() override;

    void setPlan(const GroupSyncPlan &plan); // one model reset
    void clear() { setPlan({}); }
    int groupCount() const { return int(m_groups.size()); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        int group = -1;
        int partition = -1; // index into the group's partitions
    };
    QList<GroupSyncEntry> m_groups;
    QList<Row> m_rows;
};

} // namespace md
