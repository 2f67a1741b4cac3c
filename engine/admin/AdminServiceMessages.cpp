#include "engine/admin/AdminService.h"

#include "engine/admin/AdminServiceDetail.h"
#include "engine/core/ReaderConsumer.h"
#include "engine/schema/RegistryDecoders.h"

#include <QElapsedTimer>

#include <algorithm>
#include <tuple>

namespace md {

using admin_detail::utf8;

namespace {

std::optional<QByteArray> bytes(const void *data, size_t size)
{
    if (!data)
        return std::nullopt;
    return QByteArray(static_cast<const char *>(data), qsizetype(size));
}

} // namespace

// --- messages ----------------------------------------------------------------------

KafkaMessage kafkaMessageFrom(const rd_kafka_message_t *msg, const QString &topic)
{
    KafkaMessage m;
    m.topic = topic;
    m.partition = msg->partition;
    m.offset = msg->offset;
    rd_kafka_timestamp_type_t tstype = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
    m.timestampMs = rd_kafka_message_timestamp(msg, &tstype);
    m.logAppendTime = tstype == RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME;
    m.key = bytes(msg->key, msg->key_len);
    m.value = bytes(msg->payload, msg->len);
    rd_kafka_headers_t *hdrs = nullptr; // owned by the message
    if (rd_kafka_message_headers(msg, &hdrs) == RD_KAFKA_RESP_ERR_NO_ERROR && hdrs) {
        const char *name = nullptr;
        const void *value = nullptr;
        size_t size = 0;
        for (size_t i = 0; rd_kafka_header_get_all(hdrs, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++i)
            m.headers.append({utf8(name), bytes(value, size)});
    }
    return m;
}

KafkaPtr newBrowserConsumer(const ClusterConfig &cluster, QString *error)
{
    // The browser shows what the topic holds, open and aborted transactions' records too.
    ConfResult conf = readerConf(cluster, {.groupId = QStringLiteral("mirrordesk-browser"), .readCommitted = false});
    if (!conf.conf) {
        *error = QStringLiteral("invalid client setting ") + conf.error;
        return {};
    }
    rd_kafka_conf_set_log_cb(conf.conf.get(), [](const rd_kafka_t *, int, const char *, const char *) {});
    char errstr[512];
    KafkaPtr consumer(rd_kafka_new(RD_KAFKA_CONSUMER, conf.conf.get(), errstr, sizeof errstr));
    if (!consumer) {
        *error = utf8(errstr);
        return {};
    }
    (void)conf.conf.release();
    rd_kafka_poll_set_consumer(consumer.get());
    return consumer;
}

AdminResult<QList<KafkaMessage>> AdminService::readMessages(const MessageQuery &query)
{
    using R = AdminResult<QList<KafkaMessage>>;
    const QString what = QStringLiteral("cannot read messages of topic \"%1\"").arg(query.topic);
    if (query.topic.isEmpty())
        return R::failure(QStringLiteral("read messages: no topic name given"));
    if (query.maxMessages < 1)
        return R::failure(what + QStringLiteral(": the message count must be at least 1"));
    QElapsedTimer clock;
    clock.start();
    const int budgetMs = qMax(1000, query.timeoutMs);

    QString error;
    QMap<QString, QList<int>> partitions;
    if (!partitionsOf({query.topic}, &partitions, &error))
        return R::failure(what + QStringLiteral(": ") + error);
    if (!partitions.contains(query.topic))
        return R::failure(what + QStringLiteral(": the topic does not exist"));
    QList<TopicPartitionRef> parts;
    for (int p : partitions.value(query.topic)) {
        if (query.partition < 0 || p == query.partition)
            parts.append({query.topic, p});
    }
    if (parts.isEmpty())
        return R::failure(what + QStringLiteral(": the topic has no partition %1").arg(query.partition));

    QMap<TopicPartitionRef, qint64> low, high, start;
    if (!offsetsAt(parts, -2, &low, &error) || !offsetsAt(parts, -1, &high, &error))
        return R::failure(what + QStringLiteral(": ") + error);
    switch (query.mode) {
    case MessageQuery::Mode::FromOffset:
        for (const TopicPartitionRef &tp : parts)
            start.insert(tp, qBound(low.value(tp), query.offset, high.value(tp)));
        break;
    case MessageQuery::Mode::FromTimestamp:
        if (!offsetsAt(parts, query.timestampMs, &start, &error))
            return R::failure(what + QStringLiteral(": ") + error);
        for (auto it = start.begin(); it != start.end(); ++it) {
            if (*it < 0)
                *it = high.value(it.key());
        }
        break;
    case MessageQuery::Mode::LatestN:
        // The newest N overall are among the newest N of each partition.
        for (const TopicPartitionRef &tp : parts)
            start.insert(tp, qMax(low.value(tp), high.value(tp) - query.maxMessages));
        break;
    }

    // The range to read per partition: [start, end of the partition at the start of the read).
    PartitionListPtr assignment(rd_kafka_topic_partition_list_new(int(parts.size())));
    QMap<int, qint64> endOf;
    for (const TopicPartitionRef &tp : parts) {
        if (start.value(tp) >= high.value(tp))
            continue;
        rd_kafka_topic_partition_list_add(assignment.get(), tp.topic.toUtf8().constData(), tp.partition)->offset =
            start.value(tp);
        endOf.insert(tp.partition, high.value(tp));
    }
    QList<KafkaMessage> out;
    if (endOf.isEmpty())
        return {out, {}};

    KafkaPtr consumer = newBrowserConsumer(m_config, &error);
    if (!consumer)
        return R::failure(what + QStringLiteral(": ") + error);
    if (rd_kafka_resp_err_t err = rd_kafka_assign(consumer.get(), assignment.get()))
        return R::failure(what + QStringLiteral(": ") + kafkaErrorText(err));

    // Offset/timestamp reads stop at maxMessages per partition (the overall first
    // N are among them); LatestN ranges are already bounded.
    QMap<int, int> taken;
    while (!endOf.isEmpty()) {
        const qint64 left = budgetMs - clock.elapsed();
        if (left <= 0)
            break;
        MessagePtr msg(rd_kafka_consumer_poll(consumer.get(), int(qMin<qint64>(left, 200))));
        if (!msg)
            continue;
        if (msg->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
            endOf.remove(msg->partition);
            continue;
        }
        if (msg->err) {
            if (msg->err == RD_KAFKA_RESP_ERR__TRANSPORT || msg->err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN)
                continue; // retried by librdkafka within our budget
            rd_kafka_assign(consumer.get(), nullptr);
            return R::failure(what + QStringLiteral(": ") + utf8(rd_kafka_message_errstr(msg.get())));
        }
        if (!endOf.contains(msg->partition))
            continue;
        KafkaMessage m = kafkaMessageFrom(msg.get(), query.topic);
        out.append(std::move(m));
        const int count = ++taken[msg->partition];
        if (msg->offset + 1 >= endOf.value(msg->partition) ||
            (query.mode != MessageQuery::Mode::LatestN && count >= query.maxMessages))
            endOf.remove(msg->partition);
    }
    rd_kafka_assign(consumer.get(), nullptr);
    const bool complete = endOf.isEmpty();

    // One partition reads in offset order; several interleave by time.
    const bool byOffset = parts.size() == 1;
    std::stable_sort(out.begin(), out.end(), [byOffset](const KafkaMessage &a, const KafkaMessage &b) {
        if (byOffset)
            return a.offset < b.offset;
        return std::tie(a.timestampMs, a.partition, a.offset) < std::tie(b.timestampMs, b.partition, b.offset);
    });
    if (out.size() > query.maxMessages) {
        if (query.mode == MessageQuery::Mode::LatestN)
            out.remove(0, out.size() - query.maxMessages);
        else
            out.resize(query.maxMessages);
    }
    if (!complete && out.isEmpty())
        return R::failure(what + QStringLiteral(": no message arrived within %1 s").arg(budgetMs / 1000.0));
    // Only what is returned is decoded; a registry that does not answer costs
    // one bounded wait per schema id, then its failure is cached.
    if (const std::shared_ptr<SchemaDecoderCache> decoders = decoderCache()) {
        for (KafkaMessage &m : out)
            decodeMessage(*decoders, &m);
    }
    return {out, {}};
}

} // namespace md
