#pragma once

#include "ui/charts/ChartPanel.h"

#include <vector>

class QCPColorMap;
class QCPColorScale;
class QLabel;
class QScrollBar;

namespace md {

class LagMapSeparators;

// Partitions by time, coloured by lag: where a job falls behind, and since when.
// One row per partition with a lag history (at most maxRows, in (topic, partition) order,
// a line between topics), one column per couple of pixels; a cell holds the largest lag of
// its time slice, so a short spike survives downsampling. Cells with no data are transparent.
//
// The rows can be zoomed (Ctrl+wheel over the map, or the wheel over the row labels) and
// scrolled (the scroll bar beside it, or Shift+wheel); a double-click shows all rows again.
// When more rows are shown than the map has pixels, each pixel row shows the largest lag of
// the rows it covers, so a hot partition never falls between pixels. A refresh queries the
// store once per row; zooming and scrolling redraw from the cells kept since.
// A plain click on a cell names its partition (partitionClicked) and does not stop follow-live.
class LagMapWidget final : public MonitorChart {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LagMapWidget)

public:
    static constexpr int maxRows = 1000;

    explicit LagMapWidget(const MetricStore *store, QWidget *parent = nullptr);
    ~LagMapWidget() override;

    QCPColorMap *colorMap() const { return m_map; }
    QScrollBar *scrollBar() const { return m_scroll; }
    QLabel *overflowLabel() const { return m_overflow; }
    const QList<PartitionKey> &rows() const { return m_rows; }
    int hiddenPartitions() const { return m_hidden; } // partitions with a history beyond maxRows

    void refresh(qint64 fromMs, qint64 toMs) override;
    void writeCsv(QTextStream &out, qint64 fromMs, qint64 toMs) const override;
    QString hoverText(const QPoint &pos) override;

    // Every how many rows a label is drawn so that labels never overlap (1: every row), when
    // `rows` rows share the map's height.
    int labelStep(int rows) const;
    int currentLabelStep() const { return m_labelStep; }
    QList<int> labelRows() const { return m_labelRows; }
    QList<int> separatorRows() const; // rows with a topic line above them

    // The rows shown: [firstVisibleRow, firstVisibleRow + visibleRowCount).
    int firstVisibleRow() const { return m_first; }
    int visibleRowCount() const;
    // The fewest rows a zoom shows: a row is at most about two text lines tall.
    int minimumVisibleRows() const;
    void setVisibleRows(int first, int count);
    // factor < 1 zooms in; the row under anchorPixelY (plot coordinates) stays put.
    void zoomRows(double factor, double anchorPixelY);
    void scrollRows(int rows);
    void fitAllRows();
    // The (row, column) of the cell at pos (plot coordinates); false outside the cells.
    bool cellAt(const QPoint &pos, int *row, int *column) const;

Q_SIGNALS:
    void partitionClicked(const QString &topic, int partition);

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    void applyPalette() override;
    bool pressNavigates(const QMouseEvent *event) const override;

private:
    void render();
    double rowsHeight() const; // pixels of the cells' area
    double cellTimeS(int column) const;

    QCPColorMap *m_map;
    QCPColorScale *m_scale;
    LagMapSeparators *m_separators;
    QScrollBar *m_scroll;
    QLabel *m_overflow;
    QList<PartitionKey> m_rows;
    int m_hidden = 0;
    std::vector<float> m_cells; // row-major, m_rows.size() x m_columns, NaN = no data
    int m_columns = 0;
    double m_maxLag = 0;
    int m_first = 0;
    int m_visible = 0; // 0: all rows (fit)
    QList<int> m_labelRows;
    int m_labelStep = 1;
    int m_widestLabel = 0; // pixels, of any row's label
    int m_renderedHeight = -1;
    QPoint m_pressPos;
    bool m_pressed = false;
    qint64 m_fromMs = 0;
    qint64 m_toMs = 0;
};

} // namespace md
