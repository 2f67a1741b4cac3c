// JobProfile::toSpec: every ${kind:arg} reference resolved and the engine's
// spec built; issues name the key path and the reference, never a value.

#include "model/profile/JobProfile.h"
#include "model/profile/ProfileReferences.h"
#include "model/profile/ProfileSupport.h"

#include "engine/offsetmap/OffsetMap.h"

#include <QDir>
#include <QFileInfo>

namespace md {

using namespace profile_detail;

// ---------------------------------------------------------------- resolving

namespace {

class Resolver final {
public:
    Resolver(const JobProfile &p, const ReferenceResolver &resolver, QList<ProfileIssue> *issues)
        : m_p(p), m_resolver(resolver), m_issues(issues)
    {
    }

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
        if (s.hasSchemaRegistry && !s.registryUrl.isEmpty()) {
            const QString r = path + QStringLiteral(".schemaRegistry");
            c.schemaRegistry.url = text(s.registryUrl, r + QStringLiteral(".url")).trimmed();
            c.schemaRegistry.username = text(s.registryUsername, r + QStringLiteral(".username"));
            c.schemaRegistry.password = text(s.registryPassword, r + QStringLiteral(".password"));
            c.schemaRegistry.token = text(s.registryToken, r + QStringLiteral(".token"));
            c.schemaRegistry.caFile = file(s.registryCa, r + QStringLiteral(".ca"));
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
                error(path,
                      QStringLiteral("environment variable %1 is not set (referenced as %2)").arg(r.arg, r.toString()));
                return std::nullopt;
            }
            return qEnvironmentVariable(name.constData());
        }
        if (!m_resolver) {
            error(path,
                  QStringLiteral("cannot resolve %1 here (no %2 support in this context)").arg(r.toString(), r.kind));
            return std::nullopt;
        }
        QString why;
        std::optional<QString> v = m_resolver(r.kind, r.arg, &why);
        if (!v) {
            error(path, QStringLiteral("cannot resolve %1: %2")
                            .arg(r.toString(),
                                 why.isEmpty() ? QStringLiteral("unknown reference kind \"%1\"").arg(r.kind) : why));
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
    s.originHeader = originHeader;
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
    s.syncAcls = syncAcls;
    s.aclSyncIntervalMs = aclSyncIntervalMs;
    s.aclSyncMode = aclSyncMode;
    s.syncSchemas = syncSchemas;
    s.schemaIds = schemaIds;
    s.schemaSubjectsInclude = schemaSubjectsInclude;
    s.schemaSubjectsExclude = schemaSubjectsExclude;
    s.schemaSyncIntervalMs = schemaSyncIntervalMs;
    if (!r.ok)
        return std::nullopt;
    return s;
}

} // namespace md
