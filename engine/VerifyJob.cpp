#include "VerifyJob.h"

#include "Tasks.h"

#include <QCoreApplication>
#include <QPointer>

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
    : QObject(parent), m_spec(std::move(spec)), m_options(std::move(options))
{
    static const bool registered = [] {
        qRegisterMetaType<PartitionVerdict>("md::PartitionVerdict");
        qRegisterMetaType<VerifyReport>("md::VerifyReport");
        return true;
    }();
    Q_UNUSED(registered);
}

VerifyJob::~VerifyJob()
{
    // Nothing waits: the verifier sees the flag at its next read and ends on
    // its own; its late signals go nowhere (the guard).
    m_cancel->store(true);
}

void VerifyJob::start()
{
    if (m_running)
        return;
    m_running = true;
    // Posted to the application's thread; the guard is read there, never on the verifying thread.
    QPointer<VerifyJob> guard(this);
    QObject *const app = QCoreApplication::instance();
    VerifyOptions options = m_options;
    options.onProgress = [guard, app](const QString &topic, int partition, qint64 compared) {
        QMetaObject::invokeMethod(
            app,
            [guard, topic, partition, compared] {
                if (guard)
                    Q_EMIT guard->progress(topic, partition, compared);
            },
            Qt::QueuedConnection);
    };
    auto future = runTask([spec = m_spec, options = std::move(options), cancel = m_cancel, guard, app]() mutable {
        options.cancel = cancel.get();
        const VerifyReport report = Verifier(spec, options).run([guard, app](const PartitionVerdict &v) {
            QMetaObject::invokeMethod(
                app,
                [guard, v] {
                    if (guard)
                        Q_EMIT guard->partitionDone(v);
                },
                Qt::QueuedConnection);
        });
        QMetaObject::invokeMethod(
            app,
            [guard, report] {
                if (!guard)
                    return;
                guard->m_running = false;
                Q_EMIT guard->finished(report);
            },
            Qt::QueuedConnection);
    });
    Q_UNUSED(future)
}

void VerifyJob::cancel()
{
    m_cancel->store(true);
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
