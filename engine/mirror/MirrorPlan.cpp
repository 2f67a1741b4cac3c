#include "engine/mirror/MirrorPlan.h"

#include "engine/admin/ProbeClient.h"
#include "engine/core/Tasks.h"
#include "engine/mirror/TargetTopicRule.h"
#include "engine/mirror/TopicNaming.h"

#include <QRegularExpression>

#include <algorithm>

namespace md {

namespace {

bool includeMatches(const MirrorJobSpec &spec, const QString &topic)
{
    return std::any_of(spec.include.cbegin(), spec.include.cend(), [&](const QString &pattern) {
        const QRegularExpression re(QRegularExpression::anchoredPattern(pattern));
        return re.isValid() && re.match(topic).hasMatch();
    });
}

} // namespace

bool MirrorPlan::hasErrors() const
{
    return std::any_of(topics.cbegin(), topics.cend(),
                       [](const TopicPlanEntry &e) { return e.action == TopicPlanEntry::Action::Error; });
}

MirrorPlan planMirror(const MirrorJobSpec &spec, const QList<ProbedTopic> &sourceTopics,
                      const QList<ProbedTopic> &targetTopics, int targetBrokerCount,
                      const TopicConfigsByName *sourceConfigs)
{
    MirrorPlan plan;
    for (const ProbedTopic &source : sourceTopics) {
        if (const QString reason = topicExclusionReason(spec, source.name); !reason.isEmpty()) {
            if (includeMatches(spec, source.name))
                plan.excluded.append({source.name, reason});
            continue;
        }
        TopicPlanEntry entry;
        entry.sourceTopic = source.name;
        entry.sourcePartitions = source.partitions;
        entry.targetTopic = targetTopicName(spec, source.name);
        const auto target = std::find_if(targetTopics.cbegin(), targetTopics.cend(),
                                         [&](const ProbedTopic &t) { return t.name == entry.targetTopic; });
        if (!source.error.isEmpty()) {
            entry.action = TopicPlanEntry::Action::Error;
            entry.note = QStringLiteral("the source topic cannot be read: ") + source.error;
        } else if (target == targetTopics.cend()) {
            if (spec.createTopics) {
                entry.action = TopicPlanEntry::Action::Create;
                // What the engine's topic sync would read, then the rule it creates by.
                QList<ConfigEntry> configs;
                if (!createdTopicsCopyConfigs(spec)) {
                    entry.configsNote = QStringLiteral("syncTopicConfigs is off: the target's defaults");
                } else if (!sourceConfigs) {
                    entry.configsNote = QStringLiteral("the source topic's configs were not read");
                } else if (const auto it = sourceConfigs->constFind(source.name); it == sourceConfigs->cend()) {
                    entry.configsNote = QStringLiteral("the source topic's configs were not read");
                } else if (!it->ok()) {
                    entry.configsNote = QStringLiteral("the source topic's configs cannot be read (%1): the job "
                                                       "would create it with the target's defaults")
                                            .arg(it->error);
                } else {
                    configs = it->entries;
                }
                const CreatedTopicSettings created =
                    createdTopicSettings(spec, source.partitions, source.replicationFactor, targetBrokerCount, configs);
                entry.configs = created.configs;
                entry.note = QStringLiteral("missing, will be created with %1 partitions").arg(created.partitions);
                if (targetBrokerCount > 0) {
                    entry.replicationFactor = created.replicationFactor;
                    entry.note += QStringLiteral(", replication factor %1").arg(created.replicationFactor);
                }
            } else {
                entry.action = TopicPlanEntry::Action::Error;
                entry.note = QStringLiteral("missing on the target, and createTopics is off");
            }
        } else {
            entry.targetPartitions = target->partitions;
            if (!target->error.isEmpty()) {
                entry.action = TopicPlanEntry::Action::Error;
                entry.note = QStringLiteral("the target topic cannot be used: ") + target->error;
            } else if (target->partitions < source.partitions) {
                // The engine's topic sync grows it (CreatePartitions), as MM2 does.
                entry.note = QStringLiteral("exists with %1 partitions, fewer than the source's %2: the job adds %3")
                                 .arg(target->partitions)
                                 .arg(source.partitions)
                                 .arg(source.partitions - target->partitions);
            } else {
                entry.note = QStringLiteral("exists, %1 partitions").arg(target->partitions);
                if (target->partitions > source.partitions)
                    entry.note +=
                        QStringLiteral(" (the source has %1; the extra ones stay empty)").arg(source.partitions);
            }
        }
        plan.topics.append(std::move(entry));
    }
    return plan;
}

QStringList topicsNeedingConfigs(const MirrorJobSpec &spec, const MirrorPlan &plan)
{
    QStringList out;
    if (!createdTopicsCopyConfigs(spec))
        return out;
    for (const TopicPlanEntry &e : plan.topics) {
        if (e.action == TopicPlanEntry::Action::Create)
            out << e.sourceTopic;
    }
    return out;
}

ProbedPlan probeAndPlan(const MirrorJobSpec &spec, int timeoutMs)
{
    ProbedPlan r;
    // Both clusters at once, so an unreachable pair costs one timeout, not two.
    QFuture<ClusterProbeResult> source = runTask(probeCluster, spec.source, timeoutMs, nullptr);
    r.target = probeCluster(spec.target, timeoutMs);
    r.source = source.result();
    if (!r.source.reachable || !r.target.reachable)
        return r;
    r.plan = planMirror(spec, r.source.topics, r.target.topics, r.target.brokerCount);
    const QStringList wanted = topicsNeedingConfigs(spec, r.plan);
    if (wanted.isEmpty())
        return r;
    TopicConfigsByName configs;
    QString error;
    if (std::unique_ptr<ProbeClient> client = ProbeClient::create(spec.source, &error, timeoutMs)) {
        configs = describeTopicConfigEntries(client->handle(), wanted, timeoutMs);
    } else {
        for (const QString &t : wanted)
            configs[t].error = error;
    }
    r.plan = planMirror(spec, r.source.topics, r.target.topics, r.target.brokerCount, &configs);
    return r;
}

} // namespace md
