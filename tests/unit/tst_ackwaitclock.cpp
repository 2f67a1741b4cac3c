// The target's acknowledgement wait (engine/mirror/AckWaitClock.h): what the engine's
// "target unreachable" and "target slow" events are decided on. A clock that
// restarts at every report would miss a target answering a trickle.

#include "engine/mirror/AckWaitClock.h"

#include <QTest>

using namespace md;
using namespace std::chrono_literals;
using Clock = AckWaitClock::Clock;

class TstAckWaitClock final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void nothingWaitsNothingAges()
    {
        AckWaitClock c;
        const auto t0 = Clock::now();
        for (int i = 0; i < 100; ++i)
            c.update(t0 + i * 100ms, 10 * i, 10 * i); // every record acknowledged at once
        QCOMPARE(c.oldestWait(t0 + 20s), Clock::duration::zero());
        QCOMPARE(c.marks(), std::size_t(0));
    }

    void silenceIsAWaitWithNoReport()
    {
        AckWaitClock c;
        const auto t0 = Clock::now();
        c.update(t0, 500, 400);
        c.update(t0 + 1s, 500, 500); // the last report
        for (int i = 1; i <= 120; ++i)
            c.update(t0 + 1s + i * 100ms, 500 + i, 500); // produced on, nothing acknowledged
        const auto now = t0 + 13s;
        QVERIFY(c.oldestWait(now) >= 11900ms && c.oldestWait(now) <= 12s);
        QVERIFY(c.sinceLastReport(now) >= c.oldestWait(now));
    }

    // Reports keep arriving, each a second apart, but every record waits 12 s:
    // the wait is the records', not the time since the last report.
    void aTrickleOfReportsDoesNotHideTheWait()
    {
        AckWaitClock c;
        const auto t0 = Clock::now();
        const auto producedBy = [](std::chrono::milliseconds t) { return qint64(t.count() / 10); }; // 100/s
        for (auto t = 0ms; t <= 30s; t += 50ms) {
            const auto ackedUpTo = t >= 12s ? producedBy(std::chrono::floor<std::chrono::seconds>(t - 12s)) : 0;
            c.update(t0 + t, producedBy(t), ackedUpTo);
        }
        const auto now = t0 + 30s;
        QVERIFY2(c.sinceLastReport(now) <= 1s, "reports arrived within the last second");
        const auto waited = c.oldestWait(now);
        QVERIFY2(waited >= 11s && waited <= 13s,
                 qPrintable(QString::number(std::chrono::duration_cast<std::chrono::milliseconds>(waited).count())));
    }

    void theWaitEndsWhenTheReportsCatchUp()
    {
        AckWaitClock c;
        const auto t0 = Clock::now();
        for (int i = 0; i <= 150; ++i)
            c.update(t0 + i * 100ms, 10 * i, 0);
        QVERIFY(c.oldestWait(t0 + 15s) >= 14900ms);
        c.update(t0 + 15100ms, 1500, 1000); // records up to 1000 acknowledged: produced by t0 + 10 s
        // Record 1001 was produced at t0 + 10.01 s: waited 5.09 s, seen to one mark (300 ms here) below.
        const auto waited = c.oldestWait(t0 + 15100ms);
        QVERIFY2(waited <= 5090ms && waited >= 4750ms,
                 qPrintable(QString::number(std::chrono::duration_cast<std::chrono::milliseconds>(waited).count())));
        c.update(t0 + 15200ms, 1500, 1500);
        QCOMPARE(c.oldestWait(t0 + 15200ms), Clock::duration::zero());
    }

    // A target down for hours: the marks stay bounded, the oldest wait exact,
    // and later waits are still lower bounds of the true wait.
    void aLongOutageKeepsFewMarks()
    {
        AckWaitClock c;
        const auto t0 = Clock::now();
        const std::chrono::milliseconds end = 3h;
        for (auto t = 0ms; t <= end; t += 100ms)
            c.update(t0 + t, qint64(t.count()), 0); // a record a millisecond, none acknowledged
        QVERIFY(c.marks() <= AckWaitClock::kMaxMarks);
        QVERIFY(c.oldestWait(t0 + end) == end - 100ms); // the first record, produced at 100 ms, waits still
        // The first two hours acknowledged: the oldest waiting record was
        // produced at t0 + 2 h, so it waited 1 h; the estimate may only be shorter.
        c.update(t0 + end, qint64(end.count()), qint64(std::chrono::milliseconds(2h).count()));
        const auto waited = c.oldestWait(t0 + end);
        QVERIFY(waited <= 1h);
        QVERIFY2(waited >= 59min,
                 qPrintable(QString::number(std::chrono::duration_cast<std::chrono::seconds>(waited).count())));
    }
};

QTEST_GUILESS_MAIN(TstAckWaitClock)
#include "tst_ackwaitclock.moc"
