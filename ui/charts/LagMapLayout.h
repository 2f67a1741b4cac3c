#pragma once

#include "model/monitor/LagStatus.h"

#include <QList>
#include <QStringList>

namespace md {

// The lag map's y axis, worked out without a widget: which rows get a label and what it
// says, and where topics change. Rows are the map's (topic, partition)-sorted keys; the
// visible ones are [first, first + count), each rowHeight pixels tall.

// Every how many rows a label fits (1: every row) when labels are lineHeight pixels tall.
int lagMapLabelStep(double rowHeight, int lineHeight);

// The visible rows that get a label, ascending, no two closer than lineHeight pixels.
// A topic's first row and the first visible row go first (they name the topic), then every
// step-th row counted from row 0, so labels stay put while scrolling.
QList<int> lagMapLabelRows(const QList<PartitionKey> &rows, int first, int count, double rowHeight, int lineHeight);

// The labels of labelRows (ascending): "topic [p]" where the topic differs from the
// previous label's, "[p]" after it.
QStringList lagMapLabelTexts(const QList<PartitionKey> &rows, const QList<int> &labelRows);

// The visible rows (after the first visible one) that start a new topic, a separator line
// above each, skipping one closer than minGap pixels to the previous line.
QList<int> lagMapTopicStarts(const QList<PartitionKey> &rows, int first, int count, double rowHeight, double minGap);

} // namespace md
