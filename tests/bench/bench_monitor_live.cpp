// A live job monitor under a real mirror job running at full speed (issue 5).
//
//   bench_monitor_live [--source HOST:PORT] [--target HOST:PORT] [--topic NAME] --records N
//                      [--rounds R] [--phases both|monitor|headless] [--chart NAME|cycle]
//                      [--cycle-ms MS] [--probe-ms MS] [--no-panes] [--timeout S]
//
// Expects a source topic already holding N records (tests/bench/monitor-live.sh starts the
// harness brokers and preloads it with bench_kafka). Brokers default to the harness state
// dir ($MIRRORDESK_KAFKA_STATE/{source,target}/bootstrap). Each round runs two phases, each
// copying the whole topic from the earliest offset into a fresh target topic (its own
// prefix) with a job that stops once caught up:
//   headless  the MirrorJob alone in this process, nothing drawn: the engine's own rate;
//   monitor   the job started the way the GUI's Run does it (MainWindow::showClusters,
//             MainWindow::addJob, MirrorJob::start): the app's own wiring, job list, cluster
//             panes and the job's JobMonitor, shown (1280x800), cycling its tabs.
// The order alternates per round so neither phase always gets the warmer broker.
//
// Measured on the UI thread while the job runs (start() to finished()):
//   event-loop delay: a precise timer every --probe-ms (5) ms; each tick's lateness beyond
//     its interval is how long the UI thread was busy with something else. p50/p99/max.
//   chart upkeep, directly: QApplication::notify() reads the UI thread's CPU clock
//     (CLOCK_THREAD_CPUTIME_ID) around every event that is monitor work: events delivered
//     to the MirrorJob (its queued snapshot/state/event signals: MainWindow's job-list
//     update and JobMonitor::addSnapshot), events to any widget of the monitor (its paints,
//     resizes, the QCustomPlot replots they trigger), and any event during which the
//     monitor's redraw count rose (its coalescing redraw timer). Nested events are counted
//     once. Upkeep share = that CPU time / wall time of the phase.
//   and by difference: the UI thread's whole CPU time per wall second in the monitor phase
//     minus the same in the headless phase (an upper bound: it also holds the job list,
//     the cluster panes' refreshes and the window's backing-store flush).
// Also per phase: records/s (steady: 80% of the records over the time between 10% and 90%
// of them acknowledged by the target, from the job's own snapshots; and end to end) and
// the process CPU time. Prints PASS/FAIL per monitor phase against p99 < 16 ms and upkeep
// < 5% of one core, and exits non-zero on FAIL.

#include "JobListModel.h"
#include "JobMonitor.h"
#include "MainWindow.h"
#include "MetricsSnapshot.h"
#include "MirrorJob.h"
#include "MirrorJobSpec.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QPointer>
#include <QRegularExpression>
#include <QThread>
#include <QTimer>

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

using namespace md;

namespace {

constexpr double kP99LimitMs = 16.0;
constexpr double kUpkeepLimit = 0.05; // of one core

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

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
}

bool isInside(const QObject *o, const QObject *ancestor)
{
    for (; o; o = o->parent()) {
        if (o == ancestor)
            return true;
    }
    return false;
}

// Attributes the UI thread's CPU time to the monitor, event by event (see the header).
class ProbeApp final : public QApplication {
public:
    using QApplication::QApplication;

    void watch(JobMonitor *monitor, QObject *job)
    {
        m_monitor = monitor;
        m_job = job;
        m_upkeepNs = 0;
    }
    void unwatch() { watch(nullptr, nullptr); }
    qint64 upkeepNs() const { return m_upkeepNs; }

    bool notify(QObject *receiver, QEvent *event) override
    {
        if (!m_monitor || m_counting || QThread::currentThread() != thread())
            return QApplication::notify(receiver, event);
        if (receiver == m_job || isInside(receiver, m_monitor)) {
            m_counting = true;
            const qint64 t0 = threadCpuNs();
            const bool r = QApplication::notify(receiver, event);
            const qint64 dt = threadCpuNs() - t0;
            m_counting = false;
            m_upkeepNs += dt;
            m_nestedNs += dt;
            return r;
        }
        if (m_depth > 0) {
            ++m_depth;
            const bool r = QApplication::notify(receiver, event);
            --m_depth;
            return r;
        }
        // An outermost event elsewhere: counted when it redrew the monitor (its timer).
        ++m_depth;
        m_nestedNs = 0;
        const int redraws = m_monitor->redrawCount();
        const qint64 t0 = threadCpuNs();
        const bool r = QApplication::notify(receiver, event);
        const qint64 dt = threadCpuNs() - t0;
        --m_depth;
        if (m_monitor && m_monitor->redrawCount() != redraws)
            m_upkeepNs += dt - m_nestedNs; // nested monitor events were added already
        return r;
    }

private:
    QPointer<JobMonitor> m_monitor;
    QObject *m_job = nullptr;
    bool m_counting = false;
    int m_depth = 0;
    qint64 m_nestedNs = 0;
    qint64 m_upkeepNs = 0;
};

struct PhaseResult {
    QString name;
    bool ok = false; // the job finished and copied every record
    QString error;
    double wallS = 0;
    qint64 records = 0;
    double steadyRate = 0;
    double endToEndRate = 0;
    double p50 = 0, p99 = 0, max = 0;
    size_t probes = 0;
    double upkeepShare = -1; // monitor phases only
    double uiCpuShare = 0;
    double processCpuS = 0;
    int snapshots = 0;
    int redraws = 0;
};

struct Options {
    QString source, target, topic;
    qint64 records = 0;
    int rounds = 2;
    QString phases = QStringLiteral("both");
    int chart = -1; // -1: cycle
    int cycleMs = 3000;
    int probeMs = 5;
    bool panes = true;
    int timeoutS = 300;
};

QString harnessBootstrap(const QString &name)
{
    const QString dir = qEnvironmentVariable("MIRRORDESK_KAFKA_STATE");
    if (dir.isEmpty())
        return {};
    QFile f(QDir(dir).filePath(name + QStringLiteral("/bootstrap")));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).trimmed();
}

// The time at which the acknowledged count crossed `target`, interpolated between samples.
double crossingS(const std::vector<std::pair<double, qint64>> &samples, double target)
{
    for (size_t i = 1; i < samples.size(); ++i) {
        const auto &[t0, n0] = samples[i - 1];
        const auto &[t1, n1] = samples[i];
        if (double(n1) >= target && n1 > n0)
            return t0 + (t1 - t0) * (target - double(n0)) / double(n1 - n0);
    }
    return -1;
}

class Bench {
public:
    Bench(ProbeApp *app, Options options) : m_app(app), m_o(std::move(options))
    {
        m_probe.setTimerType(Qt::PreciseTimer);
        m_probe.setInterval(m_o.probeMs);
        QObject::connect(&m_probe, &QTimer::timeout, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            if (m_recording && m_lastProbeNs > 0)
                m_late.push_back(std::max(0.0, double(now - m_lastProbeNs) / 1e6 - m_o.probeMs));
            m_lastProbeNs = now;
        });
        m_clock.start();
        m_probe.start();
    }

    PhaseResult run(const QString &phaseName, bool withMonitor)
    {
        PhaseResult res;
        res.name = phaseName;
        MirrorJobSpec spec;
        // A fresh target topic and group per phase: "<alias>.<topic>" under the prefix policy.
        const QString alias = QStringLiteral("ml%1%2").arg(QCoreApplication::applicationPid()).arg(++m_phaseNo);
        spec.name = QStringLiteral("monitor-live-") + alias;
        spec.source.alias = alias;
        spec.source.bootstrap = m_o.source;
        spec.target.alias = QStringLiteral("tgt");
        spec.target.bootstrap = m_o.target;
        spec.include = {QRegularExpression::escape(m_o.topic)};
        spec.naming = NamingPolicy::Prefix;
        spec.start = StartPosition::Earliest;
        spec.stop = StopCondition::CaughtUp;

        auto *job = new MirrorJob(spec);
        MainWindow *window = nullptr;
        JobMonitor *monitor = nullptr;
        if (withMonitor) {
            window = new MainWindow;
            window->show();
            // What MainWindow does on the job editor's Run (runRequested), minus the editor.
            if (m_o.panes)
                window->showClusters(spec.source, spec.target);
            window->addJob(job); // the app's wiring: job list, JobMonitor::setJob, status
            monitor = window->jobMonitor(window->jobModel()->rowCount() - 1);
            if (!monitor || !monitor->isVisible()) {
                res.error = QStringLiteral("the job's monitor is not shown");
                delete window;
                return res;
            }
            if (m_o.chart >= 0)
                monitor->setCurrentChart(JobMonitor::Chart(m_o.chart));
        }

        std::vector<std::pair<double, qint64>> samples; // (s since start, acknowledged)
        QElapsedTimer wall;
        QObject::connect(job, &MirrorJob::metricsSampled, job, [&](const MetricsSnapshot &s) {
            samples.emplace_back(double(wall.nsecsElapsed()) / 1e9, s.recordsProduced);
            ++res.snapshots;
        });
        QEventLoop loop;
        bool finished = false;
        QObject::connect(job, &MirrorJob::finished, &loop, [&](bool ok, const QString &error) {
            finished = true;
            res.ok = ok;
            res.error = error;
            loop.quit();
        });
        QTimer timeout;
        timeout.setSingleShot(true);
        QObject::connect(&timeout, &QTimer::timeout, &loop, &QEventLoop::quit);
        timeout.start(m_o.timeoutS * 1000);
        QTimer cycler;
        if (monitor && m_o.chart < 0) {
            QObject::connect(&cycler, &QTimer::timeout, monitor, [monitor] {
                monitor->setCurrentChart(JobMonitor::Chart((monitor->currentChart() + 1) % JobMonitor::ChartCount));
            });
            cycler.start(m_o.cycleMs);
        }

        if (monitor)
            m_app->watch(monitor, job);
        const int redraws0 = monitor ? monitor->redrawCount() : 0;
        m_late.clear();
        m_lastProbeNs = 0;
        m_recording = true;
        const qint64 ui0 = threadCpuNs();
        const double proc0 = processCpuS();
        wall.start();
        job->start();
        loop.exec();
        res.wallS = double(wall.nsecsElapsed()) / 1e9;
        res.processCpuS = processCpuS() - proc0;
        res.uiCpuShare = double(threadCpuNs() - ui0) / 1e9 / res.wallS;
        m_recording = false;
        cycler.stop();
        if (monitor) {
            res.upkeepShare = double(m_app->upkeepNs()) / 1e9 / res.wallS;
            res.redraws = monitor->redrawCount() - redraws0;
        }
        m_app->unwatch();
        res.p50 = percentile(m_late, 0.5);
        res.p99 = percentile(m_late, 0.99);
        res.max = percentile(m_late, 1.0);
        res.probes = m_late.size();

        if (!finished) {
            res.ok = false;
            res.error = QStringLiteral("the job did not finish within %1 s").arg(m_o.timeoutS);
            job->abort();
        }
        job->waitForFinished(30'000);
        res.records = samples.empty() ? 0 : samples.back().second;
        if (res.ok && res.records != m_o.records) {
            res.ok = false;
            res.error = QStringLiteral("copied %1 records, expected %2").arg(res.records).arg(m_o.records);
        }
        const double t10 = crossingS(samples, 0.1 * double(m_o.records));
        const double t90 = crossingS(samples, 0.9 * double(m_o.records));
        if (t10 >= 0 && t90 > t10)
            res.steadyRate = 0.8 * double(m_o.records) / (t90 - t10);
        res.endToEndRate = double(res.records) / res.wallS;
        if (window)
            delete window; // owns the job (addJob)
        else
            delete job;
        // Let the deleted window's deferred deletes run and the brokers settle.
        QEventLoop pause;
        QTimer::singleShot(2000, &pause, &QEventLoop::quit);
        pause.exec();
        return res;
    }

private:
    ProbeApp *m_app;
    Options m_o;
    QTimer m_probe;
    QElapsedTimer m_clock;
    qint64 m_lastProbeNs = 0;
    bool m_recording = false;
    std::vector<double> m_late;
    int m_phaseNo = 0;
};

void print(const PhaseResult &r)
{
    std::printf("%-16s %s wall %6.2f s  records %lld  steady %8.0f rec/s  end-to-end %8.0f rec/s  "
                "process CPU %5.2f s\n",
                qPrintable(r.name), r.ok ? "ok  " : "FAIL", r.wallS, r.records, r.steadyRate, r.endToEndRate,
                r.processCpuS);
    std::printf("%-16s      UI delay p50 %6.3f ms  p99 %6.3f ms  max %7.3f ms (%zu probes)  UI thread CPU %5.2f%%", "",
                r.p50, r.p99, r.max, r.probes, 100 * r.uiCpuShare);
    if (r.upkeepShare >= 0)
        std::printf("  upkeep %5.2f%%  snapshots %d  redraws %d", 100 * r.upkeepShare, r.snapshots, r.redraws);
    std::printf("\n");
    if (!r.error.isEmpty())
        std::printf("%-16s      error: %s\n", "", qPrintable(r.error));
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    ProbeApp app(argc, argv);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("A job monitor under a full-speed mirror job (issue 5)"));
    p.addHelpOption();
    const QCommandLineOption sourceOpt(QStringLiteral("source"), QStringLiteral("Source bootstrap."),
                                       QStringLiteral("host:port"));
    const QCommandLineOption targetOpt(QStringLiteral("target"), QStringLiteral("Target bootstrap."),
                                       QStringLiteral("host:port"));
    const QCommandLineOption topicOpt(QStringLiteral("topic"), QStringLiteral("Preloaded source topic."),
                                      QStringLiteral("name"), QStringLiteral("bench"));
    const QCommandLineOption recordsOpt(QStringLiteral("records"), QStringLiteral("Records in the topic."),
                                        QStringLiteral("n"));
    const QCommandLineOption roundsOpt(QStringLiteral("rounds"), QStringLiteral("Rounds (default 2)."),
                                       QStringLiteral("r"), QStringLiteral("2"));
    const QCommandLineOption phasesOpt(QStringLiteral("phases"), QStringLiteral("both, monitor or headless."),
                                       QStringLiteral("which"), QStringLiteral("both"));
    const QCommandLineOption chartOpt(
        QStringLiteral("chart"), QStringLiteral("throughput, lag, lagtime, latency, partitions or cycle (default)."),
        QStringLiteral("name"), QStringLiteral("cycle"));
    const QCommandLineOption cycleOpt(QStringLiteral("cycle-ms"), QStringLiteral("Tab cycle period (default 3000)."),
                                      QStringLiteral("ms"), QStringLiteral("3000"));
    const QCommandLineOption probeOpt(QStringLiteral("probe-ms"), QStringLiteral("Probe timer interval (default 5)."),
                                      QStringLiteral("ms"), QStringLiteral("5"));
    const QCommandLineOption noPanesOpt(QStringLiteral("no-panes"),
                                        QStringLiteral("Do not connect the cluster panes."));
    const QCommandLineOption timeoutOpt(QStringLiteral("timeout"), QStringLiteral("Per-phase limit (default 300)."),
                                        QStringLiteral("s"), QStringLiteral("300"));
    p.addOptions({sourceOpt, targetOpt, topicOpt, recordsOpt, roundsOpt, phasesOpt, chartOpt, cycleOpt, probeOpt,
                  noPanesOpt, timeoutOpt});
    p.process(app);

    auto fail = [](const QString &what) {
        std::fprintf(stderr, "bench_monitor_live: %s\n", qPrintable(what));
        return 2;
    };
    auto positive = [&](const QCommandLineOption &o, qint64 *out) {
        bool ok = false;
        *out = p.value(o).toLongLong(&ok);
        return ok && *out > 0;
    };
    Options o;
    o.source = p.isSet(sourceOpt) ? p.value(sourceOpt) : harnessBootstrap(QStringLiteral("source"));
    o.target = p.isSet(targetOpt) ? p.value(targetOpt) : harnessBootstrap(QStringLiteral("target"));
    if (o.source.isEmpty() || o.target.isEmpty())
        return fail(QStringLiteral("no --source/--target given and none found under $MIRRORDESK_KAFKA_STATE"));
    o.topic = p.value(topicOpt);
    qint64 v = 0;
    if (!positive(recordsOpt, &v))
        return fail(QStringLiteral("--records must be the positive number of records in the topic, got '%1'")
                        .arg(p.value(recordsOpt)));
    o.records = v;
    if (!positive(roundsOpt, &v))
        return fail(QStringLiteral("--rounds must be a positive integer, got '%1'").arg(p.value(roundsOpt)));
    o.rounds = int(v);
    if (!positive(cycleOpt, &v))
        return fail(QStringLiteral("--cycle-ms must be a positive integer, got '%1'").arg(p.value(cycleOpt)));
    o.cycleMs = int(v);
    if (!positive(probeOpt, &v))
        return fail(QStringLiteral("--probe-ms must be a positive integer, got '%1'").arg(p.value(probeOpt)));
    o.probeMs = int(v);
    if (!positive(timeoutOpt, &v))
        return fail(QStringLiteral("--timeout must be a positive integer, got '%1'").arg(p.value(timeoutOpt)));
    o.timeoutS = int(v);
    o.phases = p.value(phasesOpt);
    if (o.phases != QLatin1String("both") && o.phases != QLatin1String("monitor") &&
        o.phases != QLatin1String("headless"))
        return fail(QStringLiteral("--phases must be both, monitor or headless, got '%1'").arg(o.phases));
    const QStringList charts{QStringLiteral("throughput"), QStringLiteral("lag"), QStringLiteral("lagtime"),
                             QStringLiteral("latency"), QStringLiteral("partitions")};
    const QString chart = p.value(chartOpt);
    if (chart != QLatin1String("cycle")) {
        o.chart = int(charts.indexOf(chart));
        if (o.chart < 0)
            return fail(QStringLiteral("--chart must be one of %1 or cycle, got '%2'")
                            .arg(charts.join(QStringLiteral(", ")), chart));
    }
    o.panes = !p.isSet(noPanesOpt);

    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    std::printf("monitor-live bench: source %s, target %s, topic %s (%lld records), %d round(s), platform %s, "
                "cluster panes %s, chart %s, probe every %d ms\n",
                qPrintable(o.source), qPrintable(o.target), qPrintable(o.topic), o.records, o.rounds,
                qPrintable(QGuiApplication::platformName()), o.panes ? "connected" : "not connected",
                qPrintable(o.chart < 0 ? QStringLiteral("cycled every %1 ms").arg(o.cycleMs) : chart), o.probeMs);

    Bench bench(&app, o);
    std::vector<PhaseResult> headless, monitored;
    for (int round = 1; round <= o.rounds; ++round) {
        const bool headlessFirst = round % 2 == 1;
        for (int step = 0; step < 2; ++step) {
            const bool withMonitor = (step == 0) != headlessFirst;
            if (withMonitor ? o.phases == QLatin1String("headless") : o.phases == QLatin1String("monitor"))
                continue;
            PhaseResult r = bench.run(QStringLiteral("%1 #%2")
                                          .arg(withMonitor ? QStringLiteral("monitor") : QStringLiteral("headless"))
                                          .arg(round),
                                      withMonitor);
            print(r);
            (withMonitor ? monitored : headless).push_back(r);
        }
    }

    auto median = [](std::vector<PhaseResult> &rs, double PhaseResult::*field) {
        std::vector<double> v;
        for (const PhaseResult &r : rs)
            v.push_back(r.*field);
        std::sort(v.begin(), v.end());
        const size_t n = v.size();
        return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    };
    bool pass = true;
    std::printf("\nmethod: UI delay = lateness of a %d ms precise timer; upkeep = UI-thread CPU time "
                "(CLOCK_THREAD_CPUTIME_ID) in events that are monitor work (snapshot delivery to the job, "
                "events to the monitor's widgets, the redraw timer) per wall second\n",
                o.probeMs);
    for (const PhaseResult &r : monitored) {
        const bool ok = r.ok && r.p99 < kP99LimitMs && r.upkeepShare < kUpkeepLimit;
        pass = pass && ok;
        std::printf("%s: %s (p99 %.2f ms %s 16 ms, upkeep %.2f%% %s 5%% of a core%s)\n", qPrintable(r.name),
                    ok ? "PASS" : "FAIL", r.p99, r.p99 < kP99LimitMs ? "<" : ">=", 100 * r.upkeepShare,
                    r.upkeepShare < kUpkeepLimit ? "<" : ">=", r.ok ? "" : ", job did not complete");
    }
    for (const PhaseResult &r : headless)
        pass = pass && r.ok;
    if (!headless.empty() && !monitored.empty()) {
        const double h = median(headless, &PhaseResult::steadyRate);
        const double m = median(monitored, &PhaseResult::steadyRate);
        const double hu = median(headless, &PhaseResult::uiCpuShare);
        const double mu = median(monitored, &PhaseResult::uiCpuShare);
        std::printf("engine rate (median steady): headless %.0f rec/s, with monitor %.0f rec/s (%.1f%%)\n", h, m,
                    h > 0 ? 100 * m / h : 0.0);
        std::printf("UI thread CPU (median): headless %.2f%%, with window+monitor %.2f%%: difference %.2f%% of a core "
                    "(upper bound of upkeep: includes job list, cluster panes, window flush)\n",
                    100 * hu, 100 * mu, 100 * (mu - hu));
    }
    std::printf("%s\n", monitored.empty() ? (pass ? "DONE (no monitor phase)" : "FAIL (a job did not complete)")
                        : pass            ? "PASS (p99 < 16 ms, upkeep < 5% of a core)"
                                          : "FAIL");
    return pass ? 0 : 1;
}
