#pragma once

#include <QtGlobal>

#include <algorithm>

namespace md {

// What a copy holds grows with its partitions: spread over many partitions a
// fixed bound leaves each too few records, and the fetches or the target's
// batches become too small to keep up (docs/PERFORMANCE.md, "Footprint").
// So each bound is so many records a partition, within [Min, Max].
template <qint64 Min, qint64 PerPartition, qint64 Max> struct PerPartitionBound {
    static constexpr qint64 kMinRecords = Min;
    static constexpr qint64 kRecordsPerPartition = PerPartition;
    static constexpr qint64 kMaxRecords = Max;

    static qint64 forPartitions(qint64 partitions) { return std::clamp(partitions * PerPartition, Min, Max); }
};

// How many records the source consumer prefetches: librdkafka's
// queued.min.messages, which bounds the consumer's whole queue (each
// partition's queue forwards to it). The consumer outruns the target, so the
// queue sits at this bound for the whole copy, and each record in it holds
// its payload and a ~290 B op. 20,000 took a tenth off a 12-partition copy's
// peak at its full rate; over 2,000 partitions it leaves 10 records a
// partition and that copy ran at 0.53 of the 12-partition rate (0.80 with
// 100,000). By the partitions the job selects; librdkafka reads it once,
// when the consumer is made (MirrorWorkerConsumer.cpp).
using ConsumerPrefetch = PerPartitionBound<20000, 50, 100000>;

// How much a fetch may carry: for one partition (librdkafka's
// max.partition.fetch.bytes) and in all (fetch.max.bytes). A fetch response
// stays allocated until the last of its records is acknowledged, and over many
// partitions each response carries up to the first for every partition the
// broker leads, up to the second. With librdkafka's 1 MiB and 50 MiB a job over
// 1,000 partitions peaked at 340 MB against 125 for 12 and copied at 0.39 of
// their rate; with 256 KiB and 16 MiB at 282 MB and 0.89 (docs/PERFORMANCE.md,
// "Fetches sized by the partitions"). So a budget shared by the partitions the
// job selects: a partition's share within [256 KiB, 1 MiB] (a few-partition copy
// keeps 1 MiB: at 256 KiB a 12-partition copy lost a quarter of its rate), and
// an answer of at most 64 partitions' shares within [16 MiB, 50 MiB] (8 MiB cost
// 1,000 partitions a third of the rate). Read once, when the consumer is made,
// as the prefetch is.
struct FetchBytes {
    static constexpr qint64 kBudget = 64LL * 1024 * 1024;
    static constexpr qint64 kMinPartition = 256LL * 1024;
    static constexpr qint64 kMaxPartition = 1024LL * 1024;
    static constexpr qint64 kMinFetch = 16LL * 1024 * 1024;
    static constexpr qint64 kMaxFetch = 50LL * 1024 * 1024; // librdkafka's default

    static qint64 partitionFor(qint64 partitions)
    {
        return partitions <= 0 ? kMaxPartition : std::clamp(kBudget / partitions, kMinPartition, kMaxPartition);
    }
    static qint64 fetchFor(qint64 partitions)
    {
        return std::clamp(64 * partitionFor(partitions), kMinFetch, kMaxFetch);
    }
};

// How many records a job keeps in flight to the target. Every record in
// flight pins its consumed message (zero copy) and ~0.5 KB of librdkafka's
// bookkeeping until the target acknowledges it, so the window is much of a
// copy's memory. By the partitions assigned: 10 a partition at 2,000
// partitions ran at 0.65 of the 12-partition rate, 25 a partition at 0.93.
// The smallest window is the 50,000 records copies ran with before: 20,000
// (with smaller fetches) kept a 12-partition copy at 0.6 of the memory but at
// 0.92 of the rate here.
struct InFlightWindow : PerPartitionBound<50000, 25, 100000> {
    // Room in the producer's own queue (queue.buffering.max.messages) beyond
    // the window, for the offset map's records that share the producer.
    static constexpr qint64 kProducerHeadroom = 10000;
};

} // namespace md
