#include "JobProfile.h"
#include "ProfileSupport.h"

#include "OffsetMap.h"
#include "TopicNaming.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>

#include <algorithm>

namespace md {

using namespace profile_detail;

// ---------------------------------------------------------------- issues

QString ProfileIssue::toString() const
{
    QString s = file.isEmpty() ? QStringLiteral("<profile>") : file;
    if (line > 0)
        s += QLatin1Char(':') + QString::number(line) + QLatin1Char(':') + QString::number(column);
    s += severity == Severity::Error ? QStringLiteral(": error: ") : QStringLiteral(": warning: ");
    if (!keyPath.isEmpty())
        s += keyPath + QStringLiteral(": ");
    return s + message;
}

bool hasErrors(const QList<ProfileIssue> &issues)
{
    return std::any_of(issues.begin(), issues.end(), [](const ProfileIssue &i) { return i.isError(); });
}

QString namingPolicyName(NamingPolicy p)
{
    switch (p) {
    case NamingPolicy::Identity: return QStringLiteral("identity");
    case NamingPolicy::Prefix: return QStringLiteral("prefix");
    case NamingPolicy::Template: return QStringLiteral("template");
    }
    return QStringLiteral("prefix");
}

QString startPositionName(StartPosition p)
{
    switch (p) {
    case StartPosition::Committed: return QStringLiteral("committed");
    case StartPosition::Earliest: return QStringLiteral("earliest");
    case StartPosition::Latest: return QStringLiteral("latest");
    case StartPosition::Timestamp: return QStringLiteral("timestamp");
    }
    return QStringLiteral("committed");
}

QString deliveryName(DeliveryGuarantee d)
{
    return d == DeliveryGuarantee::ExactlyOnce ? QStringLiteral("exactly-once") : QStringLiteral("at-least-once");
}

// ---------------------------------------------------------------- references

QString SecretRef::toString() const
{
    return QStringLiteral("${") + kind + QLatin1Char(':') + arg + QLatin1Char('}');
}

namespace {

bool isKindChar(QChar c, bool first)
{
    const ushort u = c.unicode();
    if (u >= 'a' && u <= 'z')
        return true;
    return !first && ((u >= '0' && u <= '9') || u == '_' || u == '-');
}

// Walks `text`, calling onLiteral for plain text and onRef for each reference.
// Returns an error text for a malformed reference, else empty.
template<typename Literal, typename Ref>
QString scanReferences(const QString &text, Literal onLiteral, Ref onRef)
{
    qsizetype i = 0;
    const qsizetype n = text.size();
    qsizetype literalStart = 0;
    while (i < n) {
        if (text.at(i) == QLatin1Char('$') && i + 2 < n && text.at(i + 1) == QLatin1Char('$') && text.at(i + 2) == QLatin1Char('{')) {
            onLiteral(text.mid(literalStart, i - literalStart));
            onLiteral(QStringLiteral("${"));
            i += 3;
            literalStart = i;
            continue;
        }
        if (text.at(i) == QLatin1Char('$') && i + 1 < n && text.at(i + 1) == QLatin1Char('{')) {
            const qsizetype close = text.indexOf(QLatin1Char('}'), i + 2);
            if (close < 0)
                return QStringLiteral("unterminated reference at character %1 (expected ${kind:argument}; write $${ for a literal ${)")
                    .arg(i + 1);
            const QString body = text.mid(i + 2, close - i - 2);
            const qsizetype colon = body.indexOf(QLatin1Char(':'));
            const QString kind = body.left(colon);
            bool kindOk = colon > 0;
            for (qsizetype k = 0; kindOk && k < kind.size(); ++k)
                kindOk = isKindChar(kind.at(k), k == 0);
            if (!kindOk || colon == body.size() - 1)
                return QStringLiteral("malformed reference \"${%1}\" (expected ${kind:argument}, e.g. ${env:NAME}; write $${ for a literal ${)")
                    .arg(body);
            onLiteral(text.mid(literalStart, i - literalStart));
            onRef(SecretRef{kind, body.mid(colon + 1)});
            i = close + 1;
            literalStart = i;
            continue;
        }
        ++i;
    }
    onLiteral(text.mid(literalStart));
    return {};
}

} // namespace

QList<SecretRef> SecretRef::findAll(const QString &text, QString *error)
{
    QList<SecretRef> refs;
    const QString e = scanReferences(text, [](const QString &) {}, [&](const SecretRef &r) { refs.append(r); });
    if (error)
        *error = e;
    return refs;
}

std::optional<SecretRef> SecretRef::whole(const QString &text)
{
    QString error;
    const QList<SecretRef> refs = findAll(text, &error);
    if (!error.isEmpty() || refs.size() != 1 || refs.first().toString() != text)
        return std::nullopt;
    return refs.first();
}

// ---------------------------------------------------------------- validation

namespace {

const QStringList &saslMechanisms()
{
    static const QStringList m = {QStringLiteral("PLAIN"), QStringLiteral("SCRAM-SHA-256"), QStringLiteral("SCRAM-SHA-512")};
    return m;
}

bool isSecretPropertyName(const QString &key)
{
    const QString k = key.toLower();
    return k.contains(QLatin1String("password")) || k.contains(QLatin1String("secret"));
}

// Clear text: a non-empty value without any reference in it.
bool isClearText(const QString &value)
{
    if (value.isEmpty())
        return false;
    QString error;
    return SecretRef::findAll(value, &error).isEmpty() && error.isEmpty();
}

class Checker final
{
public:
    explicit Checker(const JobProfile &p) : m_p(p) {}

    void error(const QString &path, const QString &message) { add(ProfileIssue::Severity::Error, path, message); }
    void warn(const QString &path, const QString &message) { add(ProfileIssue::Severity::Warning, path, message); }

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
            warn(path, QStringLiteral("a secret is written in clear text; prefer \"${env:NAME}\" or a keychain reference "
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
            if (engineOwned.contains(it.key()))
                warn(p, QStringLiteral("ignored: the mirror engine sets this property itself (its guarantees depend on it)"));
            if (isSecretPropertyName(it.key()))
                secret(it.value(), p);
            else
                references(it.value(), p);
        }
    }

    void side(const ProfileSide &s, const QString &path)
    {
        bootstrap(s.bootstrap, path + QStringLiteral(".bootstrap"));
        const bool sasl = s.security == SecurityProtocol::SaslPlaintext || s.security == SecurityProtocol::SaslSsl;
        const bool ssl = s.security == SecurityProtocol::Ssl || s.security == SecurityProtocol::SaslSsl;
        const QString protocol = securityProtocolName(s.security);
        if (sasl) {
            if (!s.hasSasl) {
                error(path + QStringLiteral(".sasl"),
                      QStringLiteral("required with security %1: { \"mechanism\": \"SCRAM-SHA-512\", \"username\": ..., "
                                     "\"password\": \"${env:NAME}\" }")
                          .arg(protocol));
            } else {
                if (s.saslMechanism.isEmpty())
                    error(path + QStringLiteral(".sasl.mechanism"),
                          QStringLiteral("required with security %1 (PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512)").arg(protocol));
                if (s.saslUsername.isEmpty())
                    error(path + QStringLiteral(".sasl.username"), QStringLiteral("required with security %1").arg(protocol));
                if (s.saslPassword.isEmpty())
                    error(path + QStringLiteral(".sasl.password"),
                          QStringLiteral("required with security %1 (e.g. \"${env:NAME}\")").arg(protocol));
            }
        } else if (s.hasSasl) {
            warn(path + QStringLiteral(".sasl"),
                 QStringLiteral("ignored with security %1 (use sasl_plaintext or sasl_ssl)").arg(protocol));
        }
        if (s.hasSasl) {
            if (!s.saslMechanism.isEmpty() && !saslMechanisms().contains(s.saslMechanism.toUpper()))
                error(path + QStringLiteral(".sasl.mechanism"),
                      QStringLiteral("unsupported mechanism \"%1\" (expected PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512)")
                          .arg(s.saslMechanism));
            references(s.saslUsername, path + QStringLiteral(".sasl.username"));
            secret(s.saslPassword, path + QStringLiteral(".sasl.password"));
        }
        const bool anySsl = !s.sslCa.isEmpty() || !s.sslCert.isEmpty() || !s.sslKey.isEmpty() || !s.sslKeyPassword.isEmpty();
        if (anySsl && !ssl)
            warn(path + QStringLiteral(".ssl"), QStringLiteral("ignored with security %1 (use ssl or sasl_ssl)").arg(protocol));
        if (ssl) {
            if (!s.sslCert.isEmpty() && s.sslKey.isEmpty())
                error(path + QStringLiteral(".ssl.key"), QStringLiteral("required with ssl.cert (the client certificate's private key)"));
            if (!s.sslKey.isEmpty() && s.sslCert.isEmpty())
                error(path + QStringLiteral(".ssl.cert"), QStringLiteral("required with ssl.key (the client certificate)"));
            if (!s.sslKeyPassword.isEmpty() && s.sslKey.isEmpty())
                warn(path + QStringLiteral(".ssl.keyPassword"), QStringLiteral("ignored without ssl.key"));
        }
        references(s.sslCa, path + QStringLiteral(".ssl.ca"));
        references(s.sslCert, path + QStringLiteral(".ssl.cert"));
        references(s.sslKey, path + QStringLiteral(".ssl.key"));
        secret(s.sslKeyPassword, path + QStringLiteral(".ssl.keyPassword"));

        const QStringList common = {QStringLiteral("group.id"), QStringLiteral("enable.auto.commit"),
                                    QStringLiteral("enable.auto.offset.store"), QStringLiteral("isolation.level"),
                                    QStringLiteral("enable.idempotence"), QStringLiteral("acks")};
        properties(s.properties, path + QStringLiteral(".properties"), path == QLatin1String("source") ? common.mid(0, 4) : common.mid(4));
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
            error(QStringLiteral("mirrordesk"),
                  QStringLiteral("unknown format version %1 (expected %2)").arg(p.version).arg(JobProfile::FormatVersion));
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
        if (p.groupsInclude.isEmpty() && !p.groupsExclude.isEmpty())
            warn(QStringLiteral("groups.exclude"), QStringLiteral("no effect without groups.include: no group is selected"));
        if (p.emitCheckpoints) {
            const QString alias = p.checkpointsAlias.isEmpty() ? p.source.alias : p.checkpointsAlias;
            if (alias.isEmpty())
                error(QStringLiteral("checkpoints.sourceAlias"),
                      QStringLiteral("required without source.alias: it names the topic <alias>.checkpoints.internal "
                                     "and is what applications pass to RemoteClusterUtils.translateOffsets"));
            else if (!isLegalTopicText(alias) && !(p.checkpointsAlias.isEmpty() && p.naming == NamingPolicy::Prefix))
                error(p.checkpointsAlias.isEmpty() ? QStringLiteral("source.alias") : QStringLiteral("checkpoints.sourceAlias"),
                      QStringLiteral("\"%1\" cannot be part of a topic name (letters, digits, '.', '_' and '-' only)").arg(alias));
            if (p.groupsInclude.isEmpty())
                warn(QStringLiteral("checkpoints.enabled"), QStringLiteral("no effect without groups.include: no group is selected"));
        }
        if (!p.offsetMap) {
            // Each of these reads or writes the map: without it they could only guess.
            const QString no = QStringLiteral("offsetMap is false, but %1 needs the offset map (remove one of the two)");
            if (!p.groupsInclude.isEmpty() && p.syncGroupOffsets)
                error(QStringLiteral("offsetMap"), no.arg(QStringLiteral("group offset sync (groups.include with syncGroupOffsets)")));
            if (p.emitCheckpoints)
                error(QStringLiteral("offsetMap"), no.arg(QStringLiteral("checkpoints.enabled")));
            if (p.delivery == DeliveryGuarantee::ExactlyOnce)
                error(QStringLiteral("offsetMap"), no.arg(QStringLiteral("\"delivery\": \"exactly-once\"")));
            if (!p.offsetMapTopic.isEmpty())
                warn(QStringLiteral("offsetMapTopic"), QStringLiteral("ignored with offsetMap false: no map is written"));
        }
        if (p.transactionIntervalMs < JobProfile::MinTransactionIntervalMs
            || p.transactionIntervalMs > JobProfile::MaxTransactionIntervalMs)
            error(QStringLiteral("transactionIntervalMs"), QStringLiteral("must be from %1 to %2")
                                                               .arg(JobProfile::MinTransactionIntervalMs)
                                                               .arg(JobProfile::MaxTransactionIntervalMs));
        if (p.transactionMaxRecords < 1 || p.transactionMaxRecords > JobProfile::MaxTransactionRecords)
            error(QStringLiteral("transactionMaxRecords"),
                  QStringLiteral("must be from 1 to %1").arg(JobProfile::MaxTransactionRecords));
        if (p.groupSyncIntervalMs < JobProfile::MinGroupSyncIntervalMs || p.groupSyncIntervalMs > JobProfile::MaxGroupSyncIntervalMs)
            error(QStringLiteral("groupSyncIntervalMs"), QStringLiteral("must be from %1 to %2")
                                                             .arg(JobProfile::MinGroupSyncIntervalMs)
                                                             .arg(JobProfile::MaxGroupSyncIntervalMs));

        switch (p.naming) {
        case NamingPolicy::Identity:
            if (!p.source.bootstrap.isEmpty()
                && p.source.bootstrap.trimmed().compare(p.target.bootstrap.trimmed(), Qt::CaseInsensitive) == 0)
                error(QStringLiteral("naming.policy"),
                      QStringLiteral("source and target have the same bootstrap servers: identity naming would mirror "
                                     "every topic onto itself (use prefix or template)"));
            break;
        case NamingPolicy::Prefix:
            if (p.source.alias.isEmpty())
                error(QStringLiteral("source.alias"),
                      QStringLiteral("required with naming policy prefix (target topics are named <alias><separator><topic>)"));
            else if (!isLegalTopicText(p.source.alias))
                error(QStringLiteral("source.alias"),
                      QStringLiteral("\"%1\" cannot be part of a topic name (letters, digits, '.', '_' and '-' only)")
                          .arg(p.source.alias));
            if (p.separator.isEmpty())
                error(QStringLiteral("naming.separator"), QStringLiteral("must not be empty with naming policy prefix"));
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
                      QStringLiteral("\"%1\" must contain ${topic}: without it every topic gets the same name").arg(p.nameTemplate));
                break;
            }
            QString rest = p.nameTemplate;
            rest.remove(QStringLiteral("${topic}"));
            if (rest.contains(QLatin1String("${")))
                error(QStringLiteral("naming.template"),
                      QStringLiteral("\"%1\": the only placeholder is ${topic}").arg(p.nameTemplate));
            else if (!isLegalTopicText(rest))
                error(QStringLiteral("naming.template"),
                      QStringLiteral("\"%1\" cannot make a topic name (letters, digits, '.', '_' and '-' only around ${topic})")
                          .arg(p.nameTemplate));
            break;
        }
        }

        if (p.start == StartPosition::Timestamp && !p.startTimestamp.isValid())
            error(QStringLiteral("start.timestamp"), QStringLiteral("required: an ISO 8601 date and time with a time zone"));
        if (p.stop == StopCondition::AtTimestamp && !p.stopTimestamp.isValid())
            error(QStringLiteral("stop.timestamp"), QStringLiteral("required: an ISO 8601 date and time with a time zone"));
        if (p.stop == StopCondition::AtTimestamp && p.start == StartPosition::Timestamp && p.startTimestamp.isValid()
            && p.stopTimestamp.isValid() && p.stopTimestamp <= p.startTimestamp)
            error(QStringLiteral("stop.timestamp"), QStringLiteral("must be later than start.timestamp"));
        if (p.stop == StopCondition::AfterRecords && p.stopAfterRecords < 1)
            error(QStringLiteral("stop.records"), QStringLiteral("must be at least 1"));
        if (p.throttleBytesPerSecond < 0)
            error(QStringLiteral("throttleBytesPerSecond"), QStringLiteral("must be 0 (unlimited) or more"));
        if (p.samplingIntervalMs < JobProfile::MinSamplingIntervalMs || p.samplingIntervalMs > JobProfile::MaxSamplingIntervalMs)
            error(QStringLiteral("samplingIntervalMs"), QStringLiteral("must be from %1 to %2")
                                                            .arg(JobProfile::MinSamplingIntervalMs)
                                                            .arg(JobProfile::MaxSamplingIntervalMs));
        if (p.topicRefreshIntervalMs < JobProfile::MinTopicRefreshIntervalMs
            || p.topicRefreshIntervalMs > JobProfile::MaxTopicRefreshIntervalMs)
            error(QStringLiteral("topicRefreshIntervalMs"), QStringLiteral("must be from %1 to %2")
                                                                .arg(JobProfile::MinTopicRefreshIntervalMs)
                                                                .arg(JobProfile::MaxTopicRefreshIntervalMs));
        if (!p.groupId.isEmpty() && p.groupId.trimmed() != p.groupId)
            error(QStringLiteral("groupId"), QStringLiteral("must not start or end with spaces"));
        if (!p.offsetMapTopic.isEmpty() && !isValidKafkaTopicName(p.offsetMapTopic))
            error(QStringLiteral("offsetMapTopic"),
                  QStringLiteral("\"%1\" is not a valid Kafka topic name (1 to 249 of a-z A-Z 0-9 . _ -, not \".\" or \"..\")")
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
        if (isClearText(s->saslPassword) || isClearText(s->sslKeyPassword))
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

QString JobProfile::groupIdForName(const QString &name)
{
    QString slug;
    bool dash = false;
    for (const QChar c : name.toLower()) {
        const ushort u = c.unicode();
        const bool keep = (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || u == '.' || u == '_';
        if (keep) {
            if (dash && !slug.isEmpty())
                slug += QLatin1Char('-');
            slug += c;
            dash = false;
        } else {
            dash = true;
        }
    }
    return QStringLiteral("mirrordesk-") + (slug.isEmpty() ? QStringLiteral("job") : slug);
}

// ---------------------------------------------------------------- resolving

namespace {

class Resolver final
{
public:
    Resolver(const JobProfile &p, const ReferenceResolver &resolver, QList<ProfileIssue> *issues)
        : m_p(p), m_resolver(resolver), m_issues(issues)
    {}

    bool ok = true;

    void error(const QString &path, const QString &message)
    {
        ok = false;
        ProfileIssue i;
        i.file = m_p.fileName;
        i.keyPath = path;
        i.message = message;
        m_issues->append(i);
    }

    QString text(const QString &value, const QString &path)
    {
        QString out;
        bool failed = false;
        const QString e = scanReferences(
            value, [&](const QString &lit) { out += lit; },
            [&](const SecretRef &r) {
                if (failed)
                    return;
                const std::optional<QString> v = one(r, path);
                if (v)
                    out += *v;
                else
                    failed = true;
            });
        if (!e.isEmpty()) {
            error(path, e);
            return {};
        }
        return failed ? QString() : out;
    }

    // A file: references resolved, relative paths taken from the profile's folder.
    QString file(const QString &value, const QString &path)
    {
        if (value.isEmpty())
            return {};
        QString f = text(value, path);
        if (f.isEmpty())
            return {};
        if (QDir::isRelativePath(f) && !m_p.fileName.isEmpty())
            f = QFileInfo(m_p.fileName).absoluteDir().absoluteFilePath(f);
        const QFileInfo info(f);
        if (!info.exists())
            error(path, QStringLiteral("file not found: %1").arg(f));
        else if (!info.isFile() || !info.isReadable())
            error(path, QStringLiteral("not a readable file: %1").arg(f));
        return f;
    }

    QMap<QString, QString> map(const QMap<QString, QString> &m, const QString &path)
    {
        QMap<QString, QString> out;
        for (auto it = m.begin(); it != m.end(); ++it)
            out.insert(it.key(), text(it.value(), mapKeyPath(path, it.key())));
        return out;
    }

    ClusterConfig side(const ProfileSide &s, const QString &path)
    {
        ClusterConfig c;
        c.alias = s.alias.isEmpty() ? path : s.alias;
        c.bootstrap = text(s.bootstrap, path + QStringLiteral(".bootstrap")).trimmed();
        if (ok && c.bootstrap.isEmpty())
            error(path + QStringLiteral(".bootstrap"), QStringLiteral("resolves to an empty value"));
        c.security = s.security;
        const bool sasl = s.security == SecurityProtocol::SaslPlaintext || s.security == SecurityProtocol::SaslSsl;
        const bool ssl = s.security == SecurityProtocol::Ssl || s.security == SecurityProtocol::SaslSsl;
        if (sasl) {
            c.saslMechanism = s.saslMechanism.toUpper();
            c.saslUsername = text(s.saslUsername, path + QStringLiteral(".sasl.username"));
            c.saslPassword = text(s.saslPassword, path + QStringLiteral(".sasl.password"));
        }
        if (ssl) {
            c.sslCaFile = file(s.sslCa, path + QStringLiteral(".ssl.ca"));
            c.sslCertFile = file(s.sslCert, path + QStringLiteral(".ssl.cert"));
            c.sslKeyFile = file(s.sslKey, path + QStringLiteral(".ssl.key"));
            c.sslKeyPassword = text(s.sslKeyPassword, path + QStringLiteral(".ssl.keyPassword"));
        }
        c.properties = map(s.properties, path + QStringLiteral(".properties"));
        c.consumerProperties = map(s.consumerProperties, path + QStringLiteral(".consumerProperties"));
        c.producerProperties = map(s.producerProperties, path + QStringLiteral(".producerProperties"));
        c.adminProperties = map(s.adminProperties, path + QStringLiteral(".adminProperties"));
        return c;
    }

private:
    std::optional<QString> one(const SecretRef &r, const QString &path)
    {
        if (r.kind == QLatin1String("env")) {
            const QByteArray name = r.arg.toLocal8Bit();
            if (!qEnvironmentVariableIsSet(name.constData())) {
                error(path, QStringLiteral("environment variable %1 is not set (referenced as %2)").arg(r.arg, r.toString()));
                return std::nullopt;
            }
            return qEnvironmentVariable(name.constData());
        }
        if (!m_resolver) {
            error(path, QStringLiteral("cannot resolve %1 here (no %2 support in this context)").arg(r.toString(), r.kind));
            return std::nullopt;
        }
        QString why;
        std::optional<QString> v = m_resolver(r.kind, r.arg, &why);
        if (!v) {
            error(path, QStringLiteral("cannot resolve %1: %2")
                            .arg(r.toString(), why.isEmpty() ? QStringLiteral("unknown reference kind \"%1\"").arg(r.kind) : why));
        }
        return v;
    }

    const JobProfile &m_p;
    const ReferenceResolver &m_resolver;
    QList<ProfileIssue> *m_issues;
};

} // namespace

std::optional<MirrorJobSpec> JobProfile::toSpec(const ReferenceResolver &resolver, QList<ProfileIssue> *issues) const
{
    QList<ProfileIssue> local;
    if (!issues)
        issues = &local;
    // Only the errors: the warnings were reported when the profile was loaded.
    bool valid = true;
    for (const ProfileIssue &i : validate()) {
        if (i.isError()) {
            issues->append(i);
            valid = false;
        }
    }
    if (!valid)
        return std::nullopt;

    Resolver r(*this, resolver, issues);
    MirrorJobSpec s;
    s.name = name;
    s.source = r.side(source, QStringLiteral("source"));
    s.target = r.side(target, QStringLiteral("target"));
    s.include = include;
    s.exclude = exclude;
    s.excludeInternalTopics = excludeInternalTopics;
    s.naming = naming;
    s.separator = separator;
    s.nameTemplate = nameTemplate.isEmpty() ? QStringLiteral("${topic}") : nameTemplate;
    s.groupId = effectiveGroupId();
    s.offsetMap = offsetMap;
    s.offsetMapTopic = offsetMapTopic.isEmpty() ? defaultOffsetMapTopic(s.groupId) : offsetMapTopic;
    s.start = start;
    s.startTimestamp = startTimestamp;
    s.stop = stop;
    s.stopTimestamp = stopTimestamp;
    s.stopAfterRecords = stopAfterRecords;
    s.delivery = delivery;
    s.transactionIntervalMs = transactionIntervalMs;
    s.transactionMaxRecords = transactionMaxRecords;
    s.createTopics = createTopics;
    s.syncTopicConfigs = syncTopicConfigs;
    s.configExclude = configExclude;
    s.throttleBytesPerSecond = throttleBytesPerSecond;
    s.samplingIntervalMs = samplingIntervalMs;
    s.topicRefreshIntervalMs = topicRefreshIntervalMs;
    s.groupsInclude = groupsInclude;
    s.groupsExclude = groupsExclude;
    s.syncGroupOffsets = syncGroupOffsets;
    s.groupSyncIntervalMs = groupSyncIntervalMs;
    s.emitCheckpoints = emitCheckpoints;
    s.checkpointsAlias = checkpointsAlias.isEmpty() ? source.alias : checkpointsAlias;
    if (!r.ok)
        return std::nullopt;
    return s;
}

} // namespace md
