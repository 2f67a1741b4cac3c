#include "engine/mirror/TargetSilenceWatch.h"

namespace md {

TargetSilenceWatch::Check TargetSilenceWatch::check(Clock::time_point now, qint64 inFlight)
{
    using std::chrono::duration_cast;
    using std::chrono::seconds;
    m_clock.update(now, m_reports + inFlight, m_reports);
    Check c;
    const auto waited = m_clock.oldestWait(now);
    if (waited < kShortWait) {
        m_told = false;
        if (m_slow) {
            m_slow = false;
            c.verdict = Verdict::KeepsUpAgain;
        }
        return c;
    }
    if (waited < kLongWait)
        return c;
    // Asked again while records wait: a broker may be fenced only after the wait began.
    c.revive = true;
    if (m_told)
        return c;
    m_told = true;
    const auto silent = m_clock.sinceLastReport(now);
    c.waitedSeconds = duration_cast<seconds>(waited).count();
    c.silentSeconds = duration_cast<seconds>(silent).count();
    // Records in flight when it went silent were still acknowledged just after
    // the oldest waiting one was sent: silent is "nothing for half the wait".
    if (silent >= waited / 2) {
        c.verdict = Verdict::Unreachable;
    } else {
        m_slow = true;
        c.verdict = Verdict::Slow;
    }
    return c;
}

} // namespace md
