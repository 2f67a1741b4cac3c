#pragma once

#include <QtGlobal>

#include <array>
#include <cstddef>
#include <vector>

namespace md {

// Rates of a few counters over the last few seconds: the one rate the job
// list, the status line, the charts and the partition table show. A rate per
// sampling tick jumps between 0 and twice the real one when ticks are uneven
// or records arrive in batches (a busy machine, a fetch every half second);
// over kWindowMs it reads steady. Prometheus gets the raw counters instead.
template <std::size_t N> class RateWindow {
public:
    static constexpr qint64 kWindowMs = 3000;
    using Counters = std::array<qint64, N>;
    using Rates = std::array<double, N>;

    // Adds the counters at time `ms` (monotonic); returns the rates per second
    // over the window: zeros until two samples span some time. Counters that
    // go backwards, or a time that does, start the window again.
    Rates add(qint64 ms, const Counters &counters)
    {
        if (!m_samples.empty()) {
            const Sample &last = m_samples.back();
            bool back = ms < last.ms;
            for (std::size_t i = 0; i < N && !back; ++i)
                back = counters[i] < last.v[i];
            if (back)
                m_samples.clear();
        }
        m_samples.push_back({ms, counters});
        // Keep one sample at or before the window's start, so the span covers the whole window.
        std::size_t drop = 0;
        while (m_samples.size() - drop > 2 && m_samples[drop + 1].ms <= ms - kWindowMs)
            ++drop;
        if (drop > 0)
            m_samples.erase(m_samples.begin(), m_samples.begin() + std::ptrdiff_t(drop));
        Rates r{};
        const Sample &first = m_samples.front();
        const qint64 spanMs = ms - first.ms;
        if (spanMs > 0) {
            for (std::size_t i = 0; i < N; ++i)
                r[i] = double(counters[i] - first.v[i]) * 1000.0 / double(spanMs);
        }
        return r;
    }

    void clear() { m_samples.clear(); }
    bool empty() const { return m_samples.empty(); }
    std::size_t memoryBytes() const { return m_samples.capacity() * sizeof(Sample); }

private:
    struct Sample {
        qint64 ms;
        Counters v;
    };
    std::vector<Sample> m_samples;
};

} // namespace md
