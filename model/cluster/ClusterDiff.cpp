#include "model/cluster/ClusterDiff.h"

#include "engine/mirror/TargetTopicRule.h"
#include "engine/mirror/TopicNaming.h"

#include <QMap>
#include <QSet>

#include <algorithm>

namespace md {

namespace {

std::optional<QString> effectiveValue(const QList<ConfigEntry> &entries, const QString &name)
{
    for (const ConfigEntry &e : entries) {
        if (e.name == name)
            return e.sensitive ? std::nullopt : e.value;
    }
    return std::nullopt;
}

PartitionDiff comparePartition(int id, const PartitionInfo *s, const PartitionInfo *t)
{
    PartitionDiff d;
    d.partition = id;
    if (s) {
        d.sourceLow = s->lowWatermark;
        d.sourceHigh = s->highWatermark;
    }
    if (t) {
        d.targetLow = t->lowWatermark;
        d.targetHigh = t->highWatermark;
    }
    if (!t)
        d.status = PartitionDiff::Status::MissingOnTarget;
    else if (!s)
        d.status = PartitionDiff::Status::MissingOnSource;
    else if (d.sourceHigh < 0 || d.targetHigh < 0)
        d.status = PartitionDiff::Status::Unknown;
    else if (d.sourceHigh > d.targetHigh)
        d.status = PartitionDiff::Status::Behind;
    else if (d.sourceHigh < d.targetHigh)
        d.status = PartitionDiff::Status::Ahead;
    else
        d.status = PartitionDiff::Status::InSync;
    return d;
}

void comparePartitions(TopicDiff &diff, const TopicInfo *s, const TopicInfo *t)
{
    QMap<int, QPair<const PartitionInfo *, const PartitionInfo *>> ids;
    if (s) {
        for (const PartitionInfo &p : s->partitions)
            ids[p.id].first = &p;
    }
    if (t) {
        for (const PartitionInfo &p : t->partitions)
            ids[p.id].second = &p;
    }
    for (auto it = ids.cbegin(); it != ids.cend(); ++it) {
        PartitionDiff d = comparePartition(it.key(), it->first, it->second);
        // A topic missing on one side has no per-partition verdict beyond that.
        if (s && t) {
            const qint64 delta = d.endDelta();
            if (delta > 0)
                diff.recordsBehind += delta;
            else
                diff.recordsAhead -= delta;
        }
        diff.partitions.append(d);
    }
}

void compareConfigs(const MirrorJobSpec &spec, TopicDiff &diff, const QList<ConfigEntry> &source,
                    const QList<ConfigEntry> &target)
{
    diff.configsCompared = true;
    QSet<QString> names;
    for (const QHash<QString, QString> &side :
         {mirroredTopicConfigs(spec, source), mirroredTopicConfigs(spec, target)}) {
        for (auto it = side.cbegin(); it != side.cend(); ++it)
            names.insert(it.key());
    }
    QStringList sorted(names.cbegin(), names.cend());
    sorted.sort();
    for (const QString &name : std::as_const(sorted)) {
        ConfigDiff c{name, effectiveValue(source, name), effectiveValue(target, name)};
        if (c.source != c.target)
            diff.configs.append(c);
    }
}

void decide(TopicDiff &d)
{
    using S = TopicDiff::Status;
    bool partitionsUnknown = false;
    for (const PartitionDiff &p : std::as_const(d.partitions))
        partitionsUnknown |= p.status == PartitionDiff::Status::Unknown;
    if (!d.error.isEmpty())
        d.status = S::Error;
    else if (d.targetPartitions < 0)
        d.status = S::MissingOnTarget;
    else if (d.sourcePartitions < 0)
        d.status = S::MissingOnSource;
    else if (d.partitionCountDiffers())
        d.status = S::PartitionCount;
    else if (d.recordsBehind > 0)
        d.status = S::Behind;
    else if (d.recordsAhead > 0)
        d.status = S::Ahead;
    else if (!d.configs.isEmpty())
        d.status = S::Configs;
    else if (partitionsUnknown)
        d.status = S::Error; // cannot vouch for it: watermarks missing
    else
        d.status = S::InSync;
    if (d.status == S::Error && d.error.isEmpty())
        d.error = QStringLiteral("end offsets unknown");
}

qint64 sumCounts(const QList<PartitionDiff> &parts, bool source)
{
    qint64 total = 0;
    bool any = false;
    for (const PartitionDiff &p : parts) {
        const bool present = source ? p.status != PartitionDiff::Status::MissingOnSource
                                    : p.status != PartitionDiff::Status::MissingOnTarget;
        if (!present)
            continue;
        const qint64 c = source ? p.sourceCount() : p.targetCount();
        if (c < 0)
            return -1;
        total += c;
        any = true;
    }
    return any ? total : -1;
}

QString valueText(const std::optional<QString> &v)
{
    return v ? *v : QStringLiteral("(not set)");
}

} // namespace

qint64 TopicDiff::sourceCount() const
{
    return sourcePartitions < 0 ? -1 : sumCounts(partitions, true);
}

qint64 TopicDiff::targetCount() const
{
    return targetPartitions < 0 ? -1 : sumCounts(partitions, false);
}

QString TopicDiff::details() const
{
    QStringList parts;
    if (!error.isEmpty())
        parts << error;
    if (targetPartitions < 0)
        parts << QStringLiteral("%1 is missing on the target").arg(targetTopic);
    if (sourcePartitions < 0)
        parts << QStringLiteral("no source topic %1 for it").arg(sourceTopic);
    if (partitionCountDiffers())
        parts << QStringLiteral("%1 partitions on the source, %2 on the target")
                     .arg(sourcePartitions)
                     .arg(targetPartitions);
    if (sourcePartitions >= 0 && targetPartitions >= 0) {
        if (recordsBehind > 0)
            parts << QStringLiteral("target behind by %1 records").arg(recordsBehind);
        if (recordsAhead > 0)
            parts << QStringLiteral("target ahead by %1 records").arg(recordsAhead);
    }
    for (const ConfigDiff &c : configs)
        parts << QStringLiteral("%1: %2 on the source, %3 on the target")
                     .arg(c.name, valueText(c.source), valueText(c.target));
    return parts.join(QStringLiteral("; "));
}

int ClusterDiff::count(TopicDiff::Status status) const
{
    return int(std::count_if(topics.cbegin(), topics.cend(), [&](const TopicDiff &t) { return t.status == status; }));
}

qint64 ClusterDiff::totalRecordsBehind() const
{
    qint64 total = 0;
    for (const TopicDiff &t : topics) {
        if (t.status == TopicDiff::Status::Behind)
            total += t.recordsBehind;
    }
    return total;
}

QString ClusterDiff::summary() const
{
    using S = TopicDiff::Status;
    QStringList parts;
    parts << QStringLiteral("%1 in sync").arg(count(S::InSync));
    const auto add = [&](S s, const QString &text) {
        if (const int n = count(s))
            parts << QString(QString::number(n) + QLatin1Char(' ') + text);
    };
    add(S::MissingOnTarget, QStringLiteral("missing on target"));
    add(S::MissingOnSource, QStringLiteral("missing on source"));
    add(S::PartitionCount, QStringLiteral("with a different partition count"));
    if (const int n = count(S::Behind))
        parts << QStringLiteral("%1 behind by %2 records").arg(n).arg(totalRecordsBehind());
    add(S::Ahead, QStringLiteral("ahead of the source"));
    add(S::Configs, QStringLiteral("with different configs"));
    add(S::Error, QStringLiteral("not comparable"));
    const qsizetype n = topics.size();
    return QString((n == 1 ? QStringLiteral("1 topic: ") : QStringLiteral("%1 topics: ").arg(n)) +
                   parts.join(QStringLiteral(", ")));
}

QString topicDiffStatusName(TopicDiff::Status status)
{
    switch (status) {
    case TopicDiff::Status::Error: return QStringLiteral("not comparable");
    case TopicDiff::Status::MissingOnTarget: return QStringLiteral("missing on target");
    case TopicDiff::Status::MissingOnSource: return QStringLiteral("missing on source");
    case TopicDiff::Status::PartitionCount: return QStringLiteral("partition count differs");
    case TopicDiff::Status::Behind: return QStringLiteral("behind");
    case TopicDiff::Status::Ahead: return QStringLiteral("ahead");
    case TopicDiff::Status::Configs: return QStringLiteral("configs differ");
    case TopicDiff::Status::InSync: return QStringLiteral("in sync");
    }
    return {};
}

QString partitionDiffStatusName(PartitionDiff::Status status)
{
    switch (status) {
    case PartitionDiff::Status::InSync: return QStringLiteral("in sync");
    case PartitionDiff::Status::Behind: return QStringLiteral("behind");
    case PartitionDiff::Status::Ahead: return QStringLiteral("ahead");
    case PartitionDiff::Status::MissingOnTarget: return QStringLiteral("missing on target");
    case PartitionDiff::Status::MissingOnSource: return QStringLiteral("missing on source");
    case PartitionDiff::Status::Unknown: return QStringLiteral("unknown");
    }
    return {};
}

QHash<QString, QString> mirroredTopicConfigs(const MirrorJobSpec &spec, const QList<ConfigEntry> &entries)
{
    // The engine's rule (TargetTopicRule), whether or not the job creates topics.
    const QMap<QString, QString> copied = copiedTopicConfigs(configExcludes(spec), entries);
    QHash<QString, QString> out;
    for (auto it = copied.cbegin(); it != copied.cend(); ++it)
        out.insert(it.key(), it.value());
    return out;
}

QList<QPair<QString, QString>> selectedTopicPairs(const MirrorJobSpec &spec, const ClusterMetadata &source)
{
    QList<QPair<QString, QString>> out;
    for (const TopicInfo &t : source.topics) {
        if (topicSelected(spec, t.name))
            out.append({t.name, targetTopicName(spec, t.name)});
    }
    return out;
}

std::optional<QString> sourceNameFor(const MirrorJobSpec &spec, const QString &targetTopic)
{
    // The naming is a prefix and a suffix around the source name (${topic} once), so it is
    // inverted by stripping them; a template with ${topic} twice or not at all is not.
    const QString marker(QChar(0x1));
    const QString shape = targetTopicName(spec, marker);
    if (shape.count(marker) != 1)
        return std::nullopt;
    const qsizetype at = shape.indexOf(marker);
    const QString prefix = shape.left(at);
    const QString suffix = shape.mid(at + 1);
    if (targetTopic.size() <= prefix.size() + suffix.size() || !targetTopic.startsWith(prefix) ||
        !targetTopic.endsWith(suffix))
        return std::nullopt;
    const QString name = targetTopic.mid(prefix.size(), targetTopic.size() - prefix.size() - suffix.size());
    if (targetTopicName(spec, name) != targetTopic)
        return std::nullopt;
    return name;
}

ClusterDiff diffClusters(const MirrorJobSpec &spec, const ClusterMetadata &source, const ClusterMetadata &target,
                         const TopicConfigMap &sourceConfigs, const TopicConfigMap &targetConfigs)
{
    ClusterDiff out;
    QSet<QString> mappedTargets;
    for (const TopicInfo &s : source.topics) {
        if (!topicSelected(spec, s.name))
            continue;
        TopicDiff d;
        d.sourceTopic = s.name;
        d.targetTopic = targetTopicName(spec, s.name);
        mappedTargets.insert(d.targetTopic);
        d.sourcePartitions = int(s.partitions.size());
        const TopicInfo *t = target.topic(d.targetTopic);
        QStringList errors;
        if (!s.error.isEmpty())
            errors << QStringLiteral("source: ") + s.error;
        if (t) {
            d.targetPartitions = int(t->partitions.size());
            if (!t->error.isEmpty())
                errors << QStringLiteral("target: ") + t->error;
        }
        d.error = errors.join(QStringLiteral("; "));
        comparePartitions(d, &s, t);
        if (t) {
            const auto sc = sourceConfigs.constFind(s.name);
            const auto tc = targetConfigs.constFind(d.targetTopic);
            if (sc != sourceConfigs.cend() && tc != targetConfigs.cend())
                compareConfigs(spec, d, *sc, *tc);
        }
        decide(d);
        out.topics.append(std::move(d));
    }
    // Topics the naming says came from the source, whose source is gone (or was never there).
    // Same-cluster jobs are skipped: every source topic would look like its own orphan.
    if (!sameCluster(spec)) {
        for (const TopicInfo &t : target.topics) {
            if (mappedTargets.contains(t.name))
                continue;
            const std::optional<QString> name = sourceNameFor(spec, t.name);
            if (!name || source.topic(*name) || !topicSelected(spec, *name))
                continue;
            TopicDiff d;
            d.sourceTopic = *name;
            d.targetTopic = t.name;
            d.targetPartitions = int(t.partitions.size());
            comparePartitions(d, nullptr, &t);
            decide(d);
            out.topics.append(std::move(d));
        }
    }
    return out;
}

} // namespace md
