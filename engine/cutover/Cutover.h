#pragma once

#include "engine/cutover/CutoverPreflight.h"
#include "engine/cutover/CutoverState.h"

#include <QJsonObject>
#include <QString>

#include <atomic>

namespace md {

// What the cutover needs of the job it switches: the caller owns it (the
// headless command its own MirrorJob, the window its JobSession's).
class CutoverJobControl {
public:
    virtual ~CutoverJobControl() = default;
    // Runs the job (this process's instance of it) unless it runs. False with *error.
    virtual bool ensureRunning(QString *error) = 0;
    // Why the job stopped by itself (it failed), empty while it runs or never ran.
    virtual QString failure() const = 0;
    // Stops it cleanly (flushed and committed) and waits for that. False with *error.
    virtual bool stopJob(QString *error) = 0;
};

enum class CutoverStepState { Pending, Running, Done, Skipped, Failed };

// Called on the cutover's own thread.
class CutoverSink {
public:
    virtual ~CutoverSink() = default;
    virtual void stepChanged(CutoverStep step, CutoverStepState state, const QString &text) = 0;
    // One line of the running step's progress, at most about once a second.
    virtual void progress(const QString &line) = 0;
    virtual void preflightReady(const CutoverPreflight &) {}
};

struct CutoverOutcome {
    // 0 done (a dry run without blockers; a rollback that removed the fence),
    // 1 blocked, refused, not done in time or interrupted (run it again to resume),
    // 2 could not run (a cluster unreachable, the state unreadable).
    int exitCode = 2;
    CutoverStep reached = CutoverStep::Preflight; // the first step not completed
    QString error;                                // why it ended early
    bool resumed = false;                         // went on from a recorded state
    bool alreadyDone = false;                     // the recorded cutover had finished
    CutoverPreflight preflight;
    QJsonObject report; // once done
};

// The guided switch of applications from the source to the target, step by
// step (CutoverStep): each step's start and end is recorded on the target
// (CutoverStore) before it acts, so a run interrupted anywhere goes on from
// where it was when started again. Blocking: its own thread, never the UI's.
class Cutover final {
public:
    Cutover(MirrorJobSpec spec, CutoverOptions options, CutoverJobControl *job, CutoverSink *sink);
    ~Cutover();
    Cutover(const Cutover &) = delete;
    Cutover &operator=(const Cutover &) = delete;

    CutoverOutcome run();
    // Removes exactly the DENY bindings the recorded cutover made and forgets
    // it; the caller then runs the job again.
    CutoverOutcome rollback();
    // Any thread: the run ends at the next step or within a second of a wait,
    // recorded as interrupted (resumable).
    void cancel() { m_cancel = true; }

private:
    struct Context;
    // Both clusters' admin clients and the recorded state; false with c.out.error.
    bool open(Context &c, std::optional<CutoverState> *recorded);
    bool stepFence(Context &c);
    bool stepDrain(Context &c);
    bool stepGroups(Context &c);
    bool stepStop(Context &c);
    bool fail(Context &c, CutoverStep step, const QString &why, int exitCode = 1);
    bool save(Context &c);
    bool cancelled(Context &c, CutoverStep step);

    MirrorJobSpec m_spec;
    CutoverOptions m_options;
    CutoverJobControl *m_job;
    CutoverSink *m_sink;
    std::atomic<bool> m_cancel{false};
};

} // namespace md
