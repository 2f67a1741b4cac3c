#pragma once

#include "engine/admin/AdminService.h"
#include "model/tables/KeyedMerge.h"

namespace md {

// A cluster's ACL bindings, merged by their full binding on every refresh.
class AclTableModel final : public MergingTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AclTableModel)
public:
    enum Column { ResourceType, ResourceName, PatternType, Principal, Host, Operation, Permission, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit AclTableModel(QObject *parent = nullptr);

    void setAcls(QList<AclEntry> acls); // any order; exact duplicates collapse
    void clear();
    const QList<AclEntry> &acls() const { return m_acls; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString key(const AclEntry &e);

private:
    QList<AclEntry> m_acls; // sorted by key()
};

} // namespace md
