#pragma once

#include <QList>
#include <QLocale>
#include <QString>
#include <QStringList>
#include <QTextStream>

#include <algorithm>

namespace md {

// "1,234": counts and offsets in the commands' tables.
inline QString formatNumber(qint64 n)
{
    return QLocale(QLocale::English).toString(qlonglong(n));
}

// The commands' tables (reset, reverse, failover): rows[0] is the header; the
// first column left-aligned, the others right-aligned (numbers), the last one
// left-aligned when lastLeft (a word such as an action); each line after indent.
inline void printTextTable(const QList<QStringList> &rows, QTextStream &out, const QString &indent = {},
                           bool lastLeft = false)
{
    if (rows.isEmpty())
        return;
    QList<qsizetype> width(rows.first().size(), 0);
    for (const QStringList &r : rows)
        for (qsizetype i = 0; i < r.size() && i < width.size(); ++i)
            width[i] = std::max(width[i], r.at(i).size());
    for (const QStringList &r : rows) {
        QString line = indent + r.value(0).leftJustified(width[0]);
        for (qsizetype i = 1; i < r.size() && i < width.size(); ++i)
            line +=
                QStringLiteral("  ") + (lastLeft && i + 1 == width.size() ? r.at(i) : r.at(i).rightJustified(width[i]));
        out << line << '\n';
    }
}

} // namespace md
