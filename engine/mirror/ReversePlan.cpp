#include "engine/mirror/ReversePlan.h"

#include "engine/mirror/TopicNaming.h"

#include <QHash>

#include <utility>

namespace md {

ReverseJob reverseSpec(const MirrorJobSpec &forward)
{
    ReverseJob r;
    if (forward.naming == NamingPolicy::Template) {
        r.error = QStringLiteral("the job names its target topics by a template (%1), which cannot be reversed "
                                 "automatically: write the reverse job by hand")
                      .arg(forward.nameTemplate);
        return r;
    }
    MirrorJobSpec s = forward;
    std::swap(s.source, s.target);
    s.name = forward.name + QStringLiteral(" (reverse)");
    s.groupId = consumerGroupId(forward) + QStringLiteral(".reverse");
    s.instanceId.clear();
    s.offsetMapTopic.clear(); // its own map, derived from its own group
    s.start = StartPosition::Earliest;
    s.stop = StopCondition::RunForever;
    s.stopAfterRecords = 0;
    r.spec = s;
    r.ok = true;
    return r;
}

JobProgress planReverseStart(const MirrorJobSpec &forward, const MirrorJobSpec &reverse, const OffsetMap &forwardMap,
                             int timeoutMs)
{
    JobProgress plan = readJobProgress(reverse, timeoutMs);
    if (!plan.ok)
        return plan;
    // The forward map is keyed by forward source topic; the reverse job reads
    // the forward job's target topics.
    QHash<QPair<QString, int>, const PartitionOffsetMap *> byTarget;
    for (const auto &[topic, partition] : forwardMap.partitions()) {
        const PartitionOffsetMap *pm = forwardMap.partition(topic, partition);
        const QString targetTopic = pm ? pm->translate(pm->covered()).targetTopic : QString();
        byTarget.insert({targetTopic.isEmpty() ? targetTopicName(forward, topic) : targetTopic, partition}, pm);
    }
    for (PartitionStart &p : plan.partitions) {
        p.reason = StartReason::Reset;
        p.startTime = {};
        qint64 start = p.logStart;
        if (const PartitionOffsetMap *pm = byTarget.value({p.topic, p.partition})) {
            const OffsetTranslation end = pm->translate(pm->covered());
            if (end.targetOffset >= 0)
                start = std::max(start, end.targetOffset);
        }
        p.start = std::clamp(start, std::max<qint64>(0, p.logStart), std::max(p.end, p.logStart));
        p.toCopy = std::max<qint64>(0, p.end - p.start);
        p.skipped = 0;
    }
    return plan;
}

} // namespace md
