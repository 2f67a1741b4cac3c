#pragma once

#include "engine/mirror/MetricsSnapshot.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace md {

// Replication latency over one sampling interval in a fixed log-scale
// histogram: four buckets per doubling from 1 ms up to 2^24 ms (about 4.6 h),
// one overflow bucket, exact max. Adding a sample never allocates, so it can
// run in every delivery report; percentiles are accurate to one bucket (~19%).
class LatencyHistogram final {
public:
    static constexpr int kBucketsPerDoubling = 4;
    static constexpr int kBuckets = 24 * kBucketsPerDoubling + 1; // + overflow

    void add(double ms)
    {
        ms = std::max(ms, 0.0); // a future source timestamp (clock skew) counts as 0
        ++m_counts[size_t(bucketOf(ms))];
        ++m_samples;
        m_max = std::max(m_max, ms);
    }

    void reset()
    {
        m_counts.fill(0);
        m_samples = 0;
        m_max = 0;
    }

    qint64 samples() const { return m_samples; }

    // Upper edge of the bucket holding the q-quantile, never above the max.
    double percentile(double q) const
    {
        if (m_samples == 0)
            return -1;
        const auto rank = qint64(std::ceil(q * double(m_samples)));
        qint64 seen = 0;
        for (int i = 0; i < kBuckets; ++i) {
            seen += m_counts[size_t(i)];
            if (seen >= std::max<qint64>(rank, 1))
                return std::min(upperEdge(i), m_max);
        }
        return m_max;
    }

    LatencyStats stats() const
    {
        LatencyStats s;
        s.samples = m_samples;
        if (m_samples > 0) {
            s.p50Ms = percentile(0.50);
            s.p99Ms = percentile(0.99);
            s.maxMs = m_max;
        }
        return s;
    }

    static int bucketOf(double ms)
    {
        if (ms < 1.0)
            return 0;
        const int b = 1 + int(std::floor(std::log2(ms) * kBucketsPerDoubling));
        return std::min(b, kBuckets - 1);
    }

    static double upperEdge(int bucket)
    {
        if (bucket >= kBuckets - 1)
            return HUGE_VAL;
        return std::exp2(double(bucket) / kBucketsPerDoubling);
    }

private:
    std::array<qint64, kBuckets> m_counts{};
    qint64 m_samples = 0;
    double m_max = 0;
};

} // namespace md
