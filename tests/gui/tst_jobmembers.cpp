// Two instances of one profile (one consumer group) share the source partitions; the monitor
// of one shows, from DescribeConsumerGroups polled off the UI thread, which partitions the
// other member owns. Real brokers (MD_REQUIRE_BROKERS), offscreen.
#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/admin/GroupLagSampler.h"
#include "engine/mirror/MirrorJob.h"
#include "model/session/MonitoredJob.h"
#include "model/tables/PartitionTableModel.h"
#include "ui/job/JobMonitor.h"

#include <QAbstractItemModelTester>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace md;

class TestJobMembers final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theMonitorShowsWhoOwnsEachPartition()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        constexpr int kPartitions = 6;
        const QString topic = test::uniqueName(QStringLiteral("members"));
        QString error;
        QVERIFY2(test::createTopic(test::sourceBootstrap(), topic, kPartitions, {}, &error), qPrintable(error));
        QList<test::TestRecord> records;
        for (int i = 0; i < 60; ++i) {
            test::TestRecord r;
            r.partition = i % kPartitions;
            r.value = QByteArray("v-") + QByteArray::number(i);
            records.append(r);
        }
        QVERIFY2(test::produce(test::sourceBootstrap(), topic, records, &error), qPrintable(error));

        MirrorJobSpec spec;
        spec.name = topic;
        spec.source = test::clusterConfig(QStringLiteral("source"));
        spec.target = test::clusterConfig(QStringLiteral("target"));
        spec.include = {QRegularExpression::escape(topic)};
        spec.start = StartPosition::Earliest;
        spec.syncTopicConfigs = false;
        MonitoredJob monitored(new MirrorJob(spec)); // this window's job, as the session holds it
        MirrorJob &here = *monitored.job();
        MirrorJob elsewhere(spec); // the other machine

        JobMonitor monitor(&monitored);
        monitor.resize(1000, 700);
        monitor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&monitor));
        QAbstractItemModelTester tester(monitor.partitionModel(),
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester proxyTester(monitor.partitionProxy(),
                                             QAbstractItemModelTester::FailureReportingMode::Fatal);
        monitor.setCurrentChart(JobMonitor::Partitions);
        QVERIFY(monitor.ownersSampler() && monitor.ownersSampler()->isRunning());
        QSignalSpy described(monitor.ownersSampler(), &GroupLagSampler::membersSampled);
        here.start();
        elsewhere.start();

        // Both members hold partitions: every partition shows once, this window's as such,
        // the others with the member that owns them.
        const PartitionTableModel *model = monitor.partitionModel();
        const auto split = [model](int *mine, int *theirs) {
            *mine = 0;
            *theirs = 0;
            for (int r = 0; r < model->rowCount(); ++r) {
                const QModelIndex owner = model->index(r, PartitionTableModel::OwnerColumn);
                if (owner.data(PartitionTableModel::OwnedHereRole).toBool())
                    ++*mine;
                else if (!owner.data().toString().isEmpty())
                    ++*theirs;
            }
        };
        int mine = 0;
        int theirs = 0;
        QTRY_VERIFY_WITH_TIMEOUT((split(&mine, &theirs), mine > 0 && theirs > 0 && mine + theirs == kPartitions &&
                                                             model->rowCount() == kPartitions),
                                 120000);
        QVERIFY(described.size() > 0);
        QCOMPARE(monitor.otherMemberCount(), 1);
        QVERIFY2(monitor.summaryText().contains(QStringLiteral("shared with 1 other member")),
                 qPrintable(monitor.summaryText()));
        for (int r = 0; r < model->rowCount(); ++r) {
            const QModelIndex owner = model->index(r, PartitionTableModel::OwnerColumn);
            if (owner.data(PartitionTableModel::OwnedHereRole).toBool()) {
                QCOMPARE(owner.data().toString(), QStringLiteral("this window"));
            } else {
                // A dynamic member (no instance id) is named by its client id and host.
                QVERIFY2(owner.data().toString().contains(QStringLiteral(" @ ")), qPrintable(owner.data().toString()));
            }
        }

        // The other instance leaves: its partitions come to this one (cooperative rebalance).
        QSignalSpy elsewhereDone(&elsewhere, &MirrorJob::finished);
        elsewhere.stop();
        QTRY_COMPARE_WITH_TIMEOUT(elsewhereDone.size(), 1, 60000);
        QTRY_VERIFY_WITH_TIMEOUT((split(&mine, &theirs), mine == kPartitions && theirs == 0), 120000);
        QTRY_COMPARE_WITH_TIMEOUT(monitor.otherMemberCount(), 0, 30000);

        QSignalSpy hereDone(&here, &MirrorJob::finished);
        here.stop();
        QTRY_COMPARE_WITH_TIMEOUT(hereDone.size(), 1, 60000);
        test::deleteTopic(test::sourceBootstrap(), topic);
    }
};

QTEST_MAIN(TestJobMembers)
#include "tst_jobmembers.moc"
