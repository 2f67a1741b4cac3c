// The consumer group monitor fed with synthetic GroupLagSampler-style samples (no Kafka):
// it is a JobMonitor in its ConsumerGroup mode (same charts, lag map, partition table and
// Burrow status rules), without job controls, lag-in-time or latency charts; a group whose
// commits stop while lag grows turns STALL (ERR), one catching up is OK. The main window's
// watchGroup opens one as a tab (one per group; closing parks it; the layout restores it).
#include "engine/admin/GroupLagSampler.h"
#include "model/tables/PartitionTableModel.h"
#include "ui/charts/ChartPanel.h"
#include "ui/cluster/ClusterPane.h"
#include "ui/job/GroupMonitor.h"
#include "ui/job/JobMonitor.h"
#include "ui/window/MainWindow.h"
#include "ui/window/WorkArea.h"

#include <QAbstractItemModelTester>
#include <QDoubleSpinBox>
#include <QPointer>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QToolButton>

#include "ui/charts/QCustomPlotInclude.h"

using namespace md;

namespace {

const qint64 kBaseMs = QDateTime(QDate(2026, 11, 1), QTime(12, 0), Qt::UTC).toMSecsSinceEpoch();
constexpr qint64 kPollMs = 5000;

// Poll i of group "billing" on "orders" (2 partitions) as GroupLagSampler builds it:
// committed offsets, end offsets, lag = end - committed, no nextOffset.
MetricsSnapshot sample(int i, qint64 committed0, qint64 end0, qint64 committed1, qint64 end1)
{
    MetricsSnapshot s;
    s.jobName = QStringLiteral("billing");
    s.time = QDateTime::fromMSecsSinceEpoch(kBaseMs + i * kPollMs, Qt::UTC);
    s.elapsedMs = i * kPollMs;
    s.state = JobState::Running;
    const QList<QPair<qint64, qint64>> parts{{committed0, end0}, {committed1, end1}};
    for (int p = 0; p < parts.size(); ++p) {
        PartitionMetrics m;
        m.topic = QStringLiteral("orders");
        m.targetTopic = m.topic;
        m.partition = p;
        m.committedOffset = parts[p].first;
        m.endOffset = parts[p].second;
        m.lag = m.committedOffset < 0 ? -1 : m.endOffset - m.committedOffset;
        if (m.lag > 0)
            s.totalLag += m.lag;
        s.partitions.append(m);
    }
    s.consumeRecordsPerSec = 10;
    s.produceRecordsPerSec = 20;
    return s;
}

double lastValue(QCPGraph *g)
{
    return g->data()->isEmpty() ? qQNaN() : (g->data()->constEnd() - 1)->value;
}

} // namespace

class TstGroupMonitor final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void groupModeReusesTheJobMonitor()
    {
        GroupMonitor group(QStringLiteral("billing"));
        group.show();
        QVERIFY(QTest::qWaitForWindowExposed(&group));
        JobMonitor *monitor = group.monitor();
        QCOMPARE(monitor->kind(), JobMonitor::Kind::ConsumerGroup);
        QVERIFY(!group.sampler());
        // Nothing to pause, resume, stop or throttle; no lag-in-time or latency charts.
        QVERIFY(!monitor->pauseButton()->isVisible());
        QVERIFY(!monitor->resumeButton()->isVisible());
        QVERIFY(!monitor->stopButton()->isVisible());
        QVERIFY(!monitor->throttleBox()->isVisible());
        auto *tabs = monitor->findChild<QTabWidget *>(QStringLiteral("charts"));
        QVERIFY(tabs);
        QVERIFY(tabs->isTabVisible(JobMonitor::Throughput));
        QVERIFY(tabs->isTabVisible(JobMonitor::Lag));
        QVERIFY(!tabs->isTabVisible(JobMonitor::LagTime));
        QVERIFY(!tabs->isTabVisible(JobMonitor::Latency));
        QVERIFY(tabs->isTabVisible(JobMonitor::Partitions));
        QCOMPARE(monitor->currentChart(), JobMonitor::Lag);
        auto *table = monitor->findChild<QTableView *>(QStringLiteral("partitions"));
        QVERIFY(table->isColumnHidden(PartitionTableModel::MirroredOffsetColumn));
        QVERIFY(table->isColumnHidden(PartitionTableModel::TargetTopicColumn));
        QVERIFY(!table->isColumnHidden(PartitionTableModel::LagTimeColumn)); // any group's lag in seconds
        QAbstractItemModelTester tester(monitor->partitionModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);

        QSignalSpy status(&group, &GroupMonitor::statusChanged);
        // Catching up: commits move, lag shrinks.
        int i = 0;
        for (; i < 12; ++i)
            group.addSnapshot(sample(i, 100 + i * 50, 1000, 500 + i * 10, 800));
        monitor->redraw();
        QCOMPARE(monitor->status(), JobLagStatus::Ok);
        QVERIFY(status.isEmpty());
        QCOMPARE(monitor->store().latest().totalLag, (1000 - 650) + (800 - 610));
        QCOMPARE(lastValue(monitor->plot(JobMonitor::Lag)->graph(0)), double((1000 - 650) + (800 - 610)));
        QVERIFY2(monitor->summaryText().contains(QStringLiteral("lag 540")), qPrintable(monitor->summaryText()));
        QVERIFY(monitor->summaryText().startsWith(QStringLiteral("2 partitions")));

        // The consumers stop committing while producers go on: STALL on both partitions.
        for (int k = 0; k < 12; ++k, ++i)
            group.addSnapshot(sample(i, 650, 1000 + k * 100, 610, 800 + k * 10));
        QCOMPARE(monitor->status(), JobLagStatus::Err);
        QCOMPARE(status.size(), 1);
        QCOMPARE(status.first().first().value<JobLagStatus>(), JobLagStatus::Err);
        monitor->setCurrentChart(JobMonitor::Partitions);
        monitor->redraw();
        PartitionTableModel *rows = monitor->partitionModel();
        QCOMPARE(rows->rowCount(), 2);
        for (int r = 0; r < 2; ++r) {
            QCOMPARE(rows->index(r, PartitionTableModel::StatusColumn).data().toString(), QStringLiteral("STALL"));
            QCOMPARE(rows->index(r, PartitionTableModel::CommittedOffsetColumn).data().toLongLong(),
                     r == 0 ? 650 : 610);
        }
        QCOMPARE(rows->index(0, PartitionTableModel::LagColumn).data().toLongLong(), 1000 + 11 * 100 - 650);
        QVERIFY(monitor->lagMap());
    }

    void noCommitIsNoneNotZero()
    {
        GroupMonitor group(QStringLiteral("billing"));
        group.show();
        QVERIFY(QTest::qWaitForWindowExposed(&group));
        group.addSnapshot(sample(0, -1, 1000, 5, 10));
        group.monitor()->setCurrentChart(JobMonitor::Partitions);
        group.monitor()->redraw();
        PartitionTableModel *rows = group.monitor()->partitionModel();
        QCOMPARE(rows->rowCount(), 2);
        QCOMPARE(rows->index(0, PartitionTableModel::CommittedOffsetColumn).data().toString(), QStringLiteral("none"));
        QCOMPARE(group.monitor()->store().latest().totalLag, 5);
    }

    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("MirrorDesk-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_groupmonitor"));
        QSettings().clear();
    }

    void mainWindowWatchesAGroup()
    {
        MainWindow window;
        window.show();
        ClusterConfig nowhere;
        nowhere.alias = QStringLiteral("nowhere");
        nowhere.bootstrap = QStringLiteral("127.0.0.1:1");
        QPointer<GroupMonitor> monitor = window.watchGroup(nowhere, QStringLiteral("billing"));
        QVERIFY(monitor);
        // A tab of the work area, current on its side, not a window of its own.
        QVERIFY(!monitor->isWindow());
        WorkArea *area = window.workArea();
        QVERIFY(area->isOpen(monitor));
        QCOMPARE(area->tabs(area->sideOf(monitor))->currentWidget(), monitor.data());
        QVERIFY(monitor->isVisible());
        QCOMPARE(area->keyOf(monitor), MainWindow::groupMonitorKey(nowhere, QStringLiteral("billing")));
        QCOMPARE(monitor->groupId(), QStringLiteral("billing"));
        QVERIFY(monitor->sampler());
        QVERIFY(monitor->sampler()->isRunning());
        QCOMPARE(monitor->sampler()->groupId(), QStringLiteral("billing"));
        // The poll fails (nothing listens there): the monitor says so, in words.
        QTRY_VERIFY_WITH_TIMEOUT(!monitor->errorText().isEmpty(), 20000);
        QVERIFY2(monitor->errorText().contains(QStringLiteral("127.0.0.1:1")), qPrintable(monitor->errorText()));
        // One per group: watching it again raises the same tab; another group gets its own.
        area->raise(window.sourcePane());
        QCOMPARE(window.watchGroup(nowhere, QStringLiteral("billing")), monitor.data());
        QCOMPARE(area->tabs(area->sideOf(monitor))->currentWidget(), monitor.data());
        GroupMonitor *other = window.watchGroup(nowhere, QStringLiteral("audit"));
        QVERIFY(other != monitor.data());
        QVERIFY(area->isOpen(other));
        // Closing its tab hides it (it goes on sampling); watching again brings it back.
        area->closePage(monitor);
        QVERIFY(monitor);
        QVERIFY(!area->isOpen(monitor));
        QVERIFY(!monitor->isVisible());
        QVERIFY(monitor->sampler()->isRunning());
        QCOMPARE(window.watchGroup(nowhere, QStringLiteral("billing")), monitor.data());
        QVERIFY(area->isOpen(monitor));
    }

    void anOpenGroupTabComesBackOnTheNextStart()
    {
        QSettings().clear();
        ClusterConfig source;
        source.alias = QStringLiteral("eu");
        source.bootstrap = QStringLiteral("127.0.0.1:1");
        ClusterConfig target = source;
        target.alias = QStringLiteral("dr");
        target.bootstrap = QStringLiteral("127.0.0.1:2");
        {
            MainWindow window;
            window.showClusters(source, target);
            window.resize(800, 600);
            window.show();
            GroupMonitor *payments = window.watchGroup(target, QStringLiteral("payments"));
            GroupMonitor *closed = window.watchGroup(source, QStringLiteral("closed"));
            // On the side of its cluster's view: the target's is on the right.
            QCOMPARE(window.workArea()->sideOf(payments), window.workArea()->sideOf(window.targetPane()));
            window.workArea()->closePage(closed);
            window.close(); // saves
        }
        MainWindow window;
        window.showClusters(source, target);
        window.restoreSettings();
        WorkArea *area = window.workArea();
        auto *payments =
            qobject_cast<GroupMonitor *>(area->page(MainWindow::groupMonitorKey(target, QStringLiteral("payments"))));
        QVERIFY(payments);
        QVERIFY(area->isOpen(payments));
        QCOMPARE(area->sideOf(payments), area->sideOf(window.targetPane()));
        QCOMPARE(payments->cluster().bootstrap, target.bootstrap);
        QCOMPARE(payments->groupId(), QStringLiteral("payments"));
        QVERIFY(payments->sampler() && payments->sampler()->isRunning());
        // A closed one stays closed.
        QVERIFY(!area->page(MainWindow::groupMonitorKey(source, QStringLiteral("closed"))));
    }

    void watchLagInAPaneOpensAMonitorForThatCluster()
    {
        MainWindow window;
        ClusterConfig source;
        source.alias = QStringLiteral("eu");
        source.bootstrap = QStringLiteral("127.0.0.1:1");
        ClusterConfig target = source;
        target.alias = QStringLiteral("dr");
        target.bootstrap = QStringLiteral("127.0.0.1:2");
        window.showClusters(source, target);
        // What the groups tab's "Watch lag" emits, forwarded by the pane.
        Q_EMIT window.targetPane()->watchGroupRequested(QStringLiteral("payments"));
        GroupMonitor *monitor = window.findChild<GroupMonitor *>();
        QVERIFY(monitor);
        QCOMPARE(monitor->groupId(), QStringLiteral("payments"));
        QTRY_VERIFY_WITH_TIMEOUT(!monitor->errorText().isEmpty(), 20000);
        // It watches the pane's own cluster, the target here.
        QVERIFY2(monitor->errorText().contains(QStringLiteral("127.0.0.1:2")), qPrintable(monitor->errorText()));
    }
};

QTEST_MAIN(TstGroupMonitor)
#include "tst_groupmonitor.moc"
