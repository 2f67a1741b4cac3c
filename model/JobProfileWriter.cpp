// JobProfile::toJson and save: the profile written back, keys in the schema
// table's order (ProfileSchema.cpp), secrets as they were written.
#include "JobProfile.h"
#include "ProfileSchema.h"
#include "ProfileSupport.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <functional>
#include <utility>

namespace md {

using namespace profile_detail;

// ---------------------------------------------------------------- writing

namespace {

QByteArray quoted(const QString &s)
{
    QByteArray out;
    out.reserve(s.size() + 2);
    out += '"';
    const QByteArray utf8 = s.toUtf8();
    for (const char ch : utf8) {
        const uchar c = uchar(ch);
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
                out += ch;
        }
    }
    out += '"';
    return out;
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
        out += quoted(k) + ": ";
    }
    void string(const QString &k, const QString &v)
    {
        key(k);
        out += quoted(v);
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
            out += quoted(list.at(i));
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
        out += QByteArray(m_first.size() * 2, ' ');
    }

    QList<bool> m_first;
};

// Writes each object's keys in the schema table's order. Every key has an
// emitter that decides whether it is written: keys that older files lack are
// left out while they hold their default, so such files stay as they were.
class ProfileWriter final {
public:
    ProfileWriter(Writer &w, const JobProfile &p) : m_w(w), m_p(p)
    {
        using Emit = std::function<void(const QString &)>;
        const std::pair<const char *, Emit> emitters[] = {
            {"mirrordesk", [this](const QString &) { m_w.number(QStringLiteral("mirrordesk"), m_p.version); }},
            {"name", [this](const QString &) { m_w.string(QStringLiteral("name"), m_p.name); }},
            {"source", [this](const QString &path) { object(path); }},
            {"*.alias", [this](const QString &path) { string(path, side(path).alias, true); }},
            {"*.bootstrap", [this](const QString &path) { string(path, side(path).bootstrap, true); }},
            {"*.security", [this](const QString &path) { string(path, securityProtocolName(side(path).security), true); }},
            {"*.sasl", [this](const QString &path) { object(path, side(path).hasSasl); }},
            {"*.sasl.mechanism", [this](const QString &path) { string(path, side(path).saslMechanism); }},
            {"*.sasl.username", [this](const QString &path) { string(path, side(path).saslUsername); }},
            {"*.sasl.password", [this](const QString &path) { string(path, side(path).saslPassword); }},
            {"*.ssl", [this](const QString &path) {
                 const ProfileSide &s = side(path);
                 object(path, !s.sslCa.isEmpty() || !s.sslCert.isEmpty() || !s.sslKey.isEmpty() || !s.sslKeyPassword.isEmpty());
             }},
            {"*.ssl.ca", [this](const QString &path) { string(path, side(path).sslCa); }},
            {"*.ssl.cert", [this](const QString &path) { string(path, side(path).sslCert); }},
            {"*.ssl.key", [this](const QString &path) { string(path, side(path).sslKey); }},
            {"*.ssl.keyPassword", [this](const QString &path) { string(path, side(path).sslKeyPassword); }},
            {"*.schemaRegistry", [this](const QString &path) { object(path, side(path).hasSchemaRegistry); }},
            {"*.schemaRegistry.url", [this](const QString &path) { string(path, side(path).registryUrl); }},
            {"*.schemaRegistry.username", [this](const QString &path) { string(path, side(path).registryUsername); }},
            {"*.schemaRegistry.password", [this](const QString &path) { string(path, side(path).registryPassword); }},
            {"*.schemaRegistry.token", [this](const QString &path) { string(path, side(path).registryToken); }},
            {"*.schemaRegistry.ca", [this](const QString &path) { string(path, side(path).registryCa); }},
            {"*.properties", [this](const QString &path) { map(path, side(path).properties); }},
            {"*.consumerProperties", [this](const QString &path) { map(path, side(path).consumerProperties); }},
            {"*.producerProperties", [this](const QString &path) { map(path, side(path).producerProperties); }},
            {"*.adminProperties", [this](const QString &path) { map(path, side(path).adminProperties); }},
            {"target", [this](const QString &path) { object(path); }},
            {"topics", [this](const QString &path) { object(path); }},
            {"topics.include", [this](const QString &) { m_w.strings(QStringLiteral("include"), m_p.include); }},
            {"topics.exclude", [this](const QString &) { m_w.strings(QStringLiteral("exclude"), m_p.exclude); }},
            {"topics.excludeInternal", [this](const QString &) { m_w.boolean(QStringLiteral("excludeInternal"), m_p.excludeInternalTopics); }},
            {"naming", [this](const QString &path) { object(path); }},
            {"naming.policy", [this](const QString &) { m_w.string(QStringLiteral("policy"), namingPolicyName(m_p.naming)); }},
            {"naming.separator", [this](const QString &) { m_w.string(QStringLiteral("separator"), m_p.separator); }},
            {"naming.template", [this](const QString &path) { string(path, m_p.nameTemplate); }},
            {"groupId", [this](const QString &path) { string(path, m_p.groupId); }},
            // Written only when off, so profiles that keep the map stay as they were.
            {"offsetMap", [this](const QString &) {
                 if (!m_p.offsetMap)
                     m_w.boolean(QStringLiteral("offsetMap"), false);
             }},
            {"offsetMapTopic", [this](const QString &path) { string(path, m_p.offsetMapTopic); }},
            {"start", [this](const QString &path) {
                 if (m_p.start == StartPosition::Timestamp)
                     object(path);
                 else
                     m_w.string(QStringLiteral("start"), startPositionName(m_p.start));
             }},
            {"start.timestamp", [this](const QString &) { m_w.string(QStringLiteral("timestamp"), formatTimestamp(m_p.startTimestamp)); }},
            {"stop", [this](const QString &path) {
                 if (m_p.stop == StopCondition::RunForever)
                     m_w.string(QStringLiteral("stop"), QStringLiteral("never"));
                 else if (m_p.stop == StopCondition::CaughtUp)
                     m_w.string(QStringLiteral("stop"), QStringLiteral("caught-up"));
                 else
                     object(path);
             }},
            {"stop.timestamp", [this](const QString &) {
                 if (m_p.stop == StopCondition::AtTimestamp)
                     m_w.string(QStringLiteral("timestamp"), formatTimestamp(m_p.stopTimestamp));
             }},
            {"stop.records", [this](const QString &) {
                 if (m_p.stop == StopCondition::AfterRecords)
                     m_w.number(QStringLiteral("records"), m_p.stopAfterRecords);
             }},
            {"delivery", [this](const QString &) { m_w.string(QStringLiteral("delivery"), deliveryName(m_p.delivery)); }},
            {"transactionIntervalMs", [this](const QString &) {
                 if (transactionsWritten())
                     m_w.number(QStringLiteral("transactionIntervalMs"), m_p.transactionIntervalMs);
             }},
            {"transactionMaxRecords", [this](const QString &) {
                 if (transactionsWritten())
                     m_w.number(QStringLiteral("transactionMaxRecords"), m_p.transactionMaxRecords);
             }},
            {"createTopics", [this](const QString &) { m_w.boolean(QStringLiteral("createTopics"), m_p.createTopics); }},
            {"syncTopicConfigs", [this](const QString &) { m_w.boolean(QStringLiteral("syncTopicConfigs"), m_p.syncTopicConfigs); }},
            {"configExclude", [this](const QString &) {
                 if (!m_p.configExclude.isEmpty())
                     m_w.strings(QStringLiteral("configExclude"), m_p.configExclude);
             }},
            {"throttleBytesPerSecond", [this](const QString &) { m_w.number(QStringLiteral("throttleBytesPerSecond"), m_p.throttleBytesPerSecond); }},
            {"samplingIntervalMs", [this](const QString &) { m_w.number(QStringLiteral("samplingIntervalMs"), m_p.samplingIntervalMs); }},
            {"topicRefreshIntervalMs", [this](const QString &) { m_w.number(QStringLiteral("topicRefreshIntervalMs"), m_p.topicRefreshIntervalMs); }},
            // Written only when used, so profiles without group sync stay as they were.
            {"groups", [this](const QString &path) { object(path, !m_p.groupsInclude.isEmpty() || !m_p.groupsExclude.isEmpty()); }},
            {"groups.include", [this](const QString &) { m_w.strings(QStringLiteral("include"), m_p.groupsInclude); }},
            {"groups.exclude", [this](const QString &) {
                 if (!m_p.groupsExclude.isEmpty())
                     m_w.strings(QStringLiteral("exclude"), m_p.groupsExclude);
             }},
            {"syncGroupOffsets", [this](const QString &) {
                 if (groupSyncWritten())
                     m_w.boolean(QStringLiteral("syncGroupOffsets"), m_p.syncGroupOffsets);
             }},
            {"groupSyncIntervalMs", [this](const QString &) {
                 if (groupSyncWritten())
                     m_w.number(QStringLiteral("groupSyncIntervalMs"), m_p.groupSyncIntervalMs);
             }},
            {"checkpoints", [this](const QString &path) { object(path, m_p.emitCheckpoints || !m_p.checkpointsAlias.isEmpty()); }},
            {"checkpoints.enabled", [this](const QString &) { m_w.boolean(QStringLiteral("enabled"), m_p.emitCheckpoints); }},
            {"checkpoints.sourceAlias", [this](const QString &path) { string(path, m_p.checkpointsAlias); }},
        };
        for (const auto &[path, emit] : emitters)
            m_emit.insert(QLatin1String(path), emit);
    }

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

    void children(const QString &path)
    {
        for (const QString &key : profile_schema::childKeys(path)) {
            const QString child = path.isEmpty() ? key : QString(path + QLatin1Char('.') + key);
            const auto it = m_emit.constFind(tableKey(child));
            if (it == m_emit.constEnd())
                qFatal("profile key %s has no writer (model/JobProfileWriter.cpp)", qPrintable(child));
            (*it)(child);
        }
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
    QHash<QString, std::function<void(const QString &)>> m_emit;
};

} // namespace

QByteArray JobProfile::toJson() const
{
    Writer w;
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
