// The schema registry over https with a TLS CA file, against the real Apicurio
// Registry of the harness (one JVM serving http and https; its certificate for
// 127.0.0.1 signed by the harness's test CA, tls.sh) and the real "source" and
// "target" brokers: with the CA the subjects list and a record decodes; without
// it, with another CA or a CA file that is not there, a TLS error that says
// what to fix and shows the URL without its userinfo; `mirrordesk check` with
// the CA file in the profile (relative to it) compares the registries, and
// without it says why it could not.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "RegistryTestEnv.h"
#include "check_support.h"
#include "engine/admin/AdminService.h"
#include "engine/schema/SchemaRegistryClient.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTest>
#include <QUrl>

using namespace md;
using namespace md::test;

namespace {

// Unique per run (the doc): Apicurio's ids are content ids, and a schema
// registered before under another subject would name that subject.
QByteArray orderSchema(const QString &doc)
{
    return R"({"type":"record","name":"Order","namespace":"md.tls","doc":")" + doc.toUtf8() +
           R"(","fields":[{"name":"id","type":"long"}]})";
}

QByteArray wire(int id, const QByteArray &payload)
{
    QByteArray b(5, '\0');
    for (int i = 0; i < 4; ++i)
        b[4 - i] = char((id >> (8 * i)) & 0xff);
    return b + payload;
}

// The URL with userinfo that must never be shown.
QString withUserinfo(const QString &url)
{
    QUrl u(url);
    u.setUserName(QStringLiteral("tls-user"));
    u.setPassword(QStringLiteral("pw-never-shown"));
    return u.toString();
}

} // namespace

class TstRegistryTls final : public QObject, private CheckFixture {
    Q_OBJECT

    QString m_https;
    QString m_subject; // <orders>-value, registered once
    int m_id = 0;

    SchemaRegistryConfig https(const QString &caFile) const
    {
        return SchemaRegistryConfig{.url = m_https, .caFile = caFile};
    }

    // The first record of <orders> partition 0 as the browser reads it with this registry.
    KafkaMessage readFirst(const SchemaRegistryConfig &registry)
    {
        ClusterConfig cluster = clusterConfig(QStringLiteral("source"));
        cluster.schemaRegistry = registry;
        QString error;
        auto admin = AdminService::create(cluster, &error);
        if (!admin)
            return {};
        MessageQuery q;
        q.topic = m_orders;
        q.partition = 0;
        q.mode = MessageQuery::Mode::FromOffset;
        q.maxMessages = 1;
        const auto read = admin->readMessages(q);
        return read.ok() && !read.value.isEmpty() ? read.value.first() : KafkaMessage{};
    }

    QString profile(const QString &name, const QString &ca)
    {
        const QString registry =
            ca.isEmpty() ? QStringLiteral(R"("schemaRegistry": {"url": "%1"})").arg(m_https)
                         : QStringLiteral(R"("schemaRegistry": {"url": "%1", "ca": "%2"})").arg(m_https, ca);
        return writeProfile(name, QStringLiteral(R"({"mirrordesk": 1, "name": "registry over https",
            "source": {"alias": "eu", "bootstrap": "%1", %2},
            "target": {"alias": "dr", "bootstrap": "%3", %2},
            "topics": {"include": ["%4\\.orders"]},
            "naming": {"policy": "identity"}, "start": "earliest", "createTopics": true})")
                                      .arg(sourceBootstrap(), registry, targetBootstrap(), m_base)
                                      .toUtf8());
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        MD_REQUIRE_REGISTRY();
        MD_REQUIRE_REGISTRY_HTTPS();
        m_https = registryHttpsUrl();
        QVERIFY2(m_https.startsWith(QLatin1String("https://")), qPrintable(m_https));
        createTopics();
        // Registered over http: the same registry answers over https.
        m_subject = m_orders + QStringLiteral("-value");
        RegistryError error;
        const std::optional<int> id =
            SchemaRegistryClient(SchemaRegistryConfig{.url = registryUrl()})
                .registerSchema(m_subject, QStringLiteral("AVRO"), orderSchema(m_base), {}, &error);
        QVERIFY2(id, qPrintable(error.message));
        m_id = *id;
        TestRecord r;
        r.key = "k";
        r.value = wire(m_id, QByteArray(1, char(84))); // {"id": 42}: zigzag 84
        r.partition = 0;
        QString problem;
        QVERIFY2(produce(sourceBootstrap(), m_orders, {r}, &problem), qPrintable(problem));
    }

    void withTheCaSubjectsListAndARecordDecodes()
    {
        SchemaRegistryClient client(https(registryTlsFile(QStringLiteral("ca.pem"))));
        RegistryError error;
        const std::optional<QStringList> subjects = client.subjects(&error);
        QVERIFY2(subjects, qPrintable(error.message));
        QVERIFY2(subjects->contains(m_subject), qPrintable(subjects->join(QLatin1Char(','))));
        const RegistryProbe probe = probeSchemaRegistry(https(registryTlsFile(QStringLiteral("ca.pem"))), 5000);
        QVERIFY2(probe.ok(), qPrintable(probe.error.message));

        const KafkaMessage m = readFirst(https(registryTlsFile(QStringLiteral("ca.pem"))));
        QCOMPARE(m.valueDecoded.error, QString());
        QCOMPARE(m.valueDecoded.status, DecodedPart::Status::Decoded);
        QCOMPARE(m.valueDecoded.json, QByteArray(R"({"id":42})"));
        QCOMPARE(m.valueDecoded.subject, m_subject);
    }

    void untrustedIsATlsError_data()
    {
        QTest::addColumn<QString>("caFile");
        QTest::addColumn<QString>("says");
        QTest::newRow("no CA file: the system's CAs")
            << QString() << QStringLiteral("certificate the system's CAs do not trust");
        QTest::newRow("another CA") << registryTlsFile(QStringLiteral("other-ca.pem"))
                                    << QStringLiteral("certificate the CA file %1 does not trust")
                                           .arg(registryTlsFile(QStringLiteral("other-ca.pem")));
        const QString missing = registryTlsFile(QStringLiteral("no-such-ca.pem"));
        QTest::newRow("a CA file that is not there")
            << missing << QStringLiteral("The TLS CA file %1 of the schema registry at ").arg(missing);
    }

    void untrustedIsATlsError()
    {
        QFETCH(QString, caFile);
        QFETCH(QString, says);
        SchemaRegistryConfig config = https(caFile);
        config.url = withUserinfo(m_https);
        SchemaRegistryClient client(config, 5000);
        RegistryError error;
        QElapsedTimer timer;
        timer.start();
        QVERIFY(!client.subjects(&error));
        QVERIFY2(timer.elapsed() < 4000, qPrintable(QString::number(timer.elapsed()))); // refused, not timed out
        QCOMPARE(error.kind, RegistryError::Kind::Tls);
        QVERIFY2(error.message.contains(says), qPrintable(error.message));
        QVERIFY2(error.message.contains(QLatin1String("TLS")), qPrintable(error.message));
        QVERIFY2(error.message.contains(m_https + QStringLiteral("/subjects")), qPrintable(error.message));
        QVERIFY2(!error.message.contains(QLatin1String("pw-never-shown")) &&
                     !error.message.contains(QLatin1String("tls-user")),
                 qPrintable(error.message));

        // The browser shows the record's bytes with the reason.
        const KafkaMessage m = readFirst(config);
        QCOMPARE(m.valueDecoded.status, DecodedPart::Status::Failed);
        QVERIFY2(m.valueDecoded.error.startsWith(QLatin1String("the schema registry could not be trusted: ")),
                 qPrintable(m.valueDecoded.error));
        QVERIFY2(m.valueDecoded.error.contains(says), qPrintable(m.valueDecoded.error));
        QVERIFY2(!m.valueDecoded.error.contains(QLatin1String("pw-never-shown")), qPrintable(m.valueDecoded.error));
        QCOMPARE(m.value, std::optional<QByteArray>(wire(m_id, QByteArray(1, char(84)))));
    }

    void checkWithTheCaFileInTheProfile()
    {
        MD_REQUIRE_FILE(kExe);
        // Relative to the profile's folder.
        QVERIFY(
            QFile::copy(registryTlsFile(QStringLiteral("ca.pem")), m_dir.filePath(QStringLiteral("registry-ca.pem"))));
        const Run r = runCheck(profile(QStringLiteral("https.mirrorjob"), QStringLiteral("registry-ca.pem")));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("schemas: 1 subject, 1 id compared: the target registry has every one")),
                 qPrintable(r.out));
    }

    void checkWithoutTheCaSaysWhy()
    {
        MD_REQUIRE_FILE(kExe);
        const Run r = runCheck(profile(QStringLiteral("no-ca.mirrorjob"), QString()));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err)); // the registries are a warning, not a failure
        QVERIFY2(r.out.contains(QStringLiteral("schemas: not compared (a registry could not be read)")),
                 qPrintable(r.out));
        const QString note = QStringLiteral("source registry %1 not compared: The schema registry at %1/subjects "
                                            "answered over TLS with a certificate the system's CAs do not trust")
                                 .arg(m_https);
        QVERIFY2(r.out.contains(note), qPrintable(r.out));
    }
};

QTEST_GUILESS_MAIN(TstRegistryTls)
#include "tst_registry_tls.moc"
