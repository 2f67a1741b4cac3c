// The UI-thread probes of bench_monitor_live: which CPU time is job monitor work.
#pragma once

#include <QApplication>
#include <QHash>
#include <QList>
#include <QPointer>

#include <vector>

namespace md {
class JobMonitor;
}

// The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID), in ns.
qint64 threadCpuNs();
// The process's user + system CPU time, in s.
double processCpuS();
// The calling thread's context switches so far: waits (voluntary) and preemptions.
struct ThreadSwitches {
    long voluntary = 0;
    long involuntary = 0;
};
ThreadSwitches threadSwitches();
// The p-quantile (0..1) of v, nearest rank; 0 when empty.
double percentile(std::vector<double> v, double p);

// Attributes the UI thread's CPU time to the watched job monitors, event by event (see
// bench_monitor_live.cpp's header): events delivered to a monitor's job, events to any
// widget of a monitor, and any event during which a monitor's redraw count rose (its
// coalescing redraw timer, a member without a parent). Nested events are counted once.
// Each event's time goes to its monitor, and to the visible or the hidden share by whether
// that monitor was visible when the event began.
class ProbeApp final : public QApplication {
public:
    using QApplication::QApplication;

    // monitors[i] is the monitor of jobs[i]. Resets the counts.
    void watch(const QList<md::JobMonitor *> &monitors, const QList<QObject *> &jobs);
    void unwatch() { watch({}, {}); }

    qint64 upkeepNs() const { return m_visibleNs + m_hiddenNs; }
    qint64 visibleUpkeepNs() const { return m_visibleNs; } // in monitors shown at the time
    qint64 hiddenUpkeepNs() const { return m_hiddenNs; }   // in monitors of hidden tabs
    qint64 upkeepNs(int monitor) const { return m_perMonitorNs.at(size_t(monitor)); }

    bool notify(QObject *receiver, QEvent *event) override;

private:
    int monitorOf(const QObject *receiver) const; // its index, or -1
    void add(int monitor, bool visible, qint64 ns);

    QList<QPointer<md::JobMonitor>> m_monitors;
    QHash<const QObject *, int> m_jobIndex;
    QHash<const QObject *, int> m_monitorIndex;
    std::vector<qint64> m_perMonitorNs;
    std::vector<int> m_redraws; // per monitor, before the outermost event under way
    bool m_counting = false;
    int m_depth = 0;
    qint64 m_nestedNs = 0;
    qint64 m_visibleNs = 0;
    qint64 m_hiddenNs = 0;
};
