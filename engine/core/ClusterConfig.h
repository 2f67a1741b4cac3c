#pragma once

#include "engine/core/KafkaHandles.h"
#include "engine/schema/SchemaRegistryConfig.h"

#include <QMap>
#include <QString>

namespace md {

enum class SecurityProtocol { Plaintext, Ssl, SaslPlaintext, SaslSsl };

QString securityProtocolName(SecurityProtocol p); // "plaintext", "sasl_ssl", ...
bool parseSecurityProtocol(const QString &name, SecurityProtocol *out);

// Which client a configuration is for: each may carry its own extra properties.
enum class ClientRole { Admin, Consumer, Producer };

// The group.id of an admin client that reads consumer groups' offsets
// (ListConsumerGroupOffsets): unique, never joined or committed to. Such a
// client needs a group of its own, see ProbeClient::createForGroupOffsets.
QString offsetFetchGroupId();

// Connection settings of one cluster, with secrets already resolved (the
// profile or the keychain resolves ${env:NAME} and references before this).
struct ClusterConfig {
    QString alias;     // short name, used by naming policies ("eu")
    QString bootstrap; // host:port[,host:port...]
    SecurityProtocol security = SecurityProtocol::Plaintext;
    QString saslMechanism; // PLAIN, SCRAM-SHA-256, SCRAM-SHA-512
    QString saslUsername;
    QString saslPassword;
    QString sslCaFile;
    QString sslCertFile;
    QString sslKeyFile;
    QString sslKeyPassword;
    QMap<QString, QString> properties;         // every client of this side
    QMap<QString, QString> consumerProperties; // the source consumer only
    QMap<QString, QString> producerProperties; // the target producer only
    QMap<QString, QString> adminProperties;    // admin/browse clients only
    SchemaRegistryConfig schemaRegistry;       // optional; decodes the browser's records

    bool operator==(const ClusterConfig &) const = default;
};

struct ConfResult {
    KafkaConfPtr conf;
    QString error; // empty when conf is set
};

// A librdkafka configuration for one client of this cluster: connection and
// security settings first, then the free properties (common, then role), then
// `overrides`, which the caller needs for correctness (they win). The error
// names the property librdkafka rejected.
ConfResult makeKafkaConf(const ClusterConfig &cluster, ClientRole role, const QMap<QString, QString> &overrides = {});

// Sets one property; on failure returns "property: librdkafka's reason".
QString setConf(rd_kafka_conf_t *conf, const QString &key, const QString &value);

// Sets a default the operator may override: unless `cluster`'s free
// properties or those of the role (`roleProperties`) name `key`.
void setConfDefault(rd_kafka_conf_t *conf, const ClusterConfig &cluster, const QMap<QString, QString> &roleProperties,
                    const QString &key, const QString &value);

// Whether the operator set `key` for this role (common or role properties).
bool operatorSet(const ClusterConfig &cluster, const QMap<QString, QString> &roleProperties, const QString &key);

// Text of a librdkafka error code.
QString kafkaErrorText(rd_kafka_resp_err_t err);

} // namespace md
