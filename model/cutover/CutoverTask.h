#pragma once

#include "engine/cutover/Cutover.h"
#include "engine/mirror/MetricsSnapshot.h"
#include "engine/mirror/MirrorJob.h"

#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>
#include <mutex>

class QSemaphore;

namespace md {

// A cutover (engine/cutover/Cutover.h) run on a task thread, driving a job
// that lives on the application's thread: the window's wizard and the
// headless `cutover` both use it. Its signals arrive on the application's
// thread; the cutover's calls to start and stop the job are made there too.
class CutoverTask final : public QObject, private CutoverJobControl, private CutoverSink {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CutoverTask)
public:
    // Returns the job running the spec (started if it was not); null with
    // *error. The window's finds the job it already runs or starts one.
    using JobProvider = std::function<MirrorJob *(QString *error)>;

    CutoverTask(MirrorJobSpec spec, CutoverOptions options, QObject *parent = nullptr);
    ~CutoverTask() override;

    // Default: a job of the task's own (deleted with it), whose events come as jobEvent.
    void setJobProvider(JobProvider provider) { m_provider = std::move(provider); }
    // The job the cutover drives, if it has one yet.
    MirrorJob *job() const { return m_job; }

    void start();         // the cutover (or its dry run, per the options)
    void startRollback(); // removes the fence and forgets the recorded cutover
    void cancel();        // recorded as interrupted; run it again to go on
    bool isRunning() const { return m_running; }

    // The summary an operator reads at the end of a cutover (its report as text).
    static QString reportText(const QJsonObject &report);

Q_SIGNALS:
    void stepUpdated(md::CutoverStep step, md::CutoverStepState state, const QString &text);
    void progressLine(const QString &line);
    void preflightFinished(const md::CutoverPreflight &preflight);
    void jobEvent(const md::JobEvent &event); // of a job of the task's own
    void finished(const md::CutoverOutcome &outcome);

private:
    void begin(bool rollback);
    // CutoverJobControl (the cutover's thread)
    bool ensureRunning(QString *error) override;
    QString failure() const override;
    bool stopJob(QString *error) override;
    // CutoverSink (the cutover's thread)
    void stepChanged(CutoverStep step, CutoverStepState state, const QString &text) override;
    void progress(const QString &line) override;
    void preflightReady(const CutoverPreflight &preflight) override;

    MirrorJob *provideOwnJob(QString *error);

    MirrorJobSpec m_spec;
    CutoverOptions m_options;
    JobProvider m_provider;
    std::unique_ptr<Cutover> m_cutover;
    QPointer<MirrorJob> m_job;
    std::unique_ptr<MirrorJob> m_ownJob;
    std::unique_ptr<QSemaphore> m_jobEnded;
    mutable std::mutex m_mutex;
    QString m_failure; // under m_mutex
    bool m_running = false;
};

} // namespace md

Q_DECLARE_METATYPE(md::CutoverOutcome)
Q_DECLARE_METATYPE(md::CutoverPreflight)
Q_DECLARE_METATYPE(md::CutoverStep)
Q_DECLARE_METATYPE(md::CutoverStepState)
