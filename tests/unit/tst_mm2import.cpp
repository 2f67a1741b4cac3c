// MirrorMaker 2 import: the Java properties reader and escaping, and the
// mapping of importMm2Properties() from an mm2.properties to job profiles
// (flows, topics, delivery, naming, sync options), with what it cannot map
// listed. The connection settings: tst_mm2importsecurity.

#include "Mm2TestUtil.h"

#include <QElapsedTimer>
#include <QTest>

using namespace md;
using namespace md::test;

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

    // Flows come in the order of the clusters list (source first, then target),
    // whatever the order of their lines; a name may hold "->" itself.
    void importFlowOrder()
    {
        const QByteArray text = "clusters = x, x->y, z, y->z, eu, dr\n"
                                "dr->eu.enabled = true\n"
                                "x->y->z.enabled = true\n"
                                "eu->dr.enabled = true\n"
                                "z->x.enabled = false\n"
                                "nowhere->dr.enabled = true\n"
                                "eu->eu.enabled = true\n";
        const Mm2ImportResult r = importMm2Properties(text, QStringLiteral("mm2.properties"));
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QStringList flows;
        for (const Mm2Flow &f : r.flows)
            flows << f.sourceAlias + QStringLiteral(" to ") + f.targetAlias;
        QCOMPARE(flows, (QStringList{QStringLiteral("x to y->z"), QStringLiteral("x->y to z"),
                                     QStringLiteral("eu to dr"), QStringLiteral("dr to eu")}));
        QStringList unmapped;
        for (const Mm2Unmapped &u : r.unmapped)
            unmapped << u.key;
        QVERIFY2(unmapped.contains(QStringLiteral("nowhere->dr.enabled")), qPrintable(describeUnmapped(r)));
        QVERIFY2(!unmapped.contains(QStringLiteral("z->x.enabled")), qPrintable(describeUnmapped(r)));
    }

    // A long clusters list is read in one pass over the file, not name by name.
    void importManyClusters()
    {
        QStringList names;
        for (int i = 0; i < 3000; ++i)
            names << QStringLiteral("c%1").arg(i);
        const QByteArray text = "clusters = " + names.join(QLatin1Char(',')).toUtf8() +
                                "\nc2999->c0.enabled = true\nc1->c2.enabled = true\n";
        QElapsedTimer timer;
        timer.start();
        const Mm2ImportResult r = importMm2Properties(text, QStringLiteral("mm2.properties"));
        QCOMPARE(r.flows.size(), 2);
        QCOMPARE(r.flows.at(0).sourceAlias, QStringLiteral("c1"));
        QCOMPARE(r.flows.at(1).sourceAlias, QStringLiteral("c2999"));
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
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
    // MM2 has no schema sync: every imported flow says so, and leaves it off.
    void importSaysSchemasStayBehind()
    {
        const Mm2ImportResult r = importMm2Properties("clusters = eu, dr\neu.bootstrap.servers = eu:9092\n"
                                                      "dr.bootstrap.servers = dr:9092\neu->dr.enabled = true\n");
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QVERIFY(!r.flows.first().profile.syncSchemas);
        QVERIFY2(r.notes.join(QLatin1Char('\n')).contains(QLatin1String("eu->dr: MM2 has no schema sync")),
                 qPrintable(r.notes.join(QLatin1Char('\n'))));
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
        // MM2 syncs topic ACLs by default, every 10 minutes, by its own (the safe) rules.
        QVERIFY(p.syncAcls);
        QCOMPARE(p.aclSyncMode, MirrorJobSpec::AclSyncMode::Safe);
        QCOMPARE(p.aclSyncIntervalMs, 600000);
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
        QVERIFY(!p.syncAcls);
        QCOMPARE(p.topicRefreshIntervalMs, 30000);
        QCOMPARE(p.configExclude, (QStringList{QStringLiteral("retention\\..*"), QStringLiteral("cleanup.policy")}));
        QCOMPARE(p.include, QStringList{QStringLiteral("b")});
        QList<int> lines;
        for (const Mm2Unmapped &u : r.unmapped)
            lines << u.line;
        // Lines 7, 8 and 14 are group settings MirrorDesk has (importGroups).
        QVERIFY(p.emitCheckpoints);
        QVERIFY(p.syncGroupOffsets);
        QCOMPARE(p.groupsInclude, QStringList{QStringLiteral(".*")});
        QCOMPARE(lines, (QList<int>{11, 12, 13, 15, 16, 17, 19, 20}));
        QVERIFY(findUnmapped(r, QStringLiteral("tasks.max"))->reason.contains(QLatin1String("headless")));
        QVERIFY(findUnmapped(r, QStringLiteral("dr->eu.topics"))->reason.contains(QLatin1String("not enabled")));
        QVERIFY(r.unmapped.last().reason.contains(QLatin1String("line 21")));
        for (const Mm2Unmapped &u : r.unmapped)
            QVERIFY2(!u.reason.isEmpty(), qPrintable(u.key));
    }

    // ---------------------------------------------------------------- groups
    // MM2's MirrorCheckpointConnector settings of a flow: which groups, offset
    // sync, checkpoints and their intervals; what the file leaves out is MM2's default.
    void importGroups_data()
    {
        QTest::addColumn<QByteArray>("settings");
        QTest::addColumn<QStringList>("include");
        QTest::addColumn<QStringList>("exclude");
        QTest::addColumn<bool>("sync");
        QTest::addColumn<bool>("checkpoints");
        QTest::addColumn<int>("intervalMs");
        QTest::addColumn<QStringList>("unmapped"); // the keys listed
        QTest::addColumn<QString>("note");         // a note that must be given ("!note": must not), or empty

        const QStringList all{QStringLiteral(".*")};
        const QStringList mm2Exclude{QStringLiteral("console-consumer-.*"), QStringLiteral("connect-.*"),
                                     QStringLiteral("__.*")};
        const QStringList none;
        // Nothing said: MM2 checkpoints every group but its default exclusions, every 60 s, and syncs none.
        QTest::newRow("defaults") << QByteArray() << all << mm2Exclude << false << true << 60000 << QStringList()
                                  << QStringLiteral(
                                         "eu->dr: not set in the file, so as MM2 does by default: groups .*; "
                                         "groups.exclude console-consumer-.*, connect-.*, __.*; checkpoints "
                                         "on (\"checkpoints\": {\"enabled\": true}, to eu.checkpoints.internal "
                                         "on dr); group offsets not written to dr's groups "
                                         "(\"syncGroupOffsets\": false); every 60 s");
        QTest::newRow("every flow key") << QByteArray("eu->dr.groups = app-.*, billing\n"
                                                      "eu->dr.groups.exclude = app-test.*, billing-tmp\n"
                                                      "eu->dr.sync.group.offsets.enabled = true\n"
                                                      "eu->dr.sync.group.offsets.interval.seconds = 15\n"
                                                      "eu->dr.emit.checkpoints.enabled = true\n"
                                                      "eu->dr.emit.checkpoints.interval.seconds = 15\n"
                                                      "eu->dr.refresh.groups.enabled = true\n")
                                        << QStringList{QStringLiteral("app-.*"), QStringLiteral("billing")}
                                        << QStringList{QStringLiteral("app-test.*"), QStringLiteral("billing-tmp")}
                                        << true << true << 15000 << QStringList() << QStringLiteral("!by default");
        QTest::newRow("top-level keys") << QByteArray("groups = orders-.*\n"
                                                      "groups.exclude = orders-test\n"
                                                      "sync.group.offsets.enabled = TRUE\n"
                                                      "sync.group.offsets.interval.seconds = 30\n"
                                                      "emit.checkpoints.enabled = false\n")
                                        << QStringList{QStringLiteral("orders-.*")}
                                        << QStringList{QStringLiteral("orders-test")} << true << false << 30000
                                        << QStringList() << QStringLiteral("!by default");
        QTest::newRow("flow wins over top level")
            << QByteArray("groups = a.*\n"
                          "eu->dr.groups = b.*, c.*\n"
                          "groups.exclude = b-test\n"
                          "emit.checkpoints.enabled = true\n"
                          "eu->dr.emit.checkpoints.enabled = false\n"
                          "sync.group.offsets.enabled = false\n"
                          "eu->dr.sync.group.offsets.enabled = true\n"
                          "sync.group.offsets.interval.seconds = 300\n"
                          "eu->dr.sync.group.offsets.interval.seconds = 20\n")
            << QStringList{QStringLiteral("b.*"), QStringLiteral("c.*")} << QStringList{QStringLiteral("b-test")}
            << true << false << 20000
            << QStringList{QStringLiteral("groups"), QStringLiteral("emit.checkpoints.enabled"),
                           QStringLiteral("sync.group.offsets.enabled"),
                           QStringLiteral("sync.group.offsets.interval.seconds")}
            << QStringLiteral("!by default");
        QTest::newRow("exclude given, include default")
            << QByteArray("groups.exclude = \n") << all << none << false << true << 60000 << QStringList()
            << QStringLiteral("not set in the file, so as MM2 does by default: groups .*; checkpoints on");
        QTest::newRow("deprecated blacklist")
            << QByteArray("groups.blacklist = tmp-.*\n") << all << QStringList{QStringLiteral("tmp-.*")} << false
            << true << 60000 << QStringList() << QString();
        QTest::newRow("exclude wins over blacklist")
            << QByteArray("groups.exclude = a\ngroups.blacklist = b\n") << all << QStringList{QStringLiteral("a")}
            << false << true << 60000 << QStringList{QStringLiteral("groups.blacklist")} << QString();
        // A blank list selects nothing in MM2 (MirrorUtils.compilePatternList): no group, so no checkpoint.
        QTest::newRow("empty groups") << QByteArray("eu->dr.groups =\neu->dr.sync.group.offsets.enabled = true\n")
                                      << none << none << true << false << 60000 << QStringList() << QString();
        QTest::newRow("empty items dropped")
            << QByteArray("groups = a, , b,\n") << QStringList{QStringLiteral("a"), QStringLiteral("b")} << mm2Exclude
            << false << true << 60000 << QStringList() << QString();
        QTest::newRow("checkpoints only, their interval")
            << QByteArray("emit.checkpoints.interval.seconds = 45\nsync.group.offsets.interval.seconds = 10\n") << all
            << mm2Exclude << false << true << 45000 << QStringList() << QString();
        QTest::newRow("sync only, its interval")
            << QByteArray("sync.group.offsets.enabled = true\nemit.checkpoints.enabled = false\n"
                          "sync.group.offsets.interval.seconds = 5\nemit.checkpoints.interval.seconds = 90\n")
            << all << mm2Exclude << true << false << 5000 << QStringList() << QString();
        QTest::newRow("both, two intervals: the shorter")
            << QByteArray("sync.group.offsets.enabled = true\nsync.group.offsets.interval.seconds = 120\n"
                          "emit.checkpoints.interval.seconds = 30\n")
            << all << mm2Exclude << true << true << 30000 << QStringList()
            << QStringLiteral("eu->dr: MM2 would sync group offsets every 120 s and emit checkpoints every 30 s; "
                              "MirrorDesk does both in one round, every 30 s");
        QTest::newRow("both off") << QByteArray(
                                         "sync.group.offsets.enabled = false\nemit.checkpoints.enabled = false\n")
                                  << all << mm2Exclude << false << false << 60000 << QStringList() << QString();
        QTest::newRow("interval above the profile's range")
            << QByteArray("emit.checkpoints.interval.seconds = 7200\n") << all << mm2Exclude << false << true
            << JobProfile::MaxGroupSyncIntervalMs << QStringList()
            << QStringLiteral("eu->dr: group sync interval limited to 3600 s");
        QTest::newRow("interval not a number")
            << QByteArray("eu->dr.emit.checkpoints.interval.seconds = soon\n") << all << mm2Exclude << false << true
            << 60000 << QStringList{QStringLiteral("eu->dr.emit.checkpoints.interval.seconds")} << QString();
        QTest::newRow("interval zero") << QByteArray(
                                              "sync.group.offsets.enabled = true\nemit.checkpoints.enabled = false\n"
                                              "sync.group.offsets.interval.seconds = 0\n")
                                       << all << mm2Exclude << true << false << 60000
                                       << QStringList{QStringLiteral("sync.group.offsets.interval.seconds")}
                                       << QString();
        // An invalid include is left out; an invalid exclude selects no group at all.
        QTest::newRow("invalid include regex")
            << QByteArray("eu->dr.groups = ok-.*, (broken\n") << QStringList{QStringLiteral("ok-.*")} << mm2Exclude
            << false << true << 60000 << QStringList{QStringLiteral("eu->dr.groups")} << QString();
        QTest::newRow("invalid exclude regex")
            << QByteArray("groups = a.*\ngroups.exclude = [x\nsync.group.offsets.enabled = true\n") << none << none
            << true << false << 60000 << QStringList{QStringLiteral("groups.exclude")} << QString();
        // MM2 4.x runs no checkpoint connector without offset syncs.
        QTest::newRow("no offset syncs")
            << QByteArray("emit.offset-syncs.enabled = false\nsync.group.offsets.enabled = true\n") << all << mm2Exclude
            << false << false << 60000 << QStringList()
            << QStringLiteral("emit.offset-syncs.enabled=false: MM2 runs no checkpoint connector");
        QTest::newRow("refresh off") << QByteArray("refresh.groups.enabled = false\n") << all << mm2Exclude << false
                                     << true << 60000 << QStringList{QStringLiteral("refresh.groups.enabled")}
                                     << QString();
        QTest::newRow("refresh interval")
            << QByteArray("eu->dr.refresh.groups.interval.seconds = 30\n") << all << mm2Exclude << false << true
            << 60000 << QStringList{QStringLiteral("eu->dr.refresh.groups.interval.seconds")} << QString();
    }
    void importGroups()
    {
        QFETCH(QByteArray, settings);
        QFETCH(QStringList, include);
        QFETCH(QStringList, exclude);
        QFETCH(bool, sync);
        QFETCH(bool, checkpoints);
        QFETCH(int, intervalMs);
        QFETCH(QStringList, unmapped);
        QFETCH(QString, note);
        const Mm2ImportResult r = importMm2Properties("clusters = eu, dr\neu.bootstrap.servers = eu:9092\n"
                                                      "dr.bootstrap.servers = dr:9092\neu->dr.enabled = true\n" +
                                                      settings);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.flows.size(), 1);
        const JobProfile &p = r.flows.first().profile;
        QCOMPARE(p.groupsInclude, include);
        QCOMPARE(p.groupsExclude, exclude);
        QCOMPARE(p.syncGroupOffsets, sync);
        QCOMPARE(p.emitCheckpoints, checkpoints);
        QCOMPARE(p.groupSyncIntervalMs, intervalMs);
        QVERIFY(p.offsetMap);
        QVERIFY(p.checkpointsAlias.isEmpty()); // eu, as MM2 names eu.checkpoints.internal
        QCOMPARE(unmappedKeys(r), unmapped);
        // The notes about groups; those about ACL sync are importAcls'.
        QStringList groupNotes;
        for (const QString &n : r.notes) {
            if (!n.contains(QLatin1String("ACL")))
                groupNotes << n;
        }
        const QString notes = groupNotes.join(QLatin1Char('\n'));
        if (note.startsWith(QLatin1Char('!')))
            QVERIFY2(!notes.contains(note.mid(1)), qPrintable(notes));
        else if (!note.isEmpty())
            QVERIFY2(notes.contains(note), qPrintable(notes));
        const QList<ProfileIssue> issues = p.validate();
        QVERIFY2(issues.isEmpty(), qPrintable(issues.isEmpty() ? QString() : issues.first().toString()));
    }

    // ---------------------------------------------------------------- ACLs
    // MM2's MirrorSourceConnector syncs topic ACLs unless told not to
    // (sync.topic.acls.enabled, default true; sync.topic.acls.interval.seconds,
    // default 600), by the rules of the profile's safe mode.
    void importAcls_data()
    {
        QTest::addColumn<QByteArray>("settings");
        QTest::addColumn<bool>("sync");
        QTest::addColumn<int>("intervalMs");
        QTest::addColumn<QStringList>("unmapped"); // the keys listed
        QTest::addColumn<QStringList>("notes");    // notes that must be given ("!note": must not)

        const QString byDefault = QStringLiteral("eu->dr: not set in the file, so as MM2 does by default: ");
        QTest::newRow("defaults")
            << QByteArray() << true << 600000 << QStringList()
            << QStringList{byDefault + QStringLiteral("ACLs synced to dr (\"acls\": {\"sync\": true, "
                                                      "\"mode\": \"safe\"}: no ALLOW WRITE on the "
                                                      "mirrored topics, ALLOW ALL becomes READ); every 600 s"),
                           QStringLiteral("eu->dr: ACL sync: MirrorDesk also copies the ACLs of "
                                          "the groups it selects (groups.include); MM2 copies "
                                          "those of topics only")};
        QTest::newRow("both keys") << QByteArray("eu->dr.sync.topic.acls.enabled = true\n"
                                                 "eu->dr.sync.topic.acls.interval.seconds = 30\n")
                                   << true << 30000 << QStringList()
                                   << QStringList{QStringLiteral("!ACLs synced to"), QStringLiteral("!ACL sync every")};
        QTest::newRow("enabled, interval left out")
            << QByteArray("sync.topic.acls.enabled = TRUE\n") << true << 600000 << QStringList()
            << QStringList{byDefault + QStringLiteral("ACL sync every 600 s"), QStringLiteral("!ACLs synced to")};
        QTest::newRow("interval only") << QByteArray("sync.topic.acls.interval.seconds = 120\n") << true << 120000
                                       << QStringList()
                                       << QStringList{byDefault + QStringLiteral("ACLs synced to dr"),
                                                      QStringLiteral("!every 600 s")};
        QTest::newRow("off") << QByteArray("sync.topic.acls.enabled = false\n") << false << 60000 << QStringList()
                             << QStringList{QStringLiteral("!ACL")};
        QTest::newRow("off, an interval for nothing")
            << QByteArray("eu->dr.sync.topic.acls.enabled = false\nsync.topic.acls.interval.seconds = 60\n") << false
            << 60000 << QStringList{QStringLiteral("sync.topic.acls.interval.seconds")}
            << QStringList{QStringLiteral("!ACL")};
        QTest::newRow("flow wins over top level")
            << QByteArray("sync.topic.acls.enabled = false\neu->dr.sync.topic.acls.enabled = true\n"
                          "sync.topic.acls.interval.seconds = 300\neu->dr.sync.topic.acls.interval.seconds = 45\n")
            << true << 45000
            << QStringList{QStringLiteral("sync.topic.acls.enabled"),
                           QStringLiteral("sync.topic.acls.interval.seconds")}
            << QStringList{QStringLiteral("!by default: ACL")};
        QTest::newRow("interval above the profile's range")
            << QByteArray("sync.topic.acls.interval.seconds = 100000\n") << true << JobProfile::MaxAclSyncIntervalMs
            << QStringList() << QStringList{QStringLiteral("eu->dr: ACL sync interval limited to 86400 s")};
        QTest::newRow("interval not a number")
            << QByteArray("eu->dr.sync.topic.acls.interval.seconds = hourly\n") << true << 600000
            << QStringList{QStringLiteral("eu->dr.sync.topic.acls.interval.seconds")}
            << QStringList{byDefault + QStringLiteral("ACLs synced to dr")};
        QTest::newRow("per cluster, not a flow setting")
            << QByteArray("eu.sync.topic.acls.enabled = false\n") << true << 600000
            << QStringList{QStringLiteral("eu.sync.topic.acls.enabled")} << QStringList();
        // No group selected: no group ACL to copy, nothing to say about it.
        QTest::newRow("no groups") << QByteArray("groups =\n") << true << 600000 << QStringList()
                                   << QStringList{QStringLiteral("!ACLs of the groups")};
    }
    void importAcls()
    {
        QFETCH(QByteArray, settings);
        QFETCH(bool, sync);
        QFETCH(int, intervalMs);
        QFETCH(QStringList, unmapped);
        QFETCH(QStringList, notes);
        const Mm2ImportResult r = importMm2Properties("clusters = eu, dr\neu.bootstrap.servers = eu:9092\n"
                                                      "dr.bootstrap.servers = dr:9092\neu->dr.enabled = true\n" +
                                                      settings);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.flows.size(), 1);
        const JobProfile &p = r.flows.first().profile;
        QCOMPARE(p.syncAcls, sync);
        QCOMPARE(p.aclSyncIntervalMs, intervalMs);
        QCOMPARE(p.aclSyncMode, MirrorJobSpec::AclSyncMode::Safe); // MM2 has no other
        QCOMPARE(unmappedKeys(r), unmapped);
        const QString all = r.notes.join(QLatin1Char('\n'));
        for (const QString &note : notes) {
            if (note.startsWith(QLatin1Char('!')))
                QVERIFY2(!all.contains(note.mid(1)), qPrintable(all));
            else
                QVERIFY2(all.contains(note), qPrintable(all));
        }
        const QList<ProfileIssue> issues = p.validate();
        QVERIFY2(issues.isEmpty(), qPrintable(issues.isEmpty() ? QString() : issues.first().toString()));
        // Written and read back as a profile, the ACL settings stay.
        QList<ProfileIssue> readIssues;
        const JobProfile back = JobProfile::fromJson(p.toJson(), QString(), &readIssues);
        QVERIFY2(!hasErrors(readIssues), qPrintable(readIssues.isEmpty() ? QString() : readIssues.first().toString()));
        QCOMPARE(back.syncAcls, sync);
        QCOMPARE(back.aclSyncIntervalMs, intervalMs);
    }

    // What cannot be mapped names its key and says why.
    void importGroupsUnmapped_data()
    {
        QTest::addColumn<QByteArray>("settings");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("reason"); // part of the reason
        QTest::newRow("invalid include") << QByteArray("eu->dr.groups = ok, (broken\n") << "eu->dr.groups"
                                         << "invalid regular expression \"(broken\"";
        QTest::newRow("invalid exclude") << QByteArray("groups.exclude = a, [x, b\n") << "groups.exclude"
                                         << "invalid regular expression \"[x\"";
        QTest::newRow("bad interval") << QByteArray("sync.group.offsets.interval.seconds = -5\n")
                                      << "sync.group.offsets.interval.seconds"
                                      << "not a positive number of seconds; MM2's default (60 s) used";
        QTest::newRow("top level overridden by the flow") << QByteArray("groups = a\neu->dr.groups = b\n") << "groups"
                                                          << "every enabled flow sets its own (A->B.groups)";
        QTest::newRow("per cluster") << QByteArray("eu.emit.checkpoints.enabled = false\n")
                                     << "eu.emit.checkpoints.enabled"
                                     << "MM2 reads it as A->B.emit.checkpoints.enabled or at the top level";
        QTest::newRow("acl key per cluster")
            << QByteArray("dr.sync.topic.acls.interval.seconds = 30\n") << "dr.sync.topic.acls.interval.seconds"
            << "MM2 reads it as A->B.sync.topic.acls.interval.seconds or at the top level";
        QTest::newRow("acl interval with acls off")
            << QByteArray("eu->dr.sync.topic.acls.enabled = false\neu->dr.sync.topic.acls.interval.seconds = 30\n")
            << "eu->dr.sync.topic.acls.interval.seconds"
            << "no effect: ACLs are not synced (sync.topic.acls.enabled=false)";
        QTest::newRow("bad acl interval")
            << QByteArray("sync.topic.acls.interval.seconds = 0\n") << "sync.topic.acls.interval.seconds"
            << "not a positive number of seconds; MM2's default (600 s) used";
        QTest::newRow("acl key overridden by the flow")
            << QByteArray("sync.topic.acls.enabled = true\neu->dr.sync.topic.acls.enabled = false\n")
            << "sync.topic.acls.enabled"
            << "every enabled flow sets its own (A->B.sync.topic.acls.enabled)";
        QTest::newRow("custom group filter")
            << QByteArray("eu->dr.group.filter.class = com.example.Filter\n") << "eu->dr.group.filter.class"
            << "custom group filter";
        QTest::newRow("checkpoints topic factor")
            << QByteArray("checkpoints.topic.replication.factor = 3\n") << "checkpoints.topic.replication.factor"
            << "creates the checkpoints topic itself";
        QTest::newRow("offset syncs on") << QByteArray("emit.offset-syncs.enabled = true\n")
                                         << "emit.offset-syncs.enabled"
                                         << "its own offset map";
        QTest::newRow("refresh off") << QByteArray("eu->dr.refresh.groups.enabled = false\n")
                                     << "eu->dr.refresh.groups.enabled"
                                     << "picks up new matching groups";
    }
    void importGroupsUnmapped()
    {
        QFETCH(QByteArray, settings);
        QFETCH(QString, key);
        QFETCH(QString, reason);
        const Mm2ImportResult r = importMm2Properties("clusters = eu, dr\neu.bootstrap.servers = eu:9092\n"
                                                      "dr.bootstrap.servers = dr:9092\neu->dr.enabled = true\n" +
                                                      settings);
        QCOMPARE(r.flows.size(), 1);
        const Mm2Unmapped *u = findUnmapped(r, key);
        QVERIFY2(u, qPrintable(describeUnmapped(r)));
        QVERIFY2(u->reason.contains(reason), qPrintable(u->toString()));
        QVERIFY2(u->line > 4, qPrintable(u->toString()));
        QVERIFY(r.flows.first().profile.validate().isEmpty());
    }

    // Each flow reads its own settings, else the top level's.
    void importGroupsPerFlow()
    {
        const QByteArray text =
            "clusters = eu, us, dr\n"
            "eu.bootstrap.servers = eu:1\nus.bootstrap.servers = us:1\ndr.bootstrap.servers = dr:1\n"
            "eu->dr.enabled = true\nus->dr.enabled = true\n"
            "groups = shared-.*\n"
            "sync.group.offsets.enabled = true\n"
            "us->dr.groups = us-.*\n"
            "us->dr.sync.group.offsets.enabled = false\n"
            "us->dr.emit.checkpoints.enabled = false\n";
        const Mm2ImportResult r = importMm2Properties(text);
        QCOMPARE(r.flows.size(), 2);
        const JobProfile &eu = r.flows.at(0).profile;
        const JobProfile &us = r.flows.at(1).profile;
        QCOMPARE(eu.groupsInclude, QStringList{QStringLiteral("shared-.*")});
        QVERIFY(eu.syncGroupOffsets);
        QVERIFY(eu.emitCheckpoints);
        QCOMPARE(us.groupsInclude, QStringList{QStringLiteral("us-.*")});
        QVERIFY(!us.syncGroupOffsets);
        QVERIFY(!us.emitCheckpoints);
        QVERIFY2(r.unmapped.isEmpty(), qPrintable(describeUnmapped(r)));
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
