#pragma once

#include "LagStatus.h"
#include "MetricStore.h"
#include "MetricsSnapshot.h"

#include <QAbstractTableModel>

namespace md {

// The per-partition table of a job monitor: one row per assigned partition of the latest
// snapshot, kept in (topic, partition) order. Each update is one bulk change: rows removed and
// inserted only where the assignment changed, then one dataChanged per run of changed rows,
// never a reset per tick, so selection and scroll position survive.
// Sort through a QSortFilterProxyModel with sortRole = SortRole (raw numbers, not text).
class PartitionTableModel final : public QAbstractTableModel
{
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
        RateColumn,
        StatusColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // raw value: qint64 offsets (-1 unknown), double rate, status severity
        StatusRole,                  // int(PartitionLagStatus), any column
    };

    explicit PartitionTableModel(QObject *parent = nullptr);
    ~PartitionTableModel() override;

    // From MetricStore::partitionTable(): metrics, rate and status already worked out.
    void setRows(QList<MetricStore::PartitionRow> rows);
    // Standalone use: works out the rate from the previous snapshot; statuses default to OK.
    void applySnapshot(const MetricsSnapshot &snapshot,
                       const QHash<PartitionKey, PartitionLagStatus> &statuses = {});
    void clear();

    PartitionKey keyAt(int row) const;
    int rowOf(const PartitionKey &key) const; // -1 when absent

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    static bool sameDisplay(const MetricStore::PartitionRow &a, const MetricStore::PartitionRow &b);

    QList<MetricStore::PartitionRow> m_rows; // sorted by (topic, partition)
    MetricsSnapshot m_previous;               // for applySnapshot's rates
};

} // namespace md
