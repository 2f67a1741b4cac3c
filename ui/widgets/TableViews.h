#pragma once

#include <QAbstractItemView>
#include <QString>

class QTableView;
class QWidget;

namespace md {

struct TableViewOptions {
    QAbstractItemView::SelectionMode selectionMode = QAbstractItemView::ExtendedSelection;
    // One text line per row: no word wrap, rows a text line (plus padding)
    // high, so long values are elided instead of making rows uneven.
    bool compactRows = true;
};

// The look every data table of the browse and admin panes shares: whole rows
// selected, alternating row colours, sorting by a click on a column header,
// no row numbers, the last column stretched to the view's width.
// Called after setModel, sorting applies at once (QTableView's own rule).
void setUpTableView(QTableView *view, const TableViewOptions &options = {});

// A new QTableView set up as above; `objectName` names it for tests.
QTableView *makeTableView(QWidget *parent, const QString &objectName = {}, const TableViewOptions &options = {});

} // namespace md
