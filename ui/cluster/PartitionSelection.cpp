#include "ui/cluster/PartitionSelection.h"

#include "model/tables/PartitionTableModel.h"
#include "ui/charts/LagMapWidget.h"

#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>

namespace md {

bool selectPartitionRow(QTableView *view, const PartitionKey &key, QLineEdit *filter)
{
    auto *proxy = qobject_cast<QSortFilterProxyModel *>(view->model());
    auto *source = qobject_cast<PartitionTableModel *>(proxy ? proxy->sourceModel() : view->model());
    if (!source)
        return false;
    const int row = source->rowOf(key);
    if (row < 0)
        return false;
    const QModelIndex sourceIndex = source->index(row, PartitionTableModel::TopicColumn);
    QModelIndex index = proxy ? proxy->mapFromSource(sourceIndex) : sourceIndex;
    if (!index.isValid() && filter && !filter->text().isEmpty()) {
        filter->clear(); // the proxy follows the line edit at once
        index = proxy->mapFromSource(sourceIndex);
    }
    if (!index.isValid())
        return false;
    view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    view->scrollTo(index, QAbstractItemView::PositionAtCenter);
    return true;
}

void followLagMapClicks(LagMapWidget *map, QTableView *view, QLineEdit *filter)
{
    QObject::connect(map, &LagMapWidget::partitionClicked, view, [view, filter](const QString &topic, int partition) {
        selectPartitionRow(view, PartitionKey{topic, partition}, filter);
    });
}

} // namespace md
