// Reading *.mirrorjob files: bytes -> JobProfile with issues that name the
// file, line and column (syntax) or the key path (meaning).

#include "JobProfile.h"
#include "ProfileSupport.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace md {

using namespace profile_detail;

namespace {

// Keeps the issues of one parse and which key paths already have an error,
// so validate() does not report the same key twice.
class Parser final
{
public:
    Parser(const QString &fileName, QList<ProfileIssue> *issues)
        : m_fileName(fileName), m_issues(issues)
    {}

    void error(const QString &path, const QString &message)
    {
        m_errorPaths.insert(path);
        add(ProfileIssue::Severity::Error, path, message);
    }
    void warn(const QString &path, const QString &message) { add(ProfileIssue::Severity::Warning, path, message); }
    bool hadErrorAt(const QString &path) const
    {
        // An error at "source" also covers "source.bootstrap": look up every
        // enclosing path (a set lookup each, so thousands of issues stay fast).
        QString p = path;
        while (!p.isEmpty()) {
            if (m_errorPaths.contains(p))
                return true;
            const qsizetype cut = std::max(p.lastIndexOf(QLatin1Char('.')), p.lastIndexOf(QLatin1Char('[')));
            if (cut <= 0)
                break;
            p.truncate(cut);
        }
        return false;
    }
    void syntaxError(const QByteArray &data, qsizetype offset, const QString &message)
    {
        const TextPosition pos = textPosition(data, offset);
        ProfileIssue i;
        i.severity = ProfileIssue::Severity::Error;
        i.file = m_fileName;
        i.line = pos.line;
        i.column = pos.column;
        i.message = message;
        m_issues->append(i);
    }
    void fileError(const QString &message)
    {
        ProfileIssue i;
        i.severity = ProfileIssue::Severity::Error;
        i.file = m_fileName;
        i.message = message;
        m_issues->append(i);
    }

    // --- typed accessors: each reports a wrong type with the key path and returns false.

    bool string(const QJsonObject &o, const QString &key, const QString &path, QString *out)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined())
            return false;
        if (!v.isString()) {
            error(path, QStringLiteral("expected a string, found %1").arg(jsonTypeName(v)));
            return false;
        }
        *out = v.toString();
        return true;
    }
    bool boolean(const QJsonObject &o, const QString &key, const QString &path, bool *out)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined())
            return false;
        if (!v.isBool()) {
            error(path, QStringLiteral("expected true or false, found %1").arg(jsonTypeName(v)));
            return false;
        }
        *out = v.toBool();
        return true;
    }
    // An integer in [min, max]; JSON numbers are doubles, so 1.5 and 1e300 are refused here.
    bool integer(const QJsonValue &v, const QString &path, qint64 min, qint64 max, qint64 *out)
    {
        if (!v.isDouble()) {
            error(path, QStringLiteral("expected a whole number, found %1").arg(jsonTypeName(v)));
            return false;
        }
        const double d = v.toDouble();
        if (!std::isfinite(d) || d != std::floor(d)) {
            error(path, QStringLiteral("expected a whole number, found %1").arg(v.toDouble()));
            return false;
        }
        if (d < double(min)) {
            error(path, QStringLiteral("%1 is out of range: must be at least %2").arg(QString::number(d, 'g', 17), QString::number(min)));
            return false;
        }
        if (d > double(max)) {
            error(path, QStringLiteral("%1 is out of range: must be at most %2").arg(QString::number(d, 'g', 17), QString::number(max)));
            return false;
        }
        *out = qint64(d);
        return true;
    }
    bool integer(const QJsonObject &o, const QString &key, const QString &path, qint64 min, qint64 max, qint64 *out)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined())
            return false;
        return integer(v, path, min, max, out);
    }
    bool object(const QJsonObject &o, const QString &key, const QString &path, QJsonObject *out)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined())
            return false;
        if (!v.isObject()) {
            error(path, QStringLiteral("expected an object, found %1").arg(jsonTypeName(v)));
            return false;
        }
        *out = v.toObject();
        return true;
    }
    bool stringList(const QJsonObject &o, const QString &key, const QString &path, QStringList *out)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined())
            return false;
        QStringList list;
        if (v.isString()) {
            // A single pattern written without brackets is what was meant.
            list.append(v.toString());
        } else if (v.isArray()) {
            const QJsonArray a = v.toArray();
            for (qsizetype i = 0; i < a.size(); ++i) {
                if (!a.at(i).isString()) {
                    error(indexPath(path, i), QStringLiteral("expected a string, found %1").arg(jsonTypeName(a.at(i))));
                    list.append(QString()); // keeps later indexes in validate()'s key paths right
                    continue;
                }
                list.append(a.at(i).toString());
            }
        } else {
            error(path, QStringLiteral("expected an array of strings, found %1").arg(jsonTypeName(v)));
            return false;
        }
        *out = list;
        return true;
    }
    // librdkafka takes every property as a string; numbers and booleans are converted.
    void propertyMap(const QJsonObject &o, const QString &key, const QString &path, QMap<QString, QString> *out)
    {
        QJsonObject m;
        if (!object(o, key, path, &m))
            return;
        for (auto it = m.begin(); it != m.end(); ++it) {
            const QString p = mapKeyPath(path, it.key());
            if (it.key().trimmed().isEmpty()) {
                error(p, QStringLiteral("empty property name"));
                continue;
            }
            const QJsonValue v = it.value();
            if (v.isString()) {
                out->insert(it.key(), v.toString());
            } else if (v.isBool()) {
                out->insert(it.key(), v.toBool() ? QStringLiteral("true") : QStringLiteral("false"));
            } else if (v.isDouble()) {
                const double d = v.toDouble();
                if (d == std::floor(d) && std::fabs(d) < 9.0e15)
                    out->insert(it.key(), QString::number(qint64(d)));
                else
                    out->insert(it.key(), QString::number(d, 'g', 17));
            } else {
                error(p, QStringLiteral("expected a string, number or boolean, found %1").arg(jsonTypeName(v)));
            }
        }
    }

    void unknownKeys(const QJsonObject &o, const QString &path, const QStringList &known, QJsonObject *keep = nullptr)
    {
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (known.contains(it.key()))
                continue;
            QString message = QStringLiteral("unknown key, ignored");
            const QString close = closestKey(it.key(), known);
            if (!close.isEmpty())
                message += QStringLiteral(" (did you mean \"%1\"?)").arg(close);
            warn(joinPath(path, it.key()), message);
            if (keep)
                keep->insert(it.key(), it.value());
        }
    }

    void timestamp(const QJsonValue &v, const QString &path, QDateTime *out)
    {
        QString error;
        if (!parseTimestamp(v, out, &error))
            this->error(path, error);
    }

    void side(const QJsonObject &root, const QString &key, ProfileSide *s)
    {
        const QString path = key;
        const QJsonValue v = root.value(key);
        if (v.isUndefined()) {
            error(path, QStringLiteral("missing required key: the %1 cluster ({ \"bootstrap\": \"host:port\", ... })").arg(key));
            return;
        }
        QJsonObject o;
        if (!object(root, key, path, &o))
            return;
        unknownKeys(o, path,
                    {QStringLiteral("alias"), QStringLiteral("bootstrap"), QStringLiteral("security"), QStringLiteral("sasl"),
                     QStringLiteral("ssl"), QStringLiteral("properties"), QStringLiteral("consumerProperties"),
                     QStringLiteral("producerProperties"), QStringLiteral("adminProperties")});
        string(o, QStringLiteral("alias"), path + QStringLiteral(".alias"), &s->alias);
        if (!o.contains(QStringLiteral("bootstrap")))
            error(path + QStringLiteral(".bootstrap"), QStringLiteral("missing required key (host:port[,host:port...])"));
        else
            string(o, QStringLiteral("bootstrap"), path + QStringLiteral(".bootstrap"), &s->bootstrap);

        QString security;
        if (string(o, QStringLiteral("security"), path + QStringLiteral(".security"), &security)) {
            if (!parseSecurityProtocol(security, &s->security))
                error(path + QStringLiteral(".security"),
                      QStringLiteral("unknown security protocol \"%1\" (expected plaintext, ssl, sasl_plaintext or sasl_ssl)")
                          .arg(security));
        }

        QJsonObject sasl;
        if (object(o, QStringLiteral("sasl"), path + QStringLiteral(".sasl"), &sasl)) {
            const QString sp = path + QStringLiteral(".sasl");
            s->hasSasl = true;
            unknownKeys(sasl, sp, {QStringLiteral("mechanism"), QStringLiteral("username"), QStringLiteral("password")});
            string(sasl, QStringLiteral("mechanism"), sp + QStringLiteral(".mechanism"), &s->saslMechanism);
            string(sasl, QStringLiteral("username"), sp + QStringLiteral(".username"), &s->saslUsername);
            string(sasl, QStringLiteral("password"), sp + QStringLiteral(".password"), &s->saslPassword);
        }
        QJsonObject ssl;
        if (object(o, QStringLiteral("ssl"), path + QStringLiteral(".ssl"), &ssl)) {
            const QString sp = path + QStringLiteral(".ssl");
            unknownKeys(ssl, sp, {QStringLiteral("ca"), QStringLiteral("cert"), QStringLiteral("key"), QStringLiteral("keyPassword")});
            string(ssl, QStringLiteral("ca"), sp + QStringLiteral(".ca"), &s->sslCa);
            string(ssl, QStringLiteral("cert"), sp + QStringLiteral(".cert"), &s->sslCert);
            string(ssl, QStringLiteral("key"), sp + QStringLiteral(".key"), &s->sslKey);
            string(ssl, QStringLiteral("keyPassword"), sp + QStringLiteral(".keyPassword"), &s->sslKeyPassword);
        }
        propertyMap(o, QStringLiteral("properties"), path + QStringLiteral(".properties"), &s->properties);
        propertyMap(o, QStringLiteral("consumerProperties"), path + QStringLiteral(".consumerProperties"), &s->consumerProperties);
        propertyMap(o, QStringLiteral("producerProperties"), path + QStringLiteral(".producerProperties"), &s->producerProperties);
        propertyMap(o, QStringLiteral("adminProperties"), path + QStringLiteral(".adminProperties"), &s->adminProperties);
    }

    void parse(const QJsonObject &root, JobProfile *p)
    {
        // The version first: a newer file's other keys may mean something else.
        const QJsonValue version = root.value(QStringLiteral("mirrordesk"));
        if (version.isUndefined()) {
            error(QStringLiteral("mirrordesk"),
                  QStringLiteral("missing required key: the format version (\"mirrordesk\": %1); is this a MirrorDesk job profile?")
                      .arg(JobProfile::FormatVersion));
            return;
        }
        qint64 v = 0;
        if (!version.isDouble() || version.toDouble() != std::floor(version.toDouble())) {
            error(QStringLiteral("mirrordesk"),
                  QStringLiteral("the format version must be a whole number (%1), found %2")
                      .arg(QString::number(JobProfile::FormatVersion), jsonTypeName(version)));
            return;
        }
        v = qint64(std::clamp(version.toDouble(), -1.0e9, 1.0e9));
        if (v > JobProfile::FormatVersion) {
            error(QStringLiteral("mirrordesk"),
                  QStringLiteral("format version %1 is newer than this build of MirrorDesk understands (it reads version %2); "
                                 "open it with a newer MirrorDesk")
                      .arg(v)
                      .arg(JobProfile::FormatVersion));
            return;
        }
        if (v < 1) {
            error(QStringLiteral("mirrordesk"),
                  QStringLiteral("unknown format version %1 (expected %2)").arg(v).arg(JobProfile::FormatVersion));
            return;
        }
        p->version = int(v);

        unknownKeys(root, QString(), topLevelKeys(), &p->unknownKeys);

        string(root, QStringLiteral("name"), QStringLiteral("name"), &p->name);
        side(root, QStringLiteral("source"), &p->source);
        side(root, QStringLiteral("target"), &p->target);

        QJsonObject topics;
        if (!root.contains(QStringLiteral("topics"))) {
            error(QStringLiteral("topics"), QStringLiteral("missing required key ({ \"include\": [\"regex\", ...] })"));
        } else if (object(root, QStringLiteral("topics"), QStringLiteral("topics"), &topics)) {
            unknownKeys(topics, QStringLiteral("topics"),
                        {QStringLiteral("include"), QStringLiteral("exclude"), QStringLiteral("excludeInternal")});
            if (!topics.contains(QStringLiteral("include")))
                error(QStringLiteral("topics.include"),
                      QStringLiteral("missing required key: the regular expressions of the topics to mirror"));
            stringList(topics, QStringLiteral("include"), QStringLiteral("topics.include"), &p->include);
            stringList(topics, QStringLiteral("exclude"), QStringLiteral("topics.exclude"), &p->exclude);
            boolean(topics, QStringLiteral("excludeInternal"), QStringLiteral("topics.excludeInternal"), &p->excludeInternalTopics);
        }

        const QJsonValue naming = root.value(QStringLiteral("naming"));
        if (naming.isString()) {
            // "naming": "identity" is a natural shorthand.
            namingPolicy(naming.toString(), QStringLiteral("naming"), p);
        } else if (!naming.isUndefined()) {
            QJsonObject n;
            if (object(root, QStringLiteral("naming"), QStringLiteral("naming"), &n)) {
                unknownKeys(n, QStringLiteral("naming"),
                            {QStringLiteral("policy"), QStringLiteral("separator"), QStringLiteral("template")});
                QString policy;
                if (string(n, QStringLiteral("policy"), QStringLiteral("naming.policy"), &policy))
                    namingPolicy(policy, QStringLiteral("naming.policy"), p);
                string(n, QStringLiteral("separator"), QStringLiteral("naming.separator"), &p->separator);
                string(n, QStringLiteral("template"), QStringLiteral("naming.template"), &p->nameTemplate);
                // A template without an explicit policy can only mean the template policy.
                if (!n.contains(QStringLiteral("policy")) && n.contains(QStringLiteral("template")))
                    p->naming = NamingPolicy::Template;
            }
        }

        string(root, QStringLiteral("groupId"), QStringLiteral("groupId"), &p->groupId);
        boolean(root, QStringLiteral("offsetMap"), QStringLiteral("offsetMap"), &p->offsetMap);
        string(root, QStringLiteral("offsetMapTopic"), QStringLiteral("offsetMapTopic"), &p->offsetMapTopic);

        startPosition(root.value(QStringLiteral("start")), p);
        stopCondition(root.value(QStringLiteral("stop")), p);

        QString delivery;
        if (string(root, QStringLiteral("delivery"), QStringLiteral("delivery"), &delivery)) {
            if (delivery == QLatin1String("at-least-once"))
                p->delivery = DeliveryGuarantee::AtLeastOnce;
            else if (delivery == QLatin1String("exactly-once"))
                p->delivery = DeliveryGuarantee::ExactlyOnce;
            else
                error(QStringLiteral("delivery"),
                      QStringLiteral("unknown delivery guarantee \"%1\" (expected at-least-once or exactly-once)")
                          .arg(delivery));
        }
        boolean(root, QStringLiteral("createTopics"), QStringLiteral("createTopics"), &p->createTopics);
        boolean(root, QStringLiteral("syncTopicConfigs"), QStringLiteral("syncTopicConfigs"), &p->syncTopicConfigs);
        stringList(root, QStringLiteral("configExclude"), QStringLiteral("configExclude"), &p->configExclude);

        qint64 n = 0;
        const qint64 maxInt = qint64(1) << 53; // exact in a JSON double
        if (integer(root, QStringLiteral("throttleBytesPerSecond"), QStringLiteral("throttleBytesPerSecond"), 0, maxInt, &n))
            p->throttleBytesPerSecond = n;
        if (integer(root, QStringLiteral("samplingIntervalMs"), QStringLiteral("samplingIntervalMs"),
                    JobProfile::MinSamplingIntervalMs, JobProfile::MaxSamplingIntervalMs, &n))
            p->samplingIntervalMs = int(n);
        if (integer(root, QStringLiteral("topicRefreshIntervalMs"), QStringLiteral("topicRefreshIntervalMs"),
                    JobProfile::MinTopicRefreshIntervalMs, JobProfile::MaxTopicRefreshIntervalMs, &n))
            p->topicRefreshIntervalMs = int(n);

        QJsonObject groups;
        if (object(root, QStringLiteral("groups"), QStringLiteral("groups"), &groups)) {
            unknownKeys(groups, QStringLiteral("groups"), {QStringLiteral("include"), QStringLiteral("exclude")});
            stringList(groups, QStringLiteral("include"), QStringLiteral("groups.include"), &p->groupsInclude);
            stringList(groups, QStringLiteral("exclude"), QStringLiteral("groups.exclude"), &p->groupsExclude);
        }
        boolean(root, QStringLiteral("syncGroupOffsets"), QStringLiteral("syncGroupOffsets"), &p->syncGroupOffsets);
        QJsonObject checkpoints;
        if (object(root, QStringLiteral("checkpoints"), QStringLiteral("checkpoints"), &checkpoints)) {
            unknownKeys(checkpoints, QStringLiteral("checkpoints"), {QStringLiteral("enabled"), QStringLiteral("sourceAlias")});
            boolean(checkpoints, QStringLiteral("enabled"), QStringLiteral("checkpoints.enabled"), &p->emitCheckpoints);
            string(checkpoints, QStringLiteral("sourceAlias"), QStringLiteral("checkpoints.sourceAlias"), &p->checkpointsAlias);
        }
        if (integer(root, QStringLiteral("groupSyncIntervalMs"), QStringLiteral("groupSyncIntervalMs"),
                    JobProfile::MinGroupSyncIntervalMs, JobProfile::MaxGroupSyncIntervalMs, &n))
            p->groupSyncIntervalMs = int(n);
        if (integer(root, QStringLiteral("transactionIntervalMs"), QStringLiteral("transactionIntervalMs"),
                    JobProfile::MinTransactionIntervalMs, JobProfile::MaxTransactionIntervalMs, &n))
            p->transactionIntervalMs = int(n);
        if (integer(root, QStringLiteral("transactionMaxRecords"), QStringLiteral("transactionMaxRecords"),
                    1, JobProfile::MaxTransactionRecords, &n))
            p->transactionMaxRecords = int(n);
    }

    void namingPolicy(const QString &name, const QString &path, JobProfile *p)
    {
        if (!parseNamingPolicy(name, &p->naming))
            error(path, QStringLiteral("unknown policy \"%1\" (expected identity, prefix or template)").arg(name));
    }

    void startPosition(const QJsonValue &v, JobProfile *p)
    {
        const QString path = QStringLiteral("start");
        if (v.isUndefined())
            return;
        if (v.isString()) {
            const QString s = v.toString();
            if (s == QLatin1String("committed"))
                p->start = StartPosition::Committed;
            else if (s == QLatin1String("earliest"))
                p->start = StartPosition::Earliest;
            else if (s == QLatin1String("latest"))
                p->start = StartPosition::Latest;
            else
                error(path, QStringLiteral("unknown start position \"%1\" (expected committed, earliest, latest or "
                                           "{ \"timestamp\": \"2026-11-01T00:00:00Z\" })")
                                .arg(s));
            return;
        }
        if (!v.isObject()) {
            error(path, QStringLiteral("expected \"committed\", \"earliest\", \"latest\" or { \"timestamp\": ... }, found %1")
                            .arg(jsonTypeName(v)));
            return;
        }
        const QJsonObject o = v.toObject();
        unknownKeys(o, path, {QStringLiteral("timestamp")});
        if (!o.contains(QStringLiteral("timestamp"))) {
            error(path + QStringLiteral(".timestamp"), QStringLiteral("missing required key (ISO 8601 with a time zone)"));
            return;
        }
        p->start = StartPosition::Timestamp;
        timestamp(o.value(QStringLiteral("timestamp")), path + QStringLiteral(".timestamp"), &p->startTimestamp);
    }

    void stopCondition(const QJsonValue &v, JobProfile *p)
    {
        const QString path = QStringLiteral("stop");
        if (v.isUndefined())
            return;
        if (v.isString()) {
            const QString s = v.toString();
            if (s == QLatin1String("never"))
                p->stop = StopCondition::RunForever;
            else if (s == QLatin1String("caught-up"))
                p->stop = StopCondition::CaughtUp;
            else
                error(path, QStringLiteral("unknown stop condition \"%1\" (expected never, caught-up, "
                                           "{ \"timestamp\": ... } or { \"records\": N })")
                                .arg(s));
            return;
        }
        if (!v.isObject()) {
            error(path, QStringLiteral("expected \"never\", \"caught-up\", { \"timestamp\": ... } or { \"records\": N }, found %1")
                            .arg(jsonTypeName(v)));
            return;
        }
        const QJsonObject o = v.toObject();
        unknownKeys(o, path, {QStringLiteral("timestamp"), QStringLiteral("records")});
        const bool ts = o.contains(QStringLiteral("timestamp"));
        const bool rec = o.contains(QStringLiteral("records"));
        if (ts && rec) {
            error(path, QStringLiteral("give either \"timestamp\" or \"records\", not both"));
            return;
        }
        if (ts) {
            p->stop = StopCondition::AtTimestamp;
            timestamp(o.value(QStringLiteral("timestamp")), path + QStringLiteral(".timestamp"), &p->stopTimestamp);
        } else if (rec) {
            p->stop = StopCondition::AfterRecords;
            qint64 n = 0;
            if (integer(o.value(QStringLiteral("records")), path + QStringLiteral(".records"), 1, qint64(1) << 53, &n))
                p->stopAfterRecords = n;
        } else {
            error(path, QStringLiteral("expected { \"timestamp\": ... } or { \"records\": N }"));
        }
    }

    void appendValidation(const JobProfile &p)
    {
        for (const ProfileIssue &i : p.validate()) {
            if (i.isError() && !i.keyPath.isEmpty() && hadErrorAt(i.keyPath))
                continue;
            // An unreadable naming policy falls back to prefix: do not then ask for prefix's alias.
            if (i.isError() && i.keyPath == QLatin1String("source.alias") && hadErrorAt(QStringLiteral("naming")))
                continue;
            m_issues->append(i);
        }
    }

private:
    void add(ProfileIssue::Severity s, const QString &path, const QString &message)
    {
        ProfileIssue i;
        i.severity = s;
        i.file = m_fileName;
        i.keyPath = path;
        i.message = message;
        m_issues->append(i);
    }

    QString m_fileName;
    QList<ProfileIssue> *m_issues;
    QSet<QString> m_errorPaths;
};

} // namespace

JobProfile JobProfile::fromJson(const QByteArray &rawData, const QString &fileName, QList<ProfileIssue> *issues)
{
    QList<ProfileIssue> local;
    if (!issues)
        issues = &local;
    Parser parser(fileName, issues);
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
        parser.fileError(QStringLiteral("file is empty (expected a JSON object starting with { \"mirrordesk\": %1, ...)")
                             .arg(FormatVersion));
        return p;
    }
    if (const qsizetype nul = data.indexOf('\0'); nul >= 0) {
        parser.syntaxError(data, nul, QStringLiteral("binary data (a NUL byte): not a MirrorDesk job profile (JSON text)"));
        return p;
    }
    if (const qsizetype bad = invalidUtf8Offset(data); bad >= 0) {
        parser.syntaxError(data, bad, QStringLiteral("invalid UTF-8 (byte 0x%1): a job profile is UTF-8 JSON text")
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
        parser.syntaxError(data, first,
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
    parser.parse(doc.object(), &p);
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
