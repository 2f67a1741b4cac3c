// A partition leader, or the coordinator of the job's group, killed with -9
// while a MirrorJob copies, or every source node restarted one after another
// (a rolling restart), on real three-node clusters (CTest fixture `kafka3`: "source3" and "target3",
// replication factor 3, min ISR 2; tests/kafka/harness.sh start-cluster3).
//
// Kafka's own VerifiableProducer writes the source (acks=all, one JSON line
// per acknowledged record) while the job copies; the leader of partition 0
// (of the source topic, or of the target topic the job created) is killed
// -9 mid-copy, stays down longer than the broker session so the controller
// moves its leaderships to the in-sync followers (two stay: min ISR holds),
// and is started again. The target is then read by Kafka's own
// ConsoleConsumer (read_committed) and judged against what the producer was
// told was written and what the source holds:
//  - at-least-once: every acknowledged record, and every source record, is on
//    the target, in its partition; nothing else is (duplicates are counted);
//  - exactly-once: each source record exactly once, in order, per partition.
// Nothing is retried: the job runs once, the producer runs once, every wait is
// bounded, and a job that stops by itself fails the test. Env
// MIRRORDESK_CLUSTER3_TEST_SABOTAGE=lose|duplicate damages the target just
// before it is judged: a check that the judgement fails then.

#include "background_producer.h"
#include "eos_support.h"
#include "tst_mirror_support.h"

#include "engine/core/KafkaHandles.h"

#include <librdkafka/rdkafka.h>

#include <QProcess>
#include <QTemporaryFile>

#include <QSignalSpy>
#include <future>
#include <vector>

using namespace md;
using namespace md::test;

namespace {

constexpr int kPartitions = 3;
constexpr int kRecords = 6000;
constexpr int kRecordsPerSecond = 300; // the producer writes for about 20 s

// Metadata of one cluster as librdkafka sees it (no MirrorDesk code).
struct ClusterView {
    bool ok = false;
    QString error;
    int brokers = 0;
    QMap<int, int> leaders;      // partition -> leader, of the topic asked for
    QMap<int, QList<int>> isr;   // partition -> in-sync replicas, of that topic
    QStringList underReplicated; // "topic/partition" of any topic with a smaller ISR than replicas
    bool topicKnown = false;     // the topic asked for exists with every partition led
};

ClusterView clusterView(const QString &bootstrap, const QString &topic)
{
    ClusterView v;
    char errstr[512];
    KafkaConfPtr conf(rd_kafka_conf_new());
    const QByteArray servers = bootstrap.toUtf8();
    rd_kafka_conf_set(conf.get(), "bootstrap.servers", servers.constData(), errstr, sizeof errstr);
    rd_kafka_conf_set_log_cb(conf.get(), [](const rd_kafka_t *, int, const char *, const char *) {});
    const KafkaPtr rk(rd_kafka_new(RD_KAFKA_PRODUCER, conf.get(), errstr, sizeof errstr));
    if (!rk) {
        v.error = QString::fromUtf8(errstr);
        return v;
    }
    (void)conf.release(); // the handle owns it now
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
            if (mp.leader < 0)
                v.topicKnown = false;
        }
    }
    return v;
}

// The node that coordinates `group` on the cluster at `bootstrap` (Kafka's
// DescribeConsumerGroups through librdkafka's admin API), or -1 with *error.
int groupCoordinator(const QString &bootstrap, const QString &group, QString *error)
{
    char errstr[512];
    KafkaConfPtr conf(rd_kafka_conf_new());
    const QByteArray servers = bootstrap.toUtf8();
    rd_kafka_conf_set(conf.get(), "bootstrap.servers", servers.constData(), errstr, sizeof errstr);
    rd_kafka_conf_set_log_cb(conf.get(), [](const rd_kafka_t *, int, const char *, const char *) {});
    const KafkaPtr rk(rd_kafka_new(RD_KAFKA_PRODUCER, conf.get(), errstr, sizeof errstr));
    if (!rk) {
        *error = QString::fromUtf8(errstr);
        return -1;
    }
    (void)conf.release();
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
        *error = n == 1 ? QString::fromUtf8(rd_kafka_error_string(rd_kafka_ConsumerGroupDescription_error(descs[0])))
                        : QStringLiteral("no description");
        return -1;
    }
    const rd_kafka_Node_t *node = rd_kafka_ConsumerGroupDescription_coordinator(descs[0]);
    return node ? rd_kafka_Node_id(node) : -1;
}

// Every node of `cluster` runs, is in the metadata, and every partition of
// every topic (the internal ones too) has all its replicas in sync: one node
// may be killed without a partition dropping below min ISR.
bool clusterWhole(const QString &cluster, QString *state)
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
bool createReplicatedTopic(const QString &cluster, const QString &topic, QString *error)
{
    QString out;
    return runKafkaTool(QStringLiteral("org.apache.kafka.tools.TopicCommand"),
                        {QStringLiteral("--bootstrap-server"), bootstrap(cluster), QStringLiteral("--create"),
                         QStringLiteral("--topic"), topic, QStringLiteral("--partitions"), QString::number(kPartitions),
                         QStringLiteral("--replication-factor"), QString::number(kCluster3Nodes),
                         QStringLiteral("--config"), QStringLiteral("min.insync.replicas=2")},
                        &out, error, 60000);
}

// The source's records by partition, read with plain librdkafka.
std::optional<PartitionValues> readSource(const QString &topic, QString *error)
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

// Whether the target topic shows (read_committed) every value of `expected`;
// a short read, so the caller's bounded wait stays bounded.
bool targetShowsAll(const QString &topic, const QSet<QString> &expected, QString *state)
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
    qsizetype missing = 0;
    for (const QString &v : expected)
        missing += seen.contains(v) ? 0 : 1;
    *state = QStringLiteral("last read of the target: %1 records, %2 of %3 source records missing")
                 .arg(copied->size())
                 .arg(missing)
                 .arg(expected.size());
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

} // namespace

class TstCluster3Faults final : public QObject {
    Q_OBJECT

    enum class Side { Source, Target };
    // Who is killed: the leader of partition 0, or the coordinator of the
    // job's group (where its progress is committed: the source's group for
    // at-least-once, the target's for exactly-once, which commits there
    // inside its transactions).
    // RollingRestart: every node of the side, one after another, stopped as an
    // operator does (SIGTERM: controlled shutdown) and started again, the
    // next only once every partition is fully in sync again.
    // WholeCluster: every node of the side killed -9 at once, the cluster down
    // for 60 s, then every node started again together (a quorum needs two).
    enum class Victim { PartitionLeader, GroupCoordinator, RollingRestart, WholeCluster };

    // The scenario: a node of `side` killed -9 mid-copy, started again; the
    // target judged by ConsoleConsumer.
    void nodeKilledMidCopy(Side side, Victim what = Victim::PartitionLeader)
    {
        QFETCH(QString, delivery);
        const bool exactlyOnce = delivery == QLatin1String("exactly-once");
        const QString source = QString::fromLatin1(kSource3), target = QString::fromLatin1(kTarget3);
        const QString victimCluster = side == Side::Source ? source : target;
        QElapsedTimer clock;
        clock.start();

        // Both clusters whole before anything is killed (a node killed by an
        // earlier test must be back in every ISR).
        QString state;
        QTRY_VERIFY2_WITH_TIMEOUT(clusterWhole(source, &state) && clusterWhole(target, &state), qPrintable(state),
                                  120000);

        const QString topic =
            uniqueName(side == Side::Source ? QStringLiteral("c3-skill") : QStringLiteral("c3-tkill"));
        QString error;
        QVERIFY2(createReplicatedTopic(source, topic, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(clusterView(bootstrap(source), topic).topicKnown, 30000);

        MirrorJobSpec spec;
        spec.name = topic;
        spec.groupId = uniqueName(QStringLiteral("grp-") + topic);
        spec.source = cluster3Config(source);
        spec.target = cluster3Config(target);
        spec.include = {QRegularExpression::escape(topic)};
        spec.naming = NamingPolicy::Identity;
        spec.start = StartPosition::Earliest;
        spec.stop = StopCondition::RunForever;
        spec.delivery = exactlyOnce ? DeliveryGuarantee::ExactlyOnce : DeliveryGuarantee::AtLeastOnce;
        spec.samplingIntervalMs = 250;
        spec.topicRefreshIntervalMs = 5000;
        spec.source.consumerProperties.insert(QStringLiteral("session.timeout.ms"), QStringLiteral("6000"));

        MirrorJob job(spec);
        QStringList events;
        const EventsOnFailure dump(events);
        connect(&job, &MirrorJob::eventRaised, this, [&](const JobEvent &e) {
            events << QStringLiteral("%1 %2").arg(e.time.toString(QStringLiteral("hh:mm:ss.zzz")), e.text);
        });
        MetricsSnapshot last;
        connect(&job, &MirrorJob::metricsSampled, this, [&](const MetricsSnapshot &s) { last = s; });
        QSignalSpy finished(&job, &MirrorJob::finished);
        job.start();
        QTRY_VERIFY2_WITH_TIMEOUT(job.state() == JobState::Running, qPrintable(joined(events)), 60000);

        // A rolling restart takes about a minute: the producer writes all along.
        const int records = what == Victim::RollingRestart ? 3 * kRecords : kRecords;
        qint64 backAtMs = -1; // WholeCluster: when every node runs again
        // With the whole cluster down, what the producer sends waits for it
        // (as an application that must not lose records is set up) instead of
        // failing after the default 2 minutes: the outage plus a slow restart
        // under load takes longer, and the records written meanwhile are the
        // ones the job must copy after it.
        QMap<QString, QString> producerProperties;
        if (what == Victim::WholeCluster)
            // VerifiableProducer itself sets retries=0: a record whose
            // broker went away fails at once unless retries are given back.
            producerProperties = {{QStringLiteral("retries"), QStringLiteral("2147483647")},
                                  {QStringLiteral("delivery.timeout.ms"), QStringLiteral("600000")},
                                  {QStringLiteral("max.block.ms"), QStringLiteral("600000")}};
        BackgroundProducer producer;
        QVERIFY2(producer.start(bootstrap(source), topic, records, kRecordsPerSecond, &error, producerProperties),
                 qPrintable(error));

        // Mid-copy: the job has copied a fifth of what is being written, and
        // the producer goes on writing.
        QTRY_VERIFY2_WITH_TIMEOUT(last.recordsProduced >= records / 10 || !producer.running() || !finished.isEmpty(),
                                  qPrintable(joined(events)), 90000);
        QVERIFY2(finished.isEmpty(), qPrintable(joined(events)));
        QVERIFY2(producer.running(), "the producer ended before the kill: too late to test anything");
        const ClusterView before = clusterView(bootstrap(victimCluster), topic);
        QVERIFY2(before.ok && before.topicKnown, qPrintable(before.error));
        QString coordinatorError;
        const int victim = what == Victim::PartitionLeader ? before.leaders.value(0, -1)
                           : what == Victim::GroupCoordinator
                               ? groupCoordinator(bootstrap(victimCluster), spec.groupId, &coordinatorError)
                               : 0;
        QVERIFY2(victim >= 0 && victim < kCluster3Nodes,
                 qPrintable(QStringLiteral("%1 %2").arg(victim).arg(coordinatorError)));
        const qint64 copiedAtKill = last.recordsProduced;
        const qint64 ackedAtKill = producer.ackedCount();
        QVERIFY2(copiedAtKill < records, "the copy was over before the fault");
        qint64 killedAtMs = clock.elapsed();
        if (what == Victim::WholeCluster) {
            for (int n = 0; n < kCluster3Nodes; ++n)
                QVERIFY2(killClusterNode(victimCluster, n, &error), qPrintable(error));
            killedAtMs = clock.elapsed();
            qInfo("%s: every node of %s killed with %lld of %d records acknowledged, %lld copied", qPrintable(delivery),
                  qPrintable(victimCluster), ackedAtKill, records, copiedAtKill);
            QTest::qWait(60000);
            std::vector<std::future<QString>> starts;
            for (int n = 0; n < kCluster3Nodes; ++n)
                starts.push_back(std::async(std::launch::async, [victimCluster, n] {
                    QString e;
                    return startClusterNode(victimCluster, n, &e) ? QString() : e;
                }));
            for (auto &f : starts) {
                const QString e = f.get();
                QVERIFY2(e.isEmpty(), qPrintable(e));
            }
            backAtMs = clock.elapsed();
            qInfo("%s: %s back after %lld ms down", qPrintable(delivery), qPrintable(victimCluster),
                  backAtMs - killedAtMs);
        } else if (what == Victim::RollingRestart) {
            for (int n = 0; n < kCluster3Nodes; ++n) {
                const qint64 at = clock.elapsed();
                QVERIFY2(stopClusterNode(victimCluster, n, &error), qPrintable(error));
                QTest::qWait(2000);
                QVERIFY2(startClusterNode(victimCluster, n, &error), qPrintable(error));
                QString state;
                QTRY_VERIFY2_WITH_TIMEOUT(clusterWhole(victimCluster, &state), qPrintable(state), 120000);
                qInfo("%s: node %d of %s restarted, every partition in sync again after %lld ms (%lld of %d records "
                      "acknowledged, %lld copied)",
                      qPrintable(delivery), n, qPrintable(victimCluster), clock.elapsed() - at, producer.ackedCount(),
                      records, last.recordsProduced);
            }
        } else {

            QVERIFY2(killClusterNode(victimCluster, victim, &error), qPrintable(error));
            killedAtMs = clock.elapsed();
            qInfo("%s: killed node %d of %s (%s) with %lld of %d records acknowledged, %lld copied",
                  qPrintable(delivery), victim, qPrintable(victimCluster),
                  qPrintable(what == Victim::PartitionLeader
                                 ? QStringLiteral("leader of %1-0").arg(topic)
                                 : QStringLiteral("coordinator of group %1").arg(spec.groupId)),
                  ackedAtKill, kRecords, copiedAtKill);
            // Down longer than the broker session (6 s): the controller fences it
            // and an in-sync follower leads partition 0 (and the partition of
            // __consumer_offsets that holds the group: its new coordinator).
            const auto newLeader = [&] {
                if (what == Victim::GroupCoordinator) {
                    QString ignored;
                    const int now = groupCoordinator(bootstrap(victimCluster), spec.groupId, &ignored);
                    return now >= 0 && now != victim;
                }
                const ClusterView v = clusterView(bootstrap(victimCluster), topic);
                return v.ok && v.leaders.value(0, -1) >= 0 && v.leaders.value(0) != victim;
            };
            QTRY_VERIFY2_WITH_TIMEOUT(newLeader(), "no new leader (or coordinator) after the kill", 30000);
            const qint64 newLeaderAtMs = clock.elapsed();
            QTest::qWait(2000);
            QVERIFY2(startClusterNode(victimCluster, victim, &error), qPrintable(error));
            qInfo("new leader (or coordinator) after %lld ms; node %d back after %lld ms", newLeaderAtMs - killedAtMs,
                  victim, clock.elapsed() - killedAtMs);
        }

        QVERIFY2(producer.waitForExit(180000), "VerifiableProducer did not finish in 180 s");
        QVERIFY2(producer.exitCode() == 0, qPrintable(producer.errorOutput()));
        const QList<BackgroundProducer::Acked> acked = producer.acked();
        qInfo("VerifiableProducer: %lld of %d records acknowledged, %d send errors %s", qint64(acked.size()), records,
              producer.sendErrors(), qPrintable(producer.errorLines()));
        QVERIFY2(acked.size() >= records / 2, qPrintable(producer.errorOutput()));

        // The source holds every acknowledged record (Kafka's promise for
        // acks=all with min ISR 2; checked so a loss there is not blamed on the mirror).
        const auto sourceValues = readSource(topic, &error);
        QVERIFY2(sourceValues, qPrintable(error));
        QSet<QString> sourceSet;
        qint64 sourceCount = 0;
        for (auto it = sourceValues->cbegin(); it != sourceValues->cend(); ++it) {
            sourceSet.unite(QSet<QString>(it->cbegin(), it->cend()));
            sourceCount += it->size();
        }
        {
            QStringList lost;
            for (const auto &a : acked)
                if (!sourceValues->value(a.partition).contains(a.value))
                    lost << QStringLiteral("%1@%2:%3").arg(a.value).arg(a.partition).arg(a.offset);
            QVERIFY2(lost.isEmpty(), qPrintable(QStringLiteral("the SOURCE cluster lost %1 acknowledged records: %2")
                                                    .arg(lost.size())
                                                    .arg(lost.mid(0, 10).join(QLatin1Char(' ')))));
        }

        // The job copies the rest by itself (it is never restarted).
        QTRY_VERIFY2_WITH_TIMEOUT(targetShowsAll(topic, sourceSet, &state) || !finished.isEmpty(),
                                  qPrintable(state + QStringLiteral("; events:\n  ") + joined(events)), 180000);
        QVERIFY2(finished.isEmpty(), "the job stopped by itself (its events follow)");
        const qint64 copiedMs = clock.elapsed();
        if (backAtMs >= 0)
            qInfo("%s: the target showed every source record %lld ms after the cluster was back", qPrintable(delivery),
                  copiedMs - backAtMs);
        job.stop();
        QVERIFY2(job.waitForFinished(60000), "the job did not stop within 60 s");
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 10000);
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));

        // A check of the checks (env MIRRORDESK_CLUSTER3_TEST_SABOTAGE): "lose"
        // deletes the first record of target partition 0, which must fail every
        // row; "duplicate" writes one record of partition 0 there again, which
        // must fail the exactly-once rows.
        const QString sabotage = qEnvironmentVariable("MIRRORDESK_CLUSTER3_TEST_SABOTAGE");
        if (sabotage == QLatin1String("lose")) {
            const auto marks = watermarks(bootstrap(target), topic, &error);
            QVERIFY2(marks, qPrintable(error));
            QVERIFY2(deleteRecords(bootstrap(target), topic, {{0, marks->value(0).first + 1}}, &error),
                     qPrintable(error));
            qWarning("sabotage: the first record of target partition 0 deleted");
        } else if (sabotage == QLatin1String("duplicate")) {
            TestRecord again;
            again.partition = 0;
            again.value = sourceValues->value(0).value(0).toUtf8();
            QVERIFY2(produce(bootstrap(target), topic, {again}, &error), qPrintable(error));
            qWarning("sabotage: %s written to target partition 0 again", again.value->constData());
        }

        // The independent judge: ConsoleConsumer, read_committed, up to the target's end offsets.
        const auto ends = endOffsets(bootstrap(target), topic, &error);
        QVERIFY2(ends, qPrintable(error));
        const auto read = consoleReadCommitted(bootstrap(target), topic, sumOf(*ends), &error);
        QVERIFY2(read, qPrintable(error));
        PartitionValues targetValues;
        for (const ReadRecord &r : *read)
            targetValues[r.partition].append(r.value);
        QStringList missingAcked;
        for (const auto &a : acked)
            if (!targetValues.value(a.partition).contains(a.value))
                missingAcked << QStringLiteral("%1@%2:%3").arg(a.value).arg(a.partition).arg(a.offset);
        const OnceCheck once = checkOnce(*sourceValues, *read);
        qInfo("%s, %s %s: %lld source records (%lld acknowledged), %lld on the target read_committed, "
              "%lld duplicates, %lld missing, %lld acknowledged missing, %lld unexpected; copied %lld ms after the "
              "fault began, %lld ms in all",
              qPrintable(delivery), side == Side::Source ? "source" : "target",
              what == Victim::PartitionLeader    ? "partition leader killed"
              : what == Victim::GroupCoordinator ? "group coordinator killed"
              : what == Victim::RollingRestart   ? "nodes restarted one by one"
                                                 : "cluster down 60 s",
              sourceCount, qint64(acked.size()), qint64(read->size()), once.duplicates, once.missing,
              qint64(missingAcked.size()), once.unexpected, copiedMs - killedAtMs, clock.elapsed());
        QVERIFY2(missingAcked.isEmpty(), qPrintable(QStringLiteral("%1 acknowledged records are not on the target: %2")
                                                        .arg(missingAcked.size())
                                                        .arg(missingAcked.mid(0, 10).join(QLatin1Char(' ')))));
        QVERIFY2(once.missing == 0 && once.unexpected == 0, qPrintable(once.summary()));
        if (exactlyOnce)
            QVERIFY2(once.exactlyOnce(), qPrintable(once.summary()));

        // The killed node is back in the ISR of the partition it led.
        QTRY_VERIFY2_WITH_TIMEOUT(clusterView(bootstrap(victimCluster), topic).isr.value(0).contains(victim),
                                  "the restarted node did not rejoin the ISR of partition 0 within 90 s", 90000);
        if (what != Victim::PartitionLeader) {
            QString state;
            QTRY_VERIFY2_WITH_TIMEOUT(clusterWhole(victimCluster, &state), qPrintable(state), 90000);
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_CLUSTERS3();
        MD_REQUIRE_KAFKA_TOOLS();
    }

    // A test that failed with a node down must not leave the next one without it.
    void cleanup()
    {
        for (const QString &cluster : {QString::fromLatin1(kSource3), QString::fromLatin1(kTarget3)}) {
            for (int n = 0; n < kCluster3Nodes; ++n) {
                QString error;
                if (cluster3NodePid(cluster, n) < 0 && !startClusterNode(cluster, n, &error))
                    qWarning("could not bring node %d of %s back: %s", n, qPrintable(cluster), qPrintable(error));
            }
        }
    }

    // The SASL listeners and the authorizer the ACL tests build on: SCRAM
    // users made at format time authenticate on every node, "admin" is a
    // super user, a plain user may not write where no ACL lets it, and a
    // wrong password is refused.
    void saslUsersAndAuthorizer()
    {
        const QString source = QString::fromLatin1(kSource3);
        const QString topic = uniqueName(QStringLiteral("c3-sasl"));
        QString error;
        QVERIFY2(createReplicatedTopic(source, topic, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(clusterView(bootstrap(source), topic).topicKnown, 30000);
        const QList<TestRecord> records = numbered(topic, 30, kPartitions);
        for (int n = 0; n < kCluster3Nodes; ++n) {
            const QString node = cluster3NodeSaslBootstrap(source, n);
            QVERIFY2(probe(node, &error, cluster3SaslProperties(QStringLiteral("alice"))),
                     qPrintable(QStringLiteral("alice on node %1: %2").arg(n).arg(error)));
        }
        ProduceOptions admin;
        admin.client = cluster3SaslProperties(QString::fromLatin1(kCluster3Admin));
        QVERIFY2(produce(cluster3SaslBootstrap(source), topic, records, &error, admin), qPrintable(error));

        ProduceOptions alice;
        alice.client = cluster3SaslProperties(QStringLiteral("alice"));
        alice.timeoutMs = 15000;
        QVERIFY(!produce(cluster3SaslBootstrap(source), topic, records, &error, alice));
        QVERIFY2(error.contains(QLatin1String("authoriz"), Qt::CaseInsensitive), qPrintable(error));

        QMap<QString, QString> wrong = cluster3SaslProperties(QStringLiteral("bob"));
        wrong.insert(QStringLiteral("sasl.password"), cluster3Password(QStringLiteral("alice")));
        int code = 0;
        QVERIFY(!probe(cluster3SaslBootstrap(source), &error, wrong, 10000, &code));
        QVERIFY2(code == RD_KAFKA_RESP_ERR__AUTHENTICATION, qPrintable(QStringLiteral("%1: %2").arg(code).arg(error)));

        ConsumeOptions read;
        read.client = cluster3SaslProperties(QString::fromLatin1(kCluster3Admin));
        const auto back = consumeAll(cluster3SaslBootstrap(source), topic, &error, read);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->size(), records.size());
    }

    void sourceLeaderKilledMidCopy_data()
    {
        QTest::addColumn<QString>("delivery");
        QTest::newRow("at-least-once") << QStringLiteral("at-least-once");
        QTest::newRow("exactly-once") << QStringLiteral("exactly-once");
    }
    void sourceLeaderKilledMidCopy() { nodeKilledMidCopy(Side::Source); }

    void targetLeaderKilledMidCopy_data() { sourceLeaderKilledMidCopy_data(); }
    void targetLeaderKilledMidCopy() { nodeKilledMidCopy(Side::Target); }

    // The coordinator of the job's group killed: at-least-once commits to the
    // source's group, exactly-once sends its offsets to the target's group
    // inside each transaction (where librdkafka 2.12.1 could wait for the
    // dead coordinator forever: installer/librdkafka-patches/0001).
    void groupCoordinatorKilledMidCopy_data() { sourceLeaderKilledMidCopy_data(); }
    void groupCoordinatorKilledMidCopy()
    {
        QFETCH(QString, delivery);
        nodeKilledMidCopy(delivery == QLatin1String("exactly-once") ? Side::Target : Side::Source,
                          Victim::GroupCoordinator);
    }

    // The whole source cluster down 60 s (every node killed -9) and back: the
    // job re-bootstraps and copies the rest without a restart.
    void sourceClusterDown60s_data() { sourceLeaderKilledMidCopy_data(); }
    void sourceClusterDown60s() { nodeKilledMidCopy(Side::Source, Victim::WholeCluster); }

    // All three source nodes restarted one after another while the job copies.
    void sourceRollingRestart_data() { sourceLeaderKilledMidCopy_data(); }
    void sourceRollingRestart() { nodeKilledMidCopy(Side::Source, Victim::RollingRestart); }
};

QTEST_GUILESS_MAIN(TstCluster3Faults)
#include "tst_cluster3_faults.moc"
