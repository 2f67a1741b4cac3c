#pragma once

#include "engine/mirror/AckWaitClock.h"

#include <QtGlobal>

#include <chrono>

namespace md {

// Whether the target keeps up with what the job sends it, judged once a tick
// from two counters (no clock read per record): a black-holed target answers
// nothing (no error until librdkafka's socket timeout), one that cuts every
// connection mid-request answers a trickle, and the operator must hear of
// both well before that. Each wait is told once; "keeps up again" follows a
// trickle's report once the oldest wait is short again (a silent target's
// return is told by its next acknowledgement, where the worker sees it).
class TargetSilenceWatch final {
public:
    using Clock = AckWaitClock::Clock;
    static constexpr auto kShortWait = std::chrono::seconds(5); // under this: all is well
    static constexpr auto kLongWait = std::chrono::seconds(10); // from this: the operator hears

    enum class Verdict {
        Nothing,
        KeepsUpAgain, // after Slow
        Unreachable,  // nothing acknowledged for at least half the oldest wait
        Slow,         // acknowledgements trickle while records wait on
    };
    struct Check {
        Verdict verdict = Verdict::Nothing;
        // Records have waited long: the producer should look for its brokers
        // again (the worker limits how often), told or not.
        bool revive = false;
        qint64 waitedSeconds = 0; // the oldest record's wait
        qint64 silentSeconds = 0; // since the last acknowledgement
    };

    void delivered() { ++m_reports; } // one delivery report, of any outcome
    Check check(Clock::time_point now, qint64 inFlight);

private:
    AckWaitClock m_clock;
    qint64 m_reports = 0;
    bool m_told = false; // this wait was told
    bool m_slow = false; // Slow was told, KeepsUpAgain not yet
};

} // namespace md
