#include "bench_monitor_live_probe.h"

#include "ui/job/JobMonitor.h"

#include <QThread>

#include <sys/resource.h>

#include <algorithm>
#include <ctime>

using md::JobMonitor;

qint64 threadCpuNs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

double processCpuS()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

ThreadSwitches threadSwitches()
{
    rusage ru{};
    getrusage(RUSAGE_THREAD, &ru);
    return {ru.ru_nvcsw, ru.ru_nivcsw};
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
}

void ProbeApp::watch(const QList<JobMonitor *> &monitors, const QList<QObject *> &jobs)
{
    m_monitors.clear();
    m_jobIndex.clear();
    m_monitorIndex.clear();
    for (int i = 0; i < monitors.size(); ++i) {
        m_monitors.append(monitors.at(i));
        m_monitorIndex.insert(monitors.at(i), i);
        if (i < jobs.size())
            m_jobIndex.insert(jobs.at(i), i);
    }
    m_perMonitorNs.assign(size_t(monitors.size()), 0);
    m_redraws.assign(size_t(monitors.size()), 0);
    m_visibleNs = 0;
    m_hiddenNs = 0;
}

int ProbeApp::monitorOf(const QObject *receiver) const
{
    if (const auto job = m_jobIndex.constFind(receiver); job != m_jobIndex.cend())
        return *job;
    for (const QObject *o = receiver; o; o = o->parent()) {
        if (const auto monitor = m_monitorIndex.constFind(o); monitor != m_monitorIndex.cend())
            return *monitor;
    }
    return -1;
}

void ProbeApp::add(int monitor, bool visible, qint64 ns)
{
    m_perMonitorNs[size_t(monitor)] += ns;
    (visible ? m_visibleNs : m_hiddenNs) += ns;
}

bool ProbeApp::notify(QObject *receiver, QEvent *event)
{
    if (m_monitors.isEmpty() || m_counting || QThread::currentThread() != thread())
        return QApplication::notify(receiver, event);
    if (const int i = monitorOf(receiver); i >= 0) {
        const bool visible = m_monitors.at(i) && m_monitors.at(i)->isVisible();
        m_counting = true;
        const qint64 t0 = threadCpuNs();
        const bool r = QApplication::notify(receiver, event);
        const qint64 dt = threadCpuNs() - t0;
        m_counting = false;
        add(i, visible, dt);
        m_nestedNs += dt;
        return r;
    }
    if (m_depth > 0) {
        ++m_depth;
        const bool r = QApplication::notify(receiver, event);
        --m_depth;
        return r;
    }
    // An outermost event elsewhere: counted when it redrew a monitor (its timer).
    ++m_depth;
    m_nestedNs = 0;
    for (size_t i = 0; i < m_redraws.size(); ++i)
        m_redraws[i] = m_monitors.at(qsizetype(i)) ? m_monitors.at(qsizetype(i))->redrawCount() : 0;
    const qint64 t0 = threadCpuNs();
    const bool r = QApplication::notify(receiver, event);
    const qint64 dt = threadCpuNs() - t0;
    --m_depth;
    for (size_t i = 0; i < m_redraws.size(); ++i) {
        const JobMonitor *m = m_monitors.at(qsizetype(i));
        if (m && m->redrawCount() != m_redraws[i]) {
            add(int(i), true, dt - m_nestedNs); // a monitor redraws only while shown
            break;                              // nested monitor events were added already
        }
    }
    return r;
}
