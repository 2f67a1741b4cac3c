#pragma once

#include "engine/core/WorkerThread.h"
#include "engine/mirror/MetricsSnapshot.h"
#include "engine/mirror/MirrorJobSpec.h"

#include <QObject>
#include <QString>

#include <memory>

namespace md {

// One mirror job: owns its engine thread (see MirrorWorker). Lives on the
// caller's thread; every call returns at once and every signal is delivered
// on the caller's thread (queued), so nothing here blocks on Kafka.
// Destroying a running job asks it to stop gracefully and returns at once:
// the worker, its clients and the group sync belong to a core the engine
// thread shares, which goes when the thread's flush and commit are done
// (the application waits for such threads at exit, see WorkerThread).
class MirrorJob final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MirrorJob)

public:
    explicit MirrorJob(MirrorJobSpec spec, QObject *parent = nullptr);
    ~MirrorJob() override; // graceful stop, without waiting for it

    const MirrorJobSpec &spec() const { return m_spec; }

    void start();
    void pause();
    void resume();
    void stop();  // graceful: flush, commit, then finished()
    void abort(); // at once, without flushing or committing: what a crash leaves (tests, emergencies)
    void setThrottle(qint64 bytesPerSecond); // live; 0 removes the throttle
    // Before start(): the engine thread and the librdkafka threads it makes run
    // at a lower priority (BackgroundPriority), so a window showing many busy
    // jobs stays responsive. The window's jobs use it; headless runs do not.
    void setBackgroundPriority(bool on) { m_backgroundPriority = on; }
    JobState state() const;
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
    struct Core;

    MirrorJobSpec m_spec;
    std::shared_ptr<Core> m_core;                        // shared with the engine thread
    WorkerThread m_thread{QStringLiteral("mirror-job")}; // runs MirrorWorker::run
    bool m_started = false;
    bool m_backgroundPriority = false;
};

} // namespace md
