#include "ui/charts/ChartPanel.h"

#include <QDateTime>
#include <QEvent>
#include <QFontMetrics>
#include <QMap>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QTextStream>
#include <QToolTip>
#include <QVBoxLayout>

#include "ui/charts/QCustomPlotInclude.h"

#include <algorithm>
#include <cmath>

namespace md {

namespace {

double toKey(qint64 ms)
{
    return double(ms) / 1000.0;
}

qint64 toMs(double key)
{
    return qint64(std::llround(key * 1000.0));
}

QString csvNumber(double v)
{
    return std::isfinite(v) ? QString::number(v, 'g', 12) : QString();
}

} // namespace

QColor chartSeriesColor(int index, const QPalette &palette)
{
    // Mid-saturation hues: lighter on dark backgrounds, darker on light ones.
    static const QList<QColor> base{QColor(31, 119, 180), QColor(230, 85, 13), QColor(44, 160, 44),
                                    QColor(148, 103, 189), QColor(214, 39, 40)};
    QColor c = base.at(index % base.size());
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    return dark ? c.lighter(150) : c;
}

MonitorChart::MonitorChart(const MetricStore *store, QWidget *parent)
    : QWidget(parent), m_store(store), m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setMinimumSize(200, 120);

    auto ticker = QSharedPointer<QCPAxisTickerDateTime>::create();
    ticker->setDateTimeFormat(QStringLiteral("HH:mm:ss"));
    m_plot->xAxis->setTicker(ticker);
    fitTimeTicks();
    // Time only: zooming a value axis by hand on a live chart is never what the user wants.
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->setNoAntialiasingOnDrag(true);

    connect(m_plot, &QCustomPlot::afterReplot, this, [this] { ++m_replots; });
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent *e) {
        if (pressNavigates(e))
            Q_EMIT userNavigated();
    });
    connect(m_plot, &QCustomPlot::mouseWheel, this, [this] { Q_EMIT userNavigated(); });
    connect(m_plot->xAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, [this] {
        if (!m_settingRange)
            Q_EMIT viewChangedByUser();
    });
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent *e) {
        const QString text = hoverText(e->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(e->globalPosition().toPoint(), text, m_plot);
    });
}

MonitorChart::~MonitorChart() = default;

qint64 MonitorChart::viewFromMs() const
{
    return toMs(m_plot->xAxis->range().lower);
}

qint64 MonitorChart::viewToMs() const
{
    return toMs(m_plot->xAxis->range().upper);
}

void MonitorChart::setTimeRange(qint64 fromMs, qint64 toMs)
{
    m_settingRange = true;
    m_plot->xAxis->setRange(toKey(fromMs), toKey(std::max(toMs, fromMs + 1000)));
    m_settingRange = false;
}

int MonitorChart::pointBudget() const
{
    const int w = m_plot->axisRect()->width();
    return w > 10 ? w : 800;
}

bool MonitorChart::pressNavigates(const QMouseEvent *event) const
{
    return m_plot->axisRect()->rect().contains(event->pos());
}

void MonitorChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        applyPalette();
        m_plot->replot();
    }
}

void MonitorChart::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitTimeTicks();
}

void MonitorChart::fitTimeTicks()
{
    // QCustomPlot's default of 5 ticks overlaps "HH:mm:ss" labels below ~450 px; the
    // date-time ticker may round the step down to a nicer one, hence two label widths a tick.
    const int labelWidth =
        QFontMetrics(m_plot->xAxis->tickLabelFont()).horizontalAdvance(QStringLiteral("00:00:00")) + 8;
    const int axisWidth = width() - 120; // the value axes' labels and margins
    m_plot->xAxis->ticker()->setTickCount(std::clamp(axisWidth / (2 * labelWidth), 2, 8));
}

void MonitorChart::applyPalette()
{
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::Text);
    QColor grid = pal.color(QPalette::Mid);
    grid.setAlpha(110);
    m_plot->setBackground(pal.brush(QPalette::Base));
    for (QCPAxis *axis : m_plot->axisRect()->axes()) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(grid, 0, Qt::DotLine));
        axis->grid()->setZeroLinePen(QPen(grid));
    }
    m_plot->legend->setBrush(pal.brush(QPalette::Base));
    m_plot->legend->setTextColor(text);
    m_plot->legend->setBorderPen(QPen(pal.color(QPalette::Mid)));
}

ChartPanel::ChartPanel(const MetricStore *store, const QString &leftLabel, QWidget *parent)
    : MonitorChart(store, parent), m_tracer(new QCPItemTracer(m_plot))
{
    m_plot->yAxis->setLabel(leftLabel);
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    m_tracer->setStyle(QCPItemTracer::tsCircle);
    m_tracer->setSize(7);
    m_tracer->setInterpolating(false);
    m_tracer->setVisible(false);
    applyPalette();
}

ChartPanel::~ChartPanel() = default;

void ChartPanel::addSeries(MetricStore::Series series, const QString &label, double scale, bool rightAxis,
                           Qt::PenStyle style)
{
    m_lines.append({series, label, scale, rightAxis, style});
    QCPAxis *valueAxis = rightAxis ? m_plot->yAxis2 : m_plot->yAxis;
    if (rightAxis)
        m_plot->yAxis2->setVisible(true);
    QCPGraph *graph = m_plot->addGraph(m_plot->xAxis, valueAxis);
    graph->setName(label);
    graph->setAdaptiveSampling(true);
    applyPalette();
}

void ChartPanel::setRightAxisLabel(const QString &label)
{
    m_plot->yAxis2->setLabel(label);
}

void ChartPanel::applyPalette()
{
    MonitorChart::applyPalette();
    // Width 1: the raster engine strokes pens up to 1 px with its fast cosmetic stroker;
    // wider ones (and their dashes) go through QStroker and an antialiased polygon fill,
    // which under a full-speed job (rates zig-zag over the whole height every sample) made
    // the throughput chart's replot cost 4-7 times as much (tests/bench/bench_monitor_live).
    for (int i = 0; i < m_plot->graphCount() && i < m_lines.size(); ++i)
        m_plot->graph(i)->setPen(QPen(chartSeriesColor(i, palette()), 1.0, m_lines.at(i).style));
    if (m_tracer) {
        m_tracer->setPen(QPen(palette().color(QPalette::Text)));
        m_tracer->setBrush(palette().brush(QPalette::Highlight));
    }
}

void ChartPanel::refresh(qint64 fromMs, qint64 toMs)
{
    setTimeRange(fromMs, toMs);
    const int budget = pointBudget();
    bool anyLeft = false;
    bool anyRight = false;
    for (int i = 0; i < m_lines.size(); ++i) {
        const Line &line = m_lines.at(i);
        const QList<MetricStore::Point> points = m_store->series(line.series, fromMs, toMs, budget);
        QList<double> keys;
        QList<double> values;
        keys.reserve(points.size());
        values.reserve(points.size());
        for (const MetricStore::Point &p : points) {
            keys.append(toKey(p.timeMs));
            values.append(p.value * line.scale);
        }
        m_plot->graph(i)->setData(keys, values, true);
        (line.right ? anyRight : anyLeft) = true;
    }
    // Value axes follow the data of the window; zero stays in view so rates are not exaggerated.
    const auto fit = [this](QCPAxis *axis) {
        bool found = false;
        QCPRange range(0, 1);
        for (int i = 0; i < m_plot->graphCount(); ++i) {
            QCPGraph *g = m_plot->graph(i);
            if (g->valueAxis() != axis)
                continue;
            bool ok = false;
            const QCPRange r = g->getValueRange(ok, QCP::sdBoth, m_plot->xAxis->range());
            if (!ok)
                continue;
            range = found ? QCPRange(std::min(range.lower, r.lower), std::max(range.upper, r.upper)) : r;
            found = true;
        }
        range.lower = std::min(range.lower, 0.0);
        if (range.upper <= range.lower)
            range.upper = range.lower + 1;
        axis->setRange(range.lower, range.upper + (range.upper - range.lower) * 0.08);
    };
    if (anyLeft)
        fit(m_plot->yAxis);
    if (anyRight)
        fit(m_plot->yAxis2);
    m_plot->replot();
}

void ChartPanel::writeCsv(QTextStream &out, qint64 fromMs, qint64 toMs) const
{
    // All series of a job share the store's timestamps; a map keeps them aligned anyway.
    QMap<qint64, QList<double>> rows;
    for (int i = 0; i < m_lines.size(); ++i) {
        const Line &line = m_lines.at(i);
        const QList<MetricStore::Point> points = m_store->series(line.series, fromMs, toMs, 0);
        for (const MetricStore::Point &p : points) {
            QList<double> &row = rows[p.timeMs];
            if (row.isEmpty())
                row.fill(std::numeric_limits<double>::quiet_NaN(), m_lines.size());
            row[i] = p.value * line.scale;
        }
    }
    out << "time_ms,time_utc";
    for (const Line &line : m_lines)
        out << ',' << '"' << QString(line.label).replace(QLatin1Char('"'), QLatin1String("\"\"")) << '"';
    out << '\n';
    for (auto it = rows.cbegin(); it != rows.cend(); ++it) {
        out << it.key() << ',' << QDateTime::fromMSecsSinceEpoch(it.key(), Qt::UTC).toString(Qt::ISODateWithMs);
        for (double v : it.value())
            out << ',' << csvNumber(v);
        out << '\n';
    }
}

QString ChartPanel::hoverText(const QPoint &pos)
{
    if (!m_plot->axisRect()->rect().contains(pos) || m_plot->graphCount() == 0) {
        if (m_tracer->visible()) {
            m_tracer->setVisible(false);
            m_plot->replot(QCustomPlot::rpQueuedReplot);
        }
        return {};
    }
    const double x = m_plot->xAxis->pixelToCoord(pos.x());
    QString text;
    double nearestKey = std::numeric_limits<double>::quiet_NaN();
    for (int i = 0; i < m_plot->graphCount(); ++i) {
        QCPGraph *g = m_plot->graph(i);
        const auto data = g->data();
        if (data->isEmpty())
            continue;
        auto it = data->findBegin(x, false);
        if (it == data->constEnd())
            --it;
        if (it != data->constBegin() && std::abs((it - 1)->key - x) < std::abs(it->key - x))
            --it;
        if (std::isnan(nearestKey)) {
            nearestKey = it->key;
            m_tracer->setGraph(g);
            m_tracer->setGraphKey(it->key);
        }
        text += QLatin1Char('\n') + g->name() + QStringLiteral(": ") +
                (std::isfinite(it->value) ? QString::number(it->value, 'f', it->value < 100 ? 2 : 0)
                                          : QStringLiteral("n/a"));
    }
    if (std::isnan(nearestKey))
        return {};
    m_tracer->setVisible(true);
    // Queued: a burst of mouse moves costs one repaint.
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    return QDateTime::fromMSecsSinceEpoch(toMs(nearestKey)).toString(QStringLiteral("HH:mm:ss.zzz")) + text;
}

} // namespace md
