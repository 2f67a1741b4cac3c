// The watch on the target's acknowledgements (engine/mirror/TargetSilenceWatch.h)
// on a clock the test moves: a steady flow is never reported; a target that
// acknowledges nothing is told unreachable once, after 10 s, and the producer
// is asked to find its brokers from then on; a trickle that never catches up
// with the oldest record is told slow (a "time since the last report" would
// never see it) and "keeps up again" once it has caught up; a second outage
// is told again.
#include "engine/mirror/TargetSilenceWatch.h"

#include <QTest>

using namespace md;
using namespace std::chrono_literals;
using Verdict = TargetSilenceWatch::Verdict;

class TstTargetSilence final : public QObject {
    Q_OBJECT

    struct Run {
        TargetSilenceWatch watch;
        TargetSilenceWatch::Clock::time_point now = TargetSilenceWatch::Clock::now();
        QList<Verdict> told; // every verdict but Nothing, in order
        int revives = 0;
        TargetSilenceWatch::Check last;

        // One tick, 250 ms after the last: `acks` reports came, `inFlight` wait.
        void tick(int acks, qint64 inFlight)
        {
            now += 250ms;
            for (int a = 0; a < acks; ++a)
                watch.delivered();
            last = watch.check(now, inFlight);
            if (last.verdict != Verdict::Nothing)
                told << last.verdict;
            revives += last.revive ? 1 : 0;
        }
        void go(int seconds, int acksPerTick, qint64 inFlight)
        {
            for (int i = 0; i < seconds * 4; ++i)
                tick(acksPerTick, inFlight);
        }
    };

private Q_SLOTS:
    void aSteadyFlowIsNeverReported()
    {
        Run r;
        r.go(120, 50, 40); // 200 acknowledgements a second, 40 in flight at each tick
        QVERIFY(r.told.isEmpty());
        QCOMPARE(r.revives, 0);
    }

    void aSilentTargetIsToldOnceAndTheProducerAskedToLookAgain()
    {
        Run r;
        r.go(9, 0, 100);
        QVERIFY(r.told.isEmpty()); // under 10 s: not yet
        QCOMPARE(r.revives, 0);
        r.go(2, 0, 100);
        QCOMPARE(r.told, QList<Verdict>{Verdict::Unreachable});
        r.go(60, 0, 100);
        QCOMPARE(r.told.size(), 1); // once per wait
        QVERIFY(r.revives >= 60 * 4);
        QVERIFY(r.last.revive);

        r.go(2, 100, 0);            // back: everything acknowledged
        QCOMPARE(r.told.size(), 1); // its return is told by the worker, at its first acknowledgement
        QVERIFY(!r.last.revive);
        r.go(11, 0, 5); // a second outage
        QCOMPARE(r.told, (QList<Verdict>{Verdict::Unreachable, Verdict::Unreachable}));
    }

    void aTrickleIsToldSlowThenKeepsUpAgain()
    {
        Run r;
        // One acknowledgement a tick while 1,000 records wait: the oldest
        // waits on though something arrives all the time.
        r.go(12, 1, 1000);
        QCOMPARE(r.told, QList<Verdict>{Verdict::Slow});
        QVERIFY(r.last.revive);
        r.go(30, 1, 1000);
        QCOMPARE(r.told.size(), 1);
        r.go(1, 1000, 0); // caught up
        QCOMPARE(r.told, (QList<Verdict>{Verdict::Slow, Verdict::KeepsUpAgain}));
        r.go(30, 50, 10);
        QCOMPARE(r.told.size(), 2);
    }

    void theFiguresSayHowLong()
    {
        Run r;
        for (int i = 0; i < 240 && r.told.isEmpty(); ++i)
            r.tick(0, 7);
        QCOMPARE(r.told, QList<Verdict>{Verdict::Unreachable});
        // Told at the first tick 10 s after the oldest record was first seen
        // waiting, which had heard nothing since the start.
        QCOMPARE(r.last.waitedSeconds, 10);
        QVERIFY(r.last.silentSeconds >= 10 && r.last.silentSeconds <= 11);
    }
};

QTEST_GUILESS_MAIN(TstTargetSilence)
#include "tst_targetsilence.moc"
