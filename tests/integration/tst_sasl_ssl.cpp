// SASL_SSL with SCRAM-SHA-512 end to end, as the README's example profile
// configures it: a mirror job, the browser, `check` and `verify` over the sasl
// broker's SASL_SSL listener on both sides, with the password from
// ${env:...}; and each way it goes wrong (wrong password, wrong CA, a
// certificate for another host, an expired one) named in a user's words by
// the connection test, `check` and a run's events, within a bounded time.

#include "saslssl_support.h"

#include "engine/admin/ClusterClient.h"
#include "engine/admin/ClusterProbe.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace md::test;

namespace {

constexpr char kPasswordEnv[] = "MD_SASL_SSL_PASSWORD";
constexpr char kWrongPasswordEnv[] = "MD_SASL_SSL_WRONG_PASSWORD";

// How long a refused connection may take to be reported: librdkafka fails
// the handshake or the authentication on the first connection.
constexpr int kConnectionTestBoundMs = 10000;
constexpr int kCheckBoundMs = 30000;
constexpr int kRunEventBoundMs = 30000;

QString passwordEnv()
{
    return QString::fromLatin1(kPasswordEnv);
}

} // namespace

class TestSaslSsl final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void mirrorCheckAndVerify();
    void browserListsTopics();
    void readmeExampleChecks();
    void failuresNameTheCause_data();
    void failuresNameTheCause();

private:
    QTemporaryDir m_dir;
};

void TestSaslSsl::initTestCase()
{
    MD_REQUIRE_BROKERS_NAMED(QStringLiteral("sasl"), QStringLiteral("sasl-ssl"), QStringLiteral("sasl-ssl-wrong-host"),
                             QStringLiteral("sasl-ssl-expired"));
    MD_REQUIRE_FILE(mirrordeskExe());
    QVERIFY(m_dir.isValid());
    // The children (mirrordesk) inherit it: the profiles say ${env:MD_SASL_SSL_PASSWORD}.
    qputenv(kPasswordEnv, saslPassword().toUtf8());
    qputenv(kWrongPasswordEnv, QByteArrayLiteral("not-the-password"));
}

void TestSaslSsl::mirrorCheckAndVerify()
{
    const ClientProperties client = clientProperties(QStringLiteral("sasl-ssl"));
    const QString servers = saslSslBootstrap();
    const QString topic = uniqueName(QStringLiteral("saslssl"));
    QString error;
    QVERIFY2(createTopic(servers, topic, 3, {}, &error, client), qPrintable(error));
    const QList<TestRecord> written = saslSslRecords(300, 3);
    ProduceOptions produceOptions;
    produceOptions.client = client;
    QVERIFY2(produce(servers, topic, written, &error, produceOptions), qPrintable(error));

    const SaslSslSide side{QStringLiteral("sasl-ssl"), passwordEnv(), {}};
    const QString profile = writeSaslSslProfile(m_dir.path(), QStringLiteral("mirror.mirrorjob"),
                                                uniqueName(QStringLiteral("saslssl-job")), topic, side, side);
    QVERIFY(!profile.isEmpty());

    // check: both sides reachable over SASL_SSL, the topic planned.
    const ExeResult check = runMirrordesk({QStringLiteral("check"), profile}, 60000);
    QVERIFY2(check.exitCode == 0, qPrintable(check.out + check.err));
    QVERIFY2(check.out.contains(QStringLiteral("source src (%1): reachable").arg(servers)), qPrintable(check.out));
    QVERIFY2(check.out.contains(QStringLiteral("target dst (%1): reachable").arg(servers)), qPrintable(check.out));
    QVERIFY2(check.out.contains(topic + QStringLiteral(" (3 partitions) -> src.") + topic), qPrintable(check.out));

    // The run copies every record exactly; an independent librdkafka reader
    // (KafkaTestUtil, not the engine) reads the target back over SASL_SSL.
    const ExeResult run = runMirrordesk({QStringLiteral("run"), profile, QStringLiteral("--until-caught-up")}, 180000);
    QVERIFY2(run.exitCode == 0, qPrintable(run.out.right(3000) + run.err.right(3000)));
    ConsumeOptions consumeOptions;
    consumeOptions.client = client;
    const std::optional<QList<TestRecord>> read =
        consumeAll(servers, QStringLiteral("src.") + topic, &error, consumeOptions);
    QVERIFY2(read, qPrintable(error));
    QVERIFY2(sameRecords(sortedByPartition(written), *read, &error), qPrintable(error));

    // verify compares both sides over SASL_SSL and finds them equal.
    const ExeResult verify = runMirrordesk({QStringLiteral("verify"), profile}, 120000);
    QVERIFY2(verify.exitCode == 0, qPrintable(verify.out + verify.err));
    QVERIFY2(verify.out.count(QLatin1String(" OK")) == 3 && !verify.out.contains(QLatin1String("DIFFERENT")),
             qPrintable(verify.out));
}

void TestSaslSsl::browserListsTopics()
{
    const QString topic = uniqueName(QStringLiteral("saslssl-browse"));
    QString error;
    QVERIFY2(createTopic(saslSslBootstrap(), topic, 2, {}, &error, clientProperties(QStringLiteral("sasl-ssl"))),
             qPrintable(error));

    // What the window's cluster pane does: ClusterClient on its admin thread.
    md::ClusterClient client;
    QSignalSpy ready(&client, &md::ClusterClient::metadataReady);
    QSignalSpy failed(&client, &md::ClusterClient::errorOccurred);
    client.connectTo(clusterConfig(QStringLiteral("sasl-ssl")));
    QVERIFY2(ready.wait(30000) || !ready.isEmpty(),
             qPrintable(failed.isEmpty() ? QStringLiteral("no metadata") : failed.first().first().toString()));
    QCOMPARE(client.state(), md::ClusterClient::State::Connected);
    const md::ClusterMetadata metadata = client.metadata();
    const auto it = std::find_if(metadata.topics.cbegin(), metadata.topics.cend(),
                                 [&](const md::TopicInfo &t) { return t.name == topic; });
    QVERIFY2(it != metadata.topics.cend(), qPrintable(topic));
    QCOMPARE(it->partitions.size(), 2);
    QVERIFY(!metadata.brokers.isEmpty());
}

void TestSaslSsl::readmeExampleChecks()
{
    // The README's example profile, only its addresses, CA files and user
    // pointed at the harness: `check` reaches both sides with it as written.
    QFile readme(QStringLiteral(MIRRORDESK_SOURCE_DIR "/README.md"));
    QVERIFY(readme.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(readme.readAll());
    const qsizetype at = text.indexOf(QLatin1String("## A job profile"));
    QVERIFY(at >= 0);
    const QRegularExpressionMatch block =
        QRegularExpression(QStringLiteral("```json\\n(.*?)```"), QRegularExpression::DotMatchesEverythingOption)
            .match(text, at);
    QVERIFY(block.hasMatch());
    QString json = block.captured(1);
    for (const char *wanted : {"\"security\": \"sasl_ssl\"", "\"mechanism\": \"SCRAM-SHA-512\"", "${env:EU_PASSWORD}",
                               "${env:DR_PASSWORD}", "\"kafka-eu:9092\"", "\"kafka-dr:9093\"", "/etc/ssl/eu-ca.pem",
                               "/etc/ssl/dr-ca.pem", "\"username\": \"mirror\""})
        QVERIFY2(json.contains(QLatin1String(wanted)), wanted);
    QCOMPARE(json.count(QLatin1String("\"security\": \"sasl_ssl\"")), 2);
    const QString ca = jsonEscaped(tlsFile(QStringLiteral("ca.pem")));
    json.replace(QLatin1String("kafka-eu:9092"), saslSslBootstrap())
        .replace(QLatin1String("kafka-dr:9093"), saslSslBootstrap())
        .replace(QLatin1String("/etc/ssl/eu-ca.pem"), ca)
        .replace(QLatin1String("/etc/ssl/dr-ca.pem"), ca)
        .replace(QLatin1String("\"username\": \"mirror\""),
                 QStringLiteral("\"username\": \"%1\"").arg(jsonEscaped(saslUser())));
    qputenv("EU_PASSWORD", saslPassword().toUtf8());
    qputenv("DR_PASSWORD", saslPassword().toUtf8());
    const QString path = m_dir.filePath(QStringLiteral("readme.mirrorjob"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(json.toUtf8());
    f.close();
    const ExeResult check = runMirrordesk({QStringLiteral("check"), path}, 60000);
    QVERIFY2(check.exitCode == 0, qPrintable(check.out + check.err));
    QVERIFY2(check.out.contains(QStringLiteral("source eu (%1): reachable").arg(saslSslBootstrap())),
             qPrintable(check.out));
    QVERIFY2(check.out.contains(QStringLiteral("target dr (%1): reachable").arg(saslSslBootstrap())),
             qPrintable(check.out));
}

void TestSaslSsl::failuresNameTheCause_data()
{
    QTest::addColumn<QString>("listener");
    QTest::addColumn<QString>("passwordVariable");
    QTest::addColumn<QString>("caFile");
    QTest::addColumn<int>("kind");
    // What a user must read, in words, whichever librdkafka code came first.
    QTest::addColumn<QStringList>("words");

    const int auth = int(md::KafkaErrorKind::Authentication);
    const int tls = int(md::KafkaErrorKind::Tls);
    QTest::newRow("wrong password") << QStringLiteral("sasl-ssl") << QString::fromLatin1(kWrongPasswordEnv) << QString()
                                    << auth
                                    << QStringList{QStringLiteral("authentication failed"),
                                                   QStringLiteral("user name or password")};
    QTest::newRow("wrong CA") << QStringLiteral("sasl-ssl") << passwordEnv() << tlsFile(QStringLiteral("other-ca.pem"))
                              << tls
                              << QStringList{QStringLiteral("TLS failed"),
                                             QStringLiteral("not signed by a trusted CA")};
    QTest::newRow("host name mismatch") << QStringLiteral("sasl-ssl-wrong-host") << passwordEnv() << QString() << tls
                                        << QStringList{QStringLiteral("TLS failed"),
                                                       QStringLiteral("does not match the host name")};
    QTest::newRow("expired certificate") << QStringLiteral("sasl-ssl-expired") << passwordEnv() << QString() << tls
                                         << QStringList{QStringLiteral("TLS failed"),
                                                        QStringLiteral("certificate of broker"),
                                                        QStringLiteral("has expired")};
}

void TestSaslSsl::failuresNameTheCause()
{
    QFETCH(QString, listener);
    QFETCH(QString, passwordVariable);
    QFETCH(QString, caFile);
    QFETCH(int, kind);
    QFETCH(QStringList, words);
    const auto hasWords = [&](const QString &text) {
        return std::all_of(words.cbegin(), words.cend(), [&](const QString &w) { return text.contains(w); });
    };

    // The connection test (the dialog's "Test connection" and the browser's connect).
    md::ClusterConfig config = clusterConfig(listener);
    if (passwordVariable != passwordEnv())
        config.saslPassword = qEnvironmentVariable(passwordVariable.toLatin1().constData());
    if (!caFile.isEmpty())
        config.sslCaFile = caFile;
    QElapsedTimer timer;
    timer.start();
    const md::ConnectionTestResult test = md::testConnection(config, kConnectionTestBoundMs);
    QVERIFY2(!test.ok(), "connected although it must not");
    QVERIFY2(timer.elapsed() < kConnectionTestBoundMs + 2000, qPrintable(QString::number(timer.elapsed())));
    QVERIFY2(int(test.error.kind) == kind,
             qPrintable(md::kafkaErrorKindName(test.error.kind) + QStringLiteral(": ") + test.error.message));
    QVERIFY2(hasWords(test.error.message), qPrintable(test.error.message));
    QVERIFY2(test.error.message.contains(config.bootstrap), qPrintable(test.error.message));

    // check: the failing side is unreachable, and says why.
    const SaslSslSide bad{listener, passwordVariable, caFile};
    const SaslSslSide good{QStringLiteral("sasl-ssl"), passwordEnv(), {}};
    const QString topic = uniqueName(QStringLiteral("saslssl-bad"));
    const QString profile = writeSaslSslProfile(m_dir.path(), QStringLiteral("bad.mirrorjob"),
                                                uniqueName(QStringLiteral("saslssl-bad-job")), topic, bad, good);
    timer.restart();
    const ExeResult check = runMirrordesk({QStringLiteral("check"), profile}, kCheckBoundMs + 10000);
    QVERIFY2(timer.elapsed() < kCheckBoundMs, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(check.exitCode, 2);
    QVERIFY2(check.out.contains(QLatin1String("source src (")) && check.out.contains(QLatin1String("UNREACHABLE")),
             qPrintable(check.out));
    QVERIFY2(hasWords(check.out) && hasWords(check.err), qPrintable(check.out + check.err));

    // A run: an error event on stderr names the cause (whether the run
    // keeps retrying or gives up).
    MirrorRun run(QStringLiteral("bad run"));
    QVERIFY(run.start({QStringLiteral("run"), profile}));
    const auto named = [&] {
        const QStringList lines = run.err().split(QLatin1Char('\n'));
        return std::any_of(lines.cbegin(), lines.cend(), [&](const QString &l) {
            return l.startsWith(QLatin1String("error: ")) && l.contains(QLatin1String("source")) && hasWords(l);
        });
    };
    QVERIFY2(MirrorRun::waitUntil([&] { return named() || run.finished(); }, kRunEventBoundMs) && named(),
             qPrintable(run.transcript()));
    if (run.running())
        QVERIFY2(run.stop(60000), qPrintable(run.transcript()));
}

QTEST_GUILESS_MAIN(TestSaslSsl)
#include "tst_sasl_ssl.moc"
