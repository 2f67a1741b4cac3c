// Which offset map records a job may delete (engine/offsetmap/OffsetMapPruner.h):
// only those whose whole range lies below their source partition's log start,
// never the record that says how far the job has copied, never one of a
// partition whose log start is not known. A wrong delete would turn copied
// records into gaps, and a group translated over a gap skips records.
#include "engine/offsetmap/OffsetMapPruner.h"

#include <QTest>

using namespace md;

namespace {

QByteArray value(qint64 start, qint64 end, qint64 target, qint64 covered)
{
    OffsetSegment s;
    s.sourceStart = start;
    s.sourceEnd = end;
    s.targetStart = target;
    s.covered = covered;
    s.targetTopic = QStringLiteral("dr.orders");
    return offsetMapValue(s);
}

void note(OffsetMapKeys &keys, const QString &topic, int partition, qint64 start, qint64 end, qint64 target,
          qint64 covered)
{
    const QByteArray v = value(start, end, target, covered);
    QVERIFY(keys.note(offsetMapKey(topic, partition, start), &v));
}

const QString kOrders = QStringLiteral("orders");

} // namespace

class TstOffsetMapPruning final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Source partition 0: segments [0,5) [6,11) [12,17) [18,23), covered 24.
    void onlyWhatLiesWhollyBelowTheLogStartGoes()
    {
        OffsetMapKeys keys;
        note(keys, kOrders, 0, 0, 5, 0, 6);
        note(keys, kOrders, 0, 6, 11, 5, 12);
        note(keys, kOrders, 0, 12, 17, 10, 18);
        note(keys, kOrders, 0, 18, 23, 15, 24);
        QCOMPARE(keys.size(), 4);
        const QHash<OffsetMapKeys::Partition, qint64> starts{{{kOrders, 0}, 14}};
        // [12,17) holds the log start: offsets 14-16 are still there to translate.
        QCOMPARE(keys.belowLogStart(starts, 100), (QList<QByteArray>{"orders/0/0", "orders/0/6"}));
        // A log start exactly at a segment's end: that segment is gone whole.
        QCOMPARE(keys.belowLogStart({{{kOrders, 0}, 11}}, 100), (QList<QByteArray>{"orders/0/0", "orders/0/6"}));
        QCOMPARE(keys.belowLogStart({{{kOrders, 0}, 10}}, 100), (QList<QByteArray>{"orders/0/0"}));
        QCOMPARE(keys.belowLogStart({{{kOrders, 0}, 0}}, 100), QList<QByteArray>());
        // Oldest first, at most the limit: the rest at the next pass.
        QCOMPARE(keys.belowLogStart(starts, 1), (QList<QByteArray>{"orders/0/0"}));
    }

    // Retention took every record copied: the newest record still says how far
    // the job got (a group at the end translates to End, not NotCopied).
    void theFurthestCoveredStays()
    {
        OffsetMapKeys keys;
        note(keys, kOrders, 0, 0, 5, 0, 6);
        note(keys, kOrders, 0, 6, 11, 5, 11);
        QCOMPARE(keys.belowLogStart({{{kOrders, 0}, 50}}, 100), (QList<QByteArray>{"orders/0/0"}));
    }

    void aPartitionWithoutALogStartKeepsEverything()
    {
        OffsetMapKeys keys;
        note(keys, kOrders, 0, 0, 5, 0, 6);
        note(keys, kOrders, 0, 6, 11, 5, 11);
        note(keys, kOrders, 1, 0, 5, 0, 6);
        note(keys, kOrders, 1, 6, 11, 5, 11);
        note(keys, QStringLiteral("payments"), 0, 0, 5, 0, 6);
        note(keys, QStringLiteral("payments"), 0, 6, 11, 5, 11);
        QCOMPARE(keys.partitions(),
                 (QList<OffsetMapKeys::Partition>{{kOrders, 0}, {kOrders, 1}, {QStringLiteral("payments"), 0}}));
        // Partition 1's and payments' log starts are not known (a deleted topic): nothing of theirs goes.
        QCOMPARE(keys.belowLogStart({{{kOrders, 0}, 50}}, 100), (QList<QByteArray>{"orders/0/0"}));
    }

    // The map topic's records in order: a later value of a key replaces the
    // earlier one (the segment grew), a tombstone removes the key.
    void theLastRecordOfAKeyDecides()
    {
        OffsetMapKeys keys;
        note(keys, kOrders, 0, 0, 5, 0, 5);
        note(keys, kOrders, 0, 0, 9, 0, 9); // the same segment, longer
        note(keys, kOrders, 0, 10, 12, 9, 12);
        QCOMPARE(keys.belowLogStart({{{kOrders, 0}, 8}}, 100), QList<QByteArray>()); // [0,9) holds 8
        QVERIFY(keys.note("orders/0/0", nullptr));
        QCOMPARE(keys.size(), 1);
        QVERIFY(keys.note("orders/0/99", nullptr)); // a tombstone of a key never seen
        QCOMPARE(keys.size(), 1);
        keys.forget({"orders/0/10"});
        QCOMPARE(keys.size(), 0);
    }

    // Keys of a partition's old log (before its reset record) are not the
    // pruner's: a tombstone could meet the new log writing the same key.
    // Nor does the old log's covered keep a record of the new one.
    void aResetTakesTheOldLogsKeysOutOfConsideration()
    {
        OffsetMapKeys keys;
        note(keys, kOrders, 0, 0, 500, 0, 500);
        note(keys, kOrders, 0, 501, 1000, 500, 1000);
        note(keys, kOrders, 1, 0, 5, 0, 5);
        const QByteArray reset = offsetMapResetValue();
        QVERIFY(keys.note(offsetMapResetKey(kOrders, 0), &reset));
        QCOMPARE(keys.size(), 1); // partition 1's key only
        note(keys, kOrders, 0, 0, 5, 1000, 6);
        note(keys, kOrders, 0, 6, 8, 1005, 8);
        QCOMPARE(keys.size(), 3);
        QCOMPARE(keys.belowLogStart({{{kOrders, 0}, 7}}, 100), (QList<QByteArray>{"orders/0/0"}));
    }

    void recordsThatAreNotMapRecordsAreRefused()
    {
        OffsetMapKeys keys;
        const QByteArray junk("not a map record");
        QVERIFY(!keys.note("orders/0/0", &junk));
        const QByteArray good = value(0, 5, 0, 5);
        QVERIFY(!keys.note("orders/0/1", &good)); // the key's start differs from the value's
        QCOMPARE(keys.size(), 0);
    }
};

QTEST_GUILESS_MAIN(TstOffsetMapPruning)
#include "tst_offsetmappruning.moc"
