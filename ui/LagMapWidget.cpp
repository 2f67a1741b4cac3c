#include "LagMapWidget.h"

#include <QDateTime>
#include <QFontMetrics>
#include <QMap>
#include <QTextStream>

#include "QCustomPlotInclude.h"

#include <cmath>

namespace md {

namespace {

QString rowLabel(const PartitionKey &key)
{
    return key.topic + QLatin1Char('[') + QString::number(key.partition) + QLatin1Char(']');
}

} // namespace

LagMapWidget::LagMapWidget(const MetricStore *store, QWidget *parent)
    : MonitorChart(store, parent), m_map(new QCPColorMap(m_plot->xAxis, m_plot->yAxis)),
      m_scale(new QCPColorScale(m_plot))
{
    m_plot->plotLayout()->addElement(0, 1, m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_scale->axis()->setLabel(tr("lag (records)"));
    m_map->setColorScale(m_scale);
    QCPColorGradient gradient(QCPColorGradient::gpThermal);
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    m_map->setGradient(gradient);
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false);
    auto margins = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_plot->yAxis->setRangeReversed(true); // first partition on top, like the table
    applyPalette();
    m_scale->axis()->setTickLabelColor(palette().color(QPalette::Text));
    m_scale->axis()->setLabelColor(palette().color(QPalette::Text));
    // Room for five labelled rows; more partitions share the height and label fewer rows.
    setMinimumHeight(std::max(100, 5 * (fontMetrics().height() + 2)));
}

LagMapWidget::~LagMapWidget() = default;

int LagMapWidget::labelStep(int rows) const
{
    if (rows <= 0)
        return 1;
    // The rows' height: the plot's axis rect once laid out, else the widget minus the axes.
    int height = m_plot->axisRect()->height();
    if (height <= 0)
        height = std::max(1, m_plot->height() - 40);
    const int lineHeight = QFontMetrics(m_plot->yAxis->tickLabelFont()).height() + 2;
    const double rowHeight = double(height) / rows;
    return std::max(1, int(std::ceil(lineHeight / std::max(rowHeight, 0.01))));
}

void LagMapWidget::resizeEvent(QResizeEvent *event)
{
    MonitorChart::resizeEvent(event);
    if (isVisible() && !m_rows.isEmpty() && labelStep(int(m_rows.size())) != m_labelStep)
        refresh(m_fromMs, m_toMs); // labels follow the new height
}

void LagMapWidget::refresh(qint64 fromMs, qint64 toMs)
{
    m_fromMs = fromMs;
    m_toMs = toMs;
    setTimeRange(fromMs, toMs);
    m_rows = m_store->partitionsWithHistory();
    if (m_rows.size() > maxRows)
        m_rows.resize(maxRows);
    const int ny = int(m_rows.size());
    // Two pixels a column: finer than the eye needs, and it halves the queries' merging.
    const int nx = std::max(2, pointBudget() / 2);
    const double fromS = double(fromMs) / 1000.0;
    const double toS = double(std::max(toMs, fromMs + 1000)) / 1000.0;
    QCPColorMapData *data = m_map->data();
    if (ny == 0) {
        data->clear();
        m_plot->replot();
        return;
    }
    data->setSize(nx, ny);
    data->setRange(QCPRange(fromS, toS), QCPRange(0, std::max(1, ny - 1)));
    data->fill(std::numeric_limits<double>::quiet_NaN());
    double maxLag = 0;
    for (int row = 0; row < ny; ++row) {
        const QList<MetricStore::Point> points = m_store->partitionLagSeries(m_rows.at(row), fromMs, toMs, nx);
        for (const MetricStore::Point &p : points) {
            if (!std::isfinite(p.value))
                continue;
            const int col = int(std::lround((double(p.timeMs) / 1000.0 - fromS) / (toS - fromS) * (nx - 1)));
            if (col < 0 || col >= nx)
                continue;
            const double old = data->cell(col, row);
            if (std::isnan(old) || p.value > old)
                data->setCell(col, row, p.value);
            maxLag = std::max(maxLag, p.value);
        }
    }
    m_map->setDataRange(QCPRange(0, maxLag > 0 ? maxLag : 1));

    // Labels only where they fit: every step-th row gets one, elided to a readable width;
    // the hover text names every cell.
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    m_labelStep = labelStep(ny);
    const QFontMetrics metrics(m_plot->yAxis->tickLabelFont());
    const int labelWidth = std::max(60, width() / 4);
    for (int row = 0; row < ny; row += m_labelStep)
        ticker->addTick(row, metrics.elidedText(rowLabel(m_rows.at(row)), Qt::ElideMiddle, labelWidth));
    m_plot->yAxis->setTicker(ticker);
    m_plot->yAxis->setRange(-0.5, ny - 0.5);
    m_plot->replot();
}

void LagMapWidget::writeCsv(QTextStream &out, qint64 fromMs, qint64 toMs) const
{
    QList<PartitionKey> keys = m_store->partitionsWithHistory();
    QMap<qint64, QList<double>> rows;
    for (int i = 0; i < keys.size(); ++i) {
        for (const MetricStore::Point &p : m_store->partitionLagSeries(keys.at(i), fromMs, toMs, 0)) {
            QList<double> &row = rows[p.timeMs];
            if (row.isEmpty())
                row.fill(std::numeric_limits<double>::quiet_NaN(), keys.size());
            row[i] = p.value;
        }
    }
    out << "time_ms,time_utc";
    for (const PartitionKey &k : keys)
        out << ",\"" << QString(rowLabel(k)).replace(QLatin1Char('"'), QLatin1String("\"\"")) << '"';
    out << '\n';
    for (auto it = rows.cbegin(); it != rows.cend(); ++it) {
        out << it.key() << ',' << QDateTime::fromMSecsSinceEpoch(it.key(), Qt::UTC).toString(Qt::ISODateWithMs);
        for (double v : it.value())
            out << ',' << (std::isfinite(v) ? QString::number(v, 'g', 15) : QString());
        out << '\n';
    }
}

QString LagMapWidget::hoverText(const QPoint &pos)
{
    if (!m_plot->axisRect()->rect().contains(pos) || m_rows.isEmpty())
        return {};
    const double key = m_plot->xAxis->pixelToCoord(pos.x());
    const int row = int(std::lround(m_plot->yAxis->pixelToCoord(pos.y())));
    if (row < 0 || row >= m_rows.size())
        return {};
    int col = 0;
    int unused = 0;
    QCPColorMapData *data = m_map->data();
    data->coordToCell(key, row, &col, &unused);
    if (col < 0 || col >= data->keySize())
        return {};
    const double lag = data->cell(col, row);
    return rowLabel(m_rows.at(row)) + QLatin1Char('\n') +
           QDateTime::fromMSecsSinceEpoch(qint64(key * 1000.0)).toString(QStringLiteral("HH:mm:ss")) +
           QLatin1Char('\n') + (std::isfinite(lag) ? tr("lag %1").arg(qint64(lag)) : tr("no data"));
}

} // namespace md
