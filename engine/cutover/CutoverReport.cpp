#include "engine/cutover/CutoverReport.h"

#include "engine/mirror/TopicNaming.h"

#include <QMap>
#include <QTextStream>

namespace md {

QJsonArray cutoverGroupsJson(const QList<GroupSyncEntry> &groups)
{
    QJsonArray out;
    for (const GroupSyncEntry &g : groups) {
        QJsonArray parts;
        for (const GroupPartitionSync &p : g.partitions)
            parts.append(QJsonObject{{QStringLiteral("topic"), p.topic},
                                     {QStringLiteral("partition"), p.partition},
                                     {QStringLiteral("sourceCommitted"), p.sourceCommitted},
                                     {QStringLiteral("targetTopic"), p.targetTopic},
                                     {QStringLiteral("targetOffset"), p.syncedOffset()},
                                     {QStringLiteral("action"), groupSyncActionName(p.action)}});
        out.append(QJsonObject{{QStringLiteral("group"), g.group}, {QStringLiteral("partitions"), parts}});
    }
    return out;
}

QJsonArray cutoverTopicsJson(const MirrorJobSpec &spec, const CopyLag &lag)
{
    struct Sum {
        int partitions = 0;
        qint64 records = 0; // end - log start: what the source holds
        qint64 notCopied = 0;
    };
    QMap<QString, Sum> sums;
    for (const CopyLag::Partition &p : lag.partitions) {
        Sum &s = sums[p.topic];
        ++s.partitions;
        s.records += qMax<qint64>(0, p.end - qMax<qint64>(0, p.logStart));
        s.notCopied += p.lag;
    }
    QJsonArray out;
    for (auto it = sums.cbegin(); it != sums.cend(); ++it)
        out.append(QJsonObject{{QStringLiteral("source"), it.key()},
                               {QStringLiteral("target"), targetTopicName(spec, it.key())},
                               {QStringLiteral("partitions"), it->partitions},
                               {QStringLiteral("records"), it->records},
                               {QStringLiteral("notCopied"), it->notCopied}});
    return out;
}

QJsonArray cutoverFenceJson(const QList<AclEntry> &fence)
{
    QJsonArray out;
    for (const AclEntry &b : fence)
        out.append(describeAcl(b));
    return out;
}

QJsonObject cutoverSwitchJson(const ClusterConfig &target)
{
    QJsonObject o{{QStringLiteral("bootstrap.servers"), target.bootstrap},
                  {QStringLiteral("security.protocol"), securityProtocolName(target.security).toUpper()}};
    if (!target.saslMechanism.isEmpty() &&
        (target.security == SecurityProtocol::SaslPlaintext || target.security == SecurityProtocol::SaslSsl))
        o.insert(QStringLiteral("sasl.mechanism"), target.saslMechanism);
    if (target.schemaRegistry.isSet())
        o.insert(QStringLiteral("schema.registry.url"), target.schemaRegistry.url);
    return o;
}

QString cutoverReportText(const QJsonObject &report)
{
    QString text;
    QTextStream out(&text);
    out << "cutover of job \"" << report.value(QLatin1String("job")).toString() << "\" done at "
        << report.value(QLatin1String("finished")).toString() << '\n';
    out << "topics:\n";
    for (const QJsonValue &v : report.value(QLatin1String("topics")).toArray()) {
        const QJsonObject t = v.toObject();
        out << "  " << t.value(QLatin1String("source")).toString() << " -> "
            << t.value(QLatin1String("target")).toString() << ": " << t.value(QLatin1String("partitions")).toInt()
            << " partitions, " << qint64(t.value(QLatin1String("records")).toDouble()) << " records, "
            << qint64(t.value(QLatin1String("notCopied")).toDouble()) << " not copied\n";
    }
    const QJsonArray groups = report.value(QLatin1String("groups")).toArray();
    out << "groups (" << groups.size() << "): each resumes on the target at\n";
    for (const QJsonValue &v : groups) {
        const QJsonObject g = v.toObject();
        out << "  " << g.value(QLatin1String("group")).toString() << ":";
        for (const QJsonValue &pv : g.value(QLatin1String("partitions")).toArray()) {
            const QJsonObject p = pv.toObject();
            out << ' ' << p.value(QLatin1String("targetTopic")).toString() << '['
                << p.value(QLatin1String("partition")).toInt()
                << "]=" << qint64(p.value(QLatin1String("targetOffset")).toDouble());
        }
        out << '\n';
    }
    const QJsonArray fence = report.value(QLatin1String("fence")).toArray();
    if (!fence.isEmpty()) {
        out << "fence on the source (" << fence.size() << " bindings; --rollback removes them):\n";
        for (const QJsonValue &v : fence)
            out << "  " << v.toString() << '\n';
    }
    out << "records never copied: " << qint64(report.value(QLatin1String("notCopied")).toDouble()) << '\n';
    out << "switch the applications to:\n";
    const QJsonObject sw = report.value(QLatin1String("switchTo")).toObject();
    for (auto it = sw.constBegin(); it != sw.constEnd(); ++it)
        out << "  " << it.key() << '=' << it.value().toString() << '\n';
    out << "  (their own credentials for the target; topic names as listed above)\n";
    out.flush();
    return text;
}

} // namespace md
