// Cost of a visible job monitor on the UI thread (issue 5).
//
//   bench_monitor_ui [seconds] [partitions] [tick ms] [split]   (default: 60 24 250)
//
// Feeds synthetic snapshots at the engine's sampling rate into a shown JobMonitor
// (QT_QPA_PLATFORM=offscreen unless a platform is set), cycling its charts, while a 1 ms
// precise timer measures how late the event loop serves it. Prints the lateness p50/p99/max,
// the redraw count and the CPU time of chart upkeep (addSnapshot + redraws, thread CPU time)
// as a share of one core. Exits non-zero when p99 lateness >= 16 ms or upkeep >= 5%.

#include "engine/mirror/MetricsSnapshot.h"
#include "model/session/MonitoredJob.h"
#include "ui/job/JobMonitor.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <vector>

using namespace md;

namespace {

qint64 threadCpuNs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int seconds = args.size() > 1 ? args.at(1).toInt() : 60;
    const int partitions = args.size() > 2 ? args.at(2).toInt() : 24;
    const int tickMs = args.size() > 3 ? args.at(3).toInt() : 250;
    // "split": each snapshot also goes into a bare MetricStore, timed on its own (the
    // lateness figures then include that extra work).
    const bool split = args.size() > 4 && args.at(4) == QLatin1String("split");

    MonitoredJob job; // what the session holds; the monitor draws from it
    JobMonitor monitor(&job);
    monitor.resize(1280, 800);
    monitor.setWindowMs(60'000);
    monitor.show();

    // Engine state of a job copying ~50k records/s over `partitions` partitions.
    MetricsSnapshot s;
    s.jobName = QStringLiteral("bench");
    s.state = JobState::Running;
    for (int p = 0; p < partitions; ++p) {
        PartitionMetrics m;
        m.topic = QStringLiteral("bench.topic");
        m.targetTopic = m.topic;
        m.partition = p;
        m.endOffset = 0;
        m.nextOffset = 0;
        s.partitions.append(m);
    }
    const qint64 start = QDateTime::currentMSecsSinceEpoch();
    qint64 tick = 0;
    std::vector<double> snapshotMs; // UI-thread CPU of each addSnapshot (the window's own work)
    std::vector<double> storeMs;    // with "split": a bare MetricStore's share of it
    MetricStore bareStore;
    qint64 upkeepNs = 0; // thread CPU spent in addSnapshot and the redraws it caused
    QTimer feeder;
    feeder.setTimerType(Qt::PreciseTimer);
    feeder.setInterval(tickMs);
    QObject::connect(&feeder, &QTimer::timeout, &monitor, [&] {
        ++tick;
        s.time = QDateTime::fromMSecsSinceEpoch(start + tick * tickMs, Qt::UTC);
        s.elapsedMs = tick * tickMs;
        const double wave = 1.0 + 0.3 * std::sin(double(tick) / 20.0);
        s.consumeRecordsPerSec = 50'000 * wave;
        s.produceRecordsPerSec = 49'000 * wave;
        s.consumeBytesPerSec = s.consumeRecordsPerSec * 1000;
        s.produceBytesPerSec = s.produceRecordsPerSec * 1000;
        s.totalLag = 0;
        for (int p = 0; p < partitions; ++p) {
            PartitionMetrics &m = s.partitions[p];
            m.endOffset += qint64(s.consumeRecordsPerSec * tickMs / 1000.0 / partitions) + p;
            m.nextOffset = m.endOffset - (p * 37 + tick % 500);
            m.lag = m.endOffset - m.nextOffset;
            m.committedOffset = m.nextOffset;
            s.totalLag += m.lag;
        }
        s.lagTimeMs = 40 + tick % 100;
        s.latency.p50Ms = 8;
        s.latency.p99Ms = 30 + tick % 50;
        const qint64 t0 = threadCpuNs();
        job.addSnapshot(s);
        const qint64 spent = threadCpuNs() - t0;
        upkeepNs += spent;
        snapshotMs.push_back(double(spent) / 1e6);
        if (split) {
            // The same snapshot into a bare store: how much of the above is the store's.
            const qint64 s0 = threadCpuNs();
            bareStore.addSnapshot(s);
            storeMs.push_back(double(threadCpuNs() - s0) / 1e6);
        }
        // Cycle the tabs so every chart (the lag map included) is drawn during the run.
        if (tick % (10'000 / tickMs) == 0)
            monitor.setCurrentChart(JobMonitor::Chart((tick / (10'000 / tickMs)) % JobMonitor::ChartCount));
    });

    std::vector<double> lateMs;
    lateMs.reserve(size_t(seconds) * 1000);
    QElapsedTimer probeClock;
    probeClock.start();
    qint64 lastProbeNs = 0;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(1);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 now = probeClock.nsecsElapsed();
        if (lastProbeNs > 0)
            lateMs.push_back(std::max(0.0, double(now - lastProbeNs) / 1e6 - 1.0));
        lastProbeNs = now;
    });

    // Redraws happen on the monitor's own timer: time them through their count and wall
    // time, and attribute their CPU with the thread clock sampled around each event.
    const qint64 cpuStart = threadCpuNs();
    QElapsedTimer wall;
    wall.start();
    feeder.start();
    probe.start();
    QTimer::singleShot(seconds * 1000, &app, &QCoreApplication::quit);
    app.exec();
    const double wallS = double(wall.nsecsElapsed()) / 1e9;
    const double cpuS = double(threadCpuNs() - cpuStart) / 1e9;
    const double redrawS = double(monitor.redrawNanoseconds()) / 1e9;
    const double upkeepS = double(upkeepNs) / 1e9 + redrawS;

    std::printf("monitor bench: %d s, %d partitions, a snapshot every %d ms (%lld fed), 1280x800 offscreen\n", seconds,
                partitions, tickMs, tick);
    std::printf("event-loop lateness of a 1 ms timer: p50 %.3f ms, p99 %.3f ms, max %.3f ms (%zu samples)\n",
                percentile(lateMs, 0.5), percentile(lateMs, 0.99), percentile(lateMs, 1.0), lateMs.size());
    std::printf("redraws: %d (%.1f/s), %.3f ms each on average\n", monitor.redrawCount(), monitor.redrawCount() / wallS,
                monitor.redrawCount() ? redrawS * 1000 / monitor.redrawCount() : 0.0);
    std::printf("chart upkeep (addSnapshot CPU + redraw time): %.3f s = %.2f%% of one core\n", upkeepS,
                100.0 * upkeepS / wallS);
    double meanSnapshot = 0;
    for (double v : snapshotMs)
        meanSnapshot += v / double(std::max<size_t>(1, snapshotMs.size()));
    std::printf("one addSnapshot (UI-thread CPU, store, status and every view): mean %.1f ms, max %.1f ms\n",
                meanSnapshot, percentile(snapshotMs, 1.0));
    if (split)
        std::printf("  of which a bare MetricStore: median %.1f ms, max %.1f ms\n", percentile(storeMs, 0.5),
                    percentile(storeMs, 1.0));
    std::printf("UI thread CPU in all (includes the probe timer and widget painting): %.3f s = %.2f%% of one core\n",
                cpuS, 100.0 * cpuS / wallS);
    const bool ok = percentile(lateMs, 0.99) < 16.0 && upkeepS / wallS < 0.05;
    std::printf("%s\n", ok ? "PASS (p99 < 16 ms, upkeep < 5%)" : "FAIL (p99 >= 16 ms or upkeep >= 5%)");
    return ok ? 0 : 1;
}
