// Single instance: a second launch hands its files to the running one over a
// local socket. The class in-process (hand-over, nobody listening, a socket
// file left by a crash), then the real executable: as the second launch
// against an in-process server, and twice on its own (the first one prints
// what it received when MIRRORDESK_PRINT_OPEN_EVENTS is set), including a
// first instance that was killed and left its socket behind.
#include "KafkaTestEnv.h"
#include "ui/window/SingleInstance.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLocalSocket>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace md;

namespace {

const QString kExe = QStringLiteral(MIRRORDESK_BINARY_DIR "/app/mirrordesk");

// What a crashed instance leaves: a socket file nobody listens on.
bool makeStaleSocket(const QString &path)
{
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0)
        return false;
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const QByteArray p = QFile::encodeName(path);
    if (size_t(p.size()) >= sizeof(addr.sun_path)) {
        ::close(fd);
        return false;
    }
    memcpy(addr.sun_path, p.constData(), size_t(p.size()));
    const bool ok = ::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) == 0;
    ::close(fd);
    return ok && QFileInfo::exists(path);
}

// The client blocks; the server needs this thread's event loop meanwhile.
bool sendFromThread(const QString &name, const QStringList &files, QSignalSpy *spy, int expected)
{
    bool sent = false;
    std::unique_ptr<QThread> t(QThread::create([&] { sent = SingleInstance(name).sendToRunning(files); }));
    t->start();
    QElapsedTimer timer;
    timer.start();
    while (!t->isFinished() && timer.elapsed() < 10000)
        QTest::qWait(10);
    t->wait();
    return sent && spy->count() == expected;
}

QProcessEnvironment environment(const QString &name)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("MIRRORDESK_INSTANCE_NAME"), name);
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("MIRRORDESK_PRINT_OPEN_EVENTS"), QStringLiteral("1"));
    return env;
}

} // namespace

class TestSingleInstance final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString socketPath(const QString &name) const { return m_dir.filePath(name); }

    QString writeProfile(const QString &name)
    {
        const QString path = m_dir.filePath(name);
        QFile::remove(path);
        QFile::copy(QStringLiteral(MIRRORDESK_SOURCE_DIR "/resources/examples/orders-to-dr.mirrorjob"), path);
        return path;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void defaultNameIsPerUser()
    {
        qunsetenv("MIRRORDESK_INSTANCE_NAME");
        const QString name = SingleInstance::defaultServerName();
        QVERIFY2(name.contains(QString::number(::getuid())), qPrintable(name));
        qputenv("MIRRORDESK_INSTANCE_NAME", "custom-name");
        QCOMPARE(SingleInstance::defaultServerName(), QStringLiteral("custom-name"));
        qunsetenv("MIRRORDESK_INSTANCE_NAME");
    }

    void handsFilesToTheListeningInstance()
    {
        const QString name = socketPath(QStringLiteral("a.socket"));
        SingleInstance server(name);
        QString error;
        QVERIFY2(server.listen(&error), qPrintable(error));
        QSignalSpy spy(&server, &SingleInstance::filesReceived);
        const QStringList files = {QStringLiteral("/data/jobs/orders.mirrorjob"),
                                   QStringLiteral("/data/my jobs/ünïcode\nnewline.mirrorjob")};
        QVERIFY(sendFromThread(name, files, &spy, 1));
        QCOMPARE(spy.at(0).at(0).toStringList(), files);
        // No files: the running window is only brought forward.
        QVERIFY(sendFromThread(name, {}, &spy, 2));
        QCOMPARE(spy.at(1).at(0).toStringList(), QStringList());
        // A second server on the same name is refused: that instance is alive.
        SingleInstance other(name);
        QVERIFY(!other.listen(&error));
        QVERIFY2(error.contains(QStringLiteral("another MirrorDesk instance")), qPrintable(error));
    }

    void nobodyListeningFailsFast()
    {
        QElapsedTimer t;
        t.start();
        QVERIFY(!SingleInstance(socketPath(QStringLiteral("nobody.socket"))).sendToRunning({QStringLiteral("/x")}));
        QVERIFY(t.elapsed() < 1500);
    }

    void staleSocketFromACrashIsReplaced()
    {
        const QString name = socketPath(QStringLiteral("stale.socket"));
        QVERIFY(makeStaleSocket(name));
        QElapsedTimer t;
        t.start();
        QVERIFY(!SingleInstance(name).sendToRunning({QStringLiteral("/x")}));
        QVERIFY(t.elapsed() < 1500);
        SingleInstance server(name);
        QString error;
        QVERIFY2(server.listen(&error), qPrintable(error));
        QSignalSpy spy(&server, &SingleInstance::filesReceived);
        QVERIFY(sendFromThread(name, {QStringLiteral("/y.mirrorjob")}, &spy, 1));
        QCOMPARE(spy.at(0).at(0).toStringList(), QStringList{QStringLiteral("/y.mirrorjob")});
    }

    void garbageIsDropped()
    {
        const QString name = socketPath(QStringLiteral("garbage.socket"));
        SingleInstance server(name);
        QString error;
        QVERIFY(server.listen(&error));
        QSignalSpy spy(&server, &SingleInstance::filesReceived);
        QLocalSocket s;
        s.connectToServer(name);
        QVERIFY(s.waitForConnected(1000));
        s.write(QByteArray(64, 'x'));
        s.flush();
        QTRY_COMPARE(s.state(), QLocalSocket::UnconnectedState);
        QCOMPARE(spy.count(), 0);
    }

    void secondExecutableHandsOverAndExits()
    {
        MD_REQUIRE_FILE(kExe);
        const QString name = socketPath(QStringLiteral("exe.socket"));
        SingleInstance server(name);
        QString error;
        QVERIFY(server.listen(&error));
        QSignalSpy spy(&server, &SingleInstance::filesReceived);
        writeProfile(QStringLiteral("handed.mirrorjob"));
        QProcess second;
        second.setProcessEnvironment(environment(name));
        second.setWorkingDirectory(m_dir.path());
        QElapsedTimer t;
        t.start();
        second.start(kExe, {QStringLiteral("handed.mirrorjob")}); // relative: made absolute before the hand-over
        QTRY_VERIFY_WITH_TIMEOUT(second.state() == QProcess::NotRunning, 15000);
        QCOMPARE(second.exitStatus(), QProcess::NormalExit);
        QCOMPARE(second.exitCode(), 0);
        QVERIFY2(t.elapsed() < 10000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toStringList(), QStringList{m_dir.filePath(QStringLiteral("handed.mirrorjob"))});
    }

    void twoRealInstancesAndACrashedOne()
    {
        MD_REQUIRE_FILE(kExe);
        const QString name = socketPath(QStringLiteral("real.socket"));
        const QString profile = writeProfile(QStringLiteral("real.mirrorjob"));
        for (int round = 0; round < 2; ++round) {
            // Round 1 starts where round 0's killed instance left its socket file.
            QCOMPARE(QFileInfo::exists(name), round == 1);
            QProcess first;
            first.setProcessEnvironment(environment(name));
            first.start(kExe, {});
            QVERIFY(first.waitForStarted());
            // It listens once the socket answers (the file alone may be the stale one).
            QTRY_VERIFY_WITH_TIMEOUT(
                [&] {
                    QLocalSocket s;
                    s.connectToServer(name);
                    const bool up = s.waitForConnected(200);
                    s.abort();
                    return up;
                }(),
                20000);
            QProcess second;
            second.setProcessEnvironment(environment(name));
            second.start(kExe, {profile});
            QVERIFY(second.waitForFinished(15000));
            QCOMPARE(second.exitCode(), 0);
            QByteArray firstOut;
            QTRY_VERIFY_WITH_TIMEOUT((firstOut += first.readAllStandardOutput())
                                         .contains(QByteArray("open-event 1 " + QFile::encodeName(profile))),
                                     10000);

            // --new-instance opts out: it does not hand over (and would run its own window).
            QProcess third;
            third.setProcessEnvironment(environment(name));
            third.start(kExe, {QStringLiteral("--new-instance"), profile});
            QVERIFY(third.waitForStarted());
            QVERIFY(!third.waitForFinished(1500));
            third.kill();
            third.waitForFinished();
            QVERIFY(!first.readAllStandardOutput().contains("open-event"));

            first.kill(); // a crash: the socket file stays behind
            QVERIFY(first.waitForFinished(5000));
        }
    }
};

QTEST_MAIN(TestSingleInstance)
#include "tst_singleinstance.moc"
