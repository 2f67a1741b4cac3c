#include "ui/window/Notifier.h"

#include "engine/mirror/MirrorJob.h"
#include "model/monitor/LagStatus.h"
#include "model/session/AppSettings.h"
#include "model/session/MonitoredJob.h"
#include "ui/window/NotificationBanner.h"

#include <QAction>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDateTime>
#include <QGuiApplication>
#include <QSystemTrayIcon>

#include <algorithm>

namespace md {

namespace {

Notification::Severity severityOf(JobHealth h)
{
    switch (h) {
    case JobHealth::Ok: return Notification::Severity::Info;
    case JobHealth::Warn: return Notification::Severity::Warning;
    case JobHealth::Err:
    case JobHealth::Failed: return Notification::Severity::Critical;
    }
    return Notification::Severity::Info;
}

QString healthName(JobHealth h)
{
    return h == JobHealth::Failed ? QStringLiteral("FAILED") : jobLagStatusName(JobLagStatus(int(h)));
}

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace

Notification NotificationPolicy::send(const void *job, Track &t, qint64 nowMs)
{
    Notification n;
    n.job = job;
    if (t.held > 1) { // flapping: one summary of what happened meanwhile
        const JobHealth worst = std::max(t.worstHeld, t.current);
        n.severity = severityOf(worst);
        n.summary = QObject::tr("%1: lag status changing").arg(t.name);
        n.body = QObject::tr("%n change(s) in %1 s, worst %2; now %3: %4", "", t.held)
                     .arg(m_minIntervalMs / 1000)
                     .arg(healthName(worst), healthName(t.current), t.reason);
    } else {
        n.severity = severityOf(t.current);
        switch (t.current) {
        case JobHealth::Ok: n.summary = QObject::tr("%1: recovered").arg(t.name); break;
        case JobHealth::Warn: n.summary = QObject::tr("%1: lag warning").arg(t.name); break;
        case JobHealth::Err: n.summary = QObject::tr("%1: lag error").arg(t.name); break;
        case JobHealth::Failed: n.summary = QObject::tr("%1: failed").arg(t.name); break;
        }
        n.body = t.current == JobHealth::Failed ? t.reason : healthName(t.current) + QStringLiteral(": ") + t.reason;
    }
    t.notified = t.current;
    t.held = 0;
    t.worstHeld = JobHealth::Ok;
    t.lastSentMs = nowMs;
    return n;
}

std::optional<Notification> NotificationPolicy::update(const void *job, const QString &name, JobHealth health,
                                                       const QString &reason, qint64 nowMs)
{
    Track &t = m_jobs[job];
    t.name = name;
    if (health == t.current || t.current == JobHealth::Failed)
        return std::nullopt; // a repeat, or after the end
    t.current = health;
    t.reason = reason;
    if (health != JobHealth::Failed && t.lastSentMs >= 0 && nowMs - t.lastSentMs < m_minIntervalMs) {
        ++t.held;
        t.worstHeld = std::max(t.worstHeld, health);
        return std::nullopt;
    }
    // Nothing held back, the previous health was the one last told, so this one differs from
    // it; a failure drops what was held: it says more than the changes before it.
    t.held = 0;
    return send(job, t, nowMs);
}

QList<Notification> NotificationPolicy::due(qint64 nowMs)
{
    QList<Notification> out;
    for (auto it = m_jobs.begin(); it != m_jobs.end(); ++it) {
        Track &t = it.value();
        if (t.held == 0 || nowMs - t.lastSentMs < m_minIntervalMs)
            continue;
        out.append(send(it.key(), t, nowMs));
    }
    return out;
}

qint64 NotificationPolicy::nextDueMs() const
{
    qint64 next = -1;
    for (const Track &t : m_jobs) {
        if (t.held > 0 && (next < 0 || t.lastSentMs + m_minIntervalMs < next))
            next = t.lastSentMs + m_minIntervalMs;
    }
    return next;
}

Notifier::Notifier(NotificationBanner *banner, TrayProvider tray, QObject *parent)
    : QObject(parent), m_banner(banner), m_tray(std::move(tray)),
      m_trayAvailable([] { return QSystemTrayIcon::isSystemTrayAvailable(); })
{
    qRegisterMetaType<Notification>();
    m_enable = new QAction(tr("&Notify on Warnings and Errors"), this);
    m_enable->setObjectName(QStringLiteral("notificationsAction"));
    m_enable->setCheckable(true);
    m_enable->setChecked(AppSettings().notificationsEnabled());
    m_enable->setToolTip(tr("A desktop notification when a job falls behind, fails or recovers"));
    connect(m_enable, &QAction::toggled, this, [](bool on) { AppSettings().setNotificationsEnabled(on); });
    m_dueTimer.setSingleShot(true);
    connect(&m_dueTimer, &QTimer::timeout, this, &Notifier::flushDue);
}

Notifier::~Notifier() = default;

void Notifier::setBus(const QDBusConnection &bus)
{
    m_bus = bus;
}

bool Notifier::isEnabled() const
{
    return m_enable->isChecked();
}

void Notifier::setEnabled(bool on)
{
    m_enable->setChecked(on);
}

void Notifier::watch(MonitoredJob *monitored)
{
    // The job list's order of JobLagStatus (OK, WARN, ERR) is JobHealth's.
    static_assert(int(JobLagStatus::Err) == int(JobHealth::Err));
    MirrorJob *job = monitored->job();
    connect(monitored, &MonitoredJob::statusChanged, this, [this, monitored, job](JobLagStatus status) {
        update(job, job->spec().name, JobHealth(int(status)), monitored->lagReason());
    });
    connect(job, &MirrorJob::finished, this, [this, job](bool ok, const QString &error) {
        if (ok)
            forget(job); // stopped on purpose: its lag no longer matters
        else
            update(job, job->spec().name, JobHealth::Failed, error);
    });
    connect(job, &QObject::destroyed, this, [this, job] {
        forget(job);
        m_serviceIds.remove(job);
    });
}

void Notifier::update(const void *job, const QString &name, JobHealth health, const QString &reason)
{
    // The policy keeps following while notifications are off, so turning them on
    // again does not report an old transition.
    if (std::optional<Notification> n = m_policy.update(job, name, health, reason, nowMs()))
        deliver(*n);
    armTimer();
}

void Notifier::flushDue()
{
    for (const Notification &n : m_policy.due(nowMs()))
        deliver(n);
    armTimer();
}

void Notifier::armTimer()
{
    const qint64 next = m_policy.nextDueMs();
    if (next < 0)
        m_dueTimer.stop();
    else
        m_dueTimer.start(int(std::clamp<qint64>(next - nowMs(), 0, m_policy.minIntervalMs())));
}

void Notifier::deliver(const Notification &n)
{
    if (!isEnabled())
        return;
    if (!m_bus)
        m_bus = QDBusConnection::sessionBus();
    if (!m_bus->isConnected()) {
        deliverLocally(n);
        return;
    }
    // org.freedesktop.Notifications.Notify(app_name, replaces_id, app_icon, summary, body,
    // actions, hints, expire_timeout) -> id. Asynchronous: the UI thread never waits on the bus.
    QDBusMessage call = QDBusMessage::createMethodCall(
        QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("/org/freedesktop/Notifications"),
        QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("Notify"));
    const uchar urgency = n.severity == Notification::Severity::Critical ? 2 : 1; // critical : normal
    QVariantMap hints{{QStringLiteral("urgency"), QVariant::fromValue(urgency)}};
    if (const QString entry = QGuiApplication::desktopFileName(); !entry.isEmpty())
        hints.insert(QStringLiteral("desktop-entry"), entry); // the service shows the app's name and icon
    call << QStringLiteral("MirrorDesk") << m_serviceIds.value(n.job, 0u) << QString() << n.summary << n.body
         << QStringList() << hints << int(-1);
    auto *watcher = new QDBusPendingCallWatcher(m_bus->asyncCall(call, dbusTimeoutMs), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, n](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        const QDBusPendingReply<uint> reply = *w;
        if (reply.isError()) { // no notification service on this bus (or it failed): the next way
            deliverLocally(n);
            return;
        }
        m_serviceIds.insert(n.job, reply.value());
        Q_EMIT delivered(n, Route::DBus);
    });
}

void Notifier::deliverLocally(const Notification &n)
{
    if (!isEnabled())
        return;
    if (m_tray && m_trayAvailable()) {
        if (QSystemTrayIcon *tray = m_tray()) {
            const auto icon = n.severity == Notification::Severity::Critical  ? QSystemTrayIcon::Critical
                              : n.severity == Notification::Severity::Warning ? QSystemTrayIcon::Warning
                                                                              : QSystemTrayIcon::Information;
            tray->showMessage(n.summary, n.body, icon, 10000);
            Q_EMIT delivered(n, Route::Tray);
            return;
        }
    }
    if (m_banner) {
        m_banner->showNotification(n);
        Q_EMIT delivered(n, Route::Banner);
    }
}

} // namespace md
