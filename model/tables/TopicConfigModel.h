#pragma once

#include "engine/admin/AdminService.h"
#include "model/tables/KeyedMerge.h"

namespace md {

// One topic's configs as DescribeConfigs reports them, merged by name on every
// refresh so a view keeps its selection and scroll position. Sensitive values
// are never shown: the broker does not send them, and the model masks them anyway.
class TopicConfigModel final : public MergingTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TopicConfigModel)
public:
    enum Column { Name, Value, Source, ReadOnly, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1, // raw values for QSortFilterProxyModel
        SourceRole,                  // int(ConfigSource), any column
        SensitiveRole,               // bool, any column
    };

    explicit TopicConfigModel(QObject *parent = nullptr);

    void setConfigs(QList<ConfigEntry> configs); // any order
    void clear();
    const QList<ConfigEntry> &configs() const { return m_configs; }
    const ConfigEntry *entry(const QString &name) const;
    int rowOf(const QString &name) const; // -1 when absent

    static QString maskedValue(const ConfigEntry &entry); // what the Value column shows

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<ConfigEntry> m_configs; // sorted by name
};

} // namespace md
