#pragma once

#include "engine/core/Tasks.h"

#include <QObject>
#include <QPointer>

#include <atomic>
#include <memory>
#include <utility>

namespace md {

// One-shot work on the task pool that answers on the application's thread:
// the shape the window's long operations share (MessageCopyJob,
// MessageSearchJob, VerifyJob). A cancel is for the job's life (one before
// start() cancels the run it starts); the task reads the flag at its next
// step. A run's answers arrive only while the job lives and that run is
// current: once a job answered a run (finished, or a cancel that answers at
// once) or started another, the old run's late answers are dropped. Nothing
// ever waits for a task: it ends on its own. The subclass declares its
// signals and starts its task with cancelFlag() and deliverer(this).
class BackgroundJob : public QObject {
public:
    bool isRunning() const { return m_running; }

protected:
    explicit BackgroundJob(QObject *parent) : QObject(parent) {}
    ~BackgroundJob() override { m_cancel->store(true); }
    BackgroundJob(const BackgroundJob &) = delete;
    BackgroundJob &operator=(const BackgroundJob &) = delete;

    // Starts a run: false when one is running. deliverer(this) posts its answers.
    bool beginRun()
    {
        if (m_running)
            return false;
        m_running = true;
        ++m_run;
        return true;
    }
    // The run is answered: what it still sends is dropped.
    void endRun() { m_running = false; }
    // Asks the task to stop at its next step, and any run started later at once.
    void raiseCancel() { m_cancel->store(true); }
    const std::shared_ptr<std::atomic_bool> &cancelFlag() const { return m_cancel; }

    // For the task's thread: deliver([](Job *job) { ... }) runs the call on the
    // application's thread if the job still lives and the run is current.
    template <class Job> auto deliverer(Job *self) const
    {
        QPointer<Job> guard(self);
        const quint64 run = m_run;
        return [guard, run](auto apply) {
            postToApplication(guard, [run, apply = std::move(apply)](Job *job) {
                if (job->BackgroundJob::current(run))
                    apply(job);
            });
        };
    }

private:
    bool current(quint64 run) const { return m_running && m_run == run; }

    bool m_running = false;
    quint64 m_run = 0;
    // Shared with the tasks, which may outlive the job.
    const std::shared_ptr<std::atomic_bool> m_cancel = std::make_shared<std::atomic_bool>(false);
};

} // namespace md
