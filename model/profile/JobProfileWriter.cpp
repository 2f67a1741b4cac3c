// JobProfile::toJson and save: the profile written back, keys in the schema
// table's order (ProfileSchema.cpp), secrets as they were written.
#include "model/profile/JobProfile.h"
#include "model/profile/ProfileSchema.h"
#include "model/profile/ProfileSupport.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <algorithm>
#include <functional>
#include <utility>

namespace md {

using namespace profile_detail;

// ---------------------------------------------------------------- writing

namespace {

// Appends s as a JSON string to out (one pass, no copy for ASCII text).
void appendQuoted(QByteArray &out, const QString &s)
{
    out += '"';
    auto add = [&out](uchar c) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
            if (c < 0x20)
                out += "\\u00" + QByteArray::number(c, 16).rightJustified(2, '0');
            else
                out += char(c);
        }
    };
    const bool ascii = std::all_of(s.begin(), s.end(), [](QChar c) { return c.unicode() < 0x80; });
    if (ascii) {
        for (const QChar c : s)
            add(uchar(c.unicode()));
    } else {
        const QByteArray utf8 = s.toUtf8();
        for (const char c : utf8)
            add(uchar(c));
    }
    out += '"';
}

// A pretty-printing writer that keeps keys in the order they are written
// (QJsonObject would sort them), so "mirrordesk" stays first and diffs stay small.
class Writer final {
public:
    QByteArray out;

    void beginObject() { open('{'); }
    void endObject() { close('}'); }
    void key(const QString &k)
    {
        separate();
        appendQuoted(out, k);
        out += ": ";
    }
    void string(const QString &k, const QString &v)
    {
        key(k);
        appendQuoted(out, v);
    }
    void number(const QString &k, qint64 v)
    {
        key(k);
        out += QByteArray::number(v);
    }
    void boolean(const QString &k, bool v)
    {
        key(k);
        out += v ? "true" : "false";
    }
    void strings(const QString &k, const QStringList &list)
    {
        key(k);
        out += '[';
        for (qsizetype i = 0; i < list.size(); ++i) {
            if (i)
                out += ", ";
            appendQuoted(out, list.at(i));
        }
        out += ']';
    }
    void map(const QString &k, const QMap<QString, QString> &m)
    {
        key(k);
        beginObject();
        for (auto it = m.begin(); it != m.end(); ++it)
            string(it.key(), it.value());
        endObject();
    }
    void json(const QString &k, const QJsonValue &v)
    {
        key(k);
        // Compact for values this build does not know: it only has to stay valid.
        QByteArray text = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
        out += text.mid(1, text.size() - 2);
    }

private:
    void open(char c)
    {
        out += c;
        m_first.append(true);
    }
    void close(char c)
    {
        const bool empty = m_first.takeLast();
        if (!empty)
            newline();
        out += c;
    }
    void separate()
    {
        if (!m_first.last())
            out += ',';
        m_first.last() = false;
        newline();
    }
    void newline()
    {
        out += '\n';
        out.append(m_first.size() * 2, ' ');
    }

    QList<bool> m_first;
};

// Writes each object's keys in the schema table's order. Every key has an
// emitter that decides whether it is written: keys that older files lack are
// left out while they hold their default, so such files stay as they were.
class ProfileWriter final {
public:
    ProfileWriter(Writer &w, const JobProfile &p) : m_w(w), m_p(p) {}

    void write()
    {
        m_w.beginObject();
        children(QString());
        for (auto it = m_p.unknownKeys.begin(); it != m_p.unknownKeys.end(); ++it)
            m_w.json(it.key(), it.value());
        m_w.endObject();
        m_w.out += '\n';
    }

private:
    static QString lastKey(const QString &path) { return path.mid(path.lastIndexOf(QLatin1Char('.')) + 1); }
    // "source.sasl.password" -> "*.sasl.password", as the table writes a side's keys.
    static QString tableKey(const QString &path)
    {
        if (path.startsWith(QLatin1String("source.")) || path.startsWith(QLatin1String("target.")))
            return QStringLiteral("*") + path.mid(6);
        return path;
    }
    const ProfileSide &side(const QString &path) const
    {
        return path.startsWith(QLatin1String("target")) ? m_p.target : m_p.source;
    }
    bool transactionsWritten() const
    {
        return m_p.delivery == DeliveryGuarantee::ExactlyOnce ||
               m_p.transactionIntervalMs != JobProfile::DefaultTransactionIntervalMs ||
               m_p.transactionMaxRecords != JobProfile::DefaultTransactionMaxRecords;
    }
    bool groupSyncWritten() const
    {
        return !m_p.groupsInclude.isEmpty() || !m_p.syncGroupOffsets ||
               m_p.groupSyncIntervalMs != JobProfile::DefaultGroupSyncIntervalMs;
    }

    bool aclsWritten() const
    {
        return m_p.syncAcls || m_p.aclSyncIntervalMs != JobProfile::DefaultAclSyncIntervalMs ||
               m_p.aclSyncMode != MirrorJobSpec::AclSyncMode::Safe;
    }

    bool schemasWritten() const
    {
        return m_p.syncSchemas || m_p.schemaIds != MirrorJobSpec::SchemaIds::Translate ||
               !m_p.schemaSubjectsInclude.isEmpty() || !m_p.schemaSubjectsExclude.isEmpty() ||
               m_p.schemaSyncIntervalMs != JobProfile::DefaultSchemaSyncIntervalMs;
    }

    // Each key's emitter, by its table key: built once, for every profile written.
    using Emit = void (*)(ProfileWriter &, const QString &);
    static const QHash<QString, Emit> &emitters()
    {
        static const QHash<QString, Emit> table = [] {
            const std::pair<const char *, Emit> list[] = {
                {"mirrordesk", [](ProfileWriter &w, const QString &) { w.m_w.number(QStringLiteral("mirrordesk"), w.m_p.version); }},
                {"name", [](ProfileWriter &w, const QString &) { w.m_w.string(QStringLiteral("name"), w.m_p.name); }},
                {"source", [](ProfileWriter &w, const QString &path) { w.object(path); }},
                {"*.alias", [](ProfileWriter &w, const QString &path) { w.string(path, w.side(path).alias, true); }},
                {"*.bootstrap", [](ProfileWriter &w, const QString &path) { w.string(path, w.side(path).bootstrap, true); }},
                {"*.security", [](ProfileWriter &w, const QString &path) { w.string(path, securityProtocolName(w.side(path).security), true); }},
                {"*.sasl", [](ProfileWriter &w, const QString &path) { w.object(path, w.side(path).hasSasl); }},
                {"*.sasl.mechanism", [](ProfileWriter &w, const QString &path) { w.string(path, w.side(path).saslMechanism); }},
                {"*.sasl.username", [](ProfileWriter &w, const QString &path) { w.string(path, w.side(path).saslUsername); }},
                {"*.sasl.password", [](ProfileWriter &w, const QString &path) { w.string(path, w.side(path).saslPassword); }},
                {"*.ssl", [](ProfileWriter &w, const QString &path) {
                     const ProfileSide &s = w.side(path);
                     w.object(path, !s.sslCa.isEmpty() || !s.sslCert.isEmpty() || !s.sslKey.isEmpty() || !s.sslKeyPassword.isEmpty());
                 }},
                {"*.ssl.ca", [](ProfileWriter &w, const QString &path) { w.string(path, w.side(path).sslCa); }},
                {"*.ssl.cert", [](ProfileWriter &w, const QString &path) { w.string(path, w.side(path).sslCert); }},
                {"*.ssl.key", [](ProfileWriter &w, const QString &path) { w.string(path, w.side(path).sslKey); }},
                {"*.ssl.keyPassword", [](ProfileWriter &w, const QString &path) { w.string(path, w.side(path).sslKeyPassword); }},
                {"*.schemaRegistry", [](ProfileWriter &w, const QString &path) { w.object(path, w.side(path).hasSchemaRegistry); }},
                {"*.schemaRegistry.url", [](ProfileWriter &w, const QString &path) { w.string(path, w.side(path).registryUrl); }},
                {"*.schemaRegistry.username", [](ProfileWriter &w, const QString &path) { w.string(path, w.side(path).registryUsername); }},
                {"*.schemaRegistry.password", [](ProfileWriter &w, const QString &path) { w.string(path, w.side(path).registryPassword); }},
                {"*.schemaRegistry.token", [](ProfileWriter &w, const QString &path) { w.string(path, w.side(path).registryToken); }},
                {"*.schemaRegistry.ca", [](ProfileWriter &w, const QString &path) { w.string(path, w.side(path).registryCa); }},
                {"*.properties", [](ProfileWriter &w, const QString &path) { w.map(path, w.side(path).properties); }},
                {"*.consumerProperties", [](ProfileWriter &w, const QString &path) { w.map(path, w.side(path).consumerProperties); }},
                {"*.producerProperties", [](ProfileWriter &w, const QString &path) { w.map(path, w.side(path).producerProperties); }},
                {"*.adminProperties", [](ProfileWriter &w, const QString &path) { w.map(path, w.side(path).adminProperties); }},
                {"target", [](ProfileWriter &w, const QString &path) { w.object(path); }},
                {"topics", [](ProfileWriter &w, const QString &path) { w.object(path); }},
                {"topics.include", [](ProfileWriter &w, const QString &) { w.m_w.strings(QStringLiteral("include"), w.m_p.include); }},
                {"topics.exclude", [](ProfileWriter &w, const QString &) { w.m_w.strings(QStringLiteral("exclude"), w.m_p.exclude); }},
                {"topics.excludeInternal", [](ProfileWriter &w, const QString &) { w.m_w.boolean(QStringLiteral("excludeInternal"), w.m_p.excludeInternalTopics); }},
                {"naming", [](ProfileWriter &w, const QString &path) { w.object(path); }},
                {"naming.policy", [](ProfileWriter &w, const QString &) { w.m_w.string(QStringLiteral("policy"), namingPolicyName(w.m_p.naming)); }},
                {"naming.separator", [](ProfileWriter &w, const QString &) { w.m_w.string(QStringLiteral("separator"), w.m_p.separator); }},
                {"naming.template", [](ProfileWriter &w, const QString &path) { w.string(path, w.m_p.nameTemplate); }},
                {"groupId", [](ProfileWriter &w, const QString &path) { w.string(path, w.m_p.groupId); }},
                // Written only when off, so profiles that keep the map stay as they were.
                {"offsetMap", [](ProfileWriter &w, const QString &) {
                     if (!w.m_p.offsetMap)
                         w.m_w.boolean(QStringLiteral("offsetMap"), false);
                 }},
                {"offsetMapTopic", [](ProfileWriter &w, const QString &path) { w.string(path, w.m_p.offsetMapTopic); }},
                {"originHeader", [](ProfileWriter &w, const QString &path) { w.string(path, w.m_p.originHeader); }},
                {"start", [](ProfileWriter &w, const QString &path) {
                     if (w.m_p.start == StartPosition::Timestamp)
                         w.object(path);
                     else
                         w.m_w.string(QStringLiteral("start"), startPositionName(w.m_p.start));
                 }},
                {"start.timestamp", [](ProfileWriter &w, const QString &) { w.m_w.string(QStringLiteral("timestamp"), formatTimestamp(w.m_p.startTimestamp)); }},
                {"stop", [](ProfileWriter &w, const QString &path) {
                     if (w.m_p.stop == StopCondition::RunForever)
                         w.m_w.string(QStringLiteral("stop"), QStringLiteral("never"));
                     else if (w.m_p.stop == StopCondition::CaughtUp)
                         w.m_w.string(QStringLiteral("stop"), QStringLiteral("caught-up"));
                     else
                         w.object(path);
                 }},
                {"stop.timestamp", [](ProfileWriter &w, const QString &) {
                     if (w.m_p.stop == StopCondition::AtTimestamp)
                         w.m_w.string(QStringLiteral("timestamp"), formatTimestamp(w.m_p.stopTimestamp));
                 }},
                {"stop.records", [](ProfileWriter &w, const QString &) {
                     if (w.m_p.stop == StopCondition::AfterRecords)
                         w.m_w.number(QStringLiteral("records"), w.m_p.stopAfterRecords);
                 }},
                {"delivery", [](ProfileWriter &w, const QString &) { w.m_w.string(QStringLiteral("delivery"), deliveryName(w.m_p.delivery)); }},
                {"transactionIntervalMs", [](ProfileWriter &w, const QString &) {
                     if (w.transactionsWritten())
                         w.m_w.number(QStringLiteral("transactionIntervalMs"), w.m_p.transactionIntervalMs);
                 }},
                {"transactionMaxRecords", [](ProfileWriter &w, const QString &) {
                     if (w.transactionsWritten())
                         w.m_w.number(QStringLiteral("transactionMaxRecords"), w.m_p.transactionMaxRecords);
                 }},
                {"createTopics", [](ProfileWriter &w, const QString &) { w.m_w.boolean(QStringLiteral("createTopics"), w.m_p.createTopics); }},
                {"syncTopicConfigs", [](ProfileWriter &w, const QString &) { w.m_w.boolean(QStringLiteral("syncTopicConfigs"), w.m_p.syncTopicConfigs); }},
                {"configExclude", [](ProfileWriter &w, const QString &) {
                     if (!w.m_p.configExclude.isEmpty())
                         w.m_w.strings(QStringLiteral("configExclude"), w.m_p.configExclude);
                 }},
                {"throttleBytesPerSecond", [](ProfileWriter &w, const QString &) { w.m_w.number(QStringLiteral("throttleBytesPerSecond"), w.m_p.throttleBytesPerSecond); }},
                {"samplingIntervalMs", [](ProfileWriter &w, const QString &) { w.m_w.number(QStringLiteral("samplingIntervalMs"), w.m_p.samplingIntervalMs); }},
                {"topicRefreshIntervalMs", [](ProfileWriter &w, const QString &) { w.m_w.number(QStringLiteral("topicRefreshIntervalMs"), w.m_p.topicRefreshIntervalMs); }},
                // Written only when used, so profiles without group sync stay as they were.
                {"groups", [](ProfileWriter &w, const QString &path) { w.object(path, !w.m_p.groupsInclude.isEmpty() || !w.m_p.groupsExclude.isEmpty()); }},
                {"groups.include", [](ProfileWriter &w, const QString &) { w.m_w.strings(QStringLiteral("include"), w.m_p.groupsInclude); }},
                {"groups.exclude", [](ProfileWriter &w, const QString &) {
                     if (!w.m_p.groupsExclude.isEmpty())
                         w.m_w.strings(QStringLiteral("exclude"), w.m_p.groupsExclude);
                 }},
                {"syncGroupOffsets", [](ProfileWriter &w, const QString &) {
                     if (w.groupSyncWritten())
                         w.m_w.boolean(QStringLiteral("syncGroupOffsets"), w.m_p.syncGroupOffsets);
                 }},
                {"groupSyncIntervalMs", [](ProfileWriter &w, const QString &) {
                     if (w.groupSyncWritten())
                         w.m_w.number(QStringLiteral("groupSyncIntervalMs"), w.m_p.groupSyncIntervalMs);
                 }},
                {"checkpoints", [](ProfileWriter &w, const QString &path) { w.object(path, w.m_p.emitCheckpoints || !w.m_p.checkpointsAlias.isEmpty()); }},
                {"checkpoints.enabled", [](ProfileWriter &w, const QString &) { w.m_w.boolean(QStringLiteral("enabled"), w.m_p.emitCheckpoints); }},
                {"checkpoints.sourceAlias", [](ProfileWriter &w, const QString &path) { w.string(path, w.m_p.checkpointsAlias); }},
                // Written only when used, so profiles without ACL sync stay as they were.
                {"acls", [](ProfileWriter &w, const QString &path) { w.object(path, w.aclsWritten()); }},
                {"acls.sync", [](ProfileWriter &w, const QString &) { w.m_w.boolean(QStringLiteral("sync"), w.m_p.syncAcls); }},
                {"acls.intervalMs", [](ProfileWriter &w, const QString &) { w.m_w.number(QStringLiteral("intervalMs"), w.m_p.aclSyncIntervalMs); }},
                {"acls.mode", [](ProfileWriter &w, const QString &) { w.m_w.string(QStringLiteral("mode"), aclSyncModeName(w.m_p.aclSyncMode)); }},
                // Written only when used, so profiles without schema sync stay as they were.
                {"schemas", [](ProfileWriter &w, const QString &path) { w.object(path, w.schemasWritten()); }},
                {"schemas.sync", [](ProfileWriter &w, const QString &) { w.m_w.boolean(QStringLiteral("sync"), w.m_p.syncSchemas); }},
                {"schemas.ids", [](ProfileWriter &w, const QString &) { w.m_w.string(QStringLiteral("ids"), schemaIdsName(w.m_p.schemaIds)); }},
                {"schemas.subjects", [](ProfileWriter &w, const QString &path) { w.object(path, !w.m_p.schemaSubjectsInclude.isEmpty() || !w.m_p.schemaSubjectsExclude.isEmpty()); }},
                {"schemas.subjects.include", [](ProfileWriter &w, const QString &) {
                     if (!w.m_p.schemaSubjectsInclude.isEmpty())
                         w.m_w.strings(QStringLiteral("include"), w.m_p.schemaSubjectsInclude);
                 }},
                {"schemas.subjects.exclude", [](ProfileWriter &w, const QString &) {
                     if (!w.m_p.schemaSubjectsExclude.isEmpty())
                         w.m_w.strings(QStringLiteral("exclude"), w.m_p.schemaSubjectsExclude);
                 }},
                {"schemas.intervalMs", [](ProfileWriter &w, const QString &) { w.m_w.number(QStringLiteral("intervalMs"), w.m_p.schemaSyncIntervalMs); }},
            };
            QHash<QString, Emit> out;
            for (const auto &[path, emit] : list)
                out.insert(QLatin1String(path), emit);
            return out;
        }();
        return table;
    }

    // Each object's keys in file order with their paths and emitters, by the
    // object's path: listed once, not for every object of every profile written.
    struct Child {
        QString path;
        Emit emitter;
    };
    static const QHash<QString, QList<Child>> &childTable()
    {
        static const QHash<QString, QList<Child>> table = [] {
            QHash<QString, QList<Child>> out;
            QStringList parents{QString()};
            for (const profile_schema::Key &k : profile_schema::keys())
                parents.append(k.path);
            for (const QString &path : std::as_const(parents)) {
                QList<Child> list;
                for (const QString &key : profile_schema::childKeys(path)) {
                    const QString child = path.isEmpty() ? key : QString(path + QLatin1Char('.') + key);
                    const auto it = emitters().constFind(tableKey(child));
                    if (it == emitters().constEnd())
                        qFatal("profile key %s has no writer (model/profile/JobProfileWriter.cpp)", qPrintable(child));
                    list.append({child, *it});
                }
                if (!list.isEmpty())
                    out.insert(path, list);
            }
            return out;
        }();
        return table;
    }

    void children(const QString &path)
    {
        const auto it = childTable().constFind(path);
        if (it == childTable().constEnd())
            return;
        for (const Child &c : *it)
            c.emitter(*this, c.path);
    }
    void object(const QString &path, bool written = true)
    {
        if (!written)
            return;
        m_w.key(lastKey(path));
        m_w.beginObject();
        children(path);
        m_w.endObject();
    }
    // always: written even when empty (a side's alias, bootstrap and security).
    void string(const QString &path, const QString &value, bool always = false)
    {
        if (always || !value.isEmpty())
            m_w.string(lastKey(path), value);
    }
    void map(const QString &path, const QMap<QString, QString> &m)
    {
        if (!m.isEmpty())
            m_w.map(lastKey(path), m);
    }

    Writer &m_w;
    const JobProfile &m_p;
};

} // namespace

QByteArray JobProfile::toJson() const
{
    Writer w;
    w.out.reserve(2048);
    ProfileWriter(w, *this).write();
    return w.out;
}

bool JobProfile::save(const QString &path, QString *error) const
{
    QString local;
    if (!error)
        error = &local;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
        return false;
    }
    // Restrict the temporary file before a secret is written into it, so the
    // secret is never readable by others, not even for a moment.
    if (hasClearSecret() && !file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)) {
        file.cancelWriting();
        *error =
            QStringLiteral("%1: cannot make the file readable by its owner only: %2").arg(path, file.errorString());
        return false;
    }
    const QByteArray data = toJson();
    if (file.write(data) != data.size()) {
        file.cancelWriting();
        *error = QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
        return false;
    }
    if (!file.commit()) {
        *error = QStringLiteral("%1: cannot save: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace md
