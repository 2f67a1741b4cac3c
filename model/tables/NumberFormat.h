#pragma once

#include <QString>

namespace md {

// "12.3 k", "1.2 M": compact counts for tables and progress lines.
QString formatCount(double value);
// "512 B", "1.5 KiB", "2.0 MiB": binary units, for rates and sizes.
QString formatBytes(double bytes);
// Lag in time: "45 s", "12 min 3 s", "3 h 12 min", "2 d 4 h"; an em dash when unknown (-1).
QString lagTimeText(qint64 ms);
// Time to catch up: as lagTimeText, "never" for kCatchUpNever (engine/mirror/LagTime.h).
QString catchUpText(double seconds);

} // namespace md
