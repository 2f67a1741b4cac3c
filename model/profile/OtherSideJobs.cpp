#include "model/profile/OtherSideJobs.h"

#include "engine/mirror/TopicNaming.h"
#include "model/cluster/ClusterDiff.h"

namespace md {

QList<OtherSideCandidate> otherSideCandidates(const QList<MirrorJobSpec> &jobs, const ClusterConfig &own,
                                              const ClusterConfig &other, const QString &topic, QString *whyNone)
{
    QList<OtherSideCandidate> out;
    bool connecting = false; // some job joins the two clusters, just not for this topic
    for (const MirrorJobSpec &spec : jobs) {
        if (sameCluster(spec.source, own) && sameCluster(spec.target, other)) {
            connecting = true;
            if (topicSelected(spec, topic))
                out.append({spec, LookupDirection::SourceToTarget});
        } else if (sameCluster(spec.source, other) && sameCluster(spec.target, own)) {
            connecting = true;
            const std::optional<QString> source = sourceNameFor(spec, topic);
            if (source && topicSelected(spec, *source))
                out.append({spec, LookupDirection::TargetToSource});
        }
    }
    if (out.isEmpty() && whyNone) {
        *whyNone = connecting ? QStringLiteral("No mirror job in the job list copies topic \"%1\" between these two "
                                               "clusters")
                                    .arg(topic)
                              : QStringLiteral("No mirror job in the job list connects these two clusters");
    }
    return out;
}

} // namespace md
