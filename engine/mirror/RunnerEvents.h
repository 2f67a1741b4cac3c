#pragma once

#include "engine/mirror/MetricsSnapshot.h"

#include <QHash>
#include <QString>

#include <chrono>
#include <functional>
#include <mutex>

namespace md {

// The job events of a part that runs beside the worker on a thread of its own
// (group, ACL and schema sync, the offset map's pruning): reported from that
// thread through the job's sink (which only posts), warnings debounced by key,
// and cut off when the owner lets go of a round still running, which then
// ends on its own and reports nothing more.
class RunnerEvents final {
public:
    using Sink = std::function<void(const JobEvent &)>;
    using Clock = std::chrono::steady_clock;

    explicit RunnerEvents(std::chrono::milliseconds debounce) : m_debounce(debounce) {}

    void setSink(Sink sink);
    void cutOff() { setSink(nullptr); }
    void report(JobEvent::Severity severity, const QString &text);
    // A warning, unless the same key warned less than the debounce interval ago.
    void warnOnce(const QString &key, const QString &text, Clock::time_point now = Clock::now());

private:
    std::mutex m_mutex;
    Sink m_sink;
    QHash<QString, Clock::time_point> m_warned;
    const std::chrono::milliseconds m_debounce;
};

} // namespace md
