#include "model/cluster/ConnectionStore.h"

#include "engine/core/ClientProperties.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>
#include <QUrl>

#include <librdkafka/rdkafka.h>

namespace md {

namespace {

const QString kGroup = QStringLiteral("connections");

// Properties a form field owns: setting them as extras would silently fight
// the field, so validation points at the field instead.
const QMap<QString, QString> &fieldProperties()
{
    static const QMap<QString, QString> map{
        {QStringLiteral("bootstrap.servers"), QStringLiteral("bootstrap servers")},
        {QStringLiteral("metadata.broker.list"), QStringLiteral("bootstrap servers")},
        {QStringLiteral("security.protocol"), QStringLiteral("security protocol")},
        {QStringLiteral("sasl.mechanism"), QStringLiteral("SASL mechanism")},
        {QStringLiteral("sasl.mechanisms"), QStringLiteral("SASL mechanism")},
        {QStringLiteral("sasl.username"), QStringLiteral("SASL user")},
        {QStringLiteral("ssl.ca.location"), QStringLiteral("CA certificate file")},
        {QStringLiteral("ssl.certificate.location"), QStringLiteral("client certificate file")},
        {QStringLiteral("ssl.key.location"), QStringLiteral("client key file")},
    };
    return map;
}

QString checkHostPort(const QString &entry)
{
    QString rest = entry;
    if (const qsizetype scheme = rest.indexOf(QLatin1String("://")); scheme >= 0)
        rest = rest.mid(scheme + 3);
    QString host;
    QString port;
    if (rest.startsWith(QLatin1Char('['))) { // [IPv6]:port
        const qsizetype close = rest.indexOf(QLatin1Char(']'));
        if (close < 0 || close + 1 >= rest.size() || rest.at(close + 1) != QLatin1Char(':'))
            return QStringLiteral("\"") + entry + QStringLiteral("\" is not [address]:port");
        host = rest.mid(1, close - 1);
        port = rest.mid(close + 2);
    } else {
        const qsizetype colon = rest.lastIndexOf(QLatin1Char(':'));
        if (colon < 0)
            return QStringLiteral("\"") + entry + QStringLiteral("\" has no port (write host:port, e.g. kafka1:9092)");
        host = rest.left(colon);
        port = rest.mid(colon + 1);
    }
    if (host.isEmpty())
        return QStringLiteral("\"") + entry + QStringLiteral("\" has no host name");
    if (host.contains(QRegularExpression(QStringLiteral("\\s"))))
        return QStringLiteral("\"") + entry + QStringLiteral("\" has a space in the host name");
    bool ok = false;
    const int p = port.toInt(&ok);
    if (!ok || p < 1 || p > 65535)
        return QStringLiteral("\"") + entry + QStringLiteral("\": the port must be a number from 1 to 65535");
    return {};
}

void checkFile(const QString &path, const QString &field, QList<ConnectionIssue> *issues)
{
    if (path.isEmpty())
        return;
    const QFileInfo fi(path);
    if (!fi.exists())
        issues->append({field, QStringLiteral("\"") + path + QStringLiteral("\" does not exist")});
    else if (!fi.isFile())
        issues->append({field, QStringLiteral("\"") + path + QStringLiteral("\" is not a file")});
    else if (!fi.isReadable())
        issues->append({field, QStringLiteral("\"") + path + QStringLiteral("\" is not readable")});
}

QString trimmedOrEmpty(const QString &s)
{
    return s.trimmed();
}

// A hand-edited file's registry URL may carry "user:secret@": never handed on, never written.
QString withoutUserInfo(const QString &url)
{
    QUrl u(url);
    if (url.isEmpty() || !u.isValid() || u.userInfo().isEmpty())
        return url;
    u.setUserInfo(QString());
    return u.toString();
}

void checkRegistry(const Connection &c, QList<ConnectionIssue> *issues)
{
    const QString urlField = QStringLiteral("schema registry URL");
    if (!c.usesRegistry()) {
        if (c.registryAuth != RegistryAuth::None || !c.registryUsername.isEmpty() || !c.registryCaFile.isEmpty())
            issues->append({urlField, QStringLiteral("empty; authentication and CA need the registry's URL")});
        return;
    }
    const QUrl u(c.registryUrl.trimmed(), QUrl::StrictMode);
    const QString scheme = u.scheme().toLower();
    if (!u.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https")) || u.host().isEmpty()) {
        // The text may be a URL with a password in it: it is not repeated.
        issues->append({urlField, QStringLiteral("not an http(s) URL with a host (e.g. https://registry:8081 or "
                                                 "https://apicurio/apis/ccompat/v7)")});
        return;
    }
    if (!u.userInfo().isEmpty())
        issues->append({urlField, QStringLiteral("has a user name or password in it; use the registry's "
                                                 "authentication fields (the password then goes to the keychain)")});
    if (c.registryAuth == RegistryAuth::Basic && c.registryUsername.trimmed().isEmpty())
        issues->append({QStringLiteral("registry user"), QStringLiteral("basic authentication needs a user name")});
    checkFile(c.registryCaFile, QStringLiteral("registry CA file"), issues);
}

} // namespace

QString registryAuthName(RegistryAuth auth)
{
    switch (auth) {
    case RegistryAuth::Basic: return QStringLiteral("basic");
    case RegistryAuth::Bearer: return QStringLiteral("bearer");
    case RegistryAuth::None: break;
    }
    return QStringLiteral("none");
}

bool parseRegistryAuth(const QString &name, RegistryAuth *out)
{
    for (const RegistryAuth a : {RegistryAuth::None, RegistryAuth::Basic, RegistryAuth::Bearer}) {
        if (name.compare(registryAuthName(a), Qt::CaseInsensitive) == 0) {
            *out = a;
            return true;
        }
    }
    return false;
}

bool Connection::usesSasl() const
{
    return security == SecurityProtocol::SaslPlaintext || security == SecurityProtocol::SaslSsl;
}

bool Connection::usesSsl() const
{
    return security == SecurityProtocol::Ssl || security == SecurityProtocol::SaslSsl;
}

ClusterConfig Connection::toClusterConfig(const QString &saslPassword, const QString &sslKeyPassword,
                                          const QString &registrySecret) const
{
    ClusterConfig c;
    c.alias = name;
    c.bootstrap = bootstrap;
    c.security = security;
    // Fields of the other protocols are kept in the form (switching protocol
    // back and forth loses nothing) but never reach librdkafka.
    if (usesSasl()) {
        c.saslMechanism = saslMechanism.isEmpty() ? QStringLiteral("PLAIN") : saslMechanism;
        c.saslUsername = saslUsername;
        c.saslPassword = saslPassword;
    }
    if (usesSsl()) {
        c.sslCaFile = sslCaFile;
        c.sslCertFile = sslCertFile;
        c.sslKeyFile = sslKeyFile;
        c.sslKeyPassword = sslKeyPassword;
    }
    if (usesRegistry()) {
        c.schemaRegistry.url = registryUrl;
        c.schemaRegistry.caFile = registryCaFile;
        if (registryAuth == RegistryAuth::Basic) {
            c.schemaRegistry.username = registryUsername;
            c.schemaRegistry.password = registrySecret;
        } else if (registryAuth == RegistryAuth::Bearer) {
            c.schemaRegistry.token = registrySecret;
        }
    }
    c.properties = properties;
    return c;
}

QStringList saslMechanisms()
{
    return {QStringLiteral("PLAIN"), QStringLiteral("SCRAM-SHA-256"), QStringLiteral("SCRAM-SHA-512")};
}

bool isSecretProperty(const QString &key, const QString &value, QString *why)
{
    const QString k = key.trimmed().toLower();
    auto say = [why](const QString &text) {
        if (why)
            *why = text;
        return true;
    };
    if (k.contains(QLatin1String("password")))
        return say(QStringLiteral("it is a password"));
    if (k.contains(QLatin1String("secret")))
        return say(QStringLiteral("it is a secret"));
    if (k.contains(QLatin1String("jaas")))
        return say(QStringLiteral("a JAAS line carries the password"));
    if (k == QLatin1String("ssl.key.pem") || k == QLatin1String("ssl_key") ||
        k == QLatin1String("ssl.keystore.location"))
        return say(QStringLiteral("it is a private key"));
    if (k == QLatin1String("sasl.oauthbearer.config"))
        return say(QStringLiteral("it usually carries a client secret"));
    if (k.contains(QLatin1String("token")) && !k.contains(QLatin1String("endpoint")) &&
        !k.contains(QLatin1String("url")))
        return say(QStringLiteral("it is a token"));
    const QString v = value.toLower();
    if (v.contains(QLatin1String("password=")) || v.contains(QLatin1String("secret=")))
        return say(QStringLiteral("its value contains a password or secret"));
    if (v.contains(QLatin1String("private key-----")))
        return say(QStringLiteral("its value is a private key"));
    return false;
}

QList<ConnectionIssue> validateConnection(const Connection &c)
{
    QList<ConnectionIssue> issues;
    const QString nameField = QStringLiteral("name");
    if (c.name.trimmed().isEmpty())
        issues.append({nameField, QStringLiteral("a connection needs a name")});
    else if (c.name != c.name.trimmed())
        issues.append({nameField, QStringLiteral("starts or ends with spaces")});

    const QString bsField = QStringLiteral("bootstrap servers");
    if (c.bootstrap.trimmed().isEmpty()) {
        issues.append({bsField, QStringLiteral("empty; write host:port[,host:port...], e.g. kafka1:9092")});
    } else {
        const QStringList entries = c.bootstrap.split(QLatin1Char(','));
        for (const QString &raw : entries) {
            const QString e = raw.trimmed();
            if (e.isEmpty()) {
                issues.append({bsField, QStringLiteral("an empty entry between commas")});
                continue;
            }
            if (QString err = checkHostPort(e); !err.isEmpty())
                issues.append({bsField, err});
        }
    }

    if (c.usesSasl()) {
        if (!saslMechanisms().contains(c.saslMechanism))
            issues.append({QStringLiteral("SASL mechanism"),
                           c.saslMechanism.isEmpty()
                               ? QString(QStringLiteral("choose one of ") + saslMechanisms().join(QStringLiteral(", ")))
                               : QString(QStringLiteral("\"") + c.saslMechanism + QStringLiteral("\" is not one of ") +
                                         saslMechanisms().join(QStringLiteral(", ")))});
        if (c.saslUsername.trimmed().isEmpty())
            issues.append({QStringLiteral("SASL user"), QStringLiteral("SASL needs a user name")});
    }
    if (c.usesSsl()) {
        checkFile(c.sslCaFile, QStringLiteral("CA certificate file"), &issues);
        checkFile(c.sslCertFile, QStringLiteral("client certificate file"), &issues);
        checkFile(c.sslKeyFile, QStringLiteral("client key file"), &issues);
        if (c.sslCertFile.isEmpty() != c.sslKeyFile.isEmpty())
            issues.append({c.sslCertFile.isEmpty() ? QStringLiteral("client certificate file")
                                                   : QStringLiteral("client key file"),
                           QStringLiteral("a client certificate and its key go together; set both or neither")});
    }

    checkRegistry(c, &issues);

    // librdkafka itself says whether it knows a property and accepts the value.
    KafkaConfPtr probe(rd_kafka_conf_new());
    for (auto it = c.properties.cbegin(); it != c.properties.cend(); ++it) {
        const QString field = QStringLiteral("extra property ") + it.key();
        QString why;
        if (it.key().trimmed().isEmpty()) {
            issues.append({QStringLiteral("extra properties"), QStringLiteral("a property without a name")});
            continue;
        }
        if (const QString refused = refusedClientPropertyReason(it.key()); !refused.isEmpty()) {
            issues.append({field, QStringLiteral("refused: ") + refused});
            continue;
        }
        if (isSecretProperty(it.key(), it.value(), &why)) {
            issues.append({field, QStringLiteral("not saved because ") + why +
                                      QStringLiteral("; secrets go to the password field (kept in the system "
                                                     "keychain), never into the settings file")});
            continue;
        }
        if (const auto f = fieldProperties().constFind(it.key()); f != fieldProperties().cend()) {
            issues.append({field, QStringLiteral("set it with the \"") + *f + QStringLiteral("\" field instead")});
            continue;
        }
        if (QString err = setConf(probe.get(), it.key(), it.value()); !err.isEmpty())
            issues.append({field, err});
    }
    return issues;
}

QMap<QString, QString> parsePropertyLines(const QString &text, QList<ConnectionIssue> *issues)
{
    QMap<QString, QString> out;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QString where = QStringLiteral("extra properties, line ") + QString::number(i + 1);
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            if (issues)
                issues->append({where, QStringLiteral("write key=value, e.g. client.id=mirrordesk")});
            continue;
        }
        const QString key = line.left(eq).trimmed();
        if (out.contains(key) && issues)
            issues->append({where, QStringLiteral("\"") + key + QStringLiteral("\" is set twice")});
        out.insert(key, line.mid(eq + 1).trimmed());
    }
    return out;
}

QString formatPropertyLines(const QMap<QString, QString> &properties)
{
    QStringList lines;
    for (auto it = properties.cbegin(); it != properties.cend(); ++it)
        lines.append(it.key() + QLatin1Char('=') + it.value());
    return lines.join(QLatin1Char('\n'));
}

ConnectionStore::ConnectionStore() : m_owned(std::make_unique<QSettings>()), m_settings(m_owned.get())
{
    load();
}

ConnectionStore::ConnectionStore(QSettings *settings) : m_settings(settings)
{
    load();
}

ConnectionStore::ConnectionStore(const QString &iniPath)
    : m_owned(std::make_unique<QSettings>(iniPath, QSettings::IniFormat)), m_settings(m_owned.get())
{
    load();
}

ConnectionStore::~ConnectionStore() = default;

void ConnectionStore::load()
{
    m_connections.clear();
    const int n = m_settings->beginReadArray(kGroup);
    for (int i = 0; i < n; ++i) {
        m_settings->setArrayIndex(i);
        Connection c;
        c.name = m_settings->value(QStringLiteral("name")).toString();
        if (c.name.isEmpty())
            continue;
        c.bootstrap = m_settings->value(QStringLiteral("bootstrap")).toString();
        if (!parseSecurityProtocol(m_settings->value(QStringLiteral("security")).toString(), &c.security))
            c.security = SecurityProtocol::Plaintext;
        c.saslMechanism = m_settings->value(QStringLiteral("saslMechanism")).toString();
        c.saslUsername = m_settings->value(QStringLiteral("saslUsername")).toString();
        c.sslCaFile = m_settings->value(QStringLiteral("sslCaFile")).toString();
        c.sslCertFile = m_settings->value(QStringLiteral("sslCertFile")).toString();
        c.sslKeyFile = m_settings->value(QStringLiteral("sslKeyFile")).toString();
        c.registryUrl = withoutUserInfo(m_settings->value(QStringLiteral("registryUrl")).toString());
        if (!parseRegistryAuth(m_settings->value(QStringLiteral("registryAuth")).toString(), &c.registryAuth))
            c.registryAuth = RegistryAuth::None;
        c.registryUsername = m_settings->value(QStringLiteral("registryUsername")).toString();
        c.registryCaFile = m_settings->value(QStringLiteral("registryCaFile")).toString();
        const QStringList props = m_settings->value(QStringLiteral("properties")).toStringList();
        for (const QString &line : props) {
            const qsizetype eq = line.indexOf(QLatin1Char('='));
            if (eq <= 0)
                continue;
            const QString key = line.left(eq);
            // A hand-edited file may carry a secret: do not hand it on.
            if (isSecretProperty(key, line.mid(eq + 1)))
                continue;
            c.properties.insert(key, line.mid(eq + 1));
        }
        bool taken = false;
        for (const Connection &other : std::as_const(m_connections))
            taken = taken || other.name == c.name;
        if (!taken)
            m_connections.append(c);
    }
    m_settings->endArray();
}

void ConnectionStore::write()
{
    m_settings->remove(kGroup);
    m_settings->beginWriteArray(kGroup, int(m_connections.size()));
    for (int i = 0; i < m_connections.size(); ++i) {
        const Connection &c = m_connections.at(i);
        m_settings->setArrayIndex(i);
        m_settings->setValue(QStringLiteral("name"), c.name);
        m_settings->setValue(QStringLiteral("bootstrap"), c.bootstrap);
        m_settings->setValue(QStringLiteral("security"), securityProtocolName(c.security));
        m_settings->setValue(QStringLiteral("saslMechanism"), c.saslMechanism);
        m_settings->setValue(QStringLiteral("saslUsername"), c.saslUsername);
        m_settings->setValue(QStringLiteral("sslCaFile"), c.sslCaFile);
        m_settings->setValue(QStringLiteral("sslCertFile"), c.sslCertFile);
        m_settings->setValue(QStringLiteral("sslKeyFile"), c.sslKeyFile);
        m_settings->setValue(QStringLiteral("registryUrl"), withoutUserInfo(c.registryUrl));
        m_settings->setValue(QStringLiteral("registryAuth"), registryAuthName(c.registryAuth));
        m_settings->setValue(QStringLiteral("registryUsername"), c.registryUsername);
        m_settings->setValue(QStringLiteral("registryCaFile"), c.registryCaFile);
        QStringList props;
        for (auto it = c.properties.cbegin(); it != c.properties.cend(); ++it) {
            if (!isSecretProperty(it.key(), it.value())) // belt and braces: validate() already refused them
                props.append(it.key() + QLatin1Char('=') + it.value());
        }
        m_settings->setValue(QStringLiteral("properties"), props);
    }
    m_settings->endArray();
    m_settings->sync();
}

QStringList ConnectionStore::names() const
{
    QStringList out;
    for (const Connection &c : m_connections)
        out.append(c.name);
    return out;
}

QList<Connection> ConnectionStore::connections() const
{
    return m_connections;
}

std::optional<Connection> ConnectionStore::connection(const QString &name) const
{
    for (const Connection &c : m_connections) {
        if (c.name == name)
            return c;
    }
    return std::nullopt;
}

bool ConnectionStore::contains(const QString &name) const
{
    return connection(name).has_value();
}

bool ConnectionStore::save(const Connection &c, QList<ConnectionIssue> *issues)
{
    return replace(c.name, c, issues);
}

bool ConnectionStore::replace(const QString &oldName, const Connection &c, QList<ConnectionIssue> *issues)
{
    QList<ConnectionIssue> found = validateConnection(c);
    if (c.name != oldName && contains(c.name))
        found.append({QStringLiteral("name"),
                      QStringLiteral("a connection named \"") + c.name + QStringLiteral("\" exists already")});
    if (!found.isEmpty()) {
        if (issues)
            *issues = found;
        return false;
    }
    Connection clean = c;
    clean.bootstrap = trimmedOrEmpty(c.bootstrap);
    clean.saslUsername = trimmedOrEmpty(c.saslUsername);
    clean.registryUrl = trimmedOrEmpty(c.registryUrl);
    clean.registryUsername = trimmedOrEmpty(c.registryUsername);
    bool replaced = false;
    for (Connection &existing : m_connections) {
        if (existing.name == oldName) {
            existing = clean;
            replaced = true;
            break;
        }
    }
    if (!replaced)
        m_connections.append(clean);
    write();
    if (issues)
        issues->clear();
    return true;
}

bool ConnectionStore::rename(const QString &oldName, const QString &newName, QList<ConnectionIssue> *issues)
{
    std::optional<Connection> c = connection(oldName);
    if (!c) {
        if (issues)
            *issues = {
                {QStringLiteral("name"), QStringLiteral("no connection named \"") + oldName + QStringLiteral("\"")}};
        return false;
    }
    c->name = newName;
    return replace(oldName, *c, issues);
}

bool ConnectionStore::remove(const QString &name)
{
    const qsizetype before = m_connections.size();
    m_connections.removeIf([&](const Connection &c) { return c.name == name; });
    if (m_connections.size() == before)
        return false;
    write();
    return true;
}

QString ConnectionStore::copyName(const QString &name) const
{
    QString candidate = name + QStringLiteral(" (copy)");
    for (int n = 2; contains(candidate); ++n)
        candidate = name + QStringLiteral(" (copy ") + QString::number(n) + QStringLiteral(")");
    return candidate;
}

bool ConnectionStore::sync(QString *error)
{
    m_settings->sync();
    if (m_settings->status() == QSettings::NoError)
        return true;
    if (error)
        *error = m_settings->status() == QSettings::AccessError
                     ? QString(QStringLiteral("cannot write the settings file ") + m_settings->fileName())
                     : QString(QStringLiteral("the settings file ") + m_settings->fileName() +
                               QStringLiteral(" is malformed"));
    return false;
}

bool isEncryptedPrivateKey(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    // A key file is small; the markers are in its first lines.
    const QByteArray head = file.read(64 * 1024);
    return head.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || head.contains("Proc-Type: 4,ENCRYPTED");
}

} // namespace md
