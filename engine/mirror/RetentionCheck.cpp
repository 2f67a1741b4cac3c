#include "engine/mirror/RetentionCheck.h"

#include "engine/admin/AdminCall.h"
#include "engine/admin/ConfigEntry.h"
#include "engine/admin/ProbeClient.h"
#include "engine/core/ClusterConfig.h"
#include "engine/core/KafkaHandles.h"
#include "engine/core/ReaderConsumer.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QMap>
#include <QPair>
#include <QSet>

#include <memory>
#include <optional>

namespace md {

namespace {

constexpr int kPollSliceMs = 200;

std::optional<QString> valueOf(const QList<ConfigEntry> &entries, const QString &name)
{
    for (const ConfigEntry &e : entries) {
        if (e.name == name)
            return e.value;
    }
    return std::nullopt;
}

// Fills r from cleanup.policy, retention.ms and message.timestamp.type values
// (empty optional: not given).
void applyConfigs(TargetRetention &r, const std::optional<QString> &policy, const std::optional<QString> &retention,
                  const std::optional<QString> &timestampType)
{
    if (policy)
        r.deletes = policy->split(QLatin1Char(','), Qt::SkipEmptyParts).contains(QStringLiteral("delete"));
    if (retention) {
        bool ok = false;
        const qint64 ms = retention->toLongLong(&ok);
        if (ok) {
            r.retentionMs = ms;
            r.known = true;
        }
    }
    if (timestampType)
        r.logAppendTime = *timestampType == QLatin1String("LogAppendTime");
}

// The retention a topic created on this cluster without a retention.ms gets:
// the broker's log.retention.ms, else .minutes, else .hours.
struct BrokerDefaults {
    QString error;
    std::optional<QString> policy;
    std::optional<QString> retentionMs;
    std::optional<QString> timestampType;
};

BrokerDefaults describeBrokerDefaults(rd_kafka_t *rk, int timeoutMs)
{
    BrokerDefaults d;
    const DescribedTopicConfigs broker = describeBrokerConfigEntries(rk, timeoutMs);
    if (!broker.ok()) {
        d.error = broker.error;
        return d;
    }
    const QList<ConfigEntry> &list = broker.entries;
    d.policy = valueOf(list, QStringLiteral("log.cleanup.policy"));
    d.timestampType = valueOf(list, QStringLiteral("log.message.timestamp.type"));
    auto number = [&](const char *name) -> std::optional<qint64> {
        const std::optional<QString> v = valueOf(list, QLatin1String(name));
        bool ok = false;
        const qint64 x = v ? v->toLongLong(&ok) : 0;
        return ok ? std::optional<qint64>(x) : std::nullopt;
    };
    if (const auto ms = number("log.retention.ms"))
        d.retentionMs = QString::number(*ms);
    else if (const auto minutes = number("log.retention.minutes"))
        d.retentionMs = QString::number(*minutes < 0 ? -1 : *minutes * 60000);
    else if (const auto hours = number("log.retention.hours"))
        d.retentionMs = QString::number(*hours < 0 ? -1 : *hours * 3600000);
    else
        d.error = QStringLiteral("the broker reports no log.retention.* setting");
    return d;
}

struct OldestRecord {
    qint64 timestamp = -1;
    int partition = -1;
    QString type;
};

// The record at the log start of every partition of `topics` (name ->
// partitions), read in one assignment: the oldest per topic.
QHash<QString, OldestRecord> readLogStartRecords(const ClusterConfig &cluster, const QMap<QString, int> &topics,
                                                 int timeoutMs, QStringList *problems)
{
    QHash<QString, OldestRecord> out;
    ReaderOptions reader{.purpose = QStringLiteral("check")};
    // One record per partition is wanted: keep the prefetch small.
    reader.extra = {{QStringLiteral("queued.max.messages.kbytes"), QStringLiteral("1024")},
                    {QStringLiteral("fetch.wait.max.ms"), QStringLiteral("100")}};
    ConfResult conf = readerConf(cluster, reader);
    if (!conf.conf) {
        *problems << cluster.bootstrap + QStringLiteral(": invalid client setting ") + conf.error;
        return out;
    }
    rd_kafka_conf_set_log_cb(conf.conf.get(), [](const rd_kafka_t *, int, const char *, const char *) {});
    char errstr[512];
    KafkaPtr rk(rd_kafka_new(RD_KAFKA_CONSUMER, conf.conf.get(), errstr, sizeof errstr));
    if (!rk) {
        *problems << cluster.bootstrap + QStringLiteral(": ") + QString::fromUtf8(errstr);
        return out;
    }
    conf.conf.release(); // rd_kafka_new took ownership

    PartitionListPtr list(rd_kafka_topic_partition_list_new(0));
    QHash<QString, QByteArray> names;
    for (auto it = topics.cbegin(); it != topics.cend(); ++it) {
        names.insert(it.key(), it.key().toUtf8());
        for (int p = 0; p < it.value(); ++p)
            rd_kafka_topic_partition_list_add(list.get(), names[it.key()].constData(), p)->offset =
                RD_KAFKA_OFFSET_BEGINNING;
    }
    if (list->cnt == 0)
        return out;
    if (const auto err = rd_kafka_assign(rk.get(), list.get())) {
        *problems << cluster.bootstrap + QStringLiteral(": cannot read the source topics: ") + kafkaErrorText(err);
        return out;
    }
    QSet<QPair<QString, int>> open;
    for (int i = 0; i < list->cnt; ++i)
        open.insert({QString::fromUtf8(list->elems[i].topic), list->elems[i].partition});

    QElapsedTimer timer;
    timer.start();
    while (!open.isEmpty() && timer.elapsed() < timeoutMs) {
        MessagePtr m(rd_kafka_consumer_poll(rk.get(), kPollSliceMs));
        if (!m || !m->rkt)
            continue;
        const QPair<QString, int> key{QString::fromUtf8(rd_kafka_topic_name(m->rkt)), int(m->partition)};
        if (!open.contains(key))
            continue;
        if (m->err && m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
            const bool transient = m->err == RD_KAFKA_RESP_ERR__TRANSPORT ||
                                   m->err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN ||
                                   m->err == RD_KAFKA_RESP_ERR__TIMED_OUT;
            if (transient)
                continue;
            *problems << QStringLiteral("%1[%2]: cannot read the first record: %3")
                             .arg(key.first)
                             .arg(key.second)
                             .arg(kafkaErrorText(m->err));
        } else if (!m->err) {
            rd_kafka_timestamp_type_t type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
            const qint64 ts = rd_kafka_message_timestamp(m.get(), &type);
            OldestRecord &o = out[key.first];
            if (type != RD_KAFKA_TIMESTAMP_NOT_AVAILABLE && ts >= 0 && (o.timestamp < 0 || ts < o.timestamp)) {
                o.timestamp = ts;
                o.partition = key.second;
                o.type = type == RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME ? QStringLiteral("LogAppendTime")
                                                                    : QStringLiteral("CreateTime");
            }
        }
        open.remove(key);
        // Done with this partition: stop fetching it.
        PartitionListPtr one(rd_kafka_topic_partition_list_new(1));
        rd_kafka_topic_partition_list_add(one.get(), names[key.first].constData(), key.second);
        rd_kafka_pause_partitions(rk.get(), one.get());
    }
    if (!open.isEmpty()) {
        *problems << QStringLiteral("%1: the first record of %2 partition%3 was not read within %4 s")
                         .arg(cluster.bootstrap)
                         .arg(open.size())
                         .arg(open.size() == 1 ? QString() : QStringLiteral("s"))
                         .arg(timeoutMs / 1000.0);
    }
    rd_kafka_assign(rk.get(), nullptr);
    rd_kafka_consumer_close(rk.get());
    return out;
}

} // namespace

QStringList RetentionCheckResult::warnings() const
{
    QStringList out;
    for (const RetentionFinding &f : topics) {
        if (!f.warning.isEmpty())
            out << f.warning;
    }
    return out;
}

QString durationText(qint64 ms)
{
    const auto unit = [](qint64 n, const char *word) {
        return QStringLiteral("%1 %2%3").arg(n).arg(QLatin1String(word)).arg(n == 1 ? QString() : QStringLiteral("s"));
    };
    if (ms > 0 && ms % 86400000 == 0)
        return unit(ms / 86400000, "day");
    if (ms > 0 && ms % 3600000 == 0)
        return unit(ms / 3600000, "hour");
    if (ms > 0 && ms % 60000 == 0)
        return unit(ms / 60000, "minute");
    if (ms > 0 && ms % 1000 == 0)
        return unit(ms / 1000, "second");
    return QStringLiteral("%1 ms").arg(ms);
}

void judgeRetention(RetentionFinding &f, qint64 nowMs)
{
    f.warning.clear();
    const TargetRetention &t = f.target;
    if (!t.known || !t.deletes || t.logAppendTime || t.retentionMs < 0 || f.oldestTimestamp < 0)
        return;
    if (f.oldestTimestamp >= nowMs - t.retentionMs)
        return;
    const QString day =
        QDateTime::fromMSecsSinceEpoch(f.oldestTimestamp, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd"));
    f.warning =
        QStringLiteral("%1: oldest record is from %2 (%3) but the target topic %4 %5 records for %6 "
                       "(retention.ms=%7%8): the target will delete them on arrival")
            .arg(f.sourceTopic, day, f.timestampType, f.targetTopic,
                 f.targetExists ? QStringLiteral("keeps") : QStringLiteral("would keep"), durationText(t.retentionMs),
                 QString::number(t.retentionMs), t.origin.isEmpty() ? QString() : QStringLiteral(", ") + t.origin);
}

RetentionCheckResult checkRetention(const MirrorJobSpec &spec, const MirrorPlan &plan, int timeoutMs)
{
    RetentionCheckResult r;
    QMap<QString, int> sourceTopics;
    QStringList existingTargets;
    bool anyCreated = false;
    for (const TopicPlanEntry &e : plan.topics) {
        if (e.action == TopicPlanEntry::Action::Error)
            continue;
        sourceTopics.insert(e.sourceTopic, e.sourcePartitions);
        if (e.action == TopicPlanEntry::Action::Mirror)
            existingTargets << e.targetTopic;
        else
            anyCreated = true;
    }
    if (sourceTopics.isEmpty())
        return r;

    // The target's side first: small requests, then the source's records.
    TopicConfigsByName targetConfigs;
    BrokerDefaults defaults;
    QString error;
    if (std::unique_ptr<ProbeClient> client = ProbeClient::create(spec.target, &error, timeoutMs)) {
        if (!existingTargets.isEmpty())
            targetConfigs = describeTopicConfigEntries(client->handle(), existingTargets, timeoutMs);
        if (anyCreated)
            defaults = describeBrokerDefaults(client->handle(), timeoutMs);
    } else {
        defaults.error = error;
        for (const QString &t : existingTargets)
            targetConfigs[t].error = error;
    }
    const QHash<QString, OldestRecord> oldest = readLogStartRecords(spec.source, sourceTopics, timeoutMs, &r.problems);

    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const TopicPlanEntry &e : plan.topics) {
        if (e.action == TopicPlanEntry::Action::Error)
            continue;
        RetentionFinding f;
        f.sourceTopic = e.sourceTopic;
        f.targetTopic = e.targetTopic;
        f.targetExists = e.action == TopicPlanEntry::Action::Mirror;
        const OldestRecord o = oldest.value(e.sourceTopic);
        f.oldestTimestamp = o.timestamp;
        f.oldestPartition = o.partition;
        f.timestampType = o.type;
        if (f.targetExists) {
            const DescribedTopicConfigs d = targetConfigs.value(e.targetTopic);
            if (d.ok()) {
                applyConfigs(f.target, valueOf(d.entries, QStringLiteral("cleanup.policy")),
                             valueOf(d.entries, QStringLiteral("retention.ms")),
                             valueOf(d.entries, QStringLiteral("message.timestamp.type")));
            } else {
                r.problems << QStringLiteral("%1: cannot read the configs of target topic %2: %3")
                                  .arg(e.sourceTopic, e.targetTopic,
                                       d.error.isEmpty() ? QStringLiteral("no answer") : d.error);
            }
        } else {
            // What the job would create it with, the rest from the target's defaults.
            auto set = [&](const char *name) -> std::optional<QString> {
                const auto it = e.configs.constFind(QLatin1String(name));
                return it == e.configs.cend() ? std::nullopt : std::optional<QString>(*it);
            };
            const std::optional<QString> retention = set("retention.ms");
            if (retention || defaults.error.isEmpty()) {
                applyConfigs(f.target, set("cleanup.policy") ? set("cleanup.policy") : defaults.policy,
                             retention ? retention : defaults.retentionMs,
                             set("message.timestamp.type") ? set("message.timestamp.type") : defaults.timestampType);
                f.target.origin =
                    retention ? QStringLiteral("copied from the source topic") : QStringLiteral("the target's default");
            } else {
                r.problems << QStringLiteral("%1: cannot read the target's default retention for %2: %3")
                                  .arg(e.sourceTopic, e.targetTopic, defaults.error);
            }
        }
        judgeRetention(f, now);
        r.topics << f;
    }
    return r;
}

} // namespace md
