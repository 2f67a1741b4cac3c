#include "model/mm2/Mm2Support.h"

#include "engine/core/ClientProperties.h"
#include "model/profile/JobProfile.h"

#include <librdkafka/rdkafka.h>

#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QRegularExpression>
#include <QSet>
#include <QStringDecoder>

#include <algorithm>
#include <optional>

namespace md::mm2 {

const QStringList &mm2DefaultExclude()
{
    static const QStringList list{QStringLiteral(".*[\\-\\.]internal"), QStringLiteral(".*\\.replica"),
                                  QStringLiteral("__.*")};
    return list;
}

const QStringList &mm2DefaultGroupExclude()
{
    static const QStringList list{QStringLiteral("console-consumer-.*"), QStringLiteral("connect-.*"),
                                  QStringLiteral("__.*")};
    return list;
}

bool isFlowGroupKey(const QString &key)
{
    static const QSet<QString> keys{QStringLiteral("groups"),
                                    QStringLiteral("groups.exclude"),
                                    QStringLiteral("sync.group.offsets.enabled"),
                                    QStringLiteral("sync.group.offsets.interval.seconds"),
                                    QStringLiteral("emit.checkpoints.enabled"),
                                    QStringLiteral("emit.checkpoints.interval.seconds"),
                                    QStringLiteral("refresh.groups.enabled"),
                                    QStringLiteral("refresh.groups.interval.seconds")};
    return keys.contains(key);
}

bool isFlowAclKey(const QString &key)
{
    return key == QLatin1String("sync.topic.acls.enabled") || key == QLatin1String("sync.topic.acls.interval.seconds");
}

// MM2's LIST type: comma separated, white space around items ignored.
QStringList splitList(const QString &value)
{
    QStringList out;
    if (value.trimmed().isEmpty())
        return out;
    for (const QString &item : value.split(QLatin1Char(',')))
        out << item.trimmed();
    return out;
}

bool isSecretName(const QString &key)
{
    const QString k = key.toLower();
    return k.contains(QLatin1String("password")) || k.contains(QLatin1String("secret"));
}

bool isClearValue(const QString &value)
{
    return !value.isEmpty() && !SecretRef::whole(value);
}

QString envName(const QString &alias, const QString &what)
{
    QString a;
    for (const QChar c : alias.toUpper())
        a += (c.isLetterOrNumber() && c.unicode() < 0x80) ? c : QLatin1Char('_');
    return QStringLiteral("MIRRORDESK_") + a + QLatin1Char('_') + what;
}

// "eu.consumer.ssl.keystore.password" -> MIRRORDESK_EU_CONSUMER_SSL_KEYSTORE_PASSWORD
QString envNameForKey(const QString &key)
{
    QString out = QStringLiteral("MIRRORDESK_");
    bool underscore = false;
    for (const QChar c : key.toUpper()) {
        if (c.isLetterOrNumber() && c.unicode() < 0x80) {
            out += c;
            underscore = false;
        } else if (!underscore) {
            out += QLatin1Char('_');
            underscore = true;
        }
    }
    return out;
}

// Java's Boolean.parseBoolean: "true" in any case is true, anything else false.
bool javaBool(const QString &v)
{
    return v.trimmed().compare(QLatin1String("true"), Qt::CaseInsensitive) == 0;
}

// Cluster settings side() maps itself rather than as free client properties.
bool isSpecialClusterKey(const QString &rest)
{
    static const QSet<QString> special{QStringLiteral("bootstrap.servers"),
                                       QStringLiteral("security.protocol"),
                                       QStringLiteral("sasl.mechanism"),
                                       QStringLiteral("sasl.jaas.config"),
                                       QStringLiteral("ssl.truststore.type"),
                                       QStringLiteral("ssl.truststore.location"),
                                       QStringLiteral("ssl.truststore.password"),
                                       QStringLiteral("ssl.keystore.type"),
                                       QStringLiteral("ssl.keystore.location"),
                                       QStringLiteral("ssl.keystore.password"),
                                       QStringLiteral("ssl.key.password"),
                                       QStringLiteral("ssl.endpoint.identification.algorithm"),
                                       QStringLiteral("exactly.once.source.support")};
    return special.contains(rest);
}

RdKafkaPropertyCheck::~RdKafkaPropertyCheck()
{
    if (m_conf)
        rd_kafka_conf_destroy(m_conf);
}

RdKafkaName RdKafkaPropertyCheck::check(const QString &name, const QString &value, QString *why)
{
    // Never set, not even to check it: setting it is what loads the code.
    if (const QString refused = refusedClientPropertyReason(name); !refused.isEmpty()) {
        if (why)
            *why = name.trimmed() + QStringLiteral(" ") + refused;
        return RdKafkaName::InvalidValue;
    }
    if (!m_conf)
        m_conf = rd_kafka_conf_new();
    char errstr[512];
    // References are resolved later; any value of the right shape will do for the name check.
    const QString probe = SecretRef::findAll(value).isEmpty() ? value : QString();
    const rd_kafka_conf_res_t r =
        rd_kafka_conf_set(m_conf, name.toUtf8().constData(), probe.toUtf8().constData(), errstr, sizeof errstr);
    if (r == RD_KAFKA_CONF_UNKNOWN)
        return RdKafkaName::Unknown;
    if (r == RD_KAFKA_CONF_INVALID && !probe.isEmpty()) {
        if (why)
            *why = isSecretName(name) ? QStringLiteral("librdkafka refuses its value") : QString::fromUtf8(errstr);
        return RdKafkaName::InvalidValue;
    }
    return RdKafkaName::Valid;
}

// Set by the engine itself for its guarantees; a profile may not override them.
bool isEngineOwned(const QString &name)
{
    static const QSet<QString> owned{QStringLiteral("group.id"),
                                     QStringLiteral("enable.auto.commit"),
                                     QStringLiteral("enable.auto.offset.store"),
                                     QStringLiteral("isolation.level"),
                                     QStringLiteral("enable.idempotence"),
                                     QStringLiteral("acks"),
                                     QStringLiteral("auto.offset.reset"),
                                     QStringLiteral("bootstrap.servers"),
                                     QStringLiteral("enable.partition.eof"),
                                     QStringLiteral("transactional.id")};
    return owned.contains(name);
}

// "com.example.LoginModule required key="value" key2=value2;"
JaasLine parseJaas(const QString &text)
{
    JaasLine j;
    qsizetype i = 0;
    auto skipSpace = [&] {
        while (i < text.size() && text.at(i).isSpace())
            ++i;
    };
    auto token = [&] {
        skipSpace();
        const qsizetype start = i;
        while (i < text.size() && !text.at(i).isSpace() && text.at(i) != QLatin1Char('=') &&
               text.at(i) != QLatin1Char(';'))
            ++i;
        return text.mid(start, i - start);
    };
    j.loginModule = token();
    const QString flag = token();
    if (j.loginModule.isEmpty() || flag.isEmpty()) {
        j.error = QStringLiteral("expected \"LoginModule required key=\\\"value\\\" ...;\"");
        return j;
    }
    for (;;) {
        skipSpace();
        if (i >= text.size() || text.at(i) == QLatin1Char(';'))
            break;
        const QString key = token();
        skipSpace();
        if (key.isEmpty() || i >= text.size() || text.at(i) != QLatin1Char('=')) {
            j.error = QStringLiteral("expected key=value after the login module");
            return j;
        }
        ++i;
        skipSpace();
        QString value;
        if (i < text.size() && text.at(i) == QLatin1Char('"')) {
            ++i;
            for (; i < text.size() && text.at(i) != QLatin1Char('"'); ++i) {
                if (text.at(i) == QLatin1Char('\\') && i + 1 < text.size())
                    ++i;
                value += text.at(i);
            }
            if (i >= text.size()) {
                j.error = QStringLiteral("unterminated quoted value of %1").arg(key);
                return j;
            }
            ++i;
        } else {
            value = token();
        }
        j.options.insert(key, value);
    }
    return j;
}

QString jaasQuote(const QString &s)
{
    QString out = s;
    out.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    out.replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return QLatin1Char('"') + out + QLatin1Char('"');
}

bool looksPem(const QString &location, const QString &type)
{
    if (type.trimmed().compare(QLatin1String("PEM"), Qt::CaseInsensitive) == 0)
        return true;
    if (!type.trimmed().isEmpty())
        return false;
    const QString l = location.toLower();
    if (l.endsWith(QLatin1String(".pem")) || l.endsWith(QLatin1String(".crt")) || l.endsWith(QLatin1String(".cer")))
        return true;
    QFile f(location);
    if (f.open(QIODevice::ReadOnly))
        return f.read(4096).contains("-----BEGIN ");
    return false;
}

bool looksPkcs12(const QString &location, const QString &type)
{
    if (type.trimmed().compare(QLatin1String("PKCS12"), Qt::CaseInsensitive) == 0)
        return true;
    const QString l = location.toLower();
    return type.trimmed().isEmpty() && (l.endsWith(QLatin1String(".p12")) || l.endsWith(QLatin1String(".pfx")));
}

// Why an mm2.properties key no flow used has no place in a profile.
QString leftoverReason(const QString &key)
{
    if (key == QLatin1String("checkpoints.topic.replication.factor"))
        return QStringLiteral("MirrorDesk creates the checkpoints topic itself, with the target's default replication "
                              "factor (default.replication.factor)");
    if (key.endsWith(QLatin1String("replication.factor")) && key != QLatin1String("replication.factor"))
        return QStringLiteral("not needed: MirrorDesk keeps none of MM2's other internal topics (no heartbeats, "
                              "offset-syncs or Connect topics)");
    if (key == QLatin1String("replication.factor"))
        return QStringLiteral("MirrorDesk creates target topics with the source's replication factor, capped by the "
                              "target's broker count");
    if (key == QLatin1String("topics.blacklist") || key == QLatin1String("config.properties.blacklist") ||
        key == QLatin1String("groups.blacklist"))
        return QStringLiteral("deprecated name, overridden by the newer *.exclude setting");
    if (key == QLatin1String("exactly.once.source.support"))
        return QStringLiteral(
            "MM2 reads it per target cluster (TARGET.exactly.once.source.support) for the flows into that "
            "cluster; no enabled flow takes it from here");
    if (key == QLatin1String("dedicated.mode.enable.internal.rest") || key == QLatin1String("listeners"))
        return QStringLiteral(
            "MM2's REST server between its nodes; MirrorDesk instances need none (they share the work "
            "through the consumer group)");
    if (key == QLatin1String("tasks.max"))
        return QStringLiteral("no equivalent: to share the work, run several headless instances of the same profile");
    if (isFlowGroupKey(key) || isFlowAclKey(key))
        return QStringLiteral("a flow setting: MM2 reads it as A->B.%1 or at the top level, not per cluster").arg(key);
    if (key == QLatin1String("group.filter.class"))
        return QStringLiteral("no equivalent for a custom group filter: MirrorDesk selects groups by the regexes of "
                              "groups and groups.exclude");
    if (key.contains(QLatin1String("heartbeat")) || key.contains(QLatin1String("offset-syncs")) ||
        key.contains(QLatin1String("offset.lag")))
        return QStringLiteral("MirrorDesk has no equivalent (it writes no heartbeats, and translates offsets through "
                              "its own offset map instead of MM2's offset-syncs)");
    if (key.contains(QLatin1String("checkpoint")))
        return QStringLiteral("MirrorDesk creates and writes the checkpoints topic itself (one compacted partition, "
                              "as MM2 reads it)");
    if (key.startsWith(QLatin1String("consumer.")) || key.startsWith(QLatin1String("producer.")) ||
        key.startsWith(QLatin1String("admin.")))
        return QStringLiteral("not per cluster: write it as SOURCE.consumer.*, TARGET.producer.* or A->B.consumer.*");
    if (key.startsWith(QLatin1String("ssl.")) || key.startsWith(QLatin1String("sasl.")))
        return QStringLiteral("no MirrorDesk equivalent for this security setting");
    return QStringLiteral("not known to MirrorDesk's MM2 import (MM2 worker or Connect setting)");
}

} // namespace md::mm2
