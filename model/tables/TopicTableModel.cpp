#include "model/tables/TopicTableModel.h"

#include <QLocale>

namespace md {

TopicTableModel::TopicTableModel(QObject *parent) : MergingTableModel(parent)
{
}

void TopicTableModel::setTopics(const QList<TopicInfo> &topics)
{
    mergeSortedRows(m_topics, topics, [](const TopicInfo &t) -> const QString & { return t.name; });
}

TopicFilterModel::TopicFilterModel(TopicTableModel *source, QObject *parent)
    : QSortFilterProxyModel(parent), m_source(source)
{
    setSourceModel(source);
    setSortRole(TopicTableModel::SortRole);
}

void TopicFilterModel::setNameFilter(const QString &text)
{
    if (text == m_needle)
        return;
    m_needle = text;
    invalidateFilter();
}

bool TopicFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (sourceParent.isValid() || m_needle.isEmpty())
        return true;
    const TopicInfo *t = m_source->topicAt(sourceRow);
    return t && t->name.contains(m_needle, Qt::CaseInsensitive);
}

bool TopicFilterModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    if (left.column() == TopicTableModel::Name && right.column() == TopicTableModel::Name &&
        sortRole() == TopicTableModel::SortRole) {
        const TopicInfo *l = m_source->topicAt(left.row());
        const TopicInfo *r = m_source->topicAt(right.row());
        if (l && r) // what QVariant's compare of the two names answers, without building them
            return l->name < r->name;
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

const TopicInfo *TopicTableModel::topicAt(int row) const
{
    return row >= 0 && row < m_topics.size() ? &m_topics[row] : nullptr;
}

int TopicTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_topics.size());
}

int TopicTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TopicTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TopicInfo &t = m_topics[index.row()];
    if (role == Qt::DisplayRole || role == SortRole) {
        const bool display = role == Qt::DisplayRole;
        switch (index.column()) {
        case Name: return t.name;
        case Partitions: return int(t.partitions.size());
        case ReplicationFactor: return t.replicationFactor();
        case Messages: {
            const qint64 n = t.messageCount();
            if (n < 0)
                return display ? QVariant(QStringLiteral("?")) : QVariant(qint64(-1));
            return display ? QVariant(QLocale().toString(n)) : QVariant(n);
        }
        case Internal: return display ? QVariant(t.internal ? tr("yes") : QString()) : QVariant(t.internal);
        }
    }
    if (role == Qt::ToolTipRole && !t.error.isEmpty())
        return t.error;
    if (role == Qt::TextAlignmentRole && index.column() != Name)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant TopicTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Topic");
    case Partitions: return tr("Partitions");
    case ReplicationFactor: return tr("Replicas");
    case Messages: return tr("Messages");
    case Internal: return tr("Internal");
    }
    return {};
}

BrokerTableModel::BrokerTableModel(QObject *parent) : MergingTableModel(parent)
{
}

void BrokerTableModel::setBrokers(const QList<BrokerInfo> &brokers)
{
    mergeSortedRows(m_brokers, brokers, [](const BrokerInfo &b) { return b.id; });
}

int BrokerTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_brokers.size());
}

int BrokerTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BrokerTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const BrokerInfo &b = m_brokers[index.row()];
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Id: return b.id;
    case Address: return b.address();
    case Rack: return b.rack;
    case Controller: return b.controller ? tr("controller") : QString();
    }
    return {};
}

QVariant BrokerTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Id: return tr("Id");
    case Address: return tr("Address");
    case Rack: return tr("Rack");
    case Controller: return tr("Role");
    }
    return {};
}

} // namespace md
