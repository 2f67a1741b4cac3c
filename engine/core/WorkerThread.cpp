#include "engine/core/WorkerThread.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QThread>

#include <mutex>
#include <set>

namespace md {

namespace {

// Threads whose owner is gone but whose loop has not ended yet.
std::mutex g_detachedMutex;
std::set<QThread *> g_detached;

// Once, before the application can end: WorkerThread::waitForDetached runs as
// one of its post routines (QCoreApplication's destructor).
void waitAtTheEnd()
{
    static const bool registered = [] {
        qAddPostRoutine(&WorkerThread::waitForDetached);
        return true;
    }();
    Q_UNUSED(registered)
}

void detach(QThread *thread)
{
    waitAtTheEnd();
    {
        std::lock_guard lock(g_detachedMutex);
        g_detached.insert(thread);
    }
    QObject::connect(thread, &QObject::destroyed, [thread] {
        std::lock_guard lock(g_detachedMutex);
        g_detached.erase(thread);
    });
    QObject::connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    thread->requestInterruption();
    thread->quit();
    // It may have ended before the connection above was made.
    if (thread->isFinished())
        thread->deleteLater();
}

} // namespace

void WorkerThread::waitForDetached()
{
    // Until none is left running, not one pass over those detached so far: a
    // detached thread may detach another just before it ends. A job's engine
    // thread that drops the last reference to the job destroys the job's
    // lag-time reader, whose thread may still be reading; it was detached
    // after the pass had begun and never waited for, so the process ran exit()
    // (static destructors, the libraries' cleanup) under a thread still inside
    // librdkafka and Qt, and glibc aborted in a thread's exit (issue 40).
    for (;;) {
        QThread *running = nullptr;
        {
            // Under the lock: a thread deleted meanwhile leaves the set first.
            std::lock_guard lock(g_detachedMutex);
            for (QThread *t : g_detached) {
                if (!t->isFinished()) {
                    running = t;
                    break;
                }
            }
        }
        if (!running)
            break;
        running->wait();
    }
    // None of them runs any more, and no event loop takes the deleteLater each
    // posted when it finished (that is how they leaked): deleted here, which
    // also drops that posted event.
    std::set<QThread *> finished;
    {
        std::lock_guard lock(g_detachedMutex);
        finished.swap(g_detached);
    }
    for (QThread *t : finished)
        delete t;
}

WorkerThread::WorkerThread(const QString &name) : m_name(name)
{
}

WorkerThread::~WorkerThread()
{
    if (!m_started) {
        delete m_worker;
        delete m_thread;
        return;
    }
    if (m_thread->isFinished()) { // joined, or it ended by itself
        delete m_thread;
        return;
    }
    detach(m_thread);
}

QThread *WorkerThread::thread()
{
    if (!m_thread) {
        m_thread = new QThread;
        m_thread->setObjectName(m_name);
    }
    return m_thread;
}

void WorkerThread::adopt(QObject *worker)
{
    Q_ASSERT(!m_worker && !m_started && !worker->parent());
    m_worker = worker;
    worker->moveToThread(thread());
    // Delivered on the thread after its loop ends, before it exits.
    QObject::connect(m_thread, &QThread::finished, worker, &QObject::deleteLater);
}

void WorkerThread::start()
{
    if (m_started)
        return;
    waitAtTheEnd();
    m_started = true;
    thread()->start();
}

void WorkerThread::start(std::function<void()> loop)
{
    Q_ASSERT(!m_thread && !m_started);
    waitAtTheEnd();
    m_started = true;
    m_thread = QThread::create(std::move(loop));
    m_thread->setObjectName(m_name);
    m_thread->start();
}

bool WorkerThread::join(int timeoutMs)
{
    if (!m_started)
        return true;
    return m_thread->wait(timeoutMs < 0 ? QDeadlineTimer(QDeadlineTimer::Forever) : QDeadlineTimer(timeoutMs));
}

} // namespace md
