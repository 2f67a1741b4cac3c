#include "engine/mirror/MirrorJob.h"

#include "engine/acl/AclSyncRunner.h"
#include "engine/core/BackgroundPriority.h"
#include "engine/groupsync/GroupSyncRunner.h"
#include "engine/mirror/MirrorWorker.h"
#include "engine/mirror/OffsetMapPruneRunner.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>

namespace md {

// What the engine thread uses: the worker, the group sync beside it, and the
// way back to the job. The thread holds a reference, so a job destroyed while
// it runs leaves the core to the thread, which lets it go after its stop.
struct MirrorJob::Core final : MirrorSink {
    explicit Core(MirrorJob *owner) : job(owner) {}

    // Queues `emitIt` to the job's thread; nothing once the job is gone
    // (events already queued to it go with it).
    template <typename F> void post(F emitIt)
    {
        std::lock_guard lock(mutex);
        if (job)
            QMetaObject::invokeMethod(
                job, [j = job, emitIt] { emitIt(j); }, Qt::QueuedConnection);
    }

    void onState(JobState s) override
    {
        // At once, so state() never lags the signal.
        state = s;
        post([s](MirrorJob *j) { Q_EMIT j->stateChanged(s); });
    }
    void onEvent(const JobEvent &event) override
    {
        post([event](MirrorJob *j) { Q_EMIT j->eventRaised(event); });
    }
    void onMetrics(const MetricsSnapshot &snapshot) override
    {
        MetricsSnapshot s = snapshot;
        // Set before the worker thread starts, destroyed after it ended.
        if (groupSync)
            s.groups = groupSync->summary();
        post([s](MirrorJob *j) { Q_EMIT j->metricsSampled(s); });
    }
    void onFinished(bool ok, const QString &error) override
    {
        stopBeside();
        {
            std::lock_guard lock(mutex);
            done = true;
        }
        doneCv.notify_all();
        post([ok, error](MirrorJob *j) { Q_EMIT j->finished(ok, error); });
    }

    std::mutex mutex; // guards job and done
    std::condition_variable doneCv;
    MirrorJob *job;
    bool done = false;
    std::atomic<JobState> state{JobState::Stopped};
    std::unique_ptr<MirrorWorker> worker;
    // Group offset sync beside the worker (its own thread), when the profile asks for it.
    std::unique_ptr<GroupSyncRunner> groupSync;
    // ACL sync beside it (its own thread), when the profile asks for it.
    std::unique_ptr<AclSyncRunner> aclSync;
    std::unique_ptr<OffsetMapPruneRunner> mapPrune;

    void stopBeside()
    {
        if (groupSync)
            groupSync->stop();
        if (aclSync)
            aclSync->stop();
        if (mapPrune)
            mapPrune->stop();
    }
};

MirrorJob::MirrorJob(MirrorJobSpec spec, QObject *parent)
    : QObject(parent), m_spec(std::move(spec)), m_core(std::make_shared<Core>(this))
{
    qRegisterMetaType<md::MetricsSnapshot>();
    qRegisterMetaType<md::JobEvent>();
    qRegisterMetaType<md::JobState>();
}

MirrorJob::~MirrorJob()
{
    {
        std::lock_guard lock(m_core->mutex);
        m_core->job = nullptr;
    }
    // Graceful: a job dropped while it runs still flushes and commits, on its
    // own thread; m_thread's destructor does not wait for that.
    stop();
}

void MirrorJob::start()
{
    if (m_started)
        return;
    m_started = true;
    m_core->state = JobState::Starting;
    m_core->worker = std::make_unique<MirrorWorker>(m_spec, m_core.get());
    if (GroupSyncRunner::wanted(m_spec)) {
        m_core->groupSync =
            std::make_unique<GroupSyncRunner>(m_spec, [core = m_core.get()](const JobEvent &e) { core->onEvent(e); });
        m_core->groupSync->start();
    }
    if (AclSyncRunner::wanted(m_spec)) {
        m_core->aclSync =
            std::make_unique<AclSyncRunner>(m_spec, [core = m_core.get()](const JobEvent &e) { core->onEvent(e); });
        m_core->aclSync->start();
    }
    if (OffsetMapPruneRunner::wanted(m_spec)) {
        m_core->mapPrune = std::make_unique<OffsetMapPruneRunner>(
            m_spec, [core = m_core.get()](const JobEvent &e) { core->onEvent(e); });
        m_core->mapPrune->start();
    }
    // The last reference may be this one: the worker's clients then close here,
    // on the engine thread, not on the job's.
    m_thread.start([core = m_core, background = m_backgroundPriority]() mutable {
        std::optional<BackgroundPriority> lower;
        if (background)
            lower.emplace(); // before run() makes the clients: their threads inherit it
        core->worker->run();
        core.reset();
    });
}

JobState MirrorJob::state() const
{
    return m_core->state.load();
}

void MirrorJob::pause()
{
    if (m_core->worker)
        m_core->worker->requestPause();
}

void MirrorJob::resume()
{
    if (m_core->worker)
        m_core->worker->requestResume();
}

void MirrorJob::stop()
{
    m_core->stopBeside();
    if (m_core->worker)
        m_core->worker->requestStop();
}

void MirrorJob::abort()
{
    m_core->stopBeside();
    if (m_core->worker)
        m_core->worker->requestAbort();
}

void MirrorJob::setThrottle(qint64 bytesPerSecond)
{
    m_spec.throttleBytesPerSecond = bytesPerSecond;
    if (m_core->worker)
        m_core->worker->setThrottle(bytesPerSecond);
}

bool MirrorJob::isRunning() const
{
    if (!m_started)
        return false;
    std::lock_guard lock(m_core->mutex);
    return !m_core->done;
}

bool MirrorJob::waitForFinished(int timeoutMs)
{
    if (!m_started)
        return true;
    std::unique_lock lock(m_core->mutex);
    if (!m_core->doneCv.wait_for(lock, std::chrono::milliseconds(timeoutMs), [this] { return m_core->done; }))
        return false;
    lock.unlock();
    // The worker reported its end; the thread only has to return.
    m_thread.join();
    // At most ~1 s: a sync pass gives up when stopped (see GroupSyncRunner::finish).
    if (m_core->groupSync)
        m_core->groupSync->finish(1000);
    if (m_core->aclSync)
        m_core->aclSync->finish(1000);
    if (m_core->mapPrune)
        m_core->mapPrune->finish(1000);
    return true;
}

} // namespace md
