#pragma once

// Helpers the MM2 importer and exporter share (model/mm2/Mm2Import.cpp,
// model/mm2/Mm2Export.cpp): list syntax, secret names, JAAS lines, keystore kinds.
// Internal to the model library.

#include <QMap>
#include <QString>
#include <QStringList>

struct rd_kafka_conf_s; // librdkafka's rd_kafka_conf_t

namespace md::mm2 {

const QStringList &mm2DefaultExclude();

// MM2's default groups.exclude (MirrorCheckpointConfig): console consumers,
// Connect's workers and Kafka's internal groups.
const QStringList &mm2DefaultGroupExclude();

// MM2's default sync.group.offsets.interval.seconds and emit.checkpoints.interval.seconds.
inline constexpr int kMm2GroupIntervalSeconds = 60;
// MM2's default sync.topic.acls.interval.seconds (sync.topic.acls.enabled is true by default).
inline constexpr int kMm2AclIntervalSeconds = 600;

// The MM2 keys of a flow's group selection, group offset sync and checkpoints
// (read per flow, "A->B.key", or at the top level; never per cluster), but
// the deprecated groups.blacklist.
bool isFlowGroupKey(const QString &key);

// The MM2 keys of a flow's ACL sync (MirrorSourceConnector's sync.topic.acls.*),
// read per flow or at the top level like the group keys.
bool isFlowAclKey(const QString &key);

// MM2's LIST type: comma separated, white space around items ignored.
QStringList splitList(const QString &value);

bool isSecretName(const QString &key);

bool isClearValue(const QString &value);

QString envName(const QString &alias, const QString &what);

// "eu.consumer.ssl.keystore.password" -> MIRRORDESK_EU_CONSUMER_SSL_KEYSTORE_PASSWORD
QString envNameForKey(const QString &key);

// Java's Boolean.parseBoolean: "true" in any case is true, anything else false.
bool javaBool(const QString &v);

// Cluster settings side() maps itself rather than as free client properties.
bool isSpecialClusterKey(const QString &rest);

enum class RdKafkaName { Unknown, Valid, InvalidValue };

// Whether librdkafka knows a client property (and takes the value), asked of
// one librdkafka configuration object an import keeps for all its properties.
// Building one (rd_kafka_conf_new sets every one of librdkafka's defaults) costs
// far more than a check, and an answer does not depend on what was set on it
// before: librdkafka looks each name up and parses its value on its own, and
// the only property with a setter of its own (plugin.library.paths) is refused
// before anything is set.
class RdKafkaPropertyCheck final {
public:
    RdKafkaPropertyCheck() = default;
    ~RdKafkaPropertyCheck();
    RdKafkaPropertyCheck(const RdKafkaPropertyCheck &) = delete;
    RdKafkaPropertyCheck &operator=(const RdKafkaPropertyCheck &) = delete;

    // *why gets the reason, except for secret-named properties whose message could repeat the value.
    RdKafkaName check(const QString &name, const QString &value, QString *why);

private:
    rd_kafka_conf_s *m_conf = nullptr; // built at the first check
};

// Set by the engine itself for its guarantees; a profile may not override them.
bool isEngineOwned(const QString &name);

struct JaasLine {
    QString loginModule;
    QMap<QString, QString> options;
    QString error;
};

// "com.example.LoginModule required key="value" key2=value2;"
JaasLine parseJaas(const QString &text);

QString jaasQuote(const QString &s);

bool looksPem(const QString &location, const QString &type);

bool looksPkcs12(const QString &location, const QString &type);

// Why a key of an mm2.properties that no flow used stays out of the profiles
// (key without its cluster or flow prefix).
QString leftoverReason(const QString &key);

} // namespace md::mm2
