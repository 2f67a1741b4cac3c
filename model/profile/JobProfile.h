#pragma once

#include "engine/core/ClusterConfig.h"
#include "engine/mirror/MirrorJobSpec.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace md {

// One finding about a profile. Syntax problems carry line and column (1-based,
// columns count characters, not bytes); meaning problems carry the key path
// ("topics.include[0]", "source.sasl.password").
struct ProfileIssue {
    enum class Severity { Warning, Error };
    Severity severity = Severity::Error;
    QString file; // as given to fromJson/load; may be empty
    int line = 0; // 0: not known
    int column = 0;
    QString keyPath; // empty for whole-file problems
    QString message; // never contains a secret's value

    bool isError() const { return severity == Severity::Error; }
    // "file:3:14: error: message" or "file: warning: source.sasl.password: message"
    QString toString() const;

    bool operator==(const ProfileIssue &) const = default;
};

bool hasErrors(const QList<ProfileIssue> &issues);

// A "${kind:arg}" reference inside a profile string value ("${env:EU_PASSWORD}",
// "${keychain:mirrordesk/eu}", "${sandbox:source}"). kind is [a-z][a-z0-9_-]*;
// "$${" writes a literal "${". References may be embedded ("${env:HOST}:9092").
struct SecretRef {
    QString kind;
    QString arg;

    QString toString() const; // "${kind:arg}"
    bool operator==(const SecretRef &) const = default;

    // Every reference in `text`, in order; a malformed one ("${env:", "${:x}")
    // sets *error and returns what was found before it.
    static QList<SecretRef> findAll(const QString &text, QString *error = nullptr);
    // True when `text` is exactly one reference and nothing else.
    static std::optional<SecretRef> whole(const QString &text);
};

// Resolves one reference to its value. Returns nullopt and sets *error (which
// must not contain the value) when it cannot. "env" is always resolved by
// JobProfile itself from the process environment; any other kind goes to the
// resolver, and without one it is an error.
using ReferenceResolver =
    std::function<std::optional<QString>(const QString &kind, const QString &arg, QString *error)>;

// One cluster side of a profile, exactly as written: strings may still hold
// ${kind:arg} references; secrets are not resolved here.
struct ProfileSide {
    QString alias;                                           // "alias"
    QString bootstrap;                                       // "bootstrap" (required)
    SecurityProtocol security = SecurityProtocol::Plaintext; // "security"
    bool hasSasl = false;                                    // "sasl" object present
    QString saslMechanism;                                   // "sasl.mechanism": PLAIN, SCRAM-SHA-256, SCRAM-SHA-512
    QString saslUsername;                                    // "sasl.username"
    QString saslPassword;                                    // "sasl.password" (as written: a reference or clear text)
    QString sslCa;                                           // "ssl.ca"   (file)
    QString sslCert;                                         // "ssl.cert" (file)
    QString sslKey;                                          // "ssl.key"  (file)
    QString sslKeyPassword;                                  // "ssl.keyPassword" (as written)
    // The schema registry beside this cluster ("schemaRegistry" object).
    bool hasSchemaRegistry = false; // "schemaRegistry" object present
    QString registryUrl;            // "schemaRegistry.url": http(s), may carry a path
    QString registryUsername;       // "schemaRegistry.username" (basic authentication)
    QString registryPassword;       // "schemaRegistry.password" (as written: a reference or clear text)
    QString registryToken;          // "schemaRegistry.token" (bearer; as written)
    QString registryCa;             // "schemaRegistry.ca" (file)
    // Free librdkafka properties; numbers and booleans in the file become strings.
    QMap<QString, QString> properties;         // "properties": every client of this side
    QMap<QString, QString> consumerProperties; // "consumerProperties"
    QMap<QString, QString> producerProperties; // "producerProperties"
    QMap<QString, QString> adminProperties;    // "adminProperties"

    bool operator==(const ProfileSide &) const = default;
};

// A *.mirrorjob file, format version 1. Every key, with its type, default and
// range, is in the schema table (ProfileSchema.cpp) and docs/PROFILE.md;
// docs/ARCHITECTURE.md says what the engine does with them. Cross-key rules
// are validate()'s: offsetMap false is refused with group offset sync,
// checkpoints and exactly-once; naming.template must hold ${topic}; prefix
// naming needs source.alias.
// Unknown keys warn (with their key path); unknown top-level keys are kept
// and written back by toJson() so a newer minor addition survives a save.
class JobProfile final {
public:
    static constexpr int FormatVersion = 1;
    static constexpr qint64 MaxFileSize = 4 * 1024 * 1024; // larger files are refused
    static constexpr int MinSamplingIntervalMs = 10;
    static constexpr int MaxSamplingIntervalMs = 60000;
    static constexpr int MinTopicRefreshIntervalMs = 1000;
    static constexpr int MaxTopicRefreshIntervalMs = 3600000;
    static constexpr int DefaultGroupSyncIntervalMs = MirrorJobSpec::DefaultGroupSyncIntervalMs;
    static constexpr int MinGroupSyncIntervalMs = 1000;
    static constexpr int MaxGroupSyncIntervalMs = 3600000;
    static constexpr int DefaultAclSyncIntervalMs = MirrorJobSpec::DefaultAclSyncIntervalMs;
    static constexpr int MinAclSyncIntervalMs = 1000;
    static constexpr int MaxAclSyncIntervalMs = 86400000;
    static constexpr int DefaultSchemaSyncIntervalMs = MirrorJobSpec::DefaultSchemaSyncIntervalMs;
    static constexpr int MinSchemaSyncIntervalMs = 1000;
    static constexpr int MaxSchemaSyncIntervalMs = 86400000;
    static constexpr int DefaultTransactionIntervalMs = MirrorJobSpec::DefaultTransactionIntervalMs;
    static constexpr int MinTransactionIntervalMs = 10;
    static constexpr int MaxTransactionIntervalMs = 60000;
    static constexpr int DefaultTransactionMaxRecords = MirrorJobSpec::DefaultTransactionMaxRecords;
    static constexpr int MaxTransactionRecords = 1000000;

    int version = FormatVersion;
    QString name;
    ProfileSide source;
    ProfileSide target;
    QStringList include;
    QStringList exclude;
    bool excludeInternalTopics = true;
    NamingPolicy naming = NamingPolicy::Prefix;
    QString separator = QStringLiteral(".");
    QString nameTemplate;   // "naming.template"
    QString groupId;        // empty: groupIdForName(name)
    bool offsetMap = true;  // "offsetMap": false keeps no map (plain migrations)
    QString offsetMapTopic; // empty: defaultOffsetMapTopic(effectiveGroupId())
    QString originHeader;   // empty: off (MirrorJobSpec::originHeader)
    StartPosition start = StartPosition::Committed;
    QDateTime startTimestamp;
    StopCondition stop = StopCondition::RunForever;
    QDateTime stopTimestamp;
    qint64 stopAfterRecords = 0;
    DeliveryGuarantee delivery = DeliveryGuarantee::AtLeastOnce;
    int transactionIntervalMs = DefaultTransactionIntervalMs;
    int transactionMaxRecords = DefaultTransactionMaxRecords;
    bool createTopics = true;
    bool syncTopicConfigs = true;
    QStringList configExclude;
    qint64 throttleBytesPerSecond = 0;
    int samplingIntervalMs = MirrorJobSpec::DefaultSamplingIntervalMs;
    int topicRefreshIntervalMs = MirrorJobSpec::DefaultTopicRefreshIntervalMs;
    QStringList groupsInclude;    // "groups.include"
    QStringList groupsExclude;    // "groups.exclude"
    bool syncGroupOffsets = true; // only means something with groups.include
    int groupSyncIntervalMs = DefaultGroupSyncIntervalMs;
    bool emitCheckpoints = false; // "checkpoints.enabled"
    QString checkpointsAlias;     // "checkpoints.sourceAlias", empty: source.alias
    // "acls": ACL bindings of the mirrored topics and the groups follow to the target.
    bool syncAcls = false;                                                     // "acls.sync"
    int aclSyncIntervalMs = DefaultAclSyncIntervalMs;                          // "acls.intervalMs"
    MirrorJobSpec::AclSyncMode aclSyncMode = MirrorJobSpec::AclSyncMode::Safe; // "acls.mode"
    // "schemas": the registry subjects of the mirrored topics follow to the target's registry.
    bool syncSchemas = false;                                                 // "schemas.sync"
    MirrorJobSpec::SchemaIds schemaIds = MirrorJobSpec::SchemaIds::Translate; // "schemas.ids"
    QStringList schemaSubjectsInclude;                                        // "schemas.subjects.include"
    QStringList schemaSubjectsExclude;                                        // "schemas.subjects.exclude"
    int schemaSyncIntervalMs = DefaultSchemaSyncIntervalMs;                   // "schemas.intervalMs"
    QJsonObject unknownKeys; // top-level keys this build does not know, kept for toJson()

    QString fileName; // where it was loaded from (for issue messages); not saved

    bool operator==(const JobProfile &) const = default;

    // Parses any bytes; never crashes. Returns the best-effort profile; errors
    // and warnings (syntax, types, unknown keys, clear secrets, and validate())
    // are appended to *issues. Check hasErrors(*issues) before using it.
    static JobProfile fromJson(const QByteArray &data, const QString &fileName, QList<ProfileIssue> *issues);
    // Reads the file (refusing missing, unreadable, oversized files) and parses
    // it; nullopt when there is any error (all of them are in *issues).
    static std::optional<JobProfile> load(const QString &path, QList<ProfileIssue> *issues);

    // The schema table's key order, "mirrordesk" first; most defaults written out
    // explicitly (keys newer than the first files only when they are not the default).
    QByteArray toJson() const;
    // Atomic (QSaveFile). A profile holding a clear secret is saved owner-only (0600).
    bool save(const QString &path, QString *error) const;

    // Meaning checks with key paths: required keys, regexes, naming, security
    // vs sasl/ssl, mechanisms, timestamps, ranges.
    QList<ProfileIssue> validate() const;

    // True when a password (sasl.password, ssl.keyPassword, or a free property
    // whose name holds "password"/"secret") is written in clear.
    bool hasClearSecret() const;

    // Resolves every ${kind:arg} reference and builds the engine's spec; nullopt
    // on any error (issues name the key path and the reference, never a value).
    std::optional<MirrorJobSpec> toSpec(const ReferenceResolver &resolver, QList<ProfileIssue> *issues) const;

    // "mirrordesk-" + lower-case name with runs of other than [a-z0-9._] turned
    // into "-" ("Orders to DR" -> "mirrordesk-orders-to-dr"); "mirrordesk-job" for an empty name.
    static QString groupIdForName(const QString &name);
    QString effectiveGroupId() const { return groupId.isEmpty() ? groupIdForName(name) : groupId; }
};

// Keyword spellings used in files.
QString namingPolicyName(NamingPolicy p);              // identity, prefix, template
QString startPositionName(StartPosition p);            // committed, earliest, latest, timestamp
QString deliveryName(DeliveryGuarantee d);             // at-least-once, exactly-once
QString aclSyncModeName(MirrorJobSpec::AclSyncMode m); // safe, exact
QString schemaIdsName(MirrorJobSpec::SchemaIds m);     // translate, preserve
bool parseNamingPolicy(const QString &name, NamingPolicy *out);

} // namespace md
