#pragma once

#include <QDBusConnection>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <functional>
#include <optional>

class QAction;
class QSystemTrayIcon;

namespace md {

class MirrorJob;
class MonitoredJob;
class NotificationBanner;

// What a job's health has become, for notifications: its rolled-up lag status, or failed.
enum class JobHealth { Ok = 0, Warn = 1, Err = 2, Failed = 3 };

struct Notification {
    enum class Severity { Info, Warning, Critical };
    const void *job = nullptr; // whose it is (replaces that job's previous one where the service can)
    Severity severity = Severity::Info;
    QString summary; // "orders-dr: lag warning"
    QString body;    // the reason, the lag
};

// Turns a job's health updates into notifications, without widgets or clocks of its own
// (times come in), so the rules can be replayed exactly:
//  - a repeat of the current health says nothing; only a transition can notify;
//  - entering WARN or ERR notifies; OK after WARN, ERR notifies once ("recovered");
//  - at most one notification per job per minIntervalMs: changes within it are held back
//    and due() gives them later, as one summary when there were several (a flapping job);
//  - failing notifies at once (a job fails once per run), and a failed job says nothing more.
class NotificationPolicy final {
public:
    static constexpr qint64 defaultMinIntervalMs = 30000;

    explicit NotificationPolicy(qint64 minIntervalMs = defaultMinIntervalMs) : m_minIntervalMs(minIntervalMs) {}

    qint64 minIntervalMs() const { return m_minIntervalMs; }
    // reason: why (the lag, the worst partitions, the error), shown in the body.
    std::optional<Notification> update(const void *job, const QString &name, JobHealth health, const QString &reason,
                                       qint64 nowMs);
    // The held-back changes of the jobs whose interval has passed.
    QList<Notification> due(qint64 nowMs);
    // When due() has something next; -1: nothing is held back.
    qint64 nextDueMs() const;
    // A job that stopped (or went away): nothing more about it, nothing held back.
    void forget(const void *job) { m_jobs.remove(job); }

private:
    struct Track {
        QString name;
        QString reason;
        JobHealth current = JobHealth::Ok;
        JobHealth notified = JobHealth::Ok; // as the operator last heard
        JobHealth worstHeld = JobHealth::Ok;
        int held = 0; // changes since the last notification, not told yet
        qint64 lastSentMs = -1;
    };
    Notification send(const void *job, Track &t, qint64 nowMs);

    qint64 m_minIntervalMs;
    QHash<const void *, Track> m_jobs;
};

// Delivers the policy's notifications by the first way available: the freedesktop
// notification service over D-Bus (asynchronous; an error reply falls back), the tray
// where one exists, else the banner at the top of the window. Off when the user says so
// (AppSettings::notificationsEnabled, the action's check box).
class Notifier final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Notifier)
public:
    enum class Route { DBus, Tray, Banner };
    Q_ENUM(Route)
    using TrayProvider = std::function<QSystemTrayIcon *()>;
    static constexpr int dbusTimeoutMs = 5000;

    // banner: the window's; tray: makes the tray icon when first needed.
    Notifier(NotificationBanner *banner, TrayProvider tray, QObject *parent = nullptr);
    ~Notifier() override;

    // The bus to reach the notification service on; the session bus unless set (tests
    // give a private one, or one that is not connected).
    void setBus(const QDBusConnection &bus);
    // Whether the tray may be used; by default QSystemTrayIcon::isSystemTrayAvailable().
    void setTrayAvailable(std::function<bool()> available) { m_trayAvailable = std::move(available); }
    void setMinIntervalMs(qint64 ms) { m_policy = NotificationPolicy(ms); }

    bool isEnabled() const;
    void setEnabled(bool on); // persisted
    // Checkable "Notify on Warnings and Errors", for a menu.
    QAction *enableAction() const { return m_enable; }
    NotificationBanner *banner() const { return m_banner; }

    // Follows the job's lag status and its end.
    void watch(MonitoredJob *monitored);
    // The entry point watch() uses; job is only a key.
    void update(const void *job, const QString &name, JobHealth health, const QString &reason);
    void forget(const void *job) { m_policy.forget(job); }

Q_SIGNALS:
    // One notification handed to a route (for D-Bus: accepted by the service).
    void delivered(const md::Notification &notification, md::Notifier::Route route);

private:
    void deliver(const Notification &n);
    void deliverLocally(const Notification &n);
    void flushDue();
    void armTimer();

    NotificationPolicy m_policy;
    QPointer<NotificationBanner> m_banner;
    TrayProvider m_tray;
    std::function<bool()> m_trayAvailable;
    std::optional<QDBusConnection> m_bus;   // resolved on first use
    QHash<const void *, uint> m_serviceIds; // the service's id of each job's last notification
    QAction *m_enable = nullptr;
    QTimer m_dueTimer;
};

} // namespace md

Q_DECLARE_METATYPE(md::Notification)
