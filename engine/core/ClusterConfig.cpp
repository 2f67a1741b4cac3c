#include "engine/core/ClusterConfig.h"

#include "engine/core/CertificateCheck.h"
#include "engine/core/ClientProperties.h"
#include "engine/core/OpenSslExit.h"

#include <QUuid>

namespace md {

QString securityProtocolName(SecurityProtocol p)
{
    switch (p) {
    case SecurityProtocol::Plaintext: return QStringLiteral("plaintext");
    case SecurityProtocol::Ssl: return QStringLiteral("ssl");
    case SecurityProtocol::SaslPlaintext: return QStringLiteral("sasl_plaintext");
    case SecurityProtocol::SaslSsl: return QStringLiteral("sasl_ssl");
    }
    return QStringLiteral("plaintext");
}

bool parseSecurityProtocol(const QString &name, SecurityProtocol *out)
{
    const QString n = name.trimmed().toLower();
    for (auto p : {SecurityProtocol::Plaintext, SecurityProtocol::Ssl, SecurityProtocol::SaslPlaintext,
                   SecurityProtocol::SaslSsl}) {
        if (securityProtocolName(p) == n) {
            *out = p;
            return true;
        }
    }
    return false;
}

QString setConf(rd_kafka_conf_t *conf, const QString &key, const QString &value)
{
    char errstr[512];
    const QByteArray k = key.toUtf8();
    const QByteArray v = value.toUtf8();
    if (rd_kafka_conf_set(conf, k.constData(), v.constData(), errstr, sizeof errstr) != RD_KAFKA_CONF_OK)
        return key + QStringLiteral(": ") + QString::fromUtf8(errstr);
    return {};
}

bool operatorSet(const ClusterConfig &cluster, const QMap<QString, QString> &roleProperties, const QString &key)
{
    return cluster.properties.contains(key) || roleProperties.contains(key);
}

void setConfDefault(rd_kafka_conf_t *conf, const ClusterConfig &cluster, const QMap<QString, QString> &roleProperties,
                    const QString &key, const QString &value)
{
    if (!operatorSet(cluster, roleProperties, key))
        setConf(conf, key, value);
}

QString kafkaErrorText(rd_kafka_resp_err_t err)
{
    return QString::fromUtf8(rd_kafka_err2str(err));
}

ConfResult makeKafkaConf(const ClusterConfig &cluster, ClientRole role, const QMap<QString, QString> &overrides)
{
    disableOpenSslExitCleanup(); // before librdkafka first initialises OpenSSL
    KafkaConfPtr conf(rd_kafka_conf_new());
    QMap<QString, QString> props;
    props.insert(QStringLiteral("bootstrap.servers"), cluster.bootstrap);
    props.insert(QStringLiteral("security.protocol"), securityProtocolName(cluster.security));
    // Silence librdkafka's stderr logger; errors reach us through callbacks and results.
    props.insert(QStringLiteral("log_level"), QStringLiteral("3"));
    const bool sasl =
        cluster.security == SecurityProtocol::SaslPlaintext || cluster.security == SecurityProtocol::SaslSsl;
    const bool ssl = cluster.security == SecurityProtocol::Ssl || cluster.security == SecurityProtocol::SaslSsl;
    if (sasl) {
        props.insert(QStringLiteral("sasl.mechanisms"),
                     cluster.saslMechanism.isEmpty() ? QStringLiteral("PLAIN") : cluster.saslMechanism);
        props.insert(QStringLiteral("sasl.username"), cluster.saslUsername);
        props.insert(QStringLiteral("sasl.password"), cluster.saslPassword);
    }
    if (ssl) {
        if (!cluster.sslCaFile.isEmpty())
            props.insert(QStringLiteral("ssl.ca.location"), cluster.sslCaFile);
        if (!cluster.sslCertFile.isEmpty())
            props.insert(QStringLiteral("ssl.certificate.location"), cluster.sslCertFile);
        if (!cluster.sslKeyFile.isEmpty())
            props.insert(QStringLiteral("ssl.key.location"), cluster.sslKeyFile);
        if (!cluster.sslKeyPassword.isEmpty())
            props.insert(QStringLiteral("ssl.key.password"), cluster.sslKeyPassword);
    }
    // Role defaults, under anything the operator sets. librdkafka 2.x holds
    // off fetching a partition whose prefetch queue was full for
    // fetch.queue.backoff.ms, 1000 ms by default: a consumer that keeps up
    // only just (the mirror engine, verify) then drains its queue and idles
    // for most of that second. 10 ms keeps the fetches coming; it more than
    // doubled the engine's copy rate (docs/PERFORMANCE.md).
    if (role == ClientRole::Consumer)
        props.insert(QStringLiteral("fetch.queue.backoff.ms"), QStringLiteral("10"));
    props.insert(cluster.properties);
    switch (role) {
    case ClientRole::Admin: props.insert(cluster.adminProperties); break;
    case ClientRole::Consumer: props.insert(cluster.consumerProperties); break;
    case ClientRole::Producer: props.insert(cluster.producerProperties); break;
    }
    props.insert(overrides);
    for (auto it = props.cbegin(); it != props.cend(); ++it) {
        // Checked here too, whatever validated the properties before: the engine never sets one.
        if (const QString why = refusedClientPropertyReason(it.key()); !why.isEmpty())
            return {nullptr, it.key().trimmed() + QStringLiteral(": refused: ") + why};
        if (QString err = setConf(conf.get(), it.key(), it.value()); !err.isEmpty())
            return {nullptr, err};
    }
    // Harmless without TLS; with it, a refused certificate is reported with its reason.
    installCertificateCheck(conf.get());
    return {std::move(conf), {}};
}

QString offsetFetchGroupId()
{
    return QStringLiteral("mirrordesk-admin-") + QUuid::createUuid().toString(QUuid::Id128);
}

} // namespace md
