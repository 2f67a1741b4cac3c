// Job profiles resolved into the engine's spec: toSpec() with its env,
// keychain and file references and its errors, the ACL sync settings, the group id derived from the
// job name, and the ${kind:arg} reference syntax.

#include "JobProfileTestUtil.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace md;
using namespace md::test;

// No raw string literals below: moc (6.4) loses the class on some of them.
class TstProfileResolve final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // ------------------------------------------------------------ resolving into the engine's spec

    void toSpecResolvesReferences()
    {
        qputenv("MD_TST_EU_PASSWORD", "s3cret-from-env");
        qputenv("MD_TST_HOST", "kafka-eu.example");
        QTemporaryDir dir;
        QFile ca(dir.filePath(QStringLiteral("ca.pem")));
        QVERIFY(ca.open(QIODevice::WriteOnly));
        ca.write("not really a certificate");
        ca.close();

        JobProfile p;
        p.fileName = dir.filePath(QStringLiteral("job.mirrorjob"));
        p.name = QStringLiteral("Orders → DR (eu)");
        p.source.alias = QStringLiteral("eu");
        p.source.bootstrap = QStringLiteral("${env:MD_TST_HOST}:9092");
        p.source.security = SecurityProtocol::SaslSsl;
        p.source.hasSasl = true;
        p.source.saslMechanism = QStringLiteral("scram-sha-256");
        p.source.saslUsername = QStringLiteral("mirror");
        p.source.saslPassword = QStringLiteral("${env:MD_TST_EU_PASSWORD}");
        p.source.sslCa = QStringLiteral("ca.pem"); // relative to the profile's folder
        p.source.properties = {{QStringLiteral("client.id"), QStringLiteral("cost$${not-a-ref}")}};
        p.target.alias = QStringLiteral("dr");
        p.target.bootstrap = QStringLiteral("kafka-dr:9092");
        p.target.security = SecurityProtocol::SaslPlaintext;
        p.target.hasSasl = true;
        p.target.saslMechanism = QStringLiteral("PLAIN");
        p.target.saslUsername = QStringLiteral("admin");
        p.target.saslPassword = QStringLiteral("${keychain:mirrordesk/dr}");
        p.include = {QStringLiteral("orders.*")};
        p.throttleBytesPerSecond = 1000;

        const ReferenceResolver keychain = [](const QString &kind, const QString &arg,
                                              QString *error) -> std::optional<QString> {
            if (kind == QLatin1String("keychain") && arg == QLatin1String("mirrordesk/dr"))
                return QStringLiteral("from-keychain");
            *error = QStringLiteral("no such entry");
            return std::nullopt;
        };
        QList<ProfileIssue> issues;
        const std::optional<MirrorJobSpec> spec = p.toSpec(keychain, &issues);
        QVERIFY2(spec, qPrintable(describe(issues)));
        QCOMPARE(spec->source.bootstrap, QStringLiteral("kafka-eu.example:9092"));
        QCOMPARE(spec->source.saslMechanism, QStringLiteral("SCRAM-SHA-256"));
        QCOMPARE(spec->source.saslPassword, QStringLiteral("s3cret-from-env"));
        QCOMPARE(spec->source.sslCaFile, QFileInfo(ca).absoluteFilePath());
        QCOMPARE(spec->source.properties.value(QStringLiteral("client.id")), QStringLiteral("cost${not-a-ref}"));
        QCOMPARE(spec->target.saslPassword, QStringLiteral("from-keychain"));
        QCOMPARE(spec->target.security, SecurityProtocol::SaslPlaintext);
        QCOMPARE(spec->groupId, QStringLiteral("mirrordesk-orders-dr-eu"));
        QCOMPARE(spec->offsetMapTopic, QStringLiteral("mirrordesk.mirrordesk-orders-dr-eu.offset-map"));
        QCOMPARE(spec->throttleBytesPerSecond, 1000);
        QCOMPARE(spec->nameTemplate, QStringLiteral("${topic}"));
    }

    // The registry beside each cluster: secrets from env and the keychain, the CA made absolute.
    void toSpecResolvesSchemaRegistry()
    {
        qputenv("MD_TST_REG_PASSWORD", "reg-s3cret");
        qputenv("MD_TST_REG_HOST", "apicurio.example");
        QTemporaryDir dir;
        QFile ca(dir.filePath(QStringLiteral("registry-ca.pem")));
        QVERIFY(ca.open(QIODevice::WriteOnly));
        ca.write("not really a certificate");
        ca.close();

        JobProfile p;
        p.fileName = dir.filePath(QStringLiteral("job.mirrorjob"));
        p.name = QStringLiteral("reg");
        p.source.alias = QStringLiteral("eu");
        p.source.bootstrap = QStringLiteral("eu:9092");
        p.source.hasSchemaRegistry = true;
        p.source.registryUrl = QStringLiteral("https://${env:MD_TST_REG_HOST}/apis/ccompat/v7");
        p.source.registryUsername = QStringLiteral("mirror");
        p.source.registryPassword = QStringLiteral("${env:MD_TST_REG_PASSWORD}");
        p.source.registryCa = QStringLiteral("registry-ca.pem");
        p.target.bootstrap = QStringLiteral("dr:9092");
        p.target.hasSchemaRegistry = true;
        p.target.registryUrl = QStringLiteral("http://registry-dr:8081");
        p.target.registryToken = QStringLiteral("${keychain:mirrordesk/dr-registry}");
        p.include = {QStringLiteral("orders.*")};

        const ReferenceResolver keychain = [](const QString &kind, const QString &arg,
                                              QString *error) -> std::optional<QString> {
            if (kind == QLatin1String("keychain") && arg == QLatin1String("mirrordesk/dr-registry"))
                return QStringLiteral("bearer-from-keychain");
            *error = QStringLiteral("no such entry");
            return std::nullopt;
        };
        QList<ProfileIssue> issues;
        const std::optional<MirrorJobSpec> spec = p.toSpec(keychain, &issues);
        QVERIFY2(spec, qPrintable(describe(issues)));
        QCOMPARE(spec->source.schemaRegistry.url, QStringLiteral("https://apicurio.example/apis/ccompat/v7"));
        QCOMPARE(spec->source.schemaRegistry.username, QStringLiteral("mirror"));
        QCOMPARE(spec->source.schemaRegistry.password, QStringLiteral("reg-s3cret"));
        QCOMPARE(spec->source.schemaRegistry.caFile, QFileInfo(ca).absoluteFilePath());
        QVERIFY(spec->source.schemaRegistry.token.isEmpty());
        QCOMPARE(spec->target.schemaRegistry.url, QStringLiteral("http://registry-dr:8081"));
        QCOMPARE(spec->target.schemaRegistry.token, QStringLiteral("bearer-from-keychain"));
        QVERIFY(spec->target.schemaRegistry.caFile.isEmpty());

        // An unreadable CA is an error at its path; without a registry, nothing is set.
        p.source.registryCa = QStringLiteral("missing.pem");
        issues.clear();
        QVERIFY(!p.toSpec(keychain, &issues));
        QVERIFY2(std::any_of(issues.begin(), issues.end(),
                             [](const ProfileIssue &i) {
                                 return i.keyPath == QLatin1String("source.schemaRegistry.ca") &&
                                        i.message.contains(QLatin1String("file not found"));
                             }),
                 qPrintable(describe(issues)));
        p.source.hasSchemaRegistry = false;
        p.target.hasSchemaRegistry = false;
        issues.clear();
        const std::optional<MirrorJobSpec> none = p.toSpec(keychain, &issues);
        QVERIFY2(none, qPrintable(describe(issues)));
        QVERIFY(!none->source.schemaRegistry.isSet());
        QVERIFY(!none->target.schemaRegistry.isSet());
    }

    void toSpecErrors_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("keyPath");
        QTest::addColumn<QString>("message");
        QTest::newRow("unset env") << "password"
                                   << "${env:MD_TST_DOES_NOT_EXIST}"
                                   << "source.sasl.password"
                                   << "environment variable MD_TST_DOES_NOT_EXIST is not set";
        QTest::newRow("keychain miss") << "password"
                                       << "${keychain:nope}"
                                       << "source.sasl.password"
                                       << "cannot resolve ${keychain:nope}: no such entry";
        QTest::newRow("unknown kind") << "bootstrap"
                                      << "${vault:x}"
                                      << "source.bootstrap"
                                      << "cannot resolve ${vault:x}";
        QTest::newRow("empty after resolving") << "bootstrap"
                                               << "${env:MD_TST_EMPTY}"
                                               << "source.bootstrap"
                                               << "resolves to an empty value";
        QTest::newRow("missing ca file") << "ca"
                                         << "no-such-ca.pem"
                                         << "source.ssl.ca"
                                         << "file not found: ";
    }

    void toSpecErrors()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, keyPath);
        QFETCH(QString, message);
        qputenv("MD_TST_EMPTY", "");
        qputenv("MD_TST_SECRET", "do-not-print-me");
        JobProfile p;
        p.fileName = QStringLiteral("/nonexistent-dir/job.mirrorjob");
        p.source.alias = QStringLiteral("eu");
        p.source.bootstrap = field == QLatin1String("bootstrap") ? value : QStringLiteral("a:1");
        p.source.security = SecurityProtocol::SaslSsl;
        p.source.hasSasl = true;
        p.source.saslMechanism = QStringLiteral("PLAIN");
        p.source.saslUsername = QStringLiteral("${env:MD_TST_SECRET}");
        p.source.saslPassword = field == QLatin1String("password") ? value : QStringLiteral("${env:MD_TST_SECRET}");
        p.source.sslCa = field == QLatin1String("ca") ? value : QString();
        p.target.bootstrap = QStringLiteral("b:1");
        p.include = {QStringLiteral(".*")};
        const ReferenceResolver resolver = [](const QString &, const QString &,
                                              QString *error) -> std::optional<QString> {
            *error = QStringLiteral("no such entry");
            return std::nullopt;
        };
        QList<ProfileIssue> issues;
        QVERIFY(!p.toSpec(resolver, &issues));
        QCOMPARE(issues.size(), 1);
        QCOMPARE(issues.first().keyPath, keyPath);
        QVERIFY2(issues.first().message.contains(message), qPrintable(issues.first().toString()));
        QVERIFY(!describe(issues).contains(QLatin1String("do-not-print-me")));
    }

    // The "acls" object goes into the spec as it is: off by default, else its sync, interval and mode.
    void toSpecCarriesAclSync()
    {
        QList<ProfileIssue> issues;
        JobProfile p =
            JobProfile::fromJson(profileWith(QStringLiteral("name"), QStringLiteral("acl")), QString(), &issues);
        std::optional<MirrorJobSpec> spec = p.toSpec({}, &issues);
        QVERIFY2(spec, qPrintable(describe(issues)));
        QVERIFY(!spec->syncAcls);
        QCOMPARE(spec->aclSyncIntervalMs, 60000);
        QCOMPARE(spec->aclSyncMode, MirrorJobSpec::AclSyncMode::Safe);
        QCOMPARE(spec->aclSyncIntervalMs, MirrorJobSpec().aclSyncIntervalMs); // the profile's default is the engine's

        p = JobProfile::fromJson(profileWith(QStringLiteral("acls"),
                                             parse("{\"sync\": true, \"intervalMs\": 86400000, \"mode\": \"exact\"}")),
                                 QString(), &issues);
        QVERIFY2(issues.isEmpty(), qPrintable(describe(issues)));
        spec = p.toSpec({}, &issues);
        QVERIFY2(spec, qPrintable(describe(issues)));
        QVERIFY(spec->syncAcls);
        QCOMPARE(spec->aclSyncIntervalMs, JobProfile::MaxAclSyncIntervalMs);
        QCOMPARE(spec->aclSyncMode, MirrorJobSpec::AclSyncMode::Exact);

        // A struct no file could hold (the editor builds it) is refused with the key's path.
        p.aclSyncIntervalMs = 500;
        issues.clear();
        QVERIFY(!p.toSpec({}, &issues));
        QCOMPARE(issues.size(), 1);
        QCOMPARE(issues.first().keyPath, QStringLiteral("acls.intervalMs"));
        QVERIFY2(issues.first().message.contains(QLatin1String("500 is out of range: must be at least 1000")),
                 qPrintable(issues.first().toString()));
    }

    void toSpecRefusesAnInvalidProfile()
    {
        JobProfile p; // no bootstrap, no include
        QList<ProfileIssue> issues;
        QVERIFY(!p.toSpec({}, &issues));
        QStringList paths;
        for (const ProfileIssue &i : issues)
            paths << i.keyPath;
        QVERIFY2(paths.contains(QStringLiteral("source.bootstrap")), qPrintable(describe(issues)));
        QVERIFY(paths.contains(QStringLiteral("target.bootstrap")));
        QVERIFY(paths.contains(QStringLiteral("topics.include")));
    }

    void groupIdForName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("groupId");
        QTest::newRow("spaces") << "orders to DR"
                                << "mirrordesk-orders-to-dr";
        QTest::newRow("punctuation") << "  EU → DR: orders!! "
                                     << "mirrordesk-eu-dr-orders";
        QTest::newRow("keeps dots and underscores") << "eu.orders_v2"
                                                    << "mirrordesk-eu.orders_v2";
        QTest::newRow("empty") << ""
                               << "mirrordesk-job";
        QTest::newRow("only symbols") << "→→"
                                      << "mirrordesk-job";
    }

    void groupIdForName()
    {
        QFETCH(QString, name);
        QFETCH(QString, groupId);
        QCOMPARE(JobProfile::groupIdForName(name), groupId);
        JobProfile p;
        p.name = name;
        QCOMPARE(p.effectiveGroupId(), groupId);
        p.groupId = QStringLiteral("explicit");
        QCOMPARE(p.effectiveGroupId(), QStringLiteral("explicit"));
    }

    void references_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("refs");
        QTest::addColumn<bool>("whole");
        QTest::addColumn<bool>("malformed");
        QTest::newRow("none") << "plain" << QStringList() << false << false;
        QTest::newRow("env") << "${env:EU_PASSWORD}" << QStringList{QStringLiteral("env|EU_PASSWORD")} << true << false;
        QTest::newRow("keychain with slash")
            << "${keychain:mirrordesk/eu}" << QStringList{QStringLiteral("keychain|mirrordesk/eu")} << true << false;
        QTest::newRow("embedded twice") << "${env:H}:${env:P}"
                                        << QStringList{QStringLiteral("env|H"), QStringLiteral("env|P")} << false
                                        << false;
        QTest::newRow("escaped") << "$${env:X}" << QStringList() << false << false;
        QTest::newRow("lone dollar") << "a$b$" << QStringList() << false << false;
        QTest::newRow("unterminated") << "${env:X" << QStringList() << false << true;
        QTest::newRow("no kind") << "${:X}" << QStringList() << false << true;
        QTest::newRow("no arg") << "${env:}" << QStringList() << false << true;
        QTest::newRow("upper-case kind") << "${ENV:X}" << QStringList() << false << true;
    }

    void references()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, refs);
        QFETCH(bool, whole);
        QFETCH(bool, malformed);
        QString error;
        QStringList found;
        for (const SecretRef &r : SecretRef::findAll(text, &error))
            found << r.kind + QLatin1Char('|') + r.arg;
        QCOMPARE(found, refs);
        QCOMPARE(!error.isEmpty(), malformed);
        QCOMPARE(SecretRef::whole(text).has_value(), whole);
    }
};

QTEST_GUILESS_MAIN(TstProfileResolve)
#include "tst_profileresolve.moc"
