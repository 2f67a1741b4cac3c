#pragma once

#include <QSortFilterProxyModel>

namespace md {

// The message table's sort: partition, offset and timestamp compared as the
// numbers they are, straight from the messages, the other columns as
// QSortFilterProxyModel compares them. The default compare fetches two
// QVariants per comparison: 100,000 rows took the UI thread 250-400 ms per
// sort (a read's answer is sorted once more when it arrives), this a few ms.
// The order is the same as the default's.
class MessageSortProxy final : public QSortFilterProxyModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MessageSortProxy)
public:
    explicit MessageSortProxy(QObject *parent = nullptr);

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
};

} // namespace md
