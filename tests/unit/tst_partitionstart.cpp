// PartitionStart's words for people (check, reset and the GUI show them): one
// per reason, with numbers grouped by thousands, and the vanished-records warning.

#include "engine/mirror/JobProgress.h"

#include <QtTest/QtTest>

using namespace md;

class TestPartitionStart final : public QObject {
    Q_OBJECT

    static PartitionStart make(StartReason reason, qint64 logStart, qint64 end, qint64 committed, qint64 start)
    {
        PartitionStart p;
        p.topic = QStringLiteral("orders");
        p.partition = 0;
        p.reason = reason;
        p.logStart = logStart;
        p.end = end;
        p.committed = committed;
        p.start = start;
        p.toCopy = end - start;
        if (reason == StartReason::CommittedBelowLogStart)
            p.skipped = logStart - committed;
        return p;
    }

private Q_SLOTS:
    void describesEachReason()
    {
        QCOMPARE(make(StartReason::Committed, 0, 5000, 1234, 1234).describe(),
                 QStringLiteral("resumes at 1,234 (committed)"));
        QCOMPARE(make(StartReason::Earliest, 0, 10, -1, 0).describe(),
                 QStringLiteral("starts at 0 (earliest, no progress)"));
        QCOMPARE(make(StartReason::Latest, 0, 12000, -1, 12000).describe(),
                 QStringLiteral("starts at 12,000 (latest, no progress)"));
        QCOMPARE(make(StartReason::CommittedBelowLogStart, 1000, 1500, 0, 1000).describe(),
                 QStringLiteral("starts at 1,000 (the log start: committed 0 is below it, 1,000 records vanished)"));
        QCOMPARE(make(StartReason::CommittedPastEnd, 0, 100, 5000, 0).describe(),
                 QStringLiteral(
                     "starts at 0 (the log start: committed 5,000 is past the end 100, topic recreated or truncated)"));
        PartitionStart t = make(StartReason::Timestamp, 0, 10, -1, 4);
        t.startTime = QDateTime(QDate(2026, 11, 1), QTime(0, 0), Qt::UTC);
        QCOMPARE(t.describe(),
                 QStringLiteral("starts at 4 (first record at or after 2026-11-01T00:00:00Z, no progress)"));
        t.start = 10;
        t.toCopy = 0;
        QCOMPARE(t.describe(),
                 QStringLiteral("starts at 10 (the end: no record at or after 2026-11-01T00:00:00Z, no progress)"));
        QCOMPARE(make(StartReason::Reset, 0, 10, 3, 0).describe(), QStringLiteral("moves to 0 (reset)"));
    }

    void vanishedRecordsAreCountedWithTheirOffsets()
    {
        QCOMPARE(make(StartReason::CommittedBelowLogStart, 1000, 1500, 0, 1000).vanishedText(),
                 QStringLiteral("1,000 records vanished before they were copied: offsets 0..999"));
        QCOMPARE(make(StartReason::CommittedBelowLogStart, 8, 10, 7, 8).vanishedText(),
                 QStringLiteral("1 record vanished before it was copied: offsets 7..7"));
        QVERIFY(make(StartReason::Committed, 0, 10, 5, 5).vanishedText().isEmpty());
    }

    void totals()
    {
        JobProgress p;
        p.partitions = {make(StartReason::Committed, 0, 10, 4, 4),
                        make(StartReason::CommittedBelowLogStart, 7, 10, 2, 7)};
        QCOMPARE(p.totalToCopy(), 9);
        QCOMPARE(p.totalSkipped(), 5);
        p.groupState = QStringLiteral("Empty");
        QVERIFY(!p.groupActive());
        p.groupState = QStringLiteral("Dead");
        QVERIFY(!p.groupActive());
        p.groupState = QStringLiteral("PreparingRebalance");
        QVERIFY(p.groupActive());
        p.groupState = QStringLiteral("Empty");
        p.members = {QStringLiteral("rdkafka on 127.0.0.1")};
        QVERIFY(p.groupActive());
    }
};

QTEST_GUILESS_MAIN(TestPartitionStart)
#include "tst_partitionstart.moc"
