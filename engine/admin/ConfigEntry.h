#pragma once

// Topic configs as DescribeConfigs reports them, and reading them in one
// request for many topics. Kept apart from AdminService.h so that engine code
// with its own metadata types (TopicSync) can use them too.

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <librdkafka/rdkafka.h>

#include <optional>

namespace md {

// Where a topic config's value comes from, as Kafka reports it.
enum class ConfigSource {
    Unknown,
    Default,       // the broker's built-in default
    Dynamic,       // set on this topic (kafka-configs / AlterConfigs)
    DynamicBroker, // a dynamic broker-wide or cluster-wide default
    Static,        // server.properties of the broker
};
QString configSourceName(ConfigSource source); // "default", "dynamic", "dynamic broker", "static"

struct ConfigEntry {
    QString name;
    std::optional<QString> value; // nullopt for sensitive or unset values
    ConfigSource source = ConfigSource::Unknown;
    bool readOnly = false;
    bool sensitive = false;
    bool isDefault = false;

    bool operator==(const ConfigEntry &) const = default;
};

ConfigEntry configEntryFrom(const rd_kafka_ConfigEntry_t *entry);

// One topic's configs, sorted by name, or why they could not be read.
struct DescribedTopicConfigs {
    QList<ConfigEntry> entries;
    QString error; // empty on success
    // The cluster does not serve DescribeConfigs at all (librdkafka's mock
    // cluster, the sandbox's): a fact about the cluster, not a failure.
    bool unsupported = false;

    bool ok() const { return error.isEmpty(); }
    bool operator==(const DescribedTopicConfigs &) const = default;
};
using TopicConfigsByName = QHash<QString, DescribedTopicConfigs>;

// DescribeConfigs for the given topics, batched (a few hundred topics per
// request). Every asked topic gets an entry: its configs or its error.
// Blocking: worker threads, the engine thread and headless commands only.
TopicConfigsByName describeTopicConfigEntries(rd_kafka_t *rk, const QStringList &topics, int timeoutMs);

// DescribeConfigs of one broker of the cluster (the first in the metadata):
// the broker-wide settings, which are the cluster's when all brokers agree.
DescribedTopicConfigs describeBrokerConfigEntries(rd_kafka_t *rk, int timeoutMs);

} // namespace md
