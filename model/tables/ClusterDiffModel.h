#pragma once

#include "model/cluster/ClusterDiff.h"

#include <QAbstractItemModel>

namespace md {

// A ClusterDiff as a tree: one row per topic, its partitions as children. Topic rows carry
// the partition counts, message counts, the records behind (or ahead, negative) and every
// difference in words; partition rows the end offsets and message counts side by side.
// With differencesOnly, topics in sync are left out (their partitions with them).
class ClusterDiffModel final : public QAbstractItemModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterDiffModel)
public:
    enum Column {
        NameColumn, // topic (source name), or "partition N"
        TargetTopicColumn,
        StatusColumn,
        SourcePartitionsColumn,
        TargetPartitionsColumn,
        SourceEndColumn, // partition rows
        TargetEndColumn,
        SourceCountColumn, // messages (high - low watermark)
        TargetCountColumn,
        DifferenceColumn, // source end - target end (records behind; negative: ahead)
        DetailsColumn,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int DifferentRole = Qt::UserRole + 2; // bool: the row differs

    explicit ClusterDiffModel(QObject *parent = nullptr);

    void setDiff(const ClusterDiff &diff);
    const ClusterDiff &diff() const { return m_diff; }
    void setDifferencesOnly(bool on);
    bool differencesOnly() const { return m_differencesOnly; }

    // The diff of the topic at a top-level row (nullptr when out of range).
    const TopicDiff *topicAt(int row) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuildVisible();
    QVariant topicData(const TopicDiff &t, int column, int role) const;
    QVariant partitionData(const PartitionDiff &p, int column, int role) const;

    ClusterDiff m_diff;
    QList<int> m_visible; // indices into m_diff.topics, in row order
    bool m_differencesOnly = false;
};

} // namespace md
