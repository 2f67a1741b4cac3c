#pragma once

#include <QAbstractTableModel>
#include <QList>

#include <functional>
#include <utility>

namespace md {

// A flat table model whose rows are kept sorted by a key. Replacing the rows
// emits removals, insertions and one dataChanged per run of changed rows, not a
// reset, so views keep their selection and scroll position, and an unchanged
// refresh emits nothing.
//
// `same` says whether two rows with one key look the same (default: operator==). A row it
// calls the same is still replaced, silently, so fields no column shows stay current; a
// model whose display rounds (a rate to one decimal) thus emits no dataChanged for noise.
class MergingTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

protected:
    template <typename Row, typename KeyFn, typename SameFn = std::equal_to<>>
    void mergeSortedRows(QList<Row> &rows, const QList<Row> &next, KeyFn key, SameFn same = {})
    {
        // Rows whose key is gone, as [first, last] runs, removed back to front.
        QList<std::pair<qsizetype, qsizetype>> gone;
        for (qsizetype i = 0, j = 0; i < rows.size();) {
            while (j < next.size() && key(next[j]) < key(rows[i]))
                ++j;
            if (j < next.size() && key(next[j]) == key(rows[i])) {
                ++i;
                continue;
            }
            if (!gone.isEmpty() && gone.last().second == i - 1)
                gone.last().second = i;
            else
                gone.append({i, i});
            ++i;
        }
        for (auto it = gone.crbegin(); it != gone.crend(); ++it) {
            beginRemoveRows({}, int(it->first), int(it->second));
            rows.remove(it->first, it->second - it->first + 1);
            endRemoveRows();
        }
        // rows is now a subsequence of next: insert missing runs, update the rest.
        const int lastColumn = columnCount() - 1;
        qsizetype changedFirst = -1;
        auto flushChanged = [&](qsizetype end) {
            if (changedFirst >= 0)
                Q_EMIT dataChanged(index(int(changedFirst), 0), index(int(end - 1), lastColumn));
            changedFirst = -1;
        };
        qsizetype i = 0;
        for (qsizetype j = 0; j < next.size();) {
            if (i < rows.size() && key(rows[i]) == key(next[j])) {
                if (same(rows[i], next[j])) {
                    rows[i] = next[j];
                    flushChanged(i);
                } else {
                    rows[i] = next[j];
                    if (changedFirst < 0)
                        changedFirst = i;
                }
                ++i;
                ++j;
                continue;
            }
            flushChanged(i);
            qsizetype end = j;
            while (end < next.size() && (i >= rows.size() || key(next[end]) < key(rows[i])))
                ++end;
            beginInsertRows({}, int(i), int(i + (end - j) - 1));
            rows.insert(i, end - j, Row{});
            std::copy(next.begin() + j, next.begin() + end, rows.begin() + i);
            endInsertRows();
            i += end - j;
            j = end;
        }
        flushChanged(i);
    }
};

} // namespace md
