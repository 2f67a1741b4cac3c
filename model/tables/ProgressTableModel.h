#pragma once

#include "engine/mirror/JobProgress.h"

#include <QAbstractTableModel>

namespace md {

// Where each partition of a job starts (JobProgress::partitions), one row per
// partition in the order given (readJobProgress: topic, then partition).
// Two uses, one column set:
//  - Reset (the reset dialog's preview): StartColumn is the new position, a number;
//  - Plan (the job editor's plan): StartColumn is PartitionStart::describe(),
//    "resumes at 1,234 (committed)", "starts at 0 (earliest, no progress)".
// No committed offset is "none", never 0 or a blank. Sort through a
// QSortFilterProxyModel with sortRole = SortRole (raw numbers; -1 for none).
class ProgressTableModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProgressTableModel)
public:
    enum Column {
        TopicColumn,
        PartitionColumn,
        LogStartColumn,
        EndColumn,
        CommittedColumn,
        StartColumn,
        ToCopyColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1 };
    enum class Mode { Reset, Plan };

    explicit ProgressTableModel(Mode mode = Mode::Reset, QObject *parent = nullptr);
    ~ProgressTableModel() override;

    Mode mode() const { return m_mode; }
    void setPartitions(const QList<PartitionStart> &partitions); // one model reset
    void clear() { setPartitions({}); }
    const QList<PartitionStart> &partitions() const { return m_rows; }
    qint64 totalToCopy() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    Mode m_mode;
    QList<PartitionStart> m_rows;
};

// "1,234": offsets and counts the way PartitionStart::describe() writes them.
QString formatOffset(qint64 value);
// "group mirrordesk-orders: Empty, no active members" / "... Stable, 2 active
// members: a on host1, b on host2" / "... no such group yet (no progress)".
QString describeGroup(const JobProgress &progress);
// "12,345 records to copy from 6 partitions (4 resume from committed progress)".
QString describeTotal(const JobProgress &progress);

} // namespace md
