// The start-position table (reset preview and job plan) under
// QAbstractItemModelTester (fatal): the values it shows, "none" for a partition
// without progress, raw numbers to sort by, and the summary lines.

#include "model/tables/ProgressTableModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace md;

namespace {

PartitionStart ps(const QString &topic, int partition, qint64 logStart, qint64 end, qint64 committed, qint64 start,
                  StartReason reason)
{
    PartitionStart p;
    p.topic = topic;
    p.partition = partition;
    p.logStart = logStart;
    p.end = end;
    p.committed = committed;
    p.start = start;
    p.reason = reason;
    p.toCopy = end - start;
    if (reason == StartReason::CommittedBelowLogStart)
        p.skipped = logStart - committed;
    return p;
}

QList<PartitionStart> sample()
{
    return {ps(QStringLiteral("orders"), 0, 0, 1500, 1234, 1234, StartReason::Committed),
            ps(QStringLiteral("orders"), 1, 10, 20, -1, 10, StartReason::Earliest),
            ps(QStringLiteral("payments"), 0, 5000, 12000, 100, 5000, StartReason::CommittedBelowLogStart)};
}

QString cell(const QAbstractItemModel &m, int row, int column)
{
    return m.index(row, column).data().toString();
}

} // namespace

class TestProgressTableModel final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void resetModeShowsNumbers()
    {
        ProgressTableModel m(ProgressTableModel::Mode::Reset);
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QCOMPARE(m.rowCount(), 0);
        QCOMPARE(m.columnCount(), int(ProgressTableModel::ColumnCount));

        QList<PartitionStart> rows = sample();
        for (PartitionStart &p : rows) {
            p.start = p.logStart; // earliest
            p.toCopy = p.end - p.start;
            p.reason = StartReason::Reset;
        }
        QSignalSpy resets(&m, &QAbstractItemModel::modelReset);
        m.setPartitions(rows);
        QCOMPARE(resets.size(), 1);
        QCOMPARE(m.rowCount(), 3);

        QCOMPARE(cell(m, 0, ProgressTableModel::TopicColumn), QStringLiteral("orders"));
        QCOMPARE(cell(m, 0, ProgressTableModel::PartitionColumn), QStringLiteral("0"));
        QCOMPARE(cell(m, 0, ProgressTableModel::CommittedColumn), QStringLiteral("1,234"));
        QCOMPARE(cell(m, 0, ProgressTableModel::StartColumn), QStringLiteral("0"));
        QCOMPARE(cell(m, 0, ProgressTableModel::ToCopyColumn), QStringLiteral("1,500"));
        // No progress is "none", not 0 and not a blank.
        QCOMPARE(cell(m, 1, ProgressTableModel::CommittedColumn), QStringLiteral("none"));
        QCOMPARE(m.index(1, ProgressTableModel::CommittedColumn).data(ProgressTableModel::SortRole).toLongLong(), -1);
        QCOMPARE(cell(m, 1, ProgressTableModel::LogStartColumn), QStringLiteral("10"));
        QCOMPARE(cell(m, 2, ProgressTableModel::LogStartColumn), QStringLiteral("5,000"));
        QCOMPARE(cell(m, 2, ProgressTableModel::EndColumn), QStringLiteral("12,000"));
        QCOMPARE(cell(m, 2, ProgressTableModel::StartColumn), QStringLiteral("5,000"));
        QCOMPARE(cell(m, 2, ProgressTableModel::ToCopyColumn), QStringLiteral("7,000"));
        QCOMPARE(m.totalToCopy(), 1500 + 10 + 7000);
        QCOMPARE(m.headerData(ProgressTableModel::StartColumn, Qt::Horizontal).toString(),
                 QStringLiteral("New position"));
        QCOMPARE(m.headerData(ProgressTableModel::CommittedColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Committed now"));

        // The same rows again are no change.
        m.setPartitions(rows);
        QCOMPARE(resets.size(), 1);
        m.clear();
        QCOMPARE(m.rowCount(), 0);
    }

    void planModeDescribesTheStart()
    {
        ProgressTableModel m(ProgressTableModel::Mode::Plan);
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
        const QList<PartitionStart> rows = sample();
        m.setPartitions(rows);
        for (int r = 0; r < rows.size(); ++r)
            QCOMPARE(cell(m, r, ProgressTableModel::StartColumn), rows[r].describe());
        QVERIFY(!cell(m, 0, ProgressTableModel::StartColumn).isEmpty());
        QCOMPARE(cell(m, 0, ProgressTableModel::ToCopyColumn), QStringLiteral("266"));
        QCOMPARE(m.headerData(ProgressTableModel::StartColumn, Qt::Horizontal).toString(), QStringLiteral("Starts"));
        // Vanished records are named in the row's tooltip.
        QVERIFY(m.index(2, ProgressTableModel::StartColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("4,900 records vanished")));
    }

    void sortsByRawNumbers()
    {
        ProgressTableModel m;
        m.setPartitions(sample());
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&m);
        proxy.setSortRole(ProgressTableModel::SortRole);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
        proxy.sort(ProgressTableModel::ToCopyColumn, Qt::DescendingOrder);
        // 7,000 > 266 > 10 by number, whatever the text says.
        QCOMPARE(cell(proxy, 0, ProgressTableModel::ToCopyColumn), QStringLiteral("7,000"));
        QCOMPARE(cell(proxy, 1, ProgressTableModel::ToCopyColumn), QStringLiteral("266"));
        QCOMPARE(cell(proxy, 2, ProgressTableModel::ToCopyColumn), QStringLiteral("10"));
        proxy.sort(ProgressTableModel::CommittedColumn, Qt::AscendingOrder);
        QCOMPARE(cell(proxy, 0, ProgressTableModel::CommittedColumn), QStringLiteral("none"));
    }

    void summaries()
    {
        JobProgress p;
        p.ok = true;
        p.groupId = QStringLiteral("mirrordesk-orders");
        p.groupState = QStringLiteral("Empty");
        p.partitions = sample();
        QCOMPARE(describeGroup(p), QStringLiteral("group mirrordesk-orders: Empty, no active members"));
        QCOMPARE(describeTotal(p),
                 QStringLiteral("7,276 records to copy from 3 partitions; 2 have committed progress"));
        p.groupState = QStringLiteral("Stable");
        p.members = {QStringLiteral("mirrordesk on host-a"), QStringLiteral("mirrordesk on host-b")};
        QCOMPARE(describeGroup(p),
                 QStringLiteral(
                     "group mirrordesk-orders: Stable, 2 active members: mirrordesk on host-a, mirrordesk on host-b"));
        p.groupState = QStringLiteral("Dead");
        p.members.clear();
        QCOMPARE(describeGroup(p), QStringLiteral("group mirrordesk-orders: no such group yet (no progress)"));
        p.partitions = {sample().at(1)};
        QCOMPARE(describeTotal(p), QStringLiteral("10 records to copy from 1 partition; none has committed progress"));
        QCOMPARE(formatOffset(1234567), QStringLiteral("1,234,567"));
        QCOMPARE(formatOffset(0), QStringLiteral("0"));
    }
};

QTEST_GUILESS_MAIN(TestProgressTableModel)
#include "tst_progresstablemodel.moc"
