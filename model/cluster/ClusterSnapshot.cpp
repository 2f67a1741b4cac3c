#include "model/cluster/ClusterSnapshot.h"

#include "engine/admin/ConfigEntry.h"
#include "engine/admin/ProbeClient.h"

#include <functional>
#include <memory>
#include <optional>

namespace md {

namespace {

QString sideName(const ClusterConfig &c, const QString &fallback)
{
    return c.alias.isEmpty() ? fallback : c.alias;
}

// One cluster's metadata with watermarks, and the configs of the topics `topicsFor` picks.
bool cancelled(const std::atomic_bool *cancel, ClusterSnapshot *out)
{
    if (!cancel || !cancel->load())
        return false;
    out->error = QStringLiteral("cancelled");
    return true;
}

bool readSide(const ClusterConfig &cluster, const QString &side, int timeoutMs, int maxConfigTopics,
              ClusterMetadata *metadata, const std::function<QStringList(const ClusterMetadata &)> &topicsFor,
              TopicConfigMap *configs, ClusterSnapshot *out, const std::atomic_bool *cancel)
{
    QString error;
    const std::unique_ptr<ProbeClient> probe = ProbeClient::create(cluster, &error);
    if (!probe) {
        out->error = QStringLiteral("%1 cluster: %2").arg(side, error);
        return false;
    }
    probe->setCancelFlag(cancel);
    std::optional<ClusterMetadata> md = probe->fetchMetadata(timeoutMs, true, &error);
    if (cancelled(cancel, out))
        return false;
    if (!md) {
        out->error = QStringLiteral("%1 cluster: %2").arg(side, error);
        return false;
    }
    *metadata = *md;
    const QStringList topics = topicsFor(*metadata);
    if (topics.size() > maxConfigTopics) {
        out->warnings << QStringLiteral("%1: %2 topics, configs not compared (more than %3)")
                             .arg(side)
                             .arg(topics.size())
                             .arg(maxConfigTopics);
        return true;
    }
    // One DescribeConfigs for all of them (batched by the helper): a cluster that
    // does not answer costs one timeout, not one per topic.
    const TopicConfigsByName described = describeTopicConfigEntries(probe->handle(), topics, timeoutMs);
    QStringList failed;
    bool unsupported = false;
    for (const QString &topic : topics) {
        const DescribedTopicConfigs d = described.value(topic);
        if (d.ok())
            configs->insert(topic, d.entries);
        else if (d.unsupported)
            unsupported = true;
        else
            failed << QString(topic + QStringLiteral(" (") + d.error + QLatin1Char(')'));
    }
    if (unsupported)
        out->notes << QStringLiteral("%1 does not serve topic configs (no DescribeConfigs): configs are not compared")
                          .arg(side);
    if (!failed.isEmpty())
        out->warnings << QStringLiteral("%1: configs not read for %2").arg(side, failed.join(QStringLiteral(", ")));
    return true;
}

} // namespace

ClusterSnapshot readClusterSnapshot(const MirrorJobSpec &spec, int timeoutMs, int maxConfigTopics,
                                    const std::atomic_bool *cancel)
{
    ClusterSnapshot in;
    const QString sourceName = sideName(spec.source, QStringLiteral("source"));
    const QString targetName = sideName(spec.target, QStringLiteral("target"));
    QList<QPair<QString, QString>> pairs;
    const bool sourceOk = readSide(
        spec.source, sourceName, timeoutMs, maxConfigTopics, &in.source,
        [&](const ClusterMetadata &md) {
            pairs = selectedTopicPairs(spec, md);
            QStringList names;
            for (const auto &p : std::as_const(pairs))
                names << p.first;
            return names;
        },
        &in.sourceConfigs, &in, cancel);
    if (!sourceOk || cancelled(cancel, &in))
        return in;
    readSide(
        spec.target, targetName, timeoutMs, maxConfigTopics, &in.target,
        [&](const ClusterMetadata &md) {
            // Only the target topics that exist: a describe of a missing one only fails.
            QStringList names;
            for (const auto &p : std::as_const(pairs)) {
                if (md.topic(p.second))
                    names << p.second;
            }
            return names;
        },
        &in.targetConfigs, &in, cancel);
    if (!in.error.isEmpty() || cancelled(cancel, &in))
        return in; // nothing is compared, the registries neither
    QList<MirroredTopic> topics;
    for (const auto &p : std::as_const(pairs))
        topics.append({p.first, p.second});
    in.registry = readRegistryComparison(spec.source.schemaRegistry, spec.target.schemaRegistry, topics, timeoutMs);
    return in;
}

} // namespace md
