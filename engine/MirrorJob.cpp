#include "MirrorJob.h"

#include "GroupSyncRunner.h"
#include "MirrorWorker.h"

#include <QPointer>

namespace md {

// Forwards the engine thread's reports to the job's signals on the job's
// thread; the atomic state is updated at once so state() never lags.
class MirrorJob::Sink final : public MirrorSink {
public:
    explicit Sink(MirrorJob *job) : m_job(job) {}

    void onState(JobState state) override
    {
        m_job->m_state = state;
        QMetaObject::invokeMethod(
            m_job, [job = m_job, state] { Q_EMIT job->stateChanged(state); }, Qt::QueuedConnection);
    }
    void onEvent(const JobEvent &event) override
    {
        QMetaObject::invokeMethod(
            m_job, [job = m_job, event] { Q_EMIT job->eventRaised(event); }, Qt::QueuedConnection);
    }
    void onMetrics(const MetricsSnapshot &snapshot) override
    {
        MetricsSnapshot s = snapshot;
        // Set before the worker thread starts, destroyed after it ended.
        if (m_job->m_groupSync)
            s.groups = m_job->m_groupSync->summary();
        QMetaObject::invokeMethod(
            m_job, [job = m_job, s] { Q_EMIT job->metricsSampled(s); }, Qt::QueuedConnection);
    }
    void onFinished(bool ok, const QString &error) override
    {
        if (m_job->m_groupSync)
            m_job->m_groupSync->stop();
        {
            std::lock_guard lock(m_job->m_doneMutex);
            m_job->m_done = true;
        }
        m_job->m_doneCv.notify_all();
        QMetaObject::invokeMethod(
            m_job, [job = m_job, ok, error] { Q_EMIT job->finished(ok, error); }, Qt::QueuedConnection);
    }

private:
    MirrorJob *m_job;
};

MirrorJob::MirrorJob(MirrorJobSpec spec, QObject *parent)
    : QObject(parent), m_spec(std::move(spec)), m_sink(std::make_unique<Sink>(this))
{
    qRegisterMetaType<md::MetricsSnapshot>();
    qRegisterMetaType<md::JobEvent>();
    qRegisterMetaType<md::JobState>();
}

MirrorJob::~MirrorJob()
{
    if (m_groupSync)
        m_groupSync->stop();
    if (m_worker)
        m_worker->requestStop();
    join();
}

void MirrorJob::start()
{
    if (m_started)
        return;
    m_started = true;
    m_state = JobState::Starting;
    m_worker = std::make_unique<MirrorWorker>(m_spec, m_sink.get());
    if (GroupSyncRunner::wanted(m_spec)) {
        m_groupSync =
            std::make_unique<GroupSyncRunner>(m_spec, [sink = m_sink.get()](const JobEvent &e) { sink->onEvent(e); });
        m_groupSync->start();
    }
    m_thread.start([w = m_worker.get()] { w->run(); });
}

void MirrorJob::pause()
{
    if (m_worker)
        m_worker->requestPause();
}

void MirrorJob::resume()
{
    if (m_worker)
        m_worker->requestResume();
}

void MirrorJob::stop()
{
    if (m_groupSync)
        m_groupSync->stop();
    if (m_worker)
        m_worker->requestStop();
}

void MirrorJob::abort()
{
    if (m_groupSync)
        m_groupSync->stop();
    if (m_worker)
        m_worker->requestAbort();
}

void MirrorJob::setThrottle(qint64 bytesPerSecond)
{
    m_spec.throttleBytesPerSecond = bytesPerSecond;
    if (m_worker)
        m_worker->setThrottle(bytesPerSecond);
}

bool MirrorJob::isRunning() const
{
    if (!m_started)
        return false;
    std::lock_guard lock(m_doneMutex);
    return !m_done;
}

bool MirrorJob::waitForFinished(int timeoutMs)
{
    if (!m_started)
        return true;
    std::unique_lock lock(m_doneMutex);
    if (!m_doneCv.wait_for(lock, std::chrono::milliseconds(timeoutMs), [this] { return m_done; }))
        return false;
    lock.unlock();
    join();
    return true;
}

void MirrorJob::join()
{
    // The worker is this object's: it must be done before this goes.
    m_thread.join();
    // At most ~1 s: a sync pass gives up when stopped (see GroupSyncRunner::finish).
    if (m_groupSync)
        m_groupSync->finish(1000);
}

} // namespace md
