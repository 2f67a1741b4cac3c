#include "engine/mirror/TopicSync.h"

#include "engine/admin/AdminCall.h"
#include "engine/core/ClusterConfig.h"

#include <QElapsedTimer>
#include <QHash>
#include <QThread>

#include <algorithm>
#include <vector>

namespace md {

namespace {

struct CreateOutcome {
    rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
    QString text;
};

struct NewTopicSpec {
    QString name;
    int partitions = 0;
    int replicationFactor = 0;
    QMap<QString, QString> configs;
};

// KRaft refuses an operation that writes more than 10,000 records (one per
// partition here); a request of a hundred topics is also one a busy
// controller answers within the admin timeout.
constexpr int kTopicsPerCreate = 100;
constexpr int kPartitionsPerCreate = 5000;

// One CreateTopics request per chunk of `topics`; every topic gets an outcome.
QHash<QString, CreateOutcome> createTopics(rd_kafka_t *rk, const QList<NewTopicSpec> &topics, int timeoutMs)
{
    QHash<QString, CreateOutcome> out;
    for (qsizetype first = 0; first < topics.size();) {
        std::vector<NewTopicPtr> owned;
        std::vector<rd_kafka_NewTopic_t *> arr;
        int partitions = 0;
        qsizetype next = first;
        for (; next < topics.size() && arr.size() < kTopicsPerCreate; ++next) {
            const NewTopicSpec &t = topics[next];
            if (!arr.empty() && partitions + t.partitions > kPartitionsPerCreate)
                break;
            char errstr[512];
            NewTopicPtr nt(rd_kafka_NewTopic_new(t.name.toUtf8().constData(), t.partitions, t.replicationFactor, errstr,
                                                 sizeof errstr));
            if (!nt) {
                out.insert(t.name, {RD_KAFKA_RESP_ERR__INVALID_ARG, QString::fromUtf8(errstr)});
                continue;
            }
            for (auto it = t.configs.cbegin(); it != t.configs.cend(); ++it)
                rd_kafka_NewTopic_set_config(nt.get(), it.key().toUtf8().constData(), it.value().toUtf8().constData());
            partitions += t.partitions;
            arr.push_back(nt.get());
            owned.push_back(std::move(nt));
        }
        const qsizetype chunkEnd = next;
        if (!arr.empty()) {
            QString error;
            EventPtr ev = adminCall(
                rk, RD_KAFKA_ADMIN_OP_CREATETOPICS, timeoutMs,
                [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
                    rd_kafka_CreateTopics(rk, arr.data(), arr.size(), o, q);
                },
                &error);
            size_t cnt = 0;
            const rd_kafka_topic_result_t **res =
                ev ? rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev.get()), &cnt) : nullptr;
            for (size_t i = 0; i < cnt; ++i) {
                const rd_kafka_resp_err_t err = rd_kafka_topic_result_error(res[i]);
                const char *s = rd_kafka_topic_result_error_string(res[i]);
                out.insert(QString::fromUtf8(rd_kafka_topic_result_name(res[i])),
                           {err, err ? QString::fromUtf8(s ? s : rd_kafka_err2str(err)) : QString()});
            }
            for (qsizetype i = first; i < chunkEnd; ++i)
                if (!out.contains(topics[i].name))
                    out.insert(topics[i].name, ev ? CreateOutcome{RD_KAFKA_RESP_ERR__BAD_MSG,
                                                                  QStringLiteral("no answer for it in CreateTopics")}
                                                  : CreateOutcome{RD_KAFKA_RESP_ERR__TIMED_OUT, error});
        }
        first = chunkEnd;
    }
    return out;
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
// moment after the admin call returns. Returns the partitions seen of each
// wanted topic (-1: not seen).
QHash<QString, int> waitForPartitions(rd_kafka_t *rk, const QHash<QString, int> &wanted, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    QHash<QString, int> seen;
    for (auto it = wanted.cbegin(); it != wanted.cend(); ++it)
        seen.insert(it.key(), -1);
    while (true) {
        const ClusterTopics ct = readClusterTopics(rk, 5000);
        bool all = true;
        for (auto it = wanted.cbegin(); it != wanted.cend(); ++it) {
            if (ct.ok && ct.topics.contains(it.key()))
                seen[it.key()] = ct.topics.value(it.key()).partitions;
            all = all && seen.value(it.key()) >= it.value();
        }
        if (all || t.elapsed() > timeoutMs)
            return seen;
        QThread::msleep(200);
    }
}

int waitForPartitions(rd_kafka_t *rk, const QString &name, int wanted, int timeoutMs)
{
    return waitForPartitions(rk, QHash<QString, int>{{name, wanted}}, timeoutMs).value(name);
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

namespace {

// An existing target topic: ready, or grown to the source's partition count.
TopicSyncResult growTargetTopic(rd_kafka_t *targetRk, const TopicShape &source, const QString &targetName,
                                const TopicShape &existing, int timeoutMs)
{
    TopicSyncResult r;
    r.targetPartitions = existing.partitions;
    if (existing.partitions >= source.partitions) {
        r.ready = true;
        return r;
    }
    // The source grew (or the target was made smaller by hand).
    const CreateOutcome grow = createPartitions(targetRk, targetName, source.partitions, timeoutMs);
    if (grow.err && grow.err != RD_KAFKA_RESP_ERR_INVALID_PARTITIONS) {
        r.error = QStringLiteral("target topic %1 has %2 partitions, the source topic %3 has %4, and adding "
                                 "partitions failed: %5")
                      .arg(targetName)
                      .arg(existing.partitions)
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
                   .arg(existing.partitions)
                   .arg(r.targetPartitions);
    r.ready = true;
    return r;
}

} // namespace

QList<TopicSyncResult> syncTargetTopics(rd_kafka_t *sourceRk, rd_kafka_t *targetRk, const MirrorJobSpec &spec,
                                        const QList<TopicSyncRequest> &topics, const ClusterTopics &target,
                                        int timeoutMs)
{
    QList<TopicSyncResult> results(topics.size());
    QList<qsizetype> missing; // indexes of topics to create
    for (qsizetype i = 0; i < topics.size(); ++i) {
        const TopicSyncRequest &q = topics[i];
        const auto existing = target.topics.constFind(q.targetName);
        if (existing != target.topics.cend())
            results[i] = growTargetTopic(targetRk, q.source, q.targetName, *existing, timeoutMs);
        else if (!spec.createTopics)
            results[i].error =
                QStringLiteral("target topic %1 does not exist and topic creation is off").arg(q.targetName);
        else
            missing << i;
    }
    if (missing.isEmpty())
        return results;

    // One DescribeConfigs, one CreateTopics (per chunk) and one metadata
    // wait for all of them: 200 topics one at a time took 36 s.
    TopicConfigsByName sourceConfigs;
    if (createdTopicsCopyConfigs(spec)) {
        QStringList names;
        for (qsizetype i : missing)
            names << topics[i].source.name;
        sourceConfigs = describeTopicConfigEntries(sourceRk, names, timeoutMs);
    }
    QList<NewTopicSpec> specs;
    int partitions = 0;
    for (qsizetype i : missing) {
        const TopicSyncRequest &q = topics[i];
        QList<ConfigEntry> configs;
        if (createdTopicsCopyConfigs(spec)) {
            const DescribedTopicConfigs d = sourceConfigs.value(q.source.name);
            if (d.ok())
                configs = d.entries;
            else
                results[i].warnings << QStringLiteral("could not read the configs of source topic %1 (%2); "
                                                      "creating %3 with the target's defaults")
                                           .arg(q.source.name, d.error, q.targetName);
        }
        // The same rule the plan shows (TargetTopicRule).
        const CreatedTopicSettings settings =
            createdTopicSettings(spec, q.source.partitions, q.source.replicationFactor, target.brokerCount, configs);
        specs << NewTopicSpec{q.targetName, q.source.partitions, settings.replicationFactor, settings.configs};
        partitions += q.source.partitions;
    }
    QHash<QString, CreateOutcome> created = createTopics(targetRk, specs, timeoutMs);
    // A config the target's Kafka version does not know: the topic is still
    // worth creating; say which configs were lost.
    QList<NewTopicSpec> again;
    for (qsizetype k = 0; k < specs.size(); ++k) {
        NewTopicSpec &s = specs[k];
        const CreateOutcome c = created.value(s.name);
        if (c.err == RD_KAFKA_RESP_ERR_INVALID_CONFIG && !s.configs.isEmpty()) {
            results[missing[k]].warnings << QStringLiteral("target rejected the configs of %1 (%2); created it "
                                                           "without them: %3")
                                                .arg(s.name, c.text, QStringList(s.configs.keys()).join(u", "));
            s.configs.clear();
            again << s;
        }
    }
    if (!again.isEmpty())
        created.insert(createTopics(targetRk, again, timeoutMs));

    QHash<QString, int> wanted;
    for (const NewTopicSpec &s : specs) {
        const CreateOutcome c = created.value(s.name);
        if (!c.err || c.err == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS)
            wanted.insert(s.name, s.partitions);
    }
    // A controller makes a batch's partitions one by one: more time for more.
    const int waitMs = std::min(4 * timeoutMs, timeoutMs + 10 * partitions);
    const QHash<QString, int> seen =
        wanted.isEmpty() ? QHash<QString, int>() : waitForPartitions(targetRk, wanted, waitMs);
    for (qsizetype k = 0; k < specs.size(); ++k) {
        const NewTopicSpec &s = specs[k];
        const TopicShape &source = topics[missing[k]].source;
        TopicSyncResult &r = results[missing[k]];
        const CreateOutcome c = created.value(s.name);
        if (c.err && c.err != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
            r.error = QStringLiteral("could not create target topic %1: %2").arg(s.name, c.text);
            continue;
        }
        r.targetPartitions = seen.value(s.name, -1);
        if (r.targetPartitions < source.partitions) {
            r.error = r.targetPartitions < 0
                          ? QStringLiteral("target topic %1 was created but does not show in the target's metadata")
                                .arg(s.name)
                          : QStringLiteral("target topic %1 has %2 partitions, the source topic %3 has %4")
                                .arg(s.name)
                                .arg(r.targetPartitions)
                                .arg(source.name)
                                .arg(source.partitions);
            continue;
        }
        if (!c.err) {
            const QString cfg = configsText(s.configs);
            r.infos << QStringLiteral("created target topic %1 (%2 partitions, replication factor %3%4)")
                           .arg(s.name)
                           .arg(s.partitions)
                           .arg(s.replicationFactor)
                           .arg(cfg.isEmpty() ? QString() : QStringLiteral(", ") + cfg);
        }
        r.ready = true;
    }
    return results;
}

TopicSyncResult syncTargetTopic(rd_kafka_t *sourceRk, rd_kafka_t *targetRk, const MirrorJobSpec &spec,
                                const TopicShape &source, const QString &targetName, const ClusterTopics &target,
                                int timeoutMs)
{
    return syncTargetTopics(sourceRk, targetRk, spec, {TopicSyncRequest{source, targetName}}, target, timeoutMs)
        .value(0);
}

} // namespace md
