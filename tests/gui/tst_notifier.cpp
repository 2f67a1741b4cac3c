// Notifications of WARN, ERR, failed and recovered jobs: the rules (transitions only, a rate
// limit per job with a summary for a flapping job, the off switch) and the three ways out.
// The D-Bus way is checked against a fake org.freedesktop.Notifications on a bus of the test's
// own (a dbus-daemon it starts: no session bus is needed from CTest; skipped without
// dbus-daemon); the banner way with a bus that leads nowhere and no tray (offscreen has none).
#include "engine/mirror/MirrorJob.h"
#include "model/session/JobSession.h"
#include "model/session/MonitoredJob.h"
#include "model/tables/JobListModel.h"
#include "ui/job/JobMonitor.h"
#include "ui/window/MainWindow.h"
#include "ui/window/NotificationBanner.h"
#include "ui/window/Notifier.h"

#include <QAction>
#include <QDBusConnection>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace md;

namespace {

// Receives what Notifier sends, as a notification daemon would.
class FakeNotifications final : public QObject {
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
public:
    struct Call {
        QString app;
        uint replacesId = 0;
        QString summary;
        QString body;
        QVariantMap hints;
    };
    QList<Call> calls;

public Q_SLOTS:
    uint Notify(const QString &app, uint replacesId, const QString &, const QString &summary, const QString &body,
                const QStringList &, const QVariantMap &hints, int)
    {
        calls.append({app, replacesId, summary, body, hints});
        return uint(100 + calls.size());
    }
};

// A D-Bus daemon of the test's own: no service activation, so only what the test registers
// answers on it.
class PrivateBus {
public:
    bool start()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("dbus-daemon")).isEmpty() || !m_dir.isValid())
            return false;
        QFile config(m_dir.filePath(QStringLiteral("bus.conf")));
        if (!config.open(QIODevice::WriteOnly))
            return false;
        // (A plain literal: moc loses its way in a raw string of XML.)
        config.write(QStringLiteral("<busconfig><type>session</type><listen>unix:path=%1</listen>"
                                    "<policy context=\"default\"><allow send_destination=\"*\" eavesdrop=\"true\"/>"
                                    "<allow eavesdrop=\"true\"/><allow own=\"*\"/></policy></busconfig>")
                         .arg(m_dir.filePath(QStringLiteral("bus")))
                         .toUtf8());
        config.close();
        m_daemon.start(QStringLiteral("dbus-daemon"), {QStringLiteral("--nofork"), QStringLiteral("--print-address=1"),
                                                       QStringLiteral("--config-file=") + config.fileName()});
        if (!m_daemon.waitForStarted(5000))
            return false;
        while (!m_daemon.canReadLine() && m_daemon.waitForReadyRead(5000)) {
        }
        address = QString::fromUtf8(m_daemon.readLine()).trimmed();
        return !address.isEmpty();
    }
    ~PrivateBus()
    {
        m_daemon.terminate();
        m_daemon.waitForFinished(3000);
    }
    QString address;

private:
    QTemporaryDir m_dir;
    QProcess m_daemon;
};

QDBusConnection nowhere()
{
    return QDBusConnection::connectToBus(QStringLiteral("unix:path=/nonexistent/mirrordesk-no-bus"),
                                         QStringLiteral("md-no-bus"));
}

const int kJob = 0; // keys only
const int kOther = 1;

} // namespace

class TestNotifier final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("MirrorDesk-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_notifier"));
        QGuiApplication::setDesktopFileName(QStringLiteral("io.github.mirrordesk.MirrorDesk")); // as GuiMode does
        qRegisterMetaType<Notifier::Route>();
    }
    void init() { QSettings().remove(QStringLiteral("notifications")); }

    void onlyTransitionsNotify()
    {
        NotificationPolicy policy;
        QList<Notification> out;
        const auto feed = [&](JobHealth h, qint64 atMs) {
            if (auto n = policy.update(&kJob, QStringLiteral("orders-dr"), h, QStringLiteral("lag 1.2 k"), atMs))
                out.append(*n);
        };
        // Ok, Warn, Warn, Err, Ok, a minute apart (no rate limit involved).
        feed(JobHealth::Ok, 0);
        feed(JobHealth::Warn, 60000);
        feed(JobHealth::Warn, 120000);
        feed(JobHealth::Err, 180000);
        feed(JobHealth::Ok, 240000);
        feed(JobHealth::Ok, 300000);
        QCOMPARE(out.size(), 3);
        QCOMPARE(out[0].summary, QStringLiteral("orders-dr: lag warning"));
        QCOMPARE(out[0].severity, Notification::Severity::Warning);
        QCOMPARE(out[0].body, QStringLiteral("WARN: lag 1.2 k"));
        QCOMPARE(out[1].summary, QStringLiteral("orders-dr: lag error"));
        QCOMPARE(out[1].severity, Notification::Severity::Critical);
        QCOMPARE(out[2].summary, QStringLiteral("orders-dr: recovered"));
        QCOMPARE(out[2].severity, Notification::Severity::Info);
        QVERIFY(policy.due(1000000).isEmpty());
        QCOMPARE(policy.nextDueMs(), -1);
    }

    void aFlappingJobGetsOneSummary()
    {
        NotificationPolicy policy(30000);
        const QString name = QStringLiteral("orders-dr");
        QVERIFY(policy.update(&kJob, name, JobHealth::Warn, {}, 0));
        // Within 30 s: held back, whatever they are.
        QVERIFY(!policy.update(&kJob, name, JobHealth::Err, {}, 5000));
        QVERIFY(!policy.update(&kJob, name, JobHealth::Ok, {}, 10000));
        QVERIFY(!policy.update(&kJob, name, JobHealth::Warn, QStringLiteral("lag 7"), 15000));
        // Another job has a limit of its own.
        QVERIFY(policy.update(&kOther, QStringLiteral("billing"), JobHealth::Err, {}, 16000));
        QCOMPARE(policy.nextDueMs(), 30000);
        QVERIFY(policy.due(29999).isEmpty());
        const QList<Notification> due = policy.due(30000);
        QCOMPARE(due.size(), 1);
        QCOMPARE(due[0].summary, QStringLiteral("orders-dr: lag status changing"));
        QCOMPARE(due[0].severity, Notification::Severity::Critical); // it was ERR meanwhile
        QVERIFY2(due[0].body.contains(QStringLiteral("3 change(s) in 30 s, worst ERR")), qPrintable(due[0].body));
        QVERIFY2(due[0].body.contains(QStringLiteral("now WARN: lag 7")), qPrintable(due[0].body));
        QVERIFY(policy.due(100000).isEmpty());
        QCOMPARE(policy.nextDueMs(), -1);
        // One change held back is told as itself once the interval has passed.
        QVERIFY(!policy.update(&kJob, name, JobHealth::Ok, {}, 40000));
        const QList<Notification> later = policy.due(60000);
        QCOMPARE(later.size(), 1);
        QCOMPARE(later[0].summary, QStringLiteral("orders-dr: recovered"));
    }

    void aFailedJobNotifiesAtOnceAndThenNoMore()
    {
        NotificationPolicy policy;
        QVERIFY(policy.update(&kJob, QStringLiteral("orders-dr"), JobHealth::Warn, {}, 0));
        const auto failed =
            policy.update(&kJob, QStringLiteral("orders-dr"), JobHealth::Failed, QStringLiteral("broker down"), 1000);
        QVERIFY(failed); // inside the interval, still told
        QCOMPARE(failed->summary, QStringLiteral("orders-dr: failed"));
        QCOMPARE(failed->body, QStringLiteral("broker down"));
        QCOMPARE(failed->severity, Notification::Severity::Critical);
        QVERIFY(!policy.update(&kJob, QStringLiteral("orders-dr"), JobHealth::Ok, {}, 100000));
        QVERIFY(policy.due(200000).isEmpty());
        // Failing while changes are held back: the failure, not a summary of them.
        QVERIFY(policy.update(&kOther, QStringLiteral("billing"), JobHealth::Warn, {}, 0));
        QVERIFY(!policy.update(&kOther, QStringLiteral("billing"), JobHealth::Err, {}, 1000));
        QVERIFY(!policy.update(&kOther, QStringLiteral("billing"), JobHealth::Ok, {}, 2000));
        const auto alsoFailed = policy.update(&kOther, QStringLiteral("billing"), JobHealth::Failed, {}, 3000);
        QVERIFY(alsoFailed);
        QCOMPARE(alsoFailed->summary, QStringLiteral("billing: failed"));
        QCOMPARE(policy.nextDueMs(), -1);
    }

    void withoutBusOrTrayTheBannerShowsAndCloses()
    {
        MainWindow window;
        Notifier *notifier = window.notifier();
        QVERIFY(notifier);
        notifier->setBus(nowhere());
        notifier->setTrayAvailable([] { return false; });
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *banner = window.findChild<NotificationBanner *>(QStringLiteral("notificationBanner"));
        QVERIFY(banner);
        QVERIFY(window.centralWidget()->isAncestorOf(banner));
        QVERIFY(!banner->isVisible());
        QSignalSpy delivered(notifier, &Notifier::delivered);
        notifier->update(&kJob, QStringLiteral("orders-dr"), JobHealth::Err, QStringLiteral("lag 12 k"));
        QCOMPARE(delivered.size(), 1);
        QCOMPARE(delivered[0][1].value<Notifier::Route>(), Notifier::Route::Banner);
        QVERIFY(banner->isVisible());
        QCOMPARE(banner->text(), QStringLiteral("orders-dr: lag error \u2014 ERR: lag 12 k"));
        QCOMPARE(banner->severity(), Notification::Severity::Critical);
        // Tinted towards red, unlike the window around it.
        QVERIFY(banner->palette().color(QPalette::Window) != window.palette().color(QPalette::Window));
        QTest::mouseClick(banner->closeButton(), Qt::LeftButton);
        QVERIFY(!banner->isVisible());
        QVERIFY(!window.trayIcon()); // no tray was made for it
    }

    // The window's wiring: a job's monitor turning WARN, then the job failing.
    void aJobOfTheWindowIsFollowed()
    {
        MainWindow window;
        Notifier *notifier = window.notifier();
        notifier->setBus(nowhere());
        notifier->setTrayAvailable([] { return false; });
        MirrorJobSpec spec;
        spec.name = QStringLiteral("orders-dr");
        spec.source.bootstrap = QStringLiteral("127.0.0.1:1");
        spec.target.bootstrap = QStringLiteral("127.0.0.1:2");
        spec.include = {QStringLiteral("orders")};
        auto *job = new MirrorJob(spec);
        window.addJob(job); // not started: its history is fed by hand
        // The session's job is followed whether or not a monitor is open (none is).
        MonitoredJob *monitored = window.session()->at(0);
        QVERIFY(monitored);
        QCOMPARE(monitored->job(), job);
        QVERIFY(!window.jobMonitor(0));
        QSignalSpy delivered(notifier, &Notifier::delivered);
        // A minute of ticks, 2 s apart, whose offsets move while the lag only grows: WARN.
        const qint64 base = QDateTime::currentMSecsSinceEpoch() - 60000;
        for (int i = 0; i < 30; ++i) {
            MetricsSnapshot s;
            s.jobName = spec.name;
            s.time = QDateTime::fromMSecsSinceEpoch(base + i * 2000, Qt::UTC);
            s.elapsedMs = i * 2000;
            s.state = JobState::Running;
            PartitionMetrics m;
            m.topic = QStringLiteral("orders");
            m.partition = 3;
            m.lag = 100 + 50 * i;
            m.endOffset = 1000 + 200 * i;
            m.nextOffset = m.endOffset - m.lag;
            s.totalLag = m.lag;
            s.partitions.append(m);
            monitored->addSnapshot(s);
        }
        QCOMPARE(monitored->status(), JobLagStatus::Warn);
        QCOMPARE(window.jobModel()->data(window.jobModel()->index(0, JobListModel::Status)).toString(),
                 QStringLiteral("WARN"));
        QCOMPARE(delivered.size(), 1); // one transition, thirty snapshots
        NotificationBanner *banner = notifier->banner();
        // The lag when it turned (the sixth tick: the window had to be 10 s old) and which partition.
        QCOMPARE(banner->text(),
                 QStringLiteral("orders-dr: lag warning \u2014 WARN: lag 350 records; 1 partition(s) WARN: orders-3"));
        // The job's end, failed: told at once, inside the rate limit.
        QMetaObject::invokeMethod(job, "finished", Q_ARG(bool, false), Q_ARG(QString, QStringLiteral("broker down")));
        QCOMPARE(delivered.size(), 2);
        QCOMPARE(banner->text(), QStringLiteral("orders-dr: failed \u2014 broker down"));
    }

    void theOffSwitchSilencesAndIsKept()
    {
        MainWindow window;
        Notifier *notifier = window.notifier();
        notifier->setBus(nowhere());
        notifier->setTrayAvailable([] { return false; });
        QAction *action = window.findChild<QAction *>(QStringLiteral("notificationsAction"));
        QVERIFY(action);
        QVERIFY(action->isCheckable());
        QVERIFY(action->isChecked()); // on by default
        bool inMenu = false;
        for (QAction *menu : window.menuBar()->actions()) {
            if (menu->menu() && menu->menu()->actions().contains(action))
                inMenu = true;
        }
        QVERIFY(inMenu);
        QSignalSpy delivered(notifier, &Notifier::delivered);
        action->trigger(); // off
        QVERIFY(!notifier->isEnabled());
        QCOMPARE(QSettings().value(QStringLiteral("notifications/enabled")).toBool(), false);
        notifier->update(&kJob, QStringLiteral("orders-dr"), JobHealth::Warn, {});
        QCOMPARE(delivered.size(), 0);
        QVERIFY(!notifier->banner()->isVisibleTo(&window));
        {
            MainWindow again; // the setting is kept
            QVERIFY(!again.notifier()->isEnabled());
        }
        action->trigger(); // on again; the WARN it missed is not told late
        QVERIFY(notifier->isEnabled());
        QCOMPARE(delivered.size(), 0);
        notifier->setMinIntervalMs(0);
        notifier->update(&kJob, QStringLiteral("orders-dr"), JobHealth::Err, {});
        QCOMPARE(delivered.size(), 1);
    }

    void heldBackChangesArriveAsASummaryLater()
    {
        NotificationBanner banner;
        Notifier notifier(&banner, {});
        notifier.setBus(nowhere());
        notifier.setMinIntervalMs(300);
        QSignalSpy delivered(&notifier, &Notifier::delivered);
        for (JobHealth h : {JobHealth::Warn, JobHealth::Ok, JobHealth::Warn, JobHealth::Ok})
            notifier.update(&kJob, QStringLiteral("orders-dr"), h, {});
        QCOMPARE(delivered.size(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(delivered.size(), 2, 3000);
        QCOMPARE(delivered[1][0].value<Notification>().summary, QStringLiteral("orders-dr: lag status changing"));
        QTest::qWait(500);
        QCOMPARE(delivered.size(), 2);
    }

    void theNotificationServiceGetsNotify()
    {
        PrivateBus bus;
        if (!bus.start())
            QSKIP("no dbus-daemon to start a private bus with");
        QDBusConnection service = QDBusConnection::connectToBus(bus.address, QStringLiteral("md-fake-service"));
        QVERIFY(service.isConnected());
        FakeNotifications fake;
        QVERIFY(service.registerObject(QStringLiteral("/org/freedesktop/Notifications"), &fake,
                                       QDBusConnection::ExportAllSlots));
        QVERIFY(service.registerService(QStringLiteral("org.freedesktop.Notifications")));
        QDBusConnection client = QDBusConnection::connectToBus(bus.address, QStringLiteral("md-client"));
        QVERIFY(client.isConnected());

        NotificationBanner banner;
        Notifier notifier(&banner, {});
        notifier.setBus(client);
        notifier.setMinIntervalMs(0);
        QSignalSpy delivered(&notifier, &Notifier::delivered);
        notifier.update(&kJob, QStringLiteral("orders-dr"), JobHealth::Warn, QStringLiteral("lag 300"));
        QCOMPARE(fake.calls.size(), 0); // asynchronous: the call returned before the service saw it
        QTRY_COMPARE_WITH_TIMEOUT(fake.calls.size(), 1, 5000);
        QCOMPARE(fake.calls[0].app, QStringLiteral("MirrorDesk"));
        QCOMPARE(fake.calls[0].summary, QStringLiteral("orders-dr: lag warning"));
        QCOMPARE(fake.calls[0].body, QStringLiteral("WARN: lag 300"));
        QCOMPARE(fake.calls[0].hints.value(QStringLiteral("urgency")).toInt(), 1);
        QCOMPARE(fake.calls[0].replacesId, 0u);
        QCOMPARE(fake.calls[0].hints.value(QStringLiteral("desktop-entry")).toString(),
                 QStringLiteral("io.github.mirrordesk.MirrorDesk"));
        QTRY_COMPARE(delivered.size(), 1);
        QCOMPARE(delivered[0][1].value<Notifier::Route>(), Notifier::Route::DBus);

        notifier.update(&kJob, QStringLiteral("orders-dr"), JobHealth::Err, QStringLiteral("lag 9 k"));
        QTRY_COMPARE_WITH_TIMEOUT(fake.calls.size(), 2, 5000);
        QCOMPARE(fake.calls[1].summary, QStringLiteral("orders-dr: lag error"));
        QCOMPARE(fake.calls[1].hints.value(QStringLiteral("urgency")).toInt(), 2); // critical
        QCOMPARE(fake.calls[1].replacesId, 101u); // the job's notification is replaced, not stacked
        QTRY_COMPARE(delivered.size(), 2);
        QVERIFY(banner.isHidden());

        // The service goes away: the next notification falls back to the banner.
        QVERIFY(service.unregisterService(QStringLiteral("org.freedesktop.Notifications")));
        notifier.update(&kJob, QStringLiteral("orders-dr"), JobHealth::Ok, QStringLiteral("lag 0"));
        QTRY_COMPARE_WITH_TIMEOUT(delivered.size(), 3, 8000);
        QCOMPARE(delivered[2][1].value<Notifier::Route>(), Notifier::Route::Banner);
        QVERIFY(!banner.isHidden());
        QVERIFY(banner.text().startsWith(QStringLiteral("orders-dr: recovered")));
        QCOMPARE(fake.calls.size(), 2);
        QDBusConnection::disconnectFromBus(QStringLiteral("md-client"));
        QDBusConnection::disconnectFromBus(QStringLiteral("md-fake-service"));
    }

    // Without setBus the application's session bus is used. Nothing in this process has
    // touched it before (the tests above give their buses), so pointing the environment at
    // a private bus makes that bus the session bus.
    void theDefaultIsTheSessionBus()
    {
        PrivateBus bus;
        if (!bus.start())
            QSKIP("no dbus-daemon to start a private bus with");
        QDBusConnection service = QDBusConnection::connectToBus(bus.address, QStringLiteral("md-fake-service2"));
        FakeNotifications fake;
        QVERIFY(service.registerObject(QStringLiteral("/org/freedesktop/Notifications"), &fake,
                                       QDBusConnection::ExportAllSlots));
        QVERIFY(service.registerService(QStringLiteral("org.freedesktop.Notifications")));
        qputenv("DBUS_SESSION_BUS_ADDRESS", bus.address.toUtf8());
        NotificationBanner banner;
        Notifier notifier(&banner, {});
        notifier.update(&kJob, QStringLiteral("orders-dr"), JobHealth::Failed, QStringLiteral("broker down"));
        QTRY_COMPARE_WITH_TIMEOUT(fake.calls.size(), 1, 5000);
        QCOMPARE(fake.calls[0].summary, QStringLiteral("orders-dr: failed"));
        QCOMPARE(fake.calls[0].hints.value(QStringLiteral("urgency")).toInt(), 2);
        QVERIFY(banner.isHidden());
        QDBusConnection::disconnectFromBus(QStringLiteral("md-fake-service2"));
    }
};

QTEST_MAIN(TestNotifier)
#include "tst_notifier.moc"
