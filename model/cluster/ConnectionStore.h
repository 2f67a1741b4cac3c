#pragma once

#include "engine/core/ClusterConfig.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

class QSettings;

namespace md {

// How a connection authenticates to its schema registry. The password or
// token is a secret like the SASL password: never in the settings file.
enum class RegistryAuth { None, Basic, Bearer };
QString registryAuthName(RegistryAuth auth); // "none", "basic", "bearer"
bool parseRegistryAuth(const QString &name, RegistryAuth *out);

// A saved cluster connection, as the connection manager shows it. It never
// holds a password: those live in the system keychain (ui/connections/SecretStore) or are
// asked for at connect time.
struct Connection {
    QString name;
    QString bootstrap; // host:port[,host:port...]
    SecurityProtocol security = SecurityProtocol::Plaintext;
    QString saslMechanism; // PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 (SASL protocols only)
    QString saslUsername;
    QString sslCaFile;   // SSL protocols only
    QString sslCertFile; // client certificate (mutual TLS)
    QString sslKeyFile;
    QMap<QString, QString> properties; // extra librdkafka properties, never secrets
    // The schema registry beside the cluster (optional: empty URL, none).
    QString registryUrl; // http(s), may carry a path; never userinfo
    RegistryAuth registryAuth = RegistryAuth::None;
    QString registryUsername; // basic authentication only
    QString registryCaFile;   // https with a private CA

    bool operator==(const Connection &) const = default;

    bool usesSasl() const;
    bool usesSsl() const;
    bool usesRegistry() const { return !registryUrl.isEmpty(); }
    // True when the registry needs a password (basic) or a token (bearer).
    bool usesRegistrySecret() const { return usesRegistry() && registryAuth != RegistryAuth::None; }
    // The engine's configuration; the passwords only ever pass through memory.
    // `registrySecret` is the registry's password (basic) or token (bearer).
    ClusterConfig toClusterConfig(const QString &saslPassword = {}, const QString &sslKeyPassword = {},
                                  const QString &registrySecret = {}) const;
};

// One problem with a connection, naming the form field ("bootstrap servers",
// "extra property sasl.password", ...).
struct ConnectionIssue {
    QString field;
    QString message;

    QString toString() const { return field + QStringLiteral(": ") + message; }
    bool operator==(const ConnectionIssue &) const = default;
};

// The SASL mechanisms librdkafka clients of MirrorDesk offer.
QStringList saslMechanisms();

// True for a librdkafka property that carries a secret (a password, a client
// secret, an inline private key, a JAAS line): such a property must never be
// written to the settings file. *why says which rule matched.
bool isSecretProperty(const QString &key, const QString &value = {}, QString *why = nullptr);

// Every problem of `c`: empty name/bootstrap, malformed host:port, SASL
// without mechanism or user, unreadable certificate files, a certificate
// without its key, extra properties that are secrets, that librdkafka does not
// know, or that a form field already sets; a registry URL that is not http(s)
// with a host (or carries a password), basic authentication without a user,
// an unreadable registry CA. Empty when `c` can be saved.
QList<ConnectionIssue> validateConnection(const Connection &c);

// True when the PEM file at `path` holds an encrypted private key (PKCS#8
// "ENCRYPTED PRIVATE KEY", or a traditional key with "Proc-Type: 4,ENCRYPTED"):
// then connecting needs its password. False for an unreadable file.
bool isEncryptedPrivateKey(const QString &path);

// "key=value" lines (blank lines and '#' comments ignored) to properties;
// issues name the line.
QMap<QString, QString> parsePropertyLines(const QString &text, QList<ConnectionIssue> *issues);
QString formatPropertyLines(const QMap<QString, QString> &properties);

// The saved connections, in a QSettings (group "connections"). Order is the
// order of first saving. The store never writes a secret: save() rejects a
// connection whose extra properties look like one.
class ConnectionStore final {
public:
    // The application's settings (QSettings() with the app's organization/name).
    ConnectionStore();
    // `settings` is not owned and must outlive the store.
    explicit ConnectionStore(QSettings *settings);
    // An INI file (tests, portable setups).
    explicit ConnectionStore(const QString &iniPath);
    ~ConnectionStore();
    ConnectionStore(const ConnectionStore &) = delete;
    ConnectionStore &operator=(const ConnectionStore &) = delete;

    QStringList names() const;
    QList<Connection> connections() const;
    std::optional<Connection> connection(const QString &name) const;
    bool contains(const QString &name) const;

    // Adds or replaces the connection with c.name. False with *issues (and
    // nothing written) when c does not validate.
    bool save(const Connection &c, QList<ConnectionIssue> *issues = nullptr);
    // Replaces the connection `oldName` by `c` (which may carry a new name) in
    // place. Fails when c.name is taken by another connection.
    bool replace(const QString &oldName, const Connection &c, QList<ConnectionIssue> *issues = nullptr);
    bool rename(const QString &oldName, const QString &newName, QList<ConnectionIssue> *issues = nullptr);
    bool remove(const QString &name);
    // A name for a copy of `name` that is not taken yet ("prod (copy)", "prod (copy 2)").
    QString copyName(const QString &name) const;

    // Flushes to disk; false with the QSettings status in words.
    bool sync(QString *error = nullptr);

private:
    void load();
    void write();

    std::unique_ptr<QSettings> m_owned;
    QSettings *m_settings = nullptr;
    QList<Connection> m_connections;
};

} // namespace md
