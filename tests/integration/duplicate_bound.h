#pragma once

// How many records a crash may copy twice under "progress always wins": what
// the target acknowledged since the engine's last periodic commit (every ~1 s)
// plus a margin (commit round trip, records in flight), at the measured rate.
// Shared by the crash tests so that every one quotes the same bound.

#include <QtGlobal>

#include <cmath>

namespace md::test {

inline constexpr double kCommitIntervalS = 1.0;
inline constexpr double kCommitMarginS = 1.0;

inline qint64 duplicateBound(double recordsPerSecond)
{
    return qint64(std::ceil(recordsPerSecond * (kCommitIntervalS + kCommitMarginS)));
}

} // namespace md::test
