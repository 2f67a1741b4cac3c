#include "model/tables/NumberFormat.h"

namespace md {

QString formatCount(double value)
{
    const double a = value < 0 ? -value : value;
    if (a >= 1e9)
        return QString::number(value / 1e9, 'f', 2) + QStringLiteral(" G");
    if (a >= 1e6)
        return QString::number(value / 1e6, 'f', 2) + QStringLiteral(" M");
    if (a >= 1e4)
        return QString::number(value / 1e3, 'f', 1) + QStringLiteral(" k");
    return QString::number(qint64(value));
}

QString formatBytes(double bytes)
{
    const double a = bytes < 0 ? -bytes : bytes;
    if (a >= 1024.0 * 1024 * 1024)
        return QString::number(bytes / (1024.0 * 1024 * 1024), 'f', 2) + QStringLiteral(" GiB");
    if (a >= 1024.0 * 1024)
        return QString::number(bytes / (1024.0 * 1024), 'f', 1) + QStringLiteral(" MiB");
    if (a >= 1024.0)
        return QString::number(bytes / 1024.0, 'f', 1) + QStringLiteral(" KiB");
    return QString::number(qint64(bytes)) + QStringLiteral(" B");
}

} // namespace md
