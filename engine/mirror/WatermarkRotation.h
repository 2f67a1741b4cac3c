#pragma once

#include <QtGlobal>

#include <algorithm>

namespace md {

// Metric snapshots read each partition's cached watermarks, but librdkafka
// finds a partition's topic by a linear search of names: at 2,000 partitions
// reading all of them every snapshot was a quarter of an idle job's CPU. Up to
// kWatermarksPerSnapshot are read every snapshot; beyond, a rotating share, so
// every partition is read once in watermarkRounds() snapshots.
constexpr qint64 kWatermarksPerSnapshot = 256;

inline qint64 watermarkRounds(qint64 partitions)
{
    return std::max<qint64>(1, (partitions + kWatermarksPerSnapshot - 1) / kWatermarksPerSnapshot);
}

// Whether the partition at `index` of a snapshot's walk is read in snapshot
// number `snapshot`, of `rounds` = watermarkRounds(partitions).
inline bool watermarkDue(qint64 index, qint64 snapshot, qint64 rounds)
{
    return index % rounds == snapshot % rounds;
}

} // namespace md
