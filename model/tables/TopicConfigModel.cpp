#include "model/tables/TopicConfigModel.h"

#include <QColor>
#include <QMap>

#include <algorithm>

namespace md {

TopicConfigModel::TopicConfigModel(QObject *parent) : MergingTableModel(parent)
{
}

void TopicConfigModel::setConfigs(QList<ConfigEntry> configs)
{
    // Ordered by name through a map, not std::sort: GCC 12 at -O2 warns (an
    // error here) about swapping the std::optional<QString> inside ConfigEntry.
    // A duplicate name would break the merge's key order; the first one stays.
    QMap<QString, ConfigEntry> byName;
    for (ConfigEntry &e : configs)
        if (!byName.contains(e.name))
            byName.insert(e.name, std::move(e));
    mergeSortedRows(m_configs, QList<ConfigEntry>(byName.cbegin(), byName.cend()),
                    [](const ConfigEntry &e) -> const QString & { return e.name; });
}

void TopicConfigModel::clear()
{
    setConfigs({});
}

int TopicConfigModel::rowOf(const QString &name) const
{
    const auto it = std::lower_bound(m_configs.cbegin(), m_configs.cend(), name,
                                     [](const ConfigEntry &e, const QString &n) { return e.name < n; });
    return it != m_configs.cend() && it->name == name ? int(it - m_configs.cbegin()) : -1;
}

const ConfigEntry *TopicConfigModel::entry(const QString &name) const
{
    const int row = rowOf(name);
    return row >= 0 ? &m_configs[row] : nullptr;
}

QString TopicConfigModel::maskedValue(const ConfigEntry &entry)
{
    if (entry.sensitive)
        return QStringLiteral("******");
    return entry.value.value_or(QString());
}

int TopicConfigModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_configs.size());
}

int TopicConfigModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TopicConfigModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ConfigEntry &e = m_configs[index.row()];
    switch (role) {
    case Qt::DisplayRole:
    case SortRole:
        switch (index.column()) {
        case Name: return e.name;
        case Value:
            if (role == Qt::DisplayRole && !e.sensitive && !e.value)
                return tr("(not set)");
            return maskedValue(e);
        case Source: return configSourceName(e.source);
        case ReadOnly:
            return role == SortRole ? QVariant(e.readOnly) : QVariant(e.readOnly ? tr("read-only") : QString());
        }
        return {};
    case SourceRole: return int(e.source);
    case SensitiveRole: return e.sensitive;
    case Qt::ForegroundRole:
        // Values set on this topic stand out from inherited ones (a colour,
        // not a font: the model is used without a QGuiApplication too).
        if (e.source == ConfigSource::Dynamic)
            return QColor(0x1a, 0x5f, 0xb4);
        return {};
    case Qt::ToolTipRole:
        if (e.sensitive)
            return tr("Sensitive value: not shown");
        if (index.column() == Source) {
            switch (e.source) {
            case ConfigSource::Default: return tr("The broker's built-in default");
            case ConfigSource::Dynamic: return tr("Set on this topic");
            case ConfigSource::DynamicBroker: return tr("A dynamic broker-wide or cluster-wide default");
            case ConfigSource::Static: return tr("From the broker's server.properties");
            case ConfigSource::Unknown: return tr("The broker did not say");
            }
        }
        return {};
    }
    return {};
}

QVariant TopicConfigModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Config");
    case Value: return tr("Value");
    case Source: return tr("Source");
    case ReadOnly: return tr("Read-only");
    }
    return {};
}

} // namespace md
