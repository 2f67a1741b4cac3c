#include "model/tables/MessageSortProxy.h"

#include "model/tables/MessageTableModel.h"

namespace md {

MessageSortProxy::MessageSortProxy(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(MessageTableModel::SortRole);
}

bool MessageSortProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const auto *model = qobject_cast<const MessageTableModel *>(sourceModel());
    const KafkaMessage *a = model ? model->messageAt(left.row()) : nullptr;
    const KafkaMessage *b = model ? model->messageAt(right.row()) : nullptr;
    if (a && b && sortRole() == MessageTableModel::SortRole && left.column() == right.column()) {
        switch (left.column()) {
        case MessageTableModel::Partition: return a->partition < b->partition;
        case MessageTableModel::Offset: return a->offset < b->offset;
        case MessageTableModel::Timestamp: return a->timestampMs < b->timestampMs;
        default: break;
        }
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace md
