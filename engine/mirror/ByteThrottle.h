#pragma once

#include <QtGlobal>

#include <algorithm>
#include <chrono>

namespace md {

// The job's copy rate limit in bytes per second (the profile's throttle, or
// set while it runs): a token bucket read once per record and refilled once
// a loop turn. A record is taken while the budget is not in debt, so one
// record may overdraw it; the next waits until the debt is paid back. The
// bucket holds at most 100 ms of bytes (at least 1 KiB), which keeps the rate
// honest over any window longer than that. No clock read per record.
class ByteThrottle final {
public:
    using Clock = std::chrono::steady_clock;

    void start(Clock::time_point now, qint64 bytesPerSecond)
    {
        m_last = now;
        m_rate = std::max<qint64>(0, bytesPerSecond);
        m_tokens = 0;
        m_waiting = false;
    }
    // A new rate starts without the old one's savings (a debt stays).
    void setRate(Clock::time_point now, qint64 bytesPerSecond)
    {
        m_rate = std::max<qint64>(0, bytesPerSecond);
        m_tokens = std::min(m_tokens, 0.0);
        m_last = now;
        refill(now);
    }
    qint64 rate() const { return m_rate; } // 0: no limit

    // False: the budget is in debt, a record must wait (the caller keeps it)
    // and waiting() holds until refill() has paid the debt back.
    bool mayTake()
    {
        if (m_rate > 0 && m_tokens < 0) {
            m_waiting = true;
            return false;
        }
        return true;
    }
    void took(qint64 bytes)
    {
        if (m_rate > 0)
            m_tokens -= double(bytes);
    }
    void refill(Clock::time_point now)
    {
        const double dt = std::chrono::duration<double>(now - m_last).count();
        m_last = now;
        if (m_rate <= 0) {
            m_tokens = 0;
            m_waiting = false;
            return;
        }
        const double burst = std::max(double(m_rate) * 0.1, 1024.0);
        m_tokens = std::min(m_tokens + dt * double(m_rate), burst);
        if (m_waiting && m_tokens >= 0)
            m_waiting = false;
    }
    // Records wait for the budget (the loop holds back, partitions stay unpaused).
    bool waiting() const { return m_waiting; }

private:
    qint64 m_rate = 0;
    double m_tokens = 0;
    bool m_waiting = false;
    Clock::time_point m_last;
};

} // namespace md
