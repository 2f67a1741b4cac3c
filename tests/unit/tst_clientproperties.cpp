// librdkafka properties that load code or run a command (plugin.library.paths,
// ssl.engine.location, ssl.providers, sasl.kerberos.kinit.cmd) are refused
// wherever a file or a user can set them: a profile, an mm2.properties import,
// a saved connection, and the engine's own client configuration. A real
// plugin that leaves a mark when loaded shows none of them gets that far; the
// last test shows the plugin does load when set directly, so the others can fail.
#include "engine/core/ClientProperties.h"
#include "engine/core/ClusterConfig.h"
#include "model/cluster/ConnectionStore.h"
#include "model/mm2/Mm2Properties.h"
#include "model/profile/JobProfile.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <librdkafka/rdkafka.h>

using namespace md;

class TstClientProperties final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_mark;
    const QString m_plugin = QStringLiteral(MD_TEST_PLUGIN);

    bool marked() const { return QFileInfo::exists(m_mark); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFileInfo::exists(m_plugin), qPrintable(m_plugin));
        m_mark = m_dir.filePath(QStringLiteral("loaded"));
        qputenv("MD_TEST_PLUGIN_MARK", m_mark.toUtf8());
    }

    void theRefusedOnesAreNamed()
    {
        for (const char *name : {"plugin.library.paths", "ssl.engine.location", "ssl.providers",
                                 "sasl.kerberos.kinit.cmd", " plugin.library.paths "})
            QVERIFY2(!refusedClientPropertyReason(QString::fromLatin1(name)).isEmpty(), name);
        for (const char *name : {"linger.ms", "ssl.ca.location", "sasl.kerberos.keytab", "client.rack"})
            QVERIFY2(refusedClientPropertyReason(QString::fromLatin1(name)).isEmpty(), name);
        QVERIFY(
            refusedClientPropertyReason(QStringLiteral("sasl.kerberos.kinit.cmd")).contains(QLatin1String("command")));
    }

    void theEngineNeverSetsThem()
    {
        for (ClientRole role : {ClientRole::Admin, ClientRole::Consumer, ClientRole::Producer}) {
            ClusterConfig c;
            c.bootstrap = QStringLiteral("127.0.0.1:1");
            c.properties.insert(QStringLiteral("plugin.library.paths"), m_plugin);
            const ConfResult r = makeKafkaConf(c, role);
            QVERIFY(!r.conf);
            QVERIFY2(r.error.startsWith(QLatin1String("plugin.library.paths: refused: loads a shared library")),
                     qPrintable(r.error));
        }
        ClusterConfig c;
        c.bootstrap = QStringLiteral("127.0.0.1:1");
        c.consumerProperties.insert(QStringLiteral("plugin.library.paths"), m_plugin);
        QVERIFY(!makeKafkaConf(c, ClientRole::Consumer).conf);
        QVERIFY(makeKafkaConf(c, ClientRole::Producer).conf); // only the consumer gets those
        c.consumerProperties.clear();
        c.properties.insert(QStringLiteral("sasl.kerberos.kinit.cmd"), QStringLiteral("touch ") + m_mark);
        const ConfResult r = makeKafkaConf(c, ClientRole::Admin);
        QVERIFY(!r.conf);
        QVERIFY2(r.error.contains(QLatin1String("runs a shell command")), qPrintable(r.error));
        QVERIFY(!marked());
    }

    void aProfileWithOneIsInvalidAndSaysWhere()
    {
        const QByteArray json = QStringLiteral(R"({"mirrordesk": 1, "name": "plugin",
            "source": {"alias": "a", "bootstrap": "a:9092", "consumerProperties": {"plugin.library.paths": "%1"}},
            "target": {"alias": "b", "bootstrap": "b:9092", "properties": {"ssl.engine.location": "%1"}},
            "topics": {"include": ["x"]}})")
                                    .arg(m_plugin)
                                    .toUtf8();
        QList<ProfileIssue> issues;
        const JobProfile p = JobProfile::fromJson(json, QStringLiteral("plugin.mirrorjob"), &issues);
        Q_UNUSED(p) // fromJson's issues include validate()'s
        QStringList errors;
        for (const ProfileIssue &i : std::as_const(issues)) {
            if (i.isError())
                errors << i.keyPath + QStringLiteral(": ") + i.message;
        }
        const QString all = errors.join(QLatin1Char('\n'));
        QVERIFY2(
            all.contains(QLatin1String("source.consumerProperties[\"plugin.library.paths\"]: refused: loads a shared "
                                       "library (a librdkafka plugin)")),
            qPrintable(all));
        QVERIFY2(
            all.contains(QLatin1String("target.properties[\"ssl.engine.location\"]: refused: loads a shared library")),
            qPrintable(all));
        QVERIFY(!marked());
    }

    void anMm2ImportLeavesThemOutAndSaysWhy()
    {
        const QByteArray props = "clusters = eu, dr\n"
                                 "eu.bootstrap.servers = eu:9092\n"
                                 "dr.bootstrap.servers = dr:9092\n"
                                 "eu->dr.enabled = true\n"
                                 "eu.consumer.plugin.library.paths = " +
                                 m_plugin.toUtf8() +
                                 "\n"
                                 "dr.producer.sasl.kerberos.kinit.cmd = touch " +
                                 m_mark.toUtf8() + "\n";
        const Mm2ImportResult r = importMm2Properties(props, QStringLiteral("mm2.properties"));
        QCOMPARE(r.flows.size(), 1);
        const JobProfile &p = r.flows.first().profile;
        QVERIFY(!p.source.consumerProperties.contains(QStringLiteral("plugin.library.paths")));
        QVERIFY(!p.target.producerProperties.contains(QStringLiteral("sasl.kerberos.kinit.cmd")));
        QStringList reasons;
        for (const Mm2Unmapped &u : r.unmapped)
            reasons << u.toString();
        const QString all = reasons.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QLatin1String("line 5: eu.consumer.plugin.library.paths: plugin.library.paths loads a "
                                            "shared library")),
                 qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("line 6: dr.producer.sasl.kerberos.kinit.cmd: sasl.kerberos.kinit.cmd "
                                            "runs a shell command")),
                 qPrintable(all));
        QVERIFY(!marked());
    }

    void aConnectionWithOneIsRefused()
    {
        Connection c;
        c.name = QStringLiteral("plugin");
        c.bootstrap = QStringLiteral("a:9092");
        c.properties.insert(QStringLiteral("plugin.library.paths"), m_plugin);
        QStringList issues;
        for (const ConnectionIssue &i : validateConnection(c))
            issues << i.toString();
        const QString all = issues.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QLatin1String("extra property plugin.library.paths: refused: loads a shared library")),
                 qPrintable(all));
        QVERIFY(!marked());
    }

    // Last: once loaded, the plugin stays in the process. This is what the
    // tests above keep from happening.
    void thePluginLoadsWhenSetDirectly()
    {
        QVERIFY(!marked());
        rd_kafka_conf_t *conf = rd_kafka_conf_new();
        char errstr[512];
        const rd_kafka_conf_res_t r =
            rd_kafka_conf_set(conf, "plugin.library.paths", m_plugin.toUtf8().constData(), errstr, sizeof errstr);
        rd_kafka_conf_destroy(conf);
        QVERIFY2(r == RD_KAFKA_CONF_OK, errstr);
        QVERIFY(marked());
    }
};

QTEST_GUILESS_MAIN(TstClientProperties)
#include "tst_clientproperties.moc"
