// GroupLagSampler against the real "source" broker: a real consumer group that
// consumed part of a topic is sampled with the broker's per-partition lag;
// producing more raises it, committing lowers it; rates follow; an unreachable
// cluster is reported, not hung on.
#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/admin/AdminService.h"
#include "engine/admin/GroupLagSampler.h"
#include "model/monitor/MetricStore.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

using namespace md;

namespace {

QList<test::TestRecord> records(int partition, int count)
{
    QList<test::TestRecord> out;
    for (int i = 0; i < count; ++i) {
        test::TestRecord r;
        r.key = QByteArray("k");
        r.value = QByteArray::number(i);
        r.partition = partition;
        out.append(r);
    }
    return out;
}

const PartitionMetrics *partition(const MetricsSnapshot &s, int p)
{
    for (const PartitionMetrics &m : s.partitions) {
        if (m.partition == p)
            return &m;
    }
    return nullptr;
}

// The newest snapshot the spy holds.
MetricsSnapshot latest(const QSignalSpy &spy)
{
    return spy.isEmpty() ? MetricsSnapshot{} : spy.last().first().value<MetricsSnapshot>();
}

// Lag of partition p in the newest snapshot, -2 when there is none.
qint64 lagOf(const QSignalSpy &spy, int p)
{
    const MetricsSnapshot s = latest(spy);
    const PartitionMetrics *m = partition(s, p);
    return m ? m->lag : -2;
}

} // namespace

class TstGroupLagSampler final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void lagFollowsTheBroker()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        const QString bootstrap = test::sourceBootstrap();
        const QString topic = test::uniqueName(QStringLiteral("lagsampler"));
        const QString group = test::uniqueName(QStringLiteral("lagsampler-g"));
        QString error;
        QVERIFY2(test::createTopic(bootstrap, topic, 2, {}, &error), qPrintable(error));
        QVERIFY2(test::produce(bootstrap, topic, records(0, 10) + records(1, 6), &error), qPrintable(error));

        test::GroupMember consumer;
        QVERIFY2(consumer.start(bootstrap, group, topic, &error), qPrintable(error));
        // Part of the topic: 4 of partition 0's 10 records, all 6 of partition 1's.
        QVERIFY2(consumer.consumeAndCommit({{0, 4}, {1, 6}}, &error), qPrintable(error));

        GroupLagSampler sampler(test::clusterConfig(QStringLiteral("source")), group);
        sampler.setIntervalMs(300);
        QSignalSpy spy(&sampler, &GroupLagSampler::sampled);
        QSignalSpy members(&sampler, &GroupLagSampler::membersSampled);
        QSignalSpy failures(&sampler, &GroupLagSampler::failed);
        sampler.start();
        QVERIFY(sampler.isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(lagOf(spy, 0) == 6 && lagOf(spy, 1) == 0, 20000);
        // The same poll described the group: its one member holds both partitions.
        QTRY_VERIFY_WITH_TIMEOUT(!members.isEmpty(), 20000);
        {
            const ConsumerGroupInfo g = members.last().at(0).value<ConsumerGroupInfo>();
            QCOMPARE(g.groupId, group);
            QCOMPARE(g.members.size(), 1);
            QCOMPARE(g.members.first().assignment.size(), 2);
            QCOMPARE(members.last().at(1).value<MetricsSnapshot>().partitions.size(), 2);
        }
        {
            const MetricsSnapshot s = latest(spy);
            QCOMPARE(s.jobName, group);
            QCOMPARE(s.state, JobState::Running);
            QCOMPARE(s.totalLag, 6);
            QCOMPARE(s.partitions.size(), 2);
            QCOMPARE(partition(s, 0)->committedOffset, 4);
            QCOMPARE(partition(s, 0)->endOffset, 10);
            QCOMPARE(partition(s, 0)->nextOffset, -1);
            QCOMPARE(partition(s, 1)->committedOffset, 6);
            QCOMPARE(partition(s, 1)->endOffset, 6);
            QVERIFY(!s.caughtUp);
            // The same figures as the broker gives an admin client.
            QString e;
            auto admin = AdminService::create(test::clusterConfig(QStringLiteral("source")), &e, 10000);
            QVERIFY2(admin, qPrintable(e));
            const auto offsets = admin->groupOffsets(group);
            QVERIFY2(offsets.ok(), qPrintable(offsets.error));
            for (const GroupPartitionOffset &o : offsets.value) {
                const PartitionMetrics *m = partition(s, o.partition);
                QVERIFY(m);
                QCOMPARE(m->topic, o.topic);
                QCOMPARE(m->lag, o.lag());
                QCOMPARE(m->committedOffset, o.committed);
                QCOMPARE(m->endOffset, o.endOffset);
            }
        }

        // Producers write 5 more to partition 1: its lag rises, and the produce rate shows it.
        QVERIFY2(test::produce(bootstrap, topic, records(1, 5), &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(lagOf(spy, 1) == 5, 20000);
        QCOMPARE(latest(spy).totalLag, 11);
        QVERIFY(latest(spy).recordsProduced >= 5);
        bool sawProduceRate = false;
        for (const QList<QVariant> &args : std::as_const(spy))
            sawProduceRate |= args.first().value<MetricsSnapshot>().produceRecordsPerSec > 0;
        QVERIFY(sawProduceRate);

        // The group consumes and commits the rest: lag 0, and the commit rate shows it.
        const qint64 consumedBefore = latest(spy).recordsConsumed;
        QVERIFY2(consumer.consumeAndCommit({{0, 10}, {1, 11}}, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(lagOf(spy, 0) == 0 && lagOf(spy, 1) == 0, 20000);
        QCOMPARE(latest(spy).totalLag, 0);
        QVERIFY(latest(spy).caughtUp);
        QCOMPARE(latest(spy).recordsConsumed - consumedBefore, 6 + 5);
        QVERIFY(failures.isEmpty());

        // What the monitor makes of it: the samples go into a MetricStore like a job's.
        MetricStore store;
        for (const QList<QVariant> &args : std::as_const(spy))
            QVERIFY(store.addSnapshot(args.first().value<MetricsSnapshot>()));
        QCOMPARE(store.partitionTable().size(), 2);
        QCOMPARE(store.jobStatus(), JobLagStatus::Ok);

        sampler.stop();
        QVERIFY(!sampler.isRunning());
        QTest::qWait(500);
        const qsizetype after = spy.size();
        QTest::qWait(1000);
        QCOMPARE(spy.size(), after);
        QVERIFY(test::deleteTopic(bootstrap, topic));
    }

    void unknownGroupHasNoPartitions()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        GroupLagSampler sampler(test::clusterConfig(QStringLiteral("source")),
                                test::uniqueName(QStringLiteral("nogroup")));
        QSignalSpy spy(&sampler, &GroupLagSampler::sampled);
        sampler.start();
        QVERIFY(spy.wait(15000));
        QVERIFY(latest(spy).partitions.isEmpty());
        QCOMPARE(latest(spy).totalLag, 0);
    }

    void unreachableClusterIsReported()
    {
        ClusterConfig nowhere;
        nowhere.alias = QStringLiteral("nowhere");
        nowhere.bootstrap = QStringLiteral("127.0.0.1:1");
        GroupLagSampler sampler(nowhere, QStringLiteral("g"));
        sampler.setTimeoutMs(2000);
        QSignalSpy failed(&sampler, &GroupLagSampler::failed);
        QSignalSpy sampled(&sampler, &GroupLagSampler::sampled);
        QElapsedTimer t;
        t.start();
        sampler.start();
        QVERIFY(failed.wait(15000));
        QVERIFY(t.elapsed() < 15000);
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(QStringLiteral("127.0.0.1:1")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("g")), qPrintable(message));
        QVERIFY(sampled.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstGroupLagSampler)
#include "tst_grouplagsampler.moc"
