// MirrorMaker 2 export: the mm2.properties and connector JSON written from a
// job profile (never a clear password), round trips through the import, the
// shipped examples, and the import-mm2 / export-mm2 commands end to end.

#include "KafkaTestEnv.h"
#include "Mm2TestUtil.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace md;
using namespace md::test;

Q_DECLARE_METATYPE(md::JobProfile)

namespace {

QMap<QString, QString> asMap(const QByteArray &text, QList<JavaPropertiesError> *errors = nullptr)
{
    QMap<QString, QString> m;
    for (const JavaProperty &p : parseJavaProperties(text, errors))
        m.insert(p.key, p.value);
    return m;
}

JobProfile baseProfile()
{
    JobProfile p;
    p.name = QStringLiteral("orders to DR");
    p.source.alias = QStringLiteral("eu");
    p.source.bootstrap = QStringLiteral("kafka-eu-1:9092,kafka-eu-2:9092");
    p.target.alias = QStringLiteral("dr");
    p.target.bootstrap = QStringLiteral("kafka-dr:9092");
    p.include = {QStringLiteral("orders\\..*"), QStringLiteral("payments")};
    p.exclude = {QStringLiteral(".*\\.internal")};
    p.naming = NamingPolicy::Prefix;
    p.separator = QStringLiteral(".");
    return p;
}

JobProfile saslProfile()
{
    JobProfile p = baseProfile();
    p.source.security = SecurityProtocol::SaslSsl;
    p.source.hasSasl = true;
    p.source.saslMechanism = QStringLiteral("SCRAM-SHA-512");
    p.source.saslUsername = QStringLiteral("mirror");
    p.source.saslPassword = QStringLiteral("${env:EU_PASSWORD}");
    p.source.sslCa = QStringLiteral("/etc/ssl/eu-ca.pem");
    return p;
}

} // namespace

class TestMm2Export final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // ---------------------------------------------------------------- export
    void exportProperties()
    {
        JobProfile p = saslProfile();
        p.source.consumerProperties.insert(QStringLiteral("fetch.max.bytes"), QStringLiteral("1048576"));
        p.target.producerProperties.insert(QStringLiteral("linger.ms"), QStringLiteral("10"));
        p.configExclude = {QStringLiteral("retention\\..*")};
        p.syncTopicConfigs = false;
        Mm2ExportOptions o;
        o.replicationFactor = 1;
        const Mm2ExportResult r = exportMm2Properties(p, o);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QList<JavaPropertiesError> errors;
        const QMap<QString, QString> m = asMap(r.data, &errors);
        QVERIFY(errors.isEmpty());
        QCOMPARE(m.value(QStringLiteral("clusters")), QStringLiteral("eu, dr"));
        QCOMPARE(m.value(QStringLiteral("eu.bootstrap.servers")), p.source.bootstrap);
        QCOMPARE(m.value(QStringLiteral("dr.bootstrap.servers")), p.target.bootstrap);
        QCOMPARE(m.value(QStringLiteral("eu->dr.enabled")), QStringLiteral("true"));
        QCOMPARE(m.value(QStringLiteral("dr->eu.enabled")), QStringLiteral("false"));
        QCOMPARE(m.value(QStringLiteral("dr->eu.emit.heartbeats.enabled")), QStringLiteral("false"));
        QCOMPARE(m.value(QStringLiteral("eu->dr.topics")), QStringLiteral("orders\\..*, payments"));
        QCOMPARE(m.value(QStringLiteral("eu->dr.topics.exclude")), QStringLiteral(".*\\.internal"));
        QCOMPARE(m.value(QStringLiteral("eu->dr.sync.topic.configs.enabled")), QStringLiteral("false"));
        QCOMPARE(m.value(QStringLiteral("eu->dr.config.properties.exclude")), QStringLiteral("retention\\..*"));
        QCOMPARE(m.value(QStringLiteral("replication.policy.class")), QString::fromLatin1(kMm2DefaultPolicy));
        QCOMPARE(m.value(QStringLiteral("replication.policy.separator")), QStringLiteral("."));
        QCOMPARE(m.value(QStringLiteral("eu.security.protocol")), QStringLiteral("SASL_SSL"));
        QCOMPARE(m.value(QStringLiteral("eu.sasl.mechanism")), QStringLiteral("SCRAM-SHA-512"));
        QCOMPARE(m.value(QStringLiteral("eu.sasl.jaas.config")),
                 QStringLiteral("org.apache.kafka.common.security.scram.ScramLoginModule required username=\"mirror\" "
                                "password=\"${env:EU_PASSWORD}\";"));
        QCOMPARE(m.value(QStringLiteral("eu.ssl.truststore.type")), QStringLiteral("PEM"));
        QCOMPARE(m.value(QStringLiteral("eu.ssl.truststore.location")), QStringLiteral("/etc/ssl/eu-ca.pem"));
        QCOMPARE(m.value(QStringLiteral("config.providers")), QStringLiteral("env"));
        QCOMPARE(m.value(QStringLiteral("config.providers.env.class")), QString::fromLatin1(kKafkaEnvProvider));
        QCOMPARE(m.value(QStringLiteral("eu.consumer.fetch.max.bytes")), QStringLiteral("1048576"));
        QCOMPARE(m.value(QStringLiteral("dr.producer.linger.ms")), QStringLiteral("10"));
        for (const char *k :
             {"replication.factor", "heartbeats.topic.replication.factor", "checkpoints.topic.replication.factor",
              "offset-syncs.topic.replication.factor", "offset.storage.replication.factor",
              "status.storage.replication.factor", "config.storage.replication.factor"})
            QCOMPARE(m.value(QString::fromLatin1(k)), QStringLiteral("1"));
        QVERIFY(!m.contains(QStringLiteral("dr.security.protocol")));

        // Without the option MM2's defaults stay.
        const QMap<QString, QString> d = asMap(exportMm2Properties(p).data);
        QVERIFY(!d.contains(QStringLiteral("replication.factor")));
        QVERIFY(!d.contains(QStringLiteral("offset.storage.replication.factor")));
    }

    void exportNeverWritesClearPassword_data()
    {
        QTest::addColumn<QString>("password");
        QTest::addColumn<QString>("variable");
        QTest::newRow("clear") << kSecret << "MIRRORDESK_EU_PASSWORD";
        QTest::newRow("keychain") << "${keychain:mirrordesk/eu}"
                                  << "MIRRORDESK_EU_PASSWORD";
        QTest::newRow("env") << "${env:MY_EU_PW}"
                             << "MY_EU_PW";
    }
    void exportNeverWritesClearPassword()
    {
        QFETCH(QString, password);
        QFETCH(QString, variable);
        JobProfile p = saslProfile();
        p.source.saslPassword = password;
        p.source.properties.insert(QStringLiteral("ssl.keystore.password"), kSecret);
        for (const bool connect : {false, true}) {
            const Mm2ExportResult r = connect ? exportMm2Connector(p) : exportMm2Properties(p);
            QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
            QVERIFY(!r.data.contains(kSecret.toUtf8()));
            QVERIFY(r.data.contains(QStringLiteral("${env:%1}").arg(variable).toUtf8()));
            QVERIFY(r.data.contains("${env:MIRRORDESK_EU_SSL_KEYSTORE_PASSWORD}"));
            QVERIFY(!r.data.contains("keychain"));
            for (const QString &n : r.notes)
                QVERIFY(!n.contains(kSecret));
            if (password != QLatin1String("${env:MY_EU_PW}"))
                QVERIFY(r.notes.join(QLatin1Char('\n')).contains(variable));
        }
    }

    void exportNaming_data()
    {
        QTest::addColumn<int>("policy");
        QTest::addColumn<QString>("nameTemplate");
        QTest::addColumn<QString>("separator");
        QTest::addColumn<QString>("expectedClass"); // empty: refused
        QTest::addColumn<QString>("expectedSeparator");
        QTest::newRow("prefix") << int(NamingPolicy::Prefix) << ""
                                << "_" << kMm2DefaultPolicy << "_";
        QTest::newRow("identity") << int(NamingPolicy::Identity) << ""
                                  << "." << kMm2IdentityPolicy << ".";
        QTest::newRow("template identity") << int(NamingPolicy::Template) << "${topic}"
                                           << "." << kMm2IdentityPolicy << ".";
        QTest::newRow("template alias prefix") << int(NamingPolicy::Template) << "eu--${topic}"
                                               << "." << kMm2DefaultPolicy << "--";
        QTest::newRow("template other prefix") << int(NamingPolicy::Template) << "dr-${topic}"
                                               << "."
                                               << ""
                                               << "";
        QTest::newRow("template suffix") << int(NamingPolicy::Template) << "${topic}.copy"
                                         << "."
                                         << ""
                                         << "";
    }
    void exportNaming()
    {
        QFETCH(int, policy);
        QFETCH(QString, nameTemplate);
        QFETCH(QString, separator);
        QFETCH(QString, expectedClass);
        QFETCH(QString, expectedSeparator);
        JobProfile p = baseProfile();
        p.naming = NamingPolicy(policy);
        p.nameTemplate = nameTemplate;
        p.separator = separator;
        const Mm2ExportResult r = exportMm2Properties(p);
        if (expectedClass.isEmpty()) {
            QVERIFY(r.data.isEmpty());
            QVERIFY2(r.error.contains(QLatin1String("naming.template")), qPrintable(r.error));
            QVERIFY(!exportMm2Connector(p).error.isEmpty());
            return;
        }
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        const QMap<QString, QString> m = asMap(r.data);
        QCOMPARE(m.value(QStringLiteral("replication.policy.class")), expectedClass);
        QCOMPARE(m.value(QStringLiteral("replication.policy.separator")), expectedSeparator);
    }

    void exportRefusals_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("expected");
        QTest::newRow("sandbox reference") << "sandbox"
                                           << "${sandbox:source}";
        QTest::newRow("comma in regex") << "comma"
                                        << "comma";
        QTest::newRow("comma in group regex") << "groupcomma"
                                              << "groups: a regular expression with a comma";
        QTest::newRow("same alias") << "alias"
                                    << "must differ";
        QTest::newRow("dot in alias") << "dot"
                                      << "aliases";
        QTest::newRow("invalid profile") << "invalid"
                                         << "errors";
        QTest::newRow("cert and key apart") << "certkey"
                                            << "one file";
    }
    void exportRefusals()
    {
        QFETCH(QString, what);
        QFETCH(QString, expected);
        JobProfile p = baseProfile();
        if (what == QLatin1String("sandbox"))
            p.source.bootstrap = QStringLiteral("${sandbox:source}");
        else if (what == QLatin1String("comma"))
            p.include = {QStringLiteral("a{1,3}")};
        else if (what == QLatin1String("groupcomma"))
            p.groupsExclude = {QStringLiteral("tmp-[0-9]{2,4}")};
        else if (what == QLatin1String("alias"))
            p.target.alias = p.source.alias;
        else if (what == QLatin1String("dot"))
            p.target.alias = QStringLiteral("d.r");
        else if (what == QLatin1String("invalid"))
            p.include = {QStringLiteral("(")};
        else if (what == QLatin1String("certkey")) {
            p.source.security = SecurityProtocol::Ssl;
            p.source.sslCert = QStringLiteral("/c.pem");
            p.source.sslKey = QStringLiteral("/k.pem");
        }
        const Mm2ExportResult r = exportMm2Properties(p);
        QVERIFY(r.data.isEmpty());
        QVERIFY2(r.error.contains(expected), qPrintable(r.error));
    }

    // Groups, offset sync and checkpoints: MM2's MirrorCheckpointConnector keys of
    // the flow, every one written (MM2's defaults would checkpoint every group).
    void exportGroups_data()
    {
        QTest::addColumn<JobProfile>("profile");
        QTest::addColumn<QStringList>(
            "lines");                      // "key=value" of the flow's keys (without "eu->dr."); "key" alone: absent
        QTest::addColumn<QString>("note"); // a note that must be given, or empty

        const QStringList noGroups{QStringLiteral("groups="),
                                   QStringLiteral("groups.exclude="),
                                   QStringLiteral("sync.group.offsets.enabled=true"),
                                   QStringLiteral("sync.group.offsets.interval.seconds=10"),
                                   QStringLiteral("emit.checkpoints.enabled=false"),
                                   QStringLiteral("emit.checkpoints.interval.seconds")};
        QTest::newRow("no groups: MM2 selects none") << baseProfile() << noGroups << QString();
        JobProfile all = baseProfile();
        all.groupsInclude = {QStringLiteral("orders-.*"), QStringLiteral("billing")};
        all.groupsExclude = {QStringLiteral("orders-test"), QStringLiteral("orders-tmp-.*")};
        all.emitCheckpoints = true;
        all.groupSyncIntervalMs = 30000;
        QTest::newRow("groups, sync and checkpoints")
            << all << QStringList{QStringLiteral("groups=orders-.*, billing"),
                                  QStringLiteral("groups.exclude=orders-test, orders-tmp-.*"),
                                  QStringLiteral("sync.group.offsets.enabled=true"),
                                  QStringLiteral("sync.group.offsets.interval.seconds=30"),
                                  QStringLiteral("emit.checkpoints.enabled=true"),
                                  QStringLiteral("emit.checkpoints.interval.seconds=30")}
            << QString();
        JobProfile checkpoints = all;
        checkpoints.syncGroupOffsets = false;
        checkpoints.groupsExclude.clear();
        QTest::newRow("checkpoints only")
            << checkpoints
            << QStringList{QStringLiteral("groups.exclude="), QStringLiteral("sync.group.offsets.enabled=false"),
                           QStringLiteral("emit.checkpoints.enabled=true")}
            << QString();
        JobProfile rounded = all;
        rounded.groupSyncIntervalMs = 1500;
        QTest::newRow("interval rounded up to whole seconds")
            << rounded
            << QStringList{QStringLiteral("sync.group.offsets.interval.seconds=2"),
                           QStringLiteral("emit.checkpoints.interval.seconds=2")}
            << QStringLiteral("groupSyncIntervalMs 1500: MM2 counts whole seconds, written as 2 s");
        JobProfile off = all;
        off.syncGroupOffsets = false;
        off.emitCheckpoints = false;
        QTest::newRow("both off") << off
                                  << QStringList{QStringLiteral("sync.group.offsets.enabled=false"),
                                                 QStringLiteral("emit.checkpoints.enabled=false"),
                                                 QStringLiteral("emit.checkpoints.interval.seconds")}
                                  << QStringLiteral("MM2 then refuses to start its checkpoint connector");
        JobProfile alias = all;
        alias.checkpointsAlias = QStringLiteral("west");
        QTest::newRow("another checkpoints alias")
            << alias << QStringList{QStringLiteral("emit.checkpoints.enabled=true")}
            << QStringLiteral("MM2 writes them to eu.checkpoints.internal on the target");
        JobProfile separator = all;
        separator.separator = QStringLiteral("_");
        QTest::newRow("separator: MM2's topic alike")
            << separator << QStringList{QStringLiteral("emit.checkpoints.enabled=true")} << QString();
    }
    void exportGroups()
    {
        QFETCH(JobProfile, profile);
        QFETCH(QStringList, lines);
        QFETCH(QString, note);
        QVERIFY(!hasErrors(profile.validate()));
        const Mm2ExportResult r = exportMm2Properties(profile);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        const QMap<QString, QString> m = asMap(r.data);
        for (const QString &line : lines) {
            const QString key = QStringLiteral("eu->dr.") + line.section(QLatin1Char('='), 0, 0);
            if (!line.contains(QLatin1Char('=')))
                QVERIFY2(!m.contains(key), qPrintable(key));
            else
                QCOMPARE(m.value(key, QStringLiteral("(absent)")), line.section(QLatin1Char('='), 1));
        }
        // Per flow only: nothing at the top level or for the reverse flow.
        for (const char *k : {"groups", "sync.group.offsets.enabled", "emit.checkpoints.enabled"}) {
            QVERIFY(!m.contains(QString::fromLatin1(k)));
            QVERIFY(!m.contains(QStringLiteral("dr->eu.") + QString::fromLatin1(k)));
        }
        const QString notes = r.notes.join(QLatin1Char('\n'));
        if (note.isEmpty())
            QVERIFY2(!notes.contains(QLatin1String("checkpoint")) && !notes.contains(QLatin1String("whole seconds")),
                     qPrintable(notes));
        else
            QVERIFY2(notes.contains(note), qPrintable(notes));

        // The connector JSON is the MirrorSourceConnector only: the group work is a note.
        const Mm2ExportResult connector = exportMm2Connector(profile);
        QVERIFY2(connector.error.isEmpty(), qPrintable(connector.error));
        QVERIFY(!connector.data.contains("groups"));
        const bool groupWork =
            !profile.groupsInclude.isEmpty() && (profile.syncGroupOffsets || profile.emitCheckpoints);
        QCOMPARE(connector.notes.join(QLatin1Char('\n')).contains(QLatin1String("MirrorCheckpointConnector")),
                 groupWork);
    }

    // MM2 copies no subject and keeps the source's ids: an export of a profile that syncs schemas says so.
    void exportSaysMm2HasNoSchemaSync()
    {
        JobProfile p = baseProfile();
        Mm2ExportResult r = exportMm2Properties(p);
        QVERIFY(!r.notes.join(QLatin1Char('\n')).contains(QLatin1String("schemas.sync")));
        p.syncSchemas = true;
        p.source.registryUrl = QStringLiteral("http://eu-registry:8081");
        p.target.registryUrl = QStringLiteral("http://dr-registry:8081");
        r = exportMm2Properties(p);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QVERIFY2(r.notes.join(QLatin1Char('\n')).contains(QLatin1String("schemas.sync: MM2 has no equivalent")),
                 qPrintable(r.notes.join(QLatin1Char('\n'))));
    }

    // ACL sync: MM2's MirrorSourceConnector keys, in both outputs. MM2 syncs
    // by default, so "off" is written too; its sync is the safe mode only.
    void exportAcls_data()
    {
        QTest::addColumn<JobProfile>("profile");
        QTest::addColumn<QStringList>("lines"); // "key=value" of the flow's keys (without "eu->dr."); "key": absent
        QTest::addColumn<QStringList>("notes"); // notes that must be given ("!note": must not)

        QTest::newRow("off") << baseProfile()
                             << QStringList{QStringLiteral("sync.topic.acls.enabled=false"),
                                            QStringLiteral("sync.topic.acls.interval.seconds")}
                             << QStringList{QStringLiteral("!acls")};
        JobProfile safe = baseProfile();
        safe.syncAcls = true;
        QTest::newRow("safe, default interval") << safe
                                                << QStringList{QStringLiteral("sync.topic.acls.enabled=true"),
                                                               QStringLiteral("sync.topic.acls.interval.seconds=60")}
                                                << QStringList{QStringLiteral("!acls")};
        JobProfile tenMinutes = safe;
        tenMinutes.aclSyncIntervalMs = 600000;
        QTest::newRow("safe, MM2's interval")
            << tenMinutes << QStringList{QStringLiteral("sync.topic.acls.interval.seconds=600")}
            << QStringList{QStringLiteral("!acls")};
        JobProfile rounded = safe;
        rounded.aclSyncIntervalMs = 1500;
        QTest::newRow("interval rounded up to whole seconds")
            << rounded << QStringList{QStringLiteral("sync.topic.acls.interval.seconds=2")}
            << QStringList{QStringLiteral("acls.intervalMs 1500: MM2 counts whole seconds, written as 2 s")};
        JobProfile exact = safe;
        exact.aclSyncMode = MirrorJobSpec::AclSyncMode::Exact;
        QTest::newRow("exact: MM2 has none")
            << exact
            << QStringList{QStringLiteral("sync.topic.acls.enabled=true"),
                           QStringLiteral("sync.topic.acls.interval.seconds=60")}
            << QStringList{QStringLiteral("acls.mode \"exact\": MM2 has no exact mode; it always leaves out ALLOW "
                                          "WRITE on the mirrored topics and turns ALLOW ALL into READ")};
        JobProfile exactOff = exact;
        exactOff.syncAcls = false;
        QTest::newRow("exact but off: nothing to say")
            << exactOff << QStringList{QStringLiteral("sync.topic.acls.enabled=false")}
            << QStringList{QStringLiteral("!acls")};
        JobProfile groups = safe;
        groups.groupsInclude = {QStringLiteral("orders-.*")};
        QTest::newRow("group ACLs stay behind")
            << groups << QStringList{QStringLiteral("sync.topic.acls.enabled=true")}
            << QStringList{QStringLiteral("acls: MM2 copies the ACLs of topics only; those of the groups "
                                          "(groups.include) are not copied")};
    }
    void exportAcls()
    {
        QFETCH(JobProfile, profile);
        QFETCH(QStringList, lines);
        QFETCH(QStringList, notes);
        QVERIFY(!hasErrors(profile.validate()));
        auto checkNotes = [&](const QStringList &given) {
            const QString all = given.join(QLatin1Char('\n'));
            for (const QString &note : notes) {
                if (note.startsWith(QLatin1Char('!')))
                    QVERIFY2(!all.contains(note.mid(1)), qPrintable(all));
                else
                    QVERIFY2(all.contains(note), qPrintable(all));
            }
        };
        const Mm2ExportResult r = exportMm2Properties(profile);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        const QMap<QString, QString> m = asMap(r.data);
        const Mm2ExportResult connector = exportMm2Connector(profile);
        QVERIFY2(connector.error.isEmpty(), qPrintable(connector.error));
        const QJsonObject config =
            QJsonDocument::fromJson(connector.data).object().value(QStringLiteral("config")).toObject();
        for (const QString &line : lines) {
            const QString key = line.section(QLatin1Char('='), 0, 0);
            if (!line.contains(QLatin1Char('='))) {
                QVERIFY2(!m.contains(QStringLiteral("eu->dr.") + key), qPrintable(key));
                QVERIFY2(!config.contains(key), qPrintable(key));
            } else {
                QCOMPARE(m.value(QStringLiteral("eu->dr.") + key, QStringLiteral("(absent)")),
                         line.section(QLatin1Char('='), 1));
                QCOMPARE(config.value(key).toString(QStringLiteral("(absent)")), line.section(QLatin1Char('='), 1));
            }
        }
        // Per flow only, nothing for the reverse flow.
        QVERIFY(!m.contains(QStringLiteral("sync.topic.acls.enabled")));
        QVERIFY(!m.contains(QStringLiteral("dr->eu.sync.topic.acls.enabled")));
        checkNotes(r.notes);
        checkNotes(connector.notes);

        // Imported back: the same sync and interval (in whole seconds), in safe mode, MM2's only one.
        const Mm2ImportResult back = importMm2Properties(r.data);
        QCOMPARE(back.flows.size(), 1);
        QVERIFY2(back.unmapped.isEmpty(), qPrintable(describeUnmapped(back)));
        const JobProfile &p = back.flows.first().profile;
        QCOMPARE(p.syncAcls, profile.syncAcls);
        QCOMPARE(p.aclSyncMode, MirrorJobSpec::AclSyncMode::Safe);
        if (profile.syncAcls)
            QCOMPARE(p.aclSyncIntervalMs, (profile.aclSyncIntervalMs + 999) / 1000 * 1000);
    }

    void exportConnector()
    {
        JobProfile p = saslProfile();
        p.naming = NamingPolicy::Identity;
        p.target.producerProperties.insert(QStringLiteral("linger.ms"), QStringLiteral("5"));
        Mm2ExportOptions o;
        o.replicationFactor = 2;
        const Mm2ExportResult r = exportMm2Connector(p, o);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(r.data, &pe);
        QCOMPARE(pe.error, QJsonParseError::NoError);
        QCOMPARE(doc.object().value(QStringLiteral("name")).toString(), QStringLiteral("mirrordesk-orders-to-dr"));
        const QJsonObject c = doc.object().value(QStringLiteral("config")).toObject();
        auto v = [&](const char *k) { return c.value(QString::fromLatin1(k)).toString(); };
        QCOMPARE(v("connector.class"), QStringLiteral("org.apache.kafka.connect.mirror.MirrorSourceConnector"));
        QCOMPARE(v("source.cluster.alias"), QStringLiteral("eu"));
        QCOMPARE(v("target.cluster.alias"), QStringLiteral("dr"));
        QCOMPARE(v("source.cluster.bootstrap.servers"), p.source.bootstrap);
        QCOMPARE(v("target.cluster.bootstrap.servers"), p.target.bootstrap);
        QCOMPARE(v("topics"), QStringLiteral("orders\\..*, payments"));
        QCOMPARE(v("topics.exclude"), QStringLiteral(".*\\.internal"));
        QCOMPARE(v("replication.policy.class"), QString::fromLatin1(kMm2IdentityPolicy));
        QCOMPARE(v("source.cluster.security.protocol"), QStringLiteral("SASL_SSL"));
        QVERIFY(v("source.cluster.sasl.jaas.config").contains(QLatin1String("password=\"${env:EU_PASSWORD}\"")));
        QCOMPARE(v("target.producer.linger.ms"), QStringLiteral("5"));
        QCOMPARE(v("key.converter"), QStringLiteral("org.apache.kafka.connect.converters.ByteArrayConverter"));
        QCOMPARE(v("value.converter"), QStringLiteral("org.apache.kafka.connect.converters.ByteArrayConverter"));
        QCOMPARE(v("replication.factor"), QStringLiteral("2"));
        QVERIFY(r.notes.join(QLatin1Char('\n')).contains(QLatin1String("config.providers")));
    }

    void exportExactlyOnce()
    {
        JobProfile p = baseProfile();
        p.delivery = DeliveryGuarantee::ExactlyOnce;
        p.transactionIntervalMs = 250;
        p.transactionMaxRecords = 500;
        const Mm2ExportResult r = exportMm2Properties(p);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        const QMap<QString, QString> m = asMap(r.data);
        // KIP-618 in dedicated mode: the workers of flows into dr, their internal REST, a read_committed source.
        QCOMPARE(m.value(QStringLiteral("dr.exactly.once.source.support")), QStringLiteral("enabled"));
        QCOMPARE(m.value(QStringLiteral("dedicated.mode.enable.internal.rest")), QStringLiteral("true"));
        QCOMPARE(m.value(QStringLiteral("eu.consumer.isolation.level")), QStringLiteral("read_committed"));
        QCOMPARE(m.value(QStringLiteral("eu->dr.exactly.once.support")), QStringLiteral("required"));
        QCOMPARE(m.value(QStringLiteral("eu->dr.transaction.boundary")), QStringLiteral("interval"));
        QCOMPARE(m.value(QStringLiteral("eu->dr.transaction.boundary.interval.ms")), QStringLiteral("250"));
        QVERIFY(!m.contains(QStringLiteral("exactly.once.source.support"))); // MM2 ignores it at the top level
        const QString notes = r.notes.join(QLatin1Char('\n'));
        QVERIFY2(notes.contains(QLatin1String("transactionMaxRecords has no MM2 equivalent")), qPrintable(notes));
        QVERIFY2(notes.contains(QLatin1String("read_committed")), qPrintable(notes));

        const Mm2ExportResult connector = exportMm2Connector(p);
        QVERIFY2(connector.error.isEmpty(), qPrintable(connector.error));
        const QJsonObject c =
            QJsonDocument::fromJson(connector.data).object().value(QStringLiteral("config")).toObject();
        auto v = [&](const char *k) { return c.value(QString::fromLatin1(k)).toString(); };
        QCOMPARE(v("exactly.once.support"), QStringLiteral("required"));
        QCOMPARE(v("source.consumer.isolation.level"), QStringLiteral("read_committed"));
        QCOMPARE(v("transaction.boundary"), QStringLiteral("interval"));
        QCOMPARE(v("transaction.boundary.interval.ms"), QStringLiteral("250"));
        QVERIFY2(connector.notes.join(QLatin1Char('\n')).contains(QLatin1String("exactly.once.source.support=enabled")),
                 qPrintable(connector.notes.join(QLatin1Char('\n'))));

        // At-least-once writes none of it, whatever the transaction settings say.
        p.delivery = DeliveryGuarantee::AtLeastOnce;
        const QByteArray plain = exportMm2Properties(p).data;
        QVERIFY2(!plain.contains("exactly.once") && !plain.contains("transaction.boundary") &&
                     !plain.contains("isolation.level"),
                 plain.constData());
        QVERIFY(!exportMm2Connector(p).data.contains("exactly.once"));
    }

    // -------------------------------------------------------------- round trip
    void roundTrip_data()
    {
        QTest::addColumn<JobProfile>("profile");
        QTest::newRow("plain prefix") << baseProfile();
        JobProfile p = saslProfile();
        p.source.consumerProperties.insert(QStringLiteral("fetch.max.bytes"), QStringLiteral("2097152"));
        p.source.properties.insert(QStringLiteral("client.rack"), QStringLiteral("eu-1a"));
        p.target.producerProperties.insert(QStringLiteral("compression.type"), QStringLiteral("lz4"));
        p.target.adminProperties.insert(QStringLiteral("request.timeout.ms"), QStringLiteral("20000"));
        p.syncTopicConfigs = false;
        p.configExclude = {QStringLiteral("retention\\..*"), QStringLiteral("segment\\.bytes")};
        p.topicRefreshIntervalMs = 30000;
        QTest::newRow("sasl_ssl with overrides") << p;
        JobProfile i = baseProfile();
        i.naming = NamingPolicy::Identity;
        i.exclude.clear();
        i.start = StartPosition::Latest;
        i.target.security = SecurityProtocol::SaslPlaintext;
        i.target.hasSasl = true;
        i.target.saslMechanism = QStringLiteral("PLAIN");
        i.target.saslUsername = QStringLiteral("writer");
        i.target.saslPassword = QStringLiteral("${env:DR_PASSWORD}");
        QTest::newRow("identity, latest, plain sasl target") << i;
        JobProfile t = baseProfile();
        t.source.security = SecurityProtocol::Ssl;
        t.source.sslCa = QStringLiteral("/etc/ca.pem");
        t.source.sslCert = QStringLiteral("/etc/client.pem");
        t.source.sslKey = QStringLiteral("/etc/client.pem");
        t.source.sslKeyPassword = QStringLiteral("${env:KEY_PW}");
        t.separator = QStringLiteral("_");
        QTest::newRow("ssl client certificate, separator") << t;
        JobProfile k = baseProfile();
        k.source.security = SecurityProtocol::Ssl;
        k.source.properties.insert(QStringLiteral("ssl.keystore.location"), QStringLiteral("/etc/client.p12"));
        k.source.properties.insert(QStringLiteral("ssl.keystore.password"), QStringLiteral("${env:KS_PW}"));
        QTest::newRow("pkcs12 keystore") << k;
        JobProfile e = baseProfile();
        e.delivery = DeliveryGuarantee::ExactlyOnce;
        e.transactionIntervalMs = 2000;
        QTest::newRow("exactly-once") << e;
        JobProfile g = baseProfile();
        g.groupsInclude = {QStringLiteral("orders-.*"), QStringLiteral("billing"), QStringLiteral("app\\.[a-z]+")};
        g.groupsExclude = {QStringLiteral("orders-test"), QStringLiteral("orders-tmp-.*")};
        g.emitCheckpoints = true;
        g.groupSyncIntervalMs = 30000;
        QTest::newRow("groups, sync and checkpoints") << g;
        JobProfile c = g;
        c.syncGroupOffsets = false;
        c.groupsExclude.clear();
        c.groupSyncIntervalMs = 120000;
        QTest::newRow("checkpoints only, no exclusions") << c;
        JobProfile s = g;
        s.emitCheckpoints = false;
        s.groupSyncIntervalMs = JobProfile::MinGroupSyncIntervalMs;
        QTest::newRow("offset sync only") << s;
        JobProfile o = g;
        o.syncGroupOffsets = false;
        o.emitCheckpoints = false;
        o.groupSyncIntervalMs = JobProfile::MaxGroupSyncIntervalMs;
        QTest::newRow("groups listed, both off") << o;
        JobProfile n = baseProfile();
        n.syncGroupOffsets = false;
        QTest::newRow("no groups, sync off") << n;
        JobProfile a = baseProfile();
        a.syncAcls = true;
        QTest::newRow("acls synced") << a;
        JobProfile ag = g;
        ag.syncAcls = true;
        ag.aclSyncIntervalMs = 600000;
        QTest::newRow("groups and acls synced, MM2's interval") << ag;
    }
    void roundTrip()
    {
        QFETCH(JobProfile, profile);
        QVERIFY(profile.validate().isEmpty());
        const Mm2ExportResult exported = exportMm2Properties(profile);
        QVERIFY2(exported.error.isEmpty(), qPrintable(exported.error));
        const Mm2ImportResult imported = importMm2Properties(exported.data);
        QVERIFY2(imported.error.isEmpty(), qPrintable(imported.error));
        QVERIFY2(imported.unmapped.isEmpty(), qPrintable(describeUnmapped(imported)));
        QVERIFY(imported.variables.isEmpty()); // every password was already a reference
        QCOMPARE(imported.flows.size(), 1);
        JobProfile back = imported.flows.first().profile;
        // The name and the file are not part of an mm2.properties; everything else is.
        back.name = profile.name;
        back.fileName = profile.fileName;
        QCOMPARE(back.source, profile.source);
        QCOMPARE(back.target, profile.target);
        QCOMPARE(back.include, profile.include);
        QCOMPARE(back.exclude, profile.exclude);
        QCOMPARE(back.naming, profile.naming);
        QCOMPARE(back.separator, profile.separator);
        QCOMPARE(back.start, profile.start);
        QCOMPARE(back.syncTopicConfigs, profile.syncTopicConfigs);
        QCOMPARE(back.configExclude, profile.configExclude);
        QCOMPARE(back.topicRefreshIntervalMs, profile.topicRefreshIntervalMs);
        QCOMPARE(back.delivery, profile.delivery);
        QCOMPARE(back.transactionIntervalMs, profile.transactionIntervalMs);
        QCOMPARE(back.groupsInclude, profile.groupsInclude);
        QCOMPARE(back.groupsExclude, profile.groupsExclude);
        QCOMPARE(back.syncGroupOffsets, profile.syncGroupOffsets);
        QCOMPARE(back.groupSyncIntervalMs, profile.groupSyncIntervalMs);
        QCOMPARE(back.emitCheckpoints, profile.emitCheckpoints);
        QCOMPARE(back.checkpointsAlias, profile.checkpointsAlias);
        QCOMPARE(back.offsetMap, profile.offsetMap);
        QCOMPARE(back.syncAcls, profile.syncAcls);
        QCOMPARE(back.aclSyncIntervalMs, profile.aclSyncIntervalMs);
        QCOMPARE(back.aclSyncMode, profile.aclSyncMode);
        QVERIFY(back == profile);

        // And the other way: the imported profile exports to the same file.
        const Mm2ExportResult again = exportMm2Properties(back);
        QCOMPARE(again.data, exported.data);
    }

    void importThenExportKeepsMeaning()
    {
        const QByteArray mm2 = "clusters = primary, backup\n"
                               "primary.bootstrap.servers = p1:9092\n"
                               "backup.bootstrap.servers = b1:9092\n"
                               "primary->backup.enabled = true\n"
                               "primary->backup.topics = orders.*, users\n"
                               "primary->backup.topics.exclude = .*\\\\.tmp\n"
                               "replication.policy.separator = -\n";
        const Mm2ImportResult r = importMm2Properties(mm2);
        QCOMPARE(r.flows.size(), 1);
        const QMap<QString, QString> m = asMap(exportMm2Properties(r.flows.first().profile).data);
        QCOMPARE(m.value(QStringLiteral("primary->backup.topics")), QStringLiteral("orders.*, users"));
        QCOMPARE(m.value(QStringLiteral("primary->backup.topics.exclude")), QStringLiteral(".*\\.tmp"));
        QCOMPARE(m.value(QStringLiteral("replication.policy.separator")), QStringLiteral("-"));
        QCOMPARE(m.value(QStringLiteral("primary.bootstrap.servers")), QStringLiteral("p1:9092"));
    }

    // The shipped examples describe the same flow in both formats.
    void examples()
    {
        QList<ProfileIssue> issues;
        const std::optional<JobProfile> job = JobProfile::load(
            QStringLiteral(MIRRORDESK_SOURCE_DIR "/resources/examples/orders-to-dr.mirrorjob"), &issues);
        QVERIFY(job);
        QVERIFY(!hasErrors(issues));
        QFile f(QStringLiteral(MIRRORDESK_SOURCE_DIR "/resources/examples/mm2.properties"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const Mm2ImportResult r = importMm2Properties(f.readAll());
        QCOMPARE(r.flows.size(), 1);
        QCOMPARE(unmappedKeys(r), QStringList{QStringLiteral("tasks.max")});
        QVERIFY(r.variables.isEmpty());
        const JobProfile &imported = r.flows.first().profile;
        QCOMPARE(imported.source.alias, job->source.alias);
        QCOMPARE(imported.source.bootstrap, job->source.bootstrap);
        QCOMPARE(imported.source.security, job->source.security);
        QCOMPARE(imported.source.saslPassword, job->source.saslPassword);
        QCOMPARE(imported.source.sslCa, job->source.sslCa);
        QCOMPARE(imported.target.bootstrap, job->target.bootstrap);
        QCOMPARE(imported.include, job->include);
        QCOMPARE(imported.exclude, job->exclude);
        QVERIFY(exportMm2Properties(*job).error.isEmpty());
    }

    // ------------------------------------------------------------ command line
    // The `mirrordesk import-mm2` / `export-mm2` commands end to end, through
    // the built executable.
    void commandLine()
    {
        const QString exe = QStringLiteral(MIRRORDESK_BINARY_DIR "/app/mirrordesk");
        MD_REQUIRE_FILE(exe);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString input = dir.filePath(QStringLiteral("mm2.properties"));
        {
            QFile f(input);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("clusters = eu, dr\n"
                    "eu.bootstrap.servers = eu:9092\n"
                    "eu.security.protocol = SASL_PLAINTEXT\n"
                    "eu.sasl.mechanism = SCRAM-SHA-512\n"
                    "eu.sasl.jaas.config = org.apache.kafka.common.security.scram.ScramLoginModule required "
                    "username=\"m\" password=\"" +
                    kSecret.toUtf8() +
                    "\";\n"
                    "dr.bootstrap.servers = dr:9092\n"
                    "eu->dr.enabled = true\n"
                    "tasks.max = 2\n");
        }
        QProcess proc;
        proc.start(exe, {QStringLiteral("import-mm2"), input, QStringLiteral("--output"),
                         dir.filePath(QStringLiteral("out"))});
        QVERIFY(proc.waitForFinished(30000));
        const QString out = QString::fromUtf8(proc.readAllStandardOutput());
        const QString err = QString::fromUtf8(proc.readAllStandardError());
        QVERIFY2(proc.exitCode() == 0, qPrintable(out + err));
        const QString job = dir.filePath(QStringLiteral("out/eu-to-dr.mirrorjob"));
        QVERIFY(QFile::exists(job));
        QVERIFY2(out.contains(QLatin1String("MIRRORDESK_EU_PASSWORD")), qPrintable(out));
        QVERIFY2(out.contains(QLatin1String("line 8: tasks.max")), qPrintable(out));
        QVERIFY(!out.contains(kSecret) && !err.contains(kSecret));

        // Export the imported profile back; the password is nowhere in the directory.
        proc.start(exe, {QStringLiteral("export-mm2"), job, QStringLiteral("--output"),
                         dir.filePath(QStringLiteral("back.properties")), QStringLiteral("--single-broker")});
        QVERIFY(proc.waitForFinished(30000));
        QVERIFY2(proc.exitCode() == 0, proc.readAllStandardError().constData());
        proc.start(exe, {QStringLiteral("export-mm2"), job, QStringLiteral("--connect")});
        QVERIFY(proc.waitForFinished(30000));
        QCOMPARE(proc.exitCode(), 0);
        const QByteArray json = proc.readAllStandardOutput();
        QVERIFY(QJsonDocument::fromJson(json).isObject());
        QVERIFY(filesContaining(dir.path(), kSecret.toUtf8()) == QStringList{input});
        QVERIFY(!json.contains(kSecret.toUtf8()));
        const QMap<QString, QString> back = asMap([&] {
            QFile f(dir.filePath(QStringLiteral("back.properties")));
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }());
        QCOMPARE(back.value(QStringLiteral("offset.storage.replication.factor")), QStringLiteral("1"));

        // Existing outputs are not replaced without --force; bad arguments exit 2.
        proc.start(exe, {QStringLiteral("import-mm2"), input, QStringLiteral("--output"),
                         dir.filePath(QStringLiteral("out"))});
        QVERIFY(proc.waitForFinished(30000));
        QCOMPARE(proc.exitCode(), 2);
        proc.start(exe, {QStringLiteral("export-mm2")});
        QVERIFY(proc.waitForFinished(30000));
        QCOMPARE(proc.exitCode(), 2);
    }
};

QTEST_GUILESS_MAIN(TestMm2Export)
#include "tst_mm2export.moc"
