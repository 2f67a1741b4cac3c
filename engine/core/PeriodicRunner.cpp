#include "engine/core/PeriodicRunner.h"

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace md {

struct PeriodicRunner::Control {
    std::atomic<bool> cancel{false};
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
};

PeriodicRunner::PeriodicRunner(const QString &threadName) : m_control(std::make_shared<Control>()), m_thread(threadName)
{
}

PeriodicRunner::~PeriodicRunner()
{
    stop();
    finish(1000);
}

void PeriodicRunner::start(std::chrono::milliseconds interval, First first, std::function<bool()> round,
                           std::function<void()> cleanup)
{
    if (m_thread.isStarted())
        return;
    m_thread.start([c = m_control, interval, first, round = std::move(round), cleanup = std::move(cleanup)] {
        const auto waitCancelled = [&] { // true: stop() came during the wait
            std::unique_lock lock(c->mutex);
            return c->cv.wait_for(lock, interval, [&] { return c->cancel.load(); });
        };
        bool go = first == First::AtOnce || !waitCancelled();
        while (go && !c->cancel && round())
            go = !waitCancelled();
        if (cleanup)
            cleanup();
        {
            std::lock_guard lock(c->mutex);
            c->done = true;
        }
        c->cv.notify_all();
    });
}

void PeriodicRunner::stop()
{
    {
        std::lock_guard lock(m_control->mutex);
        m_control->cancel = true;
    }
    m_control->cv.notify_all();
}

bool PeriodicRunner::finish(int timeoutMs)
{
    if (!m_thread.isStarted())
        return true;
    std::unique_lock lock(m_control->mutex);
    if (!m_control->cv.wait_for(lock, std::chrono::milliseconds(timeoutMs), [&] { return m_control->done; }))
        return false; // WorkerThread lets the thread outlive its owner
    lock.unlock();
    m_thread.join(); // it only has to return
    return true;
}

} // namespace md
