// The copy rate limit (engine/mirror/ByteThrottle.h) on a clock the test
// moves: the rate holds over a window, one record may overdraw the budget and
// the next waits until the debt is paid, a pause saves at most 100 ms of
// bytes, a new rate keeps a debt but not savings, and no rate means no wait.
#include "engine/mirror/ByteThrottle.h"

#include <QTest>

using namespace md;
using namespace std::chrono_literals;

class TstByteThrottle final : public QObject {
    Q_OBJECT

    using Clock = ByteThrottle::Clock;

    // Records of `bytes` offered every millisecond for `span`: what passed.
    static qint64 copyFor(ByteThrottle &t, Clock::time_point &now, std::chrono::milliseconds span, qint64 bytes)
    {
        qint64 passed = 0;
        for (auto end = now + span; now < end; now += 1ms) {
            t.refill(now);
            while (t.mayTake()) {
                t.took(bytes);
                passed += bytes;
            }
        }
        return passed;
    }

private Q_SLOTS:
    void theRateHoldsOverAWindow()
    {
        ByteThrottle t;
        Clock::time_point now{};
        t.start(now, 1'000'000);
        const qint64 passed = copyFor(t, now, 10s, 10'000);
        // 10 s at 1 MB/s, plus at most one record of overdraft and the 100 ms burst.
        QVERIFY2(passed >= 9'900'000 && passed <= 10'000'000 + 10'000 + 100'000, qPrintable(QString::number(passed)));
    }

    void aRecordMayOverdrawAndTheNextWaitsForTheDebt()
    {
        ByteThrottle t;
        Clock::time_point now{};
        t.start(now, 1000); // 1 KB/s
        QVERIFY(t.mayTake());
        t.took(5000); // five seconds' worth in one record
        QVERIFY(!t.mayTake());
        QVERIFY(t.waiting());
        now += 4900ms;
        t.refill(now);
        QVERIFY(t.waiting());
        QVERIFY(!t.mayTake());
        now += 200ms;
        t.refill(now);
        QVERIFY(!t.waiting());
        QVERIFY(t.mayTake());
    }

    void aPauseSavesAtMostAHundredMilliseconds()
    {
        ByteThrottle t;
        Clock::time_point now{};
        t.start(now, 1'000'000);
        now += 60s; // nothing to copy for a minute
        t.refill(now);
        qint64 burst = 0;
        while (t.mayTake()) {
            t.took(1000);
            burst += 1000;
        }
        QVERIFY2(burst <= 100'000 + 1000, qPrintable(QString::number(burst)));
        QVERIFY(burst >= 100'000);
    }

    void aNewRateKeepsTheDebtButNotTheSavings()
    {
        ByteThrottle t;
        Clock::time_point now{};
        t.start(now, 1'000'000);
        now += 1s;
        t.refill(now); // 100 KB saved
        t.setRate(now, 10);
        QCOMPARE(t.rate(), 10);
        t.took(1);
        QVERIFY(!t.mayTake()); // the savings of the old rate are gone
        t.took(99);
        now += 5s;
        t.setRate(now, 20);
        QVERIFY(!t.mayTake()); // 100 bytes owed; none of the 5 s counts
        now += 5s;
        t.refill(now);
        QVERIFY(t.mayTake());
    }

    void noRateNeverWaits()
    {
        ByteThrottle t;
        Clock::time_point now{};
        t.start(now, 0);
        QCOMPARE(t.rate(), 0);
        t.took(1'000'000'000);
        QVERIFY(t.mayTake());
        t.setRate(now, 100);
        t.took(1000);
        QVERIFY(!t.mayTake());
        QVERIFY(t.waiting());
        t.setRate(now, 0); // removed: what waits goes at once
        QVERIFY(!t.waiting());
        QVERIFY(t.mayTake());
    }
};

QTEST_GUILESS_MAIN(TstByteThrottle)
#include "tst_bytethrottle.moc"
