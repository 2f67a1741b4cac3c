// JobProfile::toJson and save: the profile written back, keys in the
// documented order, secrets as references only.
#include "JobProfile.h"
#include "ProfileSupport.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <algorithm>

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
class Writer final
{
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

void writeSide(Writer &w, const QString &key, const ProfileSide &s)
{
    w.key(key);
    w.beginObject();
    w.string(QStringLiteral("alias"), s.alias);
    w.string(QStringLiteral("bootstrap"), s.bootstrap);
    w.string(QStringLiteral("security"), securityProtocolName(s.security));
    if (s.hasSasl) {
        w.key(QStringLiteral("sasl"));
        w.beginObject();
        if (!s.saslMechanism.isEmpty())
            w.string(QStringLiteral("mechanism"), s.saslMechanism);
        if (!s.saslUsername.isEmpty())
            w.string(QStringLiteral("username"), s.saslUsername);
        if (!s.saslPassword.isEmpty())
            w.string(QStringLiteral("password"), s.saslPassword);
        w.endObject();
    }
    if (!s.sslCa.isEmpty() || !s.sslCert.isEmpty() || !s.sslKey.isEmpty() || !s.sslKeyPassword.isEmpty()) {
        w.key(QStringLiteral("ssl"));
        w.beginObject();
        if (!s.sslCa.isEmpty())
            w.string(QStringLiteral("ca"), s.sslCa);
        if (!s.sslCert.isEmpty())
            w.string(QStringLiteral("cert"), s.sslCert);
        if (!s.sslKey.isEmpty())
            w.string(QStringLiteral("key"), s.sslKey);
        if (!s.sslKeyPassword.isEmpty())
            w.string(QStringLiteral("keyPassword"), s.sslKeyPassword);
        w.endObject();
    }
    if (!s.properties.isEmpty())
        w.map(QStringLiteral("properties"), s.properties);
    if (!s.consumerProperties.isEmpty())
        w.map(QStringLiteral("consumerProperties"), s.consumerProperties);
    if (!s.producerProperties.isEmpty())
        w.map(QStringLiteral("producerProperties"), s.producerProperties);
    if (!s.adminProperties.isEmpty())
        w.map(QStringLiteral("adminProperties"), s.adminProperties);
    w.endObject();
}

} // namespace

QByteArray JobProfile::toJson() const
{
    Writer w;
    w.beginObject();
    w.number(QStringLiteral("mirrordesk"), version);
    w.string(QStringLiteral("name"), name);
    writeSide(w, QStringLiteral("source"), source);
    writeSide(w, QStringLiteral("target"), target);

    w.key(QStringLiteral("topics"));
    w.beginObject();
    w.strings(QStringLiteral("include"), include);
    w.strings(QStringLiteral("exclude"), exclude);
    w.boolean(QStringLiteral("excludeInternal"), excludeInternalTopics);
    w.endObject();

    w.key(QStringLiteral("naming"));
    w.beginObject();
    w.string(QStringLiteral("policy"), namingPolicyName(naming));
    w.string(QStringLiteral("separator"), separator);
    if (!nameTemplate.isEmpty())
        w.string(QStringLiteral("template"), nameTemplate);
    w.endObject();

    if (!groupId.isEmpty())
        w.string(QStringLiteral("groupId"), groupId);
    if (!offsetMap) // written only when off, so profiles that keep the map stay as they were
        w.boolean(QStringLiteral("offsetMap"), offsetMap);
    if (!offsetMapTopic.isEmpty())
        w.string(QStringLiteral("offsetMapTopic"), offsetMapTopic);

    if (start == StartPosition::Timestamp) {
        w.key(QStringLiteral("start"));
        w.beginObject();
        w.string(QStringLiteral("timestamp"), formatTimestamp(startTimestamp));
        w.endObject();
    } else {
        w.string(QStringLiteral("start"), startPositionName(start));
    }
    switch (stop) {
    case StopCondition::RunForever: w.string(QStringLiteral("stop"), QStringLiteral("never")); break;
    case StopCondition::CaughtUp: w.string(QStringLiteral("stop"), QStringLiteral("caught-up")); break;
    case StopCondition::AtTimestamp:
        w.key(QStringLiteral("stop"));
        w.beginObject();
        w.string(QStringLiteral("timestamp"), formatTimestamp(stopTimestamp));
        w.endObject();
        break;
    case StopCondition::AfterRecords:
        w.key(QStringLiteral("stop"));
        w.beginObject();
        w.number(QStringLiteral("records"), stopAfterRecords);
        w.endObject();
        break;
    }
    w.string(QStringLiteral("delivery"), deliveryName(delivery));
    if (delivery == DeliveryGuarantee::ExactlyOnce || transactionIntervalMs != DefaultTransactionIntervalMs
        || transactionMaxRecords != DefaultTransactionMaxRecords) {
        w.number(QStringLiteral("transactionIntervalMs"), transactionIntervalMs);
        w.number(QStringLiteral("transactionMaxRecords"), transactionMaxRecords);
    }
    w.boolean(QStringLiteral("createTopics"), createTopics);
    w.boolean(QStringLiteral("syncTopicConfigs"), syncTopicConfigs);
    if (!configExclude.isEmpty())
        w.strings(QStringLiteral("configExclude"), configExclude);
    w.number(QStringLiteral("throttleBytesPerSecond"), throttleBytesPerSecond);
    w.number(QStringLiteral("samplingIntervalMs"), samplingIntervalMs);
    w.number(QStringLiteral("topicRefreshIntervalMs"), topicRefreshIntervalMs);
    // Written only when used, so profiles without group sync stay as they were.
    if (!groupsInclude.isEmpty() || !groupsExclude.isEmpty()) {
        w.key(QStringLiteral("groups"));
        w.beginObject();
        w.strings(QStringLiteral("include"), groupsInclude);
        if (!groupsExclude.isEmpty())
            w.strings(QStringLiteral("exclude"), groupsExclude);
        w.endObject();
    }
    if (!groupsInclude.isEmpty() || !syncGroupOffsets || groupSyncIntervalMs != DefaultGroupSyncIntervalMs) {
        w.boolean(QStringLiteral("syncGroupOffsets"), syncGroupOffsets);
        w.number(QStringLiteral("groupSyncIntervalMs"), groupSyncIntervalMs);
    }
    if (emitCheckpoints || !checkpointsAlias.isEmpty()) {
        w.key(QStringLiteral("checkpoints"));
        w.beginObject();
        w.boolean(QStringLiteral("enabled"), emitCheckpoints);
        if (!checkpointsAlias.isEmpty())
            w.string(QStringLiteral("sourceAlias"), checkpointsAlias);
        w.endObject();
    }
    for (auto it = unknownKeys.begin(); it != unknownKeys.end(); ++it)
        w.json(it.key(), it.value());
    w.endObject();
    w.out += '\n';
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
        *error = QStringLiteral("%1: cannot make the file readable by its owner only: %2").arg(path, file.errorString());
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
