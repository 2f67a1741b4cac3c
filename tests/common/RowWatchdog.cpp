#include "RowWatchdog.h"

#include <QTest>

#include <chrono>
#include <cstdio>
#include <limits>

namespace md::test {

namespace {

std::int64_t nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

RowWatchdog::RowWatchdog(const char *variable) : m_limitMs(qMax(0, qEnvironmentVariableIntValue(variable)))
{
    if (m_limitMs > 0)
        m_thread = std::thread([this] { run(); });
}

RowWatchdog::~RowWatchdog()
{
    {
        std::lock_guard lock(m_mutex);
        m_quit = true;
    }
    m_changed.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

void RowWatchdog::begin()
{
    if (m_limitMs <= 0)
        return;
    std::string row = QTest::currentTestFunction() ? QTest::currentTestFunction() : "?";
    if (const char *tag = QTest::currentDataTag())
        row += std::string("(") + tag + ")";
    {
        std::lock_guard lock(m_mutex);
        ++m_generation;
        m_running = true;
        m_deadlineMs = nowMs() + m_limitMs;
        m_row = std::move(row);
    }
    m_changed.notify_all();
}

void RowWatchdog::end()
{
    if (m_limitMs <= 0)
        return;
    {
        std::lock_guard lock(m_mutex);
        ++m_generation;
        m_running = false;
    }
    m_changed.notify_all();
}

qint64 RowWatchdog::remainingMs() const
{
    if (m_limitMs <= 0)
        return std::numeric_limits<int>::max();
    std::lock_guard lock(m_mutex);
    return m_running ? qMax<qint64>(0, m_deadlineMs - nowMs()) : m_limitMs;
}

void RowWatchdog::run()
{
    std::unique_lock lock(m_mutex);
    while (!m_quit) {
        if (!m_running) {
            m_changed.wait(lock);
            continue;
        }
        const std::uint64_t generation = m_generation;
        const auto deadline = std::chrono::steady_clock::time_point(std::chrono::milliseconds(m_deadlineMs));
        if (m_changed.wait_until(lock, deadline, [&] { return m_quit || m_generation != generation; }))
            continue;
        std::fprintf(stderr, "RowWatchdog: %s did not end within %lld s\n", m_row.c_str(),
                     static_cast<long long>(m_limitMs / 1000));
        std::fflush(stderr);
        qFatal("Test row timed out: %s", m_row.c_str()); // QtTest's crash handler prints the stacks
    }
}

} // namespace md::test
