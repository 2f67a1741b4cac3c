#pragma once

#include "model/monitor/MetricStore.h"

#include <QList>
#include <QWidget>

class QCustomPlot;
class QMouseEvent;
class QResizeEvent;
class QCPItemTracer;
class QTextStream;

namespace md {

// One chart of a job monitor: a QCustomPlot whose content is pulled from a MetricStore
// for a time window. The monitor owns the schedule (when to refresh, which window);
// a chart only knows how to draw, describe and export that window.
class MonitorChart : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MonitorChart)

public:
    explicit MonitorChart(const MetricStore *store, QWidget *parent = nullptr);
    ~MonitorChart() override;

    QCustomPlot *plot() const { return m_plot; }

    // Pulls [fromMs, toMs] from the store and replots once. Only the window is queried,
    // with about one point per horizontal pixel.
    virtual void refresh(qint64 fromMs, qint64 toMs) = 0;
    // The data of [fromMs, toMs] at the store's full resolution, as CSV (header + rows).
    virtual void writeCsv(QTextStream &out, qint64 fromMs, qint64 toMs) const = 0;
    // What the mouse at pos (plot coordinates) points at; empty when nothing.
    virtual QString hoverText(const QPoint &pos) = 0;

    // The x axis range in ms since the epoch.
    qint64 viewFromMs() const;
    qint64 viewToMs() const;
    int replotCount() const { return m_replots; }

Q_SIGNALS:
    // The user dragged or zoomed the time axis (follow-live must stop).
    void userNavigated();
    // The time axis changed for any reason other than refresh().
    void viewChangedByUser();

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    virtual void applyPalette();
    // Whether a press starts a navigation (it stops follow-live at once): in the plot area, by
    // default. A chart whose click means something else says no; its drags still report.
    virtual bool pressNavigates(const QMouseEvent *event) const;
    // Sets the x range without reporting it as a user change.
    void setTimeRange(qint64 fromMs, qint64 toMs);
    int pointBudget() const; // about one point per pixel of the plot area

    const MetricStore *m_store;
    QCustomPlot *m_plot;

private:
    // As many time ticks as fit the width with a label's width of space between them.
    void fitTimeTicks();

    bool m_settingRange = false;
    int m_replots = 0;
};

// A line chart of some of a job's series, optionally on a second (right) value axis.
class ChartPanel final : public MonitorChart {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChartPanel)

public:
    ChartPanel(const MetricStore *store, const QString &leftLabel, QWidget *parent = nullptr);
    ~ChartPanel() override;

    // scale multiplies stored values (bytes/s -> MB/s); label is the legend name.
    void addSeries(MetricStore::Series series, const QString &label, double scale = 1.0, bool rightAxis = false,
                   Qt::PenStyle style = Qt::SolidLine);
    void setRightAxisLabel(const QString &label);

    void refresh(qint64 fromMs, qint64 toMs) override;
    void writeCsv(QTextStream &out, qint64 fromMs, qint64 toMs) const override;
    QString hoverText(const QPoint &pos) override;

protected:
    void applyPalette() override;

private:
    struct Line {
        MetricStore::Series series;
        QString label;
        double scale;
        bool right;
        Qt::PenStyle style;
    };
    QList<Line> m_lines;
    QCPItemTracer *m_tracer;
};

// Series colours readable on both light and dark backgrounds.
QColor chartSeriesColor(int index, const QPalette &palette);

} // namespace md
