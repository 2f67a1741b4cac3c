#pragma once

// Helpers shared by the job profile tests (tst_jobprofile, tst_profile*):
// a valid profile to break in one place, a fully populated one, issue lists
// written out for failure messages, and their errors or warnings alone.

#include "model/profile/JobProfile.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <initializer_list>
#include <utility>

namespace md::test {

// A valid profile that each case below breaks in one place.
inline QJsonObject baseObject()
{
    return QJsonDocument::fromJson(R"({
        "mirrordesk": 1,
        "name": "orders to DR",
        "source": { "alias": "eu", "bootstrap": "kafka-eu:9092", "security": "plaintext" },
        "target": { "alias": "dr", "bootstrap": "kafka-dr:9092", "security": "plaintext" },
        "topics": { "include": ["orders\\..*"], "exclude": [".*\\.internal"] },
        "naming": { "policy": "prefix", "separator": "." },
        "start": "earliest",
        "delivery": "at-least-once",
        "createTopics": true,
        "syncTopicConfigs": true,
        "throttleBytesPerSecond": 0
    })")
        .object();
}

// Sets (or with an undefined value removes) a dotted key path in a JSON object.
inline void setPath(QJsonObject &o, QStringList path, const QJsonValue &v)
{
    const QString key = path.takeFirst();
    if (path.isEmpty()) {
        if (v.isUndefined())
            o.remove(key);
        else
            o.insert(key, v);
        return;
    }
    QJsonObject child = o.value(key).toObject();
    setPath(child, path, v);
    o.insert(key, child);
}

inline QByteArray profileWith(const QString &path, const QJsonValue &v)
{
    QJsonObject o = baseObject();
    setPath(o, path.split(QLatin1Char('.')), v);
    return QJsonDocument(o).toJson();
}

inline QByteArray profileWith(std::initializer_list<std::pair<QString, QJsonValue>> changes)
{
    QJsonObject o = baseObject();
    for (const auto &[path, v] : changes)
        setPath(o, path.split(QLatin1Char('.')), v);
    return QJsonDocument(o).toJson();
}

inline QJsonValue parse(const char *json)
{
    return QJsonDocument::fromJson(QByteArray("[") + json + "]").array().at(0);
}

inline QString describe(const QList<ProfileIssue> &issues)
{
    QStringList lines;
    for (const ProfileIssue &i : issues)
        lines << i.toString();
    return lines.join(QLatin1Char('\n'));
}

inline QList<ProfileIssue> errorsOf(const QList<ProfileIssue> &issues)
{
    QList<ProfileIssue> out;
    for (const ProfileIssue &i : issues)
        if (i.isError())
            out << i;
    return out;
}

inline QList<ProfileIssue> warningsOf(const QList<ProfileIssue> &issues)
{
    QList<ProfileIssue> out;
    for (const ProfileIssue &i : issues)
        if (!i.isError())
            out << i;
    return out;
}

inline JobProfile fullProfile()
{
    JobProfile p;
    p.name = QStringLiteral("orders to DR ✓");
    p.source.alias = QStringLiteral("eu");
    p.source.bootstrap = QStringLiteral("kafka-eu-1:9092,kafka-eu-2:9092");
    p.source.security = SecurityProtocol::SaslSsl;
    p.source.hasSasl = true;
    p.source.saslMechanism = QStringLiteral("SCRAM-SHA-512");
    p.source.saslUsername = QStringLiteral("mirror");
    p.source.saslPassword = QStringLiteral("${env:EU_PASSWORD}");
    p.source.sslCa = QStringLiteral("/etc/ssl/eu-ca.pem");
    p.source.sslCert = QStringLiteral("certs/client.pem");
    p.source.sslKey = QStringLiteral("certs/client.key");
    p.source.sslKeyPassword = QStringLiteral("${keychain:mirrordesk/eu-key}");
    p.source.hasSchemaRegistry = true;
    p.source.registryUrl = QStringLiteral("https://registry-eu:8443/apis/ccompat/v7");
    p.source.registryUsername = QStringLiteral("mirror");
    p.source.registryPassword = QStringLiteral("${keychain:mirrordesk/eu-registry}");
    p.source.registryCa = QStringLiteral("registry-ca.pem");
    p.target.hasSchemaRegistry = true;
    p.target.registryUrl = QStringLiteral("http://registry-dr:8081");
    p.target.registryToken = QStringLiteral("${env:DR_REGISTRY_TOKEN}");
    p.source.properties = {{QStringLiteral("client.rack"), QStringLiteral("eu-1a")}};
    p.source.consumerProperties = {{QStringLiteral("fetch.max.bytes"), QStringLiteral("52428800")}};
    p.source.adminProperties = {{QStringLiteral("socket.timeout.ms"), QStringLiteral("5000")}};
    p.target.alias = QStringLiteral("dr");
    p.target.bootstrap = QStringLiteral("kafka-dr:9092");
    p.target.security = SecurityProtocol::Ssl;
    p.target.sslCa = QStringLiteral("dr-ca.pem");
    p.target.producerProperties = {{QStringLiteral("linger.ms"), QStringLiteral("20")},
                                   {QStringLiteral("compression.type"), QStringLiteral("zstd")}};
    p.include = {QStringLiteral("orders\\..*"), QStringLiteral("payments")};
    p.exclude = {QStringLiteral(".*\\.internal")};
    p.excludeInternalTopics = false;
    p.naming = NamingPolicy::Template;
    p.separator = QStringLiteral("_");
    p.nameTemplate = QStringLiteral("dr-${topic}");
    p.groupId = QStringLiteral("custom-group");
    p.originHeader = QStringLiteral("mirrordesk.origin");
    p.start = StartPosition::Timestamp;
    p.startTimestamp = QDateTime(QDate(2026, 11, 1), QTime(0, 0), Qt::UTC);
    p.stop = StopCondition::AtTimestamp;
    p.stopTimestamp = QDateTime(QDate(2026, 11, 2), QTime(12, 30, 0, 250), Qt::UTC);
    p.createTopics = false;
    p.syncTopicConfigs = false;
    p.configExclude = {QStringLiteral("retention\\..*")};
    p.throttleBytesPerSecond = 10 * 1024 * 1024;
    p.samplingIntervalMs = 500;
    p.topicRefreshIntervalMs = 5000;
    p.groupsInclude = {QStringLiteral("billing-.*"), QStringLiteral("orders-app")};
    p.groupsExclude = {QStringLiteral(".*-test")};
    p.syncGroupOffsets = false;
    p.groupSyncIntervalMs = 2500;
    p.emitCheckpoints = true;
    p.checkpointsAlias = QStringLiteral("eu-mm2");
    p.syncAcls = true;
    p.aclSyncIntervalMs = 300000;
    p.aclSyncMode = MirrorJobSpec::AclSyncMode::Exact;
    p.syncSchemas = true;
    p.schemaIds = MirrorJobSpec::SchemaIds::Preserve;
    p.schemaSubjectsInclude = {QStringLiteral("orders-.*")};
    p.schemaSubjectsExclude = {QStringLiteral(".*-key")};
    p.schemaSyncIntervalMs = 120000;
    return p;
}

} // namespace md::test
