// MirrorMaker 2 import of the connection settings: SASL with its password
// never kept in clear, security protocol defaults and what is unsupported,
// TLS files and PEM, and client overrides per client and per cluster.

#include "Mm2TestUtil.h"

#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <librdkafka/rdkafka.h>

using namespace md;
using namespace md::test;

class TestMm2ImportSecurity final : public QObject {
    Q_OBJECT

private Q_SLOTS:
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
    // The import checks every client property on one librdkafka configuration
    // it keeps; each answer must be the one a configuration of its own gives,
    // whatever was set on the shared one before: a good value and a bad one of
    // the same name on two clusters, out of range, unknown flags, enums,
    // topic-level names, Java-only names.
    void importClientOverridesCheckedAlone()
    {
        struct Pair {
            const char *role; // "consumer." on the sources a and b, "producer." on the targets t and u, "" on all
            const char *name;
            const char *first;
            const char *second;
        };
        const Pair pairs[] = {
            {"consumer.", "fetch.min.bytes", "10", "notanumber"},
            {"consumer.", "fetch.max.bytes", "-5", "1048576"},
            {"consumer.", "debug", "broker,topic", "broker,nonsense"},
            {"consumer.", "queued.min.messages", "0", "5"},
            {"consumer.", "check.crcs", "maybe", "true"},
            {"consumer.", "max.poll.records", "500", "1"},
            {"producer.", "compression.type", "lz4", "rot13"},
            {"producer.", "message.timeout.ms", "x", "1000"},
            {"producer.", "linger.ms", "5", "-1"},
            {"producer.", "partitioner", "dice", "murmur2"},
            {"producer.", "batch.num.messages", "notanumber", "1000"},
            {"producer.", "buffer.memory", "1", "2"},
            {"", "client.rack", "r1", "r2"},
            {"", "socket.timeout.ms", "1", "60000"},
            {"", "topic.metadata.refresh.interval.ms", "1000", "soon"},
        };
        QByteArray text = "clusters = a, b, t, u\n"
                          "a.bootstrap.servers = a:1\nb.bootstrap.servers = b:1\n"
                          "t.bootstrap.servers = t:1\nu.bootstrap.servers = u:1\n"
                          "a->t.enabled = true\nb->u.enabled = true\n";
        struct Expected {
            QString key, name, value;
            rd_kafka_conf_res_t result;
            QString error;
        };
        QList<Expected> expected;
        for (const Pair &p : pairs) {
            const bool source = qstrcmp(p.role, "producer.") != 0;
            const bool target = qstrcmp(p.role, "consumer.") != 0;
            QList<QPair<QString, const char *>> given;
            if (source)
                given << qMakePair(QStringLiteral("a"), p.first) << qMakePair(QStringLiteral("b"), p.second);
            if (target)
                given << qMakePair(QStringLiteral("t"), p.first) << qMakePair(QStringLiteral("u"), p.second);
            for (const auto &[alias, value] : given) {
                const QString key = alias + QLatin1Char('.') + QLatin1String(p.role) + QLatin1String(p.name);
                text += key.toUtf8() + " = " + value + "\n";
                rd_kafka_conf_t *conf = rd_kafka_conf_new();
                char errstr[512] = "";
                const rd_kafka_conf_res_t r = rd_kafka_conf_set(conf, p.name, value, errstr, sizeof errstr);
                rd_kafka_conf_destroy(conf);
                expected << Expected{key, QLatin1String(p.name), QLatin1String(value), r, QString::fromUtf8(errstr)};
            }
        }
        const Mm2ImportResult r = importMm2Properties(text);
        QCOMPARE(r.flows.size(), 2);
        QSet<int> seen;
        for (const Expected &e : expected) {
            seen.insert(int(e.result));
            const QString alias = e.key.section(QLatin1Char('.'), 0, 0);
            const ProfileSide *found = nullptr;
            for (const Mm2Flow &flow : r.flows) {
                for (const ProfileSide *s : {&flow.profile.source, &flow.profile.target}) {
                    if (s->alias == alias)
                        found = s;
                }
            }
            QVERIFY2(found, qPrintable(alias));
            const ProfileSide &side = *found;
            const QMap<QString, QString> &taken = e.key.contains(QLatin1String(".consumer.")) ? side.consumerProperties
                                                  : e.key.contains(QLatin1String(".producer."))
                                                      ? side.producerProperties
                                                      : side.properties;
            const Mm2Unmapped *u = findUnmapped(r, e.key);
            switch (e.result) {
            case RD_KAFKA_CONF_OK:
                QVERIFY2(!u, qPrintable(e.key));
                QCOMPARE(taken.value(e.name), e.value);
                break;
            case RD_KAFKA_CONF_UNKNOWN:
                QVERIFY2(u && u->reason.contains(QLatin1String("librdkafka does not have")), qPrintable(e.key));
                QVERIFY(!taken.contains(e.name));
                break;
            case RD_KAFKA_CONF_INVALID:
                QVERIFY2(u, qPrintable(e.key));
                QCOMPARE(u->reason, e.error);
                QVERIFY(!taken.contains(e.name));
                break;
            }
        }
        // Each kind of answer was asked for.
        QCOMPARE(seen.size(), 3);
    }
};

QTEST_GUILESS_MAIN(TestMm2ImportSecurity)
#include "tst_mm2importsecurity.moc"
