// MM2-format checkpoints without brokers: the exact bytes of MM2's key and
// value (org.apache.kafka.connect.mirror.Checkpoint: Kafka protocol STRING,
// INT32, INT64, a version INT16 first in the value), the topic name, which
// planned partitions get one, and the profile's "checkpoints" key.

#include "JobProfileTestUtil.h"
#include "engine/groupsync/GroupOffsetSync.h"
#include "engine/groupsync/GroupSyncRunner.h"
#include "engine/offsetmap/Mm2Checkpoints.h"
#include "engine/offsetmap/OffsetMap.h"

#include <QTest>

using namespace md;
using namespace md::test;

namespace {

QByteArray hex(const char *h)
{
    return QByteArray::fromHex(QByteArray(h).replace(' ', ""));
}

Mm2Checkpoint sample()
{
    Mm2Checkpoint c;
    c.group = QStringLiteral("g1");
    c.topic = QStringLiteral("src.t");
    c.partition = 3;
    c.upstreamOffset = 5;
    c.downstreamOffset = 7;
    return c;
}

} // namespace

class TstMm2Checkpoints final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void keyIsGroupTopicPartition()
    {
        // int16 length + UTF-8 "g1", int16 length + "src.t", int32 3.
        QCOMPARE(*mm2CheckpointKey(sample()), hex("0002 6731  0005 7372632e74  00000003"));
    }

    void valueIsVersionUpstreamDownstreamMetadata()
    {
        // version 0, upstreamOffset 5, offset 7, metadata "" (never null in MM2's schema).
        QCOMPARE(*mm2CheckpointValue(sample()), hex("0000  0000000000000005  0000000000000007  0000"));
        Mm2Checkpoint c = sample();
        c.upstreamOffset = 0x0102030405060708;
        c.downstreamOffset = 0x1112131415161718;
        c.metadata = QStringLiteral("m");
        QCOMPARE(*mm2CheckpointValue(c), hex("0000  0102030405060708  1112131415161718  0001 6d"));
    }

    void stringLengthsCountUtf8Bytes()
    {
        Mm2Checkpoint c = sample();
        c.group = QStringLiteral("é"); // two bytes in UTF-8
        c.partition = 0x01020304;
        QCOMPARE(*mm2CheckpointKey(c), hex("0002 c3a9  0005 7372632e74  01020304"));
        c.group = QString(40000, QLatin1Char('x')); // over an int16 length: not writable
        QVERIFY(!mm2CheckpointKey(c));
    }

    void parseIsTheInverse()
    {
        Mm2Checkpoint c = sample();
        c.metadata = QStringLiteral("meta");
        const auto back = parseMm2Checkpoint(*mm2CheckpointKey(c), *mm2CheckpointValue(c));
        QVERIFY(back);
        QCOMPARE(*back, c);
        QByteArray v = *mm2CheckpointValue(c);
        QVERIFY(!parseMm2Checkpoint(*mm2CheckpointKey(c), v.left(v.size() - 1)));
        v[1] = 1; // another version
        QVERIFY(!parseMm2Checkpoint(*mm2CheckpointKey(c), v));
    }

    void topicNameFollowsTheReplicationPolicy()
    {
        QCOMPARE(mm2CheckpointsTopic(QStringLiteral("eu")), QStringLiteral("eu.checkpoints.internal"));
        MirrorJobSpec s;
        s.checkpointsAlias = QStringLiteral("eu");
        s.naming = NamingPolicy::Prefix;
        s.separator = QStringLiteral("_");
        QCOMPARE(mm2CheckpointsTopicOf(s), QStringLiteral("eu_checkpoints_internal"));
        s.naming = NamingPolicy::Identity;
        QCOMPARE(mm2CheckpointsTopicOf(s), QStringLiteral("eu.checkpoints.internal"));
    }

    void onlyExactTranslationsAreCheckpointed()
    {
        // Source 0..9 -> target 100..109; a marker at 10; 11..19 -> 110..118; covered 21.
        PartitionOffsetMap map;
        map.apply(OffsetSegment{0, 10, 100, 10, QStringLiteral("eu.orders")});
        map.apply(OffsetSegment{11, 20, 110, 21, QStringLiteral("eu.orders")});
        GroupSyncPlan plan;
        plan.ok = true;
        const auto add = [&](GroupSyncEntry *g, int partition, qint64 committed, bool known, bool active) {
            GroupPartitionSync p;
            p.topic = QStringLiteral("orders");
            p.partition = partition;
            p.targetTopic = QStringLiteral("eu.orders");
            p.sourceCommitted = committed;
            decidePartition(&p, known ? &map : nullptr, active, false, true);
            g->partitions.append(p);
        };
        GroupSyncEntry idle;
        idle.group = QStringLiteral("billing");
        add(&idle, 0, 5, true, false);  // Exact: 105
        add(&idle, 1, 10, true, false); // Gap: the next copy, 110
        add(&idle, 2, 21, true, false); // End: the target's next, 119
        add(&idle, 3, 25, true, false); // NotCopied: a partial write, no checkpoint
        add(&idle, 4, 5, false, false); // Unknown
        GroupSyncEntry active;
        active.group = QStringLiteral("busy");
        add(&active, 0, 15, true, true); // skipped by sync, still checkpointed: 114
        plan.groups = {idle, active};

        const QList<Mm2Checkpoint> got = checkpointsOfPlan(plan);
        QStringList lines;
        for (const Mm2Checkpoint &c : got)
            lines << QStringLiteral("%1 %2[%3] %4->%5")
                         .arg(c.group, c.topic)
                         .arg(c.partition)
                         .arg(c.upstreamOffset)
                         .arg(c.downstreamOffset);
        QCOMPARE(
            lines,
            (QStringList{QStringLiteral("billing eu.orders[0] 5->105"), QStringLiteral("billing eu.orders[1] 10->110"),
                         QStringLiteral("billing eu.orders[2] 21->119"), QStringLiteral("busy eu.orders[0] 15->114")}));
    }

    void checkpointsAloneRunTheSyncThread()
    {
        MirrorJobSpec s;
        s.groupsInclude = {QStringLiteral("billing")};
        s.syncGroupOffsets = false;
        QVERIFY(!GroupSyncRunner::wanted(s));
        s.emitCheckpoints = true;
        QVERIFY(GroupSyncRunner::wanted(s));
        s.groupsInclude.clear();
        QVERIFY(!GroupSyncRunner::wanted(s));
    }

    void profileKey()
    {
        QList<ProfileIssue> issues;
        JobProfile p =
            JobProfile::fromJson(profileWith({{QStringLiteral("groups"), parse("{\"include\": [\"billing\"]}")},
                                              {QStringLiteral("checkpoints"), parse("{\"enabled\": true}")}}),
                                 QStringLiteral("p"), &issues);
        QVERIFY2(!hasErrors(issues) && warningsOf(issues).isEmpty(), qPrintable(describe(issues)));
        QVERIFY(p.emitCheckpoints);
        auto spec = p.toSpec({}, &issues);
        QVERIFY2(spec, qPrintable(describe(issues)));
        QVERIFY(spec->emitCheckpoints);
        QCOMPARE(spec->checkpointsAlias, QStringLiteral("eu")); // source.alias
        QCOMPARE(mm2CheckpointsTopicOf(*spec), QStringLiteral("eu.checkpoints.internal"));

        p.checkpointsAlias = QStringLiteral("west");
        spec = p.toSpec({}, &issues);
        QVERIFY(spec);
        QCOMPARE(spec->checkpointsAlias, QStringLiteral("west"));

        // Off by default, and not written out then.
        issues.clear();
        const JobProfile plain =
            JobProfile::fromJson(profileWith(QStringLiteral("name"), QStringLiteral("x")), {}, &issues);
        QVERIFY(!plain.emitCheckpoints);
        QVERIFY(!plain.toJson().contains("checkpoints"));
        QVERIFY(!plain.toSpec({}, &issues)->emitCheckpoints);
    }

    void profileKeyErrors()
    {
        QList<ProfileIssue> issues;
        // Identity naming needs no source alias, but the checkpoints topic does.
        JobProfile::fromJson(profileWith({{QStringLiteral("naming"), QStringLiteral("identity")},
                                          {QStringLiteral("source.alias"), QJsonValue::Undefined},
                                          {QStringLiteral("groups"), parse("{\"include\": [\"billing\"]}")},
                                          {QStringLiteral("checkpoints"), parse("{\"enabled\": true}")}}),
                             {}, &issues);
        QVERIFY2(describe(issues).contains(QStringLiteral("checkpoints.sourceAlias")), qPrintable(describe(issues)));
        issues.clear();
        JobProfile::fromJson(
            profileWith(QStringLiteral("checkpoints"), parse("{\"enabled\": true, \"sourceAlias\": \"a b\"}")), {},
            &issues);
        QVERIFY2(hasErrors(issues) && describe(issues).contains(QStringLiteral("checkpoints.sourceAlias")),
                 qPrintable(describe(issues)));
        issues.clear();
        JobProfile::fromJson(profileWith(QStringLiteral("checkpoints"), parse("{\"enabled\": true}")), {}, &issues);
        QVERIFY2(!hasErrors(issues) && describe(issues).contains(QStringLiteral("no effect without groups.include")),
                 qPrintable(describe(issues)));
        issues.clear();
        JobProfile::fromJson(profileWith(QStringLiteral("checkpoints"), parse("{\"enable\": true}")), {}, &issues);
        QVERIFY2(describe(issues).contains(QStringLiteral("checkpoints.enable")), qPrintable(describe(issues)));
    }
};

QTEST_GUILESS_MAIN(TstMm2Checkpoints)
#include "tst_mm2checkpoints.moc"
