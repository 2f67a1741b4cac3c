// FailoverPlanModel: a failover plan as rows of group and partition, what
// the dialog's preview shows; QAbstractItemModelTester watches every change.
#include "model/tables/FailoverPlanModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest/QtTest>

using namespace md;

namespace {

GroupPartitionSync part(const QString &topic, int partition, qint64 source, qint64 target, GroupSyncAction action)
{
    GroupPartitionSync p;
    p.topic = topic;
    p.partition = partition;
    p.sourceCommitted = source;
    p.translation.kind = target >= 0 ? OffsetTranslation::Kind::Exact : OffsetTranslation::Kind::Unknown;
    p.translation.targetOffset = target;
    p.action = action;
    p.neverReached = 0;
    return p;
}

GroupSyncPlan plan()
{
    GroupSyncPlan plan;
    plan.ok = true;
    GroupSyncEntry a;
    a.group = QStringLiteral("billing");
    a.targetState = QStringLiteral("Dead");
    a.partitions = {part(QStringLiteral("orders"), 0, 1200, 1188, GroupSyncAction::Write),
                    part(QStringLiteral("orders"), 1, 5, -1, GroupSyncAction::SkipNotTranslatable)};
    GroupSyncEntry b;
    b.group = QStringLiteral("shipping");
    b.targetState = QStringLiteral("Stable");
    b.targetMembers = {QStringLiteral("rdkafka on host1")};
    b.partitions = {part(QStringLiteral("orders"), 0, 7, 7, GroupSyncAction::SkipActiveMembers)};
    plan.groups = {a, b};
    return plan;
}

} // namespace

class TestFailoverPlanModel final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rowsAndCells()
    {
        FailoverPlanModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setPlan(plan());
        QCOMPARE(reset.size(), 1);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.groupCount(), 2);
        QCOMPARE(model.columnCount(), int(FailoverPlanModel::ColumnCount));
        const auto cell = [&](int row, int column, int role = Qt::DisplayRole) {
            return model.data(model.index(row, column), role);
        };
        QCOMPARE(cell(0, FailoverPlanModel::GroupColumn).toString(), QStringLiteral("billing"));
        QCOMPARE(cell(0, FailoverPlanModel::SourceOffsetColumn).toString(), QStringLiteral("1,200"));
        QCOMPARE(cell(0, FailoverPlanModel::TargetOffsetColumn).toString(), QStringLiteral("1,188"));
        QCOMPARE(cell(0, FailoverPlanModel::TargetOffsetColumn, FailoverPlanModel::SortRole).toLongLong(), 1188);
        QCOMPARE(cell(0, FailoverPlanModel::TargetNowColumn).toString(), QStringLiteral("none"));
        QCOMPARE(cell(1, FailoverPlanModel::TargetOffsetColumn).toString(), QStringLiteral("\u2014"));
        QCOMPARE(cell(1, FailoverPlanModel::PartitionColumn).toInt(), 1);
        QCOMPARE(cell(2, FailoverPlanModel::GroupColumn).toString(), QStringLiteral("shipping"));
        QVERIFY(cell(2, FailoverPlanModel::GroupColumn, Qt::ToolTipRole).toString().contains(QLatin1String("host1")));
        QCOMPARE(cell(0, FailoverPlanModel::ActionColumn).toString(), groupSyncActionName(GroupSyncAction::Write));
        QVERIFY(cell(2, FailoverPlanModel::ActionColumn, Qt::ForegroundRole).isValid()); // a skip stands out
        QVERIFY(!cell(0, FailoverPlanModel::ActionColumn, Qt::ForegroundRole).isValid());
        QCOMPARE(model.headerData(FailoverPlanModel::ReadAgainColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Read again"));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestFailoverPlanModel)
#include "tst_failoverplanmodel.moc"
