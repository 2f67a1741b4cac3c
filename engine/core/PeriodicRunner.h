#pragma once

#include "engine/core/WorkerThread.h"

#include <QString>

#include <chrono>
#include <functional>
#include <memory>

namespace md {

// A job's helper that runs rounds on its own thread, off the record path,
// one every interval (ACL sync: the first at once; group sync: the first
// after an interval, once the job has copied and mapped something). stop() asks
// from any thread and wakes the wait between rounds; finish() waits a bounded
// time for the thread. A round still inside a call that cannot be interrupted
// (a Kafka request) is then left to end by itself: the round's state must be
// owned by the round function (captured by value: a shared_ptr), and the
// owner makes it report nothing more (finish returns false).
class PeriodicRunner final {
public:
    explicit PeriodicRunner(const QString &threadName);
    ~PeriodicRunner(); // stop() + finish(1000)
    PeriodicRunner(const PeriodicRunner &) = delete;
    PeriodicRunner &operator=(const PeriodicRunner &) = delete;

    // `round` returns false when no round should follow; `cleanup` runs on
    // the thread after the last round (clients are closed where they were used).
    enum class First { AtOnce, AfterInterval };
    void start(std::chrono::milliseconds interval, First first, std::function<bool()> round,
               std::function<void()> cleanup = {});
    void stop(); // asks; returns at once (any thread)
    // Waits up to timeoutMs for the thread; false: it is still in a round and
    // is left to end on its own.
    bool finish(int timeoutMs);
    bool isStarted() const { return m_thread.isStarted(); }

private:
    struct Control;
    std::shared_ptr<Control> m_control; // shared with the thread, which may outlive this object
    WorkerThread m_thread;
};

} // namespace md
