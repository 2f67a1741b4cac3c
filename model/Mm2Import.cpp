#include "Mm2Properties.h"
#include "Mm2Support.h"

#include <librdkafka/rdkafka.h>

#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QRegularExpression>
#include <QSet>
#include <QStringDecoder>

#include <algorithm>
#include <optional>

namespace md {

using namespace mm2;

// ------------------------------------------------------------------- import

namespace {

struct Entry {
    QString value;
    int line = 0;
};

class Importer final
{
public:
    Importer(const QByteArray &data, const QString &fileName) : m_fileName(fileName)
    {
        QList<JavaPropertiesError> errors;
        const QList<JavaProperty> props = parseJavaProperties(data, &errors);
        for (const JavaPropertiesError &e : errors)
            m_result.unmapped << Mm2Unmapped{e.line, QStringLiteral("(syntax)"), e.message};
        for (const JavaProperty &p : props) {
            if (const auto it = m_entries.constFind(p.key); it != m_entries.constEnd())
                m_result.unmapped << Mm2Unmapped{it->line, p.key, QStringLiteral("overridden by line %1").arg(p.line)};
            m_entries.insert(p.key, {p.value, p.line});
        }
    }

    Mm2ImportResult run()
    {
        const std::optional<Entry> clusters = take(QStringLiteral("clusters"));
        if (!clusters || splitList(clusters->value).isEmpty()) {
            m_result.error = QStringLiteral("%1: no \"clusters\" list (e.g. clusters = eu, dr): not an mm2.properties for "
                                            "dedicated mode")
                                 .arg(name());
            return m_result;
        }
        m_clusters = splitList(clusters->value);
        m_clusters.removeDuplicates();
        for (const QString &a : std::as_const(m_clusters)) {
            for (const QString &b : std::as_const(m_clusters)) {
                if (a == b)
                    continue;
                const std::optional<Entry> enabled = take(a + QStringLiteral("->") + b + QStringLiteral(".enabled"));
                if (enabled && javaBool(enabled->value))
                    m_flows << qMakePair(a, b);
            }
        }
        if (m_flows.isEmpty()) {
            m_result.error = QStringLiteral("%1: no enabled flow: MM2 runs a flow only with \"A->B.enabled = true\" "
                                            "(clusters: %2)")
                                 .arg(name(), m_clusters.join(QStringLiteral(", ")));
            return m_result;
        }
        // Understood: ${env:...} references need nothing more from MirrorDesk.
        for (auto it = m_entries.constBegin(); it != m_entries.constEnd(); ++it) {
            if (it.key() == QLatin1String("config.providers") || it.key().startsWith(QLatin1String("config.providers.")))
                m_used.insert(it.key());
        }
        for (const auto &[a, b] : std::as_const(m_flows))
            m_result.flows << flow(a, b);
        explainLeftovers();
        std::stable_sort(m_result.unmapped.begin(), m_result.unmapped.end(),
                         [](const Mm2Unmapped &x, const Mm2Unmapped &y) { return x.line < y.line; });
        return m_result;
    }

private:
    QString name() const { return m_fileName.isEmpty() ? QStringLiteral("mm2.properties") : m_fileName; }

    std::optional<Entry> take(const QString &key)
    {
        const auto it = m_entries.constFind(key);
        if (it == m_entries.constEnd())
            return std::nullopt;
        m_used.insert(key);
        return *it;
    }

    void unmapped(const QString &key, const QString &reason)
    {
        const auto it = m_entries.constFind(key);
        if (it == m_entries.constEnd() || m_explained.contains(key))
            return;
        m_explained.insert(key);
        m_result.unmapped << Mm2Unmapped{it->line, key, reason};
    }

    // A flow setting: "A->B.key", else the top-level "key".
    std::optional<Entry> flowValue(const QString &a, const QString &b, const QString &key)
    {
        if (auto e = take(a + QStringLiteral("->") + b + QLatin1Char('.') + key))
            return e;
        return take(key);
    }
    QString flowKey(const QString &a, const QString &b, const QString &key) const
    {
        const QString f = a + QStringLiteral("->") + b + QLatin1Char('.') + key;
        return m_entries.contains(f) ? f : key;
    }

    // A cluster setting: "A.key", else the top-level "key" (MM2 applies
    // top-level client settings to every cluster).
    std::optional<Entry> clusterValue(const QString &alias, const QString &key)
    {
        if (auto e = take(alias + QLatin1Char('.') + key))
            return e;
        return take(key);
    }
    QString clusterKey(const QString &alias, const QString &key) const
    {
        const QString c = alias + QLatin1Char('.') + key;
        return m_entries.contains(c) ? c : key;
    }

    // The password of a JAAS line or an ssl password: a ${env:} reference is
    // kept, anything else becomes a new environment variable.
    QString secret(const QString &value, const QString &variable, const QString &description, int line)
    {
        if (const auto ref = SecretRef::whole(value); ref && ref->kind == QLatin1String("env"))
            return value;
        for (const Mm2SecretVariable &v : std::as_const(m_result.variables)) {
            if (v.name == variable)
                return QStringLiteral("${env:") + variable + QLatin1Char('}');
        }
        const QString from = SecretRef::whole(value) ? QStringLiteral("read by an MM2 config provider")
                                                     : QStringLiteral("written in clear");
        m_result.variables << Mm2SecretVariable{variable, QStringLiteral("%1 (line %2, %3 there)").arg(description).arg(line).arg(from)};
        return QStringLiteral("${env:") + variable + QLatin1Char('}');
    }

    void side(const QString &alias, ProfileSide *s, bool isSource)
    {
        s->alias = alias;
        if (const auto e = take(alias + QStringLiteral(".bootstrap.servers")))
            s->bootstrap = e->value.trimmed();
        else
            m_result.notes << QStringLiteral("cluster %1 has no %1.bootstrap.servers: fill in source/target bootstrap").arg(alias);

        const QString protoKey = clusterKey(alias, QStringLiteral("security.protocol"));
        if (const auto e = clusterValue(alias, QStringLiteral("security.protocol"))) {
            if (!parseSecurityProtocol(e->value, &s->security)) {
                m_used.remove(protoKey);
                unmapped(protoKey, QStringLiteral("unknown security protocol (expected PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL)"));
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
                unmapped(mechKey, QStringLiteral("mechanism %1 is not supported by MirrorDesk profiles (PLAIN, SCRAM-SHA-256, "
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
                unmapped(jaasKey, QStringLiteral("login module %1 is not supported (ScramLoginModule or PlainLoginModule)").arg(module));
            } else {
                s->hasSasl = true;
                if (!mech) {
                    // Java would default to GSSAPI here and fail; the login module says what was meant.
                    s->saslMechanism = module == QLatin1String("PlainLoginModule") ? QStringLiteral("PLAIN")
                                                                                   : QStringLiteral("SCRAM-SHA-512");
                    m_result.notes << QStringLiteral("cluster %1: no sasl.mechanism given; %2 assumed from the JAAS login module")
                                          .arg(alias, s->saslMechanism);
                }
                s->saslUsername = j.options.value(QStringLiteral("username"));
                const QString password = j.options.value(QStringLiteral("password"));
                if (!password.isEmpty())
                    s->saslPassword = secret(password, envName(alias, QStringLiteral("PASSWORD")),
                                             QStringLiteral("password of SASL user \"%1\" on cluster %2").arg(s->saslUsername, alias),
                                             jaas->line);
                for (auto it = j.options.constBegin(); it != j.options.constEnd(); ++it) {
                    if (it.key() != QLatin1String("username") && it.key() != QLatin1String("password"))
                        m_result.notes << QStringLiteral("cluster %1: JAAS option %2 (line %3) has no MirrorDesk equivalent and was left out")
                                              .arg(alias, it.key())
                                              .arg(jaas->line);
                }
            }
        }
        if (s->hasSasl && !sasl)
            m_result.notes << QStringLiteral("cluster %1: SASL settings given but security.protocol is %2; they are kept but unused")
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
                unmapped(trustLocKey, QStringLiteral("a Java truststore: librdkafka reads PEM files; convert it (keytool -exportcert "
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
                s->sslKeyPassword = secret(keyKeyPass->value, envName(alias, QStringLiteral("SSL_KEY_PASSWORD")),
                                           QStringLiteral("password of the TLS private key of cluster %1").arg(alias), keyKeyPass->line);
            if (keyPass)
                m_used.insert(keyPassKey);
        } else if (keyLoc && looksPkcs12(keyLoc->value, typeName)) {
            s->properties.insert(QStringLiteral("ssl.keystore.location"), keyLoc->value.trimmed());
            if (keyPass && !keyPass->value.isEmpty())
                s->properties.insert(QStringLiteral("ssl.keystore.password"),
                                     secret(keyPass->value, envName(alias, QStringLiteral("KEYSTORE_PASSWORD")),
                                            QStringLiteral("password of the PKCS#12 keystore of cluster %1").arg(alias), keyPass->line));
            if (keyKeyPass)
                m_result.notes << QStringLiteral("cluster %1: ssl.key.password is not used with a PKCS#12 keystore in librdkafka").arg(alias);
        } else if (keyLoc) {
            m_used.remove(keyLocKey);
            unmapped(keyLocKey, QStringLiteral("a Java keystore: librdkafka reads PEM or PKCS#12; convert it (keytool -importkeystore "
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
            if (isSpecialClusterKey(rest))
                continue;
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

    void clientProperty(const QString &key, const QString &name, const QString &value, QMap<QString, QString> *target)
    {
        if (name == QLatin1String("auto.offset.reset"))
            return; // mapped to the start position by the caller
        if (name == QLatin1String("isolation.level") && value.trimmed() == QLatin1String("read_committed")) {
            m_used.insert(key); // what the engine always reads with (and MM2's exactly-once needs)
            return;
        }
        if (isEngineOwned(name)) {
            unmapped(key, QStringLiteral("the mirror engine sets %1 itself (its delivery guarantee depends on it)").arg(name));
            return;
        }
        QString why;
        switch (checkRdKafkaProperty(name, value, &why)) {
        case RdKafkaName::Unknown:
            unmapped(key, QStringLiteral("%1 is a Java client property that librdkafka does not have").arg(name));
            return;
        case RdKafkaName::InvalidValue:
            unmapped(key, why);
            return;
        case RdKafkaName::Valid: break;
        }
        m_used.insert(key);
        if (isSecretName(name) && isClearValue(value))
            target->insert(name, secret(value, envNameForKey(key), QStringLiteral("value of %1").arg(key),
                                        m_entries.value(key).line));
        else
            target->insert(name, value);
    }

    Mm2Flow flow(const QString &a, const QString &b)
    {
        Mm2Flow f;
        f.sourceAlias = a;
        f.targetAlias = b;
        JobProfile &p = f.profile;
        p.name = a + QStringLiteral(" to ") + b;
        p.fileName = f.fileName();
        side(a, &p.source, true);
        side(b, &p.target, false);
        // Flow-level client overrides ("A->B.consumer.x" is the source consumer).
        const QString flowPrefix = a + QStringLiteral("->") + b + QLatin1Char('.');
        for (auto it = m_entries.constBegin(); it != m_entries.constEnd(); ++it) {
            if (!it.key().startsWith(flowPrefix))
                continue;
            const QString rest = it.key().mid(flowPrefix.size());
            if (rest.startsWith(QLatin1String("consumer.")))
                clientProperty(it.key(), rest.mid(9), it->value, &p.source.consumerProperties);
            else if (rest.startsWith(QLatin1String("producer.")))
                clientProperty(it.key(), rest.mid(9), it->value, &p.target.producerProperties);
        }

        // Where to start: MM2 resumes from its own offsets, else the consumer's auto.offset.reset (earliest).
        const QString resetKey = a + QStringLiteral(".consumer.auto.offset.reset");
        const QString flowResetKey = flowPrefix + QStringLiteral("consumer.auto.offset.reset");
        std::optional<Entry> reset = take(flowResetKey);
        if (!reset)
            reset = take(resetKey);
        p.start = StartPosition::Committed;
        if (reset) {
            const QString v = reset->value.trimmed().toLower();
            if (v == QLatin1String("latest")) {
                p.start = StartPosition::Latest;
                m_result.notes << QStringLiteral("%1->%2: auto.offset.reset=latest became \"start\": \"latest\" (skips what the "
                                                 "source holds when the job first starts)")
                                      .arg(a, b);
            } else if (v != QLatin1String("earliest")) {
                m_used.remove(m_entries.contains(flowResetKey) ? flowResetKey : resetKey);
                unmapped(m_entries.contains(flowResetKey) ? flowResetKey : resetKey,
                         QStringLiteral("only earliest and latest have an equivalent"));
            }
        }

        // Topics.
        if (const auto e = flowValue(a, b, QStringLiteral("topics")))
            p.include = splitList(e->value);
        else
            p.include = {QStringLiteral(".*")};
        if (p.include.isEmpty()) {
            unmapped(flowKey(a, b, QStringLiteral("topics")), QStringLiteral("an empty topic list mirrors nothing; \".*\" used"));
            p.include = {QStringLiteral(".*")};
        }
        const std::optional<Entry> exclude = flowValue(a, b, QStringLiteral("topics.exclude"));
        // The deprecated name counts only where topics.exclude is not given (as in MM2).
        const std::optional<Entry> blacklist = exclude ? std::nullopt : flowValue(a, b, QStringLiteral("topics.blacklist"));
        if (exclude)
            p.exclude = splitList(exclude->value);
        else if (blacklist)
            p.exclude = splitList(blacklist->value);
        else
            p.exclude = mm2DefaultExclude();
        p.excludeInternalTopics = true;

        // Naming.
        const QString policyKey = flowKey(a, b, QStringLiteral("replication.policy.class"));
        const std::optional<Entry> policy = flowValue(a, b, QStringLiteral("replication.policy.class"));
        if (const auto sep = flowValue(a, b, QStringLiteral("replication.policy.separator")))
            p.separator = sep->value;
        else
            p.separator = QStringLiteral(".");
        p.naming = NamingPolicy::Prefix;
        if (policy) {
            const QString cls = policy->value.trimmed();
            if (cls == QLatin1String(kMm2IdentityPolicy) || cls.endsWith(QLatin1String(".IdentityReplicationPolicy"))) {
                p.naming = NamingPolicy::Identity;
            } else if (cls != QLatin1String(kMm2DefaultPolicy) && !cls.endsWith(QLatin1String(".DefaultReplicationPolicy"))) {
                m_used.remove(policyKey);
                unmapped(policyKey, QStringLiteral("custom replication policy %1: DefaultReplicationPolicy naming (prefix) used "
                                                   "instead")
                                        .arg(cls));
            }
        }
        if (p.separator.isEmpty()) {
            unmapped(flowKey(a, b, QStringLiteral("replication.policy.separator")), QStringLiteral("an empty separator; \".\" used"));
            p.separator = QStringLiteral(".");
        }

        // Sync options.
        if (const auto e = flowValue(a, b, QStringLiteral("sync.topic.configs.enabled")))
            p.syncTopicConfigs = javaBool(e->value);
        if (const auto e = flowValue(a, b, QStringLiteral("config.properties.exclude")))
            p.configExclude = splitList(e->value);
        else if (const auto e2 = flowValue(a, b, QStringLiteral("config.properties.blacklist")))
            p.configExclude = splitList(e2->value);
        const QString refreshKey = flowKey(a, b, QStringLiteral("refresh.topics.interval.seconds"));
        if (const auto e = flowValue(a, b, QStringLiteral("refresh.topics.interval.seconds"))) {
            bool ok = false;
            const qint64 seconds = e->value.trimmed().toLongLong(&ok);
            if (!ok || seconds <= 0) {
                m_used.remove(refreshKey);
                unmapped(refreshKey, QStringLiteral("not a positive number of seconds"));
            } else {
                const qint64 ms = qBound(qint64(JobProfile::MinTopicRefreshIntervalMs), seconds * 1000,
                                                 qint64(JobProfile::MaxTopicRefreshIntervalMs));
                p.topicRefreshIntervalMs = int(ms);
                if (ms != seconds * 1000)
                    m_result.notes << QStringLiteral("%1->%2: topic refresh interval limited to %3 s").arg(a, b).arg(ms / 1000);
            }
        }
        delivery(a, b, &p);

        // Features MirrorDesk does not have: fine when they are switched off.
        for (const char *k : {"sync.topic.acls.enabled", "emit.checkpoints.enabled", "emit.heartbeats.enabled",
                              "sync.group.offsets.enabled", "emit.offset-syncs.enabled", "refresh.groups.enabled"}) {
            const QString key = QString::fromLatin1(k);
            const QString where = flowKey(a, b, key);
            if (const auto e = flowValue(a, b, key); e && javaBool(e->value)) {
                m_used.remove(where);
                unmapped(where, QStringLiteral("MirrorDesk has no equivalent (it mirrors records, partitions and topic configs; "
                                               "not ACLs, checkpoints, heartbeats or group offsets)"));
            }
        }
        if (const auto e = flowValue(a, b, QStringLiteral("refresh.topics.enabled")); e && !javaBool(e->value)) {
            m_used.remove(flowKey(a, b, QStringLiteral("refresh.topics.enabled")));
            unmapped(flowKey(a, b, QStringLiteral("refresh.topics.enabled")),
                     QStringLiteral("MirrorDesk always picks up new matching topics"));
        }
        return f;
    }

    // Exactly-once (KIP-618): MM2's workers for flows into B run transactions
    // with "B.exactly.once.source.support = enabled"; a connector may insist
    // with "exactly.once.support = required" (MM2 then refuses to run it without).
    void delivery(const QString &a, const QString &b, JobProfile *p)
    {
        const QString workerKey = b + QStringLiteral(".exactly.once.source.support");
        const std::optional<Entry> worker = take(workerKey);
        const QString support = worker ? worker->value.trimmed().toLower() : QString();
        if (worker && support != QLatin1String("enabled") && support != QLatin1String("preparing")
            && support != QLatin1String("disabled")) {
            m_used.remove(workerKey);
            unmapped(workerKey, QStringLiteral("expected enabled, preparing or disabled"));
        }
        const QString connectorKey = flowKey(a, b, QStringLiteral("exactly.once.support"));
        const std::optional<Entry> connector = flowValue(a, b, QStringLiteral("exactly.once.support"));
        const QString level = connector ? connector->value.trimmed().toLower() : QString();
        if (connector && level != QLatin1String("required") && level != QLatin1String("requested")) {
            m_used.remove(connectorKey);
            unmapped(connectorKey, QStringLiteral("expected required or requested"));
        }
        if (support == QLatin1String("enabled"))
            take(QStringLiteral("dedicated.mode.enable.internal.rest")); // MM2's own part of exactly-once
        if (support == QLatin1String("enabled") || level == QLatin1String("required")) {
            p->delivery = DeliveryGuarantee::ExactlyOnce;
            if (support != QLatin1String("enabled"))
                m_result.notes << QStringLiteral("%1->%2: exactly.once.support=required without %2.exactly.once.source.support="
                                                 "enabled (MM2 would not start the flow): imported as exactly-once")
                                      .arg(a, b);
        } else if (support == QLatin1String("preparing")) {
            m_result.notes << QStringLiteral("%1->%2: %2.exactly.once.source.support=preparing (MM2 half way to exactly-once): "
                                             "imported as at-least-once")
                                  .arg(a, b);
        }
        // MM2's "interval" boundary is MirrorDesk's transaction interval; its default ("poll") has no number to take.
        const std::optional<Entry> boundary = flowValue(a, b, QStringLiteral("transaction.boundary"));
        const QString intervalKey = flowKey(a, b, QStringLiteral("transaction.boundary.interval.ms"));
        const std::optional<Entry> interval = flowValue(a, b, QStringLiteral("transaction.boundary.interval.ms"));
        if (boundary && boundary->value.trimmed().toLower() == QLatin1String("interval") && interval) {
            bool ok = false;
            const qint64 ms = interval->value.trimmed().toLongLong(&ok);
            if (!ok || ms < 0) {
                m_used.remove(intervalKey);
                unmapped(intervalKey, QStringLiteral("not a number of milliseconds"));
            } else {
                p->transactionIntervalMs = int(qBound(qint64(JobProfile::MinTransactionIntervalMs), ms,
                                                      qint64(JobProfile::MaxTransactionIntervalMs)));
                if (p->transactionIntervalMs != ms)
                    m_result.notes << QStringLiteral("%1->%2: transaction interval limited to %3 ms")
                                          .arg(a, b)
                                          .arg(p->transactionIntervalMs);
            }
        }
    }

    // Every key no flow used gets a reason; nothing is dropped silently.
    void explainLeftovers()
    {
        QSet<QString> flowClusters;
        for (const auto &[a, b] : std::as_const(m_flows))
            flowClusters << a << b;
        static const QRegularExpression flowKeyRe(QStringLiteral("^([^.]+)->([^.]+)\\.(.+)$"));
        for (auto it = m_entries.constBegin(); it != m_entries.constEnd(); ++it) {
            const QString &key = it.key();
            if (m_used.contains(key))
                continue;
            if (m_roleReason.contains(key)) {
                unmapped(key, m_roleReason.value(key));
                continue;
            }
            if (const QRegularExpressionMatch m = flowKeyRe.match(key); m.hasMatch()) {
                const QString a = m.captured(1), b = m.captured(2), rest = m.captured(3);
                if (!m_clusters.contains(a) || !m_clusters.contains(b)) {
                    unmapped(key, QStringLiteral("flow %1->%2 names a cluster that is not in \"clusters\"").arg(a, b));
                } else if (!m_flows.contains(qMakePair(a, b))) {
                    if (rest == QLatin1String("emit.heartbeats.enabled") && !javaBool(it->value))
                        continue; // part of switching the reverse flow off
                    unmapped(key, QStringLiteral("flow %1->%2 is not enabled").arg(a, b));
                } else {
                    unmapped(key, leftoverReason(rest));
                }
                continue;
            }
            const QString first = key.section(QLatin1Char('.'), 0, 0);
            if (m_clusters.contains(first) && key.contains(QLatin1Char('.'))) {
                if (!flowClusters.contains(first))
                    unmapped(key, QStringLiteral("cluster %1 takes part in no enabled flow").arg(first));
                else
                    unmapped(key, leftoverReason(key.mid(first.size() + 1)));
                continue;
            }
            unmapped(key, leftoverReason(key));
        }
    }

    QString m_fileName;
    QHash<QString, Entry> m_entries;
    QSet<QString> m_used;
    QSet<QString> m_explained;
    QHash<QString, QString> m_roleReason; // client overrides for the side MirrorDesk does not run
    QStringList m_clusters;
    QList<QPair<QString, QString>> m_flows;
    Mm2ImportResult m_result;
};

} // namespace

Mm2ImportResult importMm2Properties(const QByteArray &data, const QString &fileName)
{
    return Importer(data, fileName).run();
}

} // namespace md
