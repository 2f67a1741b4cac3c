#pragma once

#include "engine/admin/AdminService.h"
#include "engine/admin/ClusterMetadata.h"

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace md {

class PartitionDetailModel;
class TopicConfigModel;

// The selected topic below the topic list: its partitions (leader, replicas,
// ISR, watermarks; under-replicated ones marked) and its configs with their
// source. Pure view: ClusterPane feeds it metadata and DescribeConfigs answers.
class TopicDetails final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TopicDetails)
public:
    explicit TopicDetails(QWidget *parent = nullptr);
    ~TopicDetails() override;

    QString topic() const { return m_topic; }
    // Shows `info` (null: no topic selected, or it is gone). A different topic
    // clears the configs until setConfigs brings them.
    void setTopic(const QString &name, const TopicInfo *info);
    void setConfigs(const QString &topic, const QList<ConfigEntry> &configs);
    void setConfigsError(const QString &topic, const QString &error);
    void setConfigsLoading(const QString &topic);

    PartitionDetailModel *partitionModel() const { return m_partitions; }
    TopicConfigModel *configModel() const { return m_configs; }
    QTableView *partitionView() const { return m_partitionView; }
    QTableView *configView() const { return m_configView; }
    QString summaryText() const;
    QString configStatusText() const;

private:
    QString m_topic;
    PartitionDetailModel *m_partitions;
    TopicConfigModel *m_configs;
    QSortFilterProxyModel *m_partitionProxy;
    QSortFilterProxyModel *m_configProxy;
    QLabel *m_summary;
    QLabel *m_configStatus;
    QTabWidget *m_tabs;
    QTableView *m_partitionView;
    QTableView *m_configView;
};

} // namespace md
