#pragma once

#include <QString>

namespace md {

// "12.3 k", "1.2 M": compact counts for tables and progress lines.
QString formatCount(double value);
// "512 B", "1.5 KiB", "2.0 MiB": binary units, for rates and sizes.
QString formatBytes(double bytes);

} // namespace md
