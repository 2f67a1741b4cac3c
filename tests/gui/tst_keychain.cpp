// The real system keychain, no in-memory stand-in. CTest runs this binary
// twice through tests/common/keychain-env.sh (MD_KEYCHAIN_TEST):
//  - session: a private dbus-run-session with gnome-keyring-daemon's secret
//    service. The connection dialog's save path puts the SASL password into the
//    keychain (read back with secret-tool, an independent reader of the secret
//    service) and nowhere else, and connects with it; `mirrordesk run` of a
//    profile whose password is "${keychain:...}" (written there by secret-tool)
//    resolves it and mirrors from the SASL broker.
//  - none: no session bus at all. The dialog says why there is no keychain and
//    saves no password anywhere, and `run` fails with a message that names the
//    key path and the keychain's reason.
// Either way HOME is a fresh directory that the test searches for the password.
#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "ProcessTestUtil.h"
#include "model/cluster/ConnectionStore.h"
#include "ui/connections/ConnectionDialog.h"
#include "ui/connections/SecretStore.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDirIterator>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace md;

namespace {

QString mode()
{
    return qEnvironmentVariable("MD_KEYCHAIN_MODE");
}

// What secret-tool finds for a MirrorDesk key: QtKeychain's libsecret backend
// keeps the service as "server" and the key as "user". nullopt: nothing stored.
std::optional<QString> lookup(const QString &key)
{
    const test::ExeResult r = test::runProcess(
        QStringLiteral("secret-tool"),
        {QStringLiteral("lookup"), QStringLiteral("server"), QStringLiteral("MirrorDesk"), QStringLiteral("user"), key},
        15000);
    if (r.exitCode != 0)
        return std::nullopt;
    return r.out;
}

bool store(const QString &key, const QString &secret, QString *error)
{
    QProcess p;
    p.start(QStringLiteral("secret-tool"),
            {QStringLiteral("store"), QStringLiteral("--label=MirrorDesk test"), QStringLiteral("server"),
             QStringLiteral("MirrorDesk"), QStringLiteral("user"), key, QStringLiteral("type"),
             QStringLiteral("plaintext")});
    p.write(secret.toUtf8());
    p.closeWriteChannel();
    const test::ExeResult r = test::finishProcess(p, 15000);
    *error = r.err;
    return r.exitCode == 0;
}

// Every file under HOME (the keyring files included) that holds `needle` in clear.
QStringList filesUnderHomeWith(const QByteArray &needle)
{
    QStringList hits;
    QDirIterator it(qEnvironmentVariable("MD_KEYCHAIN_HOME"), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile f(it.next());
        if (f.open(QIODevice::ReadOnly) && f.readAll().contains(needle))
            hits << f.fileName();
    }
    return hits;
}

struct DialogFixture {
    QTemporaryDir dir;
    QString ini = dir.filePath(QStringLiteral("settings.ini"));
    ConnectionStore store{ini};
    SecretStore secrets; // the real keychain (QtKeychainBackend)
    ConnectionDialog dialog{&store, &secrets};

    DialogFixture() { dialog.setConfirmRemovals(false); }

    template <typename T> T *child(const char *name) { return dialog.findChild<T *>(QString::fromLatin1(name)); }

    void fillSasl(const QString &name, const QString &password)
    {
        dialog.addConnection();
        child<QLineEdit>("nameEdit")->setText(name);
        child<QLineEdit>("bootstrapEdit")->setText(test::saslBootstrap());
        auto *security = child<QComboBox>("securityCombo");
        security->setCurrentIndex(security->findText(QStringLiteral("SASL_PLAINTEXT")));
        auto *mech = child<QComboBox>("mechanismCombo");
        mech->setCurrentIndex(mech->findText(QString::fromLatin1(test::kSaslMechanism)));
        child<QLineEdit>("userEdit")->setText(test::saslUser());
        child<QLineEdit>("passwordEdit")->setText(password);
    }

    QByteArray iniBytes()
    {
        store.sync();
        QFile f(ini);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
};

} // namespace

// Each test belongs to one mode; run by hand outside keychain-env.sh it skips
// (fails under CI=true: CI must never pass by skipping).
#define MD_REQUIRE_KEYCHAIN_MODE(wanted)                                                                               \
    do {                                                                                                               \
        if (mode().isEmpty()) {                                                                                        \
            if (test::isCi())                                                                                          \
                QFAIL("run through tests/common/keychain-env.sh (ctest -R gui/tst_keychain)");                         \
            QSKIP("run through tests/common/keychain-env.sh (ctest -R gui/tst_keychain)");                             \
        }                                                                                                              \
        if (mode() != QLatin1String(wanted))                                                                           \
            QSKIP("belongs to the other keychain mode");                                                               \
    } while (false)

class TestKeychain final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    // A profile mirroring `topic` from the sasl broker (password as given) to the target broker.
    QString writeProfile(const QString &topic, const QString &password)
    {
        const QString path = m_dir.filePath(topic + QStringLiteral(".mirrorjob"));
        const QString json =
            QStringLiteral(
                "{\"mirrordesk\": 1, \"name\": \"%1\",\n"
                " \"source\": {\"alias\": \"src\", \"bootstrap\": \"%2\", \"security\": \"sasl_plaintext\",\n"
                "   \"sasl\": {\"mechanism\": \"%3\", \"username\": \"%4\", \"password\": \"%5\"}},\n"
                " \"target\": {\"alias\": \"dst\", \"bootstrap\": \"%6\"},\n"
                " \"topics\": {\"include\": [\"%1\"]}, \"start\": \"earliest\"}\n")
                .arg(topic, test::saslBootstrap(), QString::fromLatin1(test::kSaslMechanism), test::saslUser(),
                     password, test::targetBootstrap());
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(json.toUtf8()) < 0)
            return {};
        return path;
    }

    // A topic on the sasl broker holding `count` records.
    bool sourceTopic(const QString &topic, int count, QString *error)
    {
        const test::ClientProperties sasl = test::clientProperties(QStringLiteral("sasl"));
        if (!test::createTopic(test::saslBootstrap(), topic, 1, {}, error, sasl))
            return false;
        QList<test::TestRecord> records;
        for (int i = 0; i < count; ++i) {
            test::TestRecord r;
            r.value = QByteArray("record-") + QByteArray::number(i);
            records.append(r);
        }
        test::ProduceOptions options;
        options.client = sasl;
        return test::produce(test::saslBootstrap(), topic, records, error, options);
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("sasl"), QStringLiteral("target"));
        MD_REQUIRE_FILE(test::mirrordeskExe());
        QVERIFY(m_dir.isValid());
    }

    void dialogSavesThePasswordInTheKeychain()
    {
        MD_REQUIRE_KEYCHAIN_MODE("session");
        DialogFixture f;
        QTRY_COMPARE_WITH_TIMEOUT(f.secrets.availability(), SecretStore::Availability::Available, 12000);
        QVERIFY(f.child<QLabel>("keychainNote")->isHidden());

        const QString name = test::uniqueName(QStringLiteral("kc"));
        const QString key = SecretStore::connectionPasswordKey(name);
        QVERIFY(!lookup(key));
        f.fillSasl(name, test::saslPassword());
        QVERIFY(f.child<QCheckBox>("rememberCheck")->isEnabled());
        QVERIFY(f.child<QCheckBox>("rememberCheck")->isChecked());
        QVERIFY(f.dialog.saveConnection());
        // "Saved. Storing the password in the system keychain…" until the keychain answers.
        QTRY_VERIFY2_WITH_TIMEOUT(
            f.child<QLabel>("statusLabel")->text().contains(QStringLiteral("is in the system keychain")),
            qPrintable(f.child<QLabel>("statusLabel")->text()), 12000);

        // The secret service holds it, read by another program; the settings and
        // the keyring files do not hold it in clear.
        QCOMPARE(lookup(key), std::optional<QString>(test::saslPassword()));
        QVERIFY(f.iniBytes().contains(name.toUtf8()));
        QVERIFY(!f.iniBytes().contains(test::saslPassword().toUtf8()));
        QCOMPARE(filesUnderHomeWith(test::saslPassword().toUtf8()), QStringList());

        // Shown again (after another connection) the form is empty; a test connection takes the keychain's password.
        f.dialog.addConnection();
        f.child<QLineEdit>("nameEdit")->setText(name + QStringLiteral("-other"));
        f.child<QLineEdit>("bootstrapEdit")->setText(test::targetBootstrap());
        QVERIFY(f.dialog.saveConnection());
        QVERIFY(f.dialog.selectConnection(name));
        QVERIFY(f.child<QLineEdit>("passwordEdit")->text().isEmpty());
        QSignalSpy testSpy(&f.dialog, &ConnectionDialog::testFinished);
        QTest::mouseClick(f.child<QPushButton>("testButton"), Qt::LeftButton);
        QVERIFY(testSpy.wait(20000));
        QVERIFY2(testSpy.first().at(0).toBool(), qPrintable(testSpy.first().at(1).toString()));

        // Removing the connection removes the keychain entry.
        f.dialog.removeConnection();
        QTRY_VERIFY_WITH_TIMEOUT(!lookup(key), 12000);
    }

    void runResolvesAKeychainReference()
    {
        MD_REQUIRE_KEYCHAIN_MODE("session");
        const QString topic = test::uniqueName(QStringLiteral("kcrun"));
        const QString key = QStringLiteral("job/") + topic;
        QString error;
        QVERIFY2(store(key, test::saslPassword(), &error), qPrintable(error));
        QVERIFY2(sourceTopic(topic, 50, &error), qPrintable(error));
        const QString profile = writeProfile(topic, QStringLiteral("${keychain:") + key + QLatin1Char('}'));
        QVERIFY(!profile.isEmpty());

        const test::ExeResult run =
            test::runMirrordesk({QStringLiteral("run"), profile, QStringLiteral("--until-caught-up")}, 120000);
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY2(!run.out.contains(test::saslPassword()) && !run.err.contains(test::saslPassword()),
                 qPrintable(run.out + run.err));
        const auto marks = test::watermarks(test::targetBootstrap(), QStringLiteral("src.") + topic, &error);
        QVERIFY2(marks, qPrintable(error));
        QCOMPARE(test::totalMessages(*marks), qint64(50));

        // A reference to a key the keychain does not hold: a clear error, no run.
        const QString missing = writeProfile(topic + QStringLiteral("-missing"),
                                             QStringLiteral("${keychain:job/") + topic + QStringLiteral("-absent}"));
        const test::ExeResult refused = test::runMirrordesk({QStringLiteral("run"), missing}, 60000);
        QVERIFY2(refused.exitCode != 0 && refused.exitCode != -1, qPrintable(refused.out + refused.err));
        QVERIFY2(refused.err.contains(QStringLiteral("source.sasl.password")), qPrintable(refused.err));
        QVERIFY2(refused.err.contains(QStringLiteral("keychain")), qPrintable(refused.err));
    }

    void withoutKeychainNothingIsStored()
    {
        MD_REQUIRE_KEYCHAIN_MODE("none");
        DialogFixture f;
        QTRY_COMPARE_WITH_TIMEOUT(f.secrets.availability(), SecretStore::Availability::Unavailable, 12000);
        QVERIFY(!f.secrets.unavailableReason().isEmpty());
        QTRY_VERIFY(!f.child<QLabel>("keychainNote")->isHidden());
        const QString note = f.child<QLabel>("keychainNote")->text();
        QVERIFY2(note.contains(f.secrets.unavailableReason()), qPrintable(note));

        const QString name = test::uniqueName(QStringLiteral("kcnone"));
        f.fillSasl(name, test::saslPassword());
        QVERIFY(!f.child<QCheckBox>("rememberCheck")->isEnabled());
        QVERIFY(f.dialog.saveConnection());
        QVERIFY(f.iniBytes().contains(name.toUtf8()));
        QVERIFY(!f.iniBytes().contains(test::saslPassword().toUtf8()));
        QCOMPARE(filesUnderHomeWith(test::saslPassword().toUtf8()), QStringList());
    }

    void withoutKeychainRunSaysWhy()
    {
        MD_REQUIRE_KEYCHAIN_MODE("none");
        const QString topic = test::uniqueName(QStringLiteral("kcnone"));
        const QString profile = writeProfile(topic, QStringLiteral("${keychain:job/") + topic + QLatin1Char('}'));
        QVERIFY(!profile.isEmpty());
        const test::ExeResult run = test::runMirrordesk({QStringLiteral("run"), profile}, 60000);
        QVERIFY2(run.exitCode != 0 && run.exitCode != -1, qPrintable(run.out + run.err));
        QVERIFY2(run.err.contains(QStringLiteral("source.sasl.password")), qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("keychain")), qPrintable(run.err));
        QVERIFY2(!run.out.contains(QStringLiteral("running")), qPrintable(run.out));
    }
};

QTEST_MAIN(TestKeychain)
#include "tst_keychain.moc"
