// Group offset sync without brokers: which groups a job selects, what happens
// to each partition (translation through the offset map, and the action:
// write, already there, never backwards, never an active group, never a guess),
// and the copy lag failover waits for.

#include "engine/groupsync/GroupOffsetSync.h"
#include "engine/offsetmap/OffsetMap.h"

#include <QTest>

using namespace md;

namespace {

// Source 0..9 copied to target 0..9; a transaction marker at source 10; source
// 11..19 copied to target 10..18; the job's progress (covered) is 21.
PartitionOffsetMap twoSegments()
{
    PartitionOffsetMap m;
    m.apply(OffsetSegment{0, 10, 0, 10, QStringLiteral("src.orders")});
    m.apply(OffsetSegment{11, 20, 10, 21, QStringLiteral("src.orders")});
    return m;
}

GroupPartitionSync partitionAt(qint64 committed, qint64 targetCurrent = -1, qint64 sourceEnd = 30)
{
    GroupPartitionSync p;
    p.topic = QStringLiteral("orders");
    p.partition = 0;
    p.targetTopic = QStringLiteral("src.orders");
    p.sourceCommitted = committed;
    p.targetCurrent = targetCurrent;
    p.sourceEnd = sourceEnd;
    return p;
}

MirrorJobSpec specWithGroups(const QStringList &include, const QStringList &exclude = {})
{
    MirrorJobSpec s;
    s.name = QStringLiteral("orders to DR");
    s.groupId = QStringLiteral("mirrordesk-orders-to-dr");
    s.groupsInclude = include;
    s.groupsExclude = exclude;
    return s;
}

} // namespace

class TstGroupSyncPlan final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void exactOffsetIsWrittenWhereItsCopyIs()
    {
        const PartitionOffsetMap map = twoSegments();
        GroupPartitionSync p = partitionAt(15);
        decidePartition(&p, &map, false, false, false);
        QCOMPARE(p.translation.kind, OffsetTranslation::Kind::Exact);
        QCOMPARE(p.translation.targetOffset, 14); // past the marker: one less than on the source
        QCOMPARE(p.action, GroupSyncAction::Write);
        QCOMPARE(p.readAgain, 0);
        QCOMPARE(p.neverReached, 30 - 21);
        QCOMPARE(p.syncedOffset(), 14);
        QCOMPARE(p.targetTopic, QStringLiteral("src.orders"));
    }

    void alreadyThereIsNotWrittenAgain()
    {
        const PartitionOffsetMap map = twoSegments();
        GroupPartitionSync p = partitionAt(15, 14);
        decidePartition(&p, &map, true, false, false); // even with members: nothing to change
        QCOMPARE(p.action, GroupSyncAction::AlreadyThere);
        QCOMPARE(p.syncedOffset(), 14);
    }

    void neverBackwardsWithoutAllowRewind()
    {
        const PartitionOffsetMap map = twoSegments();
        GroupPartitionSync p = partitionAt(5, 12);
        decidePartition(&p, &map, false, false, false);
        QCOMPARE(p.action, GroupSyncAction::SkipWouldRewind);
        QVERIFY2(p.note.contains(QStringLiteral("ahead")), qPrintable(p.note));
        QCOMPARE(p.syncedOffset(), -1);
        decidePartition(&p, &map, false, true, false);
        QCOMPARE(p.action, GroupSyncAction::Write);
        QCOMPARE(p.translation.targetOffset, 5);
        // Forwards is always fine.
        p = partitionAt(15, 3);
        decidePartition(&p, &map, false, false, false);
        QCOMPARE(p.action, GroupSyncAction::Write);
    }

    void activeTargetGroupIsNeverWritten()
    {
        const PartitionOffsetMap map = twoSegments();
        GroupPartitionSync p = partitionAt(15);
        decidePartition(&p, &map, true, true, true);
        QCOMPARE(p.action, GroupSyncAction::SkipActiveMembers);
        QVERIFY(groupStateActive(QStringLiteral("Stable"), {}));
        QVERIFY(groupStateActive(QStringLiteral("Empty"), {QStringLiteral("c on h")}));
        QVERIFY(groupStateActive(QStringLiteral("PreparingRebalance"), {}));
        QVERIFY(!groupStateActive(QStringLiteral("Empty"), {}));
        QVERIFY(!groupStateActive(QStringLiteral("Dead"), {}));
    }

    void pastTheCopyOnlyWhenPartialIsAllowed()
    {
        const PartitionOffsetMap map = twoSegments();
        GroupPartitionSync p = partitionAt(25);
        decidePartition(&p, &map, false, false, false);
        QCOMPARE(p.translation.kind, OffsetTranslation::Kind::NotCopied);
        QCOMPARE(p.action, GroupSyncAction::SkipNotTranslatable);
        QVERIFY2(p.note.contains(QStringLiteral("not copied yet")), qPrintable(p.note));

        decidePartition(&p, &map, false, false, true);
        QCOMPARE(p.action, GroupSyncAction::Write);
        QCOMPARE(p.translation.targetOffset, map.translate(25).targetOffset); // where the copy stands
        QCOMPARE(p.readAgain, map.translate(25).notCopied);
        QVERIFY(p.readAgain > 0);
        QVERIFY2(p.note.contains(QStringLiteral("read again")), qPrintable(p.note));
    }

    void unknownAndBeforeTheMapAreNeverGuessed()
    {
        GroupPartitionSync p = partitionAt(5);
        decidePartition(&p, nullptr, false, true, true);
        QCOMPARE(p.translation.kind, OffsetTranslation::Kind::Unknown);
        QCOMPARE(p.action, GroupSyncAction::SkipNotTranslatable);
        QVERIFY2(p.note.contains(QStringLiteral("knows nothing")), qPrintable(p.note));
        QCOMPARE(p.neverReached, -1);

        PartitionOffsetMap late;
        late.apply(OffsetSegment{100, 110, 0, 110, QStringLiteral("src.orders")});
        p = partitionAt(40);
        decidePartition(&p, &late, false, true, true);
        QCOMPARE(p.translation.kind, OffsetTranslation::Kind::BeforeMap);
        QCOMPARE(p.action, GroupSyncAction::SkipNotTranslatable);
    }

    void aRecopyAfterACrashWins()
    {
        // 0..9 copied to 0..9, then a crash: 5..14 copied again to 10..19.
        PartitionOffsetMap m;
        m.apply(OffsetSegment{0, 10, 0, 10, QStringLiteral("t")});
        m.apply(OffsetSegment{5, 15, 10, 15, QStringLiteral("t")});
        GroupPartitionSync p = partitionAt(7, -1, 15);
        decidePartition(&p, &m, false, false, false);
        QCOMPARE(p.translation.targetOffset, 12); // the newest copy: the duplicated range is not read twice
        QCOMPARE(p.action, GroupSyncAction::Write);
        QCOMPARE(p.neverReached, 0);
    }

    void groupSelection_data()
    {
        QTest::addColumn<QStringList>("include");
        QTest::addColumn<QStringList>("exclude");
        QTest::addColumn<QString>("extra");
        QTest::addColumn<QString>("group");
        QTest::addColumn<bool>("selected");
        const QStringList billing{QStringLiteral("billing-.*")};
        QTest::newRow("none listed") << QStringList() << QStringList() << QString() << "billing-a" << false;
        QTest::newRow("included") << billing << QStringList() << QString() << "billing-a" << true;
        QTest::newRow("whole name only") << billing << QStringList() << QString() << "old-billing-a" << false;
        QTest::newRow("excluded") << billing << QStringList{QStringLiteral(".*-test")} << QString() << "billing-test"
                                  << false;
        QTest::newRow("extra narrows") << billing << QStringList() << "billing-b"
                                       << "billing-a" << false;
        QTest::newRow("extra and include") << billing << QStringList() << "billing-b"
                                           << "billing-b" << true;
        QTest::newRow("extra alone selects") << QStringList() << QStringList() << "app-.*"
                                             << "app-1" << true;
        QTest::newRow("the job's own group")
            << QStringList{QStringLiteral(".*")} << QStringList() << QString() << "mirrordesk-orders-to-dr" << false;
        QTest::newRow("other jobs' groups")
            << QStringList{QStringLiteral(".*")} << QStringList() << QString() << "mirrordesk-other" << false;
        QTest::newRow("derived job groups")
            << QStringList{QStringLiteral(".*")} << QStringList() << QString() << "mirrordesk.orders" << false;
    }

    void groupSelection()
    {
        QFETCH(QStringList, include);
        QFETCH(QStringList, exclude);
        QFETCH(QString, extra);
        QFETCH(QString, group);
        QFETCH(bool, selected);
        const GroupFilter filter(specWithGroups(include, exclude), extra);
        QVERIFY2(filter.isValid(), qPrintable(filter.error()));
        QCOMPARE(filter.selects(group), selected);
    }

    void badRegexIsNamed()
    {
        GroupFilter f(specWithGroups({QStringLiteral("ok"), QStringLiteral("bad(")}));
        QVERIFY(!f.isValid());
        QVERIFY2(f.error().contains(QStringLiteral("groups.include[1]")) && f.error().contains(QStringLiteral("bad(")),
                 qPrintable(f.error()));
        GroupFilter g(specWithGroups({QStringLiteral(".*")}), QStringLiteral("[x"));
        QVERIFY(!g.isValid());
        QVERIFY2(g.error().startsWith(QStringLiteral("--groups")), qPrintable(g.error()));
    }

    void copyLag()
    {
        const PartitionOffsetMap map = twoSegments();
        QCOMPARE(copyLagOf(0, 21, &map), 0);
        QCOMPARE(copyLagOf(0, 30, &map), 9);
        QCOMPARE(copyLagOf(0, 7, nullptr), 7); // nothing copied
        QCOMPARE(copyLagOf(7, 7, nullptr), 0); // nothing to copy
        QCOMPARE(copyLagOf(25, 30, &map), 5);  // retention took what was not copied: only what is there counts
    }

    void actionNames()
    {
        QCOMPARE(groupSyncActionName(GroupSyncAction::Write), QStringLiteral("write"));
        QCOMPARE(groupSyncActionName(GroupSyncAction::AlreadyThere), QStringLiteral("already-there"));
        QCOMPARE(groupSyncActionName(GroupSyncAction::SkipWouldRewind), QStringLiteral("skip-would-rewind"));
        QCOMPARE(groupSyncActionName(GroupSyncAction::SkipActiveMembers), QStringLiteral("skip-active-members"));
        QCOMPARE(groupSyncActionName(GroupSyncAction::SkipNotTranslatable), QStringLiteral("skip-not-translatable"));
    }
};

QTEST_GUILESS_MAIN(TstGroupSyncPlan)
#include "tst_groupsyncplan.moc"
