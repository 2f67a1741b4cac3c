// `mirrordesk verify` and the delivery guarantee, against the real brokers:
// an at-least-once replay is a warning, not a difference; a duplicate fails an
// exactly-once job; a real exactly-once run verifies without duplicates; and
// transaction markers and aborted records on the source do not shift the
// comparison.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/verify/Verifier.h"
#include "verify_support.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace md;
using namespace md::test;

class TestVerifyDelivery final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target")); }

    void replayedRunIsAWarningNotADifference()
    {
        // What an at-least-once restart leaves: records 0..7 copied, progress
        // committed at 4, so 4..7 are copied again before the copy goes on.
        const QString topic = test::uniqueName(QStringLiteral("verify-replay"));
        const QList<TestRecord> source = sampleRecords(0, 12);
        const QList<TestRecord> target = source.mid(0, 8) + source.mid(4, 4) + source.mid(8);
        makePair(topic, 1, source, target);
        const VerifyReport report = Verifier(makeSpec(topic), quickOptions()).run();
        QVERIFY2(report.completed, qPrintable(report.error));
        QCOMPARE(report.exitCode(), 0);
        const PartitionVerdict &v = report.partitions.first();
        QCOMPARE(v.status, PartitionVerdict::Status::MatchWithDuplicates);
        QCOMPARE(v.duplicates, 4);
        QCOMPARE(v.sourceCount, 12);
        QCOMPARE(v.targetCount, 16);
        QCOMPARE(v.sourceDigest, v.targetDigest);
        QVERIFY2(report.summary().contains(QStringLiteral("4 duplicate records")), qPrintable(report.summary()));

        // A replay cut short and followed by a record out of order is still a difference.
        const QString topic2 = test::uniqueName(QStringLiteral("verify-replay-bad"));
        QList<TestRecord> bad = source.mid(0, 8) + source.mid(4, 2) + source.mid(9);
        makePair(topic2, 1, source, bad);
        const VerifyReport report2 = Verifier(makeSpec(topic2), quickOptions()).run();
        QCOMPARE(report2.exitCode(), 1);
        QCOMPARE(report2.firstDifference()->sourceOffset, 6);
    }

    void duplicatesFailAnExactlyOnceJob()
    {
        // The same target with a record produced twice: allowed for at-least-once,
        // a failure for exactly-once, whose read_committed readers must see each record once.
        const QString topic = test::uniqueName(QStringLiteral("verify-eos-dup"));
        const QList<TestRecord> source = sampleRecords(0, 10);
        const QList<TestRecord> target = source.mid(0, 6) + source.mid(5, 1) + source.mid(6);
        makePair(topic, 2, source + sampleRecords(1, 3), target + sampleRecords(1, 3));
        MirrorJobSpec spec = makeSpec(topic);
        const VerifyReport atLeastOnce = Verifier(spec, quickOptions()).run();
        QVERIFY2(atLeastOnce.completed, qPrintable(atLeastOnce.error));
        QCOMPARE(atLeastOnce.exitCode(), 0);
        QCOMPARE(verdictFor(atLeastOnce, 0)->status, PartitionVerdict::Status::MatchWithDuplicates);

        spec.delivery = DeliveryGuarantee::ExactlyOnce;
        const VerifyReport exactlyOnce = Verifier(spec, quickOptions()).run();
        QVERIFY2(exactlyOnce.completed, qPrintable(exactlyOnce.error));
        QCOMPARE(exactlyOnce.exitCode(), 1);
        const PartitionVerdict *v = verdictFor(exactlyOnce, 0);
        QVERIFY(v);
        QCOMPARE(v->status, PartitionVerdict::Status::Different);
        QCOMPARE(v->duplicates, 1);
        QCOMPARE(v->sourceOffset, 5); // the record copied twice
        QCOMPARE(v->targetOffset, 6); // its second copy
        QVERIFY2(v->toString().contains(QStringLiteral("DIFFERENT: exactly-once job: 1 duplicate on the target")),
                 qPrintable(v->toString()));
        QCOMPARE(verdictFor(exactlyOnce, 1)->status, PartitionVerdict::Status::Match); // no duplicate there
        QCOMPARE(exactlyOnce.firstDifference(), v);
        QVERIFY2(exactlyOnce.summary().contains(QStringLiteral("; exactly-once job: 1 duplicate on the target")),
                 qPrintable(exactlyOnce.summary()));
        QVERIFY2(!exactlyOnce.summary().contains(QStringLiteral("at-least-once replay")),
                 qPrintable(exactlyOnce.summary()));
    }

    // End to end: an exactly-once run copies, and verify of the job finds no duplicate
    // (the run line names the mode).
    void exactlyOnceRunVerifiesWithoutDuplicates()
    {
        const QString exe = QStringLiteral(MIRRORDESK_BINARY_DIR "/app/mirrordesk");
        QVERIFY2(QFile::exists(exe), qPrintable(exe + QStringLiteral(" was not built")));
        const QString topic = test::uniqueName(QStringLiteral("verify-eos-run"));
        // Prefix naming: progress on the target is kept under the target topic's name.
        makePair(topic, 2, sampleRecords(0, 150) + sampleRecords(1, 90), {}, false);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("eos.mirrorjob"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral(R"({"mirrordesk": 1, "name": "%3",
            "source": {"alias": "src", "bootstrap": "%1"}, "target": {"alias": "dst", "bootstrap": "%2"},
            "topics": {"include": ["%3"]}, "naming": {"policy": "prefix"}, "start": "earliest",
            "delivery": "exactly-once", "transactionIntervalMs": 50, "transactionMaxRecords": 40})")
                    .arg(test::sourceBootstrap(), test::targetBootstrap(), topic)
                    .toUtf8());
        f.close();
        QProcess run;
        run.start(exe, {QStringLiteral("run"), path, QStringLiteral("--until-caught-up")});
        if (!run.waitForFinished(120000))
            run.kill();
        run.waitForFinished();
        const QString runOut = QString::fromUtf8(run.readAllStandardOutput() + run.readAllStandardError());
        QVERIFY2(run.exitStatus() == QProcess::NormalExit && run.exitCode() == 0, qPrintable(runOut));
        QVERIFY2(runOut.contains(QStringLiteral(" (exactly-once)")), qPrintable(runOut));

        MirrorJobSpec spec = makeSpec(topic);
        spec.delivery = DeliveryGuarantee::ExactlyOnce;
        const VerifyReport report = Verifier(spec, quickOptions()).run();
        QVERIFY2(report.completed, qPrintable(report.error));
        QVERIFY2(report.exitCode() == 0, qPrintable(report.summary()));
        QCOMPARE(report.partitions.size(), 2);
        for (const PartitionVerdict &v : report.partitions) {
            QCOMPARE(v.status, PartitionVerdict::Status::Match);
            QCOMPARE(v.duplicates, 0);
        }
        QCOMPARE(report.partitions.at(0).sourceCount + report.partitions.at(1).sourceCount, 240);
    }

    void transactionMarkersAndAbortsDoNotShiftTheComparison()
    {
        // The source holds a committed and an aborted transaction (control
        // records and invisible records): offsets differ from the target's,
        // the content is the same.
        const QString topic = test::uniqueName(QStringLiteral("verify-txn"));
        makePair(topic, 1, {}, {});
        QString error;
        const QList<TestRecord> a = sampleRecords(0, 5);
        const QList<TestRecord> b = sampleRecords(0, 10).mid(5);
        QVERIFY2(test::produceTransactionalCommitted(test::sourceBootstrap(), topic, a, &error), qPrintable(error));
        QVERIFY2(test::produceTransactionalAborted(test::sourceBootstrap(), topic, sampleRecords(0, 3), &error),
                 qPrintable(error));
        QVERIFY2(test::produce(test::sourceBootstrap(), topic, b, &error), qPrintable(error));
        QVERIFY2(test::produce(test::targetBootstrap(), targetName(topic), a + b, &error), qPrintable(error));

        const VerifyReport report = Verifier(makeSpec(topic), quickOptions()).run();
        QVERIFY2(report.completed, qPrintable(report.error));
        QCOMPARE(report.exitCode(), 0);
        QCOMPARE(report.partitions.first().sourceCount, 10);
        QCOMPARE(report.partitions.first().targetCount, 10);
    }
};

QTEST_GUILESS_MAIN(TestVerifyDelivery)
#include "tst_verifydelivery.moc"
