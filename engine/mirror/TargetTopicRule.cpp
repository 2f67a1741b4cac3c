#include "engine/mirror/TargetTopicRule.h"

#include <QRegularExpression>

#include <algorithm>

namespace md {

QStringList defaultConfigExcludes()
{
    // MM2's DefaultConfigPropertyFilter, plus the KIP-937 successors of
    // message.timestamp.difference.max.ms, which would reject old records.
    return {QStringLiteral("follower\\.replication\\.throttled\\.replicas"),
            QStringLiteral("leader\\.replication\\.throttled\\.replicas"),
            QStringLiteral("message\\.timestamp\\.difference\\.max\\.ms"),
            QStringLiteral("message\\.timestamp\\.before\\.max\\.ms"),
            QStringLiteral("message\\.timestamp\\.after\\.max\\.ms"),
            // LogAppendTime on the target would overwrite the copied CreateTime.
            QStringLiteral("message\\.timestamp\\.type"), QStringLiteral("unclean\\.leader\\.election\\.enable"),
            QStringLiteral("min\\.insync\\.replicas")};
}

QStringList configExcludes(const MirrorJobSpec &spec)
{
    return spec.configExclude.isEmpty() ? defaultConfigExcludes() : spec.configExclude;
}

QMap<QString, QString> copiedTopicConfigs(const QStringList &excludeRegexes, const QList<ConfigEntry> &sourceConfigs)
{
    QList<QRegularExpression> excludes;
    for (const QString &re : excludeRegexes)
        excludes.append(QRegularExpression(QRegularExpression::anchoredPattern(re)));
    QMap<QString, QString> out;
    for (const ConfigEntry &e : sourceConfigs) {
        if (e.source != ConfigSource::Dynamic || e.sensitive || e.readOnly || !e.value)
            continue;
        const bool excluded = std::any_of(excludes.cbegin(), excludes.cend(), [&](const QRegularExpression &re) {
            return re.isValid() && re.match(e.name).hasMatch();
        });
        if (!excluded)
            out.insert(e.name, *e.value);
    }
    return out;
}

bool createdTopicsCopyConfigs(const MirrorJobSpec &spec)
{
    return spec.syncTopicConfigs;
}

CreatedTopicSettings createdTopicSettings(const MirrorJobSpec &spec, int sourcePartitions, int sourceReplicationFactor,
                                          int targetBrokerCount, const QList<ConfigEntry> &sourceConfigs)
{
    CreatedTopicSettings s;
    s.partitions = sourcePartitions;
    s.replicationFactor = qMax(1, qMin(sourceReplicationFactor > 0 ? sourceReplicationFactor : 1,
                                       targetBrokerCount > 0 ? targetBrokerCount : 1));
    if (createdTopicsCopyConfigs(spec))
        s.configs = copiedTopicConfigs(configExcludes(spec), sourceConfigs);
    return s;
}

QString configsText(const QMap<QString, QString> &configs)
{
    QStringList parts;
    for (auto it = configs.cbegin(); it != configs.cend(); ++it)
        parts << it.key() + QLatin1Char('=') + it.value();
    return parts.join(QStringLiteral(", "));
}

} // namespace md
