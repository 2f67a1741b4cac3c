#include "MirrorPlan.h"

#include "TopicNaming.h"

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
                      const QList<ProbedTopic> &targetTopics)
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
                entry.note = QStringLiteral("missing, will be created with %1 partitions").arg(source.partitions);
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
                entry.action = TopicPlanEntry::Action::Error;
                entry.note = QStringLiteral("exists with %1 partitions, fewer than the source's %2: the job would stop")
                                 .arg(target->partitions)
                                 .arg(source.partitions);
            } else {
                entry.note = QStringLiteral("exists, %1 partitions").arg(target->partitions);
                if (target->partitions > source.partitions)
                    entry.note += QStringLiteral(" (the source has %1; the extra ones stay empty)").arg(source.partitions);
            }
        }
        plan.topics.append(std::move(entry));
    }
    return plan;
}

} // namespace md
