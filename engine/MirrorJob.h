#pragma once

#include "MetricsSnapshot.h"
#include "MirrorJobSpec.h"
#include "WorkerThread.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>

namespace md {

class GroupSyncRunner;
class MirrorWorker;

// One mirror job: owns its engine thread (see MirrorWorker). Lives on the
// caller's thread; every call returns at once and every signal is delivered
// on the caller's thread (queued), so nothing here blocks on Kafka.
class MirrorJob final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MirrorJob)

public:
    explicit MirrorJob(MirrorJobSpec spec, QObject *parent = nullptr);
    ~MirrorJob() override; // graceful stop + join if still running

    const MirrorJobSpec &spec() const { return m_spec; }

    void start();
    void pause();
    void resume();
    void stop();  // graceful: flush, commit, then finished()
    void abort(); // at once, without flushing or committing: what a crash leaves (tests, emergencies)
    void setThrottle(qint64 bytesPerSecond); // live; 0 removes the throttle
    JobState state() const { return m_state.load(); }
    bool isRunning() const;                       // started and the engine thread has not ended
    bool hasStarted() const { return m_started; } // start() was called (a job runs once)

    // Blocks until the engine thread has ended (headless runs and tests).
    // The finished() signal is still delivered through the event loop.
    bool waitForFinished(int timeoutMs);

Q_SIGNALS:
    void metricsSampled(const md::MetricsSnapshot &snapshot); // one per sampling tick
    void eventRaised(const md::JobEvent &event);
    void stateChanged(md::JobState state);
    void finished(bool ok, const QString &error);

private:
    class Sink;
    void join();

    MirrorJobSpec m_spec;
    std::atomic<JobState> m_state{JobState::Stopped};
    std::unique_ptr<Sink> m_sink;
    std::unique_ptr<MirrorWorker> m_worker;
    WorkerThread m_thread{QStringLiteral("mirror-job")}; // runs MirrorWorker::run
    // Group offset sync beside the worker (its own thread), when the profile asks for it.
    std::unique_ptr<GroupSyncRunner> m_groupSync;
    mutable std::mutex m_doneMutex;
    std::condition_variable m_doneCv;
    bool m_started = false;
    bool m_done = false;
};

} // namespace md
