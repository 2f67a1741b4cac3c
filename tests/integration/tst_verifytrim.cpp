// `mirrordesk verify` of trimmed logs, against the real brokers: a target
// whose retention or DeleteRecords removed the oldest records, a source trimmed
// after the copy, and both: only the range both sides hold is compared, what
// was left out is said, and a gap inside that range is still a difference.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/verify/Verifier.h"
#include "verify_support.h"

#include <QDateTime>
#include <QMap>
#include <QtTest/QtTest>

using namespace md;
using namespace md::test;

class TestVerifyTrim final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target")); }

    // Records with 2024 CreateTimes (what retention.ms on the target removes),
    // then records from a minute ago (what it keeps).
    static QList<TestRecord> historyThenRecent(int oldCount, int recentCount, qint64 nowMs)
    {
        QList<TestRecord> out = sampleRecords(0, oldCount);
        for (int i = 0; i < oldCount; ++i)
            out[i].timestamp = 1709251200000LL + i * 1000; // 2024-03-01
        QList<TestRecord> recent = sampleRecords(0, oldCount + recentCount).mid(oldCount);
        for (int i = 0; i < recentCount; ++i)
            recent[i].timestamp = nowMs - 60000 + i;
        return out + recent;
    }

    void targetTrimmedByRetentionComparesTheRangeBothHold()
    {
        // The user's case: history mirrored to a target topic that keeps 7
        // days. The target's retention deletes the 2024 records (at its next
        // retention check, up to log.retention.check.interval.ms = 5 min).
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const QList<TestRecord> records = historyThenRecent(30, 20, now);
        const QMap<QString, QString> keep7Days{{QStringLiteral("retention.ms"), QStringLiteral("604800000")}};
        struct Pair {
            QString topic;
            QList<TestRecord> target;
        };
        QList<TestRecord> gapInside = records;
        gapInside.removeAt(35); // a recent record, inside the kept range
        QList<TestRecord> gapAtStart = records;
        gapAtStart.removeAt(30); // the first recent record: right after what retention removes
        const QList<Pair> pairs{{test::uniqueName(QStringLiteral("verify-ret")), records},
                                {test::uniqueName(QStringLiteral("verify-ret-gap")), gapInside},
                                {test::uniqueName(QStringLiteral("verify-ret-gap0")), gapAtStart}};
        QString error;
        for (const Pair &p : pairs) {
            QVERIFY2(test::createTopic(test::sourceBootstrap(), p.topic, 1, {}, &error), qPrintable(error));
            QVERIFY2(test::createTopic(test::targetBootstrap(), targetName(p.topic), 1, keep7Days, &error),
                     qPrintable(error));
            QVERIFY2(test::produce(test::sourceBootstrap(), p.topic, records.mid(0, 30), &error), qPrintable(error));
            QVERIFY2(test::produce(test::sourceBootstrap(), p.topic, records.mid(30), &error), qPrintable(error));
            // Two produce calls: the old records' segment rolls before the recent ones.
            QVERIFY2(test::produce(test::targetBootstrap(), targetName(p.topic), p.target.mid(0, 30), &error),
                     qPrintable(error));
            QVERIFY2(test::produce(test::targetBootstrap(), targetName(p.topic), p.target.mid(30), &error),
                     qPrintable(error));
        }
        QElapsedTimer waited;
        waited.start();
        for (const Pair &p : pairs) {
            while (true) {
                const auto marks = test::watermarks(test::targetBootstrap(), targetName(p.topic), &error);
                QVERIFY2(marks, qPrintable(error));
                if (marks->value(0).first >= 30)
                    break;
                QVERIFY2(waited.elapsed() < 400000, "the target's retention did not remove the 2024 records in time");
                QTest::qWait(2000);
            }
        }

        const VerifyReport report = Verifier(makeSpec(pairs[0].topic), quickOptions()).run();
        QVERIFY2(report.completed, qPrintable(report.error));
        QCOMPARE(report.exitCode(), 0);
        const PartitionVerdict &v = report.partitions.first();
        QCOMPARE(v.status, PartitionVerdict::Status::Match);
        QCOMPARE(v.trimmedFromTarget, 30);
        QCOMPARE(v.sourceCount, 20);
        QCOMPARE(v.targetCount, 20);
        const QString line = v.toString();
        QVERIFY2(line.contains(QStringLiteral("target log starts at 30: removed by the target's "
                                              "retention.ms=604800000; records carry 2024 CreateTimes")),
                 qPrintable(line));
        QVERIFY2(line.contains(QStringLiteral("source offsets 0 to 29 (30 records) not compared")), qPrintable(line));
        QVERIFY2(report.summary().contains(QStringLiteral("30 source records the target no longer holds")),
                 qPrintable(report.summary()));

        const VerifyReport inside = Verifier(makeSpec(pairs[1].topic), quickOptions()).run();
        QVERIFY2(inside.completed, qPrintable(inside.error));
        QCOMPARE(inside.exitCode(), 1);
        QCOMPARE(inside.firstDifference()->sourceOffset, 35);
        QVERIFY2(
            inside.firstDifference()->difference.contains(QStringLiteral("missing on the target: 1 source record")),
            qPrintable(inside.firstDifference()->difference));

        const VerifyReport atStart = Verifier(makeSpec(pairs[2].topic), quickOptions()).run();
        QVERIFY2(atStart.completed, qPrintable(atStart.error));
        QCOMPARE(atStart.exitCode(), 1);
        QVERIFY2(
            atStart.firstDifference()->difference.contains(QStringLiteral("missing on the target: 31 source records")),
            qPrintable(atStart.firstDifference()->difference));
        QCOMPARE(atStart.firstDifference()->sourceOffset, 30);
    }

    void targetTrimmedByDeleteRecordsComparesTheRangeBothHold()
    {
        const QList<TestRecord> records = sampleRecords(0, 20);
        QList<TestRecord> gapInside = records;
        gapInside.removeAt(12);
        QList<TestRecord> gapAtStart = records;
        gapAtStart.removeAt(8); // target offset 8 now holds source offset 9
        QList<TestRecord> altered = records;
        altered[15].value = bytes("changed");
        const QString ok = test::uniqueName(QStringLiteral("verify-del"));
        const QString inside = test::uniqueName(QStringLiteral("verify-del-gap"));
        const QString atStart = test::uniqueName(QStringLiteral("verify-del-gap0"));
        const QString changed = test::uniqueName(QStringLiteral("verify-del-alt"));
        makePair(ok, 1, records, records);
        makePair(inside, 1, records, gapInside);
        makePair(atStart, 1, records, gapAtStart);
        makePair(changed, 1, records, altered);
        QString error;
        for (const QString &t : {ok, inside, atStart, changed})
            QVERIFY2(test::deleteRecords(test::targetBootstrap(), targetName(t), {{0, 8}}, &error), qPrintable(error));

        const VerifyReport report = Verifier(makeSpec(ok), quickOptions()).run();
        QVERIFY2(report.completed, qPrintable(report.error));
        QCOMPARE(report.exitCode(), 0);
        const PartitionVerdict &v = report.partitions.first();
        QCOMPARE(v.trimmedFromTarget, 8);
        QCOMPARE(v.sourceCount, 12);
        QCOMPARE(v.sourceDigest, v.targetDigest);
        // No time retention on these topics: the log start was moved by a deletion.
        QVERIFY2(v.toString().contains(QStringLiteral("target log starts at 8 (deleted records or retention: "
                                                      "retention.ms=-1")),
                 qPrintable(v.toString()));

        const VerifyReport r1 = Verifier(makeSpec(inside), quickOptions()).run();
        QCOMPARE(r1.exitCode(), 1);
        QCOMPARE(r1.firstDifference()->sourceOffset, 12);
        QVERIFY2(r1.firstDifference()->difference.contains(QStringLiteral("missing on the target: 1 source record")),
                 qPrintable(r1.firstDifference()->difference));

        const VerifyReport r2 = Verifier(makeSpec(atStart), quickOptions()).run();
        QCOMPARE(r2.exitCode(), 1);
        QCOMPARE(r2.firstDifference()->sourceOffset, 8);
        QCOMPARE(r2.firstDifference()->targetOffset, 8);
        QVERIFY2(r2.firstDifference()->difference.contains(QStringLiteral("missing on the target: 9 source records "
                                                                          "before the target's first record")),
                 qPrintable(r2.firstDifference()->difference));

        const VerifyReport r3 = Verifier(makeSpec(changed), quickOptions()).run();
        QCOMPARE(r3.exitCode(), 1);
        QCOMPARE(r3.firstDifference()->sourceOffset, 15);
        QVERIFY(r3.firstDifference()->difference.contains(QStringLiteral("value differs")));
    }

    void sourceTrimmedAfterTheCopyComparesTheRangeBothHold()
    {
        const QList<TestRecord> records = sampleRecords(0, 20);
        QList<TestRecord> altered = records;
        altered[10].value = bytes("changed");
        QList<TestRecord> extra = sampleRecords(1, 8); // 8 records the source never had, then the copy
        for (TestRecord &r : extra)
            r.partition = 0;
        extra += records;
        const QString ok = test::uniqueName(QStringLiteral("verify-srcdel"));
        const QString changed = test::uniqueName(QStringLiteral("verify-srcdel-alt"));
        const QString extras = test::uniqueName(QStringLiteral("verify-srcdel-extra"));
        makePair(ok, 1, records, records);
        makePair(changed, 1, records, altered);
        makePair(extras, 1, records, extra);
        QString error;
        for (const QString &t : {ok, changed, extras})
            QVERIFY2(test::deleteRecords(test::sourceBootstrap(), t, {{0, 5}}, &error), qPrintable(error));

        const VerifyReport report = Verifier(makeSpec(ok), quickOptions()).run();
        QVERIFY2(report.completed, qPrintable(report.error));
        QCOMPARE(report.exitCode(), 0);
        const PartitionVerdict &v = report.partitions.first();
        QCOMPARE(v.trimmedFromSource, 5);
        QCOMPARE(v.sourceCount, 15);
        QCOMPARE(v.targetCount, 15);
        QVERIFY2(v.toString().contains(QStringLiteral("source log starts at 5 (deleted records or retention: "
                                                      "retention.ms=-1")),
                 qPrintable(v.toString()));
        QVERIFY2(v.toString().contains(QStringLiteral("target offsets 0 to 4 (5 records) not compared")),
                 qPrintable(v.toString()));

        const VerifyReport r1 = Verifier(makeSpec(changed), quickOptions()).run();
        QCOMPARE(r1.exitCode(), 1);
        QCOMPARE(r1.firstDifference()->sourceOffset, 10);
        QVERIFY(r1.firstDifference()->difference.contains(QStringLiteral("value differs")));

        // Nothing copied at all is still "missing", trimmed source or not.
        const QString empty = test::uniqueName(QStringLiteral("verify-srcdel-empty"));
        makePair(empty, 1, records, {});
        QVERIFY2(test::deleteRecords(test::sourceBootstrap(), empty, {{0, 5}}, &error), qPrintable(error));
        const VerifyReport r3 = Verifier(makeSpec(empty), quickOptions()).run();
        QCOMPARE(r3.exitCode(), 1);
        QVERIFY2(
            r3.firstDifference()->difference.contains(QStringLiteral("missing on the target (0 of 15 records copied)")),
            qPrintable(r3.firstDifference()->difference));

        // Both trimmed: the side that lost more decides where the compared range starts.
        const QString both1 = test::uniqueName(QStringLiteral("verify-both-tgt"));
        const QString both2 = test::uniqueName(QStringLiteral("verify-both-src"));
        makePair(both1, 1, records, records);
        makePair(both2, 1, records, records);
        QVERIFY2(test::deleteRecords(test::sourceBootstrap(), both1, {{0, 5}}, &error), qPrintable(error));
        QVERIFY2(test::deleteRecords(test::targetBootstrap(), targetName(both1), {{0, 8}}, &error), qPrintable(error));
        QVERIFY2(test::deleteRecords(test::sourceBootstrap(), both2, {{0, 8}}, &error), qPrintable(error));
        QVERIFY2(test::deleteRecords(test::targetBootstrap(), targetName(both2), {{0, 5}}, &error), qPrintable(error));
        const VerifyReport b1 = Verifier(makeSpec(both1), quickOptions()).run();
        QCOMPARE(b1.exitCode(), 0);
        QCOMPARE(b1.partitions.first().trimmedFromTarget, 3);
        QCOMPARE(b1.partitions.first().sourceCount, 12);
        QVERIFY2(b1.partitions.first().trimNote.contains(QStringLiteral("source offsets 5 to 7 (3 records)")),
                 qPrintable(b1.partitions.first().trimNote));
        const VerifyReport b2 = Verifier(makeSpec(both2), quickOptions()).run();
        QCOMPARE(b2.exitCode(), 0);
        QCOMPARE(b2.partitions.first().trimmedFromSource, 3);
        QCOMPARE(b2.partitions.first().targetCount, 12);
        QVERIFY2(b2.partitions.first().trimNote.contains(QStringLiteral("target offsets 5 to 7 (3 records)")),
                 qPrintable(b2.partitions.first().trimNote));

        // 13 target records before the source's first one: its log start (5) explains 5 at most.
        const VerifyReport r2 = Verifier(makeSpec(extras), quickOptions()).run();
        QCOMPARE(r2.exitCode(), 1);
        QVERIFY2(r2.firstDifference()->difference.contains(QStringLiteral("extra records on the target: 13")),
                 qPrintable(r2.firstDifference()->difference));
    }
};

QTEST_GUILESS_MAIN(TestVerifyTrim)
#include "tst_verifytrim.moc"
