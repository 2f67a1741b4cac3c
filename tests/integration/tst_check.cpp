// `mirrordesk check` against the real brokers: the bounded cluster probe, the
// topic plan under each naming policy, and the executable's output and exit
// codes. Where a job starts, retention and transactions: tst_checkreadiness.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "check_support.h"
#include "engine/admin/ClusterProbe.h"
#include "engine/mirror/MirrorPlan.h"
#include "engine/mirror/TopicNaming.h"

#include <QFile>
#include <QtTest/QtTest>

using namespace md;
using namespace md::test;

class TestCheck final : public QObject, private CheckFixture {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        createTopics();
    }

    void probeListsTopicsWithPartitions()
    {
        const ClusterProbeResult r = probeCluster(test::clusterConfig(QStringLiteral("source")), 10000);
        QVERIFY2(r.reachable, qPrintable(r.error));
        QVERIFY(r.error.isEmpty());
        QCOMPARE(r.failure.kind, KafkaErrorKind::None);
        QCOMPARE(r.brokerCount, 1);
        QVERIFY(r.topic(m_orders));
        QCOMPARE(r.topic(m_orders)->partitions, 3);
        QCOMPARE(r.topic(m_payments)->partitions, 2);
        QVERIFY(!r.topic(m_base + QStringLiteral(".none")));
    }

    void probeOfAClosedPortFailsFastNamingTheAddress()
    {
        ClusterConfig c;
        c.bootstrap = QStringLiteral("127.0.0.1:%1").arg(closedPort());
        const ClusterProbeResult r = probeCluster(c, 15000);
        QVERIFY(!r.reachable);
        QVERIFY2(r.error.startsWith(c.bootstrap + QStringLiteral(": cannot reach the cluster")), qPrintable(r.error));
        QVERIFY2(r.error.contains(QStringLiteral("refused"), Qt::CaseInsensitive), qPrintable(r.error));
        QCOMPARE(r.failure.kind, KafkaErrorKind::Unreachable);
        QCOMPARE(r.failure.message, r.error);
        QVERIFY2(r.elapsedMs < 8000, qPrintable(QString::number(r.elapsedMs))); // fails on the refusal, not the timeout
    }

    void probeWithAWrongPasswordFailsNamingTheReason()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("sasl"));
        ClusterConfig c = test::clusterConfig(QStringLiteral("sasl"));
        const ClusterProbeResult good = probeCluster(c, 15000);
        QVERIFY2(good.reachable, qPrintable(good.error));
        c.saslPassword = QStringLiteral("wrong");
        const ClusterProbeResult r = probeCluster(c, 15000);
        QVERIFY(!r.reachable);
        QVERIFY2(r.error.contains(QStringLiteral("uthentication")), qPrintable(r.error));
        QCOMPARE(r.failure.kind, KafkaErrorKind::Authentication);
        QVERIFY2(r.elapsedMs < 15000, qPrintable(QString::number(r.elapsedMs)));
    }

    void probeWithAnotherCaFailsAsTls()
    {
        // librdkafka reports the refused handshake as _SSL or as _TRANSPORT,
        // whichever failure it sees first: the kind is TLS either way. A few
        // rounds, because which one comes first varies from run to run.
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("tls"));
        ClusterConfig c = test::clusterConfig(QStringLiteral("tls"));
        c.sslCaFile = test::tlsFile(QStringLiteral("other-ca.pem"));
        for (int round = 0; round < 3; ++round) {
            const ClusterProbeResult r = probeCluster(c, 8000);
            QVERIFY(!r.reachable);
            QVERIFY2(r.failure.kind == KafkaErrorKind::Tls, qPrintable(QStringLiteral("%1 (code %2): %3")
                                                                           .arg(kafkaErrorKindName(r.failure.kind))
                                                                           .arg(r.failure.code)
                                                                           .arg(r.error)));
        }
        {
            ClusterConfig anon = test::clusterConfig(QStringLiteral("tls"));
            anon.sslCertFile.clear();
            anon.sslKeyFile.clear();
            anon.sslKeyPassword.clear();
            // No client certificate: the broker's TLS alert comes on the first
            // request (TLS 1.3), as a transport error; still TLS.
            const ClusterProbeResult a = probeCluster(anon, 8000);
            QVERIFY(!a.reachable);
            QVERIFY2(a.failure.kind == KafkaErrorKind::Tls,
                     qPrintable(kafkaErrorKindName(a.failure.kind) + QLatin1Char(' ') + a.error));
        }
        // An unreadable client key is refused before anything is sent, as TLS.
        c.sslCaFile = test::tlsFile(QStringLiteral("ca.pem"));
        c.sslKeyPassword = QStringLiteral("not-the-key-password");
        const ClusterProbeResult r = probeCluster(c, 8000);
        QVERIFY(!r.reachable);
        QCOMPARE(r.failure.kind, KafkaErrorKind::Tls);
        QVERIFY2(r.elapsedMs < 2000, qPrintable(QString::number(r.elapsedMs)));
    }

    void planFollowsTheNamingPolicy_data()
    {
        QTest::addColumn<int>("policy");
        QTest::addColumn<QString>("prefix"); // the target name of topic T is prefix + T
        QTest::newRow("identity") << int(NamingPolicy::Identity) << QString();
        QTest::newRow("prefix") << int(NamingPolicy::Prefix) << QStringLiteral("eu.");
        QTest::newRow("template") << int(NamingPolicy::Template) << QStringLiteral("copy-");
    }

    void planFollowsTheNamingPolicy()
    {
        QFETCH(int, policy);
        QFETCH(QString, prefix);
        const MirrorJobSpec s = spec(NamingPolicy(policy));
        const ClusterProbeResult source = probeCluster(s.source, 10000);
        const ClusterProbeResult target = probeCluster(s.target, 10000);
        QVERIFY2(source.reachable && target.reachable, qPrintable(source.error + target.error));
        const MirrorPlan plan = planMirror(s, source.topics, target.topics);
        QCOMPARE(plan.topics.size(), 2); // orders and payments; the .internal one is excluded
        QCOMPARE(plan.topics[0].sourceTopic, m_orders);
        QCOMPARE(plan.topics[0].sourcePartitions, 3);
        QCOMPARE(plan.topics[0].targetTopic, prefix + m_orders);
        QCOMPARE(plan.topics[1].targetTopic, prefix + m_payments);
        QCOMPARE(plan.excluded.size(), 1);
        QCOMPARE(plan.excluded[0].topic, m_internal);
        if (NamingPolicy(policy) == NamingPolicy::Prefix) {
            QCOMPARE(plan.topics[0].action, TopicPlanEntry::Action::Mirror);
            QCOMPARE(plan.topics[0].targetPartitions, 3);
            // Too few partitions: the engine adds them (as MM2 does), and the plan says so.
            QCOMPARE(plan.topics[1].action, TopicPlanEntry::Action::Mirror);
            QCOMPARE(plan.topics[1].targetPartitions, 1);
            QVERIFY2(plan.topics[1].note.contains(QStringLiteral("fewer than the source's 2: the job adds 1")),
                     qPrintable(plan.topics[1].note));
            QVERIFY(!plan.hasErrors());
        } else {
            for (const TopicPlanEntry &e : plan.topics) {
                QCOMPARE(e.action, TopicPlanEntry::Action::Create);
                QCOMPARE(e.targetPartitions, -1);
                QVERIFY(e.note.contains(QStringLiteral("will be created with %1 partitions").arg(e.sourcePartitions)));
            }
            QVERIFY(!plan.hasErrors());
            MirrorJobSpec noCreate = s;
            noCreate.createTopics = false;
            const MirrorPlan strict = planMirror(noCreate, source.topics, target.topics);
            QCOMPARE(strict.topics[0].action, TopicPlanEntry::Action::Error);
            QVERIFY(strict.topics[0].note.contains(QStringLiteral("createTopics is off")));
        }
    }

    void commandListsTopicsAndTargetNames_data()
    {
        QTest::addColumn<QString>("naming");
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<bool>("targetExists");
        QTest::newRow("identity") << QStringLiteral(R"({"policy": "identity"})") << QString() << false;
        QTest::newRow("prefix") << QStringLiteral(R"({"policy": "prefix", "separator": "."})") << QStringLiteral("eu.")
                                << true;
        QTest::newRow("template") << QStringLiteral(R"({"policy": "template", "template": "dr-${topic}"})")
                                  << QStringLiteral("dr-") << false;
    }

    void commandListsTopicsAndTargetNames()
    {
        QFETCH(QString, naming);
        QFETCH(QString, prefix);
        QFETCH(bool, targetExists);
        QVERIFY2(QFile::exists(kExe), qPrintable(kExe + QStringLiteral(" was not built")));
        const QString path =
            writeProfile(QStringLiteral("naming.mirrorjob"), profileJson(naming, test::targetBootstrap()));
        const Run r = runCheck(path);
        QCOMPARE(r.exitCode, 0); // a target topic with too few partitions is grown, not an error
        QVERIFY2(r.out.contains(QStringLiteral("profile is valid")), qPrintable(r.out + r.err));
        QVERIFY2(
            r.out.contains(QStringLiteral("source eu (") + test::sourceBootstrap() + QStringLiteral("): reachable")),
            qPrintable(r.out));
        QVERIFY2(
            r.out.contains(QStringLiteral("target dr (") + test::targetBootstrap() + QStringLiteral("): reachable")),
            qPrintable(r.out));
        const QString orders =
            QStringLiteral("  ") + m_orders + QStringLiteral(" (3 partitions) -> ") + prefix + m_orders;
        const QString payments =
            QStringLiteral("  ") + m_payments + QStringLiteral(" (2 partitions) -> ") + prefix + m_payments;
        QVERIFY2(r.out.contains(orders), qPrintable(r.out));
        QVERIFY2(r.out.contains(payments), qPrintable(r.out));
        QVERIFY2(r.out.contains(m_internal + QStringLiteral(": ")), qPrintable(r.out)); // listed as not mirrored
        if (!targetExists) {
            QVERIFY2(r.out.contains(orders + QStringLiteral(": missing, will be created with 3 partitions")),
                     qPrintable(r.out));
        } else {
            QVERIFY2(r.out.contains(orders + QStringLiteral(": exists, 3 partitions")), qPrintable(r.out));
            QVERIFY2(
                r.out.contains(payments +
                               QStringLiteral(": exists with 1 partitions, fewer than the source's 2: the job adds 1")),
                qPrintable(r.out));
        }
    }

    void unreachableClusterIsNamedWithin20Seconds()
    {
        QVERIFY2(QFile::exists(kExe), qPrintable(kExe + QStringLiteral(" was not built")));
        const QString closed = QStringLiteral("127.0.0.1:%1").arg(closedPort());
        const QString path = writeProfile(QStringLiteral("unreachable.mirrorjob"),
                                          profileJson(QStringLiteral(R"({"policy": "prefix"})"), closed));
        const Run r = runCheck(path);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.elapsedMs < 20000, qPrintable(QString::number(r.elapsedMs)));
        QVERIFY2(r.err.contains(QStringLiteral("target cluster unreachable: ") + closed), qPrintable(r.err));
        QVERIFY2(
            r.out.contains(QStringLiteral("source eu (") + test::sourceBootstrap() + QStringLiteral("): reachable")),
            qPrintable(r.out));
    }

    void badProfileIsRejectedWithItsMessages()
    {
        QVERIFY2(QFile::exists(kExe), qPrintable(kExe + QStringLiteral(" was not built")));
        // A meaning error (key path) and a syntax error (line and column).
        const QString bad =
            writeProfile(QStringLiteral("bad.mirrorjob"),
                         QByteArray("{\"mirrordesk\": 1, \"name\": \"x\",\n"
                                    "  \"source\": {\"bootstrap\": \"a:1\"}, \"target\": {\"bootstrap\": \"b:1\"},\n"
                                    // moc misreads a raw string holding an unbalanced parenthesis: an escaped literal
                                    "  \"topics\": {\"include\": [\"(\"]}, \"naming\": {\"policy\": \"sideways\"}}"));
        Run r = runCheck(bad);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("topics.include[0]")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("naming.policy")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("bad.mirrorjob")), qPrintable(r.err));
        QVERIFY(r.elapsedMs < 10000); // no cluster is contacted

        const QString broken =
            writeProfile(QStringLiteral("broken.mirrorjob"), QByteArray("{\n  \"mirrordesk\": 1,\n  oops\n}"));
        r = runCheck(broken);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("broken.mirrorjob:3:")), qPrintable(r.err));

        r = runCheck(m_dir.filePath(QStringLiteral("missing.mirrorjob")));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("missing.mirrorjob")), qPrintable(r.err));

        // An unset ${env:...} secret is a profile error naming the variable, never a value.
        const QString env =
            writeProfile(QStringLiteral("env.mirrorjob"), QStringLiteral(R"({"mirrordesk": 1, "name": "x",
  "source": {"alias": "eu", "bootstrap": "%1", "security": "sasl_plaintext",
             "sasl": {"mechanism": "SCRAM-SHA-512", "username": "u", "password": "${env:MD_CHECK_UNSET_SECRET}"}},
  "target": {"bootstrap": "%1"}, "topics": {"include": ["x"]}})")
                                                              .arg(test::sourceBootstrap())
                                                              .toUtf8());
        r = runCheck(env);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("MD_CHECK_UNSET_SECRET")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCheck)
#include "tst_check.moc"
