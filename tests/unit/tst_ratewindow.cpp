// The one rate every view shows (engine/mirror/RateWindow.h): steady for batched
// deliveries and uneven ticks, where a rate per tick jumps between 0 and
// bursts; a restarted counter starts again instead of going negative.
#include "engine/mirror/RateWindow.h"

#include <QTest>

using namespace md;

class TstRateWindow final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void batchedDeliveriesReadSteady()
    {
        // 400 records/s delivered in one batch a second, sampled every 250 ms as
        // the engine does: three of four ticks have no delivery of their own.
        RateWindow<1> w;
        qint64 produced = 0;
        for (int tick = 1; tick <= 40; ++tick) {
            if (tick % 4 == 0)
                produced += 400;
            const double rate = w.add(tick * 250, {produced})[0];
            if (tick * 250 < RateWindow<1>::kWindowMs + 250)
                continue; // the first window
            QVERIFY2(rate > 300 && rate < 500, qPrintable(QStringLiteral("tick %1: %2/s").arg(tick).arg(rate)));
        }
    }

    void unevenTicksDoNotSpike()
    {
        // A busy machine: a tick 2 ms after the previous one, carrying what the
        // stall held back. Per tick that reads 100,000/s; over the window, ~1,000/s.
        RateWindow<1> w;
        qint64 n = 0;
        qint64 ms = 0;
        for (int i = 0; i < 20; ++i) {
            ms += 250;
            n += 250;
            w.add(ms, {n});
        }
        ms += 2;
        n += 200;
        const double rate = w.add(ms, {n})[0];
        QVERIFY2(rate > 900 && rate < 1200, qPrintable(QString::number(rate)));
    }

    void severalCountersAndTheFirstSample()
    {
        RateWindow<2> w;
        QCOMPARE(w.add(1000, {10, 100}), (RateWindow<2>::Rates{0, 0})); // one sample spans no time
        const auto r = w.add(2000, {20, 300});
        QCOMPARE(r[0], 10.0);
        QCOMPARE(r[1], 200.0);
    }

    void aRestartedCounterStartsAgain()
    {
        RateWindow<1> w;
        w.add(1000, {500});
        w.add(2000, {1500});
        QCOMPARE(w.add(2250, {0})[0], 0.0); // a new run: not a negative rate
        QCOMPARE(w.add(3250, {300})[0], 300.0);
        QCOMPARE(w.add(100, {400})[0], 0.0); // time going back, too
    }

    void theWindowForgetsOldRates()
    {
        // 1,000/s for 10 s, then nothing: a window later the rate is 0.
        RateWindow<1> w;
        qint64 n = 0;
        qint64 ms = 0;
        for (; ms < 10000; ms += 250) {
            n += 250;
            w.add(ms, {n});
        }
        double rate = -1;
        for (const qint64 end = ms + RateWindow<1>::kWindowMs + 250; ms <= end; ms += 250)
            rate = w.add(ms, {n})[0];
        QCOMPARE(rate, 0.0);
        QVERIFY(w.memoryBytes() < 64 * 1024);
    }
};

QTEST_GUILESS_MAIN(TstRateWindow)
#include "tst_ratewindow.moc"
