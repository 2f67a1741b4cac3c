// "Show on the other cluster" without brokers: otherSideOffset on a map built
// by hand (a gap, a re-copy whose older duplicates the map no longer points
// at), both directions, every kind; and which jobs otherSideCandidates offers.
#include "engine/offsetmap/OffsetLookup.h"
#include "model/profile/OtherSideJobs.h"

#include <QTest>

using namespace md;
using Kind = OtherSideOffset::Kind;

namespace {

OffsetSegment seg(qint64 sourceStart, qint64 sourceEnd, qint64 targetStart, qint64 covered)
{
    OffsetSegment s;
    s.sourceStart = sourceStart;
    s.sourceEnd = sourceEnd;
    s.targetStart = targetStart;
    s.covered = covered;
    s.targetTopic = QStringLiteral("a.orders");
    return s;
}

ClusterConfig cluster(const QString &alias, const QString &bootstrap)
{
    ClusterConfig c;
    c.alias = alias;
    c.bootstrap = bootstrap;
    return c;
}

MirrorJobSpec job(const QString &name, const ClusterConfig &source, const ClusterConfig &target, const QString &include)
{
    MirrorJobSpec s;
    s.name = name;
    s.source = source;
    s.target = target;
    s.include = {include};
    s.naming = NamingPolicy::Prefix;
    return s;
}

} // namespace

class TstOffsetLookup final : public QObject {
    Q_OBJECT

    MirrorJobSpec m_spec = job(QStringLiteral("eu"), cluster(QStringLiteral("a"), QStringLiteral("a:9092")),
                               cluster(QStringLiteral("b"), QStringLiteral("b:9092")), QStringLiteral("orders"));
    OffsetMap m_map;

private Q_SLOTS:
    void initTestCase()
    {
        // Source 10-19 -> target 5-14; 20, 21 no records; 22-29 -> 15-22, then a
        // re-copy of 25-29 -> 23-27 (target 18-22 are now older duplicates).
        m_map.apply(QStringLiteral("orders"), 0, seg(10, 20, 5, 20));
        m_map.apply(QStringLiteral("orders"), 0, seg(22, 30, 15, 30));
        m_map.apply(QStringLiteral("orders"), 0, seg(25, 30, 23, 30));
    }

    void sourceToTarget_data()
    {
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<int>("kind");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("first") << qint64(10) << int(Kind::Found) << qint64(5);
        QTest::newRow("end of first run") << qint64(19) << int(Kind::Found) << qint64(14);
        QTest::newRow("gap") << qint64(20) << int(Kind::NoRecord) << qint64(-1);
        QTest::newRow("after the gap") << qint64(22) << int(Kind::Found) << qint64(15);
        QTest::newRow("re-copied: the newer copy") << qint64(25) << int(Kind::Found) << qint64(23);
        QTest::newRow("last") << qint64(29) << int(Kind::Found) << qint64(27);
        QTest::newRow("at covered") << qint64(30) << int(Kind::NotCopied) << qint64(-1);
        QTest::newRow("past covered") << qint64(45) << int(Kind::NotCopied) << qint64(-1);
        QTest::newRow("before the map") << qint64(3) << int(Kind::BeforeMap) << qint64(-1);
    }
    void sourceToTarget()
    {
        QFETCH(qint64, offset);
        QFETCH(int, kind);
        QFETCH(qint64, expected);
        const OtherSideOffset r =
            otherSideOffset(m_spec, m_map, QStringLiteral("orders"), 0, offset, LookupDirection::SourceToTarget);
        QCOMPARE(int(r.kind), kind);
        QCOMPARE(r.topic, QStringLiteral("a.orders"));
        QCOMPARE(r.partition, 0);
        QCOMPARE(r.offset, expected);
        if (!r.found())
            QVERIFY2(r.why.contains(QStringLiteral("offset %1").arg(offset)), qPrintable(r.why));
    }

    void targetToSource_data()
    {
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<int>("kind");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("before the map") << qint64(4) << int(Kind::BeforeMap) << qint64(-1);
        QTest::newRow("first") << qint64(5) << int(Kind::Found) << qint64(10);
        QTest::newRow("across the gap") << qint64(15) << int(Kind::Found) << qint64(22);
        QTest::newRow("before the duplicates") << qint64(17) << int(Kind::Found) << qint64(24);
        QTest::newRow("older duplicate") << qint64(18) << int(Kind::NoRecord) << qint64(-1);
        QTest::newRow("newer copy") << qint64(23) << int(Kind::Found) << qint64(25);
        QTest::newRow("last") << qint64(27) << int(Kind::Found) << qint64(29);
        QTest::newRow("after the last copy") << qint64(28) << int(Kind::NotCopied) << qint64(-1);
    }
    void targetToSource()
    {
        QFETCH(qint64, offset);
        QFETCH(int, kind);
        QFETCH(qint64, expected);
        const OtherSideOffset r =
            otherSideOffset(m_spec, m_map, QStringLiteral("a.orders"), 0, offset, LookupDirection::TargetToSource);
        QCOMPARE(int(r.kind), kind);
        QCOMPARE(r.offset, expected);
        if (r.found())
            QCOMPARE(r.topic, QStringLiteral("orders"));
        else
            QVERIFY2(r.why.contains(QStringLiteral("offset %1").arg(offset)), qPrintable(r.why));
    }

    void unknownPartitionOrTopic()
    {
        QCOMPARE(otherSideOffset(m_spec, m_map, QStringLiteral("orders"), 1, 10, LookupDirection::SourceToTarget).kind,
                 Kind::NotInMap);
        QCOMPARE(otherSideOffset(m_spec, m_map, QStringLiteral("a.orders"), 1, 5, LookupDirection::TargetToSource).kind,
                 Kind::NotInMap);
        QCOMPARE(otherSideOffset(m_spec, m_map, QStringLiteral("orders"), 0, 5, LookupDirection::TargetToSource).kind,
                 Kind::NotInMap); // a source name is not a target topic
    }

    void candidates()
    {
        const ClusterConfig a = cluster(QStringLiteral("a"), QStringLiteral("a:9092"));
        const ClusterConfig b = cluster(QStringLiteral("b"), QStringLiteral("B:9092")); // case does not matter
        const ClusterConfig c = cluster(QStringLiteral("c"), QStringLiteral("c:9092"));
        const MirrorJobSpec forward = job(QStringLiteral("forward"), a, b, QStringLiteral("orders"));
        const MirrorJobSpec back = job(QStringLiteral("back"), b, a, QStringLiteral("payments"));
        const MirrorJobSpec elsewhere = job(QStringLiteral("elsewhere"), a, c, QStringLiteral("orders"));
        const QList<MirrorJobSpec> jobs{elsewhere, forward, back};
        QString why;

        auto found = otherSideCandidates(jobs, a, b, QStringLiteral("orders"), &why);
        QCOMPARE(found.size(), qsizetype(1));
        QCOMPARE(found[0].spec.name, QStringLiteral("forward"));
        QCOMPARE(found[0].direction, LookupDirection::SourceToTarget);
        // On b, "a.orders" is forward's copy: looked up backwards through its map.
        found = otherSideCandidates(jobs, b, a, QStringLiteral("a.orders"), &why);
        QCOMPARE(found.size(), qsizetype(1));
        QCOMPARE(found[0].spec.name, QStringLiteral("forward"));
        QCOMPARE(found[0].direction, LookupDirection::TargetToSource);
        // On b, "payments" goes to a through the reverse job.
        found = otherSideCandidates(jobs, b, a, QStringLiteral("payments"), &why);
        QCOMPARE(found.size(), qsizetype(1));
        QCOMPARE(found[0].spec.name, QStringLiteral("back"));
        QCOMPARE(found[0].direction, LookupDirection::SourceToTarget);

        QVERIFY(otherSideCandidates(jobs, a, b, QStringLiteral("invoices"), &why).isEmpty());
        QVERIFY2(why.contains(QLatin1String("invoices")), qPrintable(why));
        QVERIFY(otherSideCandidates(jobs, b, c, QStringLiteral("orders"), &why).isEmpty());
        QVERIFY2(why.contains(QLatin1String("connects these two clusters")), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TstOffsetLookup)
#include "tst_offsetlookup.moc"
