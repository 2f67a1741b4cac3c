#pragma once

// What the tests of the three-node clusters share (CTest fixture `kafka3`:
// "source3" and "target3", tests/kafka/harness.sh start-cluster3): the
// clusters as plain librdkafka sees them, Kafka's own tools for topics, and
// bounded reads of both sides. No MirrorDesk code judges anything here.

#include "background_producer.h"
#include "eos_support.h"
#include "tst_mirror_support.h"

#include "engine/core/KafkaHandles.h"

#include <librdkafka/rdkafka.h>

#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QTemporaryFile>
#include <QtTest/QtTest>

#include <optional>

namespace md::test {

// Metadata of one cluster as librdkafka sees it (no MirrorDesk code).
struct ClusterView {
    bool ok = false;
    QString error;
    int brokers = 0;
    QMap<int, int> leaders;         // partition -> leader, of the topic asked for
    QMap<int, QList<int>> isr;      // partition -> in-sync replicas, of that topic
    QMap<int, QList<int>> replicas; // partition -> replicas (the first: the preferred leader), of that topic
    QStringList underReplicated;    // "topic/partition" of any topic with a smaller ISR than replicas
    bool topicKnown = false;        // the topic asked for exists with every partition led
};

// A plain librdkafka client of `bootstrap` that logs nothing (null with *error).
inline KafkaPtr quietClient(const QString &bootstrap, QString *error)
{
    char errstr[512];
    KafkaConfPtr conf(rd_kafka_conf_new());
    const QByteArray servers = bootstrap.toUtf8();
    rd_kafka_conf_set(conf.get(), "bootstrap.servers", servers.constData(), errstr, sizeof errstr);
    rd_kafka_conf_set_log_cb(conf.get(), [](const rd_kafka_t *, int, const char *, const char *) {});
    KafkaPtr rk(rd_kafka_new(RD_KAFKA_PRODUCER, conf.get(), errstr, sizeof errstr));
    if (!rk) {
        *error = QString::fromUtf8(errstr);
        return nullptr;
    }
    (void)conf.release(); // the handle owns it now
    return rk;
}

inline ClusterView clusterView(const QString &bootstrap, const QString &topic)
{
    ClusterView v;
    const KafkaPtr rk = quietClient(bootstrap, &v.error);
    if (!rk)
        return v;
    const rd_kafka_metadata_t *raw = nullptr;
    const rd_kafka_resp_err_t err = rd_kafka_metadata(rk.get(), 1, nullptr, &raw, 10000);
    if (err) {
        v.error = QStringLiteral("metadata of %1: %2").arg(bootstrap, QString::fromUtf8(rd_kafka_err2str(err)));
        return v;
    }
    const MetadataPtr md(raw);
    v.ok = true;
    v.brokers = md->broker_cnt;
    const QByteArray wanted = topic.toUtf8();
    for (int t = 0; t < md->topic_cnt; ++t) {
        const rd_kafka_metadata_topic_t &mt = md->topics[t];
        const bool isWanted = !wanted.isEmpty() && wanted == mt.topic;
        if (isWanted)
            v.topicKnown = mt.err == RD_KAFKA_RESP_ERR_NO_ERROR && mt.partition_cnt > 0;
        for (int p = 0; p < mt.partition_cnt; ++p) {
            const rd_kafka_metadata_partition_t &mp = mt.partitions[p];
            if (mp.isr_cnt < mp.replica_cnt || mp.leader < 0)
                v.underReplicated << QStringLiteral("%1/%2").arg(QString::fromUtf8(mt.topic)).arg(mp.id);
            if (!isWanted)
                continue;
            v.leaders.insert(mp.id, mp.leader);
            QList<int> isr;
            for (int i = 0; i < mp.isr_cnt; ++i)
                isr << mp.isrs[i];
            v.isr.insert(mp.id, isr);
            QList<int> replicas;
            for (int i = 0; i < mp.replica_cnt; ++i)
                replicas << mp.replicas[i];
            v.replicas.insert(mp.id, replicas);
            if (mp.leader < 0)
                v.topicKnown = false;
        }
    }
    return v;
}

// The node that coordinates `group` on the cluster at `bootstrap` (Kafka's
// DescribeConsumerGroups through librdkafka's admin API), or -1 with *error.
inline int groupCoordinator(const QString &bootstrap, const QString &group, QString *error)
{
    const KafkaPtr rk = quietClient(bootstrap, error);
    if (!rk)
        return -1;
    char errstr[512];
    const QueuePtr queue(rd_kafka_queue_new(rk.get()));
    const QByteArray name = group.toUtf8();
    const char *groups[] = {name.constData()};
    rd_kafka_AdminOptions_t *options = rd_kafka_AdminOptions_new(rk.get(), RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS);
    rd_kafka_AdminOptions_set_request_timeout(options, 10000, errstr, sizeof errstr);
    rd_kafka_DescribeConsumerGroups(rk.get(), groups, 1, options, queue.get());
    rd_kafka_AdminOptions_destroy(options);
    const EventPtr event(rd_kafka_queue_poll(queue.get(), 15000));
    if (!event || rd_kafka_event_error(event.get())) {
        *error = event ? QString::fromUtf8(rd_kafka_event_error_string(event.get())) : QStringLiteral("timed out");
        return -1;
    }
    size_t n = 0;
    const rd_kafka_ConsumerGroupDescription_t **descs =
        rd_kafka_DescribeConsumerGroups_result_groups(rd_kafka_event_DescribeConsumerGroups_result(event.get()), &n);
    if (n != 1 || rd_kafka_ConsumerGroupDescription_error(descs[0])) {
        const rd_kafka_error_t *e = n == 1 ? rd_kafka_ConsumerGroupDescription_error(descs[0]) : nullptr;
        *error = e ? QStringLiteral("%1 (%2)").arg(QString::fromUtf8(rd_kafka_error_string(e)),
                                                   QString::fromUtf8(rd_kafka_err2name(rd_kafka_error_code(e))))
                   : QStringLiteral("no description");
        return -1;
    }
    const rd_kafka_Node_t *node = rd_kafka_ConsumerGroupDescription_coordinator(descs[0]);
    return node ? rd_kafka_Node_id(node) : -1;
}

// The same, asked again (bounded) while the answer is "not yet": a
// coordinator that has just moved or started loads the group's partition of
// __consumer_offsets first, and librdkafka hands that error back as it is.
inline int groupCoordinatorWhenKnown(const QString &bootstrap, const QString &group, QString *error,
                                     int timeoutMs = 30000)
{
    const QDeadlineTimer until(timeoutMs);
    int node = -1;
    while ((node = groupCoordinator(bootstrap, group, error)) < 0 && !until.hasExpired())
        QTest::qWait(500);
    return node;
}

// Every node of `cluster` runs, is in the metadata, and every partition of
// every topic (the internal ones too) has all its replicas in sync: one node
// may be killed without a partition dropping below min ISR.
inline bool clusterWhole(const QString &cluster, QString *state)
{
    QStringList down;
    for (int n = 0; n < kCluster3Nodes; ++n)
        if (cluster3NodePid(cluster, n) < 0)
            down << QString::number(n);
    const ClusterView v = clusterView(bootstrap(cluster), {});
    if (!down.isEmpty() || !v.ok || v.brokers != kCluster3Nodes || !v.underReplicated.isEmpty()) {
        *state = QStringLiteral("%1: nodes not running: [%2]; %3; %4 brokers in metadata; under-replicated: %5")
                     .arg(cluster, down.join(QLatin1Char(',')), v.ok ? QStringLiteral("metadata ok") : v.error)
                     .arg(v.brokers)
                     .arg(v.underReplicated.mid(0, 10).join(QLatin1Char(' ')));
        return false;
    }
    return true;
}

// Kafka's TopicCommand: `partitions` partitions, three replicas, min ISR 2.
inline bool createReplicatedTopic(const QString &cluster, const QString &topic, int partitions, QString *error)
{
    QString out;
    return runKafkaTool(QStringLiteral("org.apache.kafka.tools.TopicCommand"),
                        {QStringLiteral("--bootstrap-server"), bootstrap(cluster), QStringLiteral("--create"),
                         QStringLiteral("--topic"), topic, QStringLiteral("--partitions"), QString::number(partitions),
                         QStringLiteral("--replication-factor"), QString::number(kCluster3Nodes),
                         QStringLiteral("--config"), QStringLiteral("min.insync.replicas=2")},
                        &out, error, 60000);
}

// Kafka's ReassignPartitionsCommand: `topic`'s partitions get `replicas`
// (partition -> nodes, the first the preferred leader); waits, bounded by
// `timeoutMs`, until --verify says every move is complete. A leader left out
// hands its leadership over; a node added copies the partition's log first.
inline bool reassignPartitions(const QString &cluster, const QString &topic, const QMap<int, QList<int>> &replicas,
                               int timeoutMs, QString *error)
{
    QJsonArray partitions;
    for (auto it = replicas.cbegin(); it != replicas.cend(); ++it) {
        QJsonArray nodes;
        for (const int n : it.value())
            nodes.append(n);
        partitions.append(QJsonObject{{QStringLiteral("topic"), topic},
                                      {QStringLiteral("partition"), it.key()},
                                      {QStringLiteral("replicas"), nodes}});
    }
    QTemporaryFile plan;
    if (!plan.open()) {
        *error = QStringLiteral("no temporary file for the reassignment plan");
        return false;
    }
    plan.write(QJsonDocument(QJsonObject{{QStringLiteral("version"), 1}, {QStringLiteral("partitions"), partitions}})
                   .toJson(QJsonDocument::Compact));
    plan.flush();
    const QString tool = QStringLiteral("org.apache.kafka.tools.reassign.ReassignPartitionsCommand");
    const QStringList args{QStringLiteral("--bootstrap-server"), bootstrap(cluster),
                           QStringLiteral("--reassignment-json-file"), plan.fileName()};
    QString out;
    if (!runKafkaTool(tool, args + QStringList{QStringLiteral("--execute")}, &out, error, 60000))
        return false;
    QElapsedTimer clock;
    clock.start();
    for (;;) {
        if (!runKafkaTool(tool, args + QStringList{QStringLiteral("--verify")}, &out, error, 60000))
            return false;
        if (out.count(QStringLiteral(" is completed.")) == replicas.size())
            return true;
        if (clock.elapsed() > timeoutMs) {
            *error = QStringLiteral("the reassignment of %1 was not complete after %2 ms:\n%3")
                         .arg(topic)
                         .arg(clock.elapsed())
                         .arg(out);
            return false;
        }
        QTest::qWait(1000);
    }
}

// Every partition of `topic` moved off its leader's node (the leadership
// goes to the next replica), `between()` called, then moved back with that
// node as the preferred leader (it copies the log again). *leader0Before and
// *leader0Between: partition 0's leader before and between the moves.
template <class Between>
bool reassignOffLeadersAndBack(const QString &cluster, const QString &topic, Between &&between, int *leader0Before,
                               int *leader0Between, QString *error)
{
    const ClusterView before = clusterView(bootstrap(cluster), topic);
    if (!before.ok || !before.topicKnown || before.replicas.isEmpty()) {
        *error = QStringLiteral("%1's replicas are not known before the reassignment: %2").arg(topic, before.error);
        return false;
    }
    QMap<int, QList<int>> without, back;
    for (auto it = before.replicas.cbegin(); it != before.replicas.cend(); ++it) {
        const int leader = before.leaders.value(it.key(), -1);
        QList<int> others = it.value();
        others.removeAll(leader);
        without.insert(it.key(), others);
        back.insert(it.key(), QList<int>{leader} + others);
    }
    *leader0Before = before.leaders.value(0, -1);
    if (!reassignPartitions(cluster, topic, without, 120000, error))
        return false;
    *leader0Between = clusterView(bootstrap(cluster), topic).leaders.value(0, -1);
    if (*leader0Between == *leader0Before) {
        *error = QStringLiteral("partition 0 of %1 kept its leader %2 although its node left the replicas")
                     .arg(topic)
                     .arg(*leader0Before);
        return false;
    }
    between();
    return reassignPartitions(cluster, topic, back, 120000, error);
}

// Waits (bounded) until `partition` of `topic` is led by a node other than `old`.
inline bool waitForNewLeader(const QString &cluster, const QString &topic, int partition, int old, int timeoutMs)
{
    return QTest::qWaitFor(
        [&] {
            const ClusterView v = clusterView(bootstrap(cluster), topic);
            return v.ok && v.leaders.value(partition, -1) >= 0 && v.leaders.value(partition) != old;
        },
        timeoutMs);
}

// The source's records by partition, read with plain librdkafka.
inline std::optional<PartitionValues> readSource(const QString &topic, QString *error)
{
    // read_uncommitted: the source has no transactions, and only then does
    // the read go on to the high watermark taken first. A read_committed
    // read ends at any EOF (an open transaction's LSO may sit below it), and
    // a preferred leader just re-elected (auto.leader.rebalance, every 10 s)
    // can answer one below its last acknowledged records for a moment: seen
    // once as "the SOURCE cluster lost 2 acknowledged records".
    ConsumeOptions o;
    o.timeoutMs = 60000;
    const auto records = consumeAll(bootstrap(QString::fromLatin1(kSource3)), topic, error, o);
    if (!records)
        return std::nullopt;
    PartitionValues out;
    for (const TestRecord &r : *records)
        out[r.partition].append(QString::fromUtf8(r.value.value_or(QByteArray("<null>"))));
    return out;
}

// Whether the target topic shows (read_committed) every record of `source`
// (its values by partition, in offset order from offset 0); a short read, so
// the caller's bounded wait stays bounded. The state names what is missing as
// source offset ranges: where a loss happened is the first clue to why.
inline bool targetShowsAll(const QString &topic, const PartitionValues &source, QString *state)
{
    QString error;
    ConsumeOptions options;
    options.readCommitted = true;
    options.timeoutMs = 10000;
    const auto copied = consumeAll(bootstrap(QString::fromLatin1(kTarget3)), topic, &error, options);
    if (!copied) {
        *state = QStringLiteral("last read of the target failed: %1").arg(error);
        return false;
    }
    QSet<QString> seen;
    for (const TestRecord &r : *copied)
        seen.insert(QString::fromUtf8(r.value.value_or(QByteArray())));
    qsizetype missing = 0, expected = 0;
    QStringList ranges;
    for (auto it = source.cbegin(); it != source.cend(); ++it) {
        const QStringList &values = it.value();
        expected += values.size();
        for (qsizetype i = 0; i < values.size(); ++i) {
            if (seen.contains(values[i]))
                continue;
            qsizetype end = i;
            while (end + 1 < values.size() && !seen.contains(values[end + 1]))
                ++end;
            missing += end - i + 1;
            ranges << QStringLiteral("p%1 %2-%3").arg(it.key()).arg(i).arg(end);
            i = end;
        }
    }
    *state = QStringLiteral("last read of the target: %1 records, %2 of %3 source records missing%4")
                 .arg(copied->size())
                 .arg(missing)
                 .arg(expected)
                 .arg(ranges.isEmpty() ? QString()
                                       : QStringLiteral(" (source offsets %1)").arg(ranges.mid(0, 20).join(u", ")));
    return missing == 0;
}

// The job's events, logged whole when the test failed (a QVERIFY2 message is cut at ~1 KiB).
class EventsOnFailure final {
public:
    explicit EventsOnFailure(const QStringList &events) : m_events(events) {}
    ~EventsOnFailure()
    {
        if (QTest::currentTestFailed())
            qInfo("the job's events:\n  %s", qPrintable(m_events.join(QStringLiteral("\n  "))));
    }
    EventsOnFailure(const EventsOnFailure &) = delete;
    EventsOnFailure &operator=(const EventsOnFailure &) = delete;

private:
    const QStringList &m_events;
};

} // namespace md::test
