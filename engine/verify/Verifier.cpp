#include "engine/verify/Verifier.h"

#include "engine/admin/ClusterProbe.h"
#include "engine/core/Tasks.h"
#include "engine/mirror/TopicNaming.h"
#include "engine/schemasync/SchemaIdRewrite.h"
#include "engine/verify/VerifierDetail.h"

#include <QRegularExpression>

#include <optional>

namespace md {

using namespace verify_detail;

QString PartitionVerdict::location() const
{
    if (partition < 0)
        return sourceTopic + QStringLiteral(" -> ") + targetTopic;
    return topicPartition(sourceTopic, partition) + QStringLiteral(" -> ") + topicPartition(targetTopic, partition);
}

QString PartitionVerdict::toString() const
{
    QString line = location();
    if (partition >= 0)
        line += QStringLiteral("  source %1  target %2  ").arg(sourceCount).arg(targetCount);
    else
        line += QStringLiteral("  ");
    switch (status) {
    case Status::Match: line += QStringLiteral("OK"); break;
    case Status::MatchWithDuplicates:
        line += QStringLiteral("OK with %1 duplicate%2 (at-least-once replay)")
                    .arg(duplicates)
                    .arg(duplicates == 1 ? QString() : QStringLiteral("s"));
        break;
    case Status::Different: {
        line += QStringLiteral("DIFFERENT: ") + difference;
        if (partition >= 0) {
            line += QStringLiteral(" at source offset ") +
                    (sourceOffset >= 0 ? QString::number(sourceOffset) : QStringLiteral("-")) +
                    QStringLiteral(", target offset ") +
                    (targetOffset >= 0 ? QString::number(targetOffset) : QStringLiteral("-"));
        }
        break;
    }
    }
    if (status != Status::Different && !sourceDigest.isEmpty())
        line += QStringLiteral("  sha256 ") + QString::fromLatin1(sourceDigest.left(16));
    if (sourceSkipped > 0)
        line += QStringLiteral("  (%1 source records before the start position)").arg(sourceSkipped);
    if (!trimNote.isEmpty())
        line += QStringLiteral("  (") + trimNote + QLatin1Char(')');
    return line;
}

bool judgeDuplicates(PartitionVerdict &v, DeliveryGuarantee delivery)
{
    if (delivery != DeliveryGuarantee::ExactlyOnce || v.status != PartitionVerdict::Status::MatchWithDuplicates)
        return false;
    v.status = PartitionVerdict::Status::Different;
    v.difference = QStringLiteral("exactly-once job: %1 duplicate%2 on the target")
                       .arg(v.duplicates)
                       .arg(v.duplicates == 1 ? QString() : QStringLiteral("s"));
    v.sourceOffset = v.firstDuplicateSourceOffset;
    v.targetOffset = v.firstDuplicateTargetOffset;
    return true;
}

const PartitionVerdict *VerifyReport::firstDifference() const
{
    for (const PartitionVerdict &v : partitions) {
        if (!v.matches())
            return &v;
    }
    return nullptr;
}

int VerifyReport::exitCode() const
{
    if (!completed)
        return 2;
    return firstDifference() ? 1 : 0;
}

QString VerifyReport::summary() const
{
    qint64 records = 0, duplicates = 0, trimmedFromTarget = 0, trimmedFromSource = 0;
    int matching = 0, differing = 0;
    for (const PartitionVerdict &v : partitions) {
        records += v.sourceCount;
        trimmedFromTarget += v.trimmedFromTarget;
        trimmedFromSource += v.trimmedFromSource;
        if (v.matches())
            duplicates += v.duplicates; // a differing partition's count says nothing about replays
        v.matches() ? ++matching : ++differing;
    }
    QString text;
    if (cancelled && plannedPartitions == 0 && partitions.isEmpty())
        return QStringLiteral("verify: cancelled before both clusters answered");
    if (cancelled) {
        return QStringLiteral("verify: cancelled after %1 of %2 partitions (%3 differing)")
            .arg(partitions.size())
            .arg(plannedPartitions)
            .arg(differing);
    }
    if (!completed) {
        text = QStringLiteral("verify: cannot compare: ") + error;
        if (!partitions.isEmpty())
            text += QStringLiteral(" (after %1 partitions, %2 differing)").arg(partitions.size()).arg(differing);
        return text;
    }
    text = QStringLiteral("verify: %1 partitions, %2 records: %3 match, %4 differ")
               .arg(partitions.size())
               .arg(records)
               .arg(matching)
               .arg(differing);
    if (duplicates)
        text += QStringLiteral("; warning: %1 duplicate records on the target (at-least-once replay)").arg(duplicates);
    if (exactlyOnceDuplicates)
        text += QStringLiteral("; exactly-once job: %1 duplicate%2 on the target")
                    .arg(exactlyOnceDuplicates)
                    .arg(exactlyOnceDuplicates == 1 ? QString() : QStringLiteral("s"));
    if (trimmedFromTarget || trimmedFromSource) {
        QStringList parts;
        if (trimmedFromTarget)
            parts << QStringLiteral("%1 source records the target no longer holds").arg(trimmedFromTarget);
        if (trimmedFromSource)
            parts << QStringLiteral("%1 target records the source no longer holds").arg(trimmedFromSource);
        text += QStringLiteral("; not compared (trimmed logs): ") + parts.join(QStringLiteral(", "));
    }
    if (const PartitionVerdict *first = firstDifference()) {
        text += QStringLiteral("\nfirst difference: ") + first->location() + QStringLiteral(": ") + first->difference;
        if (first->partition >= 0) {
            text += QStringLiteral(" (source offset %1, target offset %2)")
                        .arg(first->sourceOffset >= 0 ? QString::number(first->sourceOffset) : QStringLiteral("-"),
                             first->targetOffset >= 0 ? QString::number(first->targetOffset) : QStringLiteral("-"));
        }
    }
    return text;
}

Verifier::Verifier(MirrorJobSpec spec, VerifyOptions options) : m_spec(std::move(spec)), m_options(std::move(options))
{
}

VerifyReport Verifier::run(const PartitionCallback &onPartition)
{
    VerifyReport report;
    report.delivery = m_spec.delivery;
    std::optional<QRegularExpression> filter;
    if (!m_options.topicFilter.isEmpty()) {
        filter.emplace(QRegularExpression::anchoredPattern(m_options.topicFilter));
        if (!filter->isValid()) {
            report.error = QStringLiteral("--topic: invalid regular expression: ") + filter->errorString();
            return report;
        }
    }

    // Both clusters at once, so an unreachable pair costs one timeout, not two.
    // The cancel flag ends both probes too: a cluster that does not answer must not hold a cancelled run.
    QFuture<ClusterProbeResult> sourceFuture =
        runTask(probeCluster, m_spec.source, m_options.connectTimeoutMs, m_options.cancel);
    const ClusterProbeResult target = probeCluster(m_spec.target, m_options.connectTimeoutMs, m_options.cancel);
    const ClusterProbeResult source = sourceFuture.result();
    if (m_options.cancel && m_options.cancel->load()) {
        report.cancelled = true;
        report.error = PartitionReader::cancelledText();
        return report;
    }
    if (!source.reachable || !target.reachable) {
        QStringList errors;
        if (!source.reachable)
            errors << QStringLiteral("source ") + source.error;
        if (!target.reachable)
            errors << QStringLiteral("target ") + target.error;
        report.error = errors.join(QStringLiteral("; "));
        return report;
    }

    QList<std::pair<ProbedTopic, QString>> topics; // source topic, target name
    for (const ProbedTopic &t : source.topics) {
        if (!t.error.isEmpty() || !topicSelected(m_spec, t.name))
            continue;
        if (filter && !filter->match(t.name).hasMatch())
            continue;
        topics.append({t, targetTopicName(m_spec, t.name)});
    }
    for (const auto &[topic, targetName] : topics) {
        const ProbedTopic *onTarget = target.topic(targetName);
        report.plannedPartitions += onTarget && onTarget->error.isEmpty() ? topic.partitions : 1;
    }
    if (m_options.onPlanned)
        m_options.onPlanned(report.plannedPartitions);
    if (topics.isEmpty()) {
        report.error = QStringLiteral("no source topic on %1 is mirrored by this job%2")
                           .arg(m_spec.source.bootstrap,
                                filter ? QStringLiteral(" and matches --topic ") + m_options.topicFilter : QString());
        return report;
    }

    PartitionReader sourceReader(m_spec.source, m_options.idleTimeoutMs);
    PartitionReader targetReader(m_spec.target, m_options.idleTimeoutMs);
    if (QString e = sourceReader.open(); !e.isEmpty()) {
        report.error = e;
        return report;
    }
    if (QString e = targetReader.open(); !e.isEmpty()) {
        report.error = e;
        return report;
    }
    // Only the source side reports progress: its records are what a partition's count is.
    sourceReader.setCancel(m_options.cancel);
    targetReader.setCancel(m_options.cancel);
    if (m_options.onProgress)
        sourceReader.setProgress(m_options.onProgress, m_options.progressIntervalMs);
    if (m_spec.syncSchemas && m_spec.schemaIds == MirrorJobSpec::SchemaIds::Translate) {
        // The job wrote the target registry's ids: source records are compared
        // as the job copies them, with the source's ids mapped.
        const SchemaIdRewrite rewrite = schemaIdRewriteOf(m_spec, m_options.connectTimeoutMs);
        if (!rewrite.error.isEmpty()) {
            report.error = QStringLiteral("schema ids: ") + rewrite.error;
            return report;
        }
        sourceReader.setRewrite([rewrite](rd_kafka_message_t *m) { rewrite.apply(m); });
    }
    PartitionComparison comparison(m_spec, m_options, sourceReader, targetReader);
    auto cancelled = [&] {
        if (!sourceReader.cancelled())
            return false;
        report.cancelled = true;
        report.error = PartitionReader::cancelledText();
        return true;
    };

    auto emitVerdict = [&](PartitionVerdict v) {
        if (onPartition)
            onPartition(v);
        report.partitions.append(std::move(v));
    };

    for (const auto &[topic, targetName] : topics) {
        const ProbedTopic *onTarget = target.topic(targetName);
        if (!onTarget || !onTarget->error.isEmpty()) {
            PartitionVerdict v;
            v.sourceTopic = topic.name;
            v.targetTopic = targetName;
            v.status = PartitionVerdict::Status::Different;
            v.difference =
                onTarget
                    ? QStringLiteral("target topic %1 cannot be read: %2").arg(targetName, onTarget->error)
                    : QStringLiteral("target topic %1 does not exist on %2").arg(targetName, m_spec.target.bootstrap);
            emitVerdict(std::move(v));
            continue;
        }
        if (onTarget->partitions > topic.partitions) {
            report.warnings << QStringLiteral(
                                   "%1 has %2 partitions, more than the source's %3: the extra ones are not compared")
                                   .arg(targetName)
                                   .arg(onTarget->partitions)
                                   .arg(topic.partitions);
        }
        for (int p = 0; p < topic.partitions; ++p) {
            if (cancelled())
                return report;
            if (p >= onTarget->partitions) {
                PartitionVerdict v;
                v.sourceTopic = topic.name;
                v.targetTopic = targetName;
                v.partition = p;
                v.status = PartitionVerdict::Status::Different;
                v.difference = QStringLiteral("target partition missing (%1 has %2 partitions)")
                                   .arg(targetName)
                                   .arg(onTarget->partitions);
                emitVerdict(std::move(v));
                continue;
            }
            QString error;
            auto verdict = comparison.run({topic.name, targetName, p}, &error);
            if (!verdict) {
                if (!cancelled())
                    report.error = error;
                return report;
            }
            if (judgeDuplicates(*verdict, m_spec.delivery))
                report.exactlyOnceDuplicates += verdict->duplicates;
            emitVerdict(std::move(*verdict));
        }
    }
    report.completed = true;
    return report;
}

} // namespace md
