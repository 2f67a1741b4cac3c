// JobProfile::validate: meaning checks with key paths (required keys,
// regexes, naming, security vs sasl/ssl, timestamps, ranges).

#include "model/profile/JobProfile.h"
#include "model/profile/ProfileReferences.h"
#include "model/profile/ProfileSchema.h"
#include "model/profile/ProfileSupport.h"

#include "engine/core/ClientProperties.h"
#include "engine/mirror/TopicNaming.h"
#include "engine/offsetmap/OffsetMap.h"

#include <QRegularExpression>
#include <QUrl>

#include <utility>

namespace md {

using namespace profile_detail;

namespace {

class Checker final {
public:
    explicit Checker(const JobProfile &p) : m_p(p) {}

    void error(const QString &path, const QString &message) { add(ProfileIssue::Severity::Error, path, message); }
    void warn(const QString &path, const QString &message) { add(ProfileIssue::Severity::Warning, path, message); }

    void range(const QString &path, qint64 value)
    {
        const QString problem = profile_schema::outOfRange(profile_schema::field(path), double(value));
        if (!problem.isEmpty())
            error(path, problem);
    }

    void regexList(const QStringList &list, const QString &path)
    {
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QString p = indexPath(path, i);
            if (list.at(i).isEmpty()) {
                error(p, QStringLiteral("empty regular expression"));
                continue;
            }
            const QRegularExpression re(list.at(i));
            if (!re.isValid())
                error(p, QStringLiteral("invalid regular expression: %1 at offset %2")
                             .arg(re.errorString())
                             .arg(re.patternErrorOffset()));
        }
    }

    // References must be well formed wherever they are allowed.
    bool references(const QString &value, const QString &path)
    {
        QString e;
        SecretRef::findAll(value, &e);
        if (!e.isEmpty()) {
            error(path, e);
            return false;
        }
        return true;
    }

    void secret(const QString &value, const QString &path)
    {
        if (references(value, path) && isClearText(value))
            warn(path,
                 QStringLiteral("a secret is written in clear text; prefer \"${env:NAME}\" or a keychain reference "
                                "(the file is saved readable by its owner only)"));
    }

    void bootstrap(const QString &value, const QString &path)
    {
        if (value.trimmed().isEmpty()) {
            error(path, QStringLiteral("required: the cluster's bootstrap servers (host:port[,host:port...])"));
            return;
        }
        if (!references(value, path) || !SecretRef::findAll(value).isEmpty())
            return; // resolved later; the result is checked by librdkafka
        const QStringList entries = value.split(QLatin1Char(','));
        for (const QString &raw : entries) {
            QString e = raw.trimmed();
            if (e.isEmpty()) {
                error(path, QStringLiteral("empty server in \"%1\" (expected host:port[,host:port...])").arg(value));
                return;
            }
            if (const qsizetype scheme = e.indexOf(QStringLiteral("://")); scheme >= 0)
                e = e.mid(scheme + 3);
            if (e.contains(QLatin1Char(' '))) {
                error(path, QStringLiteral("\"%1\": a server address has no spaces").arg(raw.trimmed()));
                return;
            }
            const qsizetype bracket = e.lastIndexOf(QLatin1Char(']'));
            const qsizetype colon = e.lastIndexOf(QLatin1Char(':'));
            if (colon <= bracket)
                continue; // no port: librdkafka uses 9092
            const QString host = e.left(colon);
            bool ok = false;
            const int port = e.mid(colon + 1).toInt(&ok);
            if (host.isEmpty()) {
                error(path, QStringLiteral("\"%1\": missing host name").arg(raw.trimmed()));
                return;
            }
            if (!ok || port < 1 || port > 65535) {
                error(path, QStringLiteral("\"%1\": the port must be a number from 1 to 65535").arg(raw.trimmed()));
                return;
            }
        }
    }

    void properties(const QMap<QString, QString> &props, const QString &path, const QStringList &engineOwned)
    {
        for (auto it = props.begin(); it != props.end(); ++it) {
            const QString p = mapKeyPath(path, it.key());
            if (const QString why = refusedClientPropertyReason(it.key()); !why.isEmpty())
                error(p, QStringLiteral("refused: ") + why);
            if (engineOwned.contains(it.key()))
                warn(p, QStringLiteral(
                            "ignored: the mirror engine sets this property itself (its guarantees depend on it)"));
            if (isSecretPropertyName(it.key()))
                secret(it.value(), p);
            else
                references(it.value(), p);
        }
    }

    // The registry's own rules; the CA file is checked when resolving, like ssl.ca.
    void schemaRegistry(const ProfileSide &s, const QString &path)
    {
        const QString url = s.registryUrl.trimmed();
        if (url.isEmpty()) {
            error(path + QStringLiteral(".url"),
                  QStringLiteral("required with schemaRegistry (e.g. \"https://registry:8081\")"));
        } else if (SecretRef::findAll(url).isEmpty()) {
            // With references in it the URL is only known once resolved; the registry client then refuses it.
            const QUrl u(url, QUrl::StrictMode);
            const QString scheme = u.scheme().toLower();
            if (!u.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https")) ||
                u.host().isEmpty())
                error(path + QStringLiteral(".url"), QStringLiteral("not an http(s) URL: \"%1\"").arg(url));
        }
        if (!s.registryPassword.isEmpty() && s.registryUsername.isEmpty())
            error(path + QStringLiteral(".password"), QStringLiteral("needs schemaRegistry.username"));
        if (!s.registryUsername.isEmpty() && s.registryPassword.isEmpty())
            error(path + QStringLiteral(".username"),
                  QStringLiteral("needs schemaRegistry.password (e.g. \"${env:NAME}\")"));
        if (!s.registryToken.isEmpty() && !s.registryUsername.isEmpty())
            error(path + QStringLiteral(".token"),
                  QStringLiteral("not together with schemaRegistry.username (basic or bearer, not both)"));
        references(url, path + QStringLiteral(".url"));
        references(s.registryUsername, path + QStringLiteral(".username"));
        secret(s.registryPassword, path + QStringLiteral(".password"));
        secret(s.registryToken, path + QStringLiteral(".token"));
        references(s.registryCa, path + QStringLiteral(".ca"));
    }

    void side(const ProfileSide &s, const QString &path)
    {
        bootstrap(s.bootstrap, path + QStringLiteral(".bootstrap"));
        const bool sasl = s.security == SecurityProtocol::SaslPlaintext || s.security == SecurityProtocol::SaslSsl;
        const bool ssl = s.security == SecurityProtocol::Ssl || s.security == SecurityProtocol::SaslSsl;
        const QString protocol = securityProtocolName(s.security);
        if (sasl) {
            if (!s.hasSasl) {
                error(
                    path + QStringLiteral(".sasl"),
                    QStringLiteral("required with security %1: { \"mechanism\": \"SCRAM-SHA-512\", \"username\": ..., "
                                   "\"password\": \"${env:NAME}\" }")
                        .arg(protocol));
            } else {
                if (s.saslMechanism.isEmpty())
                    error(path + QStringLiteral(".sasl.mechanism"),
                          QStringLiteral("required with security %1 (PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512)")
                              .arg(protocol));
                if (s.saslUsername.isEmpty())
                    error(path + QStringLiteral(".sasl.username"),
                          QStringLiteral("required with security %1").arg(protocol));
                if (s.saslPassword.isEmpty())
                    error(path + QStringLiteral(".sasl.password"),
                          QStringLiteral("required with security %1 (e.g. \"${env:NAME}\")").arg(protocol));
            }
        } else if (s.hasSasl) {
            warn(path + QStringLiteral(".sasl"),
                 QStringLiteral("ignored with security %1 (use sasl_plaintext or sasl_ssl)").arg(protocol));
        }
        if (s.hasSasl) {
            const QStringList mechanisms =
                profile_schema::allowedValues(profile_schema::field(path + QStringLiteral(".sasl.mechanism")));
            if (!s.saslMechanism.isEmpty() && !mechanisms.contains(s.saslMechanism, Qt::CaseInsensitive))
                error(path + QStringLiteral(".sasl.mechanism"),
                      QStringLiteral("unsupported mechanism \"%1\" (expected %2)")
                          .arg(s.saslMechanism, profile_schema::alternatives(mechanisms)));
            references(s.saslUsername, path + QStringLiteral(".sasl.username"));
            secret(s.saslPassword, path + QStringLiteral(".sasl.password"));
        }
        const bool anySsl =
            !s.sslCa.isEmpty() || !s.sslCert.isEmpty() || !s.sslKey.isEmpty() || !s.sslKeyPassword.isEmpty();
        if (anySsl && !ssl)
            warn(path + QStringLiteral(".ssl"),
                 QStringLiteral("ignored with security %1 (use ssl or sasl_ssl)").arg(protocol));
        if (ssl) {
            if (!s.sslCert.isEmpty() && s.sslKey.isEmpty())
                error(path + QStringLiteral(".ssl.key"),
                      QStringLiteral("required with ssl.cert (the client certificate's private key)"));
            if (!s.sslKey.isEmpty() && s.sslCert.isEmpty())
                error(path + QStringLiteral(".ssl.cert"),
                      QStringLiteral("required with ssl.key (the client certificate)"));
            if (!s.sslKeyPassword.isEmpty() && s.sslKey.isEmpty())
                warn(path + QStringLiteral(".ssl.keyPassword"), QStringLiteral("ignored without ssl.key"));
        }
        references(s.sslCa, path + QStringLiteral(".ssl.ca"));
        references(s.sslCert, path + QStringLiteral(".ssl.cert"));
        references(s.sslKey, path + QStringLiteral(".ssl.key"));
        secret(s.sslKeyPassword, path + QStringLiteral(".ssl.keyPassword"));

        if (s.hasSchemaRegistry)
            schemaRegistry(s, path + QStringLiteral(".schemaRegistry"));

        const QStringList common = {QStringLiteral("group.id"),
                                    QStringLiteral("enable.auto.commit"),
                                    QStringLiteral("enable.auto.offset.store"),
                                    QStringLiteral("isolation.level"),
                                    QStringLiteral("enable.idempotence"),
                                    QStringLiteral("acks")};
        properties(s.properties, path + QStringLiteral(".properties"),
                   path == QLatin1String("source") ? common.mid(0, 4) : common.mid(4));
        properties(s.consumerProperties, path + QStringLiteral(".consumerProperties"),
                   path == QLatin1String("source") ? common.mid(0, 4) : QStringList());
        properties(s.producerProperties, path + QStringLiteral(".producerProperties"),
                   path == QLatin1String("target") ? common.mid(4) : QStringList());
        properties(s.adminProperties, path + QStringLiteral(".adminProperties"), {});
    }

    void run()
    {
        const JobProfile &p = m_p;
        if (p.version != JobProfile::FormatVersion)
            error(QStringLiteral("mirrordesk"), QStringLiteral("unknown format version %1 (expected %2)")
                                                    .arg(p.version)
                                                    .arg(JobProfile::FormatVersion));
        side(p.source, QStringLiteral("source"));
        side(p.target, QStringLiteral("target"));

        if (p.include.isEmpty())
            error(QStringLiteral("topics.include"),
                  QStringLiteral("at least one regular expression is required (e.g. [\"orders\\\\..*\"])"));
        regexList(p.include, QStringLiteral("topics.include"));
        regexList(p.exclude, QStringLiteral("topics.exclude"));
        regexList(p.configExclude, QStringLiteral("configExclude"));
        regexList(p.groupsInclude, QStringLiteral("groups.include"));
        regexList(p.groupsExclude, QStringLiteral("groups.exclude"));
        regexList(p.schemaSubjectsInclude, QStringLiteral("schemas.subjects.include"));
        regexList(p.schemaSubjectsExclude, QStringLiteral("schemas.subjects.exclude"));
        if (p.syncSchemas) {
            for (const auto &[side, name] : {std::pair{&p.source, "source"}, std::pair{&p.target, "target"}})
                if (side->registryUrl.isEmpty())
                    error(QStringLiteral("schemas.sync"),
                          QStringLiteral("needs %1.schemaRegistry.url: the schemas are read from the source's "
                                         "registry and written to the target's")
                              .arg(QLatin1String(name)));
        }
        if (p.groupsInclude.isEmpty() && !p.groupsExclude.isEmpty())
            warn(QStringLiteral("groups.exclude"),
                 QStringLiteral("no effect without groups.include: no group is selected"));
        if (p.emitCheckpoints) {
            const QString alias = p.checkpointsAlias.isEmpty() ? p.source.alias : p.checkpointsAlias;
            if (alias.isEmpty())
                error(QStringLiteral("checkpoints.sourceAlias"),
                      QStringLiteral("required without source.alias: it names the topic <alias>.checkpoints.internal "
                                     "and is what applications pass to RemoteClusterUtils.translateOffsets"));
            else if (!isLegalTopicText(alias) && !(p.checkpointsAlias.isEmpty() && p.naming == NamingPolicy::Prefix))
                error(p.checkpointsAlias.isEmpty() ? QStringLiteral("source.alias")
                                                   : QStringLiteral("checkpoints.sourceAlias"),
                      QStringLiteral("\"%1\" cannot be part of a topic name (letters, digits, '.', '_' and '-' only)")
                          .arg(alias));
            if (p.groupsInclude.isEmpty())
                warn(QStringLiteral("checkpoints.enabled"),
                     QStringLiteral("no effect without groups.include: no group is selected"));
        }
        if (!p.offsetMap) {
            // Each of these reads or writes the map: without it they could only guess.
            const QString no =
                QStringLiteral("offsetMap is false, but %1 needs the offset map (remove one of the two)");
            if (!p.groupsInclude.isEmpty() && p.syncGroupOffsets)
                error(QStringLiteral("offsetMap"),
                      no.arg(QStringLiteral("group offset sync (groups.include with syncGroupOffsets)")));
            if (p.emitCheckpoints)
                error(QStringLiteral("offsetMap"), no.arg(QStringLiteral("checkpoints.enabled")));
            if (p.delivery == DeliveryGuarantee::ExactlyOnce)
                error(QStringLiteral("offsetMap"), no.arg(QStringLiteral("\"delivery\": \"exactly-once\"")));
            if (!p.offsetMapTopic.isEmpty())
                warn(QStringLiteral("offsetMapTopic"),
                     QStringLiteral("ignored with offsetMap false: no map is written"));
        }
        // The struct may hold what no file could (the editor builds it): the table's ranges again.
        const std::pair<const char *, qint64> numbers[] = {
            {"transactionIntervalMs", p.transactionIntervalMs}, {"transactionMaxRecords", p.transactionMaxRecords},
            {"groupSyncIntervalMs", p.groupSyncIntervalMs},     {"throttleBytesPerSecond", p.throttleBytesPerSecond},
            {"samplingIntervalMs", p.samplingIntervalMs},       {"topicRefreshIntervalMs", p.topicRefreshIntervalMs},
            {"acls.intervalMs", p.aclSyncIntervalMs},           {"schemas.intervalMs", p.schemaSyncIntervalMs}};
        for (const auto &[key, value] : numbers)
            range(QLatin1String(key), value);
        if (p.stop == StopCondition::AfterRecords)
            range(QStringLiteral("stop.records"), p.stopAfterRecords);

        switch (p.naming) {
        case NamingPolicy::Identity:
            if (!p.source.bootstrap.isEmpty() &&
                p.source.bootstrap.trimmed().compare(p.target.bootstrap.trimmed(), Qt::CaseInsensitive) == 0)
                error(QStringLiteral("naming.policy"),
                      QStringLiteral("source and target have the same bootstrap servers: identity naming would mirror "
                                     "every topic onto itself (use prefix or template)"));
            break;
        case NamingPolicy::Prefix:
            if (p.source.alias.isEmpty())
                error(QStringLiteral("source.alias"),
                      QStringLiteral(
                          "required with naming policy prefix (target topics are named <alias><separator><topic>)"));
            else if (!isLegalTopicText(p.source.alias))
                error(QStringLiteral("source.alias"),
                      QStringLiteral("\"%1\" cannot be part of a topic name (letters, digits, '.', '_' and '-' only)")
                          .arg(p.source.alias));
            if (p.separator.isEmpty())
                error(QStringLiteral("naming.separator"),
                      QStringLiteral("must not be empty with naming policy prefix"));
            else if (!isLegalTopicText(p.separator))
                error(QStringLiteral("naming.separator"),
                      QStringLiteral("\"%1\" cannot be part of a topic name (letters, digits, '.', '_' and '-' only)")
                          .arg(p.separator));
            break;
        case NamingPolicy::Template: {
            if (p.nameTemplate.isEmpty()) {
                error(QStringLiteral("naming.template"),
                      QStringLiteral("required with naming policy template (e.g. \"dr-${topic}\")"));
                break;
            }
            if (!p.nameTemplate.contains(QLatin1String("${topic}"))) {
                error(QStringLiteral("naming.template"),
                      QStringLiteral("\"%1\" must contain ${topic}: without it every topic gets the same name")
                          .arg(p.nameTemplate));
                break;
            }
            QString rest = p.nameTemplate;
            rest.remove(QStringLiteral("${topic}"));
            if (rest.contains(QLatin1String("${")))
                error(QStringLiteral("naming.template"),
                      QStringLiteral("\"%1\": the only placeholder is ${topic}").arg(p.nameTemplate));
            else if (!isLegalTopicText(rest))
                error(QStringLiteral("naming.template"),
                      QStringLiteral(
                          "\"%1\" cannot make a topic name (letters, digits, '.', '_' and '-' only around ${topic})")
                          .arg(p.nameTemplate));
            break;
        }
        }

        if (p.start == StartPosition::Timestamp && !p.startTimestamp.isValid())
            error(QStringLiteral("start.timestamp"),
                  QStringLiteral("required: an ISO 8601 date and time with a time zone"));
        if (p.stop == StopCondition::AtTimestamp && !p.stopTimestamp.isValid())
            error(QStringLiteral("stop.timestamp"),
                  QStringLiteral("required: an ISO 8601 date and time with a time zone"));
        if (p.stop == StopCondition::AtTimestamp && p.start == StartPosition::Timestamp && p.startTimestamp.isValid() &&
            p.stopTimestamp.isValid() && p.stopTimestamp <= p.startTimestamp)
            error(QStringLiteral("stop.timestamp"), QStringLiteral("must be later than start.timestamp"));
        if (!p.groupId.isEmpty() && p.groupId.trimmed() != p.groupId)
            error(QStringLiteral("groupId"), QStringLiteral("must not start or end with spaces"));
        if (!p.originHeader.isEmpty()) {
            const bool printable = std::all_of(p.originHeader.cbegin(), p.originHeader.cend(),
                                               [](QChar c) { return c.unicode() > 0x20 && c.unicode() < 0x7f; });
            if (!printable || p.originHeader.size() > 255)
                error(QStringLiteral("originHeader"),
                      QStringLiteral("\"%1\" is not a header name: 1 to 255 printable ASCII characters, no spaces")
                          .arg(p.originHeader));
        }
        if (!p.offsetMapTopic.isEmpty() && !isValidKafkaTopicName(p.offsetMapTopic))
            error(QStringLiteral("offsetMapTopic"),
                  QStringLiteral(
                      "\"%1\" is not a valid Kafka topic name (1 to 249 of a-z A-Z 0-9 . _ -, not \".\" or \"..\")")
                      .arg(p.offsetMapTopic));
        else if (p.offsetMap && !p.offsetMapTopic.isEmpty() && !isOffsetMapTopic(p.offsetMapTopic))
            warn(QStringLiteral("offsetMapTopic"),
                 QStringLiteral("\"%1\" does not end with \".offset-map\": a job that mirrors this cluster "
                                "elsewhere (reverse, active/active) would copy it like any topic")
                     .arg(p.offsetMapTopic));
    }

    QList<ProfileIssue> issues;

private:
    void add(ProfileIssue::Severity s, const QString &path, const QString &message)
    {
        ProfileIssue i;
        i.severity = s;
        i.file = m_p.fileName;
        i.keyPath = path;
        i.message = message;
        issues.append(i);
    }

    const JobProfile &m_p;
};

} // namespace

QList<ProfileIssue> JobProfile::validate() const
{
    Checker c(*this);
    c.run();
    return c.issues;
}

bool JobProfile::hasClearSecret() const
{
    for (const ProfileSide *s : {&source, &target}) {
        if (isClearText(s->saslPassword) || isClearText(s->sslKeyPassword) || isClearText(s->registryPassword) ||
            isClearText(s->registryToken))
            return true;
        for (const auto *m : {&s->properties, &s->consumerProperties, &s->producerProperties, &s->adminProperties}) {
            for (auto it = m->begin(); it != m->end(); ++it) {
                if (isSecretPropertyName(it.key()) && isClearText(it.value()))
                    return true;
            }
        }
    }
    return false;
}
} // namespace md
