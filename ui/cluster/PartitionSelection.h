#pragma once

#include "model/monitor/LagStatus.h"

class QLineEdit;
class QTableView;

namespace md {

class LagMapWidget;

// Makes `key` the current, selected row of `view` (a PartitionTableModel, directly or behind
// one QSortFilterProxyModel) and scrolls it into the middle. A row the proxy filters out is
// brought back by clearing `filter`, the line edit that drives the proxy (when given).
// False when the table has no such partition (a lag map row no longer assigned).
bool selectPartitionRow(QTableView *view, const PartitionKey &key, QLineEdit *filter = nullptr);

// A click on the lag map selects its partition in the table.
void followLagMapClicks(LagMapWidget *map, QTableView *view, QLineEdit *filter);

} // namespace md
