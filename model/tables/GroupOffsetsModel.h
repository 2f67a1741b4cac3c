#pragma once

#include "engine/admin/AdminService.h"
#include "model/tables/KeyedMerge.h"

namespace md {

// One group's committed offset, end offset and lag per partition, merged by
// (topic, partition). A partition without a committed offset shows "none" in
// both the committed and the lag column (SortRole: -1), never 0.
class GroupOffsetsModel final : public MergingTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GroupOffsetsModel)
public:
    enum Column { Topic, Partition, Committed, EndOffset, Lag, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit GroupOffsetsModel(QObject *parent = nullptr);

    // Replaces the rows (another group: clear() first so nothing is mistaken for an update).
    void setOffsets(const QString &groupId, QList<GroupPartitionOffset> offsets);
    void clear();
    QString groupId() const { return m_groupId; }
    const QList<GroupPartitionOffset> &offsets() const { return m_rows; }
    // Sum of the known lags; -1 when no partition has a committed offset.
    qint64 totalLag() const;
    // A share group's position is each share partition's start offset, not a
    // commit: the column and its "none" say so.
    void setShareGroup(bool share);
    bool shareGroup() const { return m_share; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString m_groupId;
    QList<GroupPartitionOffset> m_rows;
    bool m_share = false;
};

} // namespace md
