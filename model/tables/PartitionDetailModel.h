#pragma once

#include "engine/admin/ClusterMetadata.h"
#include "model/tables/KeyedMerge.h"

namespace md {

// The partitions of one topic as the latest metadata shows them, merged by
// partition id on every refresh (selection and scroll position survive).
// Under-replicated (ISR smaller than the replica set) and offline (no leader)
// partitions are marked in the Status column and with a background colour.
class PartitionDetailModel final : public MergingTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PartitionDetailModel)
public:
    enum Column { Partition, Leader, Replicas, Isr, LowWatermark, HighWatermark, Messages, Status, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1, // raw values for QSortFilterProxyModel
        UnderReplicatedRole,         // bool, any column
        OfflineRole,                 // bool, any column
    };

    explicit PartitionDetailModel(QObject *parent = nullptr);

    void setPartitions(QList<PartitionInfo> partitions); // any order
    void clear();
    const QList<PartitionInfo> &partitions() const { return m_partitions; }
    int underReplicatedCount() const;

    static bool isUnderReplicated(const PartitionInfo &p) { return p.isr.size() < p.replicas.size(); }
    static bool isOffline(const PartitionInfo &p) { return p.leader < 0; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<PartitionInfo> m_partitions; // sorted by id
};

} // namespace md
