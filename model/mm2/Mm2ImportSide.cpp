// One cluster of an mm2.properties as a profile side: bootstrap, security, TLS and SASL,
// and the client overrides librdkafka understands (the rest is explained, not dropped).

#include "model/mm2/Mm2Importer.h"

#include "model/mm2/Mm2Support.h"

#include <QMap>

namespace md::mm2 {

QString Importer::secret(const QString &value, const QString &variable, const QString &description, int line)
{
    if (const auto ref = SecretRef::whole(value); ref && ref->kind == QLatin1String("env"))
        return value;
    for (const Mm2SecretVariable &v : std::as_const(m_result.variables)) {
        if (v.name == variable)
            return QStringLiteral("${env:") + variable + QLatin1Char('}');
    }
    const QString from =
        SecretRef::whole(value) ? QStringLiteral("read by an MM2 config provider") : QStringLiteral("written in clear");
    m_result.variables << Mm2SecretVariable{
        variable, QStringLiteral("%1 (line %2, %3 there)").arg(description).arg(line).arg(from)};
    return QStringLiteral("${env:") + variable + QLatin1Char('}');
}

void Importer::side(const QString &alias, ProfileSide *s, bool isSource)
{
    s->alias = alias;
    if (const auto e = take(alias + QStringLiteral(".bootstrap.servers")))
        s->bootstrap = e->value.trimmed();
    else
        m_result.notes
            << QStringLiteral("cluster %1 has no %1.bootstrap.servers: fill in source/target bootstrap").arg(alias);

    const QString protoKey = clusterKey(alias, QStringLiteral("security.protocol"));
    if (const auto e = clusterValue(alias, QStringLiteral("security.protocol"))) {
        if (!parseSecurityProtocol(e->value, &s->security)) {
            m_used.remove(protoKey);
            unmapped(protoKey,
                     QStringLiteral("unknown security protocol (expected PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL)"));
        }
    }
    const bool sasl = s->security == SecurityProtocol::SaslPlaintext || s->security == SecurityProtocol::SaslSsl;

    // SASL: mechanism, and user and password from the JAAS line.
    const QString mechKey = clusterKey(alias, QStringLiteral("sasl.mechanism"));
    const std::optional<Entry> mech = clusterValue(alias, QStringLiteral("sasl.mechanism"));
    const QString jaasKey = clusterKey(alias, QStringLiteral("sasl.jaas.config"));
    const std::optional<Entry> jaas = clusterValue(alias, QStringLiteral("sasl.jaas.config"));
    if (mech) {
        const QString m = mech->value.trimmed().toUpper();
        if (m == QLatin1String("PLAIN") || m == QLatin1String("SCRAM-SHA-256") || m == QLatin1String("SCRAM-SHA-512")) {
            s->hasSasl = true;
            s->saslMechanism = m;
        } else {
            m_used.remove(mechKey);
            unmapped(mechKey,
                     QStringLiteral("mechanism %1 is not supported by MirrorDesk profiles (PLAIN, SCRAM-SHA-256, "
                                    "SCRAM-SHA-512)")
                         .arg(m));
        }
    }
    if (jaas) {
        const JaasLine j = parseJaas(jaas->value);
        const QString module = j.loginModule.section(QLatin1Char('.'), -1);
        if (!j.error.isEmpty()) {
            m_used.remove(jaasKey);
            unmapped(jaasKey, QStringLiteral("unreadable JAAS line: ") + j.error);
        } else if (module != QLatin1String("ScramLoginModule") && module != QLatin1String("PlainLoginModule")) {
            m_used.remove(jaasKey);
            unmapped(
                jaasKey,
                QStringLiteral("login module %1 is not supported (ScramLoginModule or PlainLoginModule)").arg(module));
        } else {
            s->hasSasl = true;
            if (!mech) {
                // Java would default to GSSAPI here and fail; the login module says what was meant.
                s->saslMechanism = module == QLatin1String("PlainLoginModule") ? QStringLiteral("PLAIN")
                                                                               : QStringLiteral("SCRAM-SHA-512");
                m_result.notes << QStringLiteral(
                                      "cluster %1: no sasl.mechanism given; %2 assumed from the JAAS login module")
                                      .arg(alias, s->saslMechanism);
            }
            s->saslUsername = j.options.value(QStringLiteral("username"));
            const QString password = j.options.value(QStringLiteral("password"));
            if (!password.isEmpty())
                s->saslPassword =
                    secret(password, envName(alias, QStringLiteral("PASSWORD")),
                           QStringLiteral("password of SASL user \"%1\" on cluster %2").arg(s->saslUsername, alias),
                           jaas->line);
            for (auto it = j.options.constBegin(); it != j.options.constEnd(); ++it) {
                if (it.key() != QLatin1String("username") && it.key() != QLatin1String("password"))
                    m_result.notes
                        << QStringLiteral(
                               "cluster %1: JAAS option %2 (line %3) has no MirrorDesk equivalent and was left out")
                               .arg(alias, it.key())
                               .arg(jaas->line);
            }
        }
    }
    if (s->hasSasl && !sasl)
        m_result.notes << QStringLiteral(
                              "cluster %1: SASL settings given but security.protocol is %2; they are kept but unused")
                              .arg(alias, securityProtocolName(s->security));

    // TLS: librdkafka reads PEM files (and PKCS#12 keystores), not Java keystores.
    const std::optional<Entry> trustType = clusterValue(alias, QStringLiteral("ssl.truststore.type"));
    const QString trustLocKey = clusterKey(alias, QStringLiteral("ssl.truststore.location"));
    const std::optional<Entry> trustLoc = clusterValue(alias, QStringLiteral("ssl.truststore.location"));
    const QString trustPassKey = clusterKey(alias, QStringLiteral("ssl.truststore.password"));
    const std::optional<Entry> trustPass = clusterValue(alias, QStringLiteral("ssl.truststore.password"));
    if (trustLoc) {
        if (looksPem(trustLoc->value, trustType ? trustType->value : QString())) {
            s->sslCa = trustLoc->value.trimmed();
            if (trustPass) // a PEM truststore needs no password
                m_used.insert(trustPassKey);
        } else {
            m_used.remove(trustLocKey);
            unmapped(trustLocKey,
                     QStringLiteral("a Java truststore: librdkafka reads PEM files; convert it (keytool -exportcert "
                                    "-rfc -keystore FILE -alias ALIAS -file ca.pem) and set %1.ssl.ca in the profile")
                         .arg(isSource ? QStringLiteral("source") : QStringLiteral("target")));
            if (trustPass) {
                m_used.remove(trustPassKey);
                unmapped(trustPassKey, QStringLiteral("belongs to the Java truststore above (not needed for PEM)"));
            }
        }
    } else if (trustPass) {
        m_used.remove(trustPassKey);
        unmapped(trustPassKey, QStringLiteral("no truststore location to go with it"));
    }
    const std::optional<Entry> keyType = clusterValue(alias, QStringLiteral("ssl.keystore.type"));
    const QString keyLocKey = clusterKey(alias, QStringLiteral("ssl.keystore.location"));
    const std::optional<Entry> keyLoc = clusterValue(alias, QStringLiteral("ssl.keystore.location"));
    const QString keyPassKey = clusterKey(alias, QStringLiteral("ssl.keystore.password"));
    const std::optional<Entry> keyPass = clusterValue(alias, QStringLiteral("ssl.keystore.password"));
    const std::optional<Entry> keyKeyPass = clusterValue(alias, QStringLiteral("ssl.key.password"));
    const QString typeName = keyType ? keyType->value : QString();
    if (keyLoc && looksPem(keyLoc->value, typeName)) {
        // A PEM keystore holds the certificate chain and the private key in one file.
        s->sslCert = keyLoc->value.trimmed();
        s->sslKey = keyLoc->value.trimmed();
        if (keyKeyPass && !keyKeyPass->value.isEmpty())
            s->sslKeyPassword =
                secret(keyKeyPass->value, envName(alias, QStringLiteral("SSL_KEY_PASSWORD")),
                       QStringLiteral("password of the TLS private key of cluster %1").arg(alias), keyKeyPass->line);
        if (keyPass)
            m_used.insert(keyPassKey);
    } else if (keyLoc && looksPkcs12(keyLoc->value, typeName)) {
        s->properties.insert(QStringLiteral("ssl.keystore.location"), keyLoc->value.trimmed());
        if (keyPass && !keyPass->value.isEmpty())
            s->properties.insert(QStringLiteral("ssl.keystore.password"),
                                 secret(keyPass->value, envName(alias, QStringLiteral("KEYSTORE_PASSWORD")),
                                        QStringLiteral("password of the PKCS#12 keystore of cluster %1").arg(alias),
                                        keyPass->line));
        if (keyKeyPass)
            m_result.notes << QStringLiteral(
                                  "cluster %1: ssl.key.password is not used with a PKCS#12 keystore in librdkafka")
                                  .arg(alias);
    } else if (keyLoc) {
        m_used.remove(keyLocKey);
        unmapped(keyLocKey,
                 QStringLiteral("a Java keystore: librdkafka reads PEM or PKCS#12; convert it (keytool -importkeystore "
                                "-srckeystore FILE -destkeystore client.p12 -deststoretype PKCS12) and set "
                                "ssl.keystore.location, or give PEM files as ssl.cert and ssl.key"));
        for (const QString &k : {keyPassKey, clusterKey(alias, QStringLiteral("ssl.key.password"))}) {
            if (m_entries.contains(k)) {
                m_used.remove(k);
                unmapped(k, QStringLiteral("belongs to the Java keystore above"));
            }
        }
    } else {
        for (const QString &k : {keyPassKey, clusterKey(alias, QStringLiteral("ssl.key.password"))}) {
            if (m_entries.contains(k)) {
                m_used.remove(k);
                unmapped(k, QStringLiteral("no keystore location to go with it"));
            }
        }
    }
    if (const auto e = clusterValue(alias, QStringLiteral("ssl.endpoint.identification.algorithm"))) {
        const QString v = e->value.trimmed().toLower();
        if (v.isEmpty())
            s->properties.insert(QStringLiteral("ssl.endpoint.identification.algorithm"), QStringLiteral("none"));
        else if (v != QLatin1String("https"))
            s->properties.insert(QStringLiteral("ssl.endpoint.identification.algorithm"), v);
    }

    // Free client properties of this cluster: "A.name", "A.consumer.name",
    // "A.producer.name", "A.admin.name". Only names librdkafka knows are taken.
    const QString prefix = alias + QLatin1Char('.');
    for (auto it = m_entries.constBegin(); it != m_entries.constEnd(); ++it) {
        if (!it.key().startsWith(prefix))
            continue;
        QString rest = it.key().mid(prefix.size());
        if (isSpecialClusterKey(rest) || isFlowGroupKey(rest) || isFlowAclKey(rest))
            continue; // a group or ACL setting per cluster is listed with the leftovers
        QMap<QString, QString> *target = &s->properties;
        QString role;
        for (const char *r : {"consumer.", "producer.", "admin."}) {
            if (rest.startsWith(QLatin1String(r))) {
                role = QString::fromLatin1(r);
                rest = rest.mid(role.size());
            }
        }
        if (role == QLatin1String("consumer.")) {
            if (!isSource) {
                // Listed at the end unless the cluster is a source in another flow.
                m_roleReason.insert(it.key(), QStringLiteral("MirrorDesk consumes from the source only (MM2 uses this "
                                                             "consumer for offset syncs and checkpoints)"));
                continue;
            }
            target = &s->consumerProperties;
        } else if (role == QLatin1String("producer.")) {
            if (isSource) {
                m_roleReason.insert(it.key(), QStringLiteral("MirrorDesk produces to the target only (MM2 uses this "
                                                             "producer for offset syncs)"));
                continue;
            }
            target = &s->producerProperties;
        } else if (role == QLatin1String("admin.")) {
            target = &s->adminProperties;
        }
        clientProperty(it.key(), rest, it->value, target);
    }
}

void Importer::clientProperty(const QString &key, const QString &name, const QString &value,
                              QMap<QString, QString> *target)
{
    if (name == QLatin1String("auto.offset.reset"))
        return; // mapped to the start position by the caller
    if (name == QLatin1String("isolation.level") && value.trimmed() == QLatin1String("read_committed")) {
        m_used.insert(key); // what the engine always reads with (and MM2's exactly-once needs)
        return;
    }
    if (isEngineOwned(name)) {
        unmapped(key,
                 QStringLiteral("the mirror engine sets %1 itself (its delivery guarantee depends on it)").arg(name));
        return;
    }
    QString why;
    switch (m_rdkafka.check(name, value, &why)) {
    case RdKafkaName::Unknown:
        unmapped(key, QStringLiteral("%1 is a Java client property that librdkafka does not have").arg(name));
        return;
    case RdKafkaName::InvalidValue: unmapped(key, why); return;
    case RdKafkaName::Valid: break;
    }
    m_used.insert(key);
    if (isSecretName(name) && isClearValue(value))
        target->insert(
            name, secret(value, envNameForKey(key), QStringLiteral("value of %1").arg(key), m_entries.value(key).line));
    else
        target->insert(name, value);
}

} // namespace md::mm2
