#include "engine/mirror/RunnerEvents.h"

#include <QDateTime>

namespace md {

void RunnerEvents::setSink(Sink sink)
{
    std::lock_guard lock(m_mutex);
    m_sink = std::move(sink);
}

void RunnerEvents::report(JobEvent::Severity severity, const QString &text)
{
    JobEvent e;
    e.time = QDateTime::currentDateTimeUtc();
    e.severity = severity;
    e.text = text;
    std::lock_guard lock(m_mutex);
    if (m_sink)
        m_sink(e);
}

void RunnerEvents::warnOnce(const QString &key, const QString &text, Clock::time_point now)
{
    {
        std::lock_guard lock(m_mutex);
        auto it = m_warned.find(key);
        if (it != m_warned.end() && now - *it < m_debounce)
            return;
        m_warned.insert(key, now);
    }
    report(JobEvent::Severity::Warning, text);
}

} // namespace md
