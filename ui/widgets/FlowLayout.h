#pragma once

#include <QLayout>
#include <QList>
#include <QStyle>

namespace md {

// Lays its items out left to right and wraps onto the next row when the width runs out,
// so a row of buttons never forces its parent wider than the screen (Qt's flow layout
// example, trimmed). Height follows width (heightForWidth).
class FlowLayout final : public QLayout {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FlowLayout)
public:
    explicit FlowLayout(QWidget *parent = nullptr, int spacing = -1);
    ~FlowLayout() override;

    void addItem(QLayoutItem *item) override;
    int count() const override { return int(m_items.size()); }
    QLayoutItem *itemAt(int index) const override { return m_items.value(index); }
    QLayoutItem *takeAt(int index) override;
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return doLayout(QRect(0, 0, width, 0), true); }
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect &rect) override;

private:
    int doLayout(const QRect &rect, bool testOnly) const;
    int spacingOr(QStyle::PixelMetric metric) const;

    QList<QLayoutItem *> m_items;
    int m_spacing;
};

} // namespace md
