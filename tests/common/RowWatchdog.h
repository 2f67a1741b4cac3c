#pragma once

// A time limit for each test row. QtTest's own watchdog (QTEST_FUNCTION_TIMEOUT)
// is meant to be one, but in Qt 6.4 it misses the end of a row when the next
// row or function begins at once (its thread never sees the change), so its
// limit runs over every row since it last woke: a lane of long rows is cut
// off in whichever row crosses the sum, and a row that was fine is blamed.
// This one restarts in init() and stops in cleanup(); a row past its limit
// aborts the test with its name (QtTest's crash handler prints every
// thread's stack), before CTest's limit kills the program without one.

#include <QtGlobal>

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace md::test {

class RowWatchdog {
public:
    // The limit in milliseconds comes from the environment variable `variable`;
    // unset or 0: no limit (a program run by hand).
    explicit RowWatchdog(const char *variable = "MIRRORDESK_TEST_ROW_TIMEOUT");
    ~RowWatchdog();
    RowWatchdog(const RowWatchdog &) = delete;
    RowWatchdog &operator=(const RowWatchdog &) = delete;

    void begin(); // in init(): the current row's limit starts
    void end();   // at the end of cleanup()

    qint64 limitMs() const { return m_limitMs; }
    // What is left of the current row's limit (a large number without a limit),
    // so a long wait can fail with its own message before the limit aborts.
    qint64 remainingMs() const;

private:
    void run();

    const qint64 m_limitMs;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    // A generation per begin(): a row that ends and a next that begins before
    // the thread wakes still restart the limit (what Qt 6.4's watchdog misses).
    std::uint64_t m_generation = 0;
    bool m_running = false;
    bool m_quit = false;
    std::int64_t m_deadlineMs = 0; // steady clock, in ms
    std::string m_row;
    std::thread m_thread;
};

} // namespace md::test
