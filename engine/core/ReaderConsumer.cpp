#include "engine/core/ReaderConsumer.h"

#include <QUuid>

namespace md {

ConfResult readerConf(const ClusterConfig &cluster, const ReaderOptions &options)
{
    QMap<QString, QString> properties{
        {QStringLiteral("group.id"), options.groupId.isEmpty()
                                         ? QStringLiteral("mirrordesk-") + options.purpose + QLatin1Char('-') +
                                               QUuid::createUuid().toString(QUuid::WithoutBraces)
                                         : options.groupId},
        {QStringLiteral("enable.auto.commit"), QStringLiteral("false")},
        {QStringLiteral("enable.auto.offset.store"), QStringLiteral("false")},
        {QStringLiteral("enable.partition.eof"), QStringLiteral("true")},
        {QStringLiteral("isolation.level"),
         options.readCommitted ? QStringLiteral("read_committed") : QStringLiteral("read_uncommitted")},
        {QStringLiteral("auto.offset.reset"), options.offsetReset},
    };
    properties.insert(options.extra);
    return makeKafkaConf(cluster, ClientRole::Consumer, properties);
}

} // namespace md
