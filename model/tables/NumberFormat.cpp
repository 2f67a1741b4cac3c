#include "model/tables/NumberFormat.h"

#include "engine/mirror/LagTime.h"

#include <cmath>

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

namespace {

QString spanText(qint64 seconds)
{
    if (seconds < 60)
        return QStringLiteral("%1 s").arg(seconds);
    if (seconds < 3600)
        return QStringLiteral("%1 min %2 s").arg(seconds / 60).arg(seconds % 60);
    if (seconds < 86400)
        return QStringLiteral("%1 h %2 min").arg(seconds / 3600).arg((seconds % 3600) / 60);
    return QStringLiteral("%1 d %2 h").arg(seconds / 86400).arg((seconds % 86400) / 3600);
}

} // namespace

QString catchUpText(double seconds)
{
    if (seconds == kCatchUpNever)
        return QStringLiteral("never");
    if (seconds < 0)
        return QStringLiteral("\u2014");
    return spanText(qint64(std::ceil(seconds)));
}

QString lagTimeText(qint64 ms)
{
    if (ms < 0)
        return QStringLiteral("\u2014");
    return spanText(ms / 1000);
}

} // namespace md
