#include "model/acl/AclFilterProxy.h"

#include "model/tables/AclTableModel.h"

#include <QSet>

#include <algorithm>

namespace md {

AclFilterProxy::AclFilterProxy(AclTableModel *source, QObject *parent) : QSortFilterProxyModel(parent), m_source(source)
{
    setSourceModel(source);
    setSortRole(AclTableModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void AclFilterProxy::update(QString &field, const QString &value)
{
    const QString v = value.trimmed();
    if (v == field)
        return;
    field = v;
    // Rows only: the columns never depend on the filter.
    invalidateRowsFilter();
}

void AclFilterProxy::setPrincipalFilter(const QString &text)
{
    update(m_principal, text);
}

void AclFilterProxy::setResourceTypeFilter(const QString &type)
{
    update(m_resourceType, type);
}

void AclFilterProxy::setResourceNameFilter(const QString &text)
{
    update(m_resourceName, text);
}

void AclFilterProxy::setOperationFilter(const QString &operation)
{
    update(m_operation, operation);
}

void AclFilterProxy::clearFilters()
{
    if (!isFiltering())
        return;
    m_principal.clear();
    m_resourceType.clear();
    m_resourceName.clear();
    m_operation.clear();
    invalidateRowsFilter();
}

bool AclFilterProxy::isFiltering() const
{
    return !m_principal.isEmpty() || !m_resourceType.isEmpty() || !m_resourceName.isEmpty() || !m_operation.isEmpty();
}

bool AclFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (sourceParent.isValid() || sourceRow < 0 || sourceRow >= m_source->acls().size())
        return false;
    // The binding itself, not the display texts: no QVariant per cell and row.
    const AclEntry &e = m_source->acls().at(sourceRow);
    return (m_principal.isEmpty() || e.principal.contains(m_principal, Qt::CaseInsensitive)) &&
           (m_resourceType.isEmpty() || e.resourceType.compare(m_resourceType, Qt::CaseInsensitive) == 0) &&
           (m_resourceName.isEmpty() || e.resourceName.contains(m_resourceName, Qt::CaseInsensitive)) &&
           (m_operation.isEmpty() || e.operation.compare(m_operation, Qt::CaseInsensitive) == 0);
}

QList<AclEntry> AclFilterProxy::bindingsAt(const QModelIndexList &indexes) const
{
    QList<int> rows;
    for (const QModelIndex &index : indexes) {
        if (index.model() == this && index.isValid())
            rows.append(index.row());
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    QList<AclEntry> out;
    out.reserve(rows.size());
    for (int row : std::as_const(rows)) {
        const int sourceRow = mapToSource(index(row, 0)).row();
        if (sourceRow >= 0 && sourceRow < m_source->acls().size())
            out.append(m_source->acls().at(sourceRow));
    }
    return out;
}

QList<int> AclFilterProxy::rowsOf(const QList<AclEntry> &bindings) const
{
    QSet<QString> wanted;
    for (const AclEntry &b : bindings)
        wanted.insert(aclKey(b));
    QList<int> rows;
    const QList<AclEntry> &all = m_source->acls();
    for (int sourceRow = 0; sourceRow < all.size(); ++sourceRow) {
        if (!wanted.contains(aclKey(all.at(sourceRow))))
            continue;
        const QModelIndex shown = mapFromSource(m_source->index(sourceRow, 0));
        if (shown.isValid())
            rows.append(shown.row());
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

} // namespace md
