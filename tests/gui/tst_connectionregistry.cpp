// The connection manager's schema registry, offscreen and without brokers: the
// dialog saves and shows a registry (URL, authentication, user, CA) with its
// password or token in the keychain and never in the settings file; a URL that
// is not http(s) with a host is refused with an error naming the field, under
// it; "Test connection" probes the registry beside the cluster (a tiny HTTP
// server in the test) and answers on its own line: "refused" for a 401, ok with
// the subjects for a list. The secret reaches the registry, typed, from the
// keychain, or asked for when there is no keychain.
#include "model/cluster/ConnectionStore.h"
#include "ui/connections/ConnectionDialog.h"
#include "ui/connections/SecretStore.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QHash>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace md;

namespace {

const QString kSecret = QStringLiteral("Reg-9d2e-never-in-a-file");

// A registry that gives every request the same answer, and keeps the requests.
class FakeRegistry final : public QTcpServer {
public:
    FakeRegistry(QByteArray status, QByteArray body) : m_status(std::move(status)), m_body(std::move(body))
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = nextPendingConnection()) {
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
                connect(s, &QTcpSocket::readyRead, this, [this, s] { serve(s); });
            }
        });
        listen(QHostAddress::LocalHost);
    }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(serverPort()); }
    QList<QByteArray> requests;

private:
    void serve(QTcpSocket *s)
    {
        QByteArray &buffer = m_buffers[s];
        buffer += s->readAll();
        if (!buffer.contains("\r\n\r\n"))
            return;
        requests.append(buffer);
        buffer.clear();
        s->write("HTTP/1.1 " + m_status + "\r\nContent-Type: application/vnd.schemaregistry.v1+json\r\n" +
                 "Content-Length: " + QByteArray::number(m_body.size()) + "\r\nConnection: close\r\n\r\n" + m_body);
        s->disconnectFromHost();
    }
    QByteArray m_status;
    QByteArray m_body;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};

QString closedPortBootstrap()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost);
    const quint16 port = server.serverPort();
    server.close(); // nothing listens there now: the cluster half fails, the registry half still answers
    return QStringLiteral("127.0.0.1:") + QString::number(port);
}

struct Fixture {
    QTemporaryDir dir;
    QString ini = dir.filePath(QStringLiteral("settings.ini"));
    ConnectionStore store{ini};
    MemorySecretBackend *backend = nullptr; // owned by secrets
    SecretStore secrets;
    ConnectionDialog dialog;

    explicit Fixture(const QString &unavailableReason = {})
        : secrets(makeBackend(unavailableReason, &backend)), dialog(&store, &secrets)
    {
        dialog.setConfirmRemovals(false);
    }

    static std::unique_ptr<SecretBackend> makeBackend(const QString &reason, MemorySecretBackend **out)
    {
        auto b = std::make_unique<MemorySecretBackend>();
        if (!reason.isEmpty())
            b->setUnavailable(reason);
        *out = b.get();
        return b;
    }

    template <typename T> T *child(const char *name) { return dialog.findChild<T *>(QString::fromLatin1(name)); }

    void setAuth(RegistryAuth auth)
    {
        auto *combo = child<QComboBox>("registryAuthCombo");
        combo->setCurrentIndex(combo->findData(int(auth)));
    }

    // A new plaintext connection with a registry.
    void fill(const QString &name, const QString &url, RegistryAuth auth, const QString &user = {},
              const QString &secret = {})
    {
        dialog.addConnection();
        child<QLineEdit>("nameEdit")->setText(name);
        child<QLineEdit>("bootstrapEdit")->setText(closedPortBootstrap());
        child<QLineEdit>("registryUrlEdit")->setText(url);
        setAuth(auth);
        child<QLineEdit>("registryUserEdit")->setText(user);
        child<QLineEdit>("registrySecretEdit")->setText(secret);
    }

    // Clicks "Test connection" and waits for the registry's line.
    std::pair<bool, QString> runRegistryTest()
    {
        QSignalSpy spy(&dialog, &ConnectionDialog::registryTestFinished);
        QTest::mouseClick(child<QPushButton>("testButton"), Qt::LeftButton);
        if (!spy.wait(12000) && spy.isEmpty())
            return {false, QStringLiteral("no answer")};
        return {spy.first().at(0).toBool(), spy.first().at(1).toString()};
    }

    QByteArray iniBytes()
    {
        store.sync();
        QFile f(ini);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
};

QByteArray basicHeader(const QString &user, const QString &password)
{
    return "Authorization: Basic " + (user + QLatin1Char(':') + password).toUtf8().toBase64();
}

} // namespace

class TestConnectionRegistry final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTripsARegistry()
    {
        Fixture f;
        QAbstractItemModelTester tester(f.child<QListWidget>("connectionList")->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE(f.secrets.availability(), SecretStore::Availability::Available);
        QFile ca(f.dir.filePath(QStringLiteral("registry-ca.pem")));
        QVERIFY(ca.open(QIODevice::WriteOnly));
        ca.write("-----BEGIN CERTIFICATE-----\n");
        ca.close();
        f.fill(QStringLiteral("eu"), QStringLiteral("https://apicurio.example/apis/ccompat/v7"), RegistryAuth::Basic,
               QStringLiteral("reader"), kSecret);
        f.child<QLineEdit>("registryCaEdit")->setText(ca.fileName());
        QVERIFY(f.dialog.saveConnection());

        const Connection saved = *f.store.connection(QStringLiteral("eu"));
        QCOMPARE(saved.registryUrl, QStringLiteral("https://apicurio.example/apis/ccompat/v7"));
        QCOMPARE(saved.registryAuth, RegistryAuth::Basic);
        QCOMPARE(saved.registryUsername, QStringLiteral("reader"));
        QCOMPARE(saved.registryCaFile, ca.fileName());
        const QString key = SecretStore::connectionRegistrySecretKey(QStringLiteral("eu"));
        QTRY_COMPARE(f.backend->entries().value(key), kSecret);
        QVERIFY(f.iniBytes().contains("apicurio.example"));
        QVERIFY(!f.iniBytes().contains(kSecret.toUtf8()));

        // Away and back: the form shows the saved registry, the secret stays in the keychain.
        f.fill(QStringLiteral("other"), QString(), RegistryAuth::None);
        QVERIFY(f.dialog.saveConnection());
        QVERIFY(f.child<QLineEdit>("registryUrlEdit")->text().isEmpty());
        QVERIFY(f.dialog.selectConnection(QStringLiteral("eu")));
        QCOMPARE(f.child<QLineEdit>("registryUrlEdit")->text(), saved.registryUrl);
        QCOMPARE(f.child<QComboBox>("registryAuthCombo")->currentData().toInt(), int(RegistryAuth::Basic));
        QCOMPARE(f.child<QLineEdit>("registryUserEdit")->text(), QStringLiteral("reader"));
        QCOMPARE(f.child<QLineEdit>("registryCaEdit")->text(), ca.fileName());
        QVERIFY(f.child<QLineEdit>("registrySecretEdit")->text().isEmpty());

        // Bearer: the token replaces the password in the keychain, the user is not kept.
        f.setAuth(RegistryAuth::Bearer);
        QVERIFY(!f.child<QLineEdit>("registryUserEdit")->isEnabled());
        f.child<QLineEdit>("registrySecretEdit")->setText(kSecret + QStringLiteral("-token"));
        QVERIFY(f.dialog.saveConnection());
        QCOMPARE(f.store.connection(QStringLiteral("eu"))->registryAuth, RegistryAuth::Bearer);
        QVERIFY(f.store.connection(QStringLiteral("eu"))->registryUsername.isEmpty());
        QTRY_COMPARE(f.backend->entries().value(key), kSecret + QStringLiteral("-token"));
        QVERIFY(!f.iniBytes().contains(kSecret.toUtf8()));

        // Renamed, the secret follows; removed, it goes.
        f.child<QLineEdit>("nameEdit")->setText(QStringLiteral("eu-2"));
        f.child<QLineEdit>("registrySecretEdit")->clear();
        QVERIFY(f.dialog.saveConnection());
        const QString renamedKey = SecretStore::connectionRegistrySecretKey(QStringLiteral("eu-2"));
        QTRY_COMPARE(f.backend->entries().value(renamedKey), kSecret + QStringLiteral("-token"));
        QTRY_VERIFY(!f.backend->entries().contains(key));
        f.dialog.removeConnection();
        QTRY_VERIFY(!f.backend->entries().contains(renamedKey));
    }

    void badUrlIsRefusedNamingTheField_data()
    {
        QTest::addColumn<QString>("url");
        QTest::newRow("no scheme") << QStringLiteral("registry:8081");
        QTest::newRow("ftp") << QStringLiteral("ftp://registry/x");
        QTest::newRow("no host") << QStringLiteral("https://");
        QTest::newRow("spaces") << QStringLiteral("http://reg istry:8081");
    }

    void badUrlIsRefusedNamingTheField()
    {
        QFETCH(QString, url);
        Fixture f;
        f.fill(QStringLiteral("bad"), QStringLiteral("http://registry:8081"), RegistryAuth::None);
        QVERIFY(f.dialog.saveConnection());
        f.child<QLineEdit>("registryUrlEdit")->setText(url);
        QVERIFY(!f.dialog.saveConnection());
        auto *issue = f.child<QLabel>("registryIssueLabel");
        QVERIFY(!issue->isHidden());
        QVERIFY2(issue->text().startsWith(QStringLiteral("schema registry URL: not an http(s) URL")),
                 qPrintable(issue->text()));
        QVERIFY2(f.child<QLabel>("statusLabel")->text().contains(QStringLiteral("schema registry URL")),
                 qPrintable(f.child<QLabel>("statusLabel")->text()));
        QCOMPARE(f.store.connection(QStringLiteral("bad"))->registryUrl, QStringLiteral("http://registry:8081"));
        f.store.sync();
        QCOMPARE(ConnectionStore(f.ini).connection(QStringLiteral("bad"))->registryUrl,
                 QStringLiteral("http://registry:8081"));
        // Fixed, the error goes as the user types.
        f.child<QLineEdit>("registryUrlEdit")->setText(QStringLiteral("https://registry:8081"));
        QVERIFY(issue->isHidden());
        QVERIFY(f.dialog.saveConnection());
    }

    void basicNeedsAUser()
    {
        Fixture f;
        f.fill(QStringLiteral("nouser"), QStringLiteral("http://registry:8081"), RegistryAuth::Basic);
        QVERIFY(!f.dialog.saveConnection());
        QVERIFY2(f.child<QLabel>("registryIssueLabel")->text().startsWith(QStringLiteral("registry user:")),
                 qPrintable(f.child<QLabel>("registryIssueLabel")->text()));
        QVERIFY(!f.store.contains(QStringLiteral("nouser")));
    }

    void unauthorizedIsRefused()
    {
        FakeRegistry registry("401 Unauthorized", R"({"error_code":40101,"message":"Unauthorized"})");
        QVERIFY(registry.isListening());
        Fixture f;
        f.fill(QStringLiteral("r401"), registry.url(), RegistryAuth::Basic, QStringLiteral("reader"), kSecret);
        const auto [ok, message] = f.runRegistryTest();
        QVERIFY(!ok);
        QVERIFY2(message.startsWith(QStringLiteral("Schema registry: refused")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("401")), qPrintable(message));
        QVERIFY2(!message.contains(kSecret), qPrintable(message));
        auto *line = f.child<QLabel>("registryStatusLabel");
        QCOMPARE(line->text(), message);
        QVERIFY(!line->isHidden());
        QVERIFY(f.child<QLabel>("statusLabel")->text() != message); // the cluster has its own line
        QCOMPARE(registry.requests.size(), 1);
        QVERIFY2(registry.requests.first().contains(basicHeader(QStringLiteral("reader"), kSecret)),
                 registry.requests.first().constData());
    }

    void subjectListIsOk_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("count");
        QTest::newRow("empty") << QByteArray("[]") << QStringLiteral("ok, 0 subject");
        QTest::newRow("two") << QByteArray(R"(["orders-value","users-value"])") << QStringLiteral("ok, 2 subject");
    }

    void subjectListIsOk()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, count);
        FakeRegistry registry("200 OK", body);
        Fixture f;
        f.fill(QStringLiteral("r200"), registry.url() + QStringLiteral("/apis/ccompat/v7"), RegistryAuth::Bearer, {},
               kSecret);
        const auto [ok, message] = f.runRegistryTest();
        QVERIFY2(ok, qPrintable(message));
        QVERIFY2(message.startsWith(QStringLiteral("Schema registry: ") + count), qPrintable(message));
        QVERIFY2(message.endsWith(QStringLiteral(" ms")), qPrintable(message));
        QCOMPARE(f.child<QLabel>("registryStatusLabel")->text(), message);
        QCOMPARE(registry.requests.size(), 1);
        QVERIFY2(registry.requests.first().startsWith("GET /apis/ccompat/v7/subjects"),
                 registry.requests.first().constData());
        QVERIFY(registry.requests.first().contains(QByteArray("Authorization: Bearer " + kSecret.toUtf8())));
    }

    // Saved with its password: a later test reads it from the keychain.
    void secretFromTheKeychain()
    {
        FakeRegistry registry("200 OK", "[]");
        Fixture f;
        QTRY_COMPARE(f.secrets.availability(), SecretStore::Availability::Available);
        f.fill(QStringLiteral("kept"), registry.url(), RegistryAuth::Basic, QStringLiteral("reader"), kSecret);
        QVERIFY(f.dialog.saveConnection());
        QTRY_COMPARE(f.backend->entries().value(SecretStore::connectionRegistrySecretKey(QStringLiteral("kept"))),
                     kSecret);
        f.child<QLineEdit>("registrySecretEdit")->clear();
        const auto [ok, message] = f.runRegistryTest();
        QVERIFY2(ok, qPrintable(message));
        QVERIFY(registry.requests.first().contains(basicHeader(QStringLiteral("reader"), kSecret)));
    }

    // No keychain: nothing is kept, and Test connection asks for the password.
    void withoutKeychainTheSecretIsAskedFor()
    {
        FakeRegistry registry("200 OK", "[]");
        Fixture f(QStringLiteral("no secret service"));
        QTRY_COMPARE(f.secrets.availability(), SecretStore::Availability::Unavailable);
        f.fill(QStringLiteral("asked"), registry.url(), RegistryAuth::Basic, QStringLiteral("reader"));
        QVERIFY(f.dialog.saveConnection());
        QVERIFY(f.backend->entries().isEmpty());
        QSignalSpy spy(&f.dialog, &ConnectionDialog::registryTestFinished);
        QTest::mouseClick(f.child<QPushButton>("testButton"), Qt::LeftButton);
        QInputDialog *prompt = nullptr;
        QTRY_VERIFY((prompt = f.dialog.findChild<QInputDialog *>(QStringLiteral("registrySecretPrompt"))));
        QVERIFY2(prompt->labelText().contains(QStringLiteral("registry user \"reader\"")),
                 qPrintable(prompt->labelText()));
        prompt->setTextValue(kSecret);
        prompt->accept();
        QVERIFY(spy.wait(12000) || !spy.isEmpty());
        QVERIFY2(spy.first().at(0).toBool(), qPrintable(spy.first().at(1).toString()));
        QVERIFY(registry.requests.first().contains(basicHeader(QStringLiteral("reader"), kSecret)));
        QVERIFY(!f.iniBytes().contains(kSecret.toUtf8()));
    }

    // A connection without a registry shows no registry line.
    void noRegistryNoLine()
    {
        Fixture f;
        f.fill(QStringLiteral("plain"), QString(), RegistryAuth::None);
        QSignalSpy spy(&f.dialog, &ConnectionDialog::registryTestFinished);
        QTest::mouseClick(f.child<QPushButton>("testButton"), Qt::LeftButton);
        QVERIFY(f.child<QLabel>("registryStatusLabel")->isHidden());
        QTest::qWait(200);
        QVERIFY(spy.isEmpty());
    }
};

QTEST_MAIN(TestConnectionRegistry)
#include "tst_connectionregistry.moc"
