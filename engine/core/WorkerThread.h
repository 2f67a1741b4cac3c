#pragma once

#include <QString>
#include <QtGlobal>

#include <functional>

class QObject;
class QThread;

namespace md {

// The one owner of a long-lived worker thread: a client that serves many
// requests or polls on a timer (ClusterClient, AdminClient, GroupLagSampler),
// or a blocking poll loop (MirrorJob's worker, GroupSyncRunner, the sandbox's
// producer).
// One-shot work does not get a thread: it is a task (engine/core/Tasks.h; the UI
// through md::inBackground, which drops the answer of a closed widget).
//
// A QThread running an event loop, with one worker QObject moved onto it and
// deleted there when the loop ends: requests reach the worker as queued calls,
// answers come back as queued signals carrying values. Destroying the owner
// asks the loop to end (quit + requestInterruption, which a worker's long
// step may poll) and returns at once: nothing waits on the caller's thread,
// so a window closes even while a broker does not answer. The thread deletes
// itself when its current step is done; threads still running when the
// application ends are waited for then (a post routine, waitForDetached),
// also those another detached thread detached while it ended, so no worker
// is cut off inside librdkafka at exit, nor runs on while exit() destroys the
// libraries' and Qt's static state.
//
// A blocking loop (start(loop)) runs instead of the event loop; it ends when
// its owner's own stop flag says so. Owners that must see it end (a job's
// waitForFinished, a sandbox tearing down the mock clusters the loop produces
// to) join().
class WorkerThread final {
    Q_DISABLE_COPY_MOVE(WorkerThread)
public:
    explicit WorkerThread(const QString &name);
    ~WorkerThread(); // ends the loop without waiting for it

    // Moves `worker` (without a parent) onto the thread, which owns it from now on.
    // Call once, before start().
    void adopt(QObject *worker);
    void start();
    // Runs `loop` on the thread instead of an event loop.
    void start(std::function<void()> loop);
    bool isStarted() const { return m_started; }
    // Waits until the thread ended (timeoutMs < 0: however long that takes).
    // False on timeout. For owners whose teardown needs the thread gone.
    bool join(int timeoutMs = -1);

    // Waits for every thread whose owner is gone until none is left, also those
    // detached meanwhile by a thread it waited for, and deletes them. Runs at
    // the end of the application (a post routine of QCoreApplication's
    // destructor, registered by the first start()); nothing of ours may still
    // run when exit() destroys the libraries' and Qt's static state.
    static void waitForDetached();

private:
    QThread *thread();

    QString m_name;
    QThread *m_thread = nullptr;
    QObject *m_worker = nullptr; // deleted on the thread when its loop ends
    bool m_started = false;
};

} // namespace md
