// WorkerThread, the one owner of a long-lived thread: destroying the owner while
// its worker is inside a long step returns at once, and the worker is still
// deleted on its own thread once the step ends; a blocking loop is joined; the
// application's end waits for every detached thread, also one detached by
// another detached thread while the end waited for that one (issue 40).
#include "engine/core/WorkerThread.h"

#include <QElapsedTimer>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>
#include <thread>

using namespace md;

namespace {

// Counts its deletions, and on which thread they happen.
struct Probe {
    std::atomic<int> deleted{0};
    std::atomic<QThread *> deletedOn{nullptr};
    std::atomic<QThread *> ranOn{nullptr};
    std::atomic<bool> stepStarted{false};
};

class SlowWorker final : public QObject {
    Q_OBJECT
public:
    explicit SlowWorker(std::shared_ptr<Probe> probe) : m_probe(std::move(probe)) {}
    ~SlowWorker() override
    {
        m_probe->deletedOn = QThread::currentThread();
        ++m_probe->deleted;
    }
    void step(int ms)
    {
        m_probe->ranOn = QThread::currentThread();
        m_probe->stepStarted = true;
        QThread::msleep(ms);
    }

private:
    std::shared_ptr<Probe> m_probe;
};

} // namespace

class TstWorkerThread final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void destroyingTheOwnerDoesNotWait()
    {
        auto probe = std::make_shared<Probe>();
        auto owner = std::make_unique<WorkerThread>(QStringLiteral("slow"));
        auto *worker = new SlowWorker(probe);
        owner->adopt(worker);
        owner->start();
        QMetaObject::invokeMethod(
            worker, [worker] { worker->step(1500); }, Qt::QueuedConnection);
        QTRY_VERIFY_WITH_TIMEOUT(probe->stepStarted.load(), 5000);
        QElapsedTimer t;
        t.start();
        owner.reset();
        QVERIFY2(t.elapsed() < 200, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(probe->deleted.load(), 0); // still inside its step
        // The step ends, the loop ends, the worker goes on its own thread.
        QTRY_COMPARE_WITH_TIMEOUT(probe->deleted.load(), 1, 10000);
        QVERIFY(probe->deletedOn.load() == probe->ranOn.load());
        QVERIFY(probe->ranOn.load() != QThread::currentThread());
    }

    void neverStartedDeletesItsWorker()
    {
        auto probe = std::make_shared<Probe>();
        {
            WorkerThread owner(QStringLiteral("idle"));
            owner.adopt(new SlowWorker(probe));
        }
        QCOMPARE(probe->deleted.load(), 1);
    }

    void blockingLoopIsJoined()
    {
        std::atomic<bool> stop{false};
        std::atomic<int> rounds{0};
        WorkerThread owner(QStringLiteral("loop"));
        owner.start([&] {
            while (!stop) {
                ++rounds;
                QThread::msleep(10);
            }
        });
        QTRY_VERIFY_WITH_TIMEOUT(rounds.load() > 0, 5000);
        QVERIFY(!owner.join(50)); // still looping
        stop = true;
        QVERIFY(owner.join(5000));
    }

    // A job's engine thread that holds the last reference to the job destroys
    // the job's lag-time reader as it ends, while the reader's thread is still
    // reading: that thread is detached from the engine thread, after the
    // application's end began waiting for the engine thread. It must be waited
    // for too; it was not, and ran on into exit() (issue 40: glibc's
    // "malloc_consolidate(): invalid chunk size" in a thread's exit).
    void detachedWhileTheEndWaitsIsWaitedFor()
    {
        struct Flags {
            std::atomic<bool> release{false};
            std::atomic<bool> innerStarted{false};
            std::atomic<bool> innerDone{false};
        };
        auto flags = std::make_shared<Flags>(); // the threads may outlive this function
        auto outer = std::make_unique<WorkerThread>(QStringLiteral("outer"));
        outer->start([flags] {
            while (!flags->release)
                QThread::msleep(5);
            auto inner = std::make_unique<WorkerThread>(QStringLiteral("inner"));
            inner->start([flags] {
                flags->innerStarted = true;
                QThread::msleep(500);
                flags->innerDone = true;
            });
            while (!flags->innerStarted)
                QThread::msleep(1);
            inner.reset(); // detached from this thread, still running
        });
        outer.reset(); // detached, waiting for the release
        // The outer thread detaches the inner one once the wait below has begun.
        std::thread releaser([flags] {
            QThread::msleep(200);
            flags->release = true;
        });
        WorkerThread::waitForDetached(); // what QCoreApplication's destructor runs
        releaser.join();
        QVERIFY2(flags->innerDone.load(), "returned while a detached thread still ran");
    }
};

QTEST_GUILESS_MAIN(TstWorkerThread)
#include "tst_workerthread.moc"
