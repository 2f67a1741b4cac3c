#include "engine/verify/VerifyJob.h"

#include "engine/core/Tasks.h"

#include <utility>

namespace md {

namespace {

// The record at exactly `offset`, nullopt when the partition has none there.
std::optional<KafkaMessage> readAt(const ClusterConfig &cluster, const QString &topic, int partition, qint64 offset,
                                   int timeoutMs, QString *error)
{
    if (offset < 0 || partition < 0)
        return std::nullopt;
    QString createError;
    std::unique_ptr<AdminService> admin = AdminService::create(cluster, &createError, timeoutMs);
    if (!admin) {
        *error = cluster.bootstrap + QStringLiteral(": ") + createError;
        return std::nullopt;
    }
    MessageQuery q;
    q.topic = topic;
    q.partition = partition;
    q.mode = MessageQuery::Mode::FromOffset;
    q.offset = offset;
    q.maxMessages = 1;
    q.timeoutMs = timeoutMs;
    const AdminResult<QList<KafkaMessage>> r = admin->readMessages(q);
    if (!r.ok()) {
        *error = cluster.bootstrap + QStringLiteral(": ") + r.error;
        return std::nullopt;
    }
    // The read starts at the offset clamped into the log, or skips a marker: then nothing is there.
    if (r.value.isEmpty() || r.value.first().offset != offset)
        return std::nullopt;
    return r.value.first();
}

} // namespace

VerifyJob::VerifyJob(MirrorJobSpec spec, VerifyOptions options, QObject *parent)
    : BackgroundJob(parent), m_spec(std::move(spec)), m_options(std::move(options))
{
    static const bool registered = [] {
        qRegisterMetaType<PartitionVerdict>("md::PartitionVerdict");
        qRegisterMetaType<VerifyReport>("md::VerifyReport");
        return true;
    }();
    Q_UNUSED(registered);
}

void VerifyJob::start()
{
    if (!beginRun())
        return;
    m_verdicts.clear();
    m_planned = 0;
    const auto deliver = deliverer(this);
    VerifyOptions options = m_options;
    options.onProgress = [deliver](const QString &topic, int partition, qint64 compared) {
        deliver([topic, partition, compared](VerifyJob *job) { Q_EMIT job->progress(topic, partition, compared); });
    };
    options.onPlanned = [deliver](int planned) { deliver([planned](VerifyJob *job) { job->m_planned = planned; }); };
    auto future = runTask([spec = m_spec, options = std::move(options), cancel = cancelFlag(), deliver]() mutable {
        options.cancel = cancel.get();
        const VerifyReport report = Verifier(spec, options).run([deliver](const PartitionVerdict &v) {
            deliver([v](VerifyJob *job) {
                job->m_verdicts.append(v);
                Q_EMIT job->partitionDone(v);
            });
        });
        deliver([report](VerifyJob *job) {
            job->endRun();
            Q_EMIT job->finished(report);
        });
    });
    Q_UNUSED(future)
}

void VerifyJob::cancel()
{
    raiseCancel();
    if (!isRunning())
        return;
    endRun();
    VerifyReport report;
    report.cancelled = true;
    report.error = QStringLiteral("cancelled");
    report.delivery = m_spec.delivery;
    report.plannedPartitions = m_planned;
    report.partitions = std::exchange(m_verdicts, {});
    Q_EMIT finished(report);
}

DifferenceRecords readDifferenceRecords(const MirrorJobSpec &spec, const PartitionVerdict &verdict, int timeoutMs)
{
    DifferenceRecords out;
    QString sourceError;
    // Both clusters at once: an unreachable one costs one timeout, not two.
    QFuture<std::optional<KafkaMessage>> source = runTask([&spec, &verdict, timeoutMs, &sourceError] {
        return readAt(spec.source, verdict.sourceTopic, verdict.partition, verdict.sourceOffset, timeoutMs,
                      &sourceError);
    });
    out.target =
        readAt(spec.target, verdict.targetTopic, verdict.partition, verdict.targetOffset, timeoutMs, &out.targetError);
    out.source = source.result();
    out.sourceError = sourceError;
    return out;
}

} // namespace md
