// The job monitor's "Groups" table: one row per synced group, merged (not
// reset) on every snapshot, checked by QAbstractItemModelTester.

#include "model/tables/GroupSyncTableModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace md;

namespace {

GroupSyncMetrics row(const QString &group, int translated, int partitions, qint64 lag, const QString &why = {})
{
    GroupSyncMetrics g;
    g.group = group;
    g.partitions = partitions;
    g.partitionsTranslated = translated;
    g.lag = lag;
    g.skipReason = why;
    if (translated > 0)
        g.lastSync = QDateTime(QDate(2026, 12, 1), QTime(22, 0), Qt::UTC);
    return g;
}

} // namespace

class TstGroupSyncTableModel final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rowsFollowTheSnapshots()
    {
        GroupSyncTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

        model.setGroups(
            {row(QStringLiteral("orders-app"), 3, 3, 0),
             row(QStringLiteral("billing"), 0, 2, -1, QStringLiteral("active members on the target: c on h"))});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, GroupSyncTableModel::GroupColumn).data().toString(),
                 QStringLiteral("billing")); // sorted
        QCOMPARE(model.index(0, GroupSyncTableModel::PartitionsColumn).data().toString(), QStringLiteral("0 of 2"));
        QCOMPARE(model.index(0, GroupSyncTableModel::LagColumn).data().toString(), QStringLiteral("unknown"));
        QCOMPARE(model.index(0, GroupSyncTableModel::LastSyncColumn).data().toString(), QStringLiteral("never"));
        QVERIFY(model.index(0, GroupSyncTableModel::NoteColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("active members")));
        QCOMPARE(model.index(1, GroupSyncTableModel::PartitionsColumn).data().toString(), QStringLiteral("3 of 3"));

        // The same again: nothing emitted. One group changes: one row.
        changed.clear();
        model.setGroups(
            {row(QStringLiteral("billing"), 0, 2, -1, QStringLiteral("active members on the target: c on h")),
             row(QStringLiteral("orders-app"), 3, 3, 0)});
        QCOMPARE(changed.size(), 0);
        model.setGroups({row(QStringLiteral("billing"), 2, 2, 5), row(QStringLiteral("orders-app"), 3, 3, 0)});
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex().row(), 0);

        // Groups come and go without a reset.
        model.setGroups({row(QStringLiteral("alpha"), 1, 1, 0), row(QStringLiteral("orders-app"), 3, 3, 0)});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("alpha"));
        model.setGroups({});
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(resets.size(), 0);
        QCOMPARE(model.headerData(GroupSyncTableModel::GroupColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Group"));
    }
};

QTEST_GUILESS_MAIN(TstGroupSyncTableModel)
#include "tst_groupsynctablemodel.moc"
