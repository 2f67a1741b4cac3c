#include "model/mm2/Mm2Properties.h"
#include "model/mm2/Mm2Support.h"

#include "engine/mirror/TopicNaming.h"

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

// ------------------------------------------------------------------- export

namespace {

// One (key, value) list in the order MM2 users expect to read it.
using Lines = QList<QPair<QString, QString>>;

struct ExportContext {
    const JobProfile &p;
    const Mm2ExportOptions &options;
    QStringList notes;
    QString error;
    bool usesEnv = false;
    QStringList variables;

    // A value MM2 can take: ${env:X} stays (EnvVarConfigProvider resolves it);
    // any other reference is refused. `secretVariable` non-empty: the value is
    // a secret, and one in clear (or in the keychain) is replaced by a variable.
    QString value(const QString &v, const QString &what, const QString &secretVariable = {})
    {
        QString err;
        const QList<SecretRef> refs = SecretRef::findAll(v, &err);
        if (!err.isEmpty()) {
            fail(QStringLiteral("%1: %2").arg(what, err));
            return {};
        }
        bool onlyEnv = true;
        for (const SecretRef &r : refs) {
            if (r.kind != QLatin1String("env"))
                onlyEnv = false;
        }
        if (!secretVariable.isEmpty()) {
            if (!refs.isEmpty() && onlyEnv) {
                usesEnv = true;
                return v;
            }
            if (v.isEmpty())
                return v;
            usesEnv = true;
            if (!variables.contains(secretVariable)) {
                variables << secretVariable;
                notes << QStringLiteral("set %1 to the %2 before starting MM2 (%3)")
                             .arg(secretVariable, what,
                                  refs.isEmpty()
                                      ? QStringLiteral("the profile holds it in clear; it is not written to the file")
                                      : QStringLiteral("the profile reads it from %1").arg(refs.first().toString()));
            }
            return QStringLiteral("${env:") + secretVariable + QLatin1Char('}');
        }
        if (!onlyEnv) {
            fail(QStringLiteral("%1: the reference %2 cannot be resolved by MM2 (only ${env:NAME} can)")
                     .arg(what, refs.first().toString()));
            return {};
        }
        if (!refs.isEmpty())
            usesEnv = true;
        return v;
    }

    void fail(const QString &e)
    {
        if (error.isEmpty())
            error = e;
    }
};

QString javaProtocol(SecurityProtocol p)
{
    return securityProtocolName(p).toUpper();
}

// Connection and client settings of one side, keys relative to `prefix`
// ("eu." for mm2.properties, "source.cluster." for a connector).
void sideLines(ExportContext &c, const ProfileSide &s, const QString &what, const QString &clusterPrefix,
               const QString &consumerPrefix, const QString &producerPrefix, const QString &adminPrefix, bool isSource,
               Lines *out)
{
    out->append({clusterPrefix + QStringLiteral("bootstrap.servers"),
                 c.value(s.bootstrap, what + QStringLiteral(".bootstrap"))});
    if (s.security != SecurityProtocol::Plaintext)
        out->append({clusterPrefix + QStringLiteral("security.protocol"), javaProtocol(s.security)});
    const bool sasl = s.security == SecurityProtocol::SaslPlaintext || s.security == SecurityProtocol::SaslSsl;
    const bool ssl = s.security == SecurityProtocol::Ssl || s.security == SecurityProtocol::SaslSsl;
    if (sasl && s.hasSasl) {
        const QString mech = s.saslMechanism.toUpper();
        out->append({clusterPrefix + QStringLiteral("sasl.mechanism"), mech});
        const QString module = mech == QLatin1String("PLAIN")
                                   ? QStringLiteral("org.apache.kafka.common.security.plain.PlainLoginModule")
                                   : QStringLiteral("org.apache.kafka.common.security.scram.ScramLoginModule");
        const QString user = c.value(s.saslUsername, what + QStringLiteral(".sasl.username"));
        const QString password = c.value(
            s.saslPassword, QStringLiteral("password of SASL user \"%1\" on cluster %2").arg(s.saslUsername, s.alias),
            envName(s.alias, QStringLiteral("PASSWORD")));
        out->append({clusterPrefix + QStringLiteral("sasl.jaas.config"),
                     module + QStringLiteral(" required username=") + jaasQuote(user) + QStringLiteral(" password=") +
                         jaasQuote(password) + QLatin1Char(';')});
    }
    if (ssl) {
        if (!s.sslCa.isEmpty()) {
            out->append({clusterPrefix + QStringLiteral("ssl.truststore.type"), QStringLiteral("PEM")});
            out->append({clusterPrefix + QStringLiteral("ssl.truststore.location"),
                         c.value(s.sslCa, what + QStringLiteral(".ssl.ca"))});
        }
        if (!s.sslCert.isEmpty()) {
            if (s.sslCert != s.sslKey) {
                c.fail(QStringLiteral(
                           "%1.ssl: the certificate and key are in two files; a Java PEM keystore needs both in one "
                           "file (cat cert.pem key.pem > client.pem, then use it for ssl.cert and ssl.key)")
                           .arg(what));
            } else {
                out->append({clusterPrefix + QStringLiteral("ssl.keystore.type"), QStringLiteral("PEM")});
                out->append({clusterPrefix + QStringLiteral("ssl.keystore.location"),
                             c.value(s.sslCert, what + QStringLiteral(".ssl.cert"))});
                if (!s.sslKeyPassword.isEmpty())
                    out->append(
                        {clusterPrefix + QStringLiteral("ssl.key.password"),
                         c.value(s.sslKeyPassword, QStringLiteral("password of the TLS key of cluster %1").arg(s.alias),
                                 envName(s.alias, QStringLiteral("SSL_KEY_PASSWORD")))});
            }
        }
    }
    auto freeProps = [&](const QMap<QString, QString> &m, const QString &prefix, const QString &path) {
        for (auto it = m.begin(); it != m.end(); ++it) {
            QString key = it.key();
            QString v = it.value();
            if (key == QLatin1String("ssl.endpoint.identification.algorithm") && v == QLatin1String("none"))
                v = QString(); // Java spells "none" as empty
            const QString variable =
                isSecretName(key) ? envName(s.alias, QString(key).toUpper().replace(QLatin1Char('.'), QLatin1Char('_')))
                                  : QString();
            out->append({prefix + key, c.value(v, QStringLiteral("%1[\"%2\"]").arg(path, key), variable)});
            // librdkafka's keystore is PKCS#12; Java assumes JKS unless told.
            if (key == QLatin1String("ssl.keystore.location") && !m.contains(QStringLiteral("ssl.keystore.type")))
                out->append({prefix + QStringLiteral("ssl.keystore.type"), QStringLiteral("PKCS12")});
        }
    };
    freeProps(s.properties, clusterPrefix, what + QStringLiteral(".properties"));
    if (!s.properties.isEmpty())
        c.notes << QStringLiteral(
                       "%1.properties are librdkafka properties written as they are; check each exists in the "
                       "Java client (MM2 ignores unknown ones with a warning)")
                       .arg(what);
    if (isSource)
        freeProps(s.consumerProperties, consumerPrefix, what + QStringLiteral(".consumerProperties"));
    else if (!s.consumerProperties.isEmpty())
        c.notes << QStringLiteral("%1.consumerProperties are not used by MirrorDesk and were left out").arg(what);
    if (!isSource)
        freeProps(s.producerProperties, producerPrefix, what + QStringLiteral(".producerProperties"));
    else if (!s.producerProperties.isEmpty())
        c.notes << QStringLiteral("%1.producerProperties are not used by MirrorDesk and were left out").arg(what);
    freeProps(s.adminProperties, adminPrefix, what + QStringLiteral(".adminProperties"));
}

// `name` and `name.exclude` as MM2's comma-separated lists of regular expressions.
void filterLines(ExportContext &c, const QString &name, const QStringList &include, const QStringList &exclude,
                 Lines *out)
{
    for (const QString &list : {include.join(QString()), exclude.join(QString())}) {
        if (list.contains(QLatin1Char(',')))
            c.fail(name + QStringLiteral(": a regular expression with a comma cannot be written in MM2's "
                                         "comma-separated lists; rewrite it (e.g. \"a{1,3}\" as \"a|aa|aaa\")"));
    }
    out->append({name, include.join(QStringLiteral(", "))});
    out->append({name + QStringLiteral(".exclude"), exclude.join(QStringLiteral(", "))});
}

// ACL sync, keys as MM2's MirrorSourceConnector names them. Always written:
// MM2 syncs topic ACLs by default, the profile only with acls.sync. MM2's
// sync is the safe mode; it has no exact one.
void aclLines(ExportContext &c, Lines *out)
{
    const JobProfile &p = c.p;
    out->append(
        {QStringLiteral("sync.topic.acls.enabled"), p.syncAcls ? QStringLiteral("true") : QStringLiteral("false")});
    if (!p.syncAcls)
        return;
    const int seconds = qMax(1, (p.aclSyncIntervalMs + 999) / 1000);
    if (seconds * 1000 != p.aclSyncIntervalMs)
        c.notes << QStringLiteral("acls.intervalMs %1: MM2 counts whole seconds, written as %2 s")
                       .arg(p.aclSyncIntervalMs)
                       .arg(seconds);
    out->append({QStringLiteral("sync.topic.acls.interval.seconds"), QString::number(seconds)});
    if (p.aclSyncMode == MirrorJobSpec::AclSyncMode::Exact)
        c.notes << QStringLiteral(
            "acls.mode \"exact\": MM2 has no exact mode; it always leaves out ALLOW WRITE on the mirrored topics and "
            "turns ALLOW ALL into READ (what \"safe\" does), so writers of the source topics get no write access to "
            "them on the target: grant it there yourself at cutover");
    if (!p.groupsInclude.isEmpty())
        c.notes << QStringLiteral("acls: MM2 copies the ACLs of topics only; those of the groups (groups.include) are "
                                  "not copied");
}

// MM2 has nothing for schemas: said whenever the profile syncs them.
void schemaNotes(ExportContext &c)
{
    if (!c.p.syncSchemas)
        return;
    c.notes << QStringLiteral("schemas.sync: MM2 has no equivalent: it copies records byte for byte with the source "
                              "registry's schema ids and copies no subject; copy the subjects to the target's registry "
                              "(with the same ids) before consumers read the target, or keep one registry for both");
}

// Flow settings shared by both outputs, keys as MM2 connectors name them.
void flowLines(ExportContext &c, Lines *out)
{
    const JobProfile &p = c.p;
    filterLines(c, QStringLiteral("topics"), p.include, p.exclude, out);
    if (!p.excludeInternalTopics)
        c.notes << QStringLiteral("topics.excludeInternal is off, but MM2 never mirrors internal topics");

    QString policy = QString::fromLatin1(kMm2DefaultPolicy);
    QString separator = p.separator;
    switch (p.naming) {
    case NamingPolicy::Prefix: break;
    case NamingPolicy::Identity: policy = QString::fromLatin1(kMm2IdentityPolicy); break;
    case NamingPolicy::Template: {
        // Only templates MM2's own policies can produce have an equivalent.
        const QString t = p.nameTemplate.isEmpty() ? QStringLiteral("${topic}") : p.nameTemplate;
        if (t == QLatin1String("${topic}")) {
            policy = QString::fromLatin1(kMm2IdentityPolicy);
        } else if (t.endsWith(QLatin1String("${topic}")) && t.count(QLatin1String("${")) == 1 &&
                   t.startsWith(p.source.alias) && t.size() > p.source.alias.size() + 8) {
            separator = t.mid(p.source.alias.size(), t.size() - p.source.alias.size() - 8);
        } else {
            c.fail(QStringLiteral(
                       "naming.template \"%1\": MM2 has no equivalent (its DefaultReplicationPolicy names topics "
                       "<source alias><separator><topic>, IdentityReplicationPolicy keeps the name)")
                       .arg(t));
        }
        break;
    }
    }
    out->append({QStringLiteral("replication.policy.class"), policy});
    out->append({QStringLiteral("replication.policy.separator"), separator});
    out->append({QStringLiteral("sync.topic.configs.enabled"),
                 p.syncTopicConfigs ? QStringLiteral("true") : QStringLiteral("false")});
    if (!p.configExclude.isEmpty()) {
        if (p.configExclude.join(QString()).contains(QLatin1Char(',')))
            c.fail(QStringLiteral("configExclude: a regular expression with a comma cannot be written in MM2's list"));
        out->append({QStringLiteral("config.properties.exclude"), p.configExclude.join(QStringLiteral(", "))});
    }
    out->append({QStringLiteral("refresh.topics.interval.seconds"),
                 QString::number(qMax(1, (p.topicRefreshIntervalMs + 999) / 1000))});
    aclLines(c, out);
    schemaNotes(c);
    // Groups and checkpoints: groupLines (mm2.properties only; a connector export notes them).

    if (p.start == StartPosition::Latest)
        c.notes << QStringLiteral("start \"latest\": written as the source consumer's auto.offset.reset=latest");
    else if (p.start == StartPosition::Timestamp)
        c.notes << QStringLiteral(
            "start at a timestamp has no MM2 equivalent: MM2 starts from its stored offsets, else the earliest");
    else if (p.start == StartPosition::Earliest)
        c.notes << QStringLiteral(
            "start \"earliest\": MM2 starts from the earliest record only when it has no stored offsets");
    if (p.stop != StopCondition::RunForever)
        c.notes << QStringLiteral("the stop condition has no MM2 equivalent: MM2 mirrors until it is stopped");
    if (p.throttleBytesPerSecond > 0)
        c.notes << QStringLiteral(
                       "MM2 has no throttle; use a client quota on the source cluster for the byte rate (%1 bytes/s)")
                       .arg(p.throttleBytesPerSecond);
    if (!p.createTopics)
        c.notes << QStringLiteral("createTopics is off, but MM2 always creates the target topics");
}

// True when the profile syncs or checkpoints any group (as GroupSyncRunner::wanted).
bool syncsGroups(const JobProfile &p)
{
    return p.offsetMap && (p.syncGroupOffsets || p.emitCheckpoints) && !p.groupsInclude.isEmpty();
}

// Group offset sync and checkpoints, keys as MM2's MirrorCheckpointConnector
// names them, relative to the flow. Every key is written, MM2's defaults
// included: MM2 would otherwise checkpoint every group (groups ".*",
// emit.checkpoints.enabled true) where the profile selects none. An empty
// "groups" selects no group in MM2 (a blank list matches nothing).
// `separator` is the replication.policy.separator written, which MM2 also
// puts in its checkpoints topic's name.
void groupLines(ExportContext &c, const QString &separator, Lines *out)
{
    const JobProfile &p = c.p;
    filterLines(c, QStringLiteral("groups"), p.groupsInclude, p.groupsExclude, out);
    // MM2 counts whole seconds; MirrorDesk does both in one round, MM2 on two timers set alike.
    const int seconds = qMax(1, (p.groupSyncIntervalMs + 999) / 1000);
    if (seconds * 1000 != p.groupSyncIntervalMs)
        c.notes << QStringLiteral("groupSyncIntervalMs %1: MM2 counts whole seconds, written as %2 s")
                       .arg(p.groupSyncIntervalMs)
                       .arg(seconds);
    out->append({QStringLiteral("sync.group.offsets.enabled"),
                 p.syncGroupOffsets ? QStringLiteral("true") : QStringLiteral("false")});
    out->append({QStringLiteral("sync.group.offsets.interval.seconds"), QString::number(seconds)});
    out->append({QStringLiteral("emit.checkpoints.enabled"),
                 p.emitCheckpoints ? QStringLiteral("true") : QStringLiteral("false")});
    if (p.emitCheckpoints)
        out->append({QStringLiteral("emit.checkpoints.interval.seconds"), QString::number(seconds)});
    if (!p.syncGroupOffsets && !p.emitCheckpoints)
        c.notes << QStringLiteral(
            "syncGroupOffsets and checkpoints are both off: MM2 then refuses to start its checkpoint connector and "
            "logs an error at every start (\"MirrorCheckpointConnector can't run...\"); records are mirrored all the "
            "same");
    if (p.emitCheckpoints) {
        const QString alias = p.checkpointsAlias.isEmpty() ? p.source.alias : p.checkpointsAlias;
        const QString mm2Topic = mm2CheckpointsTopic(p.source.alias, separator);
        const QString ownTopic = mm2CheckpointsTopic(alias, checkpointsSeparator(p.naming, p.separator));
        if (mm2Topic != ownTopic)
            c.notes << QStringLiteral("checkpoints: MM2 writes them to %1 on the target (named after the source "
                                      "cluster's alias and its separator), not to %2 as the profile does; "
                                      "applications that read them must follow")
                           .arg(mm2Topic, ownTopic);
    }
}

// Exactly-once (KIP-618), keys as a connector names them: MirrorSourceConnector
// supports it only with a read_committed source consumer, "required" makes
// MM2 refuse to run the flow rather than fall back, and the "interval"
// boundary is MirrorDesk's transaction interval.
Lines exactlyOnceConnectorLines(ExportContext &c)
{
    if (c.p.delivery != DeliveryGuarantee::ExactlyOnce)
        return {};
    if (c.p.transactionMaxRecords != JobProfile::DefaultTransactionMaxRecords)
        c.notes << QStringLiteral(
                       "transactionMaxRecords has no MM2 equivalent: MM2 commits a transaction every %1 ms only")
                       .arg(c.p.transactionIntervalMs);
    c.notes << QStringLiteral("exactly-once: consumers of the target see each record once only when they read with "
                              "isolation.level=read_committed");
    return {{QStringLiteral("exactly.once.support"), QStringLiteral("required")},
            {QStringLiteral("transaction.boundary"), QStringLiteral("interval")},
            {QStringLiteral("transaction.boundary.interval.ms"), QString::number(c.p.transactionIntervalMs)}};
}

// The value of `key` in `lines`, or an empty string.
QString clusterValue(const Lines &lines, const QString &key)
{
    for (const auto &[k, v] : lines) {
        if (k == key)
            return v;
    }
    return {};
}

void checkProfile(ExportContext &c)
{
    for (const ProfileIssue &i : c.p.validate()) {
        if (i.isError()) {
            c.fail(QStringLiteral("the profile has errors: ") + i.toString());
            return;
        }
    }
    if (c.p.source.alias.isEmpty() || c.p.target.alias.isEmpty())
        c.fail(QStringLiteral("source.alias and target.alias are required: MM2 names clusters by alias"));
    else if (c.p.source.alias == c.p.target.alias)
        c.fail(QStringLiteral("source.alias and target.alias must differ for MM2"));
    static const QRegularExpression aliasRe(QStringLiteral("^[A-Za-z0-9_-]+$"));
    for (const QString &a : {c.p.source.alias, c.p.target.alias}) {
        if (!a.isEmpty() && !aliasRe.match(a).hasMatch())
            c.fail(
                QStringLiteral("alias \"%1\": MM2 cluster aliases are letters, digits, '_' and '-' (no '.' or spaces)")
                    .arg(a));
    }
}

} // namespace

Mm2ExportResult exportMm2Properties(const JobProfile &profile, const Mm2ExportOptions &options)
{
    ExportContext c{profile, options, {}, {}, false, {}};
    Mm2ExportResult r;
    checkProfile(c);
    if (!c.error.isEmpty()) {
        r.error = c.error;
        return r;
    }
    const QString a = profile.source.alias, b = profile.target.alias;
    const QString ab = a + QStringLiteral("->") + b + QLatin1Char('.');
    const QString ba = b + QStringLiteral("->") + a + QLatin1Char('.');

    Lines clusters;
    clusters.append({QStringLiteral("clusters"), a + QStringLiteral(", ") + b});
    Lines sides;
    sideLines(c, profile.source, QStringLiteral("source"), a + QLatin1Char('.'), a + QStringLiteral(".consumer."),
              a + QStringLiteral(".producer."), a + QStringLiteral(".admin."), true, &sides);
    sideLines(c, profile.target, QStringLiteral("target"), b + QLatin1Char('.'), b + QStringLiteral(".consumer."),
              b + QStringLiteral(".producer."), b + QStringLiteral(".admin."), false, &sides);
    if (profile.start == StartPosition::Latest)
        sides.append({a + QStringLiteral(".consumer.auto.offset.reset"), QStringLiteral("latest")});

    Lines flow;
    flow.append({ab + QStringLiteral("enabled"), QStringLiteral("true")});
    Lines shared;
    flowLines(c, &shared);
    for (const auto &[k, v] : std::as_const(shared)) {
        // Naming is global in MM2 (one policy per worker); the rest belongs to the flow.
        if (k.startsWith(QLatin1String("replication.policy.")))
            clusters.append({k, v});
        else
            flow.append({ab + k, v});
    }
    Lines groups;
    groupLines(c, clusterValue(clusters, QStringLiteral("replication.policy.separator")), &groups);
    for (const auto &[k, v] : std::as_const(groups))
        flow.append({ab + k, v});
    Lines exactlyOnce;
    if (profile.delivery == DeliveryGuarantee::ExactlyOnce) {
        // The workers of flows into b run the transactions; they coordinate
        // task fencing over MM2's internal REST server.
        exactlyOnce.append({b + QStringLiteral(".exactly.once.source.support"), QStringLiteral("enabled")});
        exactlyOnce.append({QStringLiteral("dedicated.mode.enable.internal.rest"), QStringLiteral("true")});
        exactlyOnce.append({a + QStringLiteral(".consumer.isolation.level"), QStringLiteral("read_committed")});
        for (const auto &[k, v] : exactlyOnceConnectorLines(c))
            exactlyOnce.append({ab + k, v});
        c.notes << QStringLiteral("exactly-once: every MM2 node serves its internal REST listener (listeners, default "
                                  "http://:8083) to the others; keep it reachable between them and secure it");
    }
    flow.append({ba + QStringLiteral("enabled"), QStringLiteral("false")});
    flow.append({ba + QStringLiteral("emit.heartbeats.enabled"), QStringLiteral("false")});

    Lines factors;
    if (options.replicationFactor > 0) {
        for (const char *k :
             {"replication.factor", "heartbeats.topic.replication.factor", "checkpoints.topic.replication.factor",
              "offset-syncs.topic.replication.factor", "offset.storage.replication.factor",
              "status.storage.replication.factor", "config.storage.replication.factor"})
            factors.append({QString::fromLatin1(k), QString::number(options.replicationFactor)});
    }
    if (!c.error.isEmpty()) {
        r.error = c.error;
        return r;
    }

    QString text;
    auto section = [&](const QString &comment, const Lines &lines) {
        if (lines.isEmpty())
            return;
        text += QStringLiteral("\n# ") + comment + QLatin1Char('\n');
        for (const auto &[k, v] : lines)
            text += escapeJavaPropertyKey(k) + QStringLiteral(" = ") + escapeJavaPropertyValue(v) + QLatin1Char('\n');
    };
    text += QStringLiteral("# MirrorMaker 2 (dedicated mode), written by MirrorDesk from the job \"%1\".\n"
                           "# Run with: connect-mirror-maker.sh mm2.properties\n")
                .arg(QString(profile.name).replace(QLatin1Char('\n'), QLatin1Char(' ')));
    section(QStringLiteral("Clusters and topic naming"), clusters);
    if (c.usesEnv)
        section(QStringLiteral("${env:NAME} references are read from the environment; no secret is stored here"),
                {{QStringLiteral("config.providers"), QStringLiteral("env")},
                 {QStringLiteral("config.providers.env.class"), QString::fromLatin1(kKafkaEnvProvider)}});
    section(QStringLiteral("Connections"), sides);
    section(QStringLiteral("The flow"), flow);
    section(QStringLiteral("Exactly-once: records and offsets commit in transactions on the target (KIP-618)"),
            exactlyOnce);
    section(QStringLiteral("Replication factor of the topics MM2 creates"), factors);
    r.data = text.toUtf8();
    r.notes = c.notes;
    return r;
}

Mm2ExportResult exportMm2Connector(const JobProfile &profile, const Mm2ExportOptions &options)
{
    ExportContext c{profile, options, {}, {}, false, {}};
    Mm2ExportResult r;
    checkProfile(c);
    if (!c.error.isEmpty()) {
        r.error = c.error;
        return r;
    }
    Lines lines;
    lines.append(
        {QStringLiteral("connector.class"), QStringLiteral("org.apache.kafka.connect.mirror.MirrorSourceConnector")});
    lines.append({QStringLiteral("source.cluster.alias"), profile.source.alias});
    lines.append({QStringLiteral("target.cluster.alias"), profile.target.alias});
    // Exact bytes: Connect must not re-encode keys and values.
    lines.append(
        {QStringLiteral("key.converter"), QStringLiteral("org.apache.kafka.connect.converters.ByteArrayConverter")});
    lines.append(
        {QStringLiteral("value.converter"), QStringLiteral("org.apache.kafka.connect.converters.ByteArrayConverter")});
    lines.append(
        {QStringLiteral("header.converter"), QStringLiteral("org.apache.kafka.connect.converters.ByteArrayConverter")});
    sideLines(c, profile.source, QStringLiteral("source"), QStringLiteral("source.cluster."),
              QStringLiteral("source.consumer."), QStringLiteral("source.producer."), QStringLiteral("source.admin."),
              true, &lines);
    sideLines(c, profile.target, QStringLiteral("target"), QStringLiteral("target.cluster."),
              QStringLiteral("target.consumer."), QStringLiteral("target.producer."), QStringLiteral("target.admin."),
              false, &lines);
    if (profile.start == StartPosition::Latest)
        lines.append({QStringLiteral("source.consumer.auto.offset.reset"), QStringLiteral("latest")});
    flowLines(c, &lines);
    if (syncsGroups(profile))
        c.notes << QStringLiteral(
            "groups, syncGroupOffsets and checkpoints are MM2's MirrorCheckpointConnector's work, a second connector "
            "this JSON does not hold: give it the same clusters and groups, groups.exclude, "
            "sync.group.offsets.enabled and emit.checkpoints.enabled (export-mm2 without --connect writes them)");
    if (profile.delivery == DeliveryGuarantee::ExactlyOnce) {
        lines.append({QStringLiteral("source.consumer.isolation.level"), QStringLiteral("read_committed")});
        lines.append(exactlyOnceConnectorLines(c));
        c.notes << QStringLiteral(
            "exactly-once: the Connect workers need exactly.once.source.support=enabled in their worker "
            "properties (KIP-618), or Connect refuses the connector");
    }
    if (options.replicationFactor > 0) {
        lines.append({QStringLiteral("replication.factor"), QString::number(options.replicationFactor)});
        lines.append(
            {QStringLiteral("offset-syncs.topic.replication.factor"), QString::number(options.replicationFactor)});
    }
    if (!c.error.isEmpty()) {
        r.error = c.error;
        return r;
    }
    if (c.usesEnv)
        c.notes << QStringLiteral(
                       "the connector reads ${env:NAME} references: the Connect workers need config.providers=env and "
                       "config.providers.env.class=%1 in their worker properties, and the variables set")
                       .arg(QString::fromLatin1(kKafkaEnvProvider));
    QJsonObject config;
    for (const auto &[k, v] : std::as_const(lines))
        config.insert(k, v);
    QJsonObject root;
    QString name = JobProfile::groupIdForName(profile.name);
    root.insert(QStringLiteral("name"), name);
    root.insert(QStringLiteral("config"), config);
    r.data = QJsonDocument(root).toJson(QJsonDocument::Indented);
    r.notes = c.notes;
    return r;
}

} // namespace md
