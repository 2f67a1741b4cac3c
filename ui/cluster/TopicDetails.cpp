#include "ui/cluster/TopicDetails.h"

#include "model/tables/PartitionDetailModel.h"
#include "model/tables/TopicConfigModel.h"
#include "ui/widgets/TableViews.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace md {

TopicDetails::TopicDetails(QWidget *parent)
    : QWidget(parent), m_partitions(new PartitionDetailModel(this)), m_configs(new TopicConfigModel(this)),
      m_partitionProxy(new QSortFilterProxyModel(this)), m_configProxy(new QSortFilterProxyModel(this)),
      m_summary(new QLabel(this)), m_configStatus(new QLabel(this)), m_tabs(new QTabWidget(this)),
      m_partitionView(makeTableView(this, QStringLiteral("partitions"))),
      m_configView(makeTableView(this, QStringLiteral("configs")))
{
    setObjectName(QStringLiteral("topicDetails"));
    m_summary->setObjectName(QStringLiteral("topicSummary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_summary->setText(tr("Select a topic to see its partitions and configs."));
    m_configStatus->setObjectName(QStringLiteral("configStatus"));
    m_configStatus->setTextFormat(Qt::PlainText);
    m_configStatus->setWordWrap(true);

    m_partitionProxy->setSourceModel(m_partitions);
    m_partitionProxy->setSortRole(PartitionDetailModel::SortRole);
    m_partitionView->setModel(m_partitionProxy);
    m_partitionView->sortByColumn(PartitionDetailModel::Partition, Qt::AscendingOrder);

    m_configProxy->setSourceModel(m_configs);
    m_configProxy->setSortRole(TopicConfigModel::SortRole);
    m_configProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_configProxy->setFilterKeyColumn(TopicConfigModel::Name);
    m_configView->setModel(m_configProxy);
    m_configView->sortByColumn(TopicConfigModel::Name, Qt::AscendingOrder);
    m_configView->horizontalHeader()->setSectionResizeMode(TopicConfigModel::Name, QHeaderView::ResizeToContents);

    auto *configFilter = new QLineEdit(this);
    configFilter->setObjectName(QStringLiteral("configFilter"));
    configFilter->setPlaceholderText(tr("Filter configs"));
    configFilter->setClearButtonEnabled(true);
    connect(configFilter, &QLineEdit::textChanged, m_configProxy, &QSortFilterProxyModel::setFilterFixedString);

    auto *configPage = new QWidget(this);
    auto *configLayout = new QVBoxLayout(configPage);
    configLayout->setContentsMargins(0, 4, 0, 0);
    configLayout->addWidget(configFilter);
    configLayout->addWidget(m_configStatus);
    configLayout->addWidget(m_configView, 1);

    m_tabs->setObjectName(QStringLiteral("detailTabs"));
    m_tabs->addTab(m_partitionView, tr("Partitions"));
    m_tabs->addTab(configPage, tr("Configs"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addWidget(m_tabs, 1);
}

TopicDetails::~TopicDetails() = default;

void TopicDetails::setTopic(const QString &name, const TopicInfo *info)
{
    if (name != m_topic) {
        m_topic = name;
        m_configs->clear();
        m_configStatus->clear();
        m_partitions->clear();
    }
    if (!info) {
        m_partitions->clear();
        m_summary->setText(name.isEmpty() ? tr("Select a topic to see its partitions and configs.")
                                          : tr("Topic %1 is not in the latest metadata.").arg(name));
        return;
    }
    m_partitions->setPartitions(info->partitions);
    QString text = tr("%1 \u00b7 %n partition(s)", nullptr, int(info->partitions.size())).arg(info->name) +
                   QStringLiteral(" \u00b7 ") + tr("replication factor %1").arg(info->replicationFactor());
    if (info->internal)
        text += QStringLiteral(" \u00b7 ") + tr("internal");
    const int under = m_partitions->underReplicatedCount();
    if (under > 0)
        text += QStringLiteral(" \u00b7 ") + tr("%n under-replicated", nullptr, under);
    if (!info->error.isEmpty())
        text += QStringLiteral(" \u00b7 ") + info->error;
    m_summary->setText(text);
}

void TopicDetails::setConfigs(const QString &topic, const QList<ConfigEntry> &configs)
{
    if (topic != m_topic)
        return; // an answer for a topic no longer shown
    m_configs->setConfigs(configs);
    m_configStatus->setStyleSheet({});
    int dynamic = 0;
    for (const ConfigEntry &e : configs)
        dynamic += e.source == ConfigSource::Dynamic ? 1 : 0;
    m_configStatus->setText(tr("%n config(s)", nullptr, int(configs.size())) + QStringLiteral(" \u00b7 ") +
                            tr("%n set on this topic", nullptr, dynamic));
}

void TopicDetails::setConfigsError(const QString &topic, const QString &error)
{
    if (topic != m_topic)
        return;
    m_configStatus->setStyleSheet(QStringLiteral("color: #c01c28;"));
    m_configStatus->setText(tr("Could not read the configs: %1").arg(error));
}

void TopicDetails::setConfigsLoading(const QString &topic)
{
    if (topic != m_topic || m_configs->rowCount() > 0)
        return; // keep showing the previous answer while a refresh runs
    m_configStatus->setStyleSheet({});
    m_configStatus->setText(tr("Reading configs \u2026"));
}

QString TopicDetails::summaryText() const
{
    return m_summary->text();
}

QString TopicDetails::configStatusText() const
{
    return m_configStatus->text();
}

} // namespace md
