#include "TopicSync.h"

#include "AdminCall.h"
#include "ClusterConfig.h"

#include <QElapsedTimer>
#include <QThread>

namespace md {

namespace {

struct CreateOutcome {
    rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
    QString text;
};

CreateOutcome createTopic(rd_kafka_t *rk, const QString &name, int partitions, int rf,
                          const QMap<QString, QString> &configs, int timeoutMs)
{
    char errstr[512];
    const QByteArray n = name.toUtf8();
    NewTopicPtr nt(rd_kafka_NewTopic_new(n.constData(), partitions, rf, errstr, sizeof errstr));
    if (!nt)
        return {RD_KAFKA_RESP_ERR__INVALID_ARG, QString::fromUtf8(errstr)};
    for (auto it = configs.cbegin(); it != configs.cend(); ++it)
        rd_kafka_NewTopic_set_config(nt.get(), it.key().toUtf8().constData(), it.value().toUtf8().constData());
    QString error;
    rd_kafka_NewTopic_t *arr[] = {nt.get()};
    EventPtr ev = adminCall(
        rk, RD_KAFKA_ADMIN_OP_CREATETOPICS, timeoutMs,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) { rd_kafka_CreateTopics(rk, arr, 1, o, q); }, &error);
    if (!ev)
        return {RD_KAFKA_RESP_ERR__TIMED_OUT, error};
    size_t cnt = 0;
    const rd_kafka_topic_result_t **res =
        rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev.get()), &cnt);
    if (cnt < 1)
        return {RD_KAFKA_RESP_ERR__BAD_MSG, QStringLiteral("empty CreateTopics result")};
    const rd_kafka_resp_err_t err = rd_kafka_topic_result_error(res[0]);
    const char *s = rd_kafka_topic_result_error_string(res[0]);
    return {err, err ? QString::fromUtf8(s ? s : rd_kafka_err2str(err)) : QString()};
}

CreateOutcome createPartitions(rd_kafka_t *rk, const QString &name, int total, int timeoutMs)
{
    char errstr[512];
    NewPartitionsPtr np(rd_kafka_NewPartitions_new(name.toUtf8().constData(), size_t(total), errstr, sizeof errstr));
    if (!np)
        return {RD_KAFKA_RESP_ERR__INVALID_ARG, QString::fromUtf8(errstr)};
    QString error;
    rd_kafka_NewPartitions_t *arr[] = {np.get()};
    EventPtr ev = adminCall(
        rk, RD_KAFKA_ADMIN_OP_CREATEPARTITIONS, timeoutMs,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) { rd_kafka_CreatePartitions(rk, arr, 1, o, q); }, &error);
    if (!ev)
        return {RD_KAFKA_RESP_ERR__TIMED_OUT, error};
    size_t cnt = 0;
    const rd_kafka_topic_result_t **res =
        rd_kafka_CreatePartitions_result_topics(rd_kafka_event_CreatePartitions_result(ev.get()), &cnt);
    if (cnt < 1)
        return {RD_KAFKA_RESP_ERR__BAD_MSG, QStringLiteral("empty CreatePartitions result")};
    const rd_kafka_resp_err_t err = rd_kafka_topic_result_error(res[0]);
    const char *s = rd_kafka_topic_result_error_string(res[0]);
    return {err, err ? QString::fromUtf8(s ? s : rd_kafka_err2str(err)) : QString()};
}

// Newly created topics and partitions reach every broker's metadata cache a
// moment after the admin call returns.
int waitForPartitions(rd_kafka_t *rk, const QString &name, int wanted, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    int seen = -1;
    while (true) {
        const ClusterTopics ct = readClusterTopics(rk, 5000);
        if (ct.ok && ct.topics.contains(name))
            seen = ct.topics.value(name).partitions;
        if (seen >= wanted || t.elapsed() > timeoutMs)
            return seen;
        QThread::msleep(200);
    }
}

} // namespace

ClusterTopics readClusterTopics(rd_kafka_t *rk, int timeoutMs)
{
    ClusterTopics out;
    const rd_kafka_metadata_t *raw = nullptr;
    const rd_kafka_resp_err_t err = rd_kafka_metadata(rk, 1, nullptr, &raw, timeoutMs);
    MetadataPtr md(raw);
    if (err) {
        out.error = kafkaErrorText(err);
        return out;
    }
    out.ok = true;
    out.brokerCount = md->broker_cnt;
    for (int i = 0; i < md->topic_cnt; ++i) {
        const rd_kafka_metadata_topic_t &t = md->topics[i];
        if (t.err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART)
            continue;
        TopicShape info;
        info.name = QString::fromUtf8(t.topic);
        info.partitions = t.partition_cnt;
        info.replicationFactor = t.partition_cnt > 0 ? t.partitions[0].replica_cnt : 0;
        out.topics.insert(info.name, info);
    }
    return out;
}

TopicConfigs describeTopicOverrides(rd_kafka_t *rk, const QString &topic, const QStringList &excludeRegexes,
                                    int timeoutMs)
{
    TopicConfigs out;
    const DescribedTopicConfigs d = describeTopicConfigEntries(rk, {topic}, timeoutMs).value(topic);
    out.ok = d.ok();
    out.error = d.error;
    if (out.ok)
        out.configs = copiedTopicConfigs(excludeRegexes, d.entries);
    return out;
}

TopicSyncResult syncTargetTopic(rd_kafka_t *sourceRk, rd_kafka_t *targetRk, const MirrorJobSpec &spec,
                                const TopicShape &source, const QString &targetName, const ClusterTopics &target,
                                int timeoutMs)
{
    TopicSyncResult r;
    const auto existing = target.topics.constFind(targetName);
    if (existing != target.topics.cend()) {
        r.targetPartitions = existing->partitions;
        if (existing->partitions >= source.partitions) {
            r.ready = true;
            return r;
        }
        // The source grew (or the target was made smaller by hand).
        const CreateOutcome grow = createPartitions(targetRk, targetName, source.partitions, timeoutMs);
        if (grow.err && grow.err != RD_KAFKA_RESP_ERR_INVALID_PARTITIONS) {
            r.error = QStringLiteral("target topic %1 has %2 partitions, the source topic %3 has %4, and adding "
                                     "partitions failed: %5")
                          .arg(targetName)
                          .arg(existing->partitions)
                          .arg(source.name)
                          .arg(source.partitions)
                          .arg(grow.text);
            return r;
        }
        r.targetPartitions = waitForPartitions(targetRk, targetName, source.partitions, timeoutMs);
        if (r.targetPartitions < source.partitions) {
            r.error = QStringLiteral("target topic %1 has %2 partitions, the source topic %3 has %4%5")
                          .arg(targetName)
                          .arg(r.targetPartitions)
                          .arg(source.name)
                          .arg(source.partitions)
                          .arg(grow.err ? QStringLiteral(": ") + grow.text : QString());
            return r;
        }
        r.infos << QStringLiteral("grew target topic %1 from %2 to %3 partitions")
                       .arg(targetName)
                       .arg(existing->partitions)
                       .arg(r.targetPartitions);
        r.ready = true;
        return r;
    }

    if (!spec.createTopics) {
        r.error = QStringLiteral("target topic %1 does not exist and topic creation is off").arg(targetName);
        return r;
    }
    QList<ConfigEntry> sourceConfigs;
    if (createdTopicsCopyConfigs(spec)) {
        const DescribedTopicConfigs d =
            describeTopicConfigEntries(sourceRk, {source.name}, timeoutMs).value(source.name);
        if (d.ok())
            sourceConfigs = d.entries;
        else
            r.warnings << QStringLiteral("could not read the configs of source topic %1 (%2); creating %3 with the "
                                         "target's defaults")
                              .arg(source.name, d.error, targetName);
    }
    // The same rule the plan shows (TargetTopicRule).
    const CreatedTopicSettings settings =
        createdTopicSettings(spec, source.partitions, source.replicationFactor, target.brokerCount, sourceConfigs);
    QMap<QString, QString> configs = settings.configs;
    const int rf = settings.replicationFactor;
    CreateOutcome created = createTopic(targetRk, targetName, source.partitions, rf, configs, timeoutMs);
    if (created.err == RD_KAFKA_RESP_ERR_INVALID_CONFIG && !configs.isEmpty()) {
        // A config the target's Kafka version does not know: the topic is
        // still worth creating; say which configs were lost.
        r.warnings << QStringLiteral("target rejected the configs of %1 (%2); created it without them: %3")
                          .arg(targetName, created.text, QStringList(configs.keys()).join(QStringLiteral(", ")));
        configs.clear();
        created = createTopic(targetRk, targetName, source.partitions, rf, configs, timeoutMs);
    }
    if (created.err && created.err != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
        r.error = QStringLiteral("could not create target topic %1: %2").arg(targetName, created.text);
        return r;
    }
    r.targetPartitions = waitForPartitions(targetRk, targetName, source.partitions, timeoutMs);
    if (r.targetPartitions < source.partitions) {
        r.error = r.targetPartitions < 0
                      ? QStringLiteral("target topic %1 was created but does not show in the target's metadata")
                            .arg(targetName)
                      : QStringLiteral("target topic %1 has %2 partitions, the source topic %3 has %4")
                            .arg(targetName)
                            .arg(r.targetPartitions)
                            .arg(source.name)
                            .arg(source.partitions);
        return r;
    }
    if (!created.err) {
        const QString cfg = configsText(configs);
        r.infos << QStringLiteral("created target topic %1 (%2 partitions, replication factor %3%4)")
                       .arg(targetName)
                       .arg(source.partitions)
                       .arg(rf)
                       .arg(cfg.isEmpty() ? QString() : QStringLiteral(", ") + cfg);
    }
    r.ready = true;
    return r;
}

} // namespace md
