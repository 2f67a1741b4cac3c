#pragma once

#include "ChartPanel.h"

class QCPColorMap;
class QCPColorScale;

namespace md {

// Partitions by time, coloured by lag: where a job falls behind, and since when.
// One row per partition with a lag history (at most maxRows, in (topic, partition) order),
// one column per couple of pixels; a cell holds the largest lag of its time slice, so a
// short spike survives downsampling. Cells with no data are transparent.
class LagMapWidget final : public MonitorChart {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LagMapWidget)

public:
    static constexpr int maxRows = 200;

    explicit LagMapWidget(const MetricStore *store, QWidget *parent = nullptr);
    ~LagMapWidget() override;

    QCPColorMap *colorMap() const { return m_map; }
    const QList<PartitionKey> &rows() const { return m_rows; }

    void refresh(qint64 fromMs, qint64 toMs) override;
    void writeCsv(QTextStream &out, qint64 fromMs, qint64 toMs) const override;
    QString hoverText(const QPoint &pos) override;
    // Every how many rows a label is drawn so that labels never overlap (1: every row).
    int labelStep(int rows) const;
    int currentLabelStep() const { return m_labelStep; }

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    QCPColorMap *m_map;
    QCPColorScale *m_scale;
    QList<PartitionKey> m_rows;
    int m_labelStep = 1;
    qint64 m_fromMs = 0;
    qint64 m_toMs = 0;
};

} // namespace md
