#pragma once

#include <QList>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace md {

// What a keychain call came to. Unavailable means there is no usable keychain
// at all (no secret service, access denied): the app then asks for passwords
// each time instead.
enum class SecretStatus { Ok, NotFound, Unavailable, Failed };

struct SecretReply {
    SecretStatus status = SecretStatus::Ok;
    QString value;   // the secret, for a successful read
    QString message; // plain words when status is not Ok
};

// Where secrets really live. The production backend is QtKeychain (service
// "MirrorDesk", the same service and key names as app/ProfileLoader's
// "${keychain:KEY}" resolver, so a password saved here can be referenced from
// a job profile). Tests inject MemorySecretBackend.
//
// A backend calls `done` exactly once, on the calling thread, possibly
// synchronously; SecretStore makes the delivery uniform (always later).
class SecretBackend {
public:
    using Callback = std::function<void(SecretReply reply)>;

    virtual ~SecretBackend() = default;
    virtual void read(const QString &key, Callback done) = 0;
    virtual void write(const QString &key, const QString &value, Callback done) = 0;
    // Removing a key that does not exist succeeds.
    virtual void remove(const QString &key, Callback done) = 0;
};

// The system keychain through QtKeychain; never falls back to a plain file.
// Each job times out after 10 s ("the system keychain did not answer").
class QtKeychainBackend final : public SecretBackend {
public:
    explicit QtKeychainBackend(QString service = QStringLiteral("MirrorDesk"));
    void read(const QString &key, Callback done) override;
    void write(const QString &key, const QString &value, Callback done) override;
    void remove(const QString &key, Callback done) override;

private:
    QString m_service;
};

// In-memory keychain for tests. setUnavailable(reason) makes every call fail
// with that reason, like a machine without a secret service.
class MemorySecretBackend final : public SecretBackend {
public:
    void read(const QString &key, Callback done) override;
    void write(const QString &key, const QString &value, Callback done) override;
    void remove(const QString &key, Callback done) override;

    void setUnavailable(const QString &reason) { m_unavailableReason = reason; }
    QMap<QString, QString> entries() const { return m_entries; }
    int calls() const { return m_calls; }

private:
    QMap<QString, QString> m_entries;
    QString m_unavailableReason;
    int m_calls = 0;
};

// UI-thread face of the keychain. Every callback runs later on the store's
// thread (never inside the call itself) and is dropped if the store is gone,
// so a caller captures `this` safely only when it owns the store or guards
// itself with QPointer.
class SecretStore final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SecretStore)
public:
    // value set: the secret. No value and empty error: nothing stored under
    // that key. No value and an error: the keychain failed (plain words).
    using ReadCallback = std::function<void(std::optional<QString> value, QString error)>;
    using WriteCallback = std::function<void(bool ok, QString error)>;
    using AvailabilityCallback = std::function<void(bool available, QString reason)>;

    enum class Availability { Unknown, Available, Unavailable };
    Q_ENUM(Availability)

    // nullptr backend: the real system keychain (QtKeychainBackend).
    explicit SecretStore(std::unique_ptr<SecretBackend> backend = {}, QObject *parent = nullptr);
    ~SecretStore() override;

    void readPassword(const QString &key, ReadCallback done);
    void writePassword(const QString &key, const QString &value, WriteCallback done);
    void removePassword(const QString &key, WriteCallback done);

    // Asks the keychain once (a read of a probe key) and caches the answer;
    // later calls answer from the cache. Any read/write/remove that fails with
    // "no keychain" also marks the store unavailable.
    void checkAvailability(AvailabilityCallback done);
    Availability availability() const { return m_availability; }
    // Plain words, e.g. "no system keychain service is running (...)"; empty while available.
    QString unavailableReason() const { return m_reason; }

    // The keychain key of a saved connection's password: "connection/<name>",
    // usable in a profile as "${keychain:connection/<name>}".
    static QString connectionPasswordKey(const QString &connectionName);
    // The keychain key of the password of a saved connection's encrypted TLS
    // client key: "connection-key/<name>".
    static QString connectionKeyPasswordKey(const QString &connectionName);
    // The keychain key of a saved connection's schema registry password or
    // bearer token: "connection-registry/<name>".
    static QString connectionRegistrySecretKey(const QString &connectionName);

Q_SIGNALS:
    void availabilityChanged(md::SecretStore::Availability availability, const QString &reason);

private:
    void noteReply(const SecretReply &reply);

    std::unique_ptr<SecretBackend> m_backend;
    Availability m_availability = Availability::Unknown;
    QString m_reason;
    bool m_checking = false;
    QList<AvailabilityCallback> m_waiting;
};

} // namespace md
