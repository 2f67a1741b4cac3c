#pragma once

#include "engine/mirror/MetricsSnapshot.h"
#include "model/tables/KeyedMerge.h"

#include <QList>

namespace md {

// The groups a running job syncs to the target (MetricsSnapshot::groups), one
// row per group, sorted by name; a refresh merges (no reset), so selection and
// scroll position survive the 250 ms ticks.
class GroupSyncTableModel final : public MergingTableModel {
    Q_OBJECT
public:
    enum Column { GroupColumn, PartitionsColumn, LagColumn, LastSyncColumn, NoteColumn, ColumnCount };

    using MergingTableModel::MergingTableModel;

    void setGroups(const QList<GroupSyncMetrics> &groups);
    const QList<GroupSyncMetrics> &groups() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<GroupSyncMetrics> m_rows;
};

} // namespace md
