#include "engine/offsetmap/OffsetMap.h"

#include <QTest>

using namespace md;
using Kind = OffsetTranslation::Kind;

namespace {

OffsetSegment seg(qint64 sourceStart, qint64 sourceEnd, qint64 targetStart, qint64 covered,
                  const QString &topic = QStringLiteral("eu.orders"))
{
    OffsetSegment s;
    s.sourceStart = sourceStart;
    s.sourceEnd = sourceEnd;
    s.targetStart = targetStart;
    s.covered = covered;
    s.targetTopic = topic;
    return s;
}

} // namespace

class TstOffsetMap final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void exactInsideOneSegment()
    {
        PartitionOffsetMap m;
        m.apply(seg(10, 20, 100, 20));
        QCOMPARE(m.segmentCount(), 1);
        const OffsetTranslation t = m.translate(15);
        QCOMPARE(t.kind, Kind::Exact);
        QCOMPARE(t.targetOffset, 105);
        QCOMPARE(t.targetTopic, QStringLiteral("eu.orders"));
        QVERIFY(t.exact());
        QCOMPARE(m.translate(10).targetOffset, 100);
        QCOMPARE(m.translate(19).targetOffset, 109);
    }

    void extensionReplacesTheSameKey()
    {
        // The writer rewrites a growing segment under the same key: the later,
        // longer record replaces the earlier one, no new segment.
        PartitionOffsetMap m;
        m.apply(seg(0, 10, 0, 10));
        m.apply(seg(0, 25, 0, 25));
        QCOMPARE(m.segmentCount(), 1);
        QCOMPARE(m.segments().constFirst(), seg(0, 25, 0, 25));
        QCOMPARE(m.translate(24).kind, Kind::Exact);
        QCOMPARE(m.covered(), 25);
    }

    void newSegmentAtDiscontinuity()
    {
        PartitionOffsetMap m;
        m.apply(seg(0, 10, 0, 10));
        m.apply(seg(11, 20, 10, 20)); // a transaction marker at source offset 10
        QCOMPARE(m.segmentCount(), 2);
        QCOMPARE(m.translate(9).targetOffset, 9);
        const OffsetTranslation gap = m.translate(10);
        QCOMPARE(gap.kind, Kind::Gap);
        QCOMPARE(gap.targetOffset, 10); // the next copied record's copy
        QVERIFY(gap.exact());
        QCOMPARE(m.translate(11).kind, Kind::Exact);
        QCOMPARE(m.translate(11).targetOffset, 10);
    }

    void laterSegmentOverridesOnlyItsOverlap()
    {
        // Run 1 copied 0..99, crashed after committing 50; run 2 copied 50..79 again.
        PartitionOffsetMap m;
        m.apply(seg(0, 100, 0, 100));
        m.apply(seg(50, 80, 100, 80));
        QCOMPARE(m.segmentCount(), 3);
        const QList<OffsetSegment> s = m.segments();
        QCOMPARE(s[0], seg(0, 50, 0, 100));
        QCOMPARE(s[1], seg(50, 80, 100, 80));
        QCOMPARE(s[2], seg(80, 100, 80, 100)); // the old copy stays where it was not copied again
        QCOMPARE(m.translate(49).targetOffset, 49);
        QCOMPARE(m.translate(50).targetOffset, 100); // the newer copy
        QCOMPARE(m.translate(79).targetOffset, 129);
        QCOMPARE(m.translate(80).targetOffset, 80);
        QCOMPARE(m.covered(), 100); // covered never goes back
    }

    void laterSegmentInsideAndAcrossSeveral()
    {
        PartitionOffsetMap m;
        m.apply(seg(0, 10, 0, 10));
        m.apply(seg(10, 20, 20, 20));
        m.apply(seg(20, 30, 40, 30));
        m.apply(seg(5, 25, 100, 30)); // across all three
        const QList<OffsetSegment> s = m.segments();
        QCOMPARE(s.size(), 3);
        QCOMPARE(s[0], seg(0, 5, 0, 10));
        QCOMPARE(s[1], seg(5, 25, 100, 30));
        QCOMPARE(s[2], seg(25, 30, 45, 30));
        // Strictly inside an earlier one: it splits in two.
        PartitionOffsetMap n;
        n.apply(seg(0, 100, 0, 100));
        n.apply(seg(40, 60, 500, 100));
        QCOMPARE(n.segmentCount(), 3);
        QCOMPARE(n.translate(39).targetOffset, 39);
        QCOMPARE(n.translate(40).targetOffset, 500);
        QCOMPARE(n.translate(60).targetOffset, 60);
    }

    void gapsUpToCovered()
    {
        PartitionOffsetMap m;
        m.apply(seg(0, 10, 0, 14)); // 10..13: markers or aborted records, no copies yet after them
        const OffsetTranslation g = m.translate(12);
        QCOMPARE(g.kind, Kind::Gap);
        QCOMPARE(g.targetOffset, 10); // the target's next offset
    }

    void endNotCopiedBeforeMapUnknown()
    {
        PartitionOffsetMap m;
        QCOMPARE(m.translate(0).kind, Kind::Unknown);
        QCOMPARE(m.translate(0).targetOffset, -1);
        m.apply(seg(100, 200, 7, 210));
        const OffsetTranslation end = m.translate(210);
        QCOMPARE(end.kind, Kind::End);
        QCOMPARE(end.targetOffset, 107);
        QVERIFY(end.exact());
        const OffsetTranslation nc = m.translate(250);
        QCOMPARE(nc.kind, Kind::NotCopied);
        QCOMPARE(nc.notCopied, 40);
        QCOMPARE(nc.targetOffset, 107);
        QVERIFY(!nc.exact());
        const OffsetTranslation before = m.translate(50);
        QCOMPARE(before.kind, Kind::BeforeMap);
        QCOMPARE(before.targetOffset, 7);
        QVERIFY(!before.exact());

        OffsetMap all;
        QVERIFY(all.isEmpty());
        all.apply(QStringLiteral("orders"), 1, seg(0, 5, 0, 5));
        QCOMPARE(all.translate(QStringLiteral("orders"), 0, 1).kind, Kind::Unknown);
        QCOMPARE(all.translate(QStringLiteral("orders"), 1, 1).kind, Kind::Exact);
        QCOMPARE(all.translate(QStringLiteral("other"), 1, 1).kind, Kind::Unknown);
        QCOMPARE(all.partitions(), (QList<QPair<QString, int>>{{QStringLiteral("orders"), 1}}));
        QCOMPARE(all.segmentCount(), 1);
        QVERIFY(all.partition(QStringLiteral("orders"), 1));
        QVERIFY(!all.partition(QStringLiteral("orders"), 2));
    }

    void sourceForReverses()
    {
        PartitionOffsetMap m;
        m.apply(seg(0, 100, 0, 100));
        m.apply(seg(50, 80, 100, 100));
        QCOMPARE(m.sourceFor(10), 10);
        QCOMPARE(m.sourceFor(100), 50);
        QCOMPARE(m.sourceFor(129), 79);
        QCOMPARE(m.sourceFor(85), 85);
        QCOMPARE(m.sourceFor(60), -1); // an overridden duplicate
        QCOMPARE(m.sourceFor(130), -1);
        QCOMPARE(m.sourceFor(-1), -1);
    }

    // Exactly-once: a marker after every commit. Source 0-29 copied to target
    // 0-9, 11-20 (marker 10), 22-31 (marker 21): one segment with two steps.
    void stepsTranslateEachCopyExactly()
    {
        OffsetSegment s = seg(0, 30, 0, 30);
        s.steps = {{10, 1}, {20, 2}};
        PartitionOffsetMap m;
        m.apply(s);
        QCOMPARE(m.segmentCount(), 1);
        const QList<QPair<qint64, qint64>> copies = {{0, 0}, {9, 9}, {10, 11}, {19, 20}, {20, 22}, {29, 31}};
        for (const auto &[source, target] : copies) {
            const OffsetTranslation t = m.translate(source);
            QCOMPARE(t.kind, Kind::Exact);
            QCOMPARE(t.targetOffset, target);
            QCOMPARE(m.sourceFor(target), source);
        }
        QCOMPARE(s.targetEnd(), 32);
        QCOMPARE(m.translate(30).kind, Kind::End);
        QCOMPARE(m.translate(30).targetOffset, 32);
        QCOMPARE(m.sourceFor(10), -1); // the markers are no copy
        QCOMPARE(m.sourceFor(21), -1);
        QCOMPARE(m.sourceFor(32), -1);
        // A jump of more than one (aborted records, another writer's).
        OffsetSegment wide = seg(100, 104, 500, 104);
        wide.steps = {{102, 7}};
        QCOMPARE(wide.targetOf(101), 501);
        QCOMPARE(wide.targetOf(102), 509);
        QCOMPARE(wide.targetEnd(), 511);
        QCOMPARE(wide.sourceOf(505), -1);
        QCOMPARE(wide.sourceOf(510), 103);
    }

    // A re-copy overrides the middle of a segment with steps: what is left on
    // either side keeps its own steps and translates as before.
    void aLaterSegmentCutsThroughSteps()
    {
        OffsetSegment s = seg(0, 30, 0, 30);
        s.steps = {{10, 1}, {20, 2}, {25, 4}};
        PartitionOffsetMap m;
        m.apply(s);
        m.apply(seg(12, 22, 1000, 30));
        const QList<OffsetSegment> parts = m.segments();
        QCOMPARE(parts.size(), 3);
        QCOMPARE(parts[0].sourceEnd, 12);
        QCOMPARE(parts[0].steps, (std::vector<OffsetStep>{{10, 1}}));
        QCOMPARE(parts[2].sourceStart, 22);
        QCOMPARE(parts[2].targetStart, 24);
        QCOMPARE(parts[2].steps, (std::vector<OffsetStep>{{25, 2}}));
        for (qint64 o : {0, 9, 10, 11, 22, 24, 25, 29})
            QCOMPARE(m.translate(o).targetOffset, s.targetOf(o));
        QCOMPARE(m.translate(15).targetOffset, 1003);
        QCOMPARE(m.sourceFor(s.targetOf(15)), -1); // the overridden copy
        QCOMPARE(m.sourceFor(33), 29);
        // A cut exactly at a step: the step becomes the right part's start.
        OffsetSegment right = s.from(20);
        QCOMPARE(right.targetStart, 22);
        QCOMPARE(right.steps, (std::vector<OffsetStep>{{25, 2}}));
        QCOMPARE(s.before(20).steps, (std::vector<OffsetStep>{{10, 1}}));
    }

    void recordWithStepsRoundTrip()
    {
        OffsetSegment s = seg(1000, 5000, 7, 5000);
        s.steps = {{1500, 1}, {1501, 2}, {2000, 9}, {4999, 10}};
        const QByteArray value = offsetMapValue(s);
        QCOMPARE(value, QByteArray("2 1000 5000 7 5000 eu.orders 500,1,499:7,2999"));
        QString topic;
        int partition = -1;
        OffsetSegment back;
        QVERIFY(
            parseOffsetMapRecord(offsetMapKey(QStringLiteral("orders"), 0, 1000), value, &topic, &partition, &back));
        QCOMPARE(back, s);
        // Without steps the record is the first version's, as every earlier reader reads it.
        QVERIFY(offsetMapValue(seg(1, 2, 3, 4)).startsWith("1 "));
    }

    // The source topic was deleted and created again: the partition's reset
    // record drops what the map said of the old log, and only of that partition.
    void aResetRecordDropsThePartitionsOldLog()
    {
        const QByteArray key = offsetMapResetKey(QStringLiteral("orders"), 3);
        QCOMPARE(key, QByteArray("orders/3/reset"));
        QString topic;
        int partition = -1;
        QVERIFY(parseOffsetMapReset(key, offsetMapResetValue(), &topic, &partition));
        QCOMPARE(topic, QStringLiteral("orders"));
        QCOMPARE(partition, 3);
        OffsetSegment s;
        QVERIFY(!parseOffsetMapRecord(key, offsetMapResetValue(), &topic, &partition, &s)); // not a segment
        QVERIFY(!parseOffsetMapReset("orders/3/reset", "1 0 5 0 5 x", &topic, &partition));
        QVERIFY(!parseOffsetMapReset("orders/x/reset", "reset", &topic, &partition));
        QVERIFY(!parseOffsetMapReset("orders/3/0", "reset", &topic, &partition));

        OffsetMap map;
        map.apply(QStringLiteral("orders"), 3, seg(0, 1000, 0, 1000));
        map.apply(QStringLiteral("orders"), 4, seg(0, 10, 0, 10));
        map.forget(QStringLiteral("orders"), 3);
        map.apply(QStringLiteral("orders"), 3, seg(0, 5, 1000, 5));
        // Offset 5 of the new log is its end, not the old log's copy at 5.
        const OffsetTranslation t = map.translate(QStringLiteral("orders"), 3, 5);
        QCOMPARE(t.kind, Kind::End);
        QCOMPARE(t.targetOffset, 1005);
        QCOMPARE(map.translate(QStringLiteral("orders"), 3, 2).targetOffset, 1002);
        QCOMPARE(map.translate(QStringLiteral("orders"), 4, 2).targetOffset, 2);
    }

    void recordRoundTrip()
    {
        const OffsetSegment s = seg(1234567890123, 1234567890999, 42, 1234567891000, QStringLiteral("dr-orders.v1"));
        const QByteArray key = offsetMapKey(QStringLiteral("orders.v1"), 7, s.sourceStart);
        QCOMPARE(key, QByteArray("orders.v1/7/1234567890123"));
        QString topic;
        int partition = -1;
        OffsetSegment back;
        QVERIFY(parseOffsetMapRecord(key, offsetMapValue(s), &topic, &partition, &back));
        QCOMPARE(topic, QStringLiteral("orders.v1"));
        QCOMPARE(partition, 7);
        QCOMPARE(back, s);
    }

    void garbageIsRejected_data()
    {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<QByteArray>("value");
        const QByteArray goodKey("t/0/5");
        const QByteArray goodValue("1 5 9 100 9 eu.t");
        QTest::newRow("empty") << QByteArray() << QByteArray();
        QTest::newRow("key two parts") << QByteArray("t/0") << goodValue;
        QTest::newRow("key four parts") << QByteArray("t/0/5/1") << goodValue;
        QTest::newRow("key no topic") << QByteArray("/0/5") << goodValue;
        QTest::newRow("key bad partition") << QByteArray("t/x/5") << goodValue;
        QTest::newRow("key negative partition") << QByteArray("t/-1/5") << goodValue;
        QTest::newRow("key start differs") << QByteArray("t/0/6") << goodValue;
        QTest::newRow("version") << goodKey << QByteArray("3 5 9 100 9 eu.t");
        QTest::newRow("version 2 without steps") << goodKey << QByteArray("2 5 9 100 9 eu.t");
        QTest::newRow("fields missing") << goodKey << QByteArray("1 5 9 100 9");
        QTest::newRow("fields extra") << goodKey << QByteArray("1 5 9 100 9 eu.t x");
        QTest::newRow("not a number") << goodKey << QByteArray("1 5 nine 100 9 eu.t");
        QTest::newRow("end before start") << goodKey << QByteArray("1 5 4 100 9 eu.t");
        QTest::newRow("covered before end") << goodKey << QByteArray("1 5 9 100 8 eu.t");
        QTest::newRow("negative target") << goodKey << QByteArray("1 5 9 -1 9 eu.t");
        QTest::newRow("json") << goodKey << QByteArray("{\"sourceStart\":5}");
        QTest::newRow("steps missing") << goodKey << QByteArray("2 5 9 100 9 eu.t ");
        QTest::newRow("step at the start") << goodKey << QByteArray("2 5 9 100 9 eu.t 0");
        QTest::newRow("step at the end") << goodKey << QByteArray("2 5 9 100 9 eu.t 4");
        QTest::newRow("steps past the end") << goodKey << QByteArray("2 5 9 100 9 eu.t 3,1");
        QTest::newRow("step skips nothing") << goodKey << QByteArray("2 5 9 100 9 eu.t 2:0");
        QTest::newRow("step backwards") << goodKey << QByteArray("2 5 9 100 9 eu.t 2:-1");
        QTest::newRow("step empty") << goodKey << QByteArray("2 5 9 100 9 eu.t 2,,1");
        QTest::newRow("step not a number") << goodKey << QByteArray("2 5 9 100 9 eu.t 2:x");
        // Past 2^60 a translation could overflow.
        QTest::newRow("offset too large") << goodKey << QByteArray("1 5 9 1152921504606846976 9 eu.t");
        QTest::newRow("skips too large") << goodKey << QByteArray("2 5 9 100 9 eu.t 1:1152921504606846975,1:1");
    }

    void garbageIsRejected()
    {
        QFETCH(QByteArray, key);
        QFETCH(QByteArray, value);
        QString topic;
        int partition = -1;
        OffsetSegment s;
        QVERIFY(!parseOffsetMapRecord(key, value, &topic, &partition, &s));
        QVERIFY(parseOffsetMapRecord("t/0/5", "1 5 9 100 9 eu.t", &topic, &partition, &s));
        QVERIFY(parseOffsetMapRecord("t/0/5", "2 5 9 100 9 eu.t 2,1:3", &topic, &partition, &s));
        QCOMPARE(s.steps, (std::vector<OffsetStep>{{7, 1}, {8, 4}}));
    }

    void defaultTopicName()
    {
        QCOMPARE(defaultOffsetMapTopic(QStringLiteral("mirrordesk-orders")),
                 QStringLiteral("mirrordesk.mirrordesk-orders.offset-map"));
        QCOMPARE(defaultOffsetMapTopic(QStringLiteral("orders to DR/1")),
                 QStringLiteral("mirrordesk.orders_to_DR_1.offset-map"));
        const QString longName = defaultOffsetMapTopic(QString(400, QLatin1Char('g')));
        QCOMPARE(longName.size(), 249);
        QVERIFY(longName.endsWith(QLatin1String(".offset-map")));
    }
};

QTEST_GUILESS_MAIN(TstOffsetMap)
#include "tst_offsetmap.moc"
