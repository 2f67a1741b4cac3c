// The lag map with 1,000 partitions over five topics (no Kafka, synthetic snapshots): one
// row each, grouped by topic with lines between topics, labels that never overlap at any
// height, zoom and scroll of the rows, the hover text, a click that selects the partition in
// the monitor's table, a dark palette that stays readable, and what a refresh costs.
#include "model/tables/NumberFormat.h"
#include "model/tables/PartitionTableModel.h"
#include "ui/charts/LagMapLayout.h"
#include "ui/charts/LagMapWidget.h"
#include "ui/job/JobMonitor.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>
#include <QVBoxLayout>
#include <QWheelEvent>

#include "ui/charts/QCustomPlotInclude.h"

#include <algorithm>
#include <cmath>

using namespace md;

namespace {

const qint64 kBaseMs = QDateTime(QDate(2026, 11, 1), QTime(12, 0), Qt::UTC).toMSecsSinceEpoch();
constexpr qint64 kTickMs = 250;
constexpr int kTicks = 1200; // 5 minutes, the monitor's default window
constexpr int kHotRow = 777; // one tick of a huge lag, the spike the overview must keep
constexpr int kHotTick = 600;
constexpr double kHotLag = 5e6;

struct Topic {
    const char *name;
    int partitions;
};
const Topic kTopics[] = {{"alpha", 1}, {"billing", 9}, {"clicks", 490}, {"orders", 300}, {"payments", 200}};

// Every partition's lag is its own: the row index shows in it.
double lagOf(int row, int tick)
{
    return 1000.0 + row * 37.0 + tick + (row == kHotRow && tick == kHotTick ? kHotLag : 0);
}

QList<PartitionKey> allKeys(int extra = 0)
{
    QList<PartitionKey> keys;
    for (const Topic &t : kTopics)
        for (int p = 0; p < t.partitions; ++p)
            keys.append({QString::fromLatin1(t.name), p});
    for (int p = 0; p < extra; ++p)
        keys.append({QStringLiteral("zeta"), p});
    return keys;
}

MetricsSnapshot snapshot(const QList<PartitionKey> &keys, int tick)
{
    MetricsSnapshot s;
    s.jobName = QStringLiteral("job");
    s.time = QDateTime::fromMSecsSinceEpoch(kBaseMs + tick * kTickMs, Qt::UTC);
    s.elapsedMs = tick * kTickMs;
    s.state = JobState::Running;
    s.partitions.reserve(keys.size());
    for (int row = 0; row < keys.size(); ++row) {
        PartitionMetrics m;
        m.topic = keys.at(row).topic;
        m.targetTopic = m.topic;
        m.partition = keys.at(row).partition;
        m.endOffset = 1'000'000 + tick * 10;
        m.lag = qint64(lagOf(row, tick));
        m.nextOffset = m.endOffset - m.lag;
        m.committedOffset = m.nextOffset;
        s.totalLag += m.lag;
        s.partitions.append(m);
    }
    return s;
}

qint64 lastMs()
{
    return kBaseMs + (kTicks - 1) * kTickMs;
}

// WCAG contrast ratio of two colours (1 to 21).
double contrast(const QColor &a, const QColor &b)
{
    const auto luminance = [](const QColor &c) {
        const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
    p.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::ButtonText, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::Mid, QColor(0x55, 0x55, 0x55));
    return p;
}

// The y labels' rows and pixel positions, top to bottom.
QList<std::pair<int, double>> labelPixels(LagMapWidget &map)
{
    QList<std::pair<int, double>> out;
    auto ticker = map.plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker)
        return out;
    for (auto it = ticker->ticks().cbegin(); it != ticker->ticks().cend(); ++it)
        out.append({int(it.key()), map.plot()->yAxis->coordToPixel(it.key())});
    std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
    return out;
}

QString labelAt(LagMapWidget &map, int row)
{
    auto ticker = map.plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    return ticker ? ticker->ticks().value(row) : QString();
}

// Labels at least a text line apart and all inside the rows shown; "" when so.
QString overlapProblem(LagMapWidget &map)
{
    const int line = QFontMetrics(map.plot()->yAxis->tickLabelFont()).height();
    const QList<std::pair<int, double>> labels = labelPixels(map);
    if (labels.isEmpty())
        return QStringLiteral("no labels");
    for (int i = 0; i < labels.size(); ++i) {
        const int row = labels.at(i).first;
        if (row < map.firstVisibleRow() || row >= map.firstVisibleRow() + map.visibleRowCount())
            return QStringLiteral("label of row %1 outside the rows shown").arg(row);
        if (i > 0 && labels.at(i).second - labels.at(i - 1).second < line)
            return QStringLiteral("rows %1 and %2 are %3 px apart, a line is %4 px")
                .arg(labels.at(i - 1).first)
                .arg(row)
                .arg(labels.at(i).second - labels.at(i - 1).second)
                .arg(line);
    }
    return {};
}

void sendWheel(QWidget *target, const QPoint &pos, int delta, Qt::KeyboardModifiers modifiers)
{
    QWheelEvent event(QPointF(pos), QPointF(target->mapToGlobal(pos)), QPoint(), QPoint(0, delta), Qt::NoButton,
                      modifiers, Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &event);
}

// The pixel of a row's centre in the newest column (the plot area's last pixel column).
QPoint cellPixel(LagMapWidget &map, int row)
{
    QCustomPlot *plot = map.plot();
    return QPoint(plot->axisRect()->rect().right(), int(std::lround(plot->yAxis->coordToPixel(row))));
}

} // namespace

class TestLagMap final : public QObject {
    Q_OBJECT

    MetricStore m_store;
    QList<PartitionKey> m_keys;

private Q_SLOTS:
    void initTestCase()
    {
        m_keys = allKeys();
        QCOMPARE(m_keys.size(), 1000);
        for (int tick = 0; tick < kTicks; ++tick)
            QVERIFY(m_store.addSnapshot(snapshot(m_keys, tick)));
        QCOMPARE(m_store.partitionsWithHistory().size(), 1000);
    }

    void labelLayoutRules()
    {
        const QList<PartitionKey> keys{{QStringLiteral("a"), 0}, {QStringLiteral("a"), 1}, {QStringLiteral("a"), 2},
                                       {QStringLiteral("b"), 0}, {QStringLiteral("b"), 1}, {QStringLiteral("c"), 7}};
        // Every row fits: all labelled, the topic named once per group.
        const QList<int> all = lagMapLabelRows(keys, 0, 6, 20, 15);
        QCOMPARE(all, QList<int>({0, 1, 2, 3, 4, 5}));
        QCOMPARE(lagMapLabelTexts(keys, all),
                 QStringList({QStringLiteral("a [0]"), QStringLiteral("[1]"), QStringLiteral("[2]"),
                              QStringLiteral("b [0]"), QStringLiteral("[1]"), QStringLiteral("c [7]")}));
        // Two rows a line: topic starts first, then what still fits.
        const QList<int> half = lagMapLabelRows(keys, 0, 6, 8, 15);
        QCOMPARE(half, QList<int>({0, 3, 5}));
        // Scrolled into a group: its first visible row names the topic.
        QCOMPARE(lagMapLabelTexts(keys, lagMapLabelRows(keys, 1, 5, 20, 15)).first(), QStringLiteral("a [1]"));
        QCOMPARE(lagMapTopicStarts(keys, 0, 6, 20, 4), QList<int>({3, 5}));
        QCOMPARE(lagMapTopicStarts(keys, 4, 2, 20, 4), QList<int>({5}));
        QCOMPARE(lagMapTopicStarts(keys, 0, 6, 1, 4), QList<int>({5})); // b's line 3 px from the top: skipped
    }

    void aThousandRowsGroupedByTopic()
    {
        LagMapWidget map(&m_store);
        map.resize(1300, 420);
        map.show();
        QVERIFY(QTest::qWaitForWindowExposed(&map));
        map.refresh(lastMs() - 5 * 60'000, lastMs());
        QCOMPARE(map.rows().size(), 1000);
        QVERIFY(map.rows() == m_keys); // (topic, partition) order
        QCOMPARE(map.visibleRowCount(), 1000);
        QCOMPARE(map.hiddenPartitions(), 0);
        QVERIFY(!map.overflowLabel()->isVisible());
        QVERIFY(!map.scrollBar()->isVisible()); // all rows shown

        // More rows than pixels: each pixel row keeps the largest lag of its rows, so the
        // one-tick spike of one partition is still in the picture.
        QCPColorMapData *data = map.colorMap()->data();
        QVERIFY(data->valueSize() <= map.plot()->axisRect()->height());
        double peak = 0;
        for (int c = 0; c < data->keySize(); ++c)
            for (int r = 0; r < data->valueSize(); ++r)
                if (std::isfinite(data->cell(c, r)))
                    peak = std::max(peak, data->cell(c, r));
        QCOMPARE(peak, lagOf(kHotRow, kHotTick));
        // Samples cover the whole window: downsampling leaves no empty (transparent) column,
        // whatever the width (here the plot's laid-out one: fewer columns than samples).
        map.refresh(lastMs() - 5 * 60'000, lastMs());
        data = map.colorMap()->data();
        QVERIFY(data->keySize() < kTicks / 2);
        for (int r = 0; r < data->valueSize(); ++r)
            for (int c = 0; c < data->keySize(); ++c)
                QVERIFY2(std::isfinite(data->cell(c, r)), qPrintable(QStringLiteral("cell %1,%2").arg(c).arg(r)));

        // Topic lines only at topic starts; those closer than a few pixels are left out.
        const QList<int> starts{1, 10, 500, 800};
        QVERIFY(!map.separatorRows().isEmpty());
        for (int row : map.separatorRows())
            QVERIFY2(starts.contains(row), qPrintable(QString::number(row)));
        QVERIFY(map.separatorRows().contains(500));
        QVERIFY(map.separatorRows().contains(800));
        // Zoomed on the small topics, every line shows and every row is labelled.
        map.setVisibleRows(0, 15);
        QCOMPARE(map.separatorRows(), QList<int>({1, 10}));
        QCOMPARE(map.labelRows().size(), 15);
        QCOMPARE(labelAt(map, 0), QStringLiteral("alpha [0]"));
        QCOMPARE(labelAt(map, 1), QStringLiteral("billing [0]"));
        QCOMPARE(labelAt(map, 2), QStringLiteral("[1]"));
        QCOMPARE(labelAt(map, 10), QStringLiteral("clicks [0]"));
        // Less room: a topic's first label still names it, wherever it falls.
        map.setVisibleRows(0, 40);
        QVERIFY(labelAt(map, 1).isEmpty()); // too close to alpha's
        QVERIFY(labelAt(map, 2) == QStringLiteral("billing [1]") || labelAt(map, 3) == QStringLiteral("billing [2]"));
    }

    void labelsNeverOverlap()
    {
        LagMapWidget map(&m_store);
        map.show();
        QVERIFY(QTest::qWaitForWindowExposed(&map));
        for (int height : {map.minimumHeight(), 250, 420, 700}) {
            map.resize(1300, height);
            QTest::qWait(1);
            map.refresh(lastMs() - 5 * 60'000, lastMs());
            const QString problem = overlapProblem(map);
            QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("height %1: %2").arg(height).arg(problem)));
            QVERIFY(map.currentLabelStep() > 1);
            QCOMPARE(map.currentLabelStep(), map.labelStep(1000));
            // Each topic labelled names itself on its first label, then numbers only.
            QString previous;
            for (const auto &[row, y] : labelPixels(map)) {
                const QString text = labelAt(map, row);
                const QString topic = m_keys.at(row).topic;
                if (topic != previous)
                    QVERIFY2(text.startsWith(topic + QStringLiteral(" [")), qPrintable(text));
                else
                    QCOMPARE(text, QStringLiteral("[%1]").arg(m_keys.at(row).partition));
                previous = topic;
            }
        }
    }

    void zoomAndScrollTheRows()
    {
        LagMapWidget map(&m_store);
        map.resize(1300, 420);
        map.show();
        QVERIFY(QTest::qWaitForWindowExposed(&map));
        map.refresh(lastMs() - 5 * 60'000, lastMs());
        QCustomPlot *plot = map.plot();
        const QRect area = plot->axisRect()->rect();
        const QPoint labels(area.left() - 10, area.center().y());
        const int fitStep = map.currentLabelStep();
        const QCPRange time = plot->xAxis->range();

        // Ctrl+wheel over the map zooms the rows around the mouse, not the time.
        sendWheel(plot, area.center(), 120 * 5, Qt::ControlModifier);
        QVERIFY2(map.visibleRowCount() < 1000 && map.visibleRowCount() > 100,
                 qPrintable(QString::number(map.visibleRowCount())));
        QVERIFY(map.firstVisibleRow() > 0);
        const int centre = map.firstVisibleRow() + map.visibleRowCount() / 2;
        QVERIFY2(std::abs(centre - 500) < 30, qPrintable(QString::number(centre)));
        QVERIFY(plot->xAxis->range() == time);
        QVERIFY(map.currentLabelStep() < fitStep); // labels re-thinned for fewer rows
        QVERIFY(map.scrollBar()->isVisible());
        QCOMPARE(map.scrollBar()->value(), map.firstVisibleRow());
        QCOMPARE(map.scrollBar()->pageStep(), map.visibleRowCount());
        QVERIFY2(overlapProblem(map).isEmpty(), qPrintable(overlapProblem(map)));
        QCOMPARE(plot->axisRect()->rect().left(), area.left()); // the labels' margin does not move

        // The wheel over the row labels zooms too; plain wheel over the map is the time axis's.
        const int before = map.visibleRowCount();
        sendWheel(plot, labels, 120 * 3, Qt::NoModifier);
        QVERIFY(map.visibleRowCount() < before);
        const int rows = map.visibleRowCount();
        sendWheel(plot, area.center(), 120, Qt::NoModifier);
        QCOMPARE(map.visibleRowCount(), rows);
        QVERIFY(plot->xAxis->range().size() < time.size());

        // Zooming in stops at rows about two lines tall, every one labelled.
        map.zoomRows(0.001, area.center().y());
        QCOMPARE(map.visibleRowCount(), map.minimumVisibleRows());
        const int line = QFontMetrics(plot->yAxis->tickLabelFont()).height();
        QVERIFY(double(area.height()) / map.visibleRowCount() <= 2.5 * line);
        QCOMPARE(map.currentLabelStep(), 1);
        QCOMPARE(labelPixels(map).size(), map.visibleRowCount());
        QVERIFY2(overlapProblem(map).isEmpty(), qPrintable(overlapProblem(map)));

        // The scroll bar moves through the rows; the labels follow.
        map.setVisibleRows(100, 100);
        map.scrollBar()->setValue(450);
        QCOMPARE(map.firstVisibleRow(), 450);
        QCOMPARE(plot->yAxis->range().lower, 449.5);
        QCOMPARE(labelPixels(map).first().first, 450);
        QCOMPARE(labelAt(map, 450), QStringLiteral("clicks [440]"));
        QVERIFY(map.separatorRows().contains(500));
        QVERIFY2(overlapProblem(map).isEmpty(), qPrintable(overlapProblem(map)));
        sendWheel(plot, area.center(), -120, Qt::ShiftModifier); // Shift+wheel scrolls down
        QCOMPARE(map.firstVisibleRow(), 460);
        map.scrollRows(10'000);
        QCOMPARE(map.firstVisibleRow(), 900); // the last page
        QCOMPARE(map.scrollBar()->value(), 900);

        // A refresh keeps the view; a double-click shows every row again.
        map.refresh(lastMs() - 5 * 60'000, lastMs());
        QCOMPARE(map.firstVisibleRow(), 900);
        QCOMPARE(map.visibleRowCount(), 100);
        QTest::mouseDClick(plot, Qt::LeftButton, Qt::NoModifier, area.center());
        QCOMPARE(map.visibleRowCount(), 1000);
        QCOMPARE(map.firstVisibleRow(), 0);
        QVERIFY(!map.scrollBar()->isVisible());
    }

    void hoverNamesTopicPartitionLagAndTime()
    {
        LagMapWidget map(&m_store);
        map.resize(1300, 420);
        map.show();
        QVERIFY(QTest::qWaitForWindowExposed(&map));
        // One minute: fewer samples than columns, so the newest column holds the newest lag.
        map.refresh(lastMs() - 60'000, lastMs());
        map.setVisibleRows(800, 30);
        map.refresh(lastMs() - 60'000, lastMs()); // columns for the width beside the scroll bar
        // 240 samples, more columns: each sample holds until the next, no empty column.
        QCPColorMapData *data = map.colorMap()->data();
        QVERIFY(data->keySize() > 240);
        for (int r = 0; r < data->valueSize(); ++r)
            for (int c = 0; c < data->keySize(); ++c)
                QVERIFY2(std::isfinite(data->cell(c, r)), qPrintable(QStringLiteral("cell %1,%2").arg(c).arg(r)));
        QCOMPARE(map.firstVisibleRow(), 800);
        const int row = 812; // payments [12]
        const QPoint pos = cellPixel(map, row);
        int r = -1;
        int c = -1;
        QVERIFY(map.cellAt(pos, &r, &c));
        QCOMPARE(r, row);
        QCOMPARE(c, map.colorMap()->data()->keySize() - 1);
        const QString text = map.hoverText(pos);
        QVERIFY2(text.contains(QStringLiteral("Topic: payments")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Partition: 12\n")), qPrintable(text));
        const QString lag = formatCount(lagOf(row, kTicks - 1)); // "31.2 k", as in the rest of the UI
        QVERIFY2(text.contains(QStringLiteral("Lag: %1 records").arg(lag)), qPrintable(text));
        const QString time = QDateTime::fromMSecsSinceEpoch(lastMs()).toString(QStringLiteral("HH:mm:ss"));
        QVERIFY2(text.contains(QStringLiteral("Time: ") + time), qPrintable(text));
        // Outside the cells: nothing.
        QVERIFY(map.hoverText(QPoint(2, 2)).isEmpty());
        // Fitted, a pixel covers several rows; the text names the row under the mouse's centre.
        map.fitAllRows();
        QVERIFY(map.cellAt(cellPixel(map, 500), &r, &c));
        QVERIFY(std::abs(r - 500) <= 2);
        QVERIFY(
            map.hoverText(cellPixel(map, 500)).contains(QStringLiteral("Partition: %1\n").arg(m_keys.at(r).partition)));
    }

    void aClickNamesThePartition()
    {
        LagMapWidget map(&m_store);
        map.resize(1300, 420);
        map.show();
        QVERIFY(QTest::qWaitForWindowExposed(&map));
        map.refresh(lastMs() - 5 * 60'000, lastMs());
        map.setVisibleRows(480, 40);
        QSignalSpy clicked(&map, &LagMapWidget::partitionClicked);
        QTest::mouseClick(map.plot(), Qt::LeftButton, Qt::NoModifier, cellPixel(map, 505)); // orders [5]
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(clicked.at(0).at(0).toString(), m_keys.at(505).topic);
        QCOMPARE(clicked.at(0).at(1).toInt(), m_keys.at(505).partition);
        QTest::mouseClick(map.plot(), Qt::LeftButton, Qt::NoModifier, QPoint(2, 2)); // not a cell
        QCOMPARE(clicked.size(), 1);
    }

    void aClickSelectsTheTableRow()
    {
        MonitoredJob job;
        JobMonitor monitor(&job);
        monitor.resize(1366, 768);
        monitor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&monitor));
        monitor.setWindowMs(60'000);
        monitor.setCurrentChart(JobMonitor::Partitions);
        for (int tick = 0; tick < 20; ++tick)
            job.addSnapshot(snapshot(m_keys, tick));
        monitor.redraw();
        auto *map = qobject_cast<LagMapWidget *>(monitor.chart(JobMonitor::Partitions));
        QVERIFY(map);
        QCOMPARE(map->rows().size(), 1000);
        QVERIFY2(overlapProblem(*map).isEmpty(), qPrintable(overlapProblem(*map)));
        auto *view = monitor.findChild<QTableView *>(QStringLiteral("partitions"));
        QVERIFY(view);
        QCOMPARE(monitor.partitionModel()->rowCount(), 1000);
        QVERIFY(monitor.followsLive());

        const auto currentKey = [&] {
            const QModelIndex index = monitor.partitionProxy()->mapToSource(view->currentIndex());
            return index.isValid() ? monitor.partitionModel()->keyAt(index.row()) : PartitionKey{};
        };
        map->setVisibleRows(880, 30);
        QTest::mouseClick(map->plot(), Qt::LeftButton, Qt::NoModifier, cellPixel(*map, 890));
        QVERIFY(currentKey() == m_keys.at(890));
        QVERIFY(view->selectionModel()->isRowSelected(view->currentIndex().row(), {}));
        QVERIFY(view->viewport()->rect().intersects(view->visualRect(view->currentIndex()))); // scrolled to it
        QVERIFY(monitor.followsLive()); // a click is not a navigation

        // Sorted by lag and filtered to another topic: the click still finds its row.
        monitor.partitionProxy()->sort(PartitionTableModel::LagColumn, Qt::DescendingOrder);
        auto *filter = monitor.findChild<QLineEdit *>(QStringLiteral("partitionFilter"));
        filter->setText(QStringLiteral("clicks"));
        map->setVisibleRows(0, 30);
        QTest::mouseClick(map->plot(), Qt::LeftButton, Qt::NoModifier, cellPixel(*map, 3));
        QVERIFY(currentKey() == (PartitionKey{QStringLiteral("billing"), 2}));
        QVERIFY(filter->text().isEmpty());
    }

    void tooManyPartitionsAreCounted()
    {
        MetricStore::Config config;
        config.maxPartitions = 1100;
        MetricStore store(config);
        const QList<PartitionKey> keys = allKeys(50);
        for (int tick = 0; tick < 8; ++tick)
            QVERIFY(store.addSnapshot(snapshot(keys, tick)));
        LagMapWidget map(&store);
        map.resize(1300, 420);
        map.show();
        QVERIFY(QTest::qWaitForWindowExposed(&map));
        map.refresh(kBaseMs, kBaseMs + 7 * kTickMs);
        QCOMPARE(map.rows().size(), LagMapWidget::maxRows);
        QCOMPARE(map.hiddenPartitions(), 50);
        QVERIFY(map.overflowLabel()->isVisible());
        QVERIFY2(map.overflowLabel()->text().contains(QStringLiteral("50 are not")),
                 qPrintable(map.overflowLabel()->text()));
    }

    void aDarkPaletteStaysReadable()
    {
        const QPalette original = QApplication::palette();
        QApplication::setPalette(darkPalette());
        QWidget window; // the charts are children of a window, as in a monitor
        auto *layout = new QVBoxLayout(&window);
        auto *mapWidget = new LagMapWidget(&m_store);
        auto *chartWidget = new ChartPanel(&m_store, QStringLiteral("records"));
        layout->addWidget(mapWidget);
        layout->addWidget(chartWidget);
        LagMapWidget &map = *mapWidget;
        ChartPanel &chart = *chartWidget;
        window.resize(1300, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        map.refresh(lastMs() - 60'000, lastMs());
        // What the plot paints behind everything: its top left corner.
        const auto backgroundOf = [](MonitorChart &c) { return c.plot()->toPixmap().toImage().pixelColor(1, 1); };
        const auto check = [&](MonitorChart &c, const char *what) {
            QCustomPlot *plot = c.plot();
            const QColor background = backgroundOf(c);
            QVERIFY2(background.lightness() < 80, what);
            for (QCPAxis *axis : {plot->xAxis, plot->yAxis}) {
                QVERIFY2(contrast(axis->tickLabelColor(), background) >= 7, what);
                QVERIFY2(contrast(axis->labelColor(), background) >= 7, what);
                QVERIFY2(contrast(axis->basePen().color(), background) >= 4.5, what);
            }
        };
        check(map, "lag map");
        check(chart, "chart");
        const QColor background = backgroundOf(map);
        auto *scale = qobject_cast<QCPColorScale *>(map.plot()->plotLayout()->element(0, 1));
        QVERIFY(scale);
        QVERIFY(contrast(scale->axis()->tickLabelColor(), background) >= 7);
        QVERIFY(contrast(scale->axis()->labelColor(), background) >= 7);
        // The topic lines: drawn in the text colour, readable on the background.
        map.setVisibleRows(0, 40);
        QVERIFY(!map.separatorRows().isEmpty());
        const QImage image = map.plot()->toPixmap().toImage();
        const int y = int(std::lround(map.plot()->yAxis->coordToPixel(0.5)));
        const int x = map.plot()->axisRect()->rect().center().x();
        // A light pixel on the line, in a picture whose background is dark.
        bool lineSeen = false;
        for (int dy = -1; dy <= 1; ++dy)
            lineSeen = lineSeen || contrast(image.pixelColor(x, y + dy), background) >= 4.5;
        QVERIFY(lineSeen);

        // A palette change while shown: the colours follow. (The window's own palette: an
        // application palette set here did not reach the shown widgets in this test.)
        QApplication::setPalette(original);
        window.setPalette(original);
        QVERIFY(backgroundOf(map).lightness() > 170);
        QVERIFY(contrast(map.plot()->yAxis->tickLabelColor(), backgroundOf(map)) >= 7);
        QCOMPARE(map.plot()->yAxis->tickLabelColor(), original.color(QPalette::Text));
        QCOMPARE(scale->axis()->tickLabelColor(), original.color(QPalette::Text));
        QCOMPARE(chart.plot()->xAxis->tickLabelColor(), original.color(QPalette::Text));
    }

    void refreshCost()
    {
        // The monitor refreshes the shown chart every 250 ms to 1 s: 1,000 rows of 5 minutes.
        LagMapWidget map(&m_store);
        map.resize(1300, 420);
        map.show();
        QVERIFY(QTest::qWaitForWindowExposed(&map));
        QList<qint64> refreshUs;
        QList<qint64> scrollUs;
        for (int i = 0; i < 7; ++i) {
            QElapsedTimer timer;
            timer.start();
            map.refresh(lastMs() - 5 * 60'000, lastMs());
            refreshUs.append(timer.nsecsElapsed() / 1000);
            timer.restart();
            map.setVisibleRows(i * 100, 200);
            scrollUs.append(timer.nsecsElapsed() / 1000);
            map.fitAllRows();
        }
        QElapsedTimer queries;
        queries.start();
        qsizetype points = 0;
        for (const PartitionKey &key : std::as_const(m_keys))
            points += m_store.partitionLagSeries(key, lastMs() - 5 * 60'000, lastMs(), 0).size();
        qInfo("the store's queries alone (unmerged, %lld points): %lld us", qint64(points),
              queries.nsecsElapsed() / 1000);
        queries.restart();
        const int columns = map.colorMap()->data()->keySize();
        for (const PartitionKey &key : std::as_const(m_keys))
            points += m_store.partitionLagSeries(key, lastMs() - 5 * 60'000, lastMs(), 2 * columns).size();
        qInfo("the store's queries as the map asks them (%d points a row): %lld us", 2 * columns,
              queries.nsecsElapsed() / 1000);
        std::sort(refreshUs.begin(), refreshUs.end());
        std::sort(scrollUs.begin(), scrollUs.end());
        qInfo(
            "refresh, 1000 partitions x 5 min (%lld columns): median %lld us, max %lld us; zoom/scroll median %lld us",
            qint64(map.colorMap()->data()->keySize()), refreshUs.at(3), refreshUs.last(), scrollUs.at(3));
        // Loose: it must stay well under the fastest refresh interval even on a loaded machine.
        QVERIFY2(refreshUs.at(3) < 250'000, qPrintable(QString::number(refreshUs.at(3))));
    }
};

QTEST_MAIN(TestLagMap)
#include "tst_lagmap.moc"
