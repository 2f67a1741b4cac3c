#pragma once

#include "ClusterMetadata.h"
#include "KeyedMerge.h"

namespace md {

// Topics of one cluster, merged by name on every refresh.
class TopicTableModel final : public MergingTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TopicTableModel)
public:
    enum Column { Name, Partitions, ReplicationFactor, Messages, Internal, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1; // raw values for QSortFilterProxyModel

    explicit TopicTableModel(QObject *parent = nullptr);

    void setTopics(const QList<TopicInfo> &topics); // sorted by name, as ClusterMetadata has them
    const QList<TopicInfo> &topics() const { return m_topics; }
    const TopicInfo *topicAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<TopicInfo> m_topics;
};

class BrokerTableModel final : public MergingTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BrokerTableModel)
public:
    enum Column { Id, Address, Rack, Controller, ColumnCount };

    explicit BrokerTableModel(QObject *parent = nullptr);
    void setBrokers(const QList<BrokerInfo> &brokers); // sorted by id

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<BrokerInfo> m_brokers;
};

} // namespace md
