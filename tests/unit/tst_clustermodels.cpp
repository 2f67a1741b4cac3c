// Topic, broker and job list models: merges by key instead of resets, and the
// models stay consistent under QAbstractItemModelTester.
#include "model/tables/JobListModel.h"
#include "model/tables/NumberFormat.h"
#include "model/tables/TopicTableModel.h"

#include <QAbstractItemModelTester>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

#include <algorithm>
#include <limits>

using namespace md;

namespace {

TopicInfo topic(const QString &name, int partitions, qint64 messagesPerPartition = 10)
{
    TopicInfo t;
    t.name = name;
    t.internal = name.startsWith(QLatin1String("__"));
    for (int p = 0; p < partitions; ++p) {
        PartitionInfo info;
        info.id = p;
        info.leader = 1;
        info.replicas = {1, 2, 3};
        info.isr = {1, 2};
        info.lowWatermark = 5;
        info.highWatermark = 5 + messagesPerPartition;
        t.partitions.append(info);
    }
    return t;
}

QStringList names(const TopicTableModel &m)
{
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r)
        out.append(m.index(r, TopicTableModel::Name).data().toString());
    return out;
}

QStringList column(const QAbstractItemModel &m, int col)
{
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r)
        out.append(m.index(r, col).data().toString());
    return out;
}

} // namespace

class TestClusterModels final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void topicColumns()
    {
        TopicTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
        m.setTopics({topic(QStringLiteral("__consumer_offsets"), 50, 0), topic(QStringLiteral("orders"), 6, 1000)});
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.index(1, TopicTableModel::Partitions).data().toInt(), 6);
        QCOMPARE(m.index(1, TopicTableModel::ReplicationFactor).data().toInt(), 3);
        QCOMPARE(m.index(1, TopicTableModel::Messages).data(TopicTableModel::SortRole).toLongLong(), 6000);
        QCOMPARE(m.index(0, TopicTableModel::Internal).data(TopicTableModel::SortRole).toBool(), true);
        QCOMPARE(m.index(1, TopicTableModel::Internal).data(TopicTableModel::SortRole).toBool(), false);
        // An unknown watermark is shown as unknown, never as a count.
        TopicInfo unknown = topic(QStringLiteral("x"), 2);
        unknown.partitions[1].highWatermark = -1;
        m.setTopics({unknown});
        QCOMPARE(m.index(0, TopicTableModel::Messages).data().toString(), QStringLiteral("?"));
    }

    void mergeEmitsMinimalChanges()
    {
        TopicTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
        m.setTopics({topic(QStringLiteral("a"), 1), topic(QStringLiteral("c"), 1), topic(QStringLiteral("e"), 1)});
        QSignalSpy resets(&m, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&m, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&m, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);

        // Unchanged refresh: nothing at all.
        m.setTopics({topic(QStringLiteral("a"), 1), topic(QStringLiteral("c"), 1), topic(QStringLiteral("e"), 1)});
        QCOMPARE(inserted.size() + removed.size() + changed.size() + resets.size(), 0);

        // b and d appear, c grows, e goes away.
        m.setTopics({topic(QStringLiteral("a"), 1), topic(QStringLiteral("b"), 1), topic(QStringLiteral("c"), 4),
                     topic(QStringLiteral("d"), 1)});
        QCOMPARE(names(m),
                 (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d")}));
        QCOMPARE(resets.size(), 0);
        QCOMPARE(removed.size(), 1);
        QCOMPARE(inserted.size(), 2);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex().row(), 2);
        QCOMPARE(m.index(2, TopicTableModel::Partitions).data().toInt(), 4);
    }

    void randomMergesMatchTheNewList()
    {
        TopicTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QRandomGenerator rng(42);
        for (int round = 0; round < 200; ++round) {
            QList<TopicInfo> next;
            for (int i = 0; i < 40; ++i) {
                if (rng.bounded(3) == 0)
                    next.append(topic(QStringLiteral("t%1").arg(i, 3, 10, QLatin1Char('0')), 1 + int(rng.bounded(3))));
            }
            m.setTopics(next);
            QCOMPARE(m.topics(), next);
        }
    }

    void sortAndFilterThroughProxy()
    {
        TopicTableModel m;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&m);
        proxy.setSortRole(TopicTableModel::SortRole);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
        m.setTopics(
            {topic(QStringLiteral("alpha"), 9), topic(QStringLiteral("beta"), 2), topic(QStringLiteral("gamma"), 30)});
        proxy.sort(TopicTableModel::Partitions, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, TopicTableModel::Name).data().toString(), QStringLiteral("gamma"));
        QCOMPARE(proxy.index(2, TopicTableModel::Name).data().toString(), QStringLiteral("beta"));
        proxy.setFilterKeyColumn(TopicTableModel::Name);
        proxy.setFilterFixedString(QStringLiteral("ph"));
        QCOMPARE(proxy.rowCount(), 1);
    }

    // The pane's proxy: a case-insensitive name substring, every column sortable, and the
    // same order as QSortFilterProxyModel gives through SortRole (its fast path for names
    // must not change what the user sees).
    void topicFilterModel()
    {
        TopicTableModel m;
        TopicFilterModel proxy(&m);
        QSortFilterProxyModel reference;
        reference.setSourceModel(&m);
        reference.setSortRole(TopicTableModel::SortRole);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QList<TopicInfo> topics;
        QRandomGenerator rng(20);
        const QStringList stems = {QStringLiteral("Orders"),    QStringLiteral("orders"), QStringLiteral("__consumer"),
                                   QStringLiteral("b\u00e9ta"), QStringLiteral("Zeta"),   QStringLiteral("alpha")};
        for (int i = 0; i < 200; ++i)
            topics.append(topic(stems.at(i % stems.size()) + QLatin1Char('.') + QString::number(rng.bounded(100000)),
                                1 + rng.bounded(12), rng.bounded(50)));
        std::sort(topics.begin(), topics.end(), [](const TopicInfo &a, const TopicInfo &b) { return a.name < b.name; });
        topics.erase(std::unique(topics.begin(), topics.end(),
                                 [](const TopicInfo &a, const TopicInfo &b) { return a.name == b.name; }),
                     topics.end());
        m.setTopics(topics);
        for (const Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            proxy.sort(TopicTableModel::Name, order);
            reference.sort(TopicTableModel::Name, order);
            QCOMPARE(column(proxy, TopicTableModel::Name), column(reference, TopicTableModel::Name));
        }
        proxy.sort(TopicTableModel::Partitions, Qt::DescendingOrder);
        reference.sort(TopicTableModel::Partitions, Qt::DescendingOrder);
        QCOMPARE(column(proxy, TopicTableModel::Partitions), column(reference, TopicTableModel::Partitions));

        proxy.sort(TopicTableModel::Name, Qt::AscendingOrder);
        proxy.setNameFilter(QStringLiteral("ORDERS."));
        int expected = 0;
        for (const TopicInfo &t : std::as_const(topics))
            expected += t.name.startsWith(QLatin1String("orders."), Qt::CaseInsensitive) ? 1 : 0;
        QVERIFY(expected > 0);
        QCOMPARE(proxy.rowCount(), expected);
        for (const QString &name : column(proxy, TopicTableModel::Name))
            QVERIFY2(name.contains(QLatin1String("orders."), Qt::CaseInsensitive), qPrintable(name));
        // A refresh merges under the filter; new matching topics appear, in order.
        topics.append(topic(QStringLiteral("orders.zzz-new"), 3));
        topics.append(topic(QStringLiteral("other.new"), 3));
        std::sort(topics.begin(), topics.end(), [](const TopicInfo &a, const TopicInfo &b) { return a.name < b.name; });
        m.setTopics(topics);
        QCOMPARE(proxy.rowCount(), expected + 1);
        QCOMPARE(proxy.index(proxy.rowCount() - 1, TopicTableModel::Name).data().toString(),
                 QStringLiteral("orders.zzz-new"));
        proxy.setNameFilter({});
        QCOMPARE(proxy.rowCount(), int(topics.size()));
        reference.sort(TopicTableModel::Name, Qt::AscendingOrder);
        QCOMPARE(column(proxy, TopicTableModel::Name), column(reference, TopicTableModel::Name));
    }

    void brokers()
    {
        BrokerTableModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
        m.setBrokers({{1, QStringLiteral("k1"), 9092, {}, true}, {2, QStringLiteral("k2"), 9092, {}, false}});
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.index(0, BrokerTableModel::Address).data().toString(), QStringLiteral("k1:9092"));
        QVERIFY(!m.index(0, BrokerTableModel::Controller).data().toString().isEmpty());
        QVERIFY(m.index(1, BrokerTableModel::Controller).data().toString().isEmpty());
        m.setBrokers({{2, QStringLiteral("k2"), 9092, {}, true}});
        QCOMPARE(m.rowCount(), 1);
        QVERIFY(!m.index(0, BrokerTableModel::Controller).data().toString().isEmpty());
    }

    void jobList()
    {
        JobListModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
        const int row = m.addJob(QStringLiteral("orders to DR"));
        MetricsSnapshot s;
        s.state = JobState::Running;
        s.recordsProduced = 123456;
        s.totalLag = 42;
        QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
        m.setMetrics(row, s);
        QCOMPARE(changed.size(), 1); // one change per snapshot, not one per column
        QCOMPARE(m.index(row, JobListModel::State).data().toString(), QStringLiteral("running"));
        QCOMPARE(m.index(row, JobListModel::Records).data(JobListModel::SortRole).toLongLong(), 123456);
        QCOMPARE(m.index(row, JobListModel::Records).data().toString(), QStringLiteral("123.5 k"));
        QCOMPARE(m.index(row, JobListModel::Lag).data().toString(), QStringLiteral("42"));
        QCOMPARE(m.index(row, JobListModel::LagTime).data().toString(), QStringLiteral("\u2014")); // not known yet
        s.maxLagMs = 95000;
        s.catchUpSeconds = std::numeric_limits<double>::infinity();
        s.retentionAtRisk = 2;
        m.setMetrics(row, s);
        QCOMPARE(m.index(row, JobListModel::LagTime).data().toString(), QStringLiteral("1 min 35 s"));
        QCOMPARE(m.index(row, JobListModel::LagTime).data(JobListModel::SortRole).toLongLong(), 95000);
        QCOMPARE(m.index(row, JobListModel::CatchUp).data().toString(), QStringLiteral("never"));
        QVERIFY(m.index(row, JobListModel::LagTime).data(Qt::ForegroundRole).isValid()); // retention at risk
        QVERIFY(
            m.index(row, JobListModel::LagTime).data(Qt::ToolTipRole).toString().contains(QStringLiteral("retention")));
        m.removeJob(row);
        QCOMPARE(m.rowCount(), 0);
    }

    void jobListShowsTheSnapshotsRate()
    {
        // The engine's rate is the steady one (RateWindow, tst_ratewindow); the
        // list shows that very figure, so it agrees with the status line and charts.
        JobListModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
        const int row = m.addJob(QStringLiteral("demo"));
        MetricsSnapshot s;
        s.state = JobState::Running;
        s.elapsedMs = 5000;
        s.recordsProduced = 2000;
        s.produceRecordsPerSec = 412.5;
        m.setMetrics(row, s);
        QCOMPARE(m.index(row, JobListModel::Rate).data(JobListModel::SortRole).toDouble(), 412.5);
        QCOMPARE(m.rate(row), 412.5);
        QCOMPARE(m.index(row, JobListModel::Rate).data().toString(), formatCount(412.5) + QStringLiteral("/s"));
    }
};

QTEST_GUILESS_MAIN(TestClusterModels)
#include "tst_clustermodels.moc"
