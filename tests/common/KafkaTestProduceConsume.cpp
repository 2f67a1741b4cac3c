// KafkaTestUtil.h's record helpers: produce (plain and transactional),
// consume a whole topic back, and a real consumer group member that commits
// only what a test tells it to.

#include "KafkaTestUtil.h"

#include "KafkaTestUtilDetail.h"
#include "engine/core/KafkaHandles.h"

#include <QAtomicInt>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QMutexLocker>
#include <QThread>

#include <algorithm>

namespace md::test {

using namespace detail;

namespace {

std::optional<QByteArray> bytesOrNull(const void *data, size_t size)
{
    if (!data)
        return std::nullopt;
    return QByteArray(static_cast<const char *>(data), static_cast<qsizetype>(size));
}

// Produces all records on `rk` and serves delivery reports until each has one
// or the deadline passes. Returns false with *error on the first failure.
bool produceOn(rd_kafka_t *rk, const QString &topic, const QList<TestRecord> &records, ClientState &state,
               const QDeadlineTimer &deadline, QString *error)
{
    const QByteArray topicName = topic.toUtf8();
    for (qsizetype i = 0; i < records.size(); ++i) {
        const TestRecord &r = records.at(i);
        HeadersPtr headers;
        if (!r.headers.isEmpty()) {
            headers.reset(rd_kafka_headers_new(static_cast<size_t>(r.headers.size())));
            for (const auto &[name, value] : r.headers) {
                const QByteArray n = name.toUtf8();
                // A null pointer is a null header value; an empty array's data() is not null.
                const rd_kafka_resp_err_t herr =
                    rd_kafka_header_add(headers.get(), n.constData(), n.size(), value ? value->constData() : nullptr,
                                        value ? value->size() : 0);
                if (herr != RD_KAFKA_RESP_ERR_NO_ERROR) {
                    setError(error, QStringLiteral("record %1: header %2: %3").arg(i).arg(name, errText(herr)));
                    return false;
                }
            }
        }
        // Plain variables: the RD_KAFKA_V_* macros cast their arguments unparenthesised.
        const void *keyData = r.key ? static_cast<const void *>(r.key->constData()) : nullptr;
        const size_t keySize = r.key ? static_cast<size_t>(r.key->size()) : 0;
        void *valueData = r.value ? const_cast<char *>(r.value->constData()) : nullptr;
        const size_t valueSize = r.value ? static_cast<size_t>(r.value->size()) : 0;
        const int partition = r.partition >= 0 ? r.partition : RD_KAFKA_PARTITION_UA;
        const int64_t timestamp = r.timestamp > 0 ? r.timestamp : 0;
        for (;;) {
            const rd_kafka_resp_err_t err =
                rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topicName.constData()), RD_KAFKA_V_PARTITION(partition),
                                  RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(keyData, keySize),
                                  RD_KAFKA_V_VALUE(valueData, valueSize), RD_KAFKA_V_TIMESTAMP(timestamp),
                                  RD_KAFKA_V_HEADERS(headers.get()), RD_KAFKA_V_END);
            if (err == RD_KAFKA_RESP_ERR_NO_ERROR) {
                (void)headers.release(); // librdkafka owns them now
                break;
            }
            if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL && remainingMs(deadline) > 0) {
                rd_kafka_poll(rk, 50);
                continue;
            }
            setError(error,
                     withClientError(QStringLiteral("record %1 to %2: %3").arg(i).arg(topic, errText(err)), state));
            return false;
        }
        rd_kafka_poll(rk, 0);
    }
    const rd_kafka_resp_err_t flushErr = rd_kafka_flush(rk, remainingMs(deadline));
    QMutexLocker lock(&state.mutex);
    if (state.failed > 0) {
        const QString text = QStringLiteral("%1 of %2 records to %3 not delivered: %4")
                                 .arg(state.failed)
                                 .arg(records.size())
                                 .arg(topic, state.firstDeliveryError);
        lock.unlock();
        setError(error, withClientError(text, state));
        return false;
    }
    if (flushErr != RD_KAFKA_RESP_ERR_NO_ERROR || state.delivered != records.size()) {
        const QString text = QStringLiteral("only %1 of %2 records to %3 delivered in time")
                                 .arg(state.delivered)
                                 .arg(records.size())
                                 .arg(topic);
        lock.unlock();
        setError(error, withClientError(text, state));
        return false;
    }
    return true;
}

QMap<QString, QString> producerSettings(const ProduceOptions &options)
{
    return {
        {QStringLiteral("enable.idempotence"), QStringLiteral("true")},
        {QStringLiteral("acks"), QStringLiteral("all")},
        {QStringLiteral("compression.codec"), options.compression},
        {QStringLiteral("linger.ms"), QStringLiteral("5")},
        {QStringLiteral("message.timeout.ms"), QString::number(std::max(options.timeoutMs, 1000))},
    };
}

// Takes ownership of a librdkafka error object and turns it into text.
bool txnOk(rd_kafka_error_t *raw, const QString &step, ClientState &state, QString *error)
{
    const ErrorPtr err(raw);
    if (!err)
        return true;
    setError(error, withClientError(QStringLiteral("%1: %2 (%3)")
                                        .arg(step, QString::fromUtf8(rd_kafka_error_string(err.get())),
                                             QString::fromUtf8(rd_kafka_error_name(err.get()))),
                                    state));
    return false;
}

} // namespace

bool produce(const QString &bootstrap, const QString &topic, const QList<TestRecord> &records, QString *error,
             const ProduceOptions &options)
{
    return produce(bootstrap, QMap<QString, QList<TestRecord>>{{topic, records}}, error, options);
}

bool produce(const QString &bootstrap, const QMap<QString, QList<TestRecord>> &byTopic, QString *error,
             const ProduceOptions &options)
{
    const QDeadlineTimer deadline(options.timeoutMs);
    ClientState state;
    KafkaPtr rk = makeClient(RD_KAFKA_PRODUCER, bootstrap, options.client, producerSettings(options), &state, error);
    if (!rk)
        return false;
    for (auto it = byTopic.cbegin(); it != byTopic.cend(); ++it) {
        {
            // produceOn counts this topic's reports (the last topic's were all in).
            QMutexLocker lock(&state.mutex);
            state.delivered = 0;
        }
        if (!produceOn(rk.get(), it.key(), it.value(), state, deadline, error))
            return false;
    }
    char fatal[512];
    const rd_kafka_resp_err_t fatalErr = rd_kafka_fatal_error(rk.get(), fatal, sizeof fatal);
    if (fatalErr != RD_KAFKA_RESP_ERR_NO_ERROR) {
        setError(error, QStringLiteral("producer failed: %1").arg(QString::fromUtf8(fatal)));
        return false;
    }
    return true;
}

bool produceTransactional(const QString &bootstrap, const QString &topic, const QList<TestRecord> &records, bool commit,
                          QString *error, const ProduceOptions &options, const QString &transactionalId)
{
    const QDeadlineTimer deadline(options.timeoutMs);
    ClientState state;
    QMap<QString, QString> settings = producerSettings(options);
    static QAtomicInt counter;
    settings.insert(QStringLiteral("transactional.id"), transactionalId.isEmpty()
                                                            ? QStringLiteral("md-test-txn-%1-%2")
                                                                  .arg(QCoreApplication::applicationPid())
                                                                  .arg(counter.fetchAndAddRelaxed(1))
                                                            : transactionalId);
    settings.insert(QStringLiteral("transaction.timeout.ms"), QString::number(std::max(options.timeoutMs, 10000)));
    KafkaPtr rk = makeClient(RD_KAFKA_PRODUCER, bootstrap, options.client, settings, &state, error);
    if (!rk)
        return false;
    if (!txnOk(rd_kafka_init_transactions(rk.get(), remainingMs(deadline)), QStringLiteral("init_transactions"), state,
               error))
        return false;
    if (!txnOk(rd_kafka_begin_transaction(rk.get()), QStringLiteral("begin_transaction"), state, error))
        return false;
    // Flushed before an abort too: the aborted records must really be in the
    // log (with the abort marker after them), not purged from the queue.
    if (!produceOn(rk.get(), topic, records, state, deadline, error))
        return false;
    if (commit)
        return txnOk(rd_kafka_commit_transaction(rk.get(), remainingMs(deadline)), QStringLiteral("commit_transaction"),
                     state, error);
    return txnOk(rd_kafka_abort_transaction(rk.get(), remainingMs(deadline)), QStringLiteral("abort_transaction"),
                 state, error);
}

std::optional<QList<TestRecord>> consumeAll(const QString &bootstrap, const QString &topic, QString *error,
                                            const ConsumeOptions &options)
{
    const QDeadlineTimer deadline(options.timeoutMs);
    const std::optional<Watermarks> marks = watermarks(bootstrap, topic, error, options.client, options.timeoutMs);
    if (!marks)
        return std::nullopt;

    ClientState state;
    static QAtomicInt counter;
    KafkaPtr rk =
        makeClient(RD_KAFKA_CONSUMER, bootstrap, options.client,
                   {
                       // A group id librdkafka wants for assign(); nothing is joined or committed.
                       {QStringLiteral("group.id"), QStringLiteral("md-test-consume-%1-%2")
                                                        .arg(QCoreApplication::applicationPid())
                                                        .arg(counter.fetchAndAddRelaxed(1))},
                       {QStringLiteral("enable.auto.commit"), QStringLiteral("false")},
                       {QStringLiteral("enable.auto.offset.store"), QStringLiteral("false")},
                       {QStringLiteral("enable.partition.eof"), QStringLiteral("true")},
                       {QStringLiteral("auto.offset.reset"), QStringLiteral("earliest")},
                       {QStringLiteral("isolation.level"),
                        options.readCommitted ? QStringLiteral("read_committed") : QStringLiteral("read_uncommitted")},
                   },
                   &state, error);
    if (!rk)
        return std::nullopt;

    const QByteArray name = topic.toUtf8();
    PartitionListPtr assignment(rd_kafka_topic_partition_list_new(static_cast<int>(marks->size())));
    // Partition -> offset where reading is complete (the high watermark at the
    // start; with read_committed the consumer's EOF at the LSO also ends it).
    QMap<int, qint64> pending;
    for (auto it = marks->cbegin(); it != marks->cend(); ++it) {
        if (it.value().second > it.value().first) {
            rd_kafka_topic_partition_list_add(assignment.get(), name.constData(), it.key())->offset =
                RD_KAFKA_OFFSET_BEGINNING;
            pending.insert(it.key(), it.value().second);
        }
    }
    QMap<int, QList<TestRecord>> byPartition;
    if (pending.isEmpty())
        return QList<TestRecord>{};
    const rd_kafka_resp_err_t assignErr = rd_kafka_assign(rk.get(), assignment.get());
    if (assignErr != RD_KAFKA_RESP_ERR_NO_ERROR) {
        setError(error, QStringLiteral("assign %1: %2").arg(topic, errText(assignErr)));
        return std::nullopt;
    }
    while (!pending.isEmpty()) {
        if (deadline.hasExpired()) {
            QStringList left;
            for (auto it = pending.cbegin(); it != pending.cend(); ++it) {
                const qint64 read =
                    byPartition.value(it.key()).isEmpty() ? -1 : byPartition.value(it.key()).last().offset;
                left << QStringLiteral("[%1] read up to %2 of end %3").arg(it.key()).arg(read).arg(it.value());
            }
            setError(error, withClientError(
                                QStringLiteral("reading %1 timed out: %2").arg(topic, left.join(QStringLiteral(", "))),
                                state));
            rd_kafka_consumer_close(rk.get());
            return std::nullopt;
        }
        MessagePtr message(rd_kafka_consumer_poll(rk.get(), std::min(remainingMs(deadline), 200)));
        if (!message)
            continue;
        const int partition = message->partition;
        if (message->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
            // With read_committed the end is the LSO, which can sit below the
            // high watermark taken above only while a transaction is open; the
            // EOF says nothing more is readable now.
            if (message->offset >= pending.value(partition, 0) || options.readCommitted)
                pending.remove(partition);
            continue;
        }
        if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
            const QString text = QString::fromUtf8(rd_kafka_err2str(message->err));
            if (message->err == RD_KAFKA_RESP_ERR__TRANSPORT || message->err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN)
                continue; // transient: librdkafka reconnects
            setError(error, QStringLiteral("reading %1 [%2]: %3").arg(topic).arg(partition).arg(text));
            rd_kafka_consumer_close(rk.get());
            return std::nullopt;
        }
        TestRecord record;
        record.partition = partition;
        record.offset = message->offset;
        record.key = bytesOrNull(message->key, message->key_len);
        record.value = bytesOrNull(message->payload, message->len);
        rd_kafka_timestamp_type_t type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
        record.timestamp = rd_kafka_message_timestamp(message.get(), &type);
        rd_kafka_headers_t *headers = nullptr; // owned by the message
        if (rd_kafka_message_headers(message.get(), &headers) == RD_KAFKA_RESP_ERR_NO_ERROR && headers) {
            const char *hname = nullptr;
            const void *hvalue = nullptr;
            size_t hsize = 0;
            for (size_t i = 0;
                 rd_kafka_header_get_all(headers, i, &hname, &hvalue, &hsize) == RD_KAFKA_RESP_ERR_NO_ERROR; ++i)
                record.headers.append({QString::fromUtf8(hname), bytesOrNull(hvalue, hsize)});
        }
        byPartition[partition].append(record);
        if (record.offset + 1 >= pending.value(partition, 0))
            pending.remove(partition);
    }
    rd_kafka_consumer_close(rk.get());
    QList<TestRecord> all;
    for (const QList<TestRecord> &records : std::as_const(byPartition))
        all += records;
    return all;
}

struct GroupMember::Private {
    ClientState state; // outlives the handle (declared first)
    KafkaPtr rk;
    QByteArray topic;
    QMap<int, qint64> consumed; // partition -> offset after the last record polled

    // One poll; a record moves this member's consumed position.
    void poll(int timeoutMs)
    {
        MessagePtr m(rd_kafka_consumer_poll(rk.get(), timeoutMs));
        if (m && m->err == RD_KAFKA_RESP_ERR_NO_ERROR)
            consumed[m->partition] = std::max<qint64>(consumed.value(m->partition, 0), m->offset + 1);
    }
};

GroupMember::GroupMember() : d(std::make_unique<Private>())
{
}

GroupMember::~GroupMember()
{
    close();
}

bool GroupMember::start(const QString &bootstrap, const QString &groupId, const QString &topic, QString *error,
                        const QString &clientId, const ClientProperties &client, int timeoutMs)
{
    close();
    QMap<QString, QString> settings{
        {QStringLiteral("group.id"), groupId},
        {QStringLiteral("enable.auto.commit"), QStringLiteral("false")},
        {QStringLiteral("auto.offset.reset"), QStringLiteral("earliest")},
    };
    if (!clientId.isEmpty())
        settings.insert(QStringLiteral("client.id"), clientId);
    d->rk = makeClient(RD_KAFKA_CONSUMER, bootstrap, client, settings, &d->state, error);
    if (!d->rk)
        return false;
    rd_kafka_poll_set_consumer(d->rk.get());
    d->topic = topic.toUtf8();
    PartitionListPtr sub(rd_kafka_topic_partition_list_new(1));
    rd_kafka_topic_partition_list_add(sub.get(), d->topic.constData(), RD_KAFKA_PARTITION_UA);
    if (const rd_kafka_resp_err_t err = rd_kafka_subscribe(d->rk.get(), sub.get())) {
        setError(error, QStringLiteral("subscribe to %1: %2").arg(topic, errText(err)));
        return false;
    }
    // A member commits only once it belongs to the group's generation.
    const QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        d->poll(200);
        rd_kafka_topic_partition_list_t *assigned = nullptr;
        if (rd_kafka_assignment(d->rk.get(), &assigned) == RD_KAFKA_RESP_ERR_NO_ERROR && assigned) {
            PartitionListPtr own(assigned);
            if (own->cnt > 0)
                return true;
        }
    }
    setError(error, withClientError(QStringLiteral("no partitions of %1 assigned to group %2 within %3 s")
                                        .arg(topic, groupId)
                                        .arg(timeoutMs / 1000),
                                    d->state));
    return false;
}

bool GroupMember::commit(const QMap<int, qint64> &offsets, QString *error)
{
    if (!d->rk) {
        setError(error, QStringLiteral("the group member is not started"));
        return false;
    }
    PartitionListPtr list(rd_kafka_topic_partition_list_new(static_cast<int>(offsets.size())));
    for (auto it = offsets.cbegin(); it != offsets.cend(); ++it)
        rd_kafka_topic_partition_list_add(list.get(), d->topic.constData(), it.key())->offset = it.value();
    if (const rd_kafka_resp_err_t err = rd_kafka_commit(d->rk.get(), list.get(), 0)) {
        setError(error, QStringLiteral("commit: %1").arg(errText(err)));
        return false;
    }
    return true;
}

bool GroupMember::consumeAndCommit(const QMap<int, qint64> &offsets, QString *error, int timeoutMs)
{
    if (!d->rk) {
        setError(error, QStringLiteral("the group member is not started"));
        return false;
    }
    const auto done = [&] {
        for (auto it = offsets.cbegin(); it != offsets.cend(); ++it) {
            if (d->consumed.value(it.key(), 0) < it.value())
                return false;
        }
        return true;
    };
    const QDeadlineTimer deadline(timeoutMs);
    while (!done()) {
        if (deadline.hasExpired()) {
            setError(error, withClientError(
                                QStringLiteral("did not consume the wanted records within %1 s").arg(timeoutMs / 1000),
                                d->state));
            return false;
        }
        d->poll(200);
    }
    return commit(offsets, error);
}

void GroupMember::close()
{
    if (d->rk)
        rd_kafka_consumer_close(d->rk.get());
    d->rk.reset();
    d->consumed.clear();
}

} // namespace md::test
