// Reading *.mirrorjob files: bytes -> JobProfile with issues that name the
// file, line and column (syntax) or the key path (meaning).

#include "model/profile/JobProfile.h"
#include "model/profile/ProfileReader.h"
#include "model/profile/ProfileSupport.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <algorithm>
#include <cmath>
#include <optional>

namespace md {

using namespace profile_detail;

namespace {

// Walks the keys of a parsed file into a JobProfile; what each key may hold
// (type, range, known keys, messages) comes from the schema table through the reader.
class Parser final {
public:
    explicit Parser(ProfileReader &r) : m_r(r) {}

    void parse(const QJsonObject &root, JobProfile *p)
    {
        if (!version(root, p))
            return;
        m_r.unknownKeys(root, QString(), &p->unknownKeys);

        m_r.string(root, QStringLiteral("name"), &p->name);
        side(root, QStringLiteral("source"), &p->source);
        side(root, QStringLiteral("target"), &p->target);

        QJsonObject topics;
        if (m_r.object(root, QStringLiteral("topics"), &topics)) {
            m_r.unknownKeys(topics, QStringLiteral("topics"));
            m_r.stringList(topics, QStringLiteral("topics.include"), &p->include);
            m_r.stringList(topics, QStringLiteral("topics.exclude"), &p->exclude);
            m_r.boolean(topics, QStringLiteral("topics.excludeInternal"), &p->excludeInternalTopics);
        }
        naming(root, p);

        m_r.string(root, QStringLiteral("groupId"), &p->groupId);
        m_r.boolean(root, QStringLiteral("offsetMap"), &p->offsetMap);
        m_r.string(root, QStringLiteral("offsetMapTopic"), &p->offsetMapTopic);
        m_r.string(root, QStringLiteral("originHeader"), &p->originHeader);
        startPosition(root, p);
        stopCondition(root, p);

        QString delivery;
        if (m_r.keyword(root, QStringLiteral("delivery"), &delivery))
            p->delivery = delivery == deliveryName(DeliveryGuarantee::ExactlyOnce) ? DeliveryGuarantee::ExactlyOnce
                                                                                   : DeliveryGuarantee::AtLeastOnce;
        m_r.boolean(root, QStringLiteral("createTopics"), &p->createTopics);
        m_r.boolean(root, QStringLiteral("syncTopicConfigs"), &p->syncTopicConfigs);
        m_r.stringList(root, QStringLiteral("configExclude"), &p->configExclude);

        qint64 n = 0;
        if (m_r.integer(root, QStringLiteral("throttleBytesPerSecond"), &n))
            p->throttleBytesPerSecond = n;
        if (m_r.integer(root, QStringLiteral("samplingIntervalMs"), &n))
            p->samplingIntervalMs = int(n);
        if (m_r.integer(root, QStringLiteral("topicRefreshIntervalMs"), &n))
            p->topicRefreshIntervalMs = int(n);

        QJsonObject groups;
        if (m_r.object(root, QStringLiteral("groups"), &groups)) {
            m_r.unknownKeys(groups, QStringLiteral("groups"));
            m_r.stringList(groups, QStringLiteral("groups.include"), &p->groupsInclude);
            m_r.stringList(groups, QStringLiteral("groups.exclude"), &p->groupsExclude);
        }
        m_r.boolean(root, QStringLiteral("syncGroupOffsets"), &p->syncGroupOffsets);
        QJsonObject checkpoints;
        if (m_r.object(root, QStringLiteral("checkpoints"), &checkpoints)) {
            m_r.unknownKeys(checkpoints, QStringLiteral("checkpoints"));
            m_r.boolean(checkpoints, QStringLiteral("checkpoints.enabled"), &p->emitCheckpoints);
            m_r.string(checkpoints, QStringLiteral("checkpoints.sourceAlias"), &p->checkpointsAlias);
        }
        if (m_r.integer(root, QStringLiteral("groupSyncIntervalMs"), &n))
            p->groupSyncIntervalMs = int(n);
        QJsonObject acls;
        if (m_r.object(root, QStringLiteral("acls"), &acls)) {
            m_r.unknownKeys(acls, QStringLiteral("acls"));
            m_r.boolean(acls, QStringLiteral("acls.sync"), &p->syncAcls);
            if (m_r.integer(acls, QStringLiteral("acls.intervalMs"), &n))
                p->aclSyncIntervalMs = int(n);
            QString mode;
            if (m_r.keyword(acls, QStringLiteral("acls.mode"), &mode))
                p->aclSyncMode = mode == aclSyncModeName(MirrorJobSpec::AclSyncMode::Exact)
                                     ? MirrorJobSpec::AclSyncMode::Exact
                                     : MirrorJobSpec::AclSyncMode::Safe;
        }
        QJsonObject schemas;
        if (m_r.object(root, QStringLiteral("schemas"), &schemas)) {
            m_r.unknownKeys(schemas, QStringLiteral("schemas"));
            m_r.boolean(schemas, QStringLiteral("schemas.sync"), &p->syncSchemas);
            QString ids;
            if (m_r.keyword(schemas, QStringLiteral("schemas.ids"), &ids))
                p->schemaIds = ids == schemaIdsName(MirrorJobSpec::SchemaIds::Preserve)
                                   ? MirrorJobSpec::SchemaIds::Preserve
                                   : MirrorJobSpec::SchemaIds::Translate;
            QJsonObject subjects;
            if (m_r.object(schemas, QStringLiteral("schemas.subjects"), &subjects)) {
                m_r.unknownKeys(subjects, QStringLiteral("schemas.subjects"));
                m_r.stringList(subjects, QStringLiteral("schemas.subjects.include"), &p->schemaSubjectsInclude);
                m_r.stringList(subjects, QStringLiteral("schemas.subjects.exclude"), &p->schemaSubjectsExclude);
            }
            if (m_r.integer(schemas, QStringLiteral("schemas.intervalMs"), &n))
                p->schemaSyncIntervalMs = int(n);
        }
        if (m_r.integer(root, QStringLiteral("transactionIntervalMs"), &n))
            p->transactionIntervalMs = int(n);
        if (m_r.integer(root, QStringLiteral("transactionMaxRecords"), &n))
            p->transactionMaxRecords = int(n);
    }

private:
    // The version first: a newer file's other keys may mean something else.
    bool version(const QJsonObject &root, JobProfile *p)
    {
        const QString path = QStringLiteral("mirrordesk");
        const QJsonValue version = root.value(path);
        if (version.isUndefined()) {
            m_r.error(
                path,
                QStringLiteral(
                    "missing required key: the format version (\"mirrordesk\": %1); is this a MirrorDesk job profile?")
                    .arg(JobProfile::FormatVersion));
            return false;
        }
        if (!version.isDouble() || version.toDouble() != std::floor(version.toDouble())) {
            m_r.error(path, QStringLiteral("the format version must be a whole number (%1), found %2")
                                .arg(QString::number(JobProfile::FormatVersion), jsonTypeName(version)));
            return false;
        }
        const qint64 v = qint64(std::clamp(version.toDouble(), -1.0e9, 1.0e9));
        if (v > JobProfile::FormatVersion) {
            m_r.error(path,
                      QStringLiteral(
                          "format version %1 is newer than this build of MirrorDesk understands (it reads version %2); "
                          "open it with a newer MirrorDesk")
                          .arg(v)
                          .arg(JobProfile::FormatVersion));
            return false;
        }
        if (v < 1) {
            m_r.error(path,
                      QStringLiteral("unknown format version %1 (expected %2)").arg(v).arg(JobProfile::FormatVersion));
            return false;
        }
        p->version = int(v);
        return true;
    }

    void side(const QJsonObject &root, const QString &path, ProfileSide *s)
    {
        QJsonObject o;
        if (!m_r.object(root, path, &o))
            return;
        auto at = [&](const char *key) -> QString { return path + QLatin1Char('.') + QLatin1String(key); };
        m_r.unknownKeys(o, path);
        m_r.string(o, at("alias"), &s->alias);
        m_r.string(o, at("bootstrap"), &s->bootstrap);
        QString security;
        if (m_r.keyword(o, at("security"), &security))
            parseSecurityProtocol(security, &s->security);

        QJsonObject sasl;
        if (m_r.object(o, at("sasl"), &sasl)) {
            s->hasSasl = true;
            m_r.unknownKeys(sasl, at("sasl"));
            m_r.string(sasl, at("sasl.mechanism"), &s->saslMechanism);
            m_r.string(sasl, at("sasl.username"), &s->saslUsername);
            m_r.string(sasl, at("sasl.password"), &s->saslPassword);
        }
        QJsonObject ssl;
        if (m_r.object(o, at("ssl"), &ssl)) {
            m_r.unknownKeys(ssl, at("ssl"));
            m_r.string(ssl, at("ssl.ca"), &s->sslCa);
            m_r.string(ssl, at("ssl.cert"), &s->sslCert);
            m_r.string(ssl, at("ssl.key"), &s->sslKey);
            m_r.string(ssl, at("ssl.keyPassword"), &s->sslKeyPassword);
        }
        QJsonObject registry;
        if (m_r.object(o, at("schemaRegistry"), &registry)) {
            s->hasSchemaRegistry = true;
            m_r.unknownKeys(registry, at("schemaRegistry"));
            m_r.string(registry, at("schemaRegistry.url"), &s->registryUrl);
            m_r.string(registry, at("schemaRegistry.username"), &s->registryUsername);
            m_r.string(registry, at("schemaRegistry.password"), &s->registryPassword);
            m_r.string(registry, at("schemaRegistry.token"), &s->registryToken);
            m_r.string(registry, at("schemaRegistry.ca"), &s->registryCa);
        }
        m_r.propertyMap(o, at("properties"), &s->properties);
        m_r.propertyMap(o, at("consumerProperties"), &s->consumerProperties);
        m_r.propertyMap(o, at("producerProperties"), &s->producerProperties);
        m_r.propertyMap(o, at("adminProperties"), &s->adminProperties);
    }

    void naming(const QJsonObject &root, JobProfile *p)
    {
        const QJsonValue naming = root.value(QStringLiteral("naming"));
        if (naming.isString()) {
            // "naming": "identity" is a natural shorthand; the policy's check and message apply.
            if (m_r.keywordValue(naming.toString(), QStringLiteral("naming.policy"), QStringLiteral("naming")))
                parseNamingPolicy(naming.toString(), &p->naming);
            return;
        }
        QJsonObject n;
        if (!m_r.object(root, QStringLiteral("naming"), &n))
            return;
        m_r.unknownKeys(n, QStringLiteral("naming"));
        QString policy;
        if (m_r.keyword(n, QStringLiteral("naming.policy"), &policy))
            parseNamingPolicy(policy, &p->naming);
        m_r.string(n, QStringLiteral("naming.separator"), &p->separator);
        m_r.string(n, QStringLiteral("naming.template"), &p->nameTemplate);
        // A template without an explicit policy can only mean the template policy.
        if (!n.contains(QStringLiteral("policy")) && n.contains(QStringLiteral("template")))
            p->naming = NamingPolicy::Template;
    }

    // A Choice key: a keyword, or an object of the keys below it (unknown ones warned).
    // Returns the keyword ("" for an object) or nullopt when absent or wrong.
    std::optional<QString> choice(const QJsonObject &root, const QString &path, QJsonObject *object)
    {
        const QJsonValue v = root.value(path);
        if (v.isUndefined())
            return std::nullopt;
        if (v.isString()) {
            if (!m_r.keywordValue(v.toString(), path))
                return std::nullopt;
            return v.toString();
        }
        if (!v.isObject()) {
            m_r.wrongType(path, v);
            return std::nullopt;
        }
        *object = v.toObject();
        m_r.unknownKeys(*object, path);
        return QString();
    }

    void startPosition(const QJsonObject &root, JobProfile *p)
    {
        QJsonObject o;
        const std::optional<QString> keyword = choice(root, QStringLiteral("start"), &o);
        if (!keyword)
            return;
        if (!keyword->isEmpty()) {
            for (auto s : {StartPosition::Committed, StartPosition::Earliest, StartPosition::Latest}) {
                if (startPositionName(s) == *keyword)
                    p->start = s;
            }
            return;
        }
        const QString path = QStringLiteral("start.timestamp");
        if (!m_r.present(o, path))
            return;
        p->start = StartPosition::Timestamp;
        m_r.timestamp(o.value(QStringLiteral("timestamp")), path, &p->startTimestamp);
    }

    void stopCondition(const QJsonObject &root, JobProfile *p)
    {
        const QString path = QStringLiteral("stop");
        QJsonObject o;
        const std::optional<QString> keyword = choice(root, path, &o);
        if (!keyword)
            return;
        if (!keyword->isEmpty()) {
            p->stop = *keyword == QLatin1String("caught-up") ? StopCondition::CaughtUp : StopCondition::RunForever;
            return;
        }
        const bool ts = o.contains(QStringLiteral("timestamp"));
        const bool rec = o.contains(QStringLiteral("records"));
        if (ts && rec) {
            m_r.error(path, QStringLiteral("give either \"timestamp\" or \"records\", not both"));
        } else if (ts) {
            p->stop = StopCondition::AtTimestamp;
            m_r.timestamp(o.value(QStringLiteral("timestamp")), path + QStringLiteral(".timestamp"), &p->stopTimestamp);
        } else if (rec) {
            p->stop = StopCondition::AfterRecords;
            qint64 n = 0;
            if (m_r.integer(o, path + QStringLiteral(".records"), &n))
                p->stopAfterRecords = n;
        } else {
            m_r.error(path, QStringLiteral("expected { \"timestamp\": ... } or { \"records\": N }"));
        }
    }

    ProfileReader &m_r;
};

} // namespace

JobProfile JobProfile::fromJson(const QByteArray &rawData, const QString &fileName, QList<ProfileIssue> *issues)
{
    QList<ProfileIssue> local;
    if (!issues)
        issues = &local;
    ProfileReader parser(fileName, issues);
    JobProfile p;
    p.fileName = fileName;

    if (rawData.size() > MaxFileSize) {
        parser.fileError(QStringLiteral("file is too large (%1 bytes; a job profile is at most %2 MiB)")
                             .arg(rawData.size())
                             .arg(MaxFileSize / (1024 * 1024)));
        return p;
    }
    // A UTF-8 byte order mark is harmless; drop it so offsets count from the first character.
    QByteArray data = rawData;
    if (data.startsWith("\xEF\xBB\xBF"))
        data.remove(0, 3);

    if (data.trimmed().isEmpty()) {
        parser.fileError(
            QStringLiteral("file is empty (expected a JSON object starting with { \"mirrordesk\": %1, ...)")
                .arg(FormatVersion));
        return p;
    }
    if (const qsizetype nul = data.indexOf('\0'); nul >= 0) {
        parser.syntaxError(data, nul,
                           QStringLiteral("binary data (a NUL byte): not a MirrorDesk job profile (JSON text)"));
        return p;
    }
    if (const qsizetype bad = invalidUtf8Offset(data); bad >= 0) {
        parser.syntaxError(data, bad,
                           QStringLiteral("invalid UTF-8 (byte 0x%1): a job profile is UTF-8 JSON text")
                               .arg(uchar(data.at(bad)), 2, 16, QLatin1Char('0')));
        return p;
    }

    // Qt reports a top-level scalar as an "illegal value"; say what was found instead.
    const qsizetype first = firstNonSpace(data);
    if (first < data.size() && data.at(first) != '{' && data.at(first) != '[') {
        const char c = data.at(first);
        QString found = QStringLiteral("something that is not JSON");
        if (c == '"')
            found = QStringLiteral("a string");
        else if (c == '-' || (c >= '0' && c <= '9'))
            found = QStringLiteral("a number");
        else if (data.mid(first).startsWith("true") || data.mid(first).startsWith("false"))
            found = QStringLiteral("a boolean");
        else if (data.mid(first).startsWith("null"))
            found = QStringLiteral("null");
        parser.syntaxError(
            data, first,
            QStringLiteral("expected a JSON object ({ \"mirrordesk\": %1, ... }) at the top level, found %2")
                .arg(QString::number(FormatVersion), found));
        return p;
    }

    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &err);
    if (err.error != QJsonParseError::NoError) {
        QString message = QStringLiteral("JSON syntax error: %1").arg(err.errorString());
        if (data.mid(err.offset).trimmed().isEmpty())
            message += QStringLiteral(" (the file ends too early: truncated?)");
        parser.syntaxError(data, err.offset, message);
        return p;
    }
    if (!doc.isObject()) {
        parser.syntaxError(data, firstNonSpace(data),
                           QStringLiteral("expected a JSON object at the top level, found %1")
                               .arg(doc.isArray() ? QStringLiteral("an array") : QStringLiteral("a single value")));
        return p;
    }
    const qsizetype firstIssue = issues->size();
    Parser(parser).parse(doc.object(), &p);
    // After a version error the other keys may mean something else: no more noise.
    if (!parser.hadErrorAt(QStringLiteral("mirrordesk")))
        parser.appendValidation(p);

    // Meaning issues get the line and column of their key too, so an editor can jump there.
    const KeyPositions positions = scanKeyPositions(data);
    for (const auto &[path, pos] : positions.duplicates) {
        ProfileIssue i;
        i.severity = ProfileIssue::Severity::Warning;
        i.file = fileName;
        i.keyPath = path;
        i.line = pos.line;
        i.column = pos.column;
        i.message = QStringLiteral("duplicate key: only its last value is used");
        issues->append(i);
    }
    for (qsizetype k = firstIssue; k < issues->size(); ++k) {
        ProfileIssue &i = (*issues)[k];
        if (i.line > 0 || i.keyPath.isEmpty())
            continue;
        const TextPosition pos = positions.find(i.keyPath);
        i.line = pos.line;
        i.column = pos.column;
    }

    // A hostile or generated file can hold a problem per element; nobody reads 100,000 lines.
    constexpr qsizetype maxIssues = 200;
    if (issues->size() - firstIssue > maxIssues) {
        const qsizetype dropped = issues->size() - firstIssue - maxIssues;
        const bool anyError = hasErrors(*issues);
        issues->resize(firstIssue + maxIssues);
        ProfileIssue more;
        more.severity = anyError ? ProfileIssue::Severity::Error : ProfileIssue::Severity::Warning;
        more.file = fileName;
        more.message = QStringLiteral("%1 more problems not shown").arg(dropped);
        issues->append(more);
    }
    return p;
}

std::optional<JobProfile> JobProfile::load(const QString &path, QList<ProfileIssue> *issues)
{
    QList<ProfileIssue> local;
    if (!issues)
        issues = &local;
    auto fail = [&](const QString &message) {
        ProfileIssue i;
        i.file = path;
        i.message = message;
        issues->append(i);
        return std::nullopt;
    };
    const QFileInfo info(path);
    if (!info.exists())
        return fail(QStringLiteral("file not found"));
    if (info.isDir())
        return fail(QStringLiteral("is a directory, not a job profile"));
    if (info.size() > MaxFileSize)
        return fail(QStringLiteral("file is too large (%1 bytes; a job profile is at most %2 MiB)")
                        .arg(info.size())
                        .arg(MaxFileSize / (1024 * 1024)));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot open: %1").arg(file.errorString()));
    // Read one byte more than allowed: a pipe or special file reports no size.
    const QByteArray data = file.read(MaxFileSize + 1);
    if (file.error() != QFileDevice::NoError)
        return fail(QStringLiteral("cannot read: %1").arg(file.errorString()));

    const qsizetype before = issues->size();
    JobProfile p = fromJson(data, path, issues);
    for (qsizetype i = before; i < issues->size(); ++i) {
        if ((*issues)[i].isError())
            return std::nullopt;
    }
    return p;
}

} // namespace md
