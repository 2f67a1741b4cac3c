#include "model/cluster/ConnectionStore.h"

#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest/QTest>

using namespace md;

namespace {

Connection saslConnection(const QString &name)
{
    Connection c;
    c.name = name;
    c.bootstrap = QStringLiteral("kafka1:9092, kafka2:9093");
    c.security = SecurityProtocol::SaslPlaintext;
    c.saslMechanism = QStringLiteral("SCRAM-SHA-512");
    c.saslUsername = QStringLiteral("operator");
    c.properties.insert(QStringLiteral("client.id"), QStringLiteral("mirrordesk-ops"));
    c.properties.insert(QStringLiteral("socket.timeout.ms"), QStringLiteral("20000"));
    return c;
}

bool hasIssue(const QList<ConnectionIssue> &issues, const QString &field, const QString &part = {})
{
    for (const ConnectionIssue &i : issues) {
        if (i.field == field && i.message.contains(part))
            return true;
    }
    return false;
}

QString dump(const QList<ConnectionIssue> &issues)
{
    QStringList out;
    for (const ConnectionIssue &i : issues)
        out.append(i.toString());
    return out.join(QStringLiteral(" | "));
}

} // namespace

class TestConnectionStore final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void roundTrip()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("settings.ini"));
        QFile ca(dir.filePath(QStringLiteral("ca.pem")));
        QVERIFY(ca.open(QIODevice::WriteOnly));
        ca.write("-----BEGIN CERTIFICATE-----\n");
        ca.close();

        Connection a = saslConnection(QStringLiteral("prod / eu"));
        Connection b;
        b.name = QStringLiteral("staging");
        b.bootstrap = QStringLiteral("[::1]:9092");
        b.security = SecurityProtocol::Ssl;
        b.sslCaFile = ca.fileName();
        {
            ConnectionStore store(ini);
            QList<ConnectionIssue> issues;
            QVERIFY2(store.save(a, &issues), qPrintable(dump(issues)));
            QVERIFY2(store.save(b, &issues), qPrintable(dump(issues)));
            QVERIFY(store.sync());
        }
        ConnectionStore reread(ini);
        QCOMPARE(reread.names(), (QStringList{a.name, b.name}));
        Connection expectA = a;
        expectA.bootstrap = QStringLiteral("kafka1:9092, kafka2:9093");
        QCOMPARE(*reread.connection(a.name), expectA);
        QCOMPARE(*reread.connection(b.name), b);

        // Engine configuration: the password only in memory, the alias is the name.
        const ClusterConfig cfg = reread.connection(a.name)->toClusterConfig(QStringLiteral("pw"));
        QCOMPARE(cfg.alias, a.name);
        QCOMPARE(cfg.saslPassword, QStringLiteral("pw"));
        QCOMPARE(cfg.saslMechanism, QStringLiteral("SCRAM-SHA-512"));
        QCOMPARE(cfg.properties.value(QStringLiteral("client.id")), QStringLiteral("mirrordesk-ops"));
        QVERIFY(cfg.sslCaFile.isEmpty()); // not an SSL protocol
        const ClusterConfig sslCfg = reread.connection(b.name)->toClusterConfig();
        QCOMPARE(sslCfg.sslCaFile, ca.fileName());
        QVERIFY(sslCfg.saslUsername.isEmpty());
        QVERIFY(makeKafkaConf(cfg, ClientRole::Admin).conf);
    }

    void consumerDefaults()
    {
        // A consumer fetches again 10 ms after its prefetch queue was full
        // (librdkafka's 1000 ms stalled the mirror engine), unless the
        // operator says otherwise; other roles do not get the setting.
        const auto value = [](const ClusterConfig &c, ClientRole role) -> QString {
            ConfResult r = makeKafkaConf(c, role);
            if (!r.conf)
                return QStringLiteral("error: ") + r.error;
            char buf[64];
            size_t size = sizeof buf;
            if (rd_kafka_conf_get(r.conf.get(), "fetch.queue.backoff.ms", buf, &size) != RD_KAFKA_CONF_OK)
                return QStringLiteral("unknown");
            return QString::fromUtf8(buf);
        };
        ClusterConfig c;
        c.bootstrap = QStringLiteral("localhost:9092");
        QCOMPARE(value(c, ClientRole::Consumer), QStringLiteral("10"));
        QCOMPARE(value(c, ClientRole::Producer), QStringLiteral("1000")); // librdkafka's default, unused there
        c.consumerProperties.insert(QStringLiteral("fetch.queue.backoff.ms"), QStringLiteral("250"));
        QCOMPARE(value(c, ClientRole::Consumer), QStringLiteral("250"));
        c.consumerProperties.clear();
        c.properties.insert(QStringLiteral("fetch.queue.backoff.ms"), QStringLiteral("100"));
        QCOMPARE(value(c, ClientRole::Consumer), QStringLiteral("100"));
    }

    void renameDuplicateRemove()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("s.ini"));
        ConnectionStore store(ini);
        QVERIFY(store.save(saslConnection(QStringLiteral("a"))));
        QVERIFY(store.save(saslConnection(QStringLiteral("b"))));
        QList<ConnectionIssue> issues;
        QVERIFY(!store.rename(QStringLiteral("a"), QStringLiteral("b"), &issues));
        QVERIFY2(hasIssue(issues, QStringLiteral("name"), QStringLiteral("exists already")), qPrintable(dump(issues)));
        QVERIFY(store.rename(QStringLiteral("a"), QStringLiteral("c"), &issues));
        QCOMPARE(store.names(), (QStringList{QStringLiteral("c"), QStringLiteral("b")})); // keeps its place
        QCOMPARE(store.copyName(QStringLiteral("c")), QStringLiteral("c (copy)"));
        Connection copy = *store.connection(QStringLiteral("c"));
        copy.name = store.copyName(QStringLiteral("c"));
        QVERIFY(store.save(copy));
        QCOMPARE(store.copyName(QStringLiteral("c")), QStringLiteral("c (copy 2)"));
        QVERIFY(store.remove(QStringLiteral("b")));
        QVERIFY(!store.remove(QStringLiteral("b")));
        ConnectionStore reread(ini);
        QCOMPARE(reread.names(), (QStringList{QStringLiteral("c"), QStringLiteral("c (copy)")}));
    }

    void secretsNeverInFile_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::newRow("sasl.password") << QStringLiteral("sasl.password") << QStringLiteral("Sup3rS3cretPw");
        QTest::newRow("ssl.key.password") << QStringLiteral("ssl.key.password") << QStringLiteral("Sup3rS3cretPw");
        QTest::newRow("oauth secret") << QStringLiteral("sasl.oauthbearer.client.secret")
                                      << QStringLiteral("Sup3rS3cretPw");
        QTest::newRow("oauth config") << QStringLiteral("sasl.oauthbearer.config")
                                      << QStringLiteral("principal=admin clientSecret=Sup3rS3cretPw");
        QTest::newRow("keystore") << QStringLiteral("ssl.keystore.password") << QStringLiteral("Sup3rS3cretPw");
        QTest::newRow("jaas") << QStringLiteral("sasl.jaas.config")
                              << QStringLiteral("PlainLoginModule required password=\"Sup3rS3cretPw\";");
        QTest::newRow("upper case") << QStringLiteral("SASL.PASSWORD") << QStringLiteral("Sup3rS3cretPw");
        QTest::newRow("inline key") << QStringLiteral("ssl.key.pem")
                                    << QStringLiteral("-----BEGIN PRIVATE KEY-----Sup3rS3cretPw");
        QTest::newRow("value says password")
            << QStringLiteral("client.id") << QStringLiteral("x password=Sup3rS3cretPw");
    }

    void secretsNeverInFile()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("s.ini"));
        ConnectionStore store(ini);
        QVERIFY(store.save(saslConnection(QStringLiteral("ok"))));
        Connection c = saslConnection(QStringLiteral("bad"));
        c.properties.insert(key, value);
        QList<ConnectionIssue> issues;
        QVERIFY(!store.save(c, &issues));
        QVERIFY2(hasIssue(issues, QStringLiteral("extra property ") + key, QStringLiteral("not saved")),
                 qPrintable(dump(issues)));
        QVERIFY(!store.contains(QStringLiteral("bad")));
        QVERIFY(store.sync());

        QFile f(ini);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.contains("ok"));             // the file was written...
        QVERIFY(!bytes.contains("Sup3rS3cretPw")); // ...without the secret
    }

    // A hand-edited settings file with a secret in it: not handed on, and
    // dropped from the file at the next write.
    void secretInHandEditedFileIsDropped()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("s.ini"));
        {
            QSettings s(ini, QSettings::IniFormat);
            s.beginWriteArray(QStringLiteral("connections"), 1);
            s.setArrayIndex(0);
            s.setValue(QStringLiteral("name"), QStringLiteral("edited"));
            s.setValue(QStringLiteral("bootstrap"), QStringLiteral("k:9092"));
            s.setValue(QStringLiteral("security"), QStringLiteral("plaintext"));
            s.setValue(QStringLiteral("properties"),
                       QStringList{QStringLiteral("sasl.password=Sup3rS3cretPw"), QStringLiteral("client.id=x")});
            s.endArray();
        }
        ConnectionStore store(ini);
        const Connection c = *store.connection(QStringLiteral("edited"));
        QCOMPARE(c.properties, (QMap<QString, QString>{{QStringLiteral("client.id"), QStringLiteral("x")}}));
        QVERIFY(store.save(c));
        QFile f(ini);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(!f.readAll().contains("Sup3rS3cretPw"));
    }

    void validation()
    {
        Connection c;
        QList<ConnectionIssue> issues = validateConnection(c);
        QVERIFY2(hasIssue(issues, QStringLiteral("name")), qPrintable(dump(issues)));
        QVERIFY2(hasIssue(issues, QStringLiteral("bootstrap servers"), QStringLiteral("empty")),
                 qPrintable(dump(issues)));

        c.name = QStringLiteral("x");
        c.bootstrap = QStringLiteral("kafka1,kafka2:99999,:9092,host:9092");
        issues = validateConnection(c);
        QVERIFY2(hasIssue(issues, QStringLiteral("bootstrap servers"), QStringLiteral("\"kafka1\" has no port")),
                 qPrintable(dump(issues)));
        QVERIFY2(hasIssue(issues, QStringLiteral("bootstrap servers"), QStringLiteral("1 to 65535")),
                 qPrintable(dump(issues)));
        QVERIFY2(hasIssue(issues, QStringLiteral("bootstrap servers"), QStringLiteral("no host")),
                 qPrintable(dump(issues)));
        QCOMPARE(issues.size(), 3);

        c.bootstrap = QStringLiteral("host:9092");
        c.security = SecurityProtocol::SaslSsl;
        c.saslMechanism = QStringLiteral("GSSAPI");
        c.sslCaFile = QStringLiteral("/nonexistent/ca.pem");
        c.sslCertFile = QStringLiteral("/nonexistent/client.pem");
        issues = validateConnection(c);
        QVERIFY2(hasIssue(issues, QStringLiteral("SASL mechanism"), QStringLiteral("\"GSSAPI\" is not one of PLAIN")),
                 qPrintable(dump(issues)));
        QVERIFY2(hasIssue(issues, QStringLiteral("SASL user")), qPrintable(dump(issues)));
        QVERIFY2(hasIssue(issues, QStringLiteral("CA certificate file"), QStringLiteral("does not exist")),
                 qPrintable(dump(issues)));
        QVERIFY2(hasIssue(issues, QStringLiteral("client key file"), QStringLiteral("go together")),
                 qPrintable(dump(issues)));

        c = saslConnection(QStringLiteral("p"));
        c.properties.insert(QStringLiteral("no.such.property"), QStringLiteral("1"));
        c.properties.insert(QStringLiteral("socket.timeout.ms"), QStringLiteral("not-a-number"));
        c.properties.insert(QStringLiteral("sasl.username"), QStringLiteral("u"));
        issues = validateConnection(c);
        QVERIFY2(hasIssue(issues, QStringLiteral("extra property no.such.property"),
                          QStringLiteral("No such configuration property")),
                 qPrintable(dump(issues)));
        QVERIFY2(hasIssue(issues, QStringLiteral("extra property socket.timeout.ms")), qPrintable(dump(issues)));
        QVERIFY2(
            hasIssue(issues, QStringLiteral("extra property sasl.username"), QStringLiteral("\"SASL user\" field")),
            qPrintable(dump(issues)));
        QCOMPARE(issues.size(), 3);

        QVERIFY(validateConnection(saslConnection(QStringLiteral("fine"))).isEmpty());
    }

    // The registry's settings survive a save and a reread; only the URL, the
    // kind of authentication, the user and the CA path reach the file.
    void registryRoundTrip()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("s.ini"));
        QFile ca(dir.filePath(QStringLiteral("registry-ca.pem")));
        QVERIFY(ca.open(QIODevice::WriteOnly));
        ca.write("-----BEGIN CERTIFICATE-----\n");
        ca.close();
        Connection basic = saslConnection(QStringLiteral("basic"));
        basic.registryUrl = QStringLiteral("https://apicurio.example:8443/apis/ccompat/v7");
        basic.registryAuth = RegistryAuth::Basic;
        basic.registryUsername = QStringLiteral("reader");
        basic.registryCaFile = ca.fileName();
        Connection bearer = saslConnection(QStringLiteral("bearer"));
        bearer.registryUrl = QStringLiteral("http://registry:8081");
        bearer.registryAuth = RegistryAuth::Bearer;
        {
            ConnectionStore store(ini);
            QList<ConnectionIssue> issues;
            QVERIFY2(store.save(basic, &issues), qPrintable(dump(issues)));
            QVERIFY2(store.save(bearer, &issues), qPrintable(dump(issues)));
            QVERIFY(store.sync());
        }
        ConnectionStore reread(ini);
        QCOMPARE(*reread.connection(basic.name), basic);
        QCOMPARE(*reread.connection(bearer.name), bearer);

        // The secret goes where the authentication kind says, from memory only.
        const ClusterConfig b = reread.connection(basic.name)->toClusterConfig({}, {}, QStringLiteral("RegPw"));
        QCOMPARE(b.schemaRegistry.url, basic.registryUrl);
        QCOMPARE(b.schemaRegistry.username, QStringLiteral("reader"));
        QCOMPARE(b.schemaRegistry.password, QStringLiteral("RegPw"));
        QVERIFY(b.schemaRegistry.token.isEmpty());
        QCOMPARE(b.schemaRegistry.caFile, ca.fileName());
        const ClusterConfig t = reread.connection(bearer.name)->toClusterConfig({}, {}, QStringLiteral("RegToken"));
        QCOMPARE(t.schemaRegistry.token, QStringLiteral("RegToken"));
        QVERIFY(t.schemaRegistry.username.isEmpty());
        QVERIFY(t.schemaRegistry.password.isEmpty());
        QVERIFY(!saslConnection(QStringLiteral("none")).toClusterConfig().schemaRegistry.isSet());

        QFile f(ini);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(bytes.contains("apicurio.example"));
        QVERIFY(bytes.contains("bearer"));
        QVERIFY(!bytes.contains("RegPw"));
        QVERIFY(!bytes.contains("RegToken"));
    }

    void registryValidation_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<int>("auth");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("field"); // empty: valid
        QTest::addColumn<QString>("part");
        const QString urlField = QStringLiteral("schema registry URL");
        QTest::newRow("none") << QString() << int(RegistryAuth::None) << QString() << QString() << QString();
        QTest::newRow("http") << QStringLiteral("http://registry:8081") << int(RegistryAuth::None) << QString()
                              << QString() << QString();
        QTest::newRow("https path") << QStringLiteral("https://apicurio/apis/ccompat/v7") << int(RegistryAuth::Bearer)
                                    << QString() << QString() << QString();
        QTest::newRow("no scheme") << QStringLiteral("registry:8081") << int(RegistryAuth::None) << QString()
                                   << urlField << QStringLiteral("http(s) URL");
        QTest::newRow("ftp") << QStringLiteral("ftp://registry") << int(RegistryAuth::None) << QString() << urlField
                             << QStringLiteral("http(s) URL");
        QTest::newRow("no host") << QStringLiteral("http:///subjects") << int(RegistryAuth::None) << QString()
                                 << urlField << QStringLiteral("with a host");
        QTest::newRow("userinfo") << QStringLiteral("https://u:Sup3rS3cretPw@registry") << int(RegistryAuth::None)
                                  << QString() << urlField << QStringLiteral("password in it");
        QTest::newRow("basic without user") << QStringLiteral("https://registry") << int(RegistryAuth::Basic)
                                            << QString() << QStringLiteral("registry user") << QStringLiteral("user");
        QTest::newRow("auth without url")
            << QString() << int(RegistryAuth::Bearer) << QString() << urlField << QStringLiteral("empty");
    }

    void registryValidation()
    {
        QFETCH(QString, url);
        QFETCH(int, auth);
        QFETCH(QString, user);
        QFETCH(QString, field);
        QFETCH(QString, part);
        Connection c = saslConnection(QStringLiteral("r"));
        c.registryUrl = url;
        c.registryAuth = RegistryAuth(auth);
        c.registryUsername = user;
        const QList<ConnectionIssue> issues = validateConnection(c);
        if (field.isEmpty()) {
            QVERIFY2(issues.isEmpty(), qPrintable(dump(issues)));
            return;
        }
        QCOMPARE(issues.size(), 1);
        QVERIFY2(hasIssue(issues, field, part), qPrintable(dump(issues)));
        QVERIFY2(!dump(issues).contains(QStringLiteral("Sup3rS3cretPw")), qPrintable(dump(issues)));
    }

    // A registry URL with "user:secret@" written into the file by hand: the
    // secret is not handed on and is gone from the file after the next write.
    void registryUserInfoInHandEditedFileIsDropped()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("s.ini"));
        {
            QSettings s(ini, QSettings::IniFormat);
            s.beginWriteArray(QStringLiteral("connections"), 1);
            s.setArrayIndex(0);
            s.setValue(QStringLiteral("name"), QStringLiteral("edited"));
            s.setValue(QStringLiteral("bootstrap"), QStringLiteral("k:9092"));
            s.setValue(QStringLiteral("registryUrl"), QStringLiteral("https://u:Sup3rS3cretPw@registry:8081/x"));
            s.setValue(QStringLiteral("registryAuth"), QStringLiteral("BASIC"));
            s.setValue(QStringLiteral("registryUsername"), QStringLiteral("u"));
            s.endArray();
        }
        ConnectionStore store(ini);
        const Connection c = *store.connection(QStringLiteral("edited"));
        QCOMPARE(c.registryUrl, QStringLiteral("https://registry:8081/x"));
        QCOMPARE(c.registryAuth, RegistryAuth::Basic);
        QVERIFY(store.save(c));
        QFile f(ini);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(!f.readAll().contains("Sup3rS3cretPw"));
    }

    void propertyLines()
    {
        QList<ConnectionIssue> issues;
        const auto props =
            parsePropertyLines(QStringLiteral("# comment\n client.id = a=b \n\nbroken line\nclient.id=c\n"), &issues);
        QCOMPARE(props.value(QStringLiteral("client.id")), QStringLiteral("c"));
        QCOMPARE(issues.size(), 2);
        QCOMPARE(issues.at(0).field, QStringLiteral("extra properties, line 4"));
        QCOMPARE(issues.at(1).field, QStringLiteral("extra properties, line 5"));
        const QMap<QString, QString> m{{QStringLiteral("a"), QStringLiteral("1")},
                                       {QStringLiteral("b"), QStringLiteral("x=y")}};
        QCOMPARE(parsePropertyLines(formatPropertyLines(m), nullptr), m);
    }
};

QTEST_GUILESS_MAIN(TestConnectionStore)
#include "tst_connectionstore.moc"
