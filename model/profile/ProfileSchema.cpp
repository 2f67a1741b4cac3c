#include "model/profile/ProfileSchema.h"

#include "model/profile/JobProfile.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>

#include <array>

namespace md::profile_schema {

namespace {

using T = Type;
using P = JobProfile;

// File order: the writer writes keys in this order, "mirrordesk" first.
constexpr std::array kFields = {
    Field{.path = "mirrordesk",
          .type = T::Version,
          .min = 1,
          .max = P::FormatVersion,
          .help = "the format version of the file; this build reads version 1",
          .required = true},
    Field{.path = "name",
          .type = T::String,
          .defaultValue = "\"\"",
          .help = "the job's name, shown in the app; the default consumer group is made from it"},
    Field{.path = "source",
          .type = T::Object,
          .help = "the cluster mirrored from ({ \"bootstrap\": \"host:port\", ... })",
          .required = true},
    Field{
        .path = "*.alias",
        .type = T::String,
        .defaultValue = "\"\"",
        .help =
            "a short name of the cluster; with naming policy prefix the source's alias starts every target topic name"},
    Field{.path = "*.bootstrap",
          .type = T::String,
          .help = "the cluster's bootstrap servers (host:port[,host:port...]); may hold ${env:NAME}",
          .required = true},
    Field{.path = "*.security",
          .type = T::Keyword,
          .defaultValue = "\"plaintext\"",
          .allowed = "plaintext|ssl|sasl_plaintext|sasl_ssl",
          .noun = "security protocol",
          .help = "how clients connect: TLS, SASL, both or neither",
          .anyCase = true},
    Field{.path = "*.sasl", .type = T::Object, .help = "SASL credentials; required with sasl_plaintext and sasl_ssl"},
    Field{.path = "*.sasl.mechanism",
          .type = T::String,
          .allowed = "PLAIN|SCRAM-SHA-256|SCRAM-SHA-512",
          .help = "the SASL mechanism; required with sasl_plaintext and sasl_ssl",
          .anyCase = true},
    Field{.path = "*.sasl.username", .type = T::String, .help = "the SASL user name"},
    Field{.path = "*.sasl.password",
          .type = T::String,
          .help = "the SASL password: ${env:NAME} or a keychain reference; clear text warns",
          .secret = true},
    Field{.path = "*.ssl", .type = T::Object, .help = "TLS files; used with ssl and sasl_ssl"},
    Field{.path = "*.ssl.ca", .type = T::String, .help = "CA certificate file (PEM); relative to the profile's folder"},
    Field{.path = "*.ssl.cert", .type = T::String, .help = "client certificate file (PEM); needs ssl.key"},
    Field{.path = "*.ssl.key",
          .type = T::String,
          .help = "the client certificate's private key file (PEM); needs ssl.cert"},
    Field{.path = "*.ssl.keyPassword",
          .type = T::String,
          .help = "the private key's password: ${env:NAME} or a keychain reference; clear text warns",
          .secret = true},
    Field{.path = "*.schemaRegistry",
          .type = T::Object,
          .help = "the schema registry beside this cluster (Confluent API; Apicurio under /apis/ccompat/v7)"},
    Field{.path = "*.schemaRegistry.url",
          .type = T::String,
          .help = "the registry's base URL (http or https; may carry a path); may hold ${env:NAME}"},
    Field{.path = "*.schemaRegistry.username",
          .type = T::String,
          .help = "basic authentication's user name; needs schemaRegistry.password"},
    Field{.path = "*.schemaRegistry.password",
          .type = T::String,
          .help = "basic authentication's password: ${env:NAME} or a keychain reference; clear text warns",
          .secret = true},
    Field{.path = "*.schemaRegistry.token",
          .type = T::String,
          .help = "a bearer token (not with username): ${env:NAME} or a keychain reference; clear text warns",
          .secret = true},
    Field{.path = "*.schemaRegistry.ca",
          .type = T::String,
          .help = "CA certificate file (PEM) for an https registry; relative to the profile's folder"},
    Field{.path = "*.properties",
          .type = T::PropertyMap,
          .help = "librdkafka properties for every client of this cluster (numbers and booleans become strings)"},
    Field{.path = "*.consumerProperties", .type = T::PropertyMap, .help = "librdkafka properties for consumers only"},
    Field{.path = "*.producerProperties", .type = T::PropertyMap, .help = "librdkafka properties for producers only"},
    Field{.path = "*.adminProperties", .type = T::PropertyMap, .help = "librdkafka properties for admin clients only"},
    Field{.path = "target",
          .type = T::Object,
          .help = "the cluster mirrored to ({ \"bootstrap\": \"host:port\", ... })",
          .required = true},
    Field{.path = "topics",
          .type = T::Object,
          .help = "which source topics to mirror ({ \"include\": [\"regex\", ...] })",
          .required = true},
    Field{.path = "topics.include",
          .type = T::StringList,
          .help = "the regular expressions (PCRE, whole name) of the topics to mirror; at least one",
          .required = true},
    Field{.path = "topics.exclude",
          .type = T::StringList,
          .defaultValue = "[]",
          .help = "regular expressions of topics left out even when included"},
    Field{.path = "topics.excludeInternal",
          .type = T::Boolean,
          .defaultValue = "true",
          .help = "leave out internal topics (__consumer_offsets, MM2's heartbeats and checkpoints, ...)"},
    Field{.path = "naming",
          .type = T::Object,
          .help = "how target topics are named; \"naming\": \"identity\" is short for { \"policy\": \"identity\" }"},
    Field{.path = "naming.policy",
          .type = T::Keyword,
          .defaultValue = "\"prefix\"",
          .allowed = "identity|prefix|template",
          .noun = "policy",
          .help = "identity: the source name; prefix: source.alias, the separator, then the source name; template: "
                  "naming.template"},
    Field{.path = "naming.separator",
          .type = T::String,
          .defaultValue = "\".\"",
          .help = "between the source alias and the topic name (policy prefix)"},
    Field{.path = "naming.template",
          .type = T::String,
          .help = "the target name with ${topic} in it, e.g. dr-${topic}; given alone it means policy template"},
    Field{.path = "groupId",
          .type = T::String,
          .defaultValue = "(from name)",
          .help = "the source consumer group of the job; its committed offsets are the job's progress"},
    Field{.path = "offsetMap",
          .type = T::Boolean,
          .defaultValue = "true",
          .help = "keep the offset map on the target; false (a plain migration) rules out group sync, checkpoints and "
                  "exactly-once"},
    Field{.path = "offsetMapTopic",
          .type = T::String,
          .defaultValue = "(from groupId)",
          .help = "the compacted target topic that holds the offset map"},
    Field{.path = "originHeader",
          .type = T::String,
          .defaultValue = "(off)",
          .help = "active/active: copies carry this header (the first source cluster's id) and a record whose header "
                  "names the target is not copied back, e.g. \"mirrordesk.origin\"; for identity naming both ways"},
    Field{.path = "start",
          .type = T::Choice,
          .defaultValue = "\"committed\"",
          .allowed = "committed|earliest|latest",
          .noun = "start position",
          .help = "where a partition without committed progress begins; progress always wins"},
    Field{.path = "start.timestamp",
          .type = T::Timestamp,
          .help = "begin at the first record at or after this time, e.g. 2026-11-01T00:00:00Z",
          .required = true},
    Field{.path = "stop",
          .type = T::Choice,
          .defaultValue = "\"never\"",
          .allowed = "never|caught-up",
          .noun = "stop condition",
          .help = "when the job ends by itself: never (a continuous mirror), caught-up, at a time or after N records"},
    Field{.path = "stop.timestamp",
          .type = T::Timestamp,
          .help = "stop at records from this time on (ISO 8601 with a zone)"},
    Field{.path = "stop.records",
          .type = T::Integer,
          .min = 1,
          .max = MaxJsonInteger,
          .help = "stop after this many records per partition"},
    Field{.path = "delivery",
          .type = T::Keyword,
          .defaultValue = "\"at-least-once\"",
          .allowed = "at-least-once|exactly-once",
          .noun = "delivery guarantee",
          .help = "exactly-once commits records and progress in target transactions; target consumers that read with "
                  "isolation.level=read_committed see each record once"},
    Field{.path = "transactionIntervalMs",
          .type = T::Integer,
          .defaultValue = "100",
          .min = P::MinTransactionIntervalMs,
          .max = P::MaxTransactionIntervalMs,
          .help = "exactly-once: a transaction commits after this many milliseconds"},
    Field{.path = "transactionMaxRecords",
          .type = T::Integer,
          .defaultValue = "300000",
          .min = 1,
          .max = P::MaxTransactionRecords,
          .help = "exactly-once: a transaction commits after this many records"},
    Field{.path = "createTopics",
          .type = T::Boolean,
          .defaultValue = "true",
          .help = "create missing target topics with the source's partition count"},
    Field{.path = "syncTopicConfigs",
          .type = T::Boolean,
          .defaultValue = "true",
          .help = "copy topic configs to the target and keep them in sync"},
    Field{.path = "configExclude",
          .type = T::StringList,
          .defaultValue = "[]",
          .help = "regular expressions of topic configs never copied; empty: MM2's defaults"},
    Field{.path = "throttleBytesPerSecond",
          .type = T::Integer,
          .defaultValue = "0",
          .min = 0,
          .max = MaxJsonInteger,
          .help = "a byte-rate budget for the job; 0 is unlimited"},
    Field{.path = "samplingIntervalMs",
          .type = T::Integer,
          .defaultValue = "250",
          .min = P::MinSamplingIntervalMs,
          .max = P::MaxSamplingIntervalMs,
          .help = "how often the job's metrics are sampled"},
    Field{.path = "topicRefreshIntervalMs",
          .type = T::Integer,
          .defaultValue = "10000",
          .min = P::MinTopicRefreshIntervalMs,
          .max = P::MaxTopicRefreshIntervalMs,
          .help = "how often source metadata is read for new topics and partitions"},
    Field{.path = "groups", .type = T::Object, .help = "source consumer groups whose offsets follow to the target"},
    Field{.path = "groups.include",
          .type = T::StringList,
          .defaultValue = "[]",
          .help = "regular expressions of the groups; empty: no group is synced"},
    Field{.path = "groups.exclude",
          .type = T::StringList,
          .defaultValue = "[]",
          .help = "regular expressions of groups left out even when included"},
    Field{.path = "syncGroupOffsets",
          .type = T::Boolean,
          .defaultValue = "true",
          .help = "write the translated offsets of the groups to the target while it has no active members"},
    Field{.path = "groupSyncIntervalMs",
          .type = T::Integer,
          .defaultValue = "10000",
          .min = P::MinGroupSyncIntervalMs,
          .max = P::MaxGroupSyncIntervalMs,
          .help = "how often group offsets are translated and written (each pass is a few small requests per group "
                  "on both clusters: a shorter interval costs the brokers more)"},
    Field{.path = "checkpoints",
          .type = T::Object,
          .help = "MM2-format checkpoints of the groups, in the target topic sourceAlias.checkpoints.internal"},
    Field{.path = "checkpoints.enabled", .type = T::Boolean, .defaultValue = "false", .help = "emit the checkpoints"},
    Field{.path = "checkpoints.sourceAlias",
          .type = T::String,
          .defaultValue = "(source.alias)",
          .help = "the alias in the checkpoint topic's name, as RemoteClusterUtils.translateOffsets is given it"},
    Field{.path = "acls",
          .type = T::Object,
          .help = "ACL bindings of the mirrored topics and of the groups (groups.include) follow to the target; "
                  "bindings MirrorDesk did not create there are never touched"},
    Field{.path = "acls.sync",
          .type = T::Boolean,
          .defaultValue = "false",
          .help = "create the ACL bindings on the target and keep them in step with the source's while the job runs"},
    Field{.path = "acls.intervalMs",
          .type = T::Integer,
          .defaultValue = "60000",
          .min = P::MinAclSyncIntervalMs,
          .max = P::MaxAclSyncIntervalMs,
          .help = "how often the source's ACL bindings are read and the target's brought in step"},
    Field{.path = "acls.mode",
          .type = T::Keyword,
          .defaultValue = "\"safe\"",
          .allowed = "safe|exact",
          .noun = "ACL sync mode",
          .help = "safe follows MirrorMaker 2: ALLOW WRITE on topics is not copied (only the mirror writes them) and "
                  "ALLOW ALL becomes READ; exact copies the bindings as they are (a migration's cutover)"},
    Field{.path = "schemas",
          .type = T::Object,
          .help = "the schema registry subjects of the mirrored topics (TOPIC-key and TOPIC-value, renamed with "
                  "the topics) and the subjects they reference follow to the target's registry, before the first "
                  "record that uses them; both sides need a schemaRegistry"},
    Field{.path = "schemas.sync",
          .type = T::Boolean,
          .defaultValue = "false",
          .help = "copy the subjects with every version, their compatibility level and references, and keep them in "
                  "step while the job runs"},
    Field{.path = "schemas.ids",
          .type = T::Keyword,
          .defaultValue = "\"translate\"",
          .allowed = "translate|preserve",
          .noun = "schema id mode",
          .help = "translate: the target registry numbers the schemas and each record's schema id (wire-format "
                  "header of key and value) is rewritten while copying; preserve: the same ids on the target, which "
                  "needs a target registry in IMPORT mode"},
    Field{.path = "schemas.subjects", .type = T::Object, .help = "which source subjects follow"},
    Field{.path = "schemas.subjects.include",
          .type = T::StringList,
          .defaultValue = "[]",
          .help = "regexes matched against whole source subject names; empty: every subject of a mirrored topic"},
    Field{.path = "schemas.subjects.exclude",
          .type = T::StringList,
          .defaultValue = "[]",
          .help = "regexes of subjects that never follow; the records of their topics are then copied as they are"},
    Field{.path = "schemas.intervalMs",
          .type = T::Integer,
          .defaultValue = "60000",
          .min = P::MinSchemaSyncIntervalMs,
          .max = P::MaxSchemaSyncIntervalMs,
          .help = "how often new versions of the subjects are looked for (a record with a new id is served at once)"},
};

constexpr bool startsWith(std::string_view s, std::string_view p)
{
    return s.substr(0, p.size()) == p;
}

// A side's keys follow "source" (or "target") directly, and all of them start with "*.".
constexpr bool sideKeysFollowTheirSide()
{
    for (size_t i = 0; i < kFields.size(); ++i) {
        if (startsWith(kFields[i].path, "*.") && i > 0 && kFields[i - 1].path != "source" &&
            !startsWith(kFields[i - 1].path, "*."))
            return false;
    }
    return true;
}
static_assert(sideKeysFollowTheirSide());

struct Index {
    QList<Key> keys;
    QHash<QString, const Field *> byPath;
    QHash<QString, QStringList> children; // childKeys(), by the parent's path ("" for the top level)
};

const Index &index()
{
    static const Index ix = [] {
        Index out;
        const Field *sideStart = nullptr;
        auto add = [&](const QString &path, const Field *f) {
            out.keys.append({path, f});
            out.byPath.insert(path, f);
            const qsizetype dot = path.lastIndexOf(QLatin1Char('.'));
            out.children[dot < 0 ? QString() : path.left(dot)].append(path.mid(dot + 1));
        };
        for (const Field &f : kFields) {
            const QString path = text(f.path);
            if (path.startsWith(QLatin1String("*."))) {
                if (!sideStart)
                    sideStart = &f;
                add(QStringLiteral("source") + path.mid(1), &f);
                continue;
            }
            add(path, &f);
            if (path == QLatin1String("target")) {
                // The side's keys once more, under "target".
                const Field *end = kFields.data() + kFields.size();
                for (const Field *s = sideStart; s && s != end && startsWith(s->path, "*."); ++s)
                    add(QStringLiteral("target") + text(s->path).mid(1), s);
            }
        }
        return out;
    }();
    return ix;
}

} // namespace

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

const QList<Key> &keys()
{
    return index().keys;
}

const Field *find(const QString &path)
{
    return index().byPath.value(path, nullptr);
}

const Field &field(const QString &path)
{
    const Field *f = find(path);
    if (!f)
        qFatal("profile key %s is not in the schema table (model/profile/ProfileSchema.cpp)", qPrintable(path));
    return *f;
}

QStringList childKeys(const QString &path)
{
    // Asked for every object the reader and the writer go through: listed once, with the index.
    return index().children.value(path);
}

QStringList allowedValues(const Field &f)
{
    return f.allowed.empty() ? QStringList() : text(f.allowed).split(QLatin1Char('|'));
}

QString alternatives(const QStringList &values)
{
    if (values.size() < 2)
        return values.join(QString());
    return values.mid(0, values.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" or ") + values.last();
}

QString expectation(const Field &f)
{
    switch (f.type) {
    case Type::Version:
    case Type::Integer: return QStringLiteral("a whole number");
    case Type::Boolean: return QStringLiteral("true or false");
    case Type::String:
    case Type::Keyword: return QStringLiteral("a string");
    case Type::Timestamp:
        return QStringLiteral("an ISO 8601 date and time with a time zone (\"2026-11-01T00:00:00Z\")");
    case Type::StringList: return QStringLiteral("an array of strings");
    case Type::Object:
    case Type::PropertyMap: return QStringLiteral("an object");
    case Type::Choice: {
        // "committed", "earliest", "latest" or { "timestamp": ... }
        QStringList forms;
        for (const QString &v : allowedValues(f))
            forms.append(QLatin1Char('"') + v + QLatin1Char('"'));
        for (const QString &k : childKeys(text(f.path)))
            forms.append(QStringLiteral("{ \"%1\": ... }").arg(k));
        return alternatives(forms);
    }
    }
    return QStringLiteral("a value");
}

QString outOfRange(const Field &f, double value)
{
    if (value < double(f.min))
        return QStringLiteral("%1 is out of range: must be at least %2")
            .arg(QString::number(value, 'g', 17), QString::number(f.min));
    if (value > double(f.max))
        return QStringLiteral("%1 is out of range: must be at most %2")
            .arg(QString::number(value, 'g', 17), QString::number(f.max));
    return {};
}

QJsonValue defaultJson(const Field &f)
{
    if (f.defaultValue.empty() || f.defaultValue.front() == '(')
        return QJsonValue(QJsonValue::Undefined);
    const QByteArray wrapped =
        QByteArray("[") + QByteArray(f.defaultValue.data(), qsizetype(f.defaultValue.size())) + "]";
    return QJsonDocument::fromJson(wrapped).array().at(0);
}

QString toolTip(const Field &f)
{
    QString tip = text(f.help);
    if (!tip.isEmpty())
        tip[0] = tip.at(0).toUpper();
    if (f.type == Type::Integer)
        tip += QStringLiteral(" (%1 to %2)").arg(f.min).arg(f.max);
    if (!f.defaultValue.empty())
        tip += QStringLiteral("; default %1").arg(text(f.defaultValue));
    return tip;
}

QString typeName(Type t)
{
    switch (t) {
    case Type::Version: return QStringLiteral("version");
    case Type::Integer: return QStringLiteral("integer");
    case Type::Boolean: return QStringLiteral("boolean");
    case Type::String: return QStringLiteral("string");
    case Type::Keyword: return QStringLiteral("keyword");
    case Type::Choice: return QStringLiteral("keyword or object");
    case Type::StringList: return QStringLiteral("string list");
    case Type::Object: return QStringLiteral("object");
    case Type::PropertyMap: return QStringLiteral("properties");
    case Type::Timestamp: return QStringLiteral("timestamp");
    }
    return QString();
}

} // namespace md::profile_schema
