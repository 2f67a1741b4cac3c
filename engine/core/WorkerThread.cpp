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

// At the end of the application: let every detached thread finish its step
// (bounded by the worker's own timeouts). No event loop runs any more, so the
// threads cannot delete themselves meanwhile.
void waitForDetached()
{
    std::set<QThread *> threads;
    {
        std::lock_guard lock(g_detachedMutex);
        threads = g_detached;
    }
    for (QThread *t : threads)
        t->wait();
}

void detach(QThread *thread)
{
    static const bool registered = [] {
        qAddPostRoutine(waitForDetached);
        return true;
    }();
    Q_UNUSED(registered)
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
    m_started = true;
    thread()->start();
}

void WorkerThread::start(std::function<void()> loop)
{
    Q_ASSERT(!m_thread && !m_started);
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
