#include "Mm2Properties.h"

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

namespace md {

// ------------------------------------------------------------ properties text

namespace {

bool isPropSpace(QChar c)
{
    return c == QLatin1Char(' ') || c == QLatin1Char('\t') || c == QLatin1Char('\f');
}

QString decodeText(const QByteArray &data)
{
    QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QString text = utf8.decode(data);
    if (!utf8.hasError())
        return text;
    // Not UTF-8: Properties.load(InputStream), which Kafka uses, reads ISO 8859-1.
    return QString::fromLatin1(data);
}

struct LogicalLine {
    QString text;
    int line = 0;
};

// Natural lines joined into logical lines: a line ending in an odd number of
// backslashes continues on the next one, whose leading white space is dropped.
// Comment and blank lines are dropped (a comment never continues).
QList<LogicalLine> logicalLines(const QString &text)
{
    QList<LogicalLine> out;
    QStringList natural;
    {
        qsizetype start = 0;
        for (qsizetype i = 0; i < text.size(); ++i) {
            const QChar c = text.at(i);
            if (c == QLatin1Char('\n') || c == QLatin1Char('\r')) {
                natural << text.mid(start, i - start);
                if (c == QLatin1Char('\r') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('\n'))
                    ++i;
                start = i + 1;
            }
        }
        if (start < text.size())
            natural << text.mid(start);
    }
    for (qsizetype i = 0; i < natural.size(); ++i) {
        QString line = natural.at(i);
        qsizetype first = 0;
        while (first < line.size() && isPropSpace(line.at(first)))
            ++first;
        if (first == line.size())
            continue;
        if (line.at(first) == QLatin1Char('#') || line.at(first) == QLatin1Char('!'))
            continue;
        LogicalLine l;
        l.line = int(i) + 1;
        QString current = line.mid(first);
        for (;;) {
            qsizetype backslashes = 0;
            for (qsizetype j = current.size() - 1; j >= 0 && current.at(j) == QLatin1Char('\\'); --j)
                ++backslashes;
            if (backslashes % 2 == 0 || i + 1 >= natural.size()) {
                if (backslashes % 2 == 1)
                    current.chop(1); // a continuation at the end of the file continues into nothing
                break;
            }
            current.chop(1);
            ++i;
            QString next = natural.at(i);
            qsizetype s = 0;
            while (s < next.size() && isPropSpace(next.at(s)))
                ++s;
            current += next.mid(s);
        }
        l.text = current;
        out << l;
    }
    return out;
}

// Resolves escapes in [from, to) of `s`; false with *error on a malformed \u.
bool unescape(const QString &s, qsizetype from, qsizetype to, QString *out, QString *error)
{
    out->clear();
    for (qsizetype i = from; i < to; ++i) {
        const QChar c = s.at(i);
        if (c != QLatin1Char('\\')) {
            out->append(c);
            continue;
        }
        if (++i >= to)
            break; // a lone trailing backslash is dropped, as Java does
        const QChar e = s.at(i);
        switch (e.unicode()) {
        case 't': out->append(QLatin1Char('\t')); break;
        case 'n': out->append(QLatin1Char('\n')); break;
        case 'r': out->append(QLatin1Char('\r')); break;
        case 'f': out->append(QLatin1Char('\f')); break;
        case 'u': {
            if (to - (i + 1) < 4) {
                *error = QStringLiteral("malformed \\uXXXX escape (needs four hexadecimal digits)");
                return false;
            }
            bool ok = false;
            const uint code = s.mid(i + 1, 4).toUInt(&ok, 16);
            if (!ok || s.mid(i + 1, 4).contains(QLatin1Char('+')) || s.mid(i + 1, 4).contains(QLatin1Char('-'))) {
                *error = QStringLiteral("malformed \\uXXXX escape \"\\u%1\"").arg(s.mid(i + 1, 4));
                return false;
            }
            out->append(QChar(char16_t(code)));
            i += 4;
            break;
        }
        default: out->append(e); break;
        }
    }
    return true;
}

} // namespace

QList<JavaProperty> parseJavaProperties(const QByteArray &data, QList<JavaPropertiesError> *errors)
{
    QList<JavaProperty> out;
    const QString text = decodeText(data);
    for (const LogicalLine &l : logicalLines(text)) {
        const QString &s = l.text;
        // The key ends at the first unescaped '=', ':' or white space.
        qsizetype keyEnd = 0;
        bool escaped = false;
        for (; keyEnd < s.size(); ++keyEnd) {
            const QChar c = s.at(keyEnd);
            if (escaped) {
                escaped = false;
                continue;
            }
            if (c == QLatin1Char('\\')) {
                escaped = true;
                continue;
            }
            if (c == QLatin1Char('=') || c == QLatin1Char(':') || isPropSpace(c))
                break;
        }
        qsizetype valueStart = keyEnd;
        while (valueStart < s.size() && isPropSpace(s.at(valueStart)))
            ++valueStart;
        if (valueStart < s.size() && (s.at(valueStart) == QLatin1Char('=') || s.at(valueStart) == QLatin1Char(':'))) {
            ++valueStart;
            while (valueStart < s.size() && isPropSpace(s.at(valueStart)))
                ++valueStart;
        }
        JavaProperty p;
        p.line = l.line;
        QString error;
        if (!unescape(s, 0, keyEnd, &p.key, &error) || !unescape(s, valueStart, s.size(), &p.value, &error)) {
            if (errors)
                errors->append({l.line, error});
            continue;
        }
        out << p;
    }
    return out;
}

namespace {

QString escapeJava(const QString &s, bool isKey)
{
    QString out;
    out.reserve(s.size() + 8);
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s.at(i);
        switch (c.unicode()) {
        case '\\': out += QStringLiteral("\\\\"); break;
        case '\t': out += QStringLiteral("\\t"); break;
        case '\n': out += QStringLiteral("\\n"); break;
        case '\r': out += QStringLiteral("\\r"); break;
        case '\f': out += QStringLiteral("\\f"); break;
        case '=':
        case ':':
            if (isKey)
                out += QLatin1Char('\\');
            out += c;
            break;
        case '#':
        case '!':
            if (i == 0)
                out += QLatin1Char('\\');
            out += c;
            break;
        case ' ':
            if (isKey || i == 0)
                out += QLatin1Char('\\');
            out += c;
            break;
        default:
            if (c.unicode() < 0x20 || c.unicode() > 0x7e)
                out += QStringLiteral("\\u%1").arg(uint(c.unicode()), 4, 16, QLatin1Char('0'));
            else
                out += c;
        }
    }
    return out;
}

} // namespace

QString escapeJavaPropertyKey(const QString &key)
{
    return escapeJava(key, true);
}

QString escapeJavaPropertyValue(const QString &value)
{
    return escapeJava(value, false);
}

QString Mm2Unmapped::toString() const
{
    return QStringLiteral("line %1: %2: %3").arg(line).arg(key, reason);
}

QString Mm2Flow::fileName() const
{
    // Aliases may hold characters a file name should not.
    auto safe = [](const QString &s) {
        QString r;
        for (const QChar c : s)
            r += (c.isLetterOrNumber() || c == QLatin1Char('.') || c == QLatin1Char('_') || c == QLatin1Char('-'))
                     ? c
                     : QLatin1Char('_');
        return r.isEmpty() ? QStringLiteral("_") : r;
    };
    return safe(sourceAlias) + QStringLiteral("-to-") + safe(targetAlias) + QStringLiteral(".mirrorjob");
}

// ------------------------------------------------------------------- shared

namespace {

const QStringList &mm2DefaultExclude()
{
    static const QStringList list{QStringLiteral(".*[\\-\\.]internal"), QStringLiteral(".*\\.replica"),
                                  QStringLiteral("__.*")};
    return list;
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
    static const QSet<QString> special{QStringLiteral("bootstrap.servers"), QStringLiteral("security.protocol"),
                                       QStringLiteral("sasl.mechanism"), QStringLiteral("sasl.jaas.config"),
                                       QStringLiteral("ssl.truststore.type"), QStringLiteral("ssl.truststore.location"),
                                       QStringLiteral("ssl.truststore.password"), QStringLiteral("ssl.keystore.type"),
                                       QStringLiteral("ssl.keystore.location"), QStringLiteral("ssl.keystore.password"),
                                       QStringLiteral("ssl.key.password"),
                                       QStringLiteral("ssl.endpoint.identification.algorithm")};
    return special.contains(rest);
}

enum class RdKafkaName { Unknown, Valid, InvalidValue };

// Whether librdkafka knows the property (and takes the value). *why gets its
// reason, except for secret-named properties whose message could repeat the value.
RdKafkaName checkRdKafkaProperty(const QString &name, const QString &value, QString *why)
{
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    char errstr[512];
    // References are resolved later; any value of the right shape will do for the name check.
    const QString probe = SecretRef::findAll(value).isEmpty() ? value : QString();
    const rd_kafka_conf_res_t r =
        rd_kafka_conf_set(conf, name.toUtf8().constData(), probe.toUtf8().constData(), errstr, sizeof errstr);
    rd_kafka_conf_destroy(conf);
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
    static const QSet<QString> owned{QStringLiteral("group.id"),          QStringLiteral("enable.auto.commit"),
                                     QStringLiteral("enable.auto.offset.store"), QStringLiteral("isolation.level"),
                                     QStringLiteral("enable.idempotence"), QStringLiteral("acks"),
                                     QStringLiteral("auto.offset.reset"),  QStringLiteral("bootstrap.servers"),
                                     QStringLiteral("enable.partition.eof"), QStringLiteral("transactional.id")};
    return owned.contains(name);
}

struct JaasLine {
    QString loginModule;
    QMap<QString, QString> options;
    QString error;
};

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
        while (i < text.size() && !text.at(i).isSpace() && text.at(i) != QLatin1Char('=') && text.at(i) != QLatin1Char(';'))
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

} // namespace

// ------------------------------------------------------------------- import

namespace {

struct Entry {
    QString value;
    int line = 0;
};

class Importer final
{
public:
    Importer(const QByteArray &data, const QString &fileName) : m_fileName(fileName)
    {
        QList<JavaPropertiesError> errors;
        const QList<JavaProperty> props = parseJavaProperties(data, &errors);
        for (const JavaPropertiesError &e : errors)
            m_result.unmapped << Mm2Unmapped{e.line, QStringLiteral("(syntax)"), e.message};
        for (const JavaProperty &p : props) {
            if (const auto it = m_entries.constFind(p.key); it != m_entries.constEnd())
                m_result.unmapped << Mm2Unmapped{it->line, p.key, QStringLiteral("overridden by line %1").arg(p.line)};
            m_entries.insert(p.key, {p.value, p.line});
        }
    }

    Mm2ImportResult run()
    {
        const std::optional<Entry> clusters = take(QStringLiteral("clusters"));
        if (!clusters || splitList(clusters->value).isEmpty()) {
            m_result.error = QStringLiteral("%1: no \"clusters\" list (e.g. clusters = eu, dr): not an mm2.properties for "
                                            "dedicated mode")
                                 .arg(name());
            return m_result;
        }
        m_clusters = splitList(clusters->value);
        m_clusters.removeDuplicates();
        for (const QString &a : std::as_const(m_clusters)) {
            for (const QString &b : std::as_const(m_clusters)) {
                if (a == b)
                    continue;
                const std::optional<Entry> enabled = take(a + QStringLiteral("->") + b + QStringLiteral(".enabled"));
                if (enabled && javaBool(enabled->value))
                    m_flows << qMakePair(a, b);
            }
        }
        if (m_flows.isEmpty()) {
            m_result.error = QStringLiteral("%1: no enabled flow: MM2 runs a flow only with \"A->B.enabled = true\" "
                                            "(clusters: %2)")
                                 .arg(name(), m_clusters.join(QStringLiteral(", ")));
            return m_result;
        }
        // Understood: ${env:...} references need nothing more from MirrorDesk.
        for (auto it = m_entries.constBegin(); it != m_entries.constEnd(); ++it) {
            if (it.key() == QLatin1String("config.providers") || it.key().startsWith(QLatin1String("config.providers.")))
                m_used.insert(it.key());
        }
        for (const auto &[a, b] : std::as_const(m_flows))
            m_result.flows << flow(a, b);
        explainLeftovers();
        std::stable_sort(m_result.unmapped.begin(), m_result.unmapped.end(),
                         [](const Mm2Unmapped &x, const Mm2Unmapped &y) { return x.line < y.line; });
        return m_result;
    }

private:
    QString name() const { return m_fileName.isEmpty() ? QStringLiteral("mm2.properties") : m_fileName; }

    std::optional<Entry> take(const QString &key)
    {
        const auto it = m_entries.constFind(key);
        if (it == m_entries.constEnd())
            return std::nullopt;
        m_used.insert(key);
        return *it;
    }

    void unmapped(const QString &key, const QString &reason)
    {
        const auto it = m_entries.constFind(key);
        if (it == m_entries.constEnd() || m_explained.contains(key))
            return;
        m_explained.insert(key);
        m_result.unmapped << Mm2Unmapped{it->line, key, reason};
    }

    // A flow setting: "A->B.key", else the top-level "key".
    std::optional<Entry> flowValue(const QString &a, const QString &b, const QString &key)
    {
        if (auto e = take(a + QStringLiteral("->") + b + QLatin1Char('.') + key))
            return e;
        return take(key);
    }
    QString flowKey(const QString &a, const QString &b, const QString &key) const
    {
        const QString f = a + QStringLiteral("->") + b + QLatin1Char('.') + key;
        return m_entries.contains(f) ? f : key;
    }

    // A cluster setting: "A.key", else the top-level "key" (MM2 applies
    // top-level client settings to every cluster).
    std::optional<Entry> clusterValue(const QString &alias, const QString &key)
    {
        if (auto e = take(alias + QLatin1Char('.') + key))
            return e;
        return take(key);
    }
    QString clusterKey(const QString &alias, const QString &key) const
    {
        const QString c = alias + QLatin1Char('.') + key;
        return m_entries.contains(c) ? c : key;
    }

    // The password of a JAAS line or an ssl password: a ${env:} reference is
    // kept, anything else becomes a new environment variable.
    QString secret(const QString &value, const QString &variable, const QString &description, int line)
    {
        if (const auto ref = SecretRef::whole(value); ref && ref->kind == QLatin1String("env"))
            return value;
        for (const Mm2SecretVariable &v : std::as_const(m_result.variables)) {
            if (v.name == variable)
                return QStringLiteral("${env:") + variable + QLatin1Char('}');
        }
        const QString from = SecretRef::whole(value) ? QStringLiteral("read by an MM2 config provider")
                                                     : QStringLiteral("written in clear");
        m_result.variables << Mm2SecretVariable{variable, QStringLiteral("%1 (line %2, %3 there)").arg(description).arg(line).arg(from)};
        return QStringLiteral("${env:") + variable + QLatin1Char('}');
    }

    void side(const QString &alias, ProfileSide *s, bool isSource)
    {
        s->alias = alias;
        if (const auto e = take(alias + QStringLiteral(".bootstrap.servers")))
            s->bootstrap = e->value.trimmed();
        else
            m_result.notes << QStringLiteral("cluster %1 has no %1.bootstrap.servers: fill in source/target bootstrap").arg(alias);

        const QString protoKey = clusterKey(alias, QStringLiteral("security.protocol"));
        if (const auto e = clusterValue(alias, QStringLiteral("security.protocol"))) {
            if (!parseSecurityProtocol(e->value, &s->security)) {
                m_used.remove(protoKey);
                unmapped(protoKey, QStringLiteral("unknown security protocol (expected PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL)"));
            }
        }
        const bool sasl = s->security == SecurityProtocol::SaslPlaintext || s->security == SecurityProtocol::SaslSsl;

        // SASL: mechanism, and user and password from the JAAS line.
        const QString mechKey = clusterKey(alias, QStringLiteral("sasl.mechanism"));
        const std::optional<Entry> mech = clusterValue(alias, QStringLiteral("sasl.mechanism"));
        const QString jaasKey = clusterKey(alias, QStringLiteral("sasl.jaas.config"));
        const std::optional<Entry> jaas = clusterValue(alias, QStringLiteral("sasl.jaas.config"));
        if (mech) {
            const QString m = mech->value.trimmed().toUpper();
            if (m == QLatin1String("PLAIN") || m == QLatin1String("SCRAM-SHA-256") || m == QLatin1String("SCRAM-SHA-512")) {
                s->hasSasl = true;
                s->saslMechanism = m;
            } else {
                m_used.remove(mechKey);
                unmapped(mechKey, QStringLiteral("mechanism %1 is not supported by MirrorDesk profiles (PLAIN, SCRAM-SHA-256, "
                                                 "SCRAM-SHA-512)")
                                      .arg(m));
            }
        }
        if (jaas) {
            const JaasLine j = parseJaas(jaas->value);
            const QString module = j.loginModule.section(QLatin1Char('.'), -1);
            if (!j.error.isEmpty()) {
                m_used.remove(jaasKey);
                unmapped(jaasKey, QStringLiteral("unreadable JAAS line: ") + j.error);
            } else if (module != QLatin1String("ScramLoginModule") && module != QLatin1String("PlainLoginModule")) {
                m_used.remove(jaasKey);
                unmapped(jaasKey, QStringLiteral("login module %1 is not supported (ScramLoginModule or PlainLoginModule)").arg(module));
            } else {
                s->hasSasl = true;
                if (!mech) {
                    // Java would default to GSSAPI here and fail; the login module says what was meant.
                    s->saslMechanism = module == QLatin1String("PlainLoginModule") ? QStringLiteral("PLAIN")
                                                                                   : QStringLiteral("SCRAM-SHA-512");
                    m_result.notes << QStringLiteral("cluster %1: no sasl.mechanism given; %2 assumed from the JAAS login module")
                                          .arg(alias, s->saslMechanism);
                }
                s->saslUsername = j.options.value(QStringLiteral("username"));
                const QString password = j.options.value(QStringLiteral("password"));
                if (!password.isEmpty())
                    s->saslPassword = secret(password, envName(alias, QStringLiteral("PASSWORD")),
                                             QStringLiteral("password of SASL user \"%1\" on cluster %2").arg(s->saslUsername, alias),
                                             jaas->line);
                for (auto it = j.options.constBegin(); it != j.options.constEnd(); ++it) {
                    if (it.key() != QLatin1String("username") && it.key() != QLatin1String("password"))
                        m_result.notes << QStringLiteral("cluster %1: JAAS option %2 (line %3) has no MirrorDesk equivalent and was left out")
                                              .arg(alias, it.key())
                                              .arg(jaas->line);
                }
            }
        }
        if (s->hasSasl && !sasl)
            m_result.notes << QStringLiteral("cluster %1: SASL settings given but security.protocol is %2; they are kept but unused")
                                  .arg(alias, securityProtocolName(s->security));

        // TLS: librdkafka reads PEM files (and PKCS#12 keystores), not Java keystores.
        const std::optional<Entry> trustType = clusterValue(alias, QStringLiteral("ssl.truststore.type"));
        const QString trustLocKey = clusterKey(alias, QStringLiteral("ssl.truststore.location"));
        const std::optional<Entry> trustLoc = clusterValue(alias, QStringLiteral("ssl.truststore.location"));
        const QString trustPassKey = clusterKey(alias, QStringLiteral("ssl.truststore.password"));
        const std::optional<Entry> trustPass = clusterValue(alias, QStringLiteral("ssl.truststore.password"));
        if (trustLoc) {
            if (looksPem(trustLoc->value, trustType ? trustType->value : QString())) {
                s->sslCa = trustLoc->value.trimmed();
                if (trustPass) // a PEM truststore needs no password
                    m_used.insert(trustPassKey);
            } else {
                m_used.remove(trustLocKey);
                unmapped(trustLocKey, QStringLiteral("a Java truststore: librdkafka reads PEM files; convert it (keytool -exportcert "
                                                     "-rfc -keystore FILE -alias ALIAS -file ca.pem) and set %1.ssl.ca in the profile")
                                          .arg(isSource ? QStringLiteral("source") : QStringLiteral("target")));
                if (trustPass) {
                    m_used.remove(trustPassKey);
                    unmapped(trustPassKey, QStringLiteral("belongs to the Java truststore above (not needed for PEM)"));
                }
            }
        } else if (trustPass) {
            m_used.remove(trustPassKey);
            unmapped(trustPassKey, QStringLiteral("no truststore location to go with it"));
        }
        const std::optional<Entry> keyType = clusterValue(alias, QStringLiteral("ssl.keystore.type"));
        const QString keyLocKey = clusterKey(alias, QStringLiteral("ssl.keystore.location"));
        const std::optional<Entry> keyLoc = clusterValue(alias, QStringLiteral("ssl.keystore.location"));
        const QString keyPassKey = clusterKey(alias, QStringLiteral("ssl.keystore.password"));
        const std::optional<Entry> keyPass = clusterValue(alias, QStringLiteral("ssl.keystore.password"));
        const std::optional<Entry> keyKeyPass = clusterValue(alias, QStringLiteral("ssl.key.password"));
        const QString typeName = keyType ? keyType->value : QString();
        if (keyLoc && looksPem(keyLoc->value, typeName)) {
            // A PEM keystore holds the certificate chain and the private key in one file.
            s->sslCert = keyLoc->value.trimmed();
            s->sslKey = keyLoc->value.trimmed();
            if (keyKeyPass && !keyKeyPass->value.isEmpty())
                s->sslKeyPassword = secret(keyKeyPass->value, envName(alias, QStringLiteral("SSL_KEY_PASSWORD")),
                                           QStringLiteral("password of the TLS private key of cluster %1").arg(alias), keyKeyPass->line);
            if (keyPass)
                m_used.insert(keyPassKey);
        } else if (keyLoc && looksPkcs12(keyLoc->value, typeName)) {
            s->properties.insert(QStringLiteral("ssl.keystore.location"), keyLoc->value.trimmed());
            if (keyPass && !keyPass->value.isEmpty())
                s->properties.insert(QStringLiteral("ssl.keystore.password"),
                                     secret(keyPass->value, envName(alias, QStringLiteral("KEYSTORE_PASSWORD")),
                                            QStringLiteral("password of the PKCS#12 keystore of cluster %1").arg(alias), keyPass->line));
            if (keyKeyPass)
                m_result.notes << QStringLiteral("cluster %1: ssl.key.password is not used with a PKCS#12 keystore in librdkafka").arg(alias);
        } else if (keyLoc) {
            m_used.remove(keyLocKey);
            unmapped(keyLocKey, QStringLiteral("a Java keystore: librdkafka reads PEM or PKCS#12; convert it (keytool -importkeystore "
                                               "-srckeystore FILE -destkeystore client.p12 -deststoretype PKCS12) and set "
                                               "ssl.keystore.location, or give PEM files as ssl.cert and ssl.key"));
            for (const QString &k : {keyPassKey, clusterKey(alias, QStringLiteral("ssl.key.password"))}) {
                if (m_entries.contains(k)) {
                    m_used.remove(k);
                    unmapped(k, QStringLiteral("belongs to the Java keystore above"));
                }
            }
        } else {
            for (const QString &k : {keyPassKey, clusterKey(alias, QStringLiteral("ssl.key.password"))}) {
                if (m_entries.contains(k)) {
                    m_used.remove(k);
                    unmapped(k, QStringLiteral("no keystore location to go with it"));
                }
            }
        }
        if (const auto e = clusterValue(alias, QStringLiteral("ssl.endpoint.identification.algorithm"))) {
            const QString v = e->value.trimmed().toLower();
            if (v.isEmpty())
                s->properties.insert(QStringLiteral("ssl.endpoint.identification.algorithm"), QStringLiteral("none"));
            else if (v != QLatin1String("https"))
                s->properties.insert(QStringLiteral("ssl.endpoint.identification.algorithm"), v);
        }

        // Free client properties of this cluster: "A.name", "A.consumer.name",
        // "A.producer.name", "A.admin.name". Only names librdkafka knows are taken.
        const QString prefix = alias + QLatin1Char('.');
        for (auto it = m_entries.constBegin(); it != m_entries.constEnd(); ++it) {
            if (!it.key().startsWith(prefix))
                continue;
            QString rest = it.key().mid(prefix.size());
            if (isSpecialClusterKey(rest))
                continue;
            QMap<QString, QString> *target = &s->properties;
            QString role;
            for (const char *r : {"consumer.", "producer.", "admin."}) {
                if (rest.startsWith(QLatin1String(r))) {
                    role = QString::fromLatin1(r);
                    rest = rest.mid(role.size());
                }
            }
            if (role == QLatin1String("consumer.")) {
                if (!isSource) {
                    // Listed at the end unless the cluster is a source in another flow.
                    m_roleReason.insert(it.key(), QStringLiteral("MirrorDesk consumes from the source only (MM2 uses this "
                                                                 "consumer for offset syncs and checkpoints)"));
                    continue;
                }
                target = &s->consumerProperties;
            } else if (role == QLatin1String("producer.")) {
                if (isSource) {
                    m_roleReason.insert(it.key(), QStringLiteral("MirrorDesk produces to the target only (MM2 uses this "
                                                                 "producer for offset syncs)"));
                    continue;
                }
                target = &s->producerProperties;
            } else if (role == QLatin1String("admin.")) {
                target = &s->adminProperties;
            }
            clientProperty(it.key(), rest, it->value, target);
        }
    }

    void clientProperty(const QString &key, const QString &name, const QString &value, QMap<QString, QString> *target)
    {
        if (name == QLatin1String("auto.offset.reset"))
            return; // mapped to the start position by the caller
        if (isEngineOwned(name)) {
            unmapped(key, QStringLiteral("the mirror engine sets %1 itself (its delivery guarantee depends on it)").arg(name));
            return;
        }
        QString why;
        switch (checkRdKafkaProperty(name, value, &why)) {
        case RdKafkaName::Unknown:
            unmapped(key, QStringLiteral("%1 is a Java client property that librdkafka does not have").arg(name));
            return;
        case RdKafkaName::InvalidValue:
            unmapped(key, why);
            return;
        case RdKafkaName::Valid: break;
        }
        m_used.insert(key);
        if (isSecretName(name) && isClearValue(value))
            target->insert(name, secret(value, envNameForKey(key), QStringLiteral("value of %1").arg(key),
                                        m_entries.value(key).line));
        else
            target->insert(name, value);
    }

    Mm2Flow flow(const QString &a, const QString &b)
    {
        Mm2Flow f;
        f.sourceAlias = a;
        f.targetAlias = b;
        JobProfile &p = f.profile;
        p.name = a + QStringLiteral(" to ") + b;
        p.fileName = f.fileName();
        side(a, &p.source, true);
        side(b, &p.target, false);
        // Flow-level client overrides ("A->B.consumer.x" is the source consumer).
        const QString flowPrefix = a + QStringLiteral("->") + b + QLatin1Char('.');
        for (auto it = m_entries.constBegin(); it != m_entries.constEnd(); ++it) {
            if (!it.key().startsWith(flowPrefix))
                continue;
            const QString rest = it.key().mid(flowPrefix.size());
            if (rest.startsWith(QLatin1String("consumer.")))
                clientProperty(it.key(), rest.mid(9), it->value, &p.source.consumerProperties);
            else if (rest.startsWith(QLatin1String("producer.")))
                clientProperty(it.key(), rest.mid(9), it->value, &p.target.producerProperties);
        }

        // Where to start: MM2 resumes from its own offsets, else the consumer's auto.offset.reset (earliest).
        const QString resetKey = a + QStringLiteral(".consumer.auto.offset.reset");
        const QString flowResetKey = flowPrefix + QStringLiteral("consumer.auto.offset.reset");
        std::optional<Entry> reset = take(flowResetKey);
        if (!reset)
            reset = take(resetKey);
        p.start = StartPosition::Committed;
        if (reset) {
            const QString v = reset->value.trimmed().toLower();
            if (v == QLatin1String("latest")) {
                p.start = StartPosition::Latest;
                m_result.notes << QStringLiteral("%1->%2: auto.offset.reset=latest became \"start\": \"latest\" (skips what the "
                                                 "source holds when the job first starts)")
                                      .arg(a, b);
            } else if (v != QLatin1String("earliest")) {
                m_used.remove(m_entries.contains(flowResetKey) ? flowResetKey : resetKey);
                unmapped(m_entries.contains(flowResetKey) ? flowResetKey : resetKey,
                         QStringLiteral("only earliest and latest have an equivalent"));
            }
        }

        // Topics.
        if (const auto e = flowValue(a, b, QStringLiteral("topics")))
            p.include = splitList(e->value);
        else
            p.include = {QStringLiteral(".*")};
        if (p.include.isEmpty()) {
            unmapped(flowKey(a, b, QStringLiteral("topics")), QStringLiteral("an empty topic list mirrors nothing; \".*\" used"));
            p.include = {QStringLiteral(".*")};
        }
        const std::optional<Entry> exclude = flowValue(a, b, QStringLiteral("topics.exclude"));
        // The deprecated name counts only where topics.exclude is not given (as in MM2).
        const std::optional<Entry> blacklist = exclude ? std::nullopt : flowValue(a, b, QStringLiteral("topics.blacklist"));
        if (exclude)
            p.exclude = splitList(exclude->value);
        else if (blacklist)
            p.exclude = splitList(blacklist->value);
        else
            p.exclude = mm2DefaultExclude();
        p.excludeInternalTopics = true;

        // Naming.
        const QString policyKey = flowKey(a, b, QStringLiteral("replication.policy.class"));
        const std::optional<Entry> policy = flowValue(a, b, QStringLiteral("replication.policy.class"));
        if (const auto sep = flowValue(a, b, QStringLiteral("replication.policy.separator")))
            p.separator = sep->value;
        else
            p.separator = QStringLiteral(".");
        p.naming = NamingPolicy::Prefix;
        if (policy) {
            const QString cls = policy->value.trimmed();
            if (cls == QLatin1String(kMm2IdentityPolicy) || cls.endsWith(QLatin1String(".IdentityReplicationPolicy"))) {
                p.naming = NamingPolicy::Identity;
            } else if (cls != QLatin1String(kMm2DefaultPolicy) && !cls.endsWith(QLatin1String(".DefaultReplicationPolicy"))) {
                m_used.remove(policyKey);
                unmapped(policyKey, QStringLiteral("custom replication policy %1: DefaultReplicationPolicy naming (prefix) used "
                                                   "instead")
                                        .arg(cls));
            }
        }
        if (p.separator.isEmpty()) {
            unmapped(flowKey(a, b, QStringLiteral("replication.policy.separator")), QStringLiteral("an empty separator; \".\" used"));
            p.separator = QStringLiteral(".");
        }

        // Sync options.
        if (const auto e = flowValue(a, b, QStringLiteral("sync.topic.configs.enabled")))
            p.syncTopicConfigs = javaBool(e->value);
        if (const auto e = flowValue(a, b, QStringLiteral("config.properties.exclude")))
            p.configExclude = splitList(e->value);
        else if (const auto e2 = flowValue(a, b, QStringLiteral("config.properties.blacklist")))
            p.configExclude = splitList(e2->value);
        const QString refreshKey = flowKey(a, b, QStringLiteral("refresh.topics.interval.seconds"));
        if (const auto e = flowValue(a, b, QStringLiteral("refresh.topics.interval.seconds"))) {
            bool ok = false;
            const qint64 seconds = e->value.trimmed().toLongLong(&ok);
            if (!ok || seconds <= 0) {
                m_used.remove(refreshKey);
                unmapped(refreshKey, QStringLiteral("not a positive number of seconds"));
            } else {
                const qint64 ms = qBound(qint64(JobProfile::MinTopicRefreshIntervalMs), seconds * 1000,
                                                 qint64(JobProfile::MaxTopicRefreshIntervalMs));
                p.topicRefreshIntervalMs = int(ms);
                if (ms != seconds * 1000)
                    m_result.notes << QStringLiteral("%1->%2: topic refresh interval limited to %3 s").arg(a, b).arg(ms / 1000);
            }
        }
        // Features MirrorDesk does not have: fine when they are switched off.
        for (const char *k : {"sync.topic.acls.enabled", "emit.checkpoints.enabled", "emit.heartbeats.enabled",
                              "sync.group.offsets.enabled", "emit.offset-syncs.enabled", "refresh.groups.enabled"}) {
            const QString key = QString::fromLatin1(k);
            const QString where = flowKey(a, b, key);
            if (const auto e = flowValue(a, b, key); e && javaBool(e->value)) {
                m_used.remove(where);
                unmapped(where, QStringLiteral("MirrorDesk has no equivalent (it mirrors records, partitions and topic configs; "
                                               "not ACLs, checkpoints, heartbeats or group offsets)"));
            }
        }
        if (const auto e = flowValue(a, b, QStringLiteral("refresh.topics.enabled")); e && !javaBool(e->value)) {
            m_used.remove(flowKey(a, b, QStringLiteral("refresh.topics.enabled")));
            unmapped(flowKey(a, b, QStringLiteral("refresh.topics.enabled")),
                     QStringLiteral("MirrorDesk always picks up new matching topics"));
        }
        return f;
    }

    // Every key no flow used gets a reason; nothing is dropped silently.
    void explainLeftovers()
    {
        QSet<QString> flowClusters;
        for (const auto &[a, b] : std::as_const(m_flows))
            flowClusters << a << b;
        static const QRegularExpression flowKeyRe(QStringLiteral("^([^.]+)->([^.]+)\\.(.+)$"));
        for (auto it = m_entries.constBegin(); it != m_entries.constEnd(); ++it) {
            const QString &key = it.key();
            if (m_used.contains(key))
                continue;
            if (m_roleReason.contains(key)) {
                unmapped(key, m_roleReason.value(key));
                continue;
            }
            if (const QRegularExpressionMatch m = flowKeyRe.match(key); m.hasMatch()) {
                const QString a = m.captured(1), b = m.captured(2), rest = m.captured(3);
                if (!m_clusters.contains(a) || !m_clusters.contains(b)) {
                    unmapped(key, QStringLiteral("flow %1->%2 names a cluster that is not in \"clusters\"").arg(a, b));
                } else if (!m_flows.contains(qMakePair(a, b))) {
                    if (rest == QLatin1String("emit.heartbeats.enabled") && !javaBool(it->value))
                        continue; // part of switching the reverse flow off
                    unmapped(key, QStringLiteral("flow %1->%2 is not enabled").arg(a, b));
                } else {
                    unmapped(key, reasonFor(rest));
                }
                continue;
            }
            const QString first = key.section(QLatin1Char('.'), 0, 0);
            if (m_clusters.contains(first) && key.contains(QLatin1Char('.'))) {
                if (!flowClusters.contains(first))
                    unmapped(key, QStringLiteral("cluster %1 takes part in no enabled flow").arg(first));
                else
                    unmapped(key, reasonFor(key.mid(first.size() + 1)));
                continue;
            }
            unmapped(key, reasonFor(key));
        }
    }

    static QString reasonFor(const QString &key)
    {
        if (key.endsWith(QLatin1String("replication.factor")) && key != QLatin1String("replication.factor"))
            return QStringLiteral("not needed: MirrorDesk keeps no internal topics of its own (no heartbeats, checkpoints, "
                                  "offset-syncs or Connect topics)");
        if (key == QLatin1String("replication.factor"))
            return QStringLiteral("MirrorDesk creates target topics with the source's replication factor, capped by the "
                                  "target's broker count");
        if (key == QLatin1String("topics.blacklist") || key == QLatin1String("config.properties.blacklist"))
            return QStringLiteral("deprecated name, overridden by the newer *.exclude setting");
        if (key == QLatin1String("tasks.max"))
            return QStringLiteral("no equivalent: to share the work, run several headless instances of the same profile");
        if (key.startsWith(QLatin1String("groups")) || key.contains(QLatin1String("checkpoint")) ||
            key.contains(QLatin1String("heartbeat")) || key.contains(QLatin1String("offset-syncs")) ||
            key.contains(QLatin1String("offset.lag")) || key.startsWith(QLatin1String("sync.group")))
            return QStringLiteral("MirrorDesk has no equivalent (no consumer group offset translation, checkpoints or "
                                  "heartbeats)");
        if (key.startsWith(QLatin1String("consumer.")) || key.startsWith(QLatin1String("producer.")) ||
            key.startsWith(QLatin1String("admin.")))
            return QStringLiteral("not per cluster: write it as SOURCE.consumer.*, TARGET.producer.* or A->B.consumer.*");
        if (key.startsWith(QLatin1String("ssl.")) || key.startsWith(QLatin1String("sasl.")))
            return QStringLiteral("no MirrorDesk equivalent for this security setting");
        return QStringLiteral("not known to MirrorDesk's MM2 import (MM2 worker or Connect setting)");
    }

    QString m_fileName;
    QHash<QString, Entry> m_entries;
    QSet<QString> m_used;
    QSet<QString> m_explained;
    QHash<QString, QString> m_roleReason; // client overrides for the side MirrorDesk does not run
    QStringList m_clusters;
    QList<QPair<QString, QString>> m_flows;
    Mm2ImportResult m_result;
};

} // namespace

Mm2ImportResult importMm2Properties(const QByteArray &data, const QString &fileName)
{
    return Importer(data, fileName).run();
}

// ------------------------------------------------------------------- export

namespace {

// One (key, value) list in the order MM2 users expect to read it.
using Lines = QList<QPair<QString, QString>>;

struct ExportContext {
    const JobProfile &p;
    const Mm2ExportOptions &options;
    QStringList notes;
    QString error;
    bool usesEnv = false;
    QStringList variables;

    // A value MM2 can take: ${env:X} stays (EnvVarConfigProvider resolves it);
    // any other reference is refused. `secretVariable` non-empty: the value is
    // a secret, and one in clear (or in the keychain) is replaced by a variable.
    QString value(const QString &v, const QString &what, const QString &secretVariable = {})
    {
        QString err;
        const QList<SecretRef> refs = SecretRef::findAll(v, &err);
        if (!err.isEmpty()) {
            fail(QStringLiteral("%1: %2").arg(what, err));
            return {};
        }
        bool onlyEnv = true;
        for (const SecretRef &r : refs) {
            if (r.kind != QLatin1String("env"))
                onlyEnv = false;
        }
        if (!secretVariable.isEmpty()) {
            if (!refs.isEmpty() && onlyEnv) {
                usesEnv = true;
                return v;
            }
            if (v.isEmpty())
                return v;
            usesEnv = true;
            if (!variables.contains(secretVariable)) {
                variables << secretVariable;
                notes << QStringLiteral("set %1 to the %2 before starting MM2 (%3)")
                             .arg(secretVariable, what,
                                  refs.isEmpty() ? QStringLiteral("the profile holds it in clear; it is not written to the file")
                                                 : QStringLiteral("the profile reads it from %1").arg(refs.first().toString()));
            }
            return QStringLiteral("${env:") + secretVariable + QLatin1Char('}');
        }
        if (!onlyEnv) {
            fail(QStringLiteral("%1: the reference %2 cannot be resolved by MM2 (only ${env:NAME} can)")
                     .arg(what, refs.first().toString()));
            return {};
        }
        if (!refs.isEmpty())
            usesEnv = true;
        return v;
    }

    void fail(const QString &e)
    {
        if (error.isEmpty())
            error = e;
    }
};

QString javaProtocol(SecurityProtocol p)
{
    return securityProtocolName(p).toUpper();
}

// Connection and client settings of one side, keys relative to `prefix`
// ("eu." for mm2.properties, "source.cluster." for a connector).
void sideLines(ExportContext &c, const ProfileSide &s, const QString &what, const QString &clusterPrefix,
               const QString &consumerPrefix, const QString &producerPrefix, const QString &adminPrefix, bool isSource,
               Lines *out)
{
    out->append({clusterPrefix + QStringLiteral("bootstrap.servers"), c.value(s.bootstrap, what + QStringLiteral(".bootstrap"))});
    if (s.security != SecurityProtocol::Plaintext)
        out->append({clusterPrefix + QStringLiteral("security.protocol"), javaProtocol(s.security)});
    const bool sasl = s.security == SecurityProtocol::SaslPlaintext || s.security == SecurityProtocol::SaslSsl;
    const bool ssl = s.security == SecurityProtocol::Ssl || s.security == SecurityProtocol::SaslSsl;
    if (sasl && s.hasSasl) {
        const QString mech = s.saslMechanism.toUpper();
        out->append({clusterPrefix + QStringLiteral("sasl.mechanism"), mech});
        const QString module = mech == QLatin1String("PLAIN") ? QStringLiteral("org.apache.kafka.common.security.plain.PlainLoginModule")
                                                              : QStringLiteral("org.apache.kafka.common.security.scram.ScramLoginModule");
        const QString user = c.value(s.saslUsername, what + QStringLiteral(".sasl.username"));
        const QString password = c.value(s.saslPassword, QStringLiteral("password of SASL user \"%1\" on cluster %2").arg(s.saslUsername, s.alias),
                                         envName(s.alias, QStringLiteral("PASSWORD")));
        out->append({clusterPrefix + QStringLiteral("sasl.jaas.config"),
                     module + QStringLiteral(" required username=") + jaasQuote(user) + QStringLiteral(" password=") +
                         jaasQuote(password) + QLatin1Char(';')});
    }
    if (ssl) {
        if (!s.sslCa.isEmpty()) {
            out->append({clusterPrefix + QStringLiteral("ssl.truststore.type"), QStringLiteral("PEM")});
            out->append({clusterPrefix + QStringLiteral("ssl.truststore.location"), c.value(s.sslCa, what + QStringLiteral(".ssl.ca"))});
        }
        if (!s.sslCert.isEmpty()) {
            if (s.sslCert != s.sslKey) {
                c.fail(QStringLiteral("%1.ssl: the certificate and key are in two files; a Java PEM keystore needs both in one "
                                      "file (cat cert.pem key.pem > client.pem, then use it for ssl.cert and ssl.key)")
                           .arg(what));
            } else {
                out->append({clusterPrefix + QStringLiteral("ssl.keystore.type"), QStringLiteral("PEM")});
                out->append({clusterPrefix + QStringLiteral("ssl.keystore.location"), c.value(s.sslCert, what + QStringLiteral(".ssl.cert"))});
                if (!s.sslKeyPassword.isEmpty())
                    out->append({clusterPrefix + QStringLiteral("ssl.key.password"),
                                 c.value(s.sslKeyPassword, QStringLiteral("password of the TLS key of cluster %1").arg(s.alias),
                                         envName(s.alias, QStringLiteral("SSL_KEY_PASSWORD")))});
            }
        }
    }
    auto freeProps = [&](const QMap<QString, QString> &m, const QString &prefix, const QString &path) {
        for (auto it = m.begin(); it != m.end(); ++it) {
            QString key = it.key();
            QString v = it.value();
            if (key == QLatin1String("ssl.endpoint.identification.algorithm") && v == QLatin1String("none"))
                v = QString(); // Java spells "none" as empty
            const QString variable = isSecretName(key)
                                         ? envName(s.alias, QString(key).toUpper().replace(QLatin1Char('.'), QLatin1Char('_')))
                                         : QString();
            out->append({prefix + key, c.value(v, QStringLiteral("%1[\"%2\"]").arg(path, key), variable)});
            // librdkafka's keystore is PKCS#12; Java assumes JKS unless told.
            if (key == QLatin1String("ssl.keystore.location") && !m.contains(QStringLiteral("ssl.keystore.type")))
                out->append({prefix + QStringLiteral("ssl.keystore.type"), QStringLiteral("PKCS12")});
        }
    };
    freeProps(s.properties, clusterPrefix, what + QStringLiteral(".properties"));
    if (!s.properties.isEmpty())
        c.notes << QStringLiteral("%1.properties are librdkafka properties written as they are; check each exists in the "
                                  "Java client (MM2 ignores unknown ones with a warning)")
                       .arg(what);
    if (isSource)
        freeProps(s.consumerProperties, consumerPrefix, what + QStringLiteral(".consumerProperties"));
    else if (!s.consumerProperties.isEmpty())
        c.notes << QStringLiteral("%1.consumerProperties are not used by MirrorDesk and were left out").arg(what);
    if (!isSource)
        freeProps(s.producerProperties, producerPrefix, what + QStringLiteral(".producerProperties"));
    else if (!s.producerProperties.isEmpty())
        c.notes << QStringLiteral("%1.producerProperties are not used by MirrorDesk and were left out").arg(what);
    freeProps(s.adminProperties, adminPrefix, what + QStringLiteral(".adminProperties"));
}

// Flow settings shared by both outputs, keys as MM2 connectors name them.
void flowLines(ExportContext &c, Lines *out)
{
    const JobProfile &p = c.p;
    for (const QString &list : {p.include.join(QString()), p.exclude.join(QString())}) {
        if (list.contains(QLatin1Char(',')))
            c.fail(QStringLiteral("topics: a regular expression with a comma cannot be written in MM2's comma-separated "
                                  "lists; rewrite it (e.g. \"a{1,3}\" as \"a|aa|aaa\")"));
    }
    out->append({QStringLiteral("topics"), p.include.join(QStringLiteral(", "))});
    out->append({QStringLiteral("topics.exclude"), p.exclude.join(QStringLiteral(", "))});
    if (!p.excludeInternalTopics)
        c.notes << QStringLiteral("topics.excludeInternal is off, but MM2 never mirrors internal topics");

    QString policy = QString::fromLatin1(kMm2DefaultPolicy);
    QString separator = p.separator;
    switch (p.naming) {
    case NamingPolicy::Prefix: break;
    case NamingPolicy::Identity: policy = QString::fromLatin1(kMm2IdentityPolicy); break;
    case NamingPolicy::Template: {
        // Only templates MM2's own policies can produce have an equivalent.
        const QString t = p.nameTemplate.isEmpty() ? QStringLiteral("${topic}") : p.nameTemplate;
        if (t == QLatin1String("${topic}")) {
            policy = QString::fromLatin1(kMm2IdentityPolicy);
        } else if (t.endsWith(QLatin1String("${topic}")) && t.count(QLatin1String("${")) == 1 &&
                   t.startsWith(p.source.alias) && t.size() > p.source.alias.size() + 8) {
            separator = t.mid(p.source.alias.size(), t.size() - p.source.alias.size() - 8);
        } else {
            c.fail(QStringLiteral("naming.template \"%1\": MM2 has no equivalent (its DefaultReplicationPolicy names topics "
                                  "<source alias><separator><topic>, IdentityReplicationPolicy keeps the name)")
                       .arg(t));
        }
        break;
    }
    }
    out->append({QStringLiteral("replication.policy.class"), policy});
    out->append({QStringLiteral("replication.policy.separator"), separator});
    out->append({QStringLiteral("sync.topic.configs.enabled"), p.syncTopicConfigs ? QStringLiteral("true") : QStringLiteral("false")});
    if (!p.configExclude.isEmpty()) {
        if (p.configExclude.join(QString()).contains(QLatin1Char(',')))
            c.fail(QStringLiteral("configExclude: a regular expression with a comma cannot be written in MM2's list"));
        out->append({QStringLiteral("config.properties.exclude"), p.configExclude.join(QStringLiteral(", "))});
    }
    out->append({QStringLiteral("refresh.topics.interval.seconds"), QString::number(qMax(1, (p.topicRefreshIntervalMs + 999) / 1000))});
    // MirrorDesk copies no ACLs; MM2 would by default. Checkpoints stay at MM2's
    // default: they change nothing in the copy, and switching them off makes
    // MM2 4.x log an error for its checkpoint connector at every start.
    out->append({QStringLiteral("sync.topic.acls.enabled"), QStringLiteral("false")});

    if (p.start == StartPosition::Latest)
        c.notes << QStringLiteral("start \"latest\": written as the source consumer's auto.offset.reset=latest");
    else if (p.start == StartPosition::Timestamp)
        c.notes << QStringLiteral("start at a timestamp has no MM2 equivalent: MM2 starts from its stored offsets, else the earliest");
    else if (p.start == StartPosition::Earliest)
        c.notes << QStringLiteral("start \"earliest\": MM2 starts from the earliest record only when it has no stored offsets");
    if (p.stop != StopCondition::RunForever)
        c.notes << QStringLiteral("the stop condition has no MM2 equivalent: MM2 mirrors until it is stopped");
    if (p.throttleBytesPerSecond > 0)
        c.notes << QStringLiteral("MM2 has no throttle; use a client quota on the source cluster for the byte rate (%1 bytes/s)")
                       .arg(p.throttleBytesPerSecond);
    if (!p.createTopics)
        c.notes << QStringLiteral("createTopics is off, but MM2 always creates the target topics");
}

void checkProfile(ExportContext &c)
{
    for (const ProfileIssue &i : c.p.validate()) {
        if (i.isError()) {
            c.fail(QStringLiteral("the profile has errors: ") + i.toString());
            return;
        }
    }
    if (c.p.source.alias.isEmpty() || c.p.target.alias.isEmpty())
        c.fail(QStringLiteral("source.alias and target.alias are required: MM2 names clusters by alias"));
    else if (c.p.source.alias == c.p.target.alias)
        c.fail(QStringLiteral("source.alias and target.alias must differ for MM2"));
    static const QRegularExpression aliasRe(QStringLiteral("^[A-Za-z0-9_-]+$"));
    for (const QString &a : {c.p.source.alias, c.p.target.alias}) {
        if (!a.isEmpty() && !aliasRe.match(a).hasMatch())
            c.fail(QStringLiteral("alias \"%1\": MM2 cluster aliases are letters, digits, '_' and '-' (no '.' or spaces)").arg(a));
    }
}

} // namespace

Mm2ExportResult exportMm2Properties(const JobProfile &profile, const Mm2ExportOptions &options)
{
    ExportContext c{profile, options, {}, {}, false, {}};
    Mm2ExportResult r;
    checkProfile(c);
    if (!c.error.isEmpty()) {
        r.error = c.error;
        return r;
    }
    const QString a = profile.source.alias, b = profile.target.alias;
    const QString ab = a + QStringLiteral("->") + b + QLatin1Char('.');
    const QString ba = b + QStringLiteral("->") + a + QLatin1Char('.');

    Lines clusters;
    clusters.append({QStringLiteral("clusters"), a + QStringLiteral(", ") + b});
    Lines sides;
    sideLines(c, profile.source, QStringLiteral("source"), a + QLatin1Char('.'), a + QStringLiteral(".consumer."),
              a + QStringLiteral(".producer."), a + QStringLiteral(".admin."), true, &sides);
    sideLines(c, profile.target, QStringLiteral("target"), b + QLatin1Char('.'), b + QStringLiteral(".consumer."),
              b + QStringLiteral(".producer."), b + QStringLiteral(".admin."), false, &sides);
    if (profile.start == StartPosition::Latest)
        sides.append({a + QStringLiteral(".consumer.auto.offset.reset"), QStringLiteral("latest")});

    Lines flow;
    flow.append({ab + QStringLiteral("enabled"), QStringLiteral("true")});
    Lines shared;
    flowLines(c, &shared);
    for (const auto &[k, v] : std::as_const(shared)) {
        // Naming is global in MM2 (one policy per worker); the rest belongs to the flow.
        if (k.startsWith(QLatin1String("replication.policy.")))
            clusters.append({k, v});
        else
            flow.append({ab + k, v});
    }
    flow.append({ba + QStringLiteral("enabled"), QStringLiteral("false")});
    flow.append({ba + QStringLiteral("emit.heartbeats.enabled"), QStringLiteral("false")});

    Lines factors;
    if (options.replicationFactor > 0) {
        for (const char *k : {"replication.factor", "heartbeats.topic.replication.factor", "checkpoints.topic.replication.factor",
                              "offset-syncs.topic.replication.factor", "offset.storage.replication.factor",
                              "status.storage.replication.factor", "config.storage.replication.factor"})
            factors.append({QString::fromLatin1(k), QString::number(options.replicationFactor)});
    }
    if (!c.error.isEmpty()) {
        r.error = c.error;
        return r;
    }

    QString text;
    auto section = [&](const QString &comment, const Lines &lines) {
        if (lines.isEmpty())
            return;
        text += QStringLiteral("\n# ") + comment + QLatin1Char('\n');
        for (const auto &[k, v] : lines)
            text += escapeJavaPropertyKey(k) + QStringLiteral(" = ") + escapeJavaPropertyValue(v) + QLatin1Char('\n');
    };
    text += QStringLiteral("# MirrorMaker 2 (dedicated mode), written by MirrorDesk from the job \"%1\".\n"
                           "# Run with: connect-mirror-maker.sh mm2.properties\n")
                .arg(QString(profile.name).replace(QLatin1Char('\n'), QLatin1Char(' ')));
    section(QStringLiteral("Clusters and topic naming"), clusters);
    if (c.usesEnv)
        section(QStringLiteral("${env:NAME} references are read from the environment; no secret is stored here"),
                {{QStringLiteral("config.providers"), QStringLiteral("env")},
                 {QStringLiteral("config.providers.env.class"), QString::fromLatin1(kKafkaEnvProvider)}});
    section(QStringLiteral("Connections"), sides);
    section(QStringLiteral("The flow"), flow);
    section(QStringLiteral("Replication factor of the topics MM2 creates"), factors);
    r.data = text.toUtf8();
    r.notes = c.notes;
    return r;
}

Mm2ExportResult exportMm2Connector(const JobProfile &profile, const Mm2ExportOptions &options)
{
    ExportContext c{profile, options, {}, {}, false, {}};
    Mm2ExportResult r;
    checkProfile(c);
    if (!c.error.isEmpty()) {
        r.error = c.error;
        return r;
    }
    Lines lines;
    lines.append({QStringLiteral("connector.class"), QStringLiteral("org.apache.kafka.connect.mirror.MirrorSourceConnector")});
    lines.append({QStringLiteral("source.cluster.alias"), profile.source.alias});
    lines.append({QStringLiteral("target.cluster.alias"), profile.target.alias});
    // Exact bytes: Connect must not re-encode keys and values.
    lines.append({QStringLiteral("key.converter"), QStringLiteral("org.apache.kafka.connect.converters.ByteArrayConverter")});
    lines.append({QStringLiteral("value.converter"), QStringLiteral("org.apache.kafka.connect.converters.ByteArrayConverter")});
    lines.append({QStringLiteral("header.converter"), QStringLiteral("org.apache.kafka.connect.converters.ByteArrayConverter")});
    sideLines(c, profile.source, QStringLiteral("source"), QStringLiteral("source.cluster."), QStringLiteral("source.consumer."),
              QStringLiteral("source.producer."), QStringLiteral("source.admin."), true, &lines);
    sideLines(c, profile.target, QStringLiteral("target"), QStringLiteral("target.cluster."), QStringLiteral("target.consumer."),
              QStringLiteral("target.producer."), QStringLiteral("target.admin."), false, &lines);
    if (profile.start == StartPosition::Latest)
        lines.append({QStringLiteral("source.consumer.auto.offset.reset"), QStringLiteral("latest")});
    flowLines(c, &lines);
    if (options.replicationFactor > 0) {
        lines.append({QStringLiteral("replication.factor"), QString::number(options.replicationFactor)});
        lines.append({QStringLiteral("offset-syncs.topic.replication.factor"), QString::number(options.replicationFactor)});
    }
    if (!c.error.isEmpty()) {
        r.error = c.error;
        return r;
    }
    if (c.usesEnv)
        c.notes << QStringLiteral("the connector reads ${env:NAME} references: the Connect workers need config.providers=env and "
                                  "config.providers.env.class=%1 in their worker properties, and the variables set")
                       .arg(QString::fromLatin1(kKafkaEnvProvider));
    QJsonObject config;
    for (const auto &[k, v] : std::as_const(lines))
        config.insert(k, v);
    QJsonObject root;
    QString name = JobProfile::groupIdForName(profile.name);
    root.insert(QStringLiteral("name"), name);
    root.insert(QStringLiteral("config"), config);
    r.data = QJsonDocument(root).toJson(QJsonDocument::Indented);
    r.notes = c.notes;
    return r;
}

} // namespace md
