#pragma once

#include <QtGlobal>

#include <chrono>
#include <cstddef>
#include <deque>

namespace md {

// How long the oldest record has waited for the target's acknowledgement,
// from two counters read once a tick (no clock read per record). Each mark
// says "by this time, this many records had been produced"; a mark goes once
// as many delivery reports have arrived. The oldest waiting record was
// produced before the first mark left, so its wait is at least the age of
// that mark. Unlike "time since the last report", acknowledgements that
// trickle in (connections cut mid-request, a broker that answers one request
// in ten) do not hide records that wait on and on. Reports are counted, not
// matched, so a partition stuck while others flow is not seen here.
class AckWaitClock final {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr auto kMarkEvery = std::chrono::milliseconds(250);
    static constexpr std::size_t kMaxMarks = 256; // then one goes for each new one (thin)

    void update(Clock::time_point now, qint64 produced, qint64 reported)
    {
        if (reported != m_reported) {
            m_reported = reported;
            m_lastReport = now;
        }
        while (!m_marks.empty() && m_marks.front().produced <= reported)
            m_marks.pop_front();
        if (produced <= reported) {
            m_marks.clear();
            return;
        }
        if (m_marks.empty() || (m_marks.back().produced < produced && now - m_marks.back().at >= kMarkEvery)) {
            if (m_marks.size() == kMaxMarks)
                thin();
            m_marks.push_back({now, produced});
        }
    }

    // At least this long, or zero when nothing waits.
    Clock::duration oldestWait(Clock::time_point now) const
    {
        return m_marks.empty() ? Clock::duration::zero() : now - m_marks.front().at;
    }

    // Since the last report arrived (or since the first update).
    Clock::duration sinceLastReport(Clock::time_point now) const { return now - m_lastReport; }

    std::size_t marks() const { return m_marks.size(); }

private:
    struct Mark {
        Clock::time_point at;
        qint64 produced;
    };

    void thin()
    {
        // Drops the mark whose neighbours are closest in time: the marks stay
        // spread over the whole wait (a three-hour outage is seen to about
        // 40 s), the first is kept (the oldest wait stays exact), and any
        // mark left out only makes a later estimate shorter, never longer.
        std::size_t drop = 1;
        for (std::size_t i = 2; i + 1 < m_marks.size(); ++i)
            if (m_marks[i + 1].at - m_marks[i - 1].at < m_marks[drop + 1].at - m_marks[drop - 1].at)
                drop = i;
        m_marks.erase(m_marks.begin() + std::ptrdiff_t(drop));
    }

    std::deque<Mark> m_marks;
    qint64 m_reported = -1;
    Clock::time_point m_lastReport = Clock::now();
};

} // namespace md
