#include "ui/charts/LagMapLayout.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace md {

int lagMapLabelStep(double rowHeight, int lineHeight)
{
    return std::max(1, int(std::ceil(double(lineHeight) / std::max(rowHeight, 0.01))));
}

QList<int> lagMapLabelRows(const QList<PartitionKey> &rows, int first, int count, double rowHeight, int lineHeight)
{
    const int end = std::min(int(rows.size()), first + count);
    if (first < 0 || first >= end)
        return {};
    // Distance in rows two label centres need; the ceiling keeps a whole line between them.
    const double minRows = double(lineHeight) / std::max(rowHeight, 0.01);
    std::set<int> accepted;
    const auto tryAdd = [&](int row) {
        const auto next = accepted.lower_bound(row);
        if (next != accepted.end() && (*next == row || *next - row < minRows))
            return;
        if (next != accepted.begin() && row - *std::prev(next) < minRows)
            return;
        accepted.insert(row);
    };
    tryAdd(first);
    for (int row = first + 1; row < end; ++row) {
        if (rows.at(row).topic != rows.at(row - 1).topic)
            tryAdd(row);
    }
    const int step = lagMapLabelStep(rowHeight, lineHeight);
    for (int row = (first + step - 1) / step * step; row < end; row += step)
        tryAdd(row);
    return QList<int>(accepted.begin(), accepted.end());
}

QStringList lagMapLabelTexts(const QList<PartitionKey> &rows, const QList<int> &labelRows)
{
    QStringList texts;
    texts.reserve(labelRows.size());
    const QString *previousTopic = nullptr;
    for (int row : labelRows) {
        const PartitionKey &key = rows.at(row);
        const QString number = QLatin1Char('[') + QString::number(key.partition) + QLatin1Char(']');
        if (previousTopic && *previousTopic == key.topic)
            texts.append(number);
        else
            texts.append(key.topic + QLatin1Char(' ') + number);
        previousTopic = &key.topic;
    }
    return texts;
}

QList<int> lagMapTopicStarts(const QList<PartitionKey> &rows, int first, int count, double rowHeight, double minGap)
{
    QList<int> starts;
    const int end = std::min(int(rows.size()), first + count);
    double lastY = 0; // the top edge of the view counts as a line
    for (int row = std::max(first + 1, 1); row < end; ++row) {
        if (rows.at(row).topic == rows.at(row - 1).topic)
            continue;
        const double y = (row - first) * rowHeight;
        if (y - lastY < minGap)
            continue;
        starts.append(row);
        lastY = y;
    }
    return starts;
}

} // namespace md
