// MirrorMaker 2 import: the Java properties reader and escaping, and every
// mapping of importMm2Properties() from an mm2.properties to job profiles,
// with what it cannot map listed and a password never kept in clear.

#include "Mm2TestUtil.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace md;
using namespace md::test;

namespace {

const Mm2Unmapped *findUnmapped(const Mm2ImportResult &r, const QString &key)
{
    for (const Mm2Unmapped &u : r.unmapped) {
        if (u.key == key)
            return &u;
    }
    return nullptr;
}

} // namespace

class TestMm2Import final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // ---------------------------------------------------------- properties syntax
    void javaProperties_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::newRow("equals") << QByteArray("a=b") << "a"
                                << "b";
        QTest::newRow("spaced equals") << QByteArray("  a  =   b c  ") << "a"
                                       << "b c  ";
        QTest::newRow("colon") << QByteArray("a:b") << "a"
                               << "b";
        QTest::newRow("whitespace") << QByteArray("a b") << "a"
                                    << "b";
        QTest::newRow("whitespace then equals") << QByteArray("a \t = b") << "a"
                                                << "b";
        QTest::newRow("second separator is value") << QByteArray("a==b") << "a"
                                                   << "=b";
        QTest::newRow("no value") << QByteArray("a") << "a"
                                  << "";
        QTest::newRow("empty value") << QByteArray("a=") << "a"
                                     << "";
        QTest::newRow("escaped equals in key") << QByteArray("a\\=b=c") << "a=b"
                                               << "c";
        QTest::newRow("escaped colon and space in key") << QByteArray("a\\:\\ b = c") << "a: b"
                                                        << "c";
        QTest::newRow("escapes") << QByteArray("k = x\\ty\\nz\\\\w\\q") << "k"
                                 << "x\ty\nz\\wq";
        QTest::newRow("unicode escape") << QByteArray("k = caf\\u00e9 \\u20AC") << "k"
                                        << QStringLiteral("caf\u00e9 \u20ac");
        QTest::newRow("utf-8 text") << QByteArray("k = caf\xc3\xa9") << "k" << QStringLiteral("caf\u00e9");
        QTest::newRow("latin-1 text") << QByteArray("k = caf\xe9") << "k" << QStringLiteral("caf\u00e9");
        QTest::newRow("continuation") << QByteArray("k = a,\\\n    b,\\\n\tc") << "k"
                                      << "a,b,c";
        QTest::newRow("crlf continuation") << QByteArray("k = a\\\r\n  b\r\n") << "k"
                                           << "ab";
        QTest::newRow("escaped backslash is no continuation") << QByteArray("k = a\\\\\n") << "k"
                                                              << "a\\";
        QTest::newRow("continued key") << QByteArray("lo\\\n  ng = v") << "long"
                                       << "v";
        QTest::newRow("comment mark inside value") << QByteArray("k = a # b") << "k"
                                                   << "a # b";
        QTest::newRow("leading spaces of value escaped") << QByteArray("k = \\  a") << "k"
                                                         << "  a";
    }
    void javaProperties()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, key);
        QFETCH(QString, value);
        QList<JavaPropertiesError> errors;
        const QList<JavaProperty> props = parseJavaProperties(text, &errors);
        QVERIFY(errors.isEmpty());
        QCOMPARE(props.size(), 1);
        QCOMPARE(props.first().key, key);
        QCOMPARE(props.first().value, value);
    }

    void javaPropertiesLinesAndComments()
    {
        const QByteArray text = "# comment\n"
                                "! also a comment \\\n"
                                "a = 1\n"
                                "\n"
                                "   \t\n"
                                "b = 2,\\\n"
                                "    3\n"
                                "  # indented comment\n"
                                "c = \\u00zz\n"
                                "d = 4";
        QList<JavaPropertiesError> errors;
        const QList<JavaProperty> props = parseJavaProperties(text, &errors);
        QCOMPARE(props.size(), 3);
        QCOMPARE(props.at(0).key, QStringLiteral("a"));
        QCOMPARE(props.at(0).line, 3);
        QCOMPARE(props.at(1).key, QStringLiteral("b"));
        QCOMPARE(props.at(1).value, QStringLiteral("2,3"));
        QCOMPARE(props.at(1).line, 6);
        QCOMPARE(props.at(2).key, QStringLiteral("d"));
        QCOMPARE(props.at(2).line, 10);
        QCOMPARE(errors.size(), 1);
        QCOMPARE(errors.first().line, 9);
        QVERIFY2(errors.first().message.contains(QLatin1String("\\u")), qPrintable(errors.first().message));
    }

    void javaEscapeRoundTrip_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::newRow("plain") << "a.b"
                               << "c";
        QTest::newRow("separators") << "a=b:c d"
                                    << "x = y : z";
        QTest::newRow("leading space and comment marks") << "#k"
                                                         << "  !v # w";
        QTest::newRow("controls") << "k"
                                  << "a\tb\nc\rd\fe\\";
        QTest::newRow("non-ascii") << QStringLiteral("cl\u00e9") << QStringLiteral("\u20ac \U0001F600");
        QTest::newRow("jaas") << "eu.sasl.jaas.config"
                              << "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" "
                                 "password=\"${env:X}\";";
    }
    void javaEscapeRoundTrip()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        const QByteArray line =
            (escapeJavaPropertyKey(key) + QStringLiteral(" = ") + escapeJavaPropertyValue(value)).toUtf8();
        for (const char c : line)
            QVERIFY2(uchar(c) < 0x80, "escaped text is ASCII");
        const QList<JavaProperty> props = parseJavaProperties(line);
        QCOMPARE(props.size(), 1);
        QCOMPARE(props.first().key, key);
        QCOMPARE(props.first().value, value);
    }

    // ---------------------------------------------------------------- import
    void importFlowsAndTopics()
    {
        const QByteArray text = "clusters = eu, dr, us\n"
                                "eu.bootstrap.servers = eu1:9092,eu2:9092\n"
                                "dr.bootstrap.servers = dr1:9092\n"
                                "us.bootstrap.servers = us1:9092\n"
                                "eu->dr.enabled = TRUE\n"
                                "eu->dr.topics = orders\\\\..*, payments\n"
                                "eu->dr.topics.exclude = .*\\\\.internal\n"
                                "us->dr.enabled = true\n"
                                "topics = .*\n"
                                "topics.blacklist = secret.*\n"
                                "dr->eu.enabled = false\n"
                                "dr->eu.emit.heartbeats.enabled = false\n";
        const Mm2ImportResult r = importMm2Properties(text, QStringLiteral("mm2.properties"));
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.flows.size(), 2);
        const Mm2Flow &eu = r.flows.at(0);
        QCOMPARE(eu.sourceAlias, QStringLiteral("eu"));
        QCOMPARE(eu.targetAlias, QStringLiteral("dr"));
        QCOMPARE(eu.fileName(), QStringLiteral("eu-to-dr.mirrorjob"));
        QCOMPARE(eu.profile.source.alias, QStringLiteral("eu"));
        QCOMPARE(eu.profile.source.bootstrap, QStringLiteral("eu1:9092,eu2:9092"));
        QCOMPARE(eu.profile.target.bootstrap, QStringLiteral("dr1:9092"));
        QCOMPARE(eu.profile.include, (QStringList{QStringLiteral("orders\\..*"), QStringLiteral("payments")}));
        QCOMPARE(eu.profile.exclude, QStringList{QStringLiteral(".*\\.internal")});
        QCOMPARE(eu.profile.naming, NamingPolicy::Prefix);
        QCOMPARE(eu.profile.separator, QStringLiteral("."));
        QCOMPARE(eu.profile.start, StartPosition::Committed);
        QVERIFY(eu.profile.validate().isEmpty());

        // Top-level topics and the deprecated blacklist apply where the flow says nothing.
        const Mm2Flow &us = r.flows.at(1);
        QCOMPARE(us.fileName(), QStringLiteral("us-to-dr.mirrorjob"));
        QCOMPARE(us.profile.include, QStringList{QStringLiteral(".*")});
        QCOMPARE(us.profile.exclude, QStringList{QStringLiteral("secret.*")});
        QVERIFY2(r.unmapped.isEmpty(), qPrintable(describeUnmapped(r)));
    }

    void importExactlyOnce_data()
    {
        QTest::addColumn<QByteArray>("settings");
        QTest::addColumn<bool>("exactlyOnce");
        QTest::addColumn<QString>("unmappedKey"); // the one key listed, or empty
        QTest::addColumn<QString>("note");        // a note that must be given, or empty
        QTest::newRow("worker enabled") << QByteArray("dr.exactly.once.source.support = enabled\n"
                                                      "dedicated.mode.enable.internal.rest = true\n"
                                                      "eu.consumer.isolation.level = read_committed\n")
                                        << true << QString() << QString();
        QTest::newRow("connector required")
            << QByteArray("eu->dr.exactly.once.support = required\n") << true << QString()
            << QStringLiteral("without dr.exactly.once.source.support=enabled");
        QTest::newRow("requested is not enough")
            << QByteArray("exactly.once.support = requested\n") << false << QString() << QString();
        QTest::newRow("preparing") << QByteArray("dr.exactly.once.source.support = preparing\n") << false << QString()
                                   << QStringLiteral("imported as at-least-once");
        QTest::newRow("disabled") << QByteArray("dr.exactly.once.source.support = disabled\n") << false << QString()
                                  << QString();
        QTest::newRow("unknown value") << QByteArray("dr.exactly.once.source.support = maybe\n") << false
                                       << QStringLiteral("dr.exactly.once.source.support") << QString();
        // MM2 reads it only per target cluster: the top-level key and the source's do nothing.
        QTest::newRow("top level") << QByteArray("exactly.once.source.support = enabled\n") << false
                                   << QStringLiteral("exactly.once.source.support") << QString();
        QTest::newRow("on the source") << QByteArray("eu.exactly.once.source.support = enabled\n") << false
                                       << QStringLiteral("eu.exactly.once.source.support") << QString();
        QTest::newRow("read_uncommitted stays refused")
            << QByteArray("dr.exactly.once.source.support = enabled\neu.consumer.isolation.level = read_uncommitted\n")
            << true << QStringLiteral("eu.consumer.isolation.level") << QString();
    }
    void importExactlyOnce()
    {
        QFETCH(QByteArray, settings);
        QFETCH(bool, exactlyOnce);
        QFETCH(QString, unmappedKey);
        QFETCH(QString, note);
        const Mm2ImportResult r = importMm2Properties("clusters = eu, dr\neu.bootstrap.servers = eu:9092\n"
                                                      "dr.bootstrap.servers = dr:9092\neu->dr.enabled = true\n" +
                                                      settings);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.flows.size(), 1);
        const JobProfile &p = r.flows.first().profile;
        QCOMPARE(p.delivery, exactlyOnce ? DeliveryGuarantee::ExactlyOnce : DeliveryGuarantee::AtLeastOnce);
        QCOMPARE(unmappedKeys(r), unmappedKey.isEmpty() ? QStringList() : QStringList{unmappedKey});
        if (!note.isEmpty())
            QVERIFY2(r.notes.join(QLatin1Char('\n')).contains(note), qPrintable(r.notes.join(QLatin1Char('\n'))));
        QVERIFY(p.validate().isEmpty());
    }

    void importTransactionInterval()
    {
        const QByteArray base = "clusters = eu, dr\neu.bootstrap.servers = eu:9092\ndr.bootstrap.servers = dr:9092\n"
                                "eu->dr.enabled = true\ndr.exactly.once.source.support = enabled\n"
                                "eu->dr.transaction.boundary = interval\n";
        Mm2ImportResult r = importMm2Properties(base + "eu->dr.transaction.boundary.interval.ms = 1500\n");
        QCOMPARE(r.flows.size(), 1);
        QCOMPARE(r.flows.first().profile.transactionIntervalMs, 1500);
        QVERIFY2(r.unmapped.isEmpty(), qPrintable(describeUnmapped(r)));
        // Outside the profile's range: the nearest allowed value, said.
        r = importMm2Properties(base + "eu->dr.transaction.boundary.interval.ms = 0\n");
        QCOMPARE(r.flows.first().profile.transactionIntervalMs, JobProfile::MinTransactionIntervalMs);
        QVERIFY(r.notes.join(QLatin1Char('\n')).contains(QLatin1String("limited to 10 ms")));
    }

    void importDefaults()
    {
        const Mm2ImportResult r =
            importMm2Properties("clusters=a,b\na.bootstrap.servers=a:1\nb.bootstrap.servers=b:1\na->b.enabled=true\n");
        QCOMPARE(r.flows.size(), 1);
        const JobProfile &p = r.flows.first().profile;
        // MM2's own defaults: every topic, its default exclusions, DefaultReplicationPolicy with ".".
        QCOMPARE(p.include, QStringList{QStringLiteral(".*")});
        QCOMPARE(p.exclude, (QStringList{QStringLiteral(".*[\\-\\.]internal"), QStringLiteral(".*\\.replica"),
                                         QStringLiteral("__.*")}));
        QCOMPARE(p.naming, NamingPolicy::Prefix);
        QCOMPARE(p.separator, QStringLiteral("."));
        QVERIFY(p.syncTopicConfigs);
        QVERIFY(p.createTopics);
        QCOMPARE(p.name, QStringLiteral("a to b"));
        QVERIFY(r.unmapped.isEmpty());
    }

    void importNaming_data()
    {
        QTest::addColumn<QByteArray>("lines");
        QTest::addColumn<int>("policy");
        QTest::addColumn<QString>("separator");
        QTest::addColumn<bool>("listed");
        QTest::newRow("default policy, custom separator")
            << QByteArray("replication.policy.class=org.apache.kafka.connect.mirror.DefaultReplicationPolicy\n"
                          "replication.policy.separator=_\n")
            << int(NamingPolicy::Prefix) << "_" << false;
        QTest::newRow("identity")
            << QByteArray("replication.policy.class = org.apache.kafka.connect.mirror.IdentityReplicationPolicy\n")
            << int(NamingPolicy::Identity) << "." << false;
        QTest::newRow("flow-level identity")
            << QByteArray("a->b.replication.policy.class = org.apache.kafka.connect.mirror.IdentityReplicationPolicy\n")
            << int(NamingPolicy::Identity) << "." << false;
        QTest::newRow("custom policy") << QByteArray("replication.policy.class = com.example.MyPolicy\n")
                                       << int(NamingPolicy::Prefix) << "." << true;
    }
    void importNaming()
    {
        QFETCH(QByteArray, lines);
        QFETCH(int, policy);
        QFETCH(QString, separator);
        QFETCH(bool, listed);
        const Mm2ImportResult r = importMm2Properties(
            "clusters=a,b\na.bootstrap.servers=a:1\nb.bootstrap.servers=b:1\na->b.enabled=true\n" + lines);
        QCOMPARE(r.flows.size(), 1);
        QCOMPARE(int(r.flows.first().profile.naming), policy);
        QCOMPARE(r.flows.first().profile.separator, separator);
        QCOMPARE(!r.unmapped.isEmpty(), listed);
        if (listed)
            QVERIFY(r.unmapped.first().reason.contains(QLatin1String("com.example.MyPolicy")));
    }

    void importSaslPasswordNeverInClear()
    {
        const QByteArray text =
            "clusters = eu, dr\n"
            "eu.bootstrap.servers = eu:9093\n"
            "eu.security.protocol = SASL_SSL\n"
            "eu.sasl.mechanism = SCRAM-SHA-256\n"
            "eu.sasl.jaas.config = org.apache.kafka.common.security.scram.ScramLoginModule required \\\n"
            "    username=\"mirror\" password=\"" +
            kSecret.toUtf8() +
            "\";\n"
            "eu.ssl.truststore.location = /etc/ssl/eu-ca.pem\n"
            "eu.ssl.truststore.password = " +
            kSecret.toUtf8() +
            "x\n"
            "dr.bootstrap.servers = dr:9092\n"
            "dr.security.protocol = SASL_PLAINTEXT\n"
            "dr.sasl.mechanism = PLAIN\n"
            "dr.sasl.jaas.config = org.apache.kafka.common.security.plain.PlainLoginModule required username=writer "
            "password=\"${env:DR_PW}\";\n"
            "config.providers = env\n"
            "config.providers.env.class = org.apache.kafka.common.config.provider.EnvVarConfigProvider\n"
            "eu->dr.enabled = true\n";
        const Mm2ImportResult r = importMm2Properties(text);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.flows.size(), 1);
        const JobProfile &p = r.flows.first().profile;
        QCOMPARE(p.source.security, SecurityProtocol::SaslSsl);
        QVERIFY(p.source.hasSasl);
        QCOMPARE(p.source.saslMechanism, QStringLiteral("SCRAM-SHA-256"));
        QCOMPARE(p.source.saslUsername, QStringLiteral("mirror"));
        QCOMPARE(p.source.saslPassword, QStringLiteral("${env:MIRRORDESK_EU_PASSWORD}"));
        QCOMPARE(p.source.sslCa, QStringLiteral("/etc/ssl/eu-ca.pem"));
        // An ${env:} reference MM2 resolved through its EnvVarConfigProvider stays one.
        QCOMPARE(p.target.security, SecurityProtocol::SaslPlaintext);
        QCOMPARE(p.target.saslMechanism, QStringLiteral("PLAIN"));
        QCOMPARE(p.target.saslUsername, QStringLiteral("writer"));
        QCOMPARE(p.target.saslPassword, QStringLiteral("${env:DR_PW}"));
        QVERIFY(!p.hasClearSecret());
        QCOMPARE(r.variables.size(), 1);
        QCOMPARE(r.variables.first().name, QStringLiteral("MIRRORDESK_EU_PASSWORD"));
        QVERIFY(r.variables.first().description.contains(QLatin1String("mirror")));
        QVERIFY2(r.unmapped.isEmpty(), qPrintable(describeUnmapped(r)));
        QVERIFY(p.validate().isEmpty());

        // Nothing the import produces holds the password: profile, messages, anything.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error;
        QVERIFY2(p.save(dir.filePath(r.flows.first().fileName()), &error), qPrintable(error));
        QVERIFY(filesContaining(dir.path(), kSecret.toUtf8()).isEmpty());
        QVERIFY(!p.toJson().contains(kSecret.toUtf8()));
        for (const Mm2Unmapped &u : r.unmapped)
            QVERIFY(!u.toString().contains(kSecret));
        for (const QString &n : r.notes)
            QVERIFY(!n.contains(kSecret));
        for (const Mm2SecretVariable &v : r.variables)
            QVERIFY(!v.description.contains(kSecret));
    }

    void importSecurityDefaultsAndUnsupported()
    {
        // Top-level client settings apply to every cluster (MM2's clusterProps()).
        const QByteArray text =
            "clusters = a, b\n"
            "a.bootstrap.servers = a:1\n"
            "b.bootstrap.servers = b:1\n"
            "security.protocol = SASL_PLAINTEXT\n"
            "sasl.mechanism = SCRAM-SHA-512\n"
            "sasl.jaas.config = org.apache.kafka.common.security.scram.ScramLoginModule required username=\"u\" "
            "password=\"p\";\n"
            "b.sasl.mechanism = GSSAPI\n"
            "b.sasl.jaas.config = com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true;\n"
            "a->b.enabled = true\n";
        const Mm2ImportResult r = importMm2Properties(text);
        QCOMPARE(r.flows.size(), 1);
        const JobProfile &p = r.flows.first().profile;
        QCOMPARE(p.source.security, SecurityProtocol::SaslPlaintext);
        QCOMPARE(p.source.saslMechanism, QStringLiteral("SCRAM-SHA-512"));
        QCOMPARE(p.source.saslUsername, QStringLiteral("u"));
        QCOMPARE(p.source.saslPassword, QStringLiteral("${env:MIRRORDESK_A_PASSWORD}"));
        QCOMPARE(p.target.security, SecurityProtocol::SaslPlaintext);
        QVERIFY(!p.target.hasSasl);
        const Mm2Unmapped *mech = findUnmapped(r, QStringLiteral("b.sasl.mechanism"));
        QVERIFY2(mech, qPrintable(describeUnmapped(r)));
        QCOMPARE(mech->line, 7);
        QVERIFY(mech->reason.contains(QLatin1String("GSSAPI")));
        QVERIFY(findUnmapped(r, QStringLiteral("b.sasl.jaas.config")));
        QVERIFY(!findUnmapped(r, QStringLiteral("b.sasl.jaas.config"))->reason.contains(QLatin1String("useKeyTab")));
        // The profile says what is missing, so a user can fix it.
        QVERIFY(hasErrors(p.validate()));
    }

    void importTls()
    {
        QTemporaryDir dir;
        QFile pem(dir.filePath(QStringLiteral("ca-bundle")));
        QVERIFY(pem.open(QIODevice::WriteOnly));
        pem.write("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
        pem.close();
        const QByteArray text = "clusters = a, b, c\n"
                                "a.bootstrap.servers = a:1\n"
                                "b.bootstrap.servers = b:1\n"
                                "c.bootstrap.servers = c:1\n"
                                "a.security.protocol = SSL\n"
                                "a.ssl.truststore.location = " +
                                pem.fileName().toUtf8() +
                                "\n"
                                "a.ssl.keystore.type = PKCS12\n"
                                "a.ssl.keystore.location = /etc/kafka/client.p12\n"
                                "a.ssl.keystore.password = " +
                                kSecret.toUtf8() +
                                "\n"
                                "a.ssl.endpoint.identification.algorithm =\n"
                                "b.security.protocol = SSL\n"
                                "b.ssl.truststore.location = /etc/kafka/truststore.jks\n"
                                "b.ssl.truststore.password = " +
                                kSecret.toUtf8() +
                                "\n"
                                "b.ssl.keystore.location = /etc/kafka/keystore.jks\n"
                                "b.ssl.keystore.password = " +
                                kSecret.toUtf8() +
                                "\n"
                                "b.ssl.key.password = " +
                                kSecret.toUtf8() +
                                "\n"
                                "c.security.protocol = SSL\n"
                                "c.ssl.truststore.type = PEM\n"
                                "c.ssl.truststore.location = /etc/kafka/ca\n"
                                "c.ssl.keystore.type = PEM\n"
                                "c.ssl.keystore.location = /etc/kafka/client.pem\n"
                                "c.ssl.key.password = " +
                                kSecret.toUtf8() +
                                "\n"
                                "a->b.enabled = true\n"
                                "c->a.enabled = true\n";
        const Mm2ImportResult r = importMm2Properties(text);
        QCOMPARE(r.flows.size(), 2);
        const JobProfile &ab = r.flows.at(0).profile;
        QCOMPARE(r.flows.at(0).fileName(), QStringLiteral("a-to-b.mirrorjob"));
        QCOMPARE(ab.source.security, SecurityProtocol::Ssl);
        QCOMPARE(ab.source.sslCa, pem.fileName()); // PEM by its content
        QCOMPARE(ab.source.properties.value(QStringLiteral("ssl.keystore.location")),
                 QStringLiteral("/etc/kafka/client.p12"));
        QCOMPARE(ab.source.properties.value(QStringLiteral("ssl.keystore.password")),
                 QStringLiteral("${env:MIRRORDESK_A_KEYSTORE_PASSWORD}"));
        QCOMPARE(ab.source.properties.value(QStringLiteral("ssl.endpoint.identification.algorithm")),
                 QStringLiteral("none"));
        // Java keystores: listed with a conversion hint, passwords listed without their value.
        QVERIFY(ab.target.sslCa.isEmpty());
        const Mm2Unmapped *jks = findUnmapped(r, QStringLiteral("b.ssl.truststore.location"));
        QVERIFY2(jks, qPrintable(describeUnmapped(r)));
        QVERIFY(jks->reason.contains(QLatin1String("PEM")));
        QVERIFY(jks->reason.contains(QLatin1String("keytool")));
        QVERIFY(findUnmapped(r, QStringLiteral("b.ssl.keystore.location")));
        for (const char *k : {"b.ssl.truststore.password", "b.ssl.keystore.password", "b.ssl.key.password"})
            QVERIFY2(findUnmapped(r, QString::fromLatin1(k)), k);
        // A PEM keystore is certificate and key in one file.
        const JobProfile &ca = r.flows.at(1).profile;
        QCOMPARE(ca.source.sslCa, QStringLiteral("/etc/kafka/ca"));
        QCOMPARE(ca.source.sslCert, QStringLiteral("/etc/kafka/client.pem"));
        QCOMPARE(ca.source.sslKey, QStringLiteral("/etc/kafka/client.pem"));
        QCOMPARE(ca.source.sslKeyPassword, QStringLiteral("${env:MIRRORDESK_C_SSL_KEY_PASSWORD}"));
        QVERIFY(ca.validate().isEmpty());
        for (const Mm2Unmapped &u : r.unmapped)
            QVERIFY(!u.toString().contains(kSecret));
        QVERIFY(!ab.toJson().contains(kSecret.toUtf8()));
        QVERIFY(!ca.toJson().contains(kSecret.toUtf8()));
        QCOMPARE(r.variables.size(), 2);
    }

    void importClientOverrides()
    {
        const QByteArray text = "clusters = eu, dr\n"
                                "eu.bootstrap.servers = eu:1\n"
                                "dr.bootstrap.servers = dr:1\n"
                                "eu.client.rack = eu-1a\n"                         // 4
                                "eu.consumer.fetch.max.bytes = 1048576\n"          // 5
                                "eu.consumer.max.poll.records = 500\n"             // 6 Java only
                                "eu.consumer.isolation.level = read_uncommitted\n" // 7 engine owned
                                "eu->dr.consumer.fetch.min.bytes = 10\n"           // 8
                                "dr.producer.linger.ms = 20\n"                     // 9
                                "dr.producer.compression.type = zstd\n"            // 10
                                "dr.producer.buffer.memory = 33554432\n"           // 11 Java only
                                "dr.admin.request.timeout.ms = 30000\n"            // 12 hmm: a Java name
                                "eu.producer.linger.ms = 5\n"                   // 13 MM2's own producer on the source
                                "dr.consumer.fetch.max.bytes = 1\n"             // 14
                                "eu.consumer.auto.offset.reset = latest\n"      // 15
                                "dr.producer.linger.ms.bogus = 1\n"             // 16
                                "dr.producer.batch.num.messages = notanumber\n" // 17 bad value
                                "eu->dr.enabled = true\n";
        const Mm2ImportResult r = importMm2Properties(text);
        QCOMPARE(r.flows.size(), 1);
        const JobProfile &p = r.flows.first().profile;
        QCOMPARE(p.source.properties,
                 (QMap<QString, QString>{{QStringLiteral("client.rack"), QStringLiteral("eu-1a")}}));
        QCOMPARE(p.source.consumerProperties,
                 (QMap<QString, QString>{{QStringLiteral("fetch.max.bytes"), QStringLiteral("1048576")},
                                         {QStringLiteral("fetch.min.bytes"), QStringLiteral("10")}}));
        QCOMPARE(p.target.producerProperties,
                 (QMap<QString, QString>{{QStringLiteral("linger.ms"), QStringLiteral("20")},
                                         {QStringLiteral("compression.type"), QStringLiteral("zstd")}}));
        QCOMPARE(p.start, StartPosition::Latest);
        const QStringList listed = unmappedKeys(r);
        QCOMPARE(
            listed,
            (QStringList{QStringLiteral("eu.consumer.max.poll.records"), QStringLiteral("eu.consumer.isolation.level"),
                         QStringLiteral("dr.producer.buffer.memory"), QStringLiteral("eu.producer.linger.ms"),
                         QStringLiteral("dr.consumer.fetch.max.bytes"), QStringLiteral("dr.producer.linger.ms.bogus"),
                         QStringLiteral("dr.producer.batch.num.messages")}));
        QCOMPARE(r.unmapped.at(0).line, 6);
        QVERIFY(r.unmapped.at(0).reason.contains(QLatin1String("librdkafka")));
        QVERIFY(r.unmapped.at(1).reason.contains(QLatin1String("engine")));
        // request.timeout.ms exists in librdkafka too: it is taken for the admin client.
        QCOMPARE(p.target.adminProperties.value(QStringLiteral("request.timeout.ms")), QStringLiteral("30000"));
    }

    void importClusterInTwoRoles()
    {
        // b is the target of a->b and the source of b->c: its consumer settings
        // count for b->c and are not listed; c's consumer settings are.
        const QByteArray text = "clusters = a, b, c\n"
                                "a.bootstrap.servers = a:1\n"
                                "b.bootstrap.servers = b:1\n"
                                "c.bootstrap.servers = c:1\n"
                                "b.consumer.fetch.max.bytes = 1000\n"
                                "c.consumer.fetch.max.bytes = 2000\n"
                                "a->b.enabled = true\n"
                                "b->c.enabled = true\n";
        const Mm2ImportResult r = importMm2Properties(text);
        QCOMPARE(r.flows.size(), 2);
        QVERIFY(r.flows.at(0).profile.target.consumerProperties.isEmpty());
        QCOMPARE(r.flows.at(1).profile.source.consumerProperties.value(QStringLiteral("fetch.max.bytes")),
                 QStringLiteral("1000"));
        QCOMPARE(unmappedKeys(r), QStringList{QStringLiteral("c.consumer.fetch.max.bytes")});
    }

    void importSyncOptionsAndUnmapped()
    {
        const QByteArray text = "clusters = eu, dr\n"                                            // 1
                                "eu.bootstrap.servers = eu:1\n"                                  // 2
                                "dr.bootstrap.servers = dr:1\n"                                  // 3
                                "eu->dr.enabled = true\n"                                        // 4
                                "sync.topic.configs.enabled = false\n"                           // 5
                                "sync.topic.acls.enabled = false\n"                              // 6 nothing to do
                                "emit.checkpoints.enabled = true\n"                              // 7
                                "eu->dr.sync.group.offsets.enabled = true\n"                     // 8
                                "refresh.topics.interval.seconds = 30\n"                         // 9
                                "config.properties.exclude = retention\\\\..*, cleanup.policy\n" // 10
                                "tasks.max = 4\n"                                                // 11
                                "replication.factor = 3\n"                                       // 12
                                "checkpoints.topic.replication.factor = 1\n"                     // 13
                                "groups = .*\n"                                                  // 14
                                "eu.some.java.thing = 1\n"                                       // 15
                                "xx.bootstrap.servers = x:1\n"                                   // 16 not a cluster
                                "dr->eu.topics = a\n"                                            // 17 flow not enabled
                                "emit.heartbeats.enabled = false\n"                              // 18 nothing to do
                                "consumer.fetch.max.bytes = 1\n"                                 // 19 not per cluster
                                "eu->dr.topics = a\n"                                            // 20
                                "eu->dr.topics = b\n";                                           // 21 overrides 20
        const Mm2ImportResult r = importMm2Properties(text);
        QCOMPARE(r.flows.size(), 1);
        const JobProfile &p = r.flows.first().profile;
        QVERIFY(!p.syncTopicConfigs);
        QCOMPARE(p.topicRefreshIntervalMs, 30000);
        QCOMPARE(p.configExclude, (QStringList{QStringLiteral("retention\\..*"), QStringLiteral("cleanup.policy")}));
        QCOMPARE(p.include, QStringList{QStringLiteral("b")});
        QList<int> lines;
        for (const Mm2Unmapped &u : r.unmapped)
            lines << u.line;
        QCOMPARE(lines, (QList<int>{7, 8, 11, 12, 13, 14, 15, 16, 17, 19, 20}));
        QVERIFY(findUnmapped(r, QStringLiteral("tasks.max"))->reason.contains(QLatin1String("headless")));
        QVERIFY(findUnmapped(r, QStringLiteral("dr->eu.topics"))->reason.contains(QLatin1String("not enabled")));
        QVERIFY(r.unmapped.last().reason.contains(QLatin1String("line 21")));
        for (const Mm2Unmapped &u : r.unmapped)
            QVERIFY2(!u.reason.isEmpty(), qPrintable(u.key));
    }

    void importErrors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QByteArray() << "clusters";
        QTest::newRow("not mm2") << QByteArray("bootstrap.servers=x:1\n") << "clusters";
        QTest::newRow("no enabled flow") << QByteArray("clusters=a,b\na->b.enabled=false\n") << "no enabled flow";
        QTest::newRow("binary") << QByteArray("\x00\xff\xfe garbage \x01=\x02", 16) << "clusters";
    }
    void importErrors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const Mm2ImportResult r = importMm2Properties(text, QStringLiteral("in.properties"));
        QVERIFY(r.flows.isEmpty());
        QVERIFY2(r.error.contains(expected), qPrintable(r.error));
        QVERIFY(r.error.contains(QLatin1String("in.properties")));
    }
};

QTEST_GUILESS_MAIN(TestMm2Import)
#include "tst_mm2import.moc"
