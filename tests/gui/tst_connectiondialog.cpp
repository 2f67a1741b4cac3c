// The connection manager against the real brokers (source, sasl and its SSL
// listener): test connection lists the broker, a closed port is "unreachable"
// within 10 s with the UI thread responsive, SCRAM with the right password
// connects and with a wrong one says "authentication failed", mutual TLS with
// an encrypted client key connects and a CA that did not sign the broker says
// "TLS failed" (each with the error kind the dialog chose its words from). Passwords (SASL and key): with an in-memory
// keychain they land there and nowhere else; without a keychain the dialog says why and asks at connect time.
#include "KafkaTestEnv.h"
#include "model/cluster/ConnectionStore.h"
#include "ui/connections/ConnectionDialog.h"
#include "ui/connections/SecretStore.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace md;

Q_DECLARE_METATYPE(md::ConnectionTestResult::Step)

namespace {

struct Fixture {
    QTemporaryDir dir;
    QString ini = dir.filePath(QStringLiteral("settings.ini"));
    ConnectionStore store{ini};
    MemorySecretBackend *backend = nullptr; // owned by secrets
    SecretStore secrets;
    ConnectionDialog dialog;
    KafkaError lastError; // of the latest runTest

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

    // Fills the form of a new connection.
    void fill(const QString &name, const QString &bootstrap, bool sasl = false, const QString &password = {})
    {
        dialog.addConnection();
        child<QLineEdit>("nameEdit")->setText(name);
        child<QLineEdit>("bootstrapEdit")->setText(bootstrap);
        auto *security = child<QComboBox>("securityCombo");
        security->setCurrentIndex(
            security->findText(sasl ? QStringLiteral("SASL_PLAINTEXT") : QStringLiteral("PLAINTEXT")));
        if (sasl) {
            auto *mech = child<QComboBox>("mechanismCombo");
            mech->setCurrentIndex(mech->findText(QString::fromLatin1(test::kSaslMechanism)));
            child<QLineEdit>("userEdit")->setText(test::saslUser());
            child<QLineEdit>("passwordEdit")->setText(password);
        }
    }

    // Fills the form of a new mutual-TLS connection to the sasl broker's SSL listener.
    void fillTls(const QString &name, const QString &caFile, const QString &keyPassword)
    {
        dialog.addConnection();
        child<QLineEdit>("nameEdit")->setText(name);
        child<QLineEdit>("bootstrapEdit")->setText(test::tlsBootstrap());
        auto *security = child<QComboBox>("securityCombo");
        security->setCurrentIndex(security->findText(QStringLiteral("SSL")));
        child<QLineEdit>("caFileEdit")->setText(caFile);
        child<QLineEdit>("certFileEdit")->setText(test::tlsFile(QStringLiteral("client.pem")));
        child<QLineEdit>("keyFileEdit")->setText(test::tlsFile(QStringLiteral("client.key")));
        child<QLineEdit>("keyPasswordEdit")->setText(keyPassword);
    }

    // Clicks "Test connection" and waits for the answer; *ms is the time it took.
    std::pair<bool, QString> runTest(qint64 *ms = nullptr, int *maxGapMs = nullptr)
    {
        QSignalSpy spy(&dialog, &ConnectionDialog::testFinished);
        // A 20 ms ticker measures how long the UI thread was ever blocked.
        QElapsedTimer gap;
        int maxGap = 0;
        QTimer ticker;
        ticker.setInterval(20);
        QObject::connect(&ticker, &QTimer::timeout, [&] { maxGap = std::max(maxGap, int(gap.restart())); });
        QElapsedTimer timer;
        timer.start();
        gap.start();
        ticker.start();
        QTest::mouseClick(child<QPushButton>("testButton"), Qt::LeftButton);
        const bool answered = spy.wait(12000) || !spy.isEmpty();
        if (ms)
            *ms = timer.elapsed();
        if (maxGapMs)
            *maxGapMs = maxGap;
        if (!answered)
            return {false, QStringLiteral("no answer")};
        lastError = spy.first().at(2).value<KafkaError>();
        return {spy.first().at(0).toBool(), spy.first().at(1).toString()};
    }

    QByteArray iniBytes()
    {
        store.sync();
        QFile f(ini);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
};

} // namespace

class TestConnectionDialog final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("sasl"), QStringLiteral("tls"));
    }

    void testListsTheSourceBroker()
    {
        Fixture f;
        f.fill(QStringLiteral("source"), test::sourceBootstrap());
        QVERIFY(f.dialog.saveConnection());
        qint64 ms = 0;
        const auto [ok, message] = f.runTest(&ms);
        QVERIFY2(ok, qPrintable(message));
        const QString port = test::sourceBootstrap().section(QLatin1Char(':'), -1);
        QVERIFY2(message.contains(QStringLiteral(":") + port), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("1 broker")), qPrintable(message));
        QCOMPARE(f.child<QLabel>("statusLabel")->text(), message);
        qInfo("test connection against source: %lld ms", ms);
    }

    void closedPortIsUnreachableWithin10s()
    {
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        const quint16 port = server.serverPort();
        server.close(); // nothing listens there now
        Fixture f;
        f.fill(QStringLiteral("closed"), QStringLiteral("127.0.0.1:") + QString::number(port));
        qint64 ms = 0;
        int maxGap = 0;
        const auto [ok, message] = f.runTest(&ms, &maxGap);
        QVERIFY(!ok);
        QVERIFY2(message.startsWith(QStringLiteral("unreachable")), qPrintable(message));
        QCOMPARE(f.lastError.kind, KafkaErrorKind::Unreachable);
        QVERIFY2(ms < 10500, qPrintable(QString::number(ms)));
        QVERIFY2(maxGap < 500, qPrintable(QStringLiteral("UI thread blocked for %1 ms").arg(maxGap)));
        qInfo("closed port: answered in %lld ms, longest UI gap %d ms", ms, maxGap);
    }

    void saslRightAndWrongPassword()
    {
        Fixture f;
        f.fill(QStringLiteral("sasl"), test::saslBootstrap(), true, test::saslPassword());
        auto [ok, message] = f.runTest();
        QVERIFY2(ok, qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("1 broker")), qPrintable(message));

        f.child<QLineEdit>("passwordEdit")->setText(QStringLiteral("wrong-password"));
        qint64 ms = 0;
        std::tie(ok, message) = f.runTest(&ms);
        QVERIFY(!ok);
        QVERIFY2(message.startsWith(QStringLiteral("authentication failed")), qPrintable(message));
        QCOMPARE(f.lastError.kind, KafkaErrorKind::Authentication);
        QVERIFY2(!message.contains(QStringLiteral("wrong-password")), qPrintable(message));
        QVERIFY2(ms < 10500, qPrintable(QString::number(ms)));
    }

    void saslScram256()
    {
        Fixture f;
        f.fill(QStringLiteral("sasl-256"), test::saslBootstrap(), true, test::saslPassword());
        auto *mech = f.child<QComboBox>("mechanismCombo");
        mech->setCurrentIndex(mech->findText(QString::fromLatin1(test::kSaslScram256Mechanism)));
        QVERIFY(mech->currentIndex() >= 0);
        const auto [ok, message] = f.runTest();
        QVERIFY2(ok, qPrintable(message));
    }

    void tlsWithEncryptedClientKey()
    {
        Fixture f;
        f.fillTls(QStringLiteral("tls"), test::tlsFile(QStringLiteral("ca.pem")), test::tlsKeyPassword());
        QVERIFY(f.child<QLineEdit>("keyPasswordEdit")->isEnabled());
        QCOMPARE(f.child<QLineEdit>("keyPasswordEdit")->echoMode(), QLineEdit::Password);
        auto [ok, message] = f.runTest();
        QVERIFY2(ok, qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("1 broker")), qPrintable(message));

        // A CA that did not sign the broker's certificate: TLS, in words, fast.
        f.child<QLineEdit>("caFileEdit")->setText(test::tlsFile(QStringLiteral("other-ca.pem")));
        qint64 ms = 0;
        std::tie(ok, message) = f.runTest(&ms);
        QVERIFY(!ok);
        QVERIFY2(message.startsWith(QStringLiteral("TLS failed: the secure connection")), qPrintable(message));
        // Whichever code librdkafka reported first (_SSL or _TRANSPORT), the kind is TLS.
        QCOMPARE(f.lastError.kind, KafkaErrorKind::Tls);
        QVERIFY2(f.lastError.code == RD_KAFKA_RESP_ERR__SSL || f.lastError.code == RD_KAFKA_RESP_ERR__TRANSPORT,
                 qPrintable(QString::number(f.lastError.code)));
        QVERIFY2(ms < 10500, qPrintable(QString::number(ms)));

        // The wrong key password: the key cannot be read, said before any connection.
        f.child<QLineEdit>("caFileEdit")->setText(test::tlsFile(QStringLiteral("ca.pem")));
        f.child<QLineEdit>("keyPasswordEdit")->setText(QStringLiteral("not-the-key-password"));
        std::tie(ok, message) = f.runTest();
        QVERIFY(!ok);
        QVERIFY2(message.startsWith(QStringLiteral("TLS failed: the client key or certificates could not be read")),
                 qPrintable(message));
        QCOMPARE(f.lastError.kind, KafkaErrorKind::Tls);
        QVERIFY2(!message.contains(QStringLiteral("not-the-key-password")), qPrintable(message));

        // No client certificate: the broker refuses it after the client's
        // side of the handshake (a transport error in librdkafka's terms).
        f.child<QLineEdit>("certFileEdit")->clear();
        f.child<QLineEdit>("keyFileEdit")->clear();
        f.child<QLineEdit>("keyPasswordEdit")->clear();
        std::tie(ok, message) = f.runTest();
        QVERIFY(!ok);
        QVERIFY2(message.startsWith(QStringLiteral("TLS failed: the secure connection")), qPrintable(message));
        QCOMPARE(f.lastError.kind, KafkaErrorKind::Tls);
    }

    void keyPasswordGoesToTheKeychainOnly()
    {
        Fixture f;
        f.fillTls(QStringLiteral("tls-kept"), test::tlsFile(QStringLiteral("ca.pem")), test::tlsKeyPassword());
        QVERIFY(f.child<QCheckBox>("rememberCheck")->isEnabled());
        QVERIFY(f.dialog.saveConnection());
        const QString key = SecretStore::connectionKeyPasswordKey(QStringLiteral("tls-kept"));
        QTRY_COMPARE(f.backend->entries().value(key), test::tlsKeyPassword());
        QCOMPARE(f.backend->entries().size(), 1); // no SASL, so no SASL password entry
        QVERIFY(!f.iniBytes().contains(test::tlsKeyPassword().toUtf8()));

        // Shown again, the field is empty; connecting takes the keychain's.
        f.fill(QStringLiteral("other"), test::sourceBootstrap());
        QVERIFY(f.dialog.saveConnection());
        QVERIFY(f.dialog.selectConnection(QStringLiteral("tls-kept")));
        QVERIFY(f.child<QLineEdit>("keyPasswordEdit")->text().isEmpty());
        QSignalSpy connectSpy(&f.dialog, &ConnectionDialog::connectRequested);
        QTest::mouseClick(f.child<QPushButton>("sourceButton"), Qt::LeftButton);
        QTRY_COMPARE(connectSpy.size(), 1);
        const auto config = connectSpy.first().at(1).value<ClusterConfig>();
        QCOMPARE(config.sslKeyPassword, test::tlsKeyPassword());
        QCOMPARE(config.security, SecurityProtocol::Ssl);

        f.dialog.removeConnection();
        QTRY_VERIFY(!f.backend->entries().contains(key));
    }

    void bothSecretsReportInOneStatus()
    {
        // SASL over TLS with an encrypted client key: one save stores two
        // secrets, and the status line names both once both have answered.
        Fixture f;
        f.fillTls(QStringLiteral("both"), test::tlsFile(QStringLiteral("ca.pem")), test::tlsKeyPassword());
        auto *security = f.child<QComboBox>("securityCombo");
        security->setCurrentIndex(security->findText(QStringLiteral("SASL_SSL")));
        f.child<QLineEdit>("userEdit")->setText(test::saslUser());
        f.child<QLineEdit>("passwordEdit")->setText(test::saslPassword());
        QVERIFY(f.dialog.saveConnection());
        auto *status = f.child<QLabel>("statusLabel");
        QCOMPARE(status->text(),
                 QStringLiteral("Saved. Storing the password and the key password in the system keychain…"));
        QTRY_COMPARE(status->text(),
                     QStringLiteral("Saved; the password and the key password are in the system keychain."));
        QCOMPARE(f.backend->entries().size(), 2);

        // A keychain that refuses: one error line with both reasons.
        f.backend->setUnavailable(QStringLiteral("locked"));
        f.child<QLineEdit>("passwordEdit")->setText(test::saslPassword());
        f.child<QLineEdit>("keyPasswordEdit")->setText(test::tlsKeyPassword());
        QVERIFY(f.dialog.saveConnection());
        QTRY_VERIFY2(status->text().startsWith(QStringLiteral("Saved, but without the password: ")),
                     qPrintable(status->text()));
        QVERIFY2(status->text().contains(QStringLiteral("; the key password: ")), qPrintable(status->text()));
        QCOMPARE(status->property("error").toBool(), true);
    }

    void noKeychainAsksForTheKeyPassword()
    {
        Fixture f(QStringLiteral("no secret service runs in this test"));
        f.fillTls(QStringLiteral("tls-asked"), test::tlsFile(QStringLiteral("ca.pem")), {});
        QVERIFY(f.dialog.saveConnection());
        QTest::mouseClick(f.child<QPushButton>("testButton"), Qt::LeftButton);
        // The key is encrypted, so its password is asked for (there is no SASL one to ask).
        QTRY_VERIFY(f.child<QInputDialog>("keyPasswordPrompt"));
        QVERIFY(!f.child<QInputDialog>("passwordPrompt"));
        QInputDialog *prompt = f.child<QInputDialog>("keyPasswordPrompt");
        QVERIFY2(prompt->labelText().contains(QStringLiteral("client.key")), qPrintable(prompt->labelText()));
        QSignalSpy testSpy(&f.dialog, &ConnectionDialog::testFinished);
        prompt->setTextValue(test::tlsKeyPassword());
        prompt->accept();
        QVERIFY(testSpy.wait(12000));
        QVERIFY2(testSpy.first().at(0).toBool(), qPrintable(testSpy.first().at(1).toString()));
        QVERIFY(f.backend->entries().isEmpty());
    }

    void passwordGoesToTheKeychainOnly()
    {
        Fixture f;
        f.fill(QStringLiteral("sasl-kept"), test::saslBootstrap(), true, test::saslPassword());
        QVERIFY(f.child<QCheckBox>("rememberCheck")->isChecked());
        QVERIFY(f.dialog.saveConnection());
        const QString key = SecretStore::connectionPasswordKey(QStringLiteral("sasl-kept"));
        QTRY_COMPARE(f.backend->entries().value(key), test::saslPassword());
        QCOMPARE(f.backend->entries().size(), 1);
        QVERIFY(f.iniBytes().contains("sasl-kept"));
        QVERIFY(!f.iniBytes().contains(test::saslPassword().toUtf8()));
        QVERIFY(f.child<QLabel>("keychainNote")->isHidden());

        // Shown again, the form has no password; test and connect take the keychain's.
        f.fill(QStringLiteral("other"), test::sourceBootstrap());
        QVERIFY(f.dialog.saveConnection());
        QVERIFY(f.dialog.selectConnection(QStringLiteral("sasl-kept")));
        QVERIFY(f.child<QLineEdit>("passwordEdit")->text().isEmpty());
        const auto [ok, message] = f.runTest();
        QVERIFY2(ok, qPrintable(message));
        QVERIFY(!f.child<QInputDialog>("passwordPrompt"));

        QSignalSpy connectSpy(&f.dialog, &ConnectionDialog::connectRequested);
        QTest::mouseClick(f.child<QPushButton>("targetButton"), Qt::LeftButton);
        QTRY_COMPARE(connectSpy.size(), 1);
        QCOMPARE(connectSpy.first().at(0).value<ConnectionDialog::Side>(), ConnectionDialog::Side::Target);
        const auto config = connectSpy.first().at(1).value<ClusterConfig>();
        QCOMPARE(config.saslPassword, test::saslPassword());
        QCOMPARE(config.bootstrap, test::saslBootstrap());

        // Removing the connection deletes its keychain entry.
        f.dialog.removeConnection();
        QTRY_VERIFY(!f.backend->entries().contains(key));
        QVERIFY(!f.store.contains(QStringLiteral("sasl-kept")));
        QVERIFY(!f.iniBytes().contains(test::saslPassword().toUtf8()));
    }

    void noKeychainSaysWhyAndPrompts()
    {
        const QString reason = QStringLiteral("no secret service runs in this test");
        Fixture f(reason);
        QTRY_VERIFY(!f.child<QLabel>("keychainNote")->isHidden());
        QVERIFY2(f.child<QLabel>("keychainNote")->text().contains(reason),
                 qPrintable(f.child<QLabel>("keychainNote")->text()));
        QVERIFY(f.child<QLabel>("keychainNote")->text().contains(QStringLiteral("asks for the password")));

        f.fill(QStringLiteral("sasl-asked"), test::saslBootstrap(), true);
        QVERIFY(!f.child<QCheckBox>("rememberCheck")->isEnabled());
        QVERIFY(f.dialog.saveConnection());

        QSignalSpy connectSpy(&f.dialog, &ConnectionDialog::connectRequested);
        QTest::mouseClick(f.child<QPushButton>("sourceButton"), Qt::LeftButton);
        QTRY_VERIFY(f.child<QInputDialog>("passwordPrompt"));
        QInputDialog *prompt = f.child<QInputDialog>("passwordPrompt");
        QVERIFY2(prompt->labelText().contains(reason), qPrintable(prompt->labelText()));
        QCOMPARE(prompt->textEchoMode(), QLineEdit::Password);
        QVERIFY(connectSpy.isEmpty());
        prompt->setTextValue(test::saslPassword());
        prompt->accept();
        QTRY_COMPARE(connectSpy.size(), 1);
        QCOMPARE(connectSpy.first().at(0).value<ConnectionDialog::Side>(), ConnectionDialog::Side::Source);
        QCOMPARE(connectSpy.first().at(1).value<ClusterConfig>().saslPassword, test::saslPassword());

        // A test connection asks as well, and the answer is used.
        QTRY_VERIFY(!f.child<QInputDialog>("passwordPrompt")); // the first prompt is gone
        QTest::mouseClick(f.child<QPushButton>("testButton"), Qt::LeftButton);
        QTRY_VERIFY(f.child<QInputDialog>("passwordPrompt"));
        QSignalSpy testSpy(&f.dialog, &ConnectionDialog::testFinished);
        f.child<QInputDialog>("passwordPrompt")->setTextValue(test::saslPassword());
        f.child<QInputDialog>("passwordPrompt")->accept();
        QVERIFY(testSpy.wait(12000));
        QVERIFY2(testSpy.first().at(0).toBool(), qPrintable(testSpy.first().at(1).toString()));

        QVERIFY(f.backend->entries().isEmpty());
        QVERIFY(!f.iniBytes().contains(test::saslPassword().toUtf8()));
    }

    // The real QtKeychain backend answers (on a machine without a secret
    // service: unavailable, with a reason) instead of hanging.
    void realKeychainAnswers()
    {
        SecretStore real;
        bool answered = false;
        bool available = false;
        QString reason;
        QElapsedTimer timer;
        timer.start();
        real.checkAvailability([&](bool a, QString r) {
            answered = true;
            available = a;
            reason = r;
        });
        QTRY_VERIFY_WITH_TIMEOUT(answered, 12000);
        QVERIFY(available || !reason.isEmpty());
        qInfo("system keychain: %s after %lld ms%s", available ? "available" : "unavailable", timer.elapsed(),
              qPrintable(reason.isEmpty() ? QString() : QStringLiteral(" (") + reason + QStringLiteral(")")));
    }

    void failureWords_data()
    {
        using Step = ConnectionTestResult::Step;
        QTest::addColumn<Step>("step");
        QTest::addColumn<KafkaError>("error");
        QTest::addColumn<QString>("verdict");
        const KafkaErrorContext tls{true, true};
        QTest::newRow("refused broker")
            << Step::Connect
            << KafkaError::from(RD_KAFKA_RESP_ERR__TRANSPORT,
                                QStringLiteral("127.0.0.1:1: cannot reach the cluster: sasl_plaintext://127.0.0.1:1/"
                                               "bootstrap: Connect to ipv4#127.0.0.1:1 failed: Connection refused"))
            << QStringLiteral("unreachable: no broker answered");
        // The words come from the kind: a message that mentions authentication
        // or SSL does not steer them, and one that mentions neither still gets
        // its kind's words.
        QTest::newRow("refused, reworded")
            << Step::Connect
            << KafkaError::from(RD_KAFKA_RESP_ERR__TRANSPORT,
                                QStringLiteral("h:9093: ssl://h:9093/bootstrap: authentication of nothing"))
            << QStringLiteral("unreachable: no broker answered");
        QTest::newRow("sasl refused") << Step::Connect
                                      << KafkaError::from(RD_KAFKA_RESP_ERR__AUTHENTICATION,
                                                          QStringLiteral("h:9093: the broker said no"))
                                      << QStringLiteral("authentication failed");
        QTest::newRow("tls as transport")
            << Step::Connect
            << KafkaError::from(RD_KAFKA_RESP_ERR__TRANSPORT, QStringLiteral("h:9093: connection closed"), tls)
            << QStringLiteral("TLS failed: the secure connection could not be set up");
        QTest::newRow("tls files") << Step::CreateClient
                                   << KafkaError::withKind(KafkaErrorKind::Tls, RD_KAFKA_RESP_ERR__SSL,
                                                           QStringLiteral("h:9093: bad key"))
                                   << QStringLiteral("TLS failed: the client key or certificates could not be read");
        QTest::newRow("dns") << Step::Connect
                             << KafkaError::from(RD_KAFKA_RESP_ERR__RESOLVE,
                                                 QStringLiteral("nohost:9092: cannot reach the cluster"))
                             << QStringLiteral("unreachable: the host name does not resolve");
        QTest::newRow("timeout") << Step::Connect
                                 << KafkaError::from(RD_KAFKA_RESP_ERR__TIMED_OUT, QStringLiteral("h:9092: slow"))
                                 << QStringLiteral("unreachable: no broker answered in time");
        QTest::newRow("not allowed") << Step::Connect
                                     << KafkaError::from(RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED,
                                                         QStringLiteral("h:9092: no"))
                                     << QStringLiteral("not authorized");
        QTest::newRow("setting") << Step::CreateClient
                                 << KafkaError::from(RD_KAFKA_RESP_ERR__INVALID_ARG,
                                                     QStringLiteral("h:9092: invalid client setting x"))
                                 << QStringLiteral("invalid setting");
    }

    void failureWords()
    {
        QFETCH(ConnectionTestResult::Step, step);
        QFETCH(KafkaError, error);
        QFETCH(QString, verdict);
        const QString text = ConnectionDialog::explainFailure(step, error);
        QVERIFY2(text.startsWith(verdict), qPrintable(text));
        QVERIFY(text.contains(error.message)); // the details stay for the expert
    }

    void invalidFormNamesTheField()
    {
        Fixture f;
        f.fill(QStringLiteral("bad"), QStringLiteral("kafka-without-port"));
        f.child<QPlainTextEdit>("propertiesEdit")->setPlainText(QStringLiteral("sasl.password=oops"));
        QVERIFY(!f.dialog.saveConnection());
        const QString status = f.child<QLabel>("statusLabel")->text();
        QVERIFY2(status.contains(QStringLiteral("bootstrap servers")), qPrintable(status));
        QVERIFY2(status.contains(QStringLiteral("extra property sasl.password")), qPrintable(status));
        QVERIFY(!f.iniBytes().contains("oops"));
    }
};

QTEST_MAIN(TestConnectionDialog)
#include "tst_connectiondialog.moc"
