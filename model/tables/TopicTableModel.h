#pragma once

#include "engine/admin/ClusterMetadata.h"
#include "model/tables/KeyedMerge.h"

#include <QSortFilterProxyModel>

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

// The topic list as a cluster pane shows it: sorted by any column, filtered by a substring
// of the name (case-insensitive). Names are compared and matched on the source's rows
// directly: through data() and QVariant (and a regular expression for the filter), clearing
// a filter over 10,000 topics re-sorted them for ~150 ms, well past a frame.
class TopicFilterModel final : public QSortFilterProxyModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TopicFilterModel)
public:
    explicit TopicFilterModel(TopicTableModel *source, QObject *parent = nullptr);

    void setNameFilter(const QString &text);
    QString nameFilter() const { return m_needle; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    TopicTableModel *m_source;
    QString m_needle;
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
