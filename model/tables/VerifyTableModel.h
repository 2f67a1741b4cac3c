#pragma once

#include "engine/verify/Verifier.h"

#include <QAbstractTableModel>

#include <optional>

namespace md {

// The partitions of a verify run (VerifyJob), one row per source partition as
// it starts ("comparing…", records compared live) and then its verdict. A
// missing target topic is one row with partition -1 ("-"). Rows keep the
// order they arrived in; sort through a QSortFilterProxyModel with sortRole =
// SortRole (raw numbers).
class VerifyTableModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VerifyTableModel)
public:
    enum Column {
        TopicColumn, // "orders -> src.orders"
        PartitionColumn,
        StatusColumn,
        ComparedColumn,
        SourceCountColumn,
        TargetCountColumn,
        DuplicatesColumn,
        DifferenceColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1 };

    struct Row {
        QString sourceTopic;
        int partition = -1;
        qint64 compared = 0;
        std::optional<PartitionVerdict> verdict; // nullopt: still comparing
        bool cancelled = false;                  // the run ended before its verdict
    };

    explicit VerifyTableModel(QObject *parent = nullptr);
    ~VerifyTableModel() override;

    void clear();
    // A partition being read: its row appears (or its count moves).
    void setProgress(const QString &sourceTopic, int partition, qint64 compared);
    void setVerdict(const PartitionVerdict &verdict);
    // The run ended: rows still comparing say "cancelled".
    void cancelPending();
    const QList<Row> &rows() const { return m_rows; }
    int rowOf(const QString &sourceTopic, int partition) const; // -1: none
    // "comparing…", "cancelled", "match", "match with 2 duplicates", "different".
    static QString statusText(const Row &row);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    int ensureRow(const QString &sourceTopic, int partition);

    QList<Row> m_rows;
};

} // namespace md
