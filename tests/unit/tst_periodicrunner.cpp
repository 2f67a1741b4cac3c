// PeriodicRunner, the one loop of a job's helpers (group sync, ACL sync):
// rounds come at the interval, the first at once or after one interval as
// asked; stop() ends the wait between rounds at once; a round that says
// "no more" ends the loop; cleanup runs on the runner's thread; and a round
// stuck in a call is left to end by itself, after its owner is gone.
#include "engine/core/PeriodicRunner.h"

#include <QElapsedTimer>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

using namespace md;
using namespace std::chrono_literals;

namespace {

struct Counts {
    std::atomic<int> rounds{0};
    std::atomic<int> cleanups{0};
    std::atomic<QThread *> cleanedOn{nullptr};
    std::atomic<QThread *> roundOn{nullptr};
    std::atomic<bool> release{false};
};

} // namespace

class TstPeriodicRunner final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void roundsComeAtTheInterval()
    {
        auto c = std::make_shared<Counts>();
        PeriodicRunner runner(QStringLiteral("test-periodic"));
        QElapsedTimer t;
        t.start();
        runner.start(
            100ms, PeriodicRunner::First::AtOnce,
            [c] {
                c->roundOn = QThread::currentThread();
                ++c->rounds;
                return true;
            },
            [c] {
                c->cleanedOn = QThread::currentThread();
                ++c->cleanups;
            });
        QTRY_VERIFY_WITH_TIMEOUT(c->rounds >= 4, 5000);
        QVERIFY2(t.elapsed() >= 280, "four rounds 100 ms apart take 300 ms"); // the first at once
        runner.stop();
        QVERIFY(runner.finish(2000));
        QCOMPARE(c->cleanups.load(), 1);
        QVERIFY(c->roundOn.load() != QThread::currentThread());
        QCOMPARE(c->cleanedOn.load(), c->roundOn.load()); // clients close where they were used
        const int after = c->rounds;
        QTest::qWait(300);
        QCOMPARE(c->rounds.load(), after); // no round after stop
    }

    void theFirstRoundCanWaitAnInterval()
    {
        auto c = std::make_shared<Counts>();
        PeriodicRunner runner(QStringLiteral("test-periodic"));
        runner.start(300ms, PeriodicRunner::First::AfterInterval, [c] {
            ++c->rounds;
            return true;
        });
        QTest::qWait(150);
        QCOMPARE(c->rounds.load(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(c->rounds.load(), 1, 2000);
    }

    void stopEndsTheWaitAtOnce()
    {
        auto c = std::make_shared<Counts>();
        PeriodicRunner runner(QStringLiteral("test-periodic"));
        runner.start(1h, PeriodicRunner::First::AfterInterval, [c] {
            ++c->rounds;
            return true;
        });
        QElapsedTimer t;
        t.start();
        runner.stop();
        QVERIFY(runner.finish(2000));
        QVERIFY2(t.elapsed() < 1000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(c->rounds.load(), 0); // stopped before the first round
    }

    void aRoundCanEndTheLoop()
    {
        auto c = std::make_shared<Counts>();
        PeriodicRunner runner(QStringLiteral("test-periodic"));
        runner.start(
            10ms, PeriodicRunner::First::AtOnce, [c] { return ++c->rounds < 3; }, [c] { ++c->cleanups; });
        QTRY_COMPARE_WITH_TIMEOUT(c->cleanups.load(), 1, 2000);
        QCOMPARE(c->rounds.load(), 3);
        QVERIFY(runner.finish(1000));
    }

    void aStuckRoundOutlivesItsOwner()
    {
        auto c = std::make_shared<Counts>();
        {
            PeriodicRunner runner(QStringLiteral("test-periodic"));
            runner.start(
                10ms, PeriodicRunner::First::AtOnce,
                [c] {
                    ++c->rounds;
                    while (!c->release) // a Kafka call that cannot be interrupted
                        QThread::msleep(5);
                    return true;
                },
                [c] { ++c->cleanups; });
            QTRY_COMPARE_WITH_TIMEOUT(c->rounds.load(), 1, 2000);
            runner.stop();
            QElapsedTimer t;
            t.start();
            QVERIFY(!runner.finish(100)); // left to end on its own
            QVERIFY(t.elapsed() < 1000);
        } // the owner goes while the round is still inside its call
        c->release = true;
        QTRY_COMPARE_WITH_TIMEOUT(c->cleanups.load(), 1, 5000); // it ended by itself, cleanly
        QCOMPARE(c->rounds.load(), 1);                          // and started no other round
    }
};

QTEST_GUILESS_MAIN(TstPeriodicRunner)
#include "tst_periodicrunner.moc"
