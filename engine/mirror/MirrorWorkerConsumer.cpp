#include "engine/mirror/MirrorWorker.h"

#include "engine/core/ClusterConfig.h"
#include "engine/core/RebalanceProtocol.h"
#include "engine/mirror/CopyBounds.h"

namespace md {

namespace {

std::string confValue(const rd_kafka_conf_t *conf, const char *key)
{
    char value[512];
    size_t size = sizeof value;
    return rd_kafka_conf_get(conf, key, value, &size) == RD_KAFKA_CONF_OK ? std::string(value) : std::string();
}

} // namespace

// ---------------------------------------------------------------- the source consumer

KafkaPtr MirrorWorker::makeConsumer(qint64 prefetchRecords, qint64 partitions, bool *cooperative, QString *error)
{
    const QMap<QString, QString> consumerOverrides{
        {QStringLiteral("group.id"), m_groupId},
        // Progress is committed by the engine only after the target acknowledged.
        {QStringLiteral("enable.auto.commit"), QStringLiteral("false")},
        {QStringLiteral("enable.auto.offset.store"), QStringLiteral("false")},
        // Aborted transactions are never copied.
        {QStringLiteral("isolation.level"), QStringLiteral("read_committed")},
        // EOF tells when a partition is caught up, past control records too.
        {QStringLiteral("enable.partition.eof"), QStringLiteral("true")},
        // Only reached without progress when the committed offset could not be
        // read, or when the position left the log (records vanished, topic
        // recreated): never skip then. noteJump reports what happened.
        {QStringLiteral("auto.offset.reset"), QStringLiteral("earliest")},
        // New partitions of subscribed topics show up within this time.
        {QStringLiteral("topic.metadata.refresh.interval.ms"),
         QString::number(qBound(1000, m_spec.topicRefreshIntervalMs, 10000))},
    };
    const ClusterConfig &source = m_spec.source;
    const QMap<QString, QString> &props = source.consumerProperties;
    ConfResult cc = makeKafkaConf(source, ClientRole::Consumer, consumerOverrides);
    if (!cc.conf) {
        *error = QStringLiteral("source cluster configuration: ") + cc.error;
        return nullptr;
    }
    setConfDefault(cc.conf.get(), source, props, QStringLiteral("client.id"),
                   QStringLiteral("mirrordesk-") + m_groupId);
    // Prefetch, bounded by records (CopyBounds.h) more than by bytes:
    // librdkafka counts only payload against queued.max.messages.kbytes.
    // Smaller fetches (fetch.max.bytes, max.partition.fetch.bytes) save more
    // but cost rate at one end or the other, and a small fetch.max.bytes caps
    // a long link at one fetch a round trip (docs/PERFORMANCE.md, "Footprint").
    setConfDefault(cc.conf.get(), source, props, QStringLiteral("queued.max.messages.kbytes"), QStringLiteral("65536"));
    setConfDefault(cc.conf.get(), source, props, QStringLiteral("queued.min.messages"),
                   QString::number(prefetchRecords));
    setConfDefault(cc.conf.get(), source, props, QStringLiteral("max.partition.fetch.bytes"),
                   QString::number(FetchBytes::partitionFor(partitions)));
    setConfDefault(cc.conf.get(), source, props, QStringLiteral("fetch.max.bytes"),
                   QString::number(FetchBytes::fetchFor(partitions)));
    // Instances of one profile share the partitions; a joining or leaving
    // instance must not stop the others (incremental rebalancing). KIP-848
    // (group.protocol=consumer) assigns on the broker and refuses the setting.
    const QString protocol =
        props.value(QStringLiteral("group.protocol"), source.properties.value(QStringLiteral("group.protocol")));
    if (protocol != QLatin1String("consumer"))
        setConfDefault(cc.conf.get(), source, props, QStringLiteral("partition.assignment.strategy"),
                       QStringLiteral("cooperative-sticky"));
    if (!m_spec.instanceId.isEmpty())
        setConf(cc.conf.get(), QStringLiteral("group.instance.id"), m_spec.instanceId);
    *cooperative =
        configuredCooperative(confValue(cc.conf.get(), "partition.assignment.strategy"), protocol.toStdString());
    rd_kafka_conf_set_opaque(cc.conf.get(), this);
    rd_kafka_conf_set_rebalance_cb(cc.conf.get(), &MirrorWorker::rebalanceCb);
    rd_kafka_conf_set_error_cb(cc.conf.get(), &MirrorWorker::errorCb);
    rd_kafka_conf_set_offset_commit_cb(cc.conf.get(), &MirrorWorker::commitCb);
    char errstr[512];
    KafkaPtr consumer(rd_kafka_new(RD_KAFKA_CONSUMER, cc.conf.get(), errstr, sizeof errstr));
    if (!consumer) {
        *error = QStringLiteral("source consumer: ") + QString::fromUtf8(errstr);
        return nullptr;
    }
    (void)cc.conf.release(); // owned by the handle now
    rd_kafka_poll_set_consumer(consumer.get());
    return consumer;
}

void MirrorWorker::sizeConsumer(const QList<qint64> &selectedPartitions)
{
    // Once, at the first refresh that selects topics: before the consumer
    // first subscribes, so it has joined no group, owns no partition and
    // holds no record, and a new one loses nothing. A job that grows a lot
    // later keeps its prefetch until it is started again.
    if (m_consumerSized || selectedPartitions.isEmpty())
        return;
    m_consumerSized = true;
    qint64 partitions = 0;
    for (qint64 n : selectedPartitions)
        partitions += n;
    // A bound the operator set is the operator's (setConfDefault keeps it).
    const QMap<QString, QString> &props = m_spec.source.consumerProperties;
    const qint64 wanted = operatorSet(m_spec.source, props, QStringLiteral("queued.min.messages"))
                              ? m_prefetchRecords
                              : ConsumerPrefetch::forPartitions(partitions);
    const bool fetchesOwn = operatorSet(m_spec.source, props, QStringLiteral("max.partition.fetch.bytes")) &&
                            operatorSet(m_spec.source, props, QStringLiteral("fetch.max.bytes"));
    const bool fetchesChange = !fetchesOwn && FetchBytes::partitionFor(partitions) != FetchBytes::partitionFor(0);
    if (wanted == m_prefetchRecords && !fetchesChange)
        return;
    // The new one first: if it cannot be made, the job goes on with the one it has.
    QString error;
    bool cooperative = m_cooperative;
    KafkaPtr fresh = makeConsumer(wanted, partitions, &cooperative, &error);
    if (!fresh) {
        event(JobEvent::Severity::Warning,
              QStringLiteral("could not make the source consumer again for %1 partitions, keeping its prefetch of %2 "
                             "records and its fetch sizes: %3")
                  .arg(partitions)
                  .arg(m_prefetchRecords)
                  .arg(error));
        return;
    }
    m_topicIds.close(); // a queue goes before its client (none is made before the first listing)
    rd_kafka_consumer_close(m_consumer.get());
    m_consumer = std::move(fresh);
    m_cooperative = cooperative;
    m_prefetchRecords = wanted;
    // The values read back from the consumer librdkafka was given.
    const rd_kafka_conf_t *conf = rd_kafka_conf(m_consumer.get());
    const auto kib = [conf](const char *key) {
        return QString::number(QString::fromStdString(confValue(conf, key)).toLongLong() / 1024);
    };
    event(JobEvent::Severity::Info,
          QStringLiteral("prefetching up to %1 records, fetching up to %2 KiB a partition and %3 KiB an answer, "
                         "for %4 partitions")
              .arg(QString::fromStdString(confValue(conf, "queued.min.messages")), kib("max.partition.fetch.bytes"),
                   kib("fetch.max.bytes"))
              .arg(partitions));
}

} // namespace md
