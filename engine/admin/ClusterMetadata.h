#pragma once

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>

namespace md {

struct BrokerInfo {
    int id = -1;
    QString host;
    int port = 0;
    QString rack; // broker.rack, from DescribeCluster; empty when unset or not answered
    bool controller = false;

    QString address() const { return host + QLatin1Char(':') + QString::number(port); }
    bool operator==(const BrokerInfo &) const = default;
};

struct PartitionInfo {
    int id = -1;
    int leader = -1;
    QList<int> replicas;
    QList<int> isr;
    QString error;            // a partition-level error reported by the broker, or empty
    qint64 lowWatermark = -1; // -1 when not fetched
    qint64 highWatermark = -1;

    bool operator==(const PartitionInfo &) const = default;
};

struct TopicInfo {
    QString name;
    bool internal = false;
    QString error;
    QList<PartitionInfo> partitions;

    int replicationFactor() const { return partitions.isEmpty() ? 0 : int(partitions.first().replicas.size()); }
    // High minus low watermark summed over partitions; -1 when any is unknown.
    qint64 messageCount() const;
    bool operator==(const TopicInfo &) const = default;
};

// What one metadata request saw of a cluster.
struct ClusterMetadata {
    QString bootstrap;
    QString clusterId;
    int controllerId = -1;
    QList<BrokerInfo> brokers; // sorted by id
    QList<TopicInfo> topics;   // sorted by name
    QDateTime fetchedAt;

    const TopicInfo *topic(const QString &name) const;
};

} // namespace md

Q_DECLARE_METATYPE(md::ClusterMetadata)
