#pragma once

#include "engine/admin/AdminService.h"
#include "engine/mirror/MetricsSnapshot.h"
#include "model/monitor/LagStatus.h"
#include "model/monitor/MetricStore.h"
#include "model/tables/KeyedMerge.h"

namespace md {

// A partition of the job's consumer group that another member (another instance of the
// profile) owns, from the group's description and committed offsets. There is no mirrored
// offset, rate or lag status for it here: that member's own monitor has those.
struct OtherMemberPartition {
    PartitionMetrics metrics; // topic, partition, committed and end offsets; lag from the commit
    QString owner;            // for people: the member's instance id, else "client id @ host"
    QString ownerDetail;      // member id, client id, host, instance id (a tooltip)
};

// How a member is named in the monitor: its group.instance.id, else "client.id @ host".
QString memberDisplayName(const GroupMember &member);
// The partitions the group's description assigns to members other than this one (known by
// its member id or its instance id; either may be empty), with the figures `groupPartitions`
// (GroupLagSampler's per-partition metrics of the group) has for them. Sorted.
QList<OtherMemberPartition> partitionsOfOtherMembers(const ConsumerGroupInfo &group,
                                                     const QList<PartitionMetrics> &groupPartitions,
                                                     const QString &selfMemberId, const QString &selfInstanceId);

// The per-partition table of a job monitor, kept in (topic, partition) order: one row per
// assigned partition of the latest snapshot (owner "this window"), and one per partition
// another member of the job's group owns (setOtherMembers; a partition in both is this
// window's). Each update is one bulk change: rows removed and inserted only where the
// assignment changed, then one dataChanged per run of changed rows, never a reset per tick,
// so selection and scroll position survive.
// Sort through a QSortFilterProxyModel with sortRole = SortRole (raw numbers, not text).
class PartitionTableModel final : public MergingTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PartitionTableModel)

public:
    enum Column {
        TopicColumn,
        PartitionColumn,
        TargetTopicColumn,
        EndOffsetColumn,
        MirroredOffsetColumn,
        CommittedOffsetColumn,
        LagColumn,
        LagTimeColumn, // lag in time: the age of the next record to copy or read
        CatchUpColumn, // time to catch up at the partition's smoothed drain rate
        RateColumn,
        StatusColumn,
        OwnerColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // raw value: qint64 offsets (-1 unknown), double rate, status severity
        StatusRole,                  // int(PartitionLagStatus), any column; invalid for another member's row
        OwnedHereRole,               // bool, any column: this window's job copies the partition
    };

    explicit PartitionTableModel(QObject *parent = nullptr);
    ~PartitionTableModel() override;

    // From MetricStore::partitionTable(): metrics, rate and status already worked out.
    void setRows(QList<MetricStore::PartitionRow> rows);
    // Standalone use: works out the rate from the previous snapshot; statuses default to OK.
    void applySnapshot(const MetricsSnapshot &snapshot, const QHash<PartitionKey, PartitionLagStatus> &statuses = {});
    // The partitions other members of the job's group own (replaces the previous list).
    void setOtherMembers(QList<OtherMemberPartition> partitions);
    void clear();

    PartitionKey keyAt(int row) const;
    int rowOf(const PartitionKey &key) const; // -1 when absent

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        MetricStore::PartitionRow data;
        bool mine = true; // this window's; otherwise another member's
        QString owner;    // another member's name
        QString ownerDetail;
    };
    static bool sameDisplay(const Row &a, const Row &b);
    QList<Row> merged() const;
    void apply(const QList<Row> &rows);

    QList<MetricStore::PartitionRow> m_own; // sorted by (topic, partition), unique
    QList<OtherMemberPartition> m_others;   // sorted, unique
    QList<Row> m_rows;                      // what is shown: both, sorted by (topic, partition)
    MetricsSnapshot m_previous;             // for applySnapshot's rates
};

} // namespace md
