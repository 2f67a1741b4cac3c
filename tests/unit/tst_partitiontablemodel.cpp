// The partition table under QAbstractItemModelTester (fatal) while snapshots add, remove and
// change partitions: bulk changes only, no reset per tick, sortable by raw values.

#include "model/monitor/MetricStore.h"
#include "model/tables/PartitionTableModel.h"

#include <QAbstractItemModelTester>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

#include <algorithm>
#include <limits>

using namespace md;

namespace {

PartitionMetrics pm(const QString &topic, int partition, qint64 next, qint64 end, qint64 records = 0,
                    qint64 committed = -1)
{
    PartitionMetrics p;
    p.topic = topic;
    p.targetTopic = QStringLiteral("dr.") + topic;
    p.partition = partition;
    p.endOffset = end;
    p.nextOffset = next;
    p.committedOffset = committed;
    p.lag = end < 0 || next < 0 ? -1 : end - next;
    p.records = records;
    return p;
}

MetricsSnapshot snap(qint64 elapsedMs, QList<PartitionMetrics> parts)
{
    MetricsSnapshot s;
    s.jobName = QStringLiteral("job");
    s.time = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000 + elapsedMs, Qt::UTC);
    s.elapsedMs = elapsedMs;
    s.state = JobState::Running;
    s.partitions = std::move(parts);
    return s;
}

QStringList keys(const QAbstractItemModel &m)
{
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r) {
        out << m.index(r, PartitionTableModel::TopicColumn).data().toString() + QLatin1Char('-') +
                   m.index(r, PartitionTableModel::PartitionColumn).data().toString();
    }
    return out;
}

QString cell(const QAbstractItemModel &m, int row, int column)
{
    return m.index(row, column).data().toString();
}

} // namespace

class TestPartitionTableModel final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void firstSnapshotInsertsRowsInOrder();
    void unchangedSnapshotEmitsNothing();
    void noiseBelowTheDisplayIsKeptSilently();
    void changesAreRangedNotReset();
    void assignmentChangesInsertAndRemove();
    void displayOfUnknownAndNone();
    void ratesAndStatus();
    void lagInTimeAndCatchUp();
    void sortsByRawValuesThroughProxy();
    void feedsFromMetricStore();
    void randomAssignmentsKeepTheModelSane();
    void otherMembersPartitionsShowTheirOwner();
    void partitionsOfOtherMembersFromTheGroup();
    void randomOwnersKeepTheModelSane();

private:
    std::unique_ptr<PartitionTableModel> m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
    std::unique_ptr<QSignalSpy> m_resets;
};

void TestPartitionTableModel::init()
{
    m_model = std::make_unique<PartitionTableModel>();
    m_tester = std::make_unique<QAbstractItemModelTester>(m_model.get(),
                                                          QAbstractItemModelTester::FailureReportingMode::Fatal);
    m_resets = std::make_unique<QSignalSpy>(m_model.get(), &QAbstractItemModel::modelReset);
}

void TestPartitionTableModel::cleanup()
{
    QCOMPARE(m_resets->size(), 0); // never a reset, whatever the test fed
    m_resets.reset();
    m_tester.reset();
    m_model.reset();
}

void TestPartitionTableModel::firstSnapshotInsertsRowsInOrder()
{
    QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
    m_model->applySnapshot(snap(
        0, {pm(QStringLiteral("b"), 0, 5, 10), pm(QStringLiteral("a"), 1, 5, 10), pm(QStringLiteral("a"), 0, 5, 10)}));
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(inserted[0][1].toInt(), 0);
    QCOMPARE(inserted[0][2].toInt(), 2);
    QCOMPARE(keys(*m_model), (QStringList{QStringLiteral("a-0"), QStringLiteral("a-1"), QStringLiteral("b-0")}));
    QCOMPARE(m_model->columnCount(), int(PartitionTableModel::ColumnCount));
    QCOMPARE(m_model->headerData(PartitionTableModel::LagColumn, Qt::Horizontal).toString(), QStringLiteral("Lag"));
    QCOMPARE(m_model->rowOf({QStringLiteral("a"), 1}), 1);
    QCOMPARE(m_model->rowOf({QStringLiteral("c"), 1}), -1);
    QCOMPARE(m_model->keyAt(2).topic, QStringLiteral("b"));
}

void TestPartitionTableModel::unchangedSnapshotEmitsNothing()
{
    const QList<PartitionMetrics> parts{pm(QStringLiteral("a"), 0, 5, 10), pm(QStringLiteral("a"), 1, 7, 10)};
    m_model->applySnapshot(snap(0, parts));
    m_model->applySnapshot(snap(250, parts)); // rates appear (0.0): one change
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(m_model.get(), &QAbstractItemModel::rowsRemoved);
    m_model->applySnapshot(snap(500, parts));
    QCOMPARE(changed.size(), 0);
    QCOMPARE(inserted.size(), 0);
    QCOMPARE(removed.size(), 0);
}

void TestPartitionTableModel::noiseBelowTheDisplayIsKeptSilently()
{
    // The merge's equality is "looks the same": a rate change below the one decimal shown
    // emits nothing, and the row still takes the new figures (the sort role's raw rate).
    MetricStore::PartitionRow row;
    row.metrics = pm(QStringLiteral("a"), 0, 5, 10);
    row.recordsPerSec = 10.0;
    m_model->setRows({row});
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    row.recordsPerSec = 10.01;
    m_model->setRows({row});
    QCOMPARE(changed.size(), 0);
    QCOMPARE(m_model->index(0, PartitionTableModel::RateColumn).data(PartitionTableModel::SortRole).toDouble(), 10.01);
    row.recordsPerSec = 10.2;
    m_model->setRows({row});
    QCOMPARE(changed.size(), 1);
    QCOMPARE(cell(*m_model, 0, PartitionTableModel::RateColumn), QStringLiteral("10.2"));
}

void TestPartitionTableModel::changesAreRangedNotReset()
{
    QList<PartitionMetrics> parts;
    for (int p = 0; p < 10; ++p)
        parts.append(pm(QStringLiteral("t"), p, 100, 100));
    m_model->applySnapshot(snap(0, parts));
    m_model->applySnapshot(snap(250, parts));
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    // Rows 2, 3, 4 and 7 change: two ranges.
    for (int p : {2, 3, 4, 7})
        parts[p].endOffset = 150;
    for (int p : {2, 3, 4, 7})
        parts[p].lag = 50;
    m_model->applySnapshot(snap(500, parts));
    QCOMPARE(changed.size(), 2);
    QCOMPARE(changed[0][0].toModelIndex().row(), 2);
    QCOMPARE(changed[0][1].toModelIndex().row(), 4);
    QCOMPARE(changed[0][0].toModelIndex().column(), 0);
    QCOMPARE(changed[0][1].toModelIndex().column(), PartitionTableModel::ColumnCount - 1);
    QCOMPARE(changed[1][0].toModelIndex().row(), 7);
    QCOMPARE(changed[1][1].toModelIndex().row(), 7);
    QCOMPARE(cell(*m_model, 3, PartitionTableModel::LagColumn), QStringLiteral("50"));
    QCOMPARE(cell(*m_model, 5, PartitionTableModel::LagColumn), QStringLiteral("0"));
}

void TestPartitionTableModel::assignmentChangesInsertAndRemove()
{
    auto parts = [](std::initializer_list<std::pair<const char *, int>> list) {
        QList<PartitionMetrics> out;
        for (const auto &[t, p] : list)
            out.append(pm(QString::fromLatin1(t), p, 10, 20));
        return out;
    };
    m_model->applySnapshot(snap(0, parts({{"a", 0}, {"a", 1}, {"a", 2}, {"b", 0}, {"c", 0}, {"c", 1}})));
    QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(m_model.get(), &QAbstractItemModel::rowsRemoved);
    // Rebalance: a-1, a-2 and c-1 revoked; a-3, b-1, b-2 and d-0 assigned.
    m_model->applySnapshot(snap(250, parts({{"d", 0}, {"a", 0}, {"b", 2}, {"a", 3}, {"b", 0}, {"c", 0}, {"b", 1}})));
    QCOMPARE(keys(*m_model),
             (QStringList{QStringLiteral("a-0"), QStringLiteral("a-3"), QStringLiteral("b-0"), QStringLiteral("b-1"),
                          QStringLiteral("b-2"), QStringLiteral("c-0"), QStringLiteral("d-0")}));
    QCOMPARE(removed.size(), 2); // [a-1, a-2] and [c-1]
    QCOMPARE(removed[0][1].toInt(), 5);
    QCOMPARE(removed[0][2].toInt(), 5);
    QCOMPARE(removed[1][1].toInt(), 1);
    QCOMPARE(removed[1][2].toInt(), 2);
    QCOMPARE(inserted.size(), 3); // [a-3], [b-1, b-2], [d-0]
    QCOMPARE(inserted[1][1].toInt(), 3);
    QCOMPARE(inserted[1][2].toInt(), 4);
    // Everything revoked.
    m_model->applySnapshot(snap(500, {}));
    QCOMPARE(m_model->rowCount(), 0);
}

void TestPartitionTableModel::displayOfUnknownAndNone()
{
    m_model->applySnapshot(
        snap(0, {pm(QStringLiteral("t"), 0, -1, -1, 0, -1), pm(QStringLiteral("t"), 1, 40, 50, 0, 35)}));
    QCOMPARE(cell(*m_model, 0, PartitionTableModel::CommittedOffsetColumn), QStringLiteral("none"));
    QCOMPARE(
        m_model->index(0, PartitionTableModel::CommittedOffsetColumn).data(PartitionTableModel::SortRole).toLongLong(),
        -1);
    QCOMPARE(cell(*m_model, 0, PartitionTableModel::LagColumn), QStringLiteral("\u2014"));
    QCOMPARE(cell(*m_model, 0, PartitionTableModel::EndOffsetColumn), QStringLiteral("\u2014"));
    QCOMPARE(cell(*m_model, 0, PartitionTableModel::RateColumn), QStringLiteral("\u2014"));
    QCOMPARE(cell(*m_model, 1, PartitionTableModel::CommittedOffsetColumn), QStringLiteral("35"));
    QCOMPARE(cell(*m_model, 1, PartitionTableModel::MirroredOffsetColumn), QStringLiteral("40"));
    QCOMPARE(cell(*m_model, 1, PartitionTableModel::TargetTopicColumn), QStringLiteral("dr.t"));
    QVERIFY(!m_model->index(0, PartitionTableModel::CommittedOffsetColumn).data(Qt::ToolTipRole).toString().isEmpty());
}

void TestPartitionTableModel::lagInTimeAndCatchUp()
{
    PartitionMetrics behind = pm(QStringLiteral("t"), 0, 40, 50);
    behind.lagMs = 3725000;
    behind.catchUpSeconds = std::numeric_limits<double>::infinity();
    behind.timestampType = QStringLiteral("LogAppendTime");
    PartitionMetrics unknown = pm(QStringLiteral("t"), 1, 40, 50);
    PartitionMetrics caughtUp = pm(QStringLiteral("t"), 2, 50, 50);
    caughtUp.lagMs = 0;
    caughtUp.catchUpSeconds = 0;
    m_model->applySnapshot(snap(0, {behind, unknown, caughtUp}));
    QCOMPARE(cell(*m_model, 0, PartitionTableModel::LagTimeColumn), QStringLiteral("1 h 2 min"));
    QCOMPARE(m_model->index(0, PartitionTableModel::LagTimeColumn).data(PartitionTableModel::SortRole).toLongLong(),
             3725000);
    QCOMPARE(cell(*m_model, 0, PartitionTableModel::CatchUpColumn), QStringLiteral("never"));
    QVERIFY(m_model->index(0, PartitionTableModel::LagTimeColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("LogAppendTime")));
    QCOMPARE(cell(*m_model, 1, PartitionTableModel::LagTimeColumn), QStringLiteral("\u2014"));
    QCOMPARE(cell(*m_model, 1, PartitionTableModel::CatchUpColumn), QStringLiteral("\u2014"));
    QCOMPARE(cell(*m_model, 2, PartitionTableModel::LagTimeColumn), QStringLiteral("0 s"));
    QCOMPARE(cell(*m_model, 2, PartitionTableModel::CatchUpColumn), QStringLiteral("0 s"));
    QVERIFY(!m_model->index(0, PartitionTableModel::LagTimeColumn).data(Qt::ForegroundRole).isValid());
    // A change of the lag in time is a change of the row; at risk it turns red.
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    behind.lagMs = 3726000;
    behind.retentionAtRisk = true;
    behind.retentionMs = 3800000;
    m_model->applySnapshot(snap(1000, {behind, unknown, caughtUp}));
    QCOMPARE(changed.size(), 1);
    QCOMPARE(cell(*m_model, 0, PartitionTableModel::LagTimeColumn), QStringLiteral("1 h 2 min"));
    QVERIFY(m_model->index(0, PartitionTableModel::LagTimeColumn).data(Qt::ForegroundRole).isValid());
    QVERIFY(m_model->index(0, PartitionTableModel::LagTimeColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("retention")));
}

void TestPartitionTableModel::ratesAndStatus()
{
    m_model->applySnapshot(snap(0, {pm(QStringLiteral("t"), 0, 0, 10, 1000)}));
    QHash<PartitionKey, PartitionLagStatus> status{{{QStringLiteral("t"), 0}, PartitionLagStatus::Stall}};
    m_model->applySnapshot(snap(500, {pm(QStringLiteral("t"), 0, 0, 10, 1600)}), status);
    QCOMPARE(cell(*m_model, 0, PartitionTableModel::RateColumn), QStringLiteral("1200.0"));
    QCOMPARE(m_model->index(0, PartitionTableModel::RateColumn).data(PartitionTableModel::SortRole).toDouble(), 1200.0);
    QCOMPARE(cell(*m_model, 0, PartitionTableModel::StatusColumn), QStringLiteral("STALL"));
    QCOMPARE(m_model->index(0, 0).data(PartitionTableModel::StatusRole).toInt(), int(PartitionLagStatus::Stall));
    QVERIFY(m_model->index(0, PartitionTableModel::StatusColumn).data(Qt::ForegroundRole).isValid());
}

void TestPartitionTableModel::sortsByRawValuesThroughProxy()
{
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(m_model.get());
    proxy.setSortRole(PartitionTableModel::SortRole);
    proxy.setDynamicSortFilter(true);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    proxy.sort(PartitionTableModel::LagColumn, Qt::DescendingOrder);
    // Lags 9, 100, 25, 1000: as text "9" > "25" > "1000" > "100"; as numbers the other order.
    m_model->applySnapshot(snap(0, {pm(QStringLiteral("t"), 0, 0, 9), pm(QStringLiteral("t"), 1, 0, 100),
                                    pm(QStringLiteral("t"), 2, 0, 25), pm(QStringLiteral("t"), 3, 0, 1000)}));
    QCOMPARE(keys(proxy),
             (QStringList{QStringLiteral("t-3"), QStringLiteral("t-1"), QStringLiteral("t-2"), QStringLiteral("t-0")}));
    // Live update re-sorts: t-0 falls far behind, t-3 catches up; t-4 arrives.
    m_model->applySnapshot(snap(250, {pm(QStringLiteral("t"), 0, 0, 5000), pm(QStringLiteral("t"), 1, 0, 100),
                                      pm(QStringLiteral("t"), 2, 0, 25), pm(QStringLiteral("t"), 3, 1000, 1000),
                                      pm(QStringLiteral("t"), 4, 0, 50)}));
    QCOMPARE(keys(proxy), (QStringList{QStringLiteral("t-0"), QStringLiteral("t-1"), QStringLiteral("t-4"),
                                       QStringLiteral("t-2"), QStringLiteral("t-3")}));
    // Partition numbers sort as numbers too.
    m_model->applySnapshot(snap(500, {pm(QStringLiteral("t"), 10, 0, 1), pm(QStringLiteral("t"), 9, 0, 1),
                                      pm(QStringLiteral("t"), 100, 0, 1)}));
    proxy.sort(PartitionTableModel::PartitionColumn, Qt::AscendingOrder);
    QCOMPARE(keys(proxy), (QStringList{QStringLiteral("t-9"), QStringLiteral("t-10"), QStringLiteral("t-100")}));
}

void TestPartitionTableModel::feedsFromMetricStore()
{
    MetricStore store;
    for (int i = 0; i < 240; ++i) {
        // t-0 never moves while lag grows: STALL after the window fills; t-1 is caught up.
        store.addSnapshot(snap(i * 250, {pm(QStringLiteral("t"), 0, 10, 20 + i, 0, 10),
                                         pm(QStringLiteral("t"), 1, 5 * i, 5 * i, 5 * i, 5 * i)}));
        m_model->setRows(store.partitionTable());
    }
    QCOMPARE(m_model->rowCount(), 2);
    QCOMPARE(cell(*m_model, 0, PartitionTableModel::StatusColumn), QStringLiteral("STALL"));
    QCOMPARE(cell(*m_model, 1, PartitionTableModel::StatusColumn), QStringLiteral("OK"));
    QCOMPARE(cell(*m_model, 1, PartitionTableModel::RateColumn), QStringLiteral("20.0"));
    QCOMPARE(cell(*m_model, 0, PartitionTableModel::LagColumn), QStringLiteral("249"));
}

void TestPartitionTableModel::randomAssignmentsKeepTheModelSane()
{
    // Random rebalances and changes; the fatal tester checks every signal, we check content.
    QRandomGenerator rng(1234);
    for (int tick = 0; tick < 300; ++tick) {
        QList<PartitionMetrics> parts;
        for (const char *topic : {"a", "b", "c"}) {
            for (int p = 0; p < 8; ++p) {
                if (rng.bounded(3) != 0)
                    parts.append(pm(QString::fromLatin1(topic), p, 100, 100 + rng.bounded(3), tick * 10));
            }
        }
        std::shuffle(parts.begin(), parts.end(), rng);
        m_model->applySnapshot(snap(tick * 250, parts));
        QCOMPARE(m_model->rowCount(), int(parts.size()));
        for (const PartitionMetrics &p : std::as_const(parts)) {
            const int row = m_model->rowOf({p.topic, p.partition});
            QVERIFY(row >= 0);
            QCOMPARE(
                m_model->index(row, PartitionTableModel::LagColumn).data(PartitionTableModel::SortRole).toLongLong(),
                p.lag);
        }
        for (int r = 1; r < m_model->rowCount(); ++r)
            QVERIFY(m_model->keyAt(r - 1) < m_model->keyAt(r));
    }
}

namespace {

OtherMemberPartition other(const QString &topic, int partition, const QString &owner, qint64 committed = 10,
                           qint64 end = 20)
{
    OtherMemberPartition o;
    o.metrics = pm(topic, partition, -1, end, 0, committed);
    o.metrics.lag = end - committed;
    o.owner = owner;
    o.ownerDetail = QStringLiteral("member ") + owner;
    return o;
}

} // namespace

void TestPartitionTableModel::otherMembersPartitionsShowTheirOwner()
{
    const QString a = QStringLiteral("a");
    m_model->applySnapshot(snap(0, {pm(a, 0, 5, 10), pm(a, 1, 5, 10)}));
    // a-1 is in both (the group's description lags behind the rebalance): this window's.
    m_model->setOtherMembers({other(QStringLiteral("b"), 0, QStringLiteral("dr-2")),
                              other(a, 1, QStringLiteral("dr-2")), other(a, 2, QStringLiteral("dr-3"))});
    QCOMPARE(keys(*m_model),
             (QStringList{QStringLiteral("a-0"), QStringLiteral("a-1"), QStringLiteral("a-2"), QStringLiteral("b-0")}));
    QCOMPARE(cell(*m_model, 0, PartitionTableModel::OwnerColumn), QStringLiteral("this window"));
    QCOMPARE(cell(*m_model, 1, PartitionTableModel::OwnerColumn), QStringLiteral("this window"));
    QCOMPARE(cell(*m_model, 2, PartitionTableModel::OwnerColumn), QStringLiteral("dr-3"));
    QCOMPARE(cell(*m_model, 3, PartitionTableModel::OwnerColumn), QStringLiteral("dr-2"));
    QCOMPARE(m_model->headerData(PartitionTableModel::OwnerColumn, Qt::Horizontal).toString(), QStringLiteral("Owner"));
    QVERIFY(m_model->index(1, 0).data(PartitionTableModel::OwnedHereRole).toBool());
    QVERIFY(!m_model->index(2, 0).data(PartitionTableModel::OwnedHereRole).toBool());
    // Another member's row: the group's figures, no status or rate of ours.
    QCOMPARE(cell(*m_model, 2, PartitionTableModel::CommittedOffsetColumn), QStringLiteral("10"));
    QCOMPARE(cell(*m_model, 2, PartitionTableModel::LagColumn), QStringLiteral("10"));
    QCOMPARE(cell(*m_model, 2, PartitionTableModel::StatusColumn), QStringLiteral("\u2014"));
    QCOMPARE(cell(*m_model, 2, PartitionTableModel::MirroredOffsetColumn), QStringLiteral("\u2014"));
    QVERIFY(!m_model->index(2, 0).data(PartitionTableModel::StatusRole).isValid());
    QVERIFY(m_model->index(2, PartitionTableModel::OwnerColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("member dr-3")));

    // Rebalance: a-1 goes to dr-2. The row stays (no remove and insert), its owner changes.
    QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(m_model.get(), &QAbstractItemModel::rowsRemoved);
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    m_model->applySnapshot(snap(250, {pm(a, 0, 5, 10)}));
    QCOMPARE(removed.size(), 0);
    QCOMPARE(inserted.size(), 0);
    QCOMPARE(cell(*m_model, 1, PartitionTableModel::OwnerColumn), QStringLiteral("dr-2"));
    QVERIFY(changed.size() >= 1);
    // The other members leave: their rows go.
    m_model->setOtherMembers({});
    QCOMPARE(keys(*m_model), QStringList{QStringLiteral("a-0")});
    QCOMPARE(removed.size(), 1); // [a-1, a-2, b-0]: one run, one call
    m_model->clear();
    QCOMPARE(m_model->rowCount(), 0);
}

void TestPartitionTableModel::partitionsOfOtherMembersFromTheGroup()
{
    ConsumerGroupInfo group;
    group.groupId = QStringLiteral("mirrordesk.orders");
    GroupMember self;
    self.memberId = QStringLiteral("m-self");
    self.assignment = {{QStringLiteral("t"), 0}};
    GroupMember pinned;
    pinned.memberId = QStringLiteral("m-pinned");
    pinned.groupInstanceId = QStringLiteral("host-b-orders");
    pinned.clientId = QStringLiteral("mirrordesk");
    pinned.host = QStringLiteral("/10.0.0.6");
    pinned.assignment = {{QStringLiteral("t"), 2}, {QStringLiteral("t"), 1}};
    GroupMember dynamic;
    dynamic.memberId = QStringLiteral("m-dynamic");
    dynamic.clientId = QStringLiteral("mirrordesk");
    dynamic.host = QStringLiteral("/10.0.0.7");
    dynamic.assignment = {{QStringLiteral("s"), 0}};
    group.members = {dynamic, pinned, self};
    QCOMPARE(memberDisplayName(pinned), QStringLiteral("host-b-orders"));
    QCOMPARE(memberDisplayName(dynamic), QStringLiteral("mirrordesk @ 10.0.0.7"));

    PartitionMetrics t1;
    t1.topic = QStringLiteral("t");
    t1.partition = 1;
    t1.committedOffset = 40;
    t1.endOffset = 50;
    t1.lag = 10;
    const QList<OtherMemberPartition> others =
        partitionsOfOtherMembers(group, {t1}, QStringLiteral("m-self"), QString());
    QCOMPARE(others.size(), 3); // not the member that is this window
    QCOMPARE(others[0].metrics.topic, QStringLiteral("s"));
    QCOMPARE(others[0].owner, QStringLiteral("mirrordesk @ 10.0.0.7"));
    QCOMPARE(others[0].metrics.committedOffset, -1); // no figures: unknown, not zero
    QCOMPARE(others[1].metrics.partition, 1);
    QCOMPARE(others[1].metrics.committedOffset, 40);
    QCOMPARE(others[1].metrics.lag, 10);
    QCOMPARE(others[1].owner, QStringLiteral("host-b-orders"));
    QVERIFY(others[1].ownerDetail.contains(QStringLiteral("m-pinned")));
    QVERIFY(others[1].ownerDetail.contains(QStringLiteral("10.0.0.6")));
    QCOMPARE(others[2].metrics.partition, 2);
    // Known by its instance id instead.
    QCOMPARE(partitionsOfOtherMembers(group, {}, QString(), QStringLiteral("host-b-orders")).size(), 2);
}

void TestPartitionTableModel::randomOwnersKeepTheModelSane()
{
    // Own and other members' partitions change independently; the fatal tester checks every
    // signal, we check that each partition shows once, with the right owner.
    QRandomGenerator rng(4321);
    for (int tick = 0; tick < 300; ++tick) {
        QList<PartitionMetrics> mine;
        QList<OtherMemberPartition> others;
        for (const char *topic : {"a", "b"}) {
            for (int p = 0; p < 8; ++p) {
                const int who = int(rng.bounded(4));
                if (who == 0 || who == 3)
                    mine.append(pm(QString::fromLatin1(topic), p, 100, 100 + rng.bounded(3), tick));
                if (who >= 2)
                    others.append(other(QString::fromLatin1(topic), p, QStringLiteral("m%1").arg(rng.bounded(3))));
            }
        }
        std::shuffle(others.begin(), others.end(), rng);
        if (rng.bounded(2))
            m_model->applySnapshot(snap(tick * 250, mine));
        else
            m_model->setOtherMembers(others);
        for (int r = 1; r < m_model->rowCount(); ++r)
            QVERIFY(m_model->keyAt(r - 1) < m_model->keyAt(r));
    }
}

QTEST_GUILESS_MAIN(TestPartitionTableModel)
#include "tst_partitiontablemodel.moc"
