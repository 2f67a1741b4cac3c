#include "bench_monitor_live_kafka.h"

#include "engine/core/KafkaHandles.h"
#include "engine/mirror/TopicNaming.h"
#include "engine/mirror/TopicSync.h"

#include <QDir>
#include <QFile>

using namespace md;

namespace {

KafkaPtr client(const QString &bootstrap, QString *error)
{
    char errstr[512];
    KafkaConfPtr conf(rd_kafka_conf_new());
    if (rd_kafka_conf_set(conf.get(), "bootstrap.servers", bootstrap.toUtf8().constData(), errstr, sizeof errstr) !=
        RD_KAFKA_CONF_OK) {
        *error = QString::fromUtf8(errstr);
        return {};
    }
    KafkaPtr rk(rd_kafka_new(RD_KAFKA_PRODUCER, conf.get(), errstr, sizeof errstr));
    if (rk)
        (void)conf.release(); // rd_kafka_new took it
    else
        *error = QString::fromUtf8(errstr);
    return rk;
}

} // namespace

QString harnessBootstrap(const QString &name)
{
    const QString dir = qEnvironmentVariable("MIRRORDESK_KAFKA_STATE");
    if (dir.isEmpty())
        return {};
    QFile f(QDir(dir).filePath(name + QStringLiteral("/bootstrap")));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).trimmed();
}

QString createTargetTopics(const QList<MirrorJobSpec> &specs, const QStringList &sourceTopics, int timeoutMs)
{
    if (specs.isEmpty())
        return {};
    QString error;
    const KafkaPtr source = client(specs.first().source.bootstrap, &error);
    const KafkaPtr target = source ? client(specs.first().target.bootstrap, &error) : KafkaPtr();
    if (!target)
        return QStringLiteral("no client: %1").arg(error);
    const ClusterTopics src = readClusterTopics(source.get(), timeoutMs);
    if (!src.ok)
        return QStringLiteral("cannot list the source's topics: %1").arg(src.error);
    for (qsizetype i = 0; i < specs.size(); ++i) {
        const QString topic = sourceTopics.value(i);
        if (!src.topics.contains(topic))
            return QStringLiteral("no source topic %1").arg(topic);
        const ClusterTopics tgt = readClusterTopics(target.get(), timeoutMs);
        if (!tgt.ok)
            return QStringLiteral("cannot list the target's topics: %1").arg(tgt.error);
        const TopicSyncResult r = syncTargetTopic(source.get(), target.get(), specs.at(i), src.topics.value(topic),
                                                  targetTopicName(specs.at(i), topic), tgt, timeoutMs);
        if (!r.ready)
            return r.error;
    }
    return {};
}
