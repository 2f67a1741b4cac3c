// Secrets never leave in clear: after a SASL_SSL run with the password set
// through ${env:...}, nothing the program wrote or served holds it: the run's
// stdout and stderr (progress and events), the Prometheus endpoint, an MM2
// export, a saved profile, check and verify, a failing run with a wrong
// password, the output of a crashed run, and every file under the private
// HOME and XDG directories the children ran with (settings, logs, caches).
// The scanner is tested first on planted copies, so a leak cannot pass by
// a scanner that finds nothing.

#include "metrics_scrape.h"
#include "saslssl_support.h"

#include "model/profile/JobProfile.h"

#include <QDirIterator>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <sys/resource.h>

using namespace md::test;

namespace {

constexpr char kPasswordEnv[] = "MD_LEAK_PASSWORD";
constexpr char kWrongPasswordEnv[] = "MD_LEAK_WRONG_PASSWORD";

struct Artefact {
    QString name;
    QByteArray bytes;
};

// The forms a secret could leak in: as is, base64 (SASL PLAIN, HTTP basic
// auth, a JSON blob) and hex.
QList<QPair<QString, QByteArray>> leakForms(const QByteArray &secret)
{
    return {{QStringLiteral("clear"), secret},
            {QStringLiteral("base64"), secret.toBase64(QByteArray::OmitTrailingEquals)},
            {QStringLiteral("hex"), secret.toHex()}};
}

// Every regular file under dir, hidden ones included.
QList<Artefact> filesUnder(const QString &dir)
{
    QList<Artefact> files;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        files.append({path, f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>")});
    }
    return files;
}

// "artefact: secret N (form)" for every place a secret appears.
QStringList findSecrets(const QList<Artefact> &artefacts, const QByteArrayList &secrets)
{
    QStringList found;
    for (const Artefact &a : artefacts) {
        for (qsizetype i = 0; i < secrets.size(); ++i) {
            for (const auto &[form, needle] : leakForms(secrets[i])) {
                if (a.bytes.contains(needle))
                    found << QStringLiteral("%1: secret %2 (%3)").arg(a.name).arg(i).arg(form);
            }
        }
    }
    return found;
}

} // namespace

class TestSecretLeak final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void scannerFindsPlantedSecrets();
    void noSecretAnywhere();

private:
    QByteArrayList secrets() const { return {m_password, m_wrongPassword}; }
    QTemporaryDir m_dir;
    QByteArray m_password;
    QByteArray m_wrongPassword;
};

void TestSecretLeak::initTestCase()
{
    MD_REQUIRE_BROKERS_NAMED(QStringLiteral("sasl"), QStringLiteral("sasl-ssl"));
    MD_REQUIRE_FILE(mirrordeskExe());
    QVERIFY(m_dir.isValid());
    m_password = saslPassword().toUtf8();
    m_wrongPassword = QByteArrayLiteral("wrong-") + QByteArray::number(QRandomGenerator::global()->generate64(), 36);
    qputenv(kPasswordEnv, m_password);
    qputenv(kWrongPasswordEnv, m_wrongPassword);
    // The children keep whatever they write for themselves (settings, logs,
    // caches) where the scan looks, and log everything Qt can.
    const QString home = m_dir.filePath(QStringLiteral("home"));
    for (const char *var :
         {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"}) {
        const QString path = home + QLatin1Char('/') + QString::fromLatin1(var).toLower();
        QVERIFY(QDir().mkpath(path));
        QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        qputenv(var, path.toUtf8());
    }
    qputenv("HOME", home.toUtf8());
    QVERIFY(QDir().mkpath(home + QStringLiteral("/tmp")));
    qputenv("TMPDIR", (home + QStringLiteral("/tmp")).toUtf8());
    qputenv("QT_LOGGING_RULES", "*.debug=true");
}

void TestSecretLeak::scannerFindsPlantedSecrets()
{
    // Each form of each secret, in memory and in a hidden file deep down, is found.
    QTemporaryDir planted;
    QVERIFY(planted.isValid());
    QVERIFY(QDir().mkpath(planted.filePath(QStringLiteral("a/.b"))));
    QFile f(planted.filePath(QStringLiteral("a/.b/blob.bin")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray("\x00\x01garbage", 9) + m_wrongPassword.toBase64(QByteArray::OmitTrailingEquals) + "\xff");
    f.close();
    QList<Artefact> artefacts = filesUnder(planted.path());
    artefacts.append({QStringLiteral("stdout"), "progress ... " + m_password + " ..."});
    artefacts.append({QStringLiteral("clean"), QByteArrayLiteral("nothing to see")});
    const QStringList found = findSecrets(artefacts, secrets());
    QCOMPARE(found.size(), 2);
    QVERIFY2(found[0].endsWith(QLatin1String("blob.bin: secret 1 (base64)")),
             qPrintable(found.join(QLatin1Char('\n'))));
    QCOMPARE(found[1], QStringLiteral("stdout: secret 0 (clear)"));
}

void TestSecretLeak::noSecretAnywhere()
{
    const QString work = m_dir.filePath(QStringLiteral("work"));
    QVERIFY(QDir().mkpath(work));
    const ClientProperties client = clientProperties(QStringLiteral("sasl-ssl"));
    const QString topic = uniqueName(QStringLiteral("leak"));
    QString error;
    QVERIFY2(createTopic(saslSslBootstrap(), topic, 2, {}, &error, client), qPrintable(error));
    ProduceOptions produceOptions;
    produceOptions.client = client;
    QVERIFY2(produce(saslSslBootstrap(), topic, saslSslRecords(100, 2), &error, produceOptions), qPrintable(error));

    const SaslSslSide side{QStringLiteral("sasl-ssl"), QString::fromLatin1(kPasswordEnv), {}};
    const QString profile = writeSaslSslProfile(work, QStringLiteral("leak.mirrorjob"),
                                                uniqueName(QStringLiteral("leak-job")), topic, side, side);
    QList<Artefact> artefacts;
    const auto keep = [&](const QString &what, const ExeResult &r) {
        artefacts.append({what + QStringLiteral(" stdout"), r.out.toUtf8()});
        artefacts.append({what + QStringLiteral(" stderr"), r.err.toUtf8()});
    };

    // A run serving metrics: scraped once it has copied everything.
    const quint16 port = freePort();
    QVERIFY(port != 0);
    {
        MirrorRun run(QStringLiteral("run"));
        QVERIFY(run.start({QStringLiteral("run"), profile, QStringLiteral("--metrics-port"), QString::number(port)}));
        QVERIFY2(MirrorRun::waitUntil([&] { return run.caughtUp() || run.finished(); }, 120000),
                 qPrintable(run.transcript()));
        const QByteArray metrics = scrapeMetrics(port);
        QVERIFY2(metrics.contains("mirrordesk_"), metrics.constData()); // the scrape did read the metrics
        artefacts.append({QStringLiteral("metrics"), metrics});
        QVERIFY2(run.stop(), qPrintable(run.transcript()));
        artefacts.append({QStringLiteral("run stdout"), run.out().toUtf8()});
        artefacts.append({QStringLiteral("run stderr"), run.err().toUtf8()});
    }

    keep(QStringLiteral("check"), runMirrordesk({QStringLiteral("check"), profile}, 60000));
    keep(QStringLiteral("verify"), runMirrordesk({QStringLiteral("verify"), profile}, 120000));

    // Exports and a saved profile land in `work`, which the file scan covers.
    const QString mm2 = QDir(work).filePath(QStringLiteral("mm2.properties"));
    const QString connector = QDir(work).filePath(QStringLiteral("connector.json"));
    keep(QStringLiteral("export-mm2"),
         runMirrordesk({QStringLiteral("export-mm2"), profile, QStringLiteral("--output"), mm2}, 30000));
    keep(QStringLiteral("export-mm2 --connect"),
         runMirrordesk({QStringLiteral("export-mm2"), profile, QStringLiteral("--connect"), QStringLiteral("--output"),
                        connector},
                       30000));
    for (const QString &path : {mm2, connector}) {
        QFile f(path);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
        // The credentials were exported (as references), so the scan means something.
        QVERIFY2(f.readAll().contains(saslUser().toUtf8()), qPrintable(path));
    }
    QList<md::ProfileIssue> issues;
    const std::optional<md::JobProfile> loaded = md::JobProfile::load(profile, &issues);
    QVERIFY(loaded);
    QVERIFY2(loaded->save(QDir(work).filePath(QStringLiteral("saved.mirrorjob")), &error), qPrintable(error));

    // A wrong password: check and a run's events name the failure, not the password.
    const SaslSslSide wrong{QStringLiteral("sasl-ssl"), QString::fromLatin1(kWrongPasswordEnv), {}};
    const QString wrongProfile = writeSaslSslProfile(work, QStringLiteral("wrong.mirrorjob"),
                                                     uniqueName(QStringLiteral("leak-wrong")), topic, wrong, side);
    const ExeResult wrongCheck = runMirrordesk({QStringLiteral("check"), wrongProfile}, 60000);
    QVERIFY2(wrongCheck.out.contains(QLatin1String("authentication failed")), qPrintable(wrongCheck.out));
    keep(QStringLiteral("check with a wrong password"), wrongCheck);
    {
        MirrorRun run(QStringLiteral("wrong run"));
        QVERIFY(run.start({QStringLiteral("run"), wrongProfile}));
        QVERIFY2(
            MirrorRun::waitUntil(
                [&] { return run.err().contains(QLatin1String("authentication failed")) || run.finished(); }, 30000),
            qPrintable(run.transcript()));
        run.stop();
        artefacts.append({QStringLiteral("wrong run stdout"), run.out().toUtf8()});
        artefacts.append({QStringLiteral("wrong run stderr"), run.err().toUtf8()});
    }

    // A crash: what an aborted run prints (no core file: that is a memory image).
    {
        QProcess crash;
        crash.setWorkingDirectory(work);
        crash.setChildProcessModifier([] {
            const rlimit none{0, 0};
            setrlimit(RLIMIT_CORE, &none);
        });
        crash.start(mirrordeskExe(), {QStringLiteral("run"), profile});
        QVERIFY(crash.waitForStarted(30000));
        QTest::qWait(3000); // connected and running
        ::kill(pid_t(crash.processId()), SIGABRT);
        const ExeResult r = finishProcess(crash, 30000);
        QVERIFY2(crash.exitStatus() == QProcess::CrashExit, qPrintable(r.err));
        keep(QStringLiteral("crashed run"), r);
    }

    artefacts += filesUnder(m_dir.path());
    QVERIFY(artefacts.size() > 20);
    const QStringList found = findSecrets(artefacts, secrets());
    QVERIFY2(found.isEmpty(), qPrintable(QStringLiteral("secrets leaked:\n") + found.join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(TestSecretLeak)
#include "tst_secret_leak.moc"
