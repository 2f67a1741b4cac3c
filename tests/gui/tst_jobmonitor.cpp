// The job monitor fed with synthetic snapshots (no Kafka): what its charts, lag map and
// partition table hold, that redraws are coalesced and skipped while hidden, the exports,
// and that its controls drive a real MirrorJob.
#include "engine/admin/GroupLagSampler.h"
#include "engine/mirror/MirrorJob.h"
#include "engine/mirror/TopicNaming.h"
#include "model/tables/GroupSyncTableModel.h"
#include "model/tables/NumberFormat.h"
#include "model/tables/PartitionTableModel.h"
#include "ui/charts/ChartPanel.h"
#include "ui/job/JobMonitor.h"

#include <QAbstractItemModelTester>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QSet>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include "ui/charts/QCustomPlotInclude.h"

using namespace md;

namespace {

const qint64 kBaseMs = QDateTime(QDate(2026, 11, 1), QTime(12, 0), Qt::UTC).toMSecsSinceEpoch();
constexpr qint64 kTickMs = 250;

qint64 partitionLag(int partition, int i)
{
    return partition * 100 + i;
}

// Tick i of a job mirroring `partitions` partitions of "orders"; every figure is a simple
// function of i (and the partition) so the test can say what each chart must show.
MetricsSnapshot snapshot(int i, int partitions = 4)
{
    MetricsSnapshot s;
    s.jobName = QStringLiteral("job");
    s.time = QDateTime::fromMSecsSinceEpoch(kBaseMs + i * kTickMs, Qt::UTC);
    s.elapsedMs = i * kTickMs;
    s.state = JobState::Running;
    s.consumeRecordsPerSec = 1000 + i;
    s.produceRecordsPerSec = 900 + i;
    s.consumeBytesPerSec = 2e6 + i * 1000;
    s.produceBytesPerSec = 1e6 + i * 1000;
    s.lagTimeMs = i * 10;
    s.latency.p50Ms = 5 + i;
    s.latency.p99Ms = 50 + i;
    s.latency.samples = 100;
    for (int p = 0; p < partitions; ++p) {
        PartitionMetrics m;
        m.topic = QStringLiteral("orders");
        m.targetTopic = QStringLiteral("src.orders");
        m.partition = p;
        m.endOffset = 1000LL * i + p * 10 + 500;
        m.lag = partitionLag(p, i);
        m.nextOffset = m.endOffset - m.lag;
        m.committedOffset = m.nextOffset;
        s.totalLag += m.lag;
        s.partitions.append(m);
    }
    return s;
}

void feed(MonitoredJob &job, int from, int to, int partitions = 4)
{
    for (int i = from; i < to; ++i)
        job.addSnapshot(snapshot(i, partitions));
}

double lastValue(QCPGraph *g)
{
    return g->data()->isEmpty() ? qQNaN() : (g->data()->constEnd() - 1)->value;
}

double lastKey(QCPGraph *g)
{
    return g->data()->isEmpty() ? qQNaN() : (g->data()->constEnd() - 1)->key;
}

QList<QStringList> readCsv(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    QList<QStringList> rows;
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString &line : lines)
        rows.append(line.split(QLatin1Char(',')));
    return rows;
}

// The monitor is a view: its job (the session's MonitoredJob) holds the history it draws.
struct ShownMonitor {
    MonitoredJob job;
    JobMonitor monitor{&job};
    explicit ShownMonitor(MirrorJob *engine = nullptr) : job(engine)
    {
        monitor.resize(1000, 700);
        monitor.show();
    }
};

} // namespace

class TestJobMonitor final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void chartsHoldTheSeries()
    {
        ShownMonitor m;
        QVERIFY(QTest::qWaitForWindowExposed(&m.monitor));
        m.monitor.setWindowMs(60'000);
        feed(m.job, 0, 40);
        m.monitor.redraw();

        QCustomPlot *tp = m.monitor.plot(JobMonitor::Throughput);
        QCOMPARE(tp->graphCount(), 4);
        for (int g = 0; g < 4; ++g)
            QCOMPARE(tp->graph(g)->dataCount(), 40);
        QCOMPARE(lastKey(tp->graph(0)), double(kBaseMs + 39 * kTickMs) / 1000.0);
        QCOMPARE(lastValue(tp->graph(0)), 1039.0);
        QCOMPARE(lastValue(tp->graph(1)), 939.0);
        QCOMPARE(lastValue(tp->graph(2)), 2.039); // MB/s on the right axis
        QCOMPARE(tp->graph(2)->valueAxis(), tp->yAxis2);
        QVERIFY(tp->legend->visible());
        QCOMPARE(tp->legend->itemCount(), 4);
        // Follow-live: the x axis ends at the newest sample and spans the window.
        QCOMPARE(tp->xAxis->range().upper, double(kBaseMs + 39 * kTickMs) / 1000.0);
        QCOMPARE(tp->xAxis->range().size(), 60.0);
        QVERIFY(tp->yAxis->range().upper >= 1039.0);

        m.monitor.setCurrentChart(JobMonitor::Lag);
        QCustomPlot *lag = m.monitor.plot(JobMonitor::Lag);
        QCOMPARE(lag->graph(0)->dataCount(), 40);
        QCOMPARE(lastValue(lag->graph(0)), double(0 + 100 + 200 + 300 + 4 * 39));

        m.monitor.setCurrentChart(JobMonitor::LagTime);
        QCOMPARE(lastValue(m.monitor.plot(JobMonitor::LagTime)->graph(0)), 0.39); // seconds

        m.monitor.setCurrentChart(JobMonitor::Latency);
        QCustomPlot *lat = m.monitor.plot(JobMonitor::Latency);
        QCOMPARE(lastValue(lat->graph(0)), 44.0);
        QCOMPARE(lastValue(lat->graph(1)), 89.0);

        // A 1-minute window drops what is older: feed 5 minutes, only ~60 s are queried.
        feed(m.job, 40, 1200);
        m.monitor.setCurrentChart(JobMonitor::Throughput);
        m.monitor.redraw();
        QVERIFY2(tp->graph(0)->dataCount() <= 241, qPrintable(QString::number(tp->graph(0)->dataCount())));
        QVERIFY(tp->graph(0)->dataCount() >= 200);
        QVERIFY(tp->graph(0)->data()->constBegin()->key >= double(kBaseMs + 1199 * kTickMs - 60'000) / 1000.0);
        // Whole run: all 1200 samples, merged to at most one per pixel.
        m.monitor.setWindowMs(0);
        QVERIFY(tp->graph(0)->dataCount() <= tp->axisRect()->width());
        QVERIFY(tp->graph(0)->dataCount() > 100);
        QCOMPARE(tp->graph(0)->data()->constBegin()->key, double(kBaseMs) / 1000.0);

        // Hovering names the series and the values under the mouse.
        const QString hover = m.monitor.chart(JobMonitor::Throughput)->hoverText(tp->axisRect()->rect().center());
        QVERIFY2(hover.contains(QStringLiteral("consumed records/s: ")), qPrintable(hover));
        QVERIFY(hover.contains(QStringLiteral("produced MB/s: ")));
    }

    void lagMapAndPartitionTable()
    {
        ShownMonitor m;
        QVERIFY(QTest::qWaitForWindowExposed(&m.monitor));
        QAbstractItemModelTester modelTester(m.monitor.partitionModel(),
                                             QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester proxyTester(m.monitor.partitionProxy(),
                                             QAbstractItemModelTester::FailureReportingMode::Fatal);
        m.monitor.setWindowMs(60'000);
        m.monitor.setCurrentChart(JobMonitor::Partitions);
        feed(m.job, 0, 40, 6);
        m.monitor.redraw();

        QCPColorMapData *map = m.monitor.lagMap()->data();
        QCOMPARE(map->valueSize(), 6);
        QVERIFY(map->keySize() >= 2);
        QCOMPARE(map->keyRange().upper, double(kBaseMs + 39 * kTickMs) / 1000.0);
        // The newest column holds the newest lag of each partition.
        int col = -1;
        int row = -1;
        map->coordToCell(map->keyRange().upper, 3, &col, &row);
        QCOMPARE(col, map->keySize() - 1);
        QCOMPARE(map->cell(col, 3), double(partitionLag(3, 39)));
        QCOMPARE(map->cell(col, 0), double(partitionLag(0, 39)));
        // Columns before the first sample have no data (transparent, not zero lag).
        QVERIFY(qIsNaN(map->cell(0, 0)));

        QCOMPARE(m.monitor.partitionModel()->rowCount(), 6);
        const QModelIndex lag5 = m.monitor.partitionModel()->index(5, PartitionTableModel::LagColumn);
        QCOMPARE(lag5.data(PartitionTableModel::SortRole).toLongLong(), partitionLag(5, 39));
        // Sorted by lag, descending, through the proxy: the worst partition first.
        m.monitor.partitionProxy()->sort(PartitionTableModel::LagColumn, Qt::DescendingOrder);
        QCOMPARE(m.monitor.partitionProxy()
                     ->index(0, PartitionTableModel::PartitionColumn)
                     .data(PartitionTableModel::SortRole)
                     .toInt(),
                 5);
        m.monitor.partitionProxy()->setFilterFixedString(QStringLiteral("payments"));
        QCOMPARE(m.monitor.partitionProxy()->rowCount(), 0);
        m.monitor.partitionProxy()->setFilterFixedString(QStringLiteral("ORD"));
        QCOMPARE(m.monitor.partitionProxy()->rowCount(), 6);

        // Partition 2 disappears from the assignment: the table follows on the next redraw.
        for (int i = 40; i < 44; ++i) {
            MetricsSnapshot s = snapshot(i, 6);
            s.partitions.removeAt(2);
            m.job.addSnapshot(s);
        }
        m.monitor.redraw();
        QCOMPARE(m.monitor.partitionModel()->rowCount(), 5);
        QCOMPARE(m.monitor.partitionModel()->rowOf({QStringLiteral("orders"), 2}), -1);
        QCOMPARE(m.monitor.lagMap()->data()->valueSize(), 6); // its history still shows
    }

    void aMonitorMadeLaterDrawsTheWholeHistory()
    {
        // The job records with no monitor open (a closed tab, a job that has not been looked
        // at): a monitor made afterwards draws everything the job kept, with no snapshot since.
        MonitoredJob job;
        feed(job, 0, 40, 3);
        MetricsSnapshot withGroups = snapshot(40, 3);
        GroupSyncMetrics g;
        g.group = QStringLiteral("billing");
        withGroups.groups = {g};
        job.addSnapshot(withGroups);
        JobMonitor monitor(&job);
        monitor.resize(1000, 700);
        monitor.setWindowMs(0);
        monitor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&monitor));
        QTRY_VERIFY(monitor.redrawCount() > 0);
        QCOMPARE(monitor.plot(JobMonitor::Throughput)->graph(0)->dataCount(), 41);
        QCOMPARE(monitor.store().sampleCount(), 41);
        QCOMPARE(monitor.groupsModel()->rowCount(), 1); // the groups it syncs, as last reported
        monitor.setCurrentChart(JobMonitor::Partitions);
        monitor.redraw();
        QCOMPARE(monitor.partitionModel()->rowCount(), 3);
    }

    void timeLabelsNeverOverlap()
    {
        // At the monitor tab's width beside a cluster view (~400 px at 1366x768) QCustomPlot's
        // default five "HH:mm:ss" ticks drew into each other.
        ShownMonitor m;
        QVERIFY(QTest::qWaitForWindowExposed(&m.monitor));
        feed(m.job, 0, 1200, 6);
        for (const int width : {420, 640, 1300}) {
            m.monitor.resize(width, 700);
            for (const qint64 window : {qint64(60'000), qint64(300'000)}) {
                m.monitor.setWindowMs(window);
                for (const auto chart : {JobMonitor::Throughput, JobMonitor::Partitions}) {
                    m.monitor.setCurrentChart(chart);
                    QCoreApplication::processEvents();
                    m.monitor.redraw();
                    QCustomPlot *plot = m.monitor.plot(chart);
                    plot->replot(QCustomPlot::rpImmediateRefresh);
                    QCPAxis *x = plot->xAxis;
                    const QVector<double> ticks = x->tickVector();
                    const QVector<QString> labels = x->tickVectorLabels();
                    const QString where =
                        QStringLiteral("width %1, window %2 s, chart %3").arg(width).arg(window / 1000).arg(int(chart));
                    QVERIFY2(ticks.size() >= 2, qPrintable(where));
                    const QFontMetrics fm(x->tickLabelFont());
                    double previousRight = -1e9;
                    for (int i = 0; i < ticks.size(); ++i) {
                        const double centre = x->coordToPixel(ticks.at(i));
                        const double half = fm.horizontalAdvance(labels.at(i)) / 2.0;
                        QVERIFY2(
                            centre - half > previousRight,
                            qPrintable(where + QStringLiteral(": label %1 overlaps the one before").arg(labels.at(i))));
                        previousRight = centre + half;
                    }
                }
            }
        }
    }

    void redrawsAreCoalesced()
    {
        ShownMonitor m;
        QVERIFY(QTest::qWaitForWindowExposed(&m.monitor));
        QCustomPlot *tp = m.monitor.plot(JobMonitor::Throughput);
        QSignalSpy replots(tp, &QCustomPlot::afterReplot);
        const int before = m.monitor.redrawCount();
        QElapsedTimer clock;
        clock.start();
        for (int i = 0; i < 100; ++i) {
            m.job.addSnapshot(snapshot(i));
            QTest::qWait(2); // the event loop runs between snapshots, as with queued signals
        }
        const qint64 elapsed = clock.elapsed();
        QTRY_VERIFY(!m.monitor.redrawPending());
        const int redraws = m.monitor.redrawCount() - before;
        // ~100 ms per redraw at most: the snapshots' time / 100 ms, plus the trailing one.
        const int allowed = int(elapsed / JobMonitor::redrawIntervalMs) + 2;
        QVERIFY2(redraws >= 1 && redraws <= allowed,
                 qPrintable(QStringLiteral("%1 redraws in %2 ms").arg(redraws).arg(elapsed)));
        QVERIFY2(replots.size() <= allowed, qPrintable(QString::number(replots.size())));
        QVERIFY(redraws < 20);
        QCOMPARE(tp->graph(0)->dataCount(), 100); // the last redraw saw everything

        // A burst with no event loop in between: exactly one redraw.
        replots.clear();
        feed(m.job, 100, 200);
        QVERIFY(m.monitor.redrawPending());
        QTRY_COMPARE(replots.size(), 1);
        QTest::qWait(2 * JobMonitor::redrawIntervalMs);
        QCOMPARE(replots.size(), 1);
    }

    void nothingIsDrawnWhileHidden()
    {
        ShownMonitor m;
        QVERIFY(QTest::qWaitForWindowExposed(&m.monitor));
        feed(m.job, 0, 10);
        m.monitor.redraw();
        m.monitor.hide();
        QList<QSignalSpy *> spies;
        for (int c = 0; c < JobMonitor::ChartCount; ++c)
            spies.append(new QSignalSpy(m.monitor.plot(JobMonitor::Chart(c)), &QCustomPlot::afterReplot));
        const int before = m.monitor.redrawCount();
        for (int i = 10; i < 60; ++i) {
            m.job.addSnapshot(snapshot(i));
            QTest::qWait(5);
        }
        QTest::qWait(2 * JobMonitor::redrawIntervalMs);
        QCOMPARE(m.monitor.redrawCount(), before);
        QVERIFY(!m.monitor.redrawPending());
        for (QSignalSpy *spy : std::as_const(spies))
            QCOMPARE(spy->size(), 0);
        QCOMPARE(m.monitor.store().sampleCount(), 60); // the store kept up all the same

        // Shown again: one redraw brings it up to date.
        m.monitor.show();
        QTRY_COMPARE(m.monitor.redrawCount(), before + 1);
        QCOMPARE(m.monitor.plot(JobMonitor::Throughput)->graph(0)->dataCount(), 60);
        qDeleteAll(spies);
    }

    void followLiveAndZoom()
    {
        ShownMonitor m;
        QVERIFY(QTest::qWaitForWindowExposed(&m.monitor));
        m.monitor.setWindowMs(60'000);
        feed(m.job, 0, 400);
        m.monitor.redraw();
        QCustomPlot *tp = m.monitor.plot(JobMonitor::Throughput);
        QVERIFY(m.monitor.followsLive());

        // A wheel zoom on the plot stops following live.
        const QPoint center = tp->axisRect()->rect().center();
        QWheelEvent wheel(center, tp->mapToGlobal(center), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(tp, &wheel);
        QVERIFY(!m.monitor.followsLive());
        QVERIFY(tp->xAxis->range().size() < 60.0);
        const QCPRange zoomed = tp->xAxis->range();
        feed(m.job, 400, 420);
        m.monitor.redraw();
        QCOMPARE(tp->xAxis->range().upper, zoomed.upper); // new data does not move the view

        // A past range, then back to live with the button.
        m.monitor.showRange(kBaseMs + 10'000, kBaseMs + 20'000);
        QCOMPARE(tp->graph(0)->dataCount(), 41);
        QCOMPARE(tp->graph(0)->data()->constBegin()->key, double(kBaseMs + 10'000) / 1000.0);
        auto *live = m.monitor.findChild<QToolButton *>(QStringLiteral("live"));
        QVERIFY(live && !live->isChecked());
        live->click();
        QVERIFY(m.monitor.followsLive());
        QCOMPARE(tp->xAxis->range().upper, double(kBaseMs + 419 * kTickMs) / 1000.0);
    }

    void exportsCsvPngPdf()
    {
        ShownMonitor m;
        QVERIFY(QTest::qWaitForWindowExposed(&m.monitor));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        m.monitor.setWindowMs(60'000);
        feed(m.job, 0, 20);
        m.monitor.redraw();

        const QString csv = dir.filePath(QStringLiteral("throughput.csv"));
        QString error;
        QVERIFY2(m.monitor.saveCsv(csv, &error), qPrintable(error));
        const QList<QStringList> rows = readCsv(csv);
        QCOMPARE(rows.size(), 21);
        QCOMPARE(rows.at(0).size(), 6);
        QCOMPARE(rows.at(0).at(0), QStringLiteral("time_ms"));
        QCOMPARE(rows.at(0).at(2), QStringLiteral("\"consumed records/s\""));
        for (int i = 0; i < 20; ++i) {
            const QStringList &r = rows.at(i + 1);
            QCOMPARE(r.size(), 6);
            QCOMPARE(r.at(0).toLongLong(), kBaseMs + i * kTickMs);
            QCOMPARE(QDateTime::fromString(r.at(1), Qt::ISODateWithMs).toMSecsSinceEpoch(), kBaseMs + i * kTickMs);
            QCOMPARE(r.at(2).toDouble(), 1000.0 + i);
            QCOMPARE(r.at(3).toDouble(), 900.0 + i);
            QCOMPARE(r.at(4).toDouble(), (2e6 + i * 1000) / 1e6);
        }

        m.monitor.setCurrentChart(JobMonitor::Partitions);
        const QString mapCsv = dir.filePath(QStringLiteral("lag.csv"));
        QVERIFY2(m.monitor.saveCsv(mapCsv, &error), qPrintable(error));
        const QList<QStringList> mapRows = readCsv(mapCsv);
        QCOMPARE(mapRows.size(), 21);
        QCOMPARE(mapRows.at(0).size(), 2 + 4);
        QCOMPARE(mapRows.at(0).at(5), QStringLiteral("\"orders[3]\""));
        QCOMPARE(mapRows.at(20).at(5).toLongLong(), partitionLag(3, 19));

        m.monitor.setCurrentChart(JobMonitor::Throughput);
        const QString png = dir.filePath(QStringLiteral("chart.png"));
        QVERIFY2(m.monitor.savePng(png, &error), qPrintable(error));
        QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.width(), m.monitor.plot(JobMonitor::Throughput)->width());
        // Not a blank picture: the plot drew lines in several colours.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3)
                colours.insert(image.pixel(x, y));
        QVERIFY(colours.size() > 5);

        const QString pdf = dir.filePath(QStringLiteral("chart.pdf"));
        QVERIFY2(m.monitor.savePdf(pdf, &error), qPrintable(error));
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        QVERIFY(pdfFile.read(5) == "%PDF-");

        // A place that cannot be written: a clear error naming it, and nothing left behind.
        const QString bad = dir.filePath(QStringLiteral("missing/dir/out.csv"));
        QVERIFY(!m.monitor.saveCsv(bad, &error));
        QVERIFY2(error.contains(bad), qPrintable(error));
        QVERIFY(!QFile::exists(bad));
    }

    void paletteDrivesColours()
    {
        ShownMonitor m;
        QVERIFY(QTest::qWaitForWindowExposed(&m.monitor));
        QPalette dark = m.monitor.palette();
        dark.setColor(QPalette::Base, QColor(30, 30, 30));
        dark.setColor(QPalette::Text, QColor(230, 230, 230));
        m.monitor.setPalette(dark);
        QCustomPlot *tp = m.monitor.plot(JobMonitor::Throughput);
        QCOMPARE(tp->legend->brush().color(), QColor(30, 30, 30));
        QCOMPARE(tp->xAxis->tickLabelColor(), QColor(230, 230, 230));
        QCOMPARE(tp->legend->textColor(), QColor(230, 230, 230));
        // Series get lighter on a dark background.
        QVERIFY(tp->graph(0)->pen().color().lightness() > chartSeriesColor(0, QPalette(Qt::white)).lightness());
    }

    void statusRollsUp()
    {
        MetricStore::Config config;
        config.lag.minIntervalMs = kTickMs;
        config.lag.minSpanMs = 1000;
        MonitoredJob job(config);
        JobMonitor monitor(&job);
        QSignalSpy status(&job, &MonitoredJob::statusChanged);
        // Offsets move and every lag grows: Burrow's WARN once the window is old enough.
        feed(job, 0, 30);
        QCOMPARE(monitor.status(), JobLagStatus::Warn);
        QCOMPARE(status.size(), 1);
        QCOMPARE(status.at(0).at(0).value<JobLagStatus>(), JobLagStatus::Warn);
        // Caught up: every lag 0 -> OK.
        MetricsSnapshot s = snapshot(30);
        s.totalLag = 0;
        for (PartitionMetrics &p : s.partitions) {
            p.lag = 0;
            p.nextOffset = p.endOffset;
        }
        job.addSnapshot(s);
        QCOMPARE(monitor.status(), JobLagStatus::Ok);
        QCOMPARE(status.size(), 2);
    }

    void showsWhoOwnsEachPartitionAndVanishedRecords()
    {
        ShownMonitor m;
        QVERIFY(QTest::qWaitForWindowExposed(&m.monitor));
        QAbstractItemModelTester modelTester(m.monitor.partitionModel(),
                                             QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester proxyTester(m.monitor.partitionProxy(),
                                             QAbstractItemModelTester::FailureReportingMode::Fatal);
        QVERIFY(!m.monitor.ownersSampler()); // no job, no group to describe
        m.monitor.setCurrentChart(JobMonitor::Partitions);
        for (int i = 0; i < 8; ++i) {
            MetricsSnapshot s = snapshot(i, 4);
            s.memberId = QStringLiteral("m-self");
            m.job.addSnapshot(s);
        }
        m.monitor.redraw();
        QVERIFY(!m.monitor.summaryText().contains(QStringLiteral("vanished")));
        QVERIFY(!m.monitor.summaryText().contains(QStringLiteral("shared")));

        // The group's description: this window owns orders 0-3, another instance 4 and 5.
        ConsumerGroupInfo group;
        GroupMember self;
        self.memberId = QStringLiteral("m-self");
        for (int p = 0; p < 4; ++p)
            self.assignment.append({QStringLiteral("orders"), p});
        GroupMember other;
        other.memberId = QStringLiteral("m-other");
        other.groupInstanceId = QStringLiteral("host-b-orders");
        other.assignment = {{QStringLiteral("orders"), 4}, {QStringLiteral("orders"), 5}};
        group.members = {other, self};
        MetricsSnapshot offsets;
        PartitionMetrics p4;
        p4.topic = QStringLiteral("orders");
        p4.partition = 4;
        p4.committedOffset = 700;
        p4.endOffset = 750;
        p4.lag = 50;
        offsets.partitions = {p4};
        m.monitor.setGroupMembers(group, offsets);

        PartitionTableModel *model = m.monitor.partitionModel();
        QCOMPARE(model->rowCount(), 6);
        const auto owner = [model](int partition) {
            return model->index(model->rowOf({QStringLiteral("orders"), partition}), PartitionTableModel::OwnerColumn)
                .data()
                .toString();
        };
        QCOMPARE(owner(0), QStringLiteral("this window"));
        QCOMPARE(owner(3), QStringLiteral("this window"));
        QCOMPARE(owner(4), QStringLiteral("host-b-orders"));
        QCOMPARE(owner(5), QStringLiteral("host-b-orders"));
        QCOMPARE(
            model->index(model->rowOf({QStringLiteral("orders"), 4}), PartitionTableModel::LagColumn).data().toString(),
            QStringLiteral("50"));
        QCOMPARE(m.monitor.otherMemberCount(), 1);
        QVERIFY2(m.monitor.summaryText().contains(QStringLiteral("shared with 1 other member")),
                 qPrintable(m.monitor.summaryText()));
        // This window's table updates keep the other member's rows.
        m.job.addSnapshot(snapshot(8, 4));
        m.monitor.redraw();
        QCOMPARE(model->rowCount(), 6);

        // Records vanished before they were copied: the status says so.
        MetricsSnapshot s = snapshot(9, 4);
        s.memberId = QStringLiteral("m-self");
        s.partitions[1].vanishedRecords = 1234;
        s.vanishedRecords = 1234;
        m.job.addSnapshot(s);
        m.monitor.redraw();
        QVERIFY2(m.monitor.summaryText().contains(QStringLiteral("records vanished")),
                 qPrintable(m.monitor.summaryText()));
        QVERIFY2(m.monitor.summaryText().contains(formatCount(1234)), qPrintable(m.monitor.summaryText()));
    }

    void headerNamesAnExactlyOnceJob()
    {
        MirrorJobSpec spec;
        spec.name = QStringLiteral("eos");
        spec.source.bootstrap = QStringLiteral("127.0.0.1:1");
        spec.target.bootstrap = QStringLiteral("127.0.0.1:1");
        spec.include = {QStringLiteral("orders")};
        ShownMonitor atLeastOnce(new MirrorJob(spec));
        spec.delivery = DeliveryGuarantee::ExactlyOnce;
        ShownMonitor exactlyOnce(new MirrorJob(spec));
        for (ShownMonitor *m : {&atLeastOnce, &exactlyOnce}) {
            m->job.addSnapshot(snapshot(1, 2));
            m->monitor.redraw();
        }
        QVERIFY2(!atLeastOnce.monitor.summaryText().contains(QStringLiteral("once")),
                 qPrintable(atLeastOnce.monitor.summaryText()));
        QVERIFY2(exactlyOnce.monitor.summaryText().contains(QStringLiteral("\u2022 exactly-once")),
                 qPrintable(exactlyOnce.monitor.summaryText()));
    }

    void controlsDriveTheJob()
    {
        // A real job against a bootstrap where nothing listens: it starts, never connects, and
        // must still obey the monitor's buttons.
        MirrorJobSpec spec;
        spec.name = QStringLiteral("unreachable");
        spec.source.alias = QStringLiteral("src");
        spec.source.bootstrap = QStringLiteral("127.0.0.1:1");
        spec.target.alias = QStringLiteral("dst");
        spec.target.bootstrap = QStringLiteral("127.0.0.1:1");
        spec.include = {QStringLiteral("orders")};
        spec.throttleBytesPerSecond = 3'000'000;
        ShownMonitor m(new MirrorJob(spec));
        MirrorJob &job = *m.job.job();
        // A shown job monitor asks the job's group who owns the partitions; hidden, it stops.
        QVERIFY(m.monitor.ownersSampler());
        QCOMPARE(m.monitor.ownersSampler()->groupId(), consumerGroupId(spec));
        QVERIFY(m.monitor.ownersSampler()->isRunning());
        m.monitor.hide();
        QVERIFY(!m.monitor.ownersSampler()->isRunning());
        m.monitor.show();
        QVERIFY(m.monitor.ownersSampler()->isRunning());
        QCOMPARE(m.monitor.throttleBox()->value(), 3.0);
        QVERIFY(!m.monitor.stopButton()->isEnabled()); // not started

        m.monitor.throttleBox()->setValue(2.5);
        QCOMPARE(job.spec().throttleBytesPerSecond, 2'500'000);
        m.monitor.throttleBox()->setValue(0);
        QCOMPARE(job.spec().throttleBytesPerSecond, 0);

        QSignalSpy finished(&job, &MirrorJob::finished);
        QSignalSpy samples(&job, &MirrorJob::metricsSampled);
        job.start();
        QTRY_VERIFY_WITH_TIMEOUT(m.monitor.stopButton()->isEnabled(), 5000);
        // Its snapshots reach the store the monitor draws, through its MonitoredJob.
        QTRY_VERIFY_WITH_TIMEOUT(m.monitor.store().sampleCount() > 0, 10000);
        QCOMPARE(m.monitor.store().sampleCount(), samples.size());
        m.monitor.stopButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QTRY_VERIFY(!m.monitor.stopButton()->isEnabled());
        QVERIFY(!m.monitor.pauseButton()->isEnabled());
    }
};

QTEST_MAIN(TestJobMonitor)
#include "tst_jobmonitor.moc"
