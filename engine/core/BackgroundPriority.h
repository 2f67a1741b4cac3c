#pragma once

#include <QtGlobal>

namespace md {

// Work started from the window that can take every cycle it gets (a message
// search, a mirror job) must not make the window wait for a core. On Linux
// nice is per thread, and threads inherit it from the thread that creates
// them: for its lifetime this lowers the calling thread's priority to the
// main thread's nice + 10, so librdkafka's threads, made on it afterwards,
// run there too. Headless runs and benchmarks do not use it.
// Restored at the end where the system allows it (without CAP_SYS_NICE it
// does not, and a pool thread stays low: its later tasks are background work
// too). Elsewhere it does nothing.
class BackgroundPriority final {
public:
    BackgroundPriority();
    ~BackgroundPriority();
    Q_DISABLE_COPY_MOVE(BackgroundPriority)

    // The calling thread's nice value (Linux), 0 elsewhere: what tests check.
    static int currentThreadNice();

private:
#ifdef Q_OS_LINUX
    int m_tid = 0;
    int m_old = 0;
    bool m_changed = false;
#endif
};

} // namespace md
