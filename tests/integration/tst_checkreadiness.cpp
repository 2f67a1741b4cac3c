// What `mirrordesk check` reads beyond the topic plan, against the real
// brokers: where each partition starts (committed progress wins over `start`,
// records vanished before they were copied), target retention that would
// delete copied history, and whether the target can run exactly-once
// transactions.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "check_support.h"
#include "engine/mirror/MirrorPlan.h"
#include "engine/mirror/RetentionCheck.h"
#include "engine/mirror/TransactionCheck.h"
#include "tst_progress_support.h"

#include <QDateTime>
#include <QFile>
#include <QRegularExpression>
#include <QtTest/QtTest>

using namespace md;
using namespace md::test;

class TestCheckReadiness final : public QObject, private CheckFixture {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        createTopics();
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
};

QTEST_GUILESS_MAIN(TestCheckReadiness)
#include "tst_checkreadiness.moc"
