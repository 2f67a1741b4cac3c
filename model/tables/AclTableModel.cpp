#include "model/tables/AclTableModel.h"

#include <QColor>

#include <algorithm>

namespace md {

AclTableModel::AclTableModel(QObject *parent) : MergingTableModel(parent)
{
}

QString AclTableModel::key(const AclEntry &e)
{
    // A unit separator cannot occur in principals or resource names that matter here,
    // so the joined string orders and identifies a binding like the tuple would.
    const QChar sep(0x1f);
    return e.resourceType + sep + e.resourceName + sep + e.patternType + sep + e.principal + sep + e.host + sep +
           e.operation + sep + e.permission;
}

void AclTableModel::setAcls(QList<AclEntry> acls)
{
    std::sort(acls.begin(), acls.end(), [](const AclEntry &a, const AclEntry &b) { return key(a) < key(b); });
    acls.erase(std::unique(acls.begin(), acls.end()), acls.end());
    mergeSortedRows(m_acls, acls, [](const AclEntry &e) { return key(e); });
}

void AclTableModel::clear()
{
    setAcls({});
}

int AclTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_acls.size());
}

int AclTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AclTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const AclEntry &e = m_acls[index.row()];
    if (role == Qt::DisplayRole || role == SortRole) {
        switch (index.column()) {
        case ResourceType: return e.resourceType;
        case ResourceName: return e.resourceName;
        case PatternType: return e.patternType;
        case Principal: return e.principal;
        case Host: return e.host;
        case Operation: return e.operation;
        case Permission: return e.permission;
        }
        return {};
    }
    if (role == Qt::ForegroundRole && index.column() == Permission && e.permission == QLatin1String("DENY"))
        return QColor(0xc0, 0x1c, 0x28);
    return {};
}

QVariant AclTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ResourceType: return tr("Type"); // short: the page fits a half-width pane
    case ResourceName: return tr("Resource");
    case PatternType: return tr("Pattern");
    case Principal: return tr("Principal");
    case Host: return tr("Host");
    case Operation: return tr("Operation");
    case Permission: return tr("Permission");
    }
    return {};
}

} // namespace md
