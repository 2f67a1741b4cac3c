#include "ui/charts/LagMapWidget.h"

#include "model/tables/NumberFormat.h"
#include "ui/charts/LagMapLayout.h"

#include <QApplication>
#include <QDateTime>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QMap>
#include <QScrollBar>
#include <QTextStream>
#include <QTimer>
#include <QVBoxLayout>
#include <QWheelEvent>

#include "ui/charts/QCustomPlotInclude.h"

#include <cmath>

namespace md {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kSeparatorGapPx = 4; // closer topic lines would paint a solid block
constexpr double kZoomPerNotch = 0.8; // visible rows kept per wheel notch zooming in

QString rowLabel(const PartitionKey &key)
{
    return key.topic + QLatin1Char('[') + QString::number(key.partition) + QLatin1Char(']');
}

} // namespace

// The lines between topics, drawn over the cells in the axis rect. A layerable rather than
// one item per line: a thousand single-partition topics would be a thousand items.
class LagMapSeparators final : public QCPLayerable {
public:
    explicit LagMapSeparators(QCustomPlot *plot) : QCPLayerable(plot) {}

    void setRows(QList<int> rows) { m_rows = std::move(rows); }
    const QList<int> &rows() const { return m_rows; }
    void setPen(const QPen &pen) { m_pen = pen; }
    QPen pen() const { return m_pen; }

protected:
    QRect clipRect() const override { return mParentPlot->axisRect()->rect(); }
    void applyDefaultAntialiasingHint(QCPPainter *painter) const override { painter->setAntialiasing(false); }
    void draw(QCPPainter *painter) override
    {
        const QRect area = mParentPlot->axisRect()->rect();
        painter->setPen(m_pen);
        for (int row : std::as_const(m_rows)) {
            const double y = mParentPlot->yAxis->coordToPixel(row - 0.5);
            painter->drawLine(QLineF(area.left(), y, area.right(), y));
        }
    }

private:
    QList<int> m_rows;
    QPen m_pen;
};

LagMapWidget::LagMapWidget(const MetricStore *store, QWidget *parent)
    : MonitorChart(store, parent), m_map(new QCPColorMap(m_plot->xAxis, m_plot->yAxis)),
      m_scale(new QCPColorScale(m_plot)), m_separators(new LagMapSeparators(m_plot)),
      m_scroll(new QScrollBar(Qt::Vertical, this)), m_overflow(new QLabel(this))
{
    // The plot, its row scroll bar beside it, and the count of rows not shown below.
    auto *column = static_cast<QVBoxLayout *>(layout());
    column->removeWidget(m_plot);
    auto *row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(0);
    row->addWidget(m_plot, 1);
    row->addWidget(m_scroll);
    column->addLayout(row, 1);
    column->addWidget(m_overflow);
    m_scroll->setObjectName(QStringLiteral("lagMapScroll"));
    m_scroll->setVisible(false);
    m_overflow->setObjectName(QStringLiteral("lagMapOverflow"));
    m_overflow->setWordWrap(true);
    m_overflow->setVisible(false);
    connect(m_scroll, &QScrollBar::valueChanged, this, [this](int value) { setVisibleRows(value, visibleRowCount()); });

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
    m_plot->yAxis->setSubTicks(false);
    m_plot->yAxis->grid()->setVisible(false); // the topic lines are the grid that matters
    m_plot->installEventFilter(this);
    applyPalette();
    // Room for five labelled rows; more partitions share the height and label fewer rows.
    setMinimumHeight(std::max(100, 5 * (fontMetrics().height() + 2)));

    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent *e) {
        m_pressed = e->button() == Qt::LeftButton;
        m_pressPos = e->pos();
    });
    connect(m_plot, &QCustomPlot::mouseRelease, this, [this](QMouseEvent *e) {
        // A click, not the end of a time drag.
        const bool click = m_pressed && e->button() == Qt::LeftButton &&
                           (e->pos() - m_pressPos).manhattanLength() < QApplication::startDragDistance();
        m_pressed = false;
        int r = 0;
        int c = 0;
        if (click && cellAt(e->pos(), &r, &c))
            Q_EMIT partitionClicked(m_rows.at(r).topic, m_rows.at(r).partition);
    });
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this] { fitAllRows(); });
    // The cells' height is known once the plot is laid out; labels follow it (queued: this
    // runs inside a replot).
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        if (!m_rows.isEmpty() && m_plot->axisRect()->height() != m_renderedHeight)
            QTimer::singleShot(0, this, [this] {
                if (m_plot->axisRect()->height() != m_renderedHeight)
                    render();
            });
    });
}

LagMapWidget::~LagMapWidget() = default;

void LagMapWidget::applyPalette()
{
    MonitorChart::applyPalette();
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::Text);
    QCPAxis *scaleAxis = m_scale->axis();
    scaleAxis->setBasePen(QPen(text));
    scaleAxis->setTickPen(QPen(text));
    scaleAxis->setSubTickPen(QPen(text));
    scaleAxis->setTickLabelColor(text);
    scaleAxis->setLabelColor(text);
    // The text colour reads on the background (no data) and on the gradient's dark end;
    // a little transparency keeps the hot cells' colour visible under the line.
    QColor line = text;
    line.setAlpha(200);
    m_separators->setPen(QPen(line, 1));
}

bool LagMapWidget::pressNavigates(const QMouseEvent *) const
{
    return false; // a click selects a partition; a drag of the time axis still stops follow-live
}

double LagMapWidget::rowsHeight() const
{
    // The axis rect once laid out, else the plot minus about the axes' room.
    const int height = m_plot->axisRect()->height();
    return height > 0 ? double(height) : double(std::max(1, m_plot->height() - 40));
}

int LagMapWidget::labelStep(int rows) const
{
    if (rows <= 0)
        return 1;
    const int lineHeight = QFontMetrics(m_plot->yAxis->tickLabelFont()).height() + 2;
    return lagMapLabelStep(rowsHeight() / rows, lineHeight);
}

QList<int> LagMapWidget::separatorRows() const
{
    return m_separators->rows();
}

int LagMapWidget::visibleRowCount() const
{
    const int total = int(m_rows.size());
    return m_visible <= 0 ? total : std::min(m_visible, total);
}

int LagMapWidget::minimumVisibleRows() const
{
    const int lineHeight = QFontMetrics(m_plot->yAxis->tickLabelFont()).height();
    const int fit = int(rowsHeight() / (2.0 * lineHeight));
    return std::clamp(fit, 1, std::max(1, int(m_rows.size())));
}

void LagMapWidget::setVisibleRows(int first, int count)
{
    const int total = int(m_rows.size());
    count = std::clamp(count, std::min(minimumVisibleRows(), total), std::max(total, 1));
    m_visible = count >= total ? 0 : count;
    m_first = std::clamp(first, 0, std::max(0, total - visibleRowCount()));
    render();
}

void LagMapWidget::zoomRows(double factor, double anchorPixelY)
{
    const int visible = visibleRowCount();
    if (visible <= 0)
        return;
    const QCPRange range = m_plot->yAxis->range();
    const double anchor = std::clamp(m_plot->yAxis->pixelToCoord(anchorPixelY), range.lower, range.upper);
    const double fraction = (anchor - range.lower) / range.size();
    int count = int(std::lround(visible * factor));
    if (count == visible) // few rows: still move by one
        count += factor < 1 ? -1 : 1;
    count = std::clamp(count, std::min(minimumVisibleRows(), visible), int(m_rows.size()));
    setVisibleRows(int(std::lround(anchor - fraction * count + 0.5)), count);
}

void LagMapWidget::scrollRows(int rows)
{
    setVisibleRows(m_first + rows, visibleRowCount());
}

void LagMapWidget::fitAllRows()
{
    setVisibleRows(0, int(m_rows.size()));
}

bool LagMapWidget::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_plot || event->type() != QEvent::Wheel || m_rows.isEmpty())
        return MonitorChart::eventFilter(watched, event);
    auto *wheel = static_cast<QWheelEvent *>(event);
    const QPoint pos = wheel->position().toPoint();
    const QRect area = m_plot->axisRect()->rect();
    const bool overLabels = pos.x() < area.left() && pos.y() >= area.top() && pos.y() <= area.bottom();
    const bool overMap = area.contains(pos);
    // Shift turns a vertical wheel horizontal on some platforms: take either.
    const int delta = wheel->angleDelta().y() != 0 ? wheel->angleDelta().y() : wheel->angleDelta().x();
    if (delta == 0 || !(overLabels || overMap))
        return false;
    const double notches = delta / 120.0;
    if (wheel->modifiers() & Qt::ShiftModifier) {
        // A tenth of the view per notch, at least a row (touchpads send fractions of one).
        const int notchRows = int(notches >= 0 ? std::ceil(notches) : std::floor(notches));
        scrollRows(-std::max(1, visibleRowCount() / 10) * notchRows);
        return true;
    }
    if (overLabels || (wheel->modifiers() & Qt::ControlModifier)) {
        zoomRows(std::pow(kZoomPerNotch, notches), pos.y());
        return true;
    }
    return false; // the time axis zoom of every monitor chart
}

void LagMapWidget::resizeEvent(QResizeEvent *event)
{
    MonitorChart::resizeEvent(event);
    if (isVisible() && !m_rows.isEmpty())
        render(); // labels follow the new height; the cells are kept
}

double LagMapWidget::cellTimeS(int column) const
{
    const double fromS = double(m_fromMs) / 1000.0;
    const double toS = double(std::max(m_toMs, m_fromMs + 1000)) / 1000.0;
    return m_columns > 1 ? fromS + (toS - fromS) * column / (m_columns - 1) : fromS;
}

void LagMapWidget::refresh(qint64 fromMs, qint64 toMs)
{
    m_fromMs = fromMs;
    m_toMs = toMs;
    setTimeRange(fromMs, toMs);
    QList<PartitionKey> rows = m_store->partitionsWithHistory();
    m_hidden = std::max(0, int(rows.size()) - maxRows);
    if (m_hidden > 0)
        rows.resize(maxRows);
    if (rows != m_rows) {
        // The widest label any row can get: the labels' margin stays put while zooming and
        // scrolling, so the cells do not jump sideways.
        const QFontMetrics metrics(m_plot->yAxis->tickLabelFont());
        m_widestLabel = 0;
        for (const PartitionKey &key : std::as_const(rows))
            m_widestLabel = std::max(m_widestLabel, metrics.horizontalAdvance(lagMapLabelTexts({key}, {0}).first()));
    }
    m_rows = std::move(rows);
    const int ny = int(m_rows.size());
    // Two pixels a column: finer than the eye needs, and it halves the queries' merging.
    const int nx = std::max(2, pointBudget() / 2);
    const double fromS = double(fromMs) / 1000.0;
    const double toS = double(std::max(toMs, fromMs + 1000)) / 1000.0;
    m_columns = nx;
    m_cells.assign(size_t(ny) * size_t(nx), std::numeric_limits<float>::quiet_NaN());
    m_maxLag = 0;
    // The column of a time: rounded to the nearest, plain arithmetic (a million a refresh).
    const double columnsPerMs = double(nx - 1) / ((toS - fromS) * 1000.0);
    const auto columnOf = [&](qint64 ms) {
        const double x = double(ms - fromMs) * columnsPerMs;
        return x >= 0 ? int(x + 0.5) : -int(0.5 - x);
    };
    for (int row = 0; row < ny; ++row) {
        float *cells = m_cells.data() + size_t(row) * size_t(nx);
        // Twice the columns: the store merges whole groups of samples, and merged down to
        // about nx they can be fewer than the columns (1,200 samples into 542 columns come
        // back as 400 points), which left every third column empty.
        const QList<MetricStore::Point> points = m_store->partitionLagSeries(m_rows.at(row), fromMs, toMs, 2 * nx);
        const qsizetype n = points.size();
        if (n == 0)
            continue;
        // A point stands for its slice until the next one (fewer samples than columns must not
        // leave stripes), at most twice the points' mean spacing: a longer gap is a pause of the
        // data and stays empty, as do unassigned samples (NaN).
        const qint64 hold = n > 1 ? 2 * (points.at(n - 1).timeMs - points.at(0).timeMs) / (n - 1) : 0;
        int col = columnOf(points.at(0).timeMs);
        for (qsizetype i = 0; i < n; ++i) {
            const MetricStore::Point &p = points.at(i);
            const qint64 nextMs = i + 1 < n ? points.at(i + 1).timeMs : p.timeMs;
            const int nextCol = i + 1 < n ? columnOf(nextMs) : col;
            if (!std::isnan(p.value)) {
                const int end = nextMs - p.timeMs <= hold ? nextCol : columnOf(p.timeMs + hold);
                const int last = std::min(std::max(col, end - 1), nx - 1);
                const float v = float(p.value);
                for (int c = std::max(col, 0); c <= last; ++c) {
                    if (!(cells[c] >= v)) // NaN or smaller
                        cells[c] = v;
                }
                m_maxLag = std::max(m_maxLag, p.value);
            }
            col = nextCol;
        }
    }
    m_first = std::clamp(m_first, 0, std::max(0, ny - visibleRowCount()));
    render();
}

void LagMapWidget::render()
{
    const int total = int(m_rows.size());
    const double height = rowsHeight();
    m_renderedHeight = m_plot->axisRect()->height();
    QCPColorMapData *data = m_map->data();
    if (total == 0 || m_columns < 2) {
        data->clear();
        m_labelRows.clear();
        m_separators->setRows({});
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
        m_scroll->setVisible(false);
        m_overflow->setVisible(false);
        m_plot->replot();
        return;
    }
    const int visible = visibleRowCount();
    const int first = m_first;
    const double rowHeight = height / visible;

    // One cell row per visible row, or per pixel row when there are more rows than pixels,
    // each holding the largest lag of its rows. At least two: QCustomPlot sizes a cell from
    // the distance between the first and last, which one cell does not have.
    const int cellRows = std::max(2, std::min(visible, int(height)));
    const double rowsPerCell = double(visible) / cellRows;
    data->setSize(m_columns, cellRows);
    data->setRange(QCPRange(cellTimeS(0), cellTimeS(m_columns - 1)),
                   QCPRange(first - 0.5 + 0.5 * rowsPerCell, first - 0.5 + (cellRows - 0.5) * rowsPerCell));
    for (int cr = 0; cr < cellRows; ++cr) {
        const int r0 = first + int(std::floor(cr * rowsPerCell));
        const int r1 = std::min(first + visible, std::max(r0 + 1, first + int(std::ceil((cr + 1) * rowsPerCell))));
        for (int col = 0; col < m_columns; ++col) {
            double value = kNaN;
            for (int r = r0; r < r1; ++r) {
                const float v = m_cells[size_t(r) * size_t(m_columns) + size_t(col)];
                if (!std::isnan(v) && (std::isnan(value) || v > value))
                    value = v;
            }
            data->setCell(col, cr, value);
        }
    }
    m_map->setDataRange(QCPRange(0, m_maxLag > 0 ? m_maxLag : 1));

    // Labels only where they fit, elided to a readable width; the hover text names every cell.
    const QFontMetrics metrics(m_plot->yAxis->tickLabelFont());
    const int lineHeight = metrics.height() + 2;
    m_labelStep = lagMapLabelStep(rowHeight, lineHeight);
    m_labelRows = lagMapLabelRows(m_rows, first, visible, rowHeight, lineHeight);
    const QStringList texts = lagMapLabelTexts(m_rows, m_labelRows);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int labelWidth = std::max(60, width() / 4);
    for (int i = 0; i < m_labelRows.size(); ++i)
        ticker->addTick(m_labelRows.at(i), metrics.elidedText(texts.at(i), Qt::ElideMiddle, labelWidth));
    m_plot->yAxis->setTicker(ticker);
    QCPAxis *y = m_plot->yAxis;
    const int margin = y->padding() + y->tickLabelPadding() + std::max(y->tickLengthOut(), y->subTickLengthOut()) +
                       y->offset() + std::min(m_widestLabel, labelWidth) + 2;
    m_plot->axisRect()->setMinimumMargins(QMargins(margin, 0, 0, 0));
    m_plot->yAxis->setRange(first - 0.5, first + visible - 0.5);
    m_separators->setRows(lagMapTopicStarts(m_rows, first, visible, rowHeight, kSeparatorGapPx));

    {
        const QSignalBlocker blocker(m_scroll);
        m_scroll->setRange(0, total - visible);
        m_scroll->setPageStep(visible);
        m_scroll->setSingleStep(std::max(1, visible / 10));
        m_scroll->setValue(first);
    }
    m_scroll->setVisible(visible < total);
    if (m_hidden > 0)
        m_overflow->setText(tr("%1 partitions have a lag history: the first %2 by topic and partition are shown, "
                               "%3 are not.")
                                .arg(total + m_hidden)
                                .arg(total)
                                .arg(m_hidden));
    m_overflow->setVisible(m_hidden > 0);
    m_plot->replot();
}

bool LagMapWidget::cellAt(const QPoint &pos, int *row, int *column) const
{
    if (m_rows.isEmpty() || m_columns < 2 || !m_plot->axisRect()->rect().contains(pos))
        return false;
    const int r = int(std::floor(m_plot->yAxis->pixelToCoord(pos.y()) + 0.5));
    if (r < m_first || r >= m_first + visibleRowCount() || r >= m_rows.size())
        return false;
    const double fromS = cellTimeS(0);
    const double toS = cellTimeS(m_columns - 1);
    const double key = m_plot->xAxis->pixelToCoord(pos.x());
    const int c = int(std::lround((key - fromS) / (toS - fromS) * (m_columns - 1)));
    if (c < 0 || c >= m_columns)
        return false;
    *row = r;
    *column = c;
    return true;
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
    int row = 0;
    int col = 0;
    if (!cellAt(pos, &row, &col))
        return {};
    const PartitionKey &key = m_rows.at(row);
    const float lag = m_cells[size_t(row) * size_t(m_columns) + size_t(col)];
    // The axis shows local time; so does the tooltip.
    const QString time = QDateTime::fromMSecsSinceEpoch(qint64(std::llround(cellTimeS(col) * 1000.0)))
                             .toString(QStringLiteral("HH:mm:ss"));
    const QString lagText = std::isnan(lag) ? tr("no data") : tr("%1 records").arg(formatCount(double(lag)));
    return tr("Topic: %1\nPartition: %2\nLag: %3\nTime: %4")
        .arg(key.topic, QString::number(key.partition), lagText, time);
}

} // namespace md
