#include "ui/widgets/TableViews.h"

#include <QHeaderView>
#include <QTableView>

namespace md {

void setUpTableView(QTableView *view, const TableViewOptions &options)
{
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(options.selectionMode);
    view->setAlternatingRowColors(true);
    view->setSortingEnabled(true);
    view->verticalHeader()->hide();
    if (options.compactRows) {
        view->setWordWrap(false);
        view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    }
    view->horizontalHeader()->setStretchLastSection(true);
}

QTableView *makeTableView(QWidget *parent, const QString &objectName, const TableViewOptions &options)
{
    auto *view = new QTableView(parent);
    if (!objectName.isEmpty())
        view->setObjectName(objectName);
    setUpTableView(view, options);
    return view;
}

} // namespace md
