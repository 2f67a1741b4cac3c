#include "model/cutover/CutoverTask.h"

#include "engine/core/Tasks.h"
#include "engine/cutover/CutoverReport.h"
#include "engine/mirror/MirrorJob.h"

#include <QCoreApplication>
#include <QSemaphore>

namespace md {

namespace {

// A clean stop flushes and commits; a target that went away may take the
// producer's whole flush timeout and then some.
constexpr int kStopTimeoutMs = 180000;

// Runs `f` on the application's thread and waits for it (the caller is the
// cutover's thread, never the application's: no deadlock).
template <typename F> void onApplicationThread(QObject *context, F f)
{
    QMetaObject::invokeMethod(context, std::move(f), Qt::BlockingQueuedConnection);
}

} // namespace

CutoverTask::CutoverTask(MirrorJobSpec spec, CutoverOptions options, QObject *parent)
    : QObject(parent), m_spec(std::move(spec)), m_options(std::move(options)),
      m_jobEnded(std::make_unique<QSemaphore>())
{
    qRegisterMetaType<CutoverOutcome>();
    qRegisterMetaType<CutoverPreflight>();
    qRegisterMetaType<CutoverStep>();
    qRegisterMetaType<CutoverStepState>();
}

CutoverTask::~CutoverTask()
{
    // The task thread holds `this`: it ends at the next step or wait once cancelled.
    if (m_cutover)
        m_cutover->cancel();
    while (m_running)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
}

QString CutoverTask::reportText(const QJsonObject &report)
{
    return cutoverReportText(report);
}

void CutoverTask::start()
{
    begin(false);
}

void CutoverTask::startRollback()
{
    begin(true);
}

void CutoverTask::cancel()
{
    if (m_cutover)
        m_cutover->cancel();
}

void CutoverTask::begin(bool rollback)
{
    if (m_running)
        return;
    m_running = true;
    CutoverJobControl *control = this; // private bases: converted here, where they are accessible
    CutoverSink *sink = this;
    m_cutover = std::make_unique<Cutover>(m_spec, m_options, control, sink);
    Cutover *cutover = m_cutover.get();
    QPointer<CutoverTask> self(this);
    runTask([self, cutover, rollback] {
        const CutoverOutcome outcome = rollback ? cutover->rollback() : cutover->run();
        postToApplication(self, [outcome](CutoverTask *task) {
            task->m_running = false;
            Q_EMIT task->finished(outcome);
        });
    });
}

MirrorJob *CutoverTask::provideOwnJob(QString *)
{
    m_ownJob = std::make_unique<MirrorJob>(m_spec);
    connect(m_ownJob.get(), &MirrorJob::eventRaised, this, &CutoverTask::jobEvent);
    m_ownJob->start();
    return m_ownJob.get();
}

bool CutoverTask::ensureRunning(QString *error)
{
    bool ok = false;
    onApplicationThread(this, [&] {
        if (m_job && m_job->isRunning()) {
            ok = true;
            return;
        }
        MirrorJob *job = m_provider ? m_provider(error) : provideOwnJob(error);
        if (!job)
            return;
        m_job = job;
        {
            const std::lock_guard lock(m_mutex);
            m_failure.clear();
        }
        connect(job, &MirrorJob::finished, this, [this](bool done, const QString &why) {
            if (!done) {
                const std::lock_guard lock(m_mutex);
                m_failure = why.isEmpty() ? QStringLiteral("it failed") : why;
            }
            m_jobEnded->release();
        });
        ok = true;
    });
    return ok;
}

QString CutoverTask::failure() const
{
    const std::lock_guard lock(m_mutex);
    return m_failure;
}

bool CutoverTask::stopJob(QString *error)
{
    bool waiting = false;
    onApplicationThread(this, [&] {
        if (m_job && m_job->isRunning()) {
            m_job->stop();
            waiting = true;
        }
    });
    if (waiting && !m_jobEnded->tryAcquire(1, kStopTimeoutMs)) {
        *error = QStringLiteral("it did not stop within %1 s").arg(kStopTimeoutMs / 1000);
        return false;
    }
    const QString why = failure();
    if (!why.isEmpty()) {
        *error = why;
        return false;
    }
    return true;
}

void CutoverTask::stepChanged(CutoverStep step, CutoverStepState state, const QString &text)
{
    postToApplication(QPointer<CutoverTask>(this),
                      [step, state, text](CutoverTask *task) { Q_EMIT task->stepUpdated(step, state, text); });
}

void CutoverTask::progress(const QString &line)
{
    postToApplication(QPointer<CutoverTask>(this), [line](CutoverTask *task) { Q_EMIT task->progressLine(line); });
}

void CutoverTask::preflightReady(const CutoverPreflight &preflight)
{
    postToApplication(QPointer<CutoverTask>(this),
                      [preflight](CutoverTask *task) { Q_EMIT task->preflightFinished(preflight); });
}

} // namespace md
