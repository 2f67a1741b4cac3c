#pragma once

#include <QtGlobal>

#include <algorithm>

namespace md {

// How many records a job keeps in flight to the target. Every record in
// flight pins its consumed message (zero copy) and ~0.5 KB of librdkafka's
// bookkeeping until the target acknowledges it, so the window is much of a
// copy's memory. It grows with the partitions assigned: spread over many
// partitions a fixed window leaves too few records a partition for the
// target's batches (10 a partition at 2,000 partitions ran at 0.65 of the
// 12-partition rate, 25 a partition at 0.93). The smallest window is the
// 50,000 records copies ran with before: 20,000 (with smaller fetches) kept
// a 12-partition copy at 0.6 of the memory but at 0.92 of the rate here
// (docs/PERFORMANCE.md, "Footprint").
struct InFlightWindow {
    static constexpr qint64 kMinRecords = 50000;
    static constexpr qint64 kRecordsPerPartition = 25;
    static constexpr qint64 kMaxRecords = 100000;
    // Room in the producer's own queue (queue.buffering.max.messages) beyond
    // the window, for the offset map's records that share the producer.
    static constexpr qint64 kProducerHeadroom = 10000;

    static qint64 forPartitions(qint64 assigned)
    {
        return std::clamp(assigned * kRecordsPerPartition, kMinRecords, kMaxRecords);
    }
};

} // namespace md
