#pragma once

// Verifier::run as one-shot work on the task pool, for the GUI: per-partition
// progress and verdicts, finished and cancel, like MessageCopyJob. Also the
// two records a difference points at, read through the message read path.

#include "engine/admin/AdminService.h"
#include "engine/core/BackgroundJob.h"
#include "engine/verify/Verifier.h"

#include <optional>

namespace md {

// Runs Verifier(spec, options).run() as a pool task. Signals arrive on the
// application's (UI) thread, and only while the job lives.
class VerifyJob final : public BackgroundJob {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VerifyJob)
public:
    explicit VerifyJob(MirrorJobSpec spec, VerifyOptions options = {}, QObject *parent = nullptr);
    ~VerifyJob() override = default; // cancels; does not wait (the task ends on its own)

    const MirrorJobSpec &spec() const { return m_spec; }
    void start();
    // Answers at once: finished() with a cancelled report of the verdicts so
    // far, emitted before cancel() returns, even while the run still waits
    // for a cluster that does not answer (verify writes nothing, so nothing is
    // left to wait for). The task sees the flag at its next read or metadata
    // round (about a second at most) and ends on its own; its late signals
    // are dropped.
    void cancel();

Q_SIGNALS:
    void progress(const QString &sourceTopic, int partition, qint64 compared);
    void partitionDone(const md::PartitionVerdict &verdict);
    void finished(const md::VerifyReport &report);

private:
    MirrorJobSpec m_spec;
    VerifyOptions m_options;
    // What a cancel answers with: the verdicts delivered so far and the run's plan.
    QList<PartitionVerdict> m_verdicts;
    int m_planned = 0;
};

// The two records of a verdict's first difference. A side without a record
// at its offset (offset -1, past the end, or a transaction marker) is nullopt.
struct DifferenceRecords {
    std::optional<KafkaMessage> source;
    std::optional<KafkaMessage> target;
    QString sourceError; // that side could not be read (the other may still be there)
    QString targetError;
};

// Blocking (run it as a task): reads sourceOffset of the source partition and
// targetOffset of the target partition, both sides at once.
DifferenceRecords readDifferenceRecords(const MirrorJobSpec &spec, const PartitionVerdict &verdict,
                                        int timeoutMs = 10000);

} // namespace md

Q_DECLARE_METATYPE(md::PartitionVerdict)
Q_DECLARE_METATYPE(md::VerifyReport)
