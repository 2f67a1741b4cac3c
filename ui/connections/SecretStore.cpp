#include "ui/connections/SecretStore.h"

#include <QTimer>

#include <qt6keychain/keychain.h>

namespace md {

namespace {

constexpr int kKeychainTimeoutMs = 10000;

// The key whose read tells whether a keychain answers at all; it is never written.
const QString kProbeKey = QStringLiteral("mirrordesk-availability-probe");

SecretReply replyFromJob(const QKeychain::Job &job)
{
    SecretReply r;
    const QString detail = job.errorString();
    switch (job.error()) {
    case QKeychain::NoError: r.status = SecretStatus::Ok; return r;
    case QKeychain::EntryNotFound: r.status = SecretStatus::NotFound; return r;
    case QKeychain::NoBackendAvailable:
    case QKeychain::NotImplemented:
        r.status = SecretStatus::Unavailable;
        r.message =
            QStringLiteral("no system keychain service is running on this machine (") + detail + QStringLiteral(")");
        return r;
    case QKeychain::AccessDeniedByUser:
        r.status = SecretStatus::Unavailable;
        r.message = QStringLiteral("access to the system keychain was refused (") + detail + QStringLiteral(")");
        return r;
    case QKeychain::AccessDenied:
        r.status = SecretStatus::Unavailable;
        r.message = QStringLiteral("the system keychain denied access (") + detail + QStringLiteral(")");
        return r;
    case QKeychain::CouldNotDeleteEntry:
        r.status = SecretStatus::Failed;
        r.message = QStringLiteral("the system keychain could not delete the entry (") + detail + QStringLiteral(")");
        return r;
    case QKeychain::OtherError: break;
    }
    // On Linux a missing D-Bus secret service shows up as OtherError with a
    // D-Bus message; it means the same thing to the user as NoBackendAvailable.
    r.status = SecretStatus::Unavailable;
    r.message = QStringLiteral("the system keychain is not usable (") + detail + QStringLiteral(")");
    return r;
}

// Starts a QtKeychain job and answers exactly once: when it finishes, or after
// 10 s if the keychain never answers (a hung secret service must not leave the
// dialog waiting forever).
void runJob(QKeychain::Job *job, std::function<void(SecretReply)> done, bool isRead)
{
    job->setAutoDelete(false);
    job->setInsecureFallback(false); // a password must never land in a plain file
    auto answered = std::make_shared<bool>(false);
    auto callback = std::make_shared<std::function<void(SecretReply)>>(std::move(done));
    QObject::connect(job, &QKeychain::Job::finished, job, [job, answered, callback, isRead] {
        if (!*answered) {
            *answered = true;
            SecretReply r = replyFromJob(*job);
            if (isRead && r.status == SecretStatus::Ok)
                r.value = static_cast<QKeychain::ReadPasswordJob *>(job)->textData();
            (*callback)(r);
        }
        job->deleteLater();
    });
    QTimer::singleShot(kKeychainTimeoutMs, job, [answered, callback] {
        if (*answered)
            return;
        *answered = true;
        (*callback)(SecretReply{
            SecretStatus::Unavailable, {}, QStringLiteral("the system keychain did not answer within 10 s")});
    });
    job->start();
}

} // namespace

QtKeychainBackend::QtKeychainBackend(QString service) : m_service(std::move(service))
{
}

void QtKeychainBackend::read(const QString &key, Callback done)
{
    auto *job = new QKeychain::ReadPasswordJob(m_service);
    job->setKey(key);
    runJob(job, std::move(done), true);
}

void QtKeychainBackend::write(const QString &key, const QString &value, Callback done)
{
    auto *job = new QKeychain::WritePasswordJob(m_service);
    job->setKey(key);
    job->setTextData(value);
    runJob(job, std::move(done), false);
}

void QtKeychainBackend::remove(const QString &key, Callback done)
{
    auto *job = new QKeychain::DeletePasswordJob(m_service);
    job->setKey(key);
    runJob(
        job,
        [done = std::move(done)](SecretReply r) {
            if (r.status == SecretStatus::NotFound)
                r = SecretReply{};
            done(r);
        },
        false);
}

void MemorySecretBackend::read(const QString &key, Callback done)
{
    ++m_calls;
    if (!m_unavailableReason.isEmpty())
        return done(SecretReply{SecretStatus::Unavailable, {}, m_unavailableReason});
    const auto it = m_entries.constFind(key);
    if (it == m_entries.cend())
        return done(SecretReply{SecretStatus::NotFound, {}, {}});
    done(SecretReply{SecretStatus::Ok, *it, {}});
}

void MemorySecretBackend::write(const QString &key, const QString &value, Callback done)
{
    ++m_calls;
    if (!m_unavailableReason.isEmpty())
        return done(SecretReply{SecretStatus::Unavailable, {}, m_unavailableReason});
    m_entries.insert(key, value);
    done(SecretReply{});
}

void MemorySecretBackend::remove(const QString &key, Callback done)
{
    ++m_calls;
    if (!m_unavailableReason.isEmpty())
        return done(SecretReply{SecretStatus::Unavailable, {}, m_unavailableReason});
    m_entries.remove(key);
    done(SecretReply{});
}

SecretStore::SecretStore(std::unique_ptr<SecretBackend> backend, QObject *parent)
    : QObject(parent), m_backend(backend ? std::move(backend) : std::make_unique<QtKeychainBackend>())
{
}

SecretStore::~SecretStore() = default;

QString SecretStore::connectionPasswordKey(const QString &connectionName)
{
    return QStringLiteral("connection/") + connectionName;
}

QString SecretStore::connectionKeyPasswordKey(const QString &connectionName)
{
    return QStringLiteral("connection-key/") + connectionName;
}

QString SecretStore::connectionRegistrySecretKey(const QString &connectionName)
{
    return QStringLiteral("connection-registry/") + connectionName;
}

void SecretStore::noteReply(const SecretReply &reply)
{
    Availability now = m_availability;
    QString reason = m_reason;
    if (reply.status == SecretStatus::Unavailable) {
        now = Availability::Unavailable;
        reason = reply.message;
    } else if (reply.status == SecretStatus::Ok || reply.status == SecretStatus::NotFound) {
        now = Availability::Available;
        reason.clear();
    }
    if (now == m_availability && reason == m_reason)
        return;
    m_availability = now;
    m_reason = reason;
    Q_EMIT availabilityChanged(m_availability, m_reason);
}

// Backends may answer synchronously; deliver through the event loop so a
// caller never sees its callback run inside its own call, and never after the
// store is gone (the queued functor is bound to `this`).
void SecretStore::readPassword(const QString &key, ReadCallback done)
{
    QPointer<SecretStore> self(this);
    m_backend->read(key, [self, done = std::move(done)](SecretReply r) {
        if (!self)
            return;
        QMetaObject::invokeMethod(
            self,
            [self, done, r] {
                self->noteReply(r);
                switch (r.status) {
                case SecretStatus::Ok: done(r.value, QString()); break;
                case SecretStatus::NotFound: done(std::nullopt, QString()); break;
                case SecretStatus::Unavailable:
                case SecretStatus::Failed: done(std::nullopt, r.message); break;
                }
            },
            Qt::QueuedConnection);
    });
}

void SecretStore::writePassword(const QString &key, const QString &value, WriteCallback done)
{
    QPointer<SecretStore> self(this);
    m_backend->write(key, value, [self, done = std::move(done)](SecretReply r) {
        if (!self)
            return;
        QMetaObject::invokeMethod(
            self,
            [self, done, r] {
                self->noteReply(r);
                done(r.status == SecretStatus::Ok, r.message);
            },
            Qt::QueuedConnection);
    });
}

void SecretStore::removePassword(const QString &key, WriteCallback done)
{
    QPointer<SecretStore> self(this);
    m_backend->remove(key, [self, done = std::move(done)](SecretReply r) {
        if (!self)
            return;
        QMetaObject::invokeMethod(
            self,
            [self, done, r] {
                self->noteReply(r);
                const bool ok = r.status == SecretStatus::Ok || r.status == SecretStatus::NotFound;
                done(ok, ok ? QString() : r.message);
            },
            Qt::QueuedConnection);
    });
}

void SecretStore::checkAvailability(AvailabilityCallback done)
{
    if (m_availability != Availability::Unknown) {
        QMetaObject::invokeMethod(
            this, [this, done] { done(m_availability == Availability::Available, m_reason); }, Qt::QueuedConnection);
        return;
    }
    m_waiting.append(std::move(done));
    if (m_checking)
        return;
    m_checking = true;
    readPassword(kProbeKey, [this](std::optional<QString>, QString error) {
        m_checking = false;
        // Only a plain failure leaves the state unknown here; a keychain that
        // cannot even read a probe key is of no use, so say so with its reason.
        if (m_availability == Availability::Unknown) {
            m_availability = error.isEmpty() ? Availability::Available : Availability::Unavailable;
            m_reason = error;
            Q_EMIT availabilityChanged(m_availability, m_reason);
        }
        const QList<AvailabilityCallback> waiting = std::exchange(m_waiting, {});
        for (const AvailabilityCallback &cb : waiting)
            cb(m_availability == Availability::Available, m_reason);
    });
}

} // namespace md
