#pragma once

#include "engine/acl/Acl.h"

#include <QSortFilterProxyModel>

namespace md {

class AclTableModel;

// The ACLs tab's table as its filter row narrows it. A binding shows when its
// principal contains the principal text, its resource type is the chosen one,
// its resource name contains the resource text and its operation is the
// chosen one; an empty field does not narrow. Texts ignore case; the operation
// is matched as written (READ shows READ bindings, not ALL: what a principal
// may do is the access checker's question, not the filter's).
class AclFilterProxy final : public QSortFilterProxyModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AclFilterProxy)
public:
    explicit AclFilterProxy(AclTableModel *source, QObject *parent = nullptr);

    void setPrincipalFilter(const QString &text);
    void setResourceTypeFilter(const QString &type); // "TOPIC", ...; empty: any
    void setResourceNameFilter(const QString &text);
    void setOperationFilter(const QString &operation); // "READ", ...; empty: any
    void clearFilters();

    QString principalFilter() const { return m_principal; }
    QString resourceTypeFilter() const { return m_resourceType; }
    QString resourceNameFilter() const { return m_resourceName; }
    QString operationFilter() const { return m_operation; }
    bool isFiltering() const;

    // The bindings shown at these proxy indexes (any column), each once, in row order.
    QList<AclEntry> bindingsAt(const QModelIndexList &indexes) const;
    // The proxy rows showing these bindings, ascending; a binding filtered out has none.
    QList<int> rowsOf(const QList<AclEntry> &bindings) const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    void update(QString &field, const QString &value);

    AclTableModel *m_source;
    QString m_principal;
    QString m_resourceType;
    QString m_resourceName;
    QString m_operation;
};

} // namespace md
