// `mirrordesk check` against the real brokers: the bounded cluster probe, the
// topic plan under each naming policy, and the executable's output and exit codes.

#include "ClusterProbe.h"
#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "MirrorPlan.h"
#include "RetentionCheck.h"
#include "TopicNaming.h"
#include "TransactionCheck.h"
#include "tst_progress_support.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace md;

namespace {

int closedPort()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost, 0);
    return server.serverPort(); // closed again when `server` goes
}

const QString kExe = QStringLiteral(MIRRORDESK_BINARY_DIR "/app/mirrordesk");

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
    qint64 elapsedMs = 0;
};

Run runCheck(const QString &profilePath)
{
    Run r;
    QElapsedTimer timer;
    timer.start();
    QProcess p;
    p.start(kExe, {QStringLiteral("check"), profilePath});
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
    } else if (p.exitStatus() == QProcess::NormalExit) {
        r.exitCode = p.exitCode();
    }
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    r.elapsedMs = timer.elapsed();
    return r;
}

} // namespace

class TestCheck final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_base; // unique prefix of this run's topics
    QString m_orders;
    QString m_payments;
    QString m_internal;

    QString writeProfile(const QString &name, const QByteArray &json)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(json);
        return path;
    }

    QByteArray profileJson(const QString &naming, const QString &targetBootstrap, bool createTopics = true)
    {
        return QStringLiteral(R"({"mirrordesk": 1, "name": "check test",
            "source": {"alias": "eu", "bootstrap": "%1"},
            "target": {"alias": "dr", "bootstrap": "%2"},
            "topics": {"include": ["%3\\..*"], "exclude": [".*\\.internal"]},
            "naming": %4, "start": "earliest", "createTopics": %5})")
            .arg(test::sourceBootstrap(), targetBootstrap, m_base, naming,
                 createTopics ? QStringLiteral("true") : QStringLiteral("false"))
            .toUtf8();
    }

    MirrorJobSpec spec(NamingPolicy naming) const
    {
        MirrorJobSpec s;
        s.source = test::clusterConfig(QStringLiteral("source"));
        s.source.alias = QStringLiteral("eu");
        s.target = test::clusterConfig(QStringLiteral("target"));
        s.target.alias = QStringLiteral("dr");
        s.include = {QRegularExpression::escape(m_base) + QStringLiteral("\\..*")};
        s.exclude = {QStringLiteral(".*\\.internal")};
        s.naming = naming;
        s.nameTemplate = QStringLiteral("copy-${topic}");
        return s;
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        QVERIFY(m_dir.isValid());
        // Topic names made of [a-z0-9-] only, so they sit in a regex unescaped.
        m_base = test::uniqueName(QStringLiteral("check"));
        m_orders = m_base + QStringLiteral(".orders");
        m_payments = m_base + QStringLiteral(".payments");
        m_internal = m_base + QStringLiteral(".audit.internal");
        QString error;
        QVERIFY2(test::createTopic(test::sourceBootstrap(), m_orders, 3, {}, &error), qPrintable(error));
        QVERIFY2(test::createTopic(test::sourceBootstrap(), m_payments, 2, {}, &error), qPrintable(error));
        QVERIFY2(test::createTopic(test::sourceBootstrap(), m_internal, 1, {}, &error), qPrintable(error));
        // On the target: eu.<orders> exists with all 3 partitions, eu.<payments> with too few.
        QVERIFY2(test::createTopic(test::targetBootstrap(), QStringLiteral("eu.") + m_orders, 3, {}, &error),
                 qPrintable(error));
        QVERIFY2(test::createTopic(test::targetBootstrap(), QStringLiteral("eu.") + m_payments, 1, {}, &error),
                 qPrintable(error));
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

    // Where each mirrored partition starts and why, with the records it copies,
    // from the group's real committed offsets: progress wins over `start`.
    void commandShowsWhereEachPartitionStarts_data()
    {
        QTest::addColumn<QString>("start");
        QTest::newRow("earliest") << QStringLiteral("earliest");
        QTest::newRow("latest") << QStringLiteral("latest");
    }

    void commandShowsWhereEachPartitionStarts()
    {
        QFETCH(QString, start);
        QVERIFY2(QFile::exists(kExe), qPrintable(kExe + QStringLiteral(" was not built")));
        const QString base = test::uniqueName(QStringLiteral("checkstart"));
        const QString topic = base + QStringLiteral(".orders");
        const QString group = test::uniqueName(QStringLiteral("checkstart-group"));
        QString error;
        QVERIFY2(test::createTopic(test::sourceBootstrap(), topic, 3, {}, &error), qPrintable(error));
        QList<test::TestRecord> records;
        const int counts[] = {1300, 10, 4};
        for (int partition = 0; partition < 3; ++partition) {
            for (int i = 0; i < counts[partition]; ++i) {
                test::TestRecord r;
                r.partition = partition;
                r.value = QByteArray::number(i);
                records.append(r);
            }
        }
        QVERIFY2(test::produce(test::sourceBootstrap(), topic, records, &error), qPrintable(error));
        {
            test::GroupMember member;
            QVERIFY2(member.start(test::sourceBootstrap(), group, topic, &error), qPrintable(error));
            QVERIFY2(member.commit({{0, 1234}, {1, 2}}, &error), qPrintable(error));
        }
        // orders[1] loses offsets 0..5; 2..5 were never copied.
        QVERIFY2(test::deleteRecordsBefore(topic, 1, 6, &error), qPrintable(error));
        const QString path = writeProfile(base + QStringLiteral(".mirrorjob"),
                                          QStringLiteral(R"({"mirrordesk": 1, "name": "check start",
            "source": {"alias": "eu", "bootstrap": "%1"}, "target": {"alias": "dr", "bootstrap": "%2"},
            "topics": {"include": ["%3\\..*"]}, "groupId": "%4", "start": "%5"})")
                                              .arg(test::sourceBootstrap(), test::targetBootstrap(), base, group, start)
                                              .toUtf8());
        const Run r = runCheck(path);
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("where the job starts (group %1, Empty):\n").arg(group)),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("  %1[0]: resumes at 1,234 (committed), 66 to copy\n").arg(topic)),
                 qPrintable(r.out));
        QVERIFY2(
            r.out.contains(QStringLiteral("  %1[1]: starts at 6 (the log start: committed 2 is below it, 4 records "
                                          "vanished), 4 to copy\n"
                                          "    warning: 4 records vanished before they were copied: offsets 2..5\n")
                               .arg(topic)),
            qPrintable(r.out));
        // No progress: `start` decides.
        const QString third = start == QLatin1String("earliest")
                                  ? QStringLiteral("  %1[2]: starts at 0 (earliest, no progress), 4 to copy\n")
                                  : QStringLiteral("  %1[2]: starts at 4 (latest, no progress), 0 to copy\n");
        QVERIFY2(r.out.contains(third.arg(topic)), qPrintable(r.out));
        const int total = 66 + 4 + (start == QLatin1String("earliest") ? 4 : 0);
        QVERIFY2(
            r.out.contains(QStringLiteral("records to copy: %1 in 3 partitions (4 vanished before they were copied)\n")
                               .arg(total)),
            qPrintable(r.out));
    }

    void retentionWarningForHistoryTheTargetWouldDelete()
    {
        QVERIFY2(QFile::exists(kExe), qPrintable(kExe + QStringLiteral(" was not built")));
        // Own topics (not under m_base): records from 2024 and from a minute ago.
        const QString base = test::uniqueName(QStringLiteral("checkret"));
        const QString history = base + QStringLiteral(".history"); // target keeps 7 days: warned
        const QString kept = base + QStringLiteral(".kept");       // target keeps forever: not warned
        const QString fresh = base + QStringLiteral(".fresh");     // created with the target's default (-1)
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        QList<test::TestRecord> records;
        for (int i = 0; i < 6; ++i) {
            test::TestRecord r;
            r.partition = i % 2;
            r.value = QByteArray("v") + QByteArray::number(i);
            // Partition 1 starts with the oldest record: the topic's oldest is found in any partition.
            r.timestamp = i < 4 ? 1709251200000LL + (r.partition == 1 ? 0 : 86400000) + i : now - 60000 + i;
            records << r;
        }
        QString error;
        for (const QString &t : {history, kept, fresh}) {
            QVERIFY2(test::createTopic(test::sourceBootstrap(), t, 2, {}, &error), qPrintable(error));
            QVERIFY2(test::produce(test::sourceBootstrap(), t, records, &error), qPrintable(error));
        }
        QVERIFY2(test::createTopic(test::targetBootstrap(), QStringLiteral("eu.") + history, 2,
                                   {{QStringLiteral("retention.ms"), QStringLiteral("604800000")}}, &error),
                 qPrintable(error));
        QVERIFY2(test::createTopic(test::targetBootstrap(), QStringLiteral("eu.") + kept, 2,
                                   {{QStringLiteral("retention.ms"), QStringLiteral("-1")}}, &error),
                 qPrintable(error));

        const QString path = writeProfile(QStringLiteral("retention.mirrorjob"),
                                          QStringLiteral(R"({"mirrordesk": 1, "name": "retention",
            "source": {"alias": "eu", "bootstrap": "%1"}, "target": {"alias": "dr", "bootstrap": "%2"},
            "topics": {"include": ["%3\\..*"]}, "naming": {"policy": "prefix"}, "start": "earliest"})")
                                              .arg(test::sourceBootstrap(), test::targetBootstrap(), base)
                                              .toUtf8());
        const Run r = runCheck(path);
        QCOMPARE(r.exitCode, 0); // a warning, not an error
        const QString expected = QStringLiteral("warning: %1: oldest record is from 2024-03-01 (CreateTime) but the "
                                                "target topic eu.%1 keeps records for 7 days (retention.ms=604800000): "
                                                "the target will delete them on arrival\n")
                                     .arg(history);
        QVERIFY2(r.out.contains(expected), qPrintable(r.out + r.err));
        QVERIFY2(!r.out.contains(QStringLiteral("warning: ") + kept), qPrintable(r.out));
        QVERIFY2(!r.out.contains(QStringLiteral("warning: ") + fresh), qPrintable(r.out));
        // Its own block, right before the summary line.
        const qsizetype at = r.out.indexOf(expected);
        QVERIFY2(r.out.indexOf(QStringLiteral("\ncheck: "), at) == at + expected.size() - 1, qPrintable(r.out));

        // A topic the job creates gets the retention.ms it would be created with.
        MirrorJobSpec s = spec(NamingPolicy::Prefix);
        s.include = {QRegularExpression::escape(base) + QStringLiteral("\\..*")};
        s.exclude.clear();
        const ProbedPlan probed = probeAndPlan(s, 15000);
        QVERIFY2(probed.source.reachable && probed.target.reachable,
                 qPrintable(probed.source.error + probed.target.error));
        MirrorPlan plan = probed.plan;
        QCOMPARE(plan.topics.size(), 3);
        for (TopicPlanEntry &e : plan.topics) {
            if (e.sourceTopic == fresh) {
                QCOMPARE(e.action, TopicPlanEntry::Action::Create);
                RetentionCheckResult byDefault = checkRetention(s, plan, 15000);
                QVERIFY2(byDefault.problems.isEmpty(), qPrintable(byDefault.problems.join(QLatin1Char('\n'))));
                QCOMPARE(byDefault.warnings().size(), 1); // history only: the target's default keeps records forever
                e.configs.insert(QStringLiteral("retention.ms"), QStringLiteral("86400000"));
            }
        }
        const RetentionCheckResult created = checkRetention(s, plan, 15000);
        const QStringList warnings = created.warnings();
        QCOMPARE(warnings.size(), 2);
        QVERIFY2(warnings.contains(QStringLiteral("%1: oldest record is from 2024-03-01 (CreateTime) but the target "
                                                  "topic eu.%1 would keep records for 1 day (retention.ms=86400000, "
                                                  "copied from the source topic): the target will delete them on "
                                                  "arrival")
                                       .arg(fresh)),
                 qPrintable(warnings.join(QLatin1Char('\n'))));
        for (const RetentionFinding &f : created.topics) {
            QCOMPARE(f.oldestPartition, 1);
            QCOMPARE(f.oldestTimestamp, 1709251200000LL + 1);
        }
    }

    // The plan names the delivery mode; for exactly-once it reads the target's
    // transaction settings and fails what would keep every transaction from starting.
    void commandChecksTheTargetCanRunTransactions()
    {
        QVERIFY2(QFile::exists(kExe), qPrintable(kExe + QStringLiteral(" was not built")));
        const QByteArray base = profileJson(QStringLiteral(R"({"policy": "prefix"})"), test::targetBootstrap());
        auto withKeys = [&](const QByteArray &keys) -> QByteArray {
            return base.left(base.lastIndexOf('}')) + ", " + keys + "}";
        };

        Run r = runCheck(writeProfile(QStringLiteral("alo.mirrorjob"), base));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("delivery: at-least-once")), qPrintable(r.out + r.err));
        QVERIFY2(!r.out.contains(QStringLiteral("read_committed")), qPrintable(r.out));

        r = runCheck(writeProfile(QStringLiteral("eos.mirrorjob"),
                                  withKeys(R"("delivery": "exactly-once", "transactionIntervalMs": 200)")));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(
            r.out.contains(QStringLiteral("delivery: exactly-once (records and progress commit in target transactions, "
                                          "every 200 ms or 300000 records")),
            qPrintable(r.out));
        // The harness's single broker: factor 1 and min.isr 1; Kafka's default maximum timeout.
        QVERIFY2(r.out.contains(QStringLiteral("target: transaction log replication factor 1, min.isr 1, 1 broker")),
                 qPrintable(r.out));
        QVERIFY2(
            r.out.contains(QStringLiteral("transaction.max.timeout.ms 900000, the job's transaction.timeout.ms 60000")),
            qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("isolation.level=read_committed")), qPrintable(r.out));
        QVERIFY2(!r.out.contains(QStringLiteral("ERROR")), qPrintable(r.out));

        // A producer timeout above the broker's maximum: the target would refuse the producer.
        r = runCheck(writeProfile(
            QStringLiteral("eos-timeout.mirrorjob"),
            withKeys(R"("delivery": "exactly-once")")
                .replace(R"("alias": "dr", )",
                         R"("alias": "dr", "producerProperties": {"transaction.timeout.ms": "1000000"}, )")));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.out.contains(QStringLiteral("ERROR: transaction.max.timeout.ms is 900000 on the target, below the job's "
                                          "transaction.timeout.ms 1000000")),
            qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral(", 1 error")), qPrintable(r.out));

        // The same read in process.
        MirrorJobSpec s = spec(NamingPolicy::Prefix);
        s.delivery = DeliveryGuarantee::ExactlyOnce;
        const TransactionCheckResult t = checkTransactions(s, 1, false, 15000);
        QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
        QVERIFY(t.settings.logReplicationFactor == 1);
        QVERIFY(t.settings.logMinIsr == 1);
        QVERIFY(t.settings.maxTimeoutMs == 900000);
        QVERIFY(t.ok());
    }

    // What the harness's broker cannot show: a log factor above the broker count.
    void transactionSettingsAreJudged_data()
    {
        QTest::addColumn<int>("brokers");
        QTest::addColumn<bool>("logExists");
        QTest::addColumn<int>("factor");
        QTest::addColumn<int>("minIsr");
        QTest::addColumn<qint64>("maxTimeout");
        QTest::addColumn<QString>("problem"); // empty: none
        QTest::newRow("fits") << 3 << false << 3 << 2 << qint64(900000) << QString();
        QTest::newRow("factor above brokers")
            << 1 << false << 3 << 2 << qint64(900000)
            << QStringLiteral("transaction.state.log.replication.factor is 3 but the target "
                              "has 1 broker: the transaction log (__transaction_state) cannot "
                              "be created, so no transaction would ever start");
        QTest::newRow("log created earlier") << 1 << true << 3 << 1 << qint64(900000) << QString();
        QTest::newRow("min.isr above replicas")
            << 3 << false << 2 << 3 << qint64(900000)
            << QStringLiteral("transaction.state.log.min.isr is 3 but the transaction log "
                              "can have at most 2 in-sync replicas");
        QTest::newRow("timeout above maximum")
            << 3 << false << 3 << 2 << qint64(30000)
            << QStringLiteral("transaction.max.timeout.ms is 30000 on the target, below the "
                              "job's transaction.timeout.ms 60000");
    }
    void transactionSettingsAreJudged()
    {
        QFETCH(int, brokers);
        QFETCH(bool, logExists);
        QFETCH(int, factor);
        QFETCH(int, minIsr);
        QFETCH(qint64, maxTimeout);
        QFETCH(QString, problem);
        TransactionSettings s;
        s.brokerCount = brokers;
        s.logExists = logExists;
        s.logReplicationFactor = factor;
        s.logMinIsr = minIsr;
        s.maxTimeoutMs = maxTimeout;
        MirrorJobSpec job;
        const TransactionCheckResult r = judgeTransactionSettings(s, producerTransactionTimeoutMs(job));
        if (problem.isEmpty()) {
            QVERIFY2(r.problems.isEmpty(), qPrintable(r.problems.join(QLatin1Char('\n'))));
        } else {
            QCOMPARE(r.problems.size(), 1);
            QVERIFY2(r.problems.first().startsWith(problem), qPrintable(r.problems.first()));
        }
        // The producer's own timeout, when the profile sets one, is what counts (as in the engine,
        // target.properties does not set it).
        job.target.properties.insert(QStringLiteral("transaction.timeout.ms"), QStringLiteral("2000"));
        QCOMPARE(producerTransactionTimeoutMs(job), kDefaultTransactionTimeoutMs);
        job.target.producerProperties.insert(QStringLiteral("transaction.timeout.ms"), QStringLiteral("1000"));
        QCOMPARE(producerTransactionTimeoutMs(job), 1000);
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
