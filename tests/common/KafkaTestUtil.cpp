#include "KafkaTestUtil.h"

#include "KafkaHandles.h"

#include <QAtomicInt>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QMutex>
#include <QMutexLocker>
#include <QThread>

#include <algorithm>

namespace md::test {

namespace {

// Collects what librdkafka reports from its own threads (error_cb, dr_msg_cb):
// the helpers fold it into their error messages, so a failure says *why*
// (authentication, unknown topic, timeout) instead of just "timed out".
struct ClientState {
    QMutex mutex;
    int firstErrorCode = 0;
    QString lastError;
    QStringList errors; // distinct, in order: which one comes first is up to librdkafka's threads
    qint64 delivered = 0;
    qint64 failed = 0;
    QString firstDeliveryError;

    void clientError(int code, const QString &reason)
    {
        QMutexLocker lock(&mutex);
        if (firstErrorCode == 0)
            firstErrorCode = code;
        lastError = reason;
        if (errors.size() < 10 && !errors.contains(reason))
            errors << reason;
    }
    QString allErrorsText()
    {
        QMutexLocker lock(&mutex);
        return errors.join(QStringLiteral(" | "));
    }
    QString lastErrorText()
    {
        QMutexLocker lock(&mutex);
        return lastError;
    }
};

void errorCallback(rd_kafka_t *, int err, const char *reason, void *opaque)
{
    static_cast<ClientState *>(opaque)->clientError(
        err, QStringLiteral("%1: %2").arg(QString::fromUtf8(rd_kafka_err2name(static_cast<rd_kafka_resp_err_t>(err))),
                                          QString::fromUtf8(reason)));
}

void deliveryCallback(rd_kafka_t *, const rd_kafka_message_t *message, void *opaque)
{
    auto *state = static_cast<ClientState *>(opaque);
    QMutexLocker lock(&state->mutex);
    if (message->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
        ++state->delivered;
    } else {
        ++state->failed;
        if (state->firstDeliveryError.isEmpty())
            state->firstDeliveryError = QString::fromUtf8(rd_kafka_err2str(message->err));
    }
}

void setError(QString *error, const QString &text)
{
    if (error)
        *error = text;
}

QString errText(rd_kafka_resp_err_t err)
{
    return QStringLiteral("%1 (%2)").arg(QString::fromUtf8(rd_kafka_err2str(err)),
                                         QString::fromUtf8(rd_kafka_err2name(err)));
}

// Appends the client's last reported error, when there is one.
QString withClientError(const QString &text, ClientState &state)
{
    const QString all = state.allErrorsText();
    return all.isEmpty() ? text : QStringLiteral("%1; client errors: %2").arg(text, all);
}

int remainingMs(const QDeadlineTimer &deadline)
{
    return static_cast<int>(std::clamp<qint64>(deadline.remainingTime(), 0, 1000 * 3600));
}

// A client of type `type` for `bootstrap` with `client` properties and then
// `extra` (the helper's own, which win). `state` must outlive the handle.
KafkaPtr makeClient(rd_kafka_type_t type, const QString &bootstrap, const ClientProperties &client,
                    const QMap<QString, QString> &extra, ClientState *state, QString *error)
{
    if (bootstrap.trimmed().isEmpty()) {
        setError(error, QStringLiteral("no bootstrap address given (are the test brokers running?)"));
        return {};
    }
    KafkaConfPtr conf(rd_kafka_conf_new());
    char errstr[512];
    QMap<QString, QString> all;
    all.insert(QStringLiteral("bootstrap.servers"), bootstrap);
    // Quiet: connection closes after a test are expected, not news.
    all.insert(QStringLiteral("log.connection.close"), QStringLiteral("false"));
    for (auto it = client.cbegin(); it != client.cend(); ++it)
        all.insert(it.key(), it.value());
    for (auto it = extra.cbegin(); it != extra.cend(); ++it)
        all.insert(it.key(), it.value());
    for (auto it = all.cbegin(); it != all.cend(); ++it) {
        if (rd_kafka_conf_set(conf.get(), it.key().toUtf8().constData(), it.value().toUtf8().constData(), errstr,
                              sizeof errstr) != RD_KAFKA_CONF_OK) {
            setError(error, QStringLiteral("client property %1: %2").arg(it.key(), QString::fromUtf8(errstr)));
            return {};
        }
    }
    rd_kafka_conf_set_opaque(conf.get(), state);
    rd_kafka_conf_set_error_cb(conf.get(), &errorCallback);
    if (type == RD_KAFKA_PRODUCER)
        rd_kafka_conf_set_dr_msg_cb(conf.get(), &deliveryCallback);
    // rd_kafka_new takes the conf only on success.
    KafkaPtr handle(rd_kafka_new(type, conf.get(), errstr, sizeof errstr));
    if (!handle) {
        setError(error, QStringLiteral("cannot create a Kafka client: %1").arg(QString::fromUtf8(errstr)));
        return {};
    }
    (void)conf.release();
    return handle;
}

// Partition count of `topic` from a fresh metadata request: >= 0 when the topic
// exists with every partition led, -1 when it is unknown, -2 on a request
// failure (*error set), -3 when it exists but some partition has no leader yet.
int topicState(rd_kafka_t *rk, const QString &topic, int timeoutMs, QString *error)
{
    const rd_kafka_metadata_t *raw = nullptr;
    const rd_kafka_resp_err_t err = rd_kafka_metadata(rk, 1, nullptr, &raw, std::max(timeoutMs, 1));
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        setError(error, QStringLiteral("metadata request failed: %1").arg(errText(err)));
        return -2;
    }
    const MetadataPtr metadata(raw);
    const QByteArray name = topic.toUtf8();
    for (int i = 0; i < metadata->topic_cnt; ++i) {
        const rd_kafka_metadata_topic_t &t = metadata->topics[i];
        if (name != t.topic)
            continue;
        if (t.err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART)
            return -1;
        if (t.err != RD_KAFKA_RESP_ERR_NO_ERROR || t.partition_cnt == 0)
            return -3;
        for (int p = 0; p < t.partition_cnt; ++p) {
            if (t.partitions[p].leader < 0 || t.partitions[p].err != RD_KAFKA_RESP_ERR_NO_ERROR)
                return -3;
        }
        return t.partition_cnt;
    }
    return -1;
}

// Waits for one admin result event on `queue`; checks the request-level error.
EventPtr waitAdminResult(rd_kafka_queue_t *queue, const QDeadlineTimer &deadline, const QString &what,
                         ClientState &state, QString *error)
{
    EventPtr event(rd_kafka_queue_poll(queue, remainingMs(deadline)));
    if (!event) {
        setError(error, withClientError(QStringLiteral("%1: no answer in time").arg(what), state));
        return {};
    }
    if (rd_kafka_event_error(event.get()) != RD_KAFKA_RESP_ERR_NO_ERROR) {
        setError(
            error,
            withClientError(
                QStringLiteral("%1 failed: %2").arg(what, QString::fromUtf8(rd_kafka_event_error_string(event.get()))),
                state));
        return {};
    }
    return event;
}

AdminOptionsPtr adminOptions(rd_kafka_t *rk, rd_kafka_admin_op_t op, const QDeadlineTimer &deadline)
{
    AdminOptionsPtr options(rd_kafka_AdminOptions_new(rk, op));
    char errstr[256];
    const int ms = std::max(remainingMs(deadline), 1);
    rd_kafka_AdminOptions_set_request_timeout(options.get(), ms, errstr, sizeof errstr);
    // The broker waits for the topic change to finish before answering.
    rd_kafka_AdminOptions_set_operation_timeout(options.get(), std::max(ms - 500, 1), errstr, sizeof errstr);
    return options;
}

std::optional<QByteArray> bytesOrNull(const void *data, size_t size)
{
    if (!data)
        return std::nullopt;
    return QByteArray(static_cast<const char *>(data), static_cast<qsizetype>(size));
}

QString escaped(const std::optional<QByteArray> &bytes)
{
    if (!bytes)
        return QStringLiteral("<null>");
    QString out = QStringLiteral("\"");
    for (const char c : *bytes) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7f && c != '"' && c != '\\')
            out += QLatin1Char(c);
        else
            out += QStringLiteral("\\x%1").arg(u, 2, 16, QLatin1Char('0'));
    }
    return out + QLatin1Char('"');
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

bool TestRecord::operator==(const TestRecord &other) const
{
    return key == other.key && value == other.value && headers == other.headers && timestamp == other.timestamp &&
           partition == other.partition;
}

QString describe(const TestRecord &record)
{
    QStringList headers;
    for (const auto &[name, value] : record.headers)
        headers << QStringLiteral("%1=%2").arg(name, escaped(value));
    return QStringLiteral("{p%1@%2 ts=%3 key=%4 value=%5 headers=[%6]}")
        .arg(record.partition)
        .arg(record.offset)
        .arg(record.timestamp)
        .arg(escaped(record.key), escaped(record.value), headers.join(QStringLiteral(", ")));
}

bool sameRecords(const QList<TestRecord> &expected, const QList<TestRecord> &actual, QString *difference)
{
    const qsizetype n = std::min(expected.size(), actual.size());
    for (qsizetype i = 0; i < n; ++i) {
        const TestRecord &e = expected.at(i);
        const TestRecord &a = actual.at(i);
        QString field;
        if (e.key != a.key)
            field = QStringLiteral("key");
        else if (e.value != a.value)
            field = QStringLiteral("value");
        else if (e.headers != a.headers)
            field = QStringLiteral("headers");
        else if (e.timestamp >= 0 && e.timestamp != a.timestamp)
            field = QStringLiteral("timestamp");
        else if (e.partition >= 0 && e.partition != a.partition)
            field = QStringLiteral("partition");
        if (!field.isEmpty()) {
            setError(difference, QStringLiteral("record %1 differs in %2:\n  expected %3\n  actual   %4")
                                     .arg(i)
                                     .arg(field, describe(e), describe(a)));
            return false;
        }
    }
    if (expected.size() != actual.size()) {
        setError(difference, QStringLiteral("expected %1 records, got %2; first extra/missing: %3")
                                 .arg(expected.size())
                                 .arg(actual.size())
                                 .arg(describe(expected.size() > actual.size() ? expected.at(n) : actual.at(n))));
        return false;
    }
    return true;
}

bool probe(const QString &bootstrap, QString *error, const ClientProperties &client, int timeoutMs, int *errorCode)
{
    ClientState state;
    KafkaPtr rk = makeClient(RD_KAFKA_PRODUCER, bootstrap, client, {}, &state, error);
    if (!rk)
        return false;
    const rd_kafka_metadata_t *raw = nullptr;
    const rd_kafka_resp_err_t err = rd_kafka_metadata(rk.get(), 0, nullptr, &raw, std::max(timeoutMs, 1));
    const MetadataPtr metadata(raw);
    // Errors are reported by librdkafka's threads; give a late one a moment.
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        for (int i = 0; i < 20; ++i) {
            rd_kafka_poll(rk.get(), 50);
            QMutexLocker lock(&state.mutex);
            if (state.firstErrorCode != 0)
                break;
        }
    }
    if (errorCode) {
        QMutexLocker lock(&state.mutex);
        *errorCode = state.firstErrorCode;
    }
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        setError(error, withClientError(QStringLiteral("no metadata from %1: %2").arg(bootstrap, errText(err)), state));
        return false;
    }
    return true;
}

bool createTopic(const QString &bootstrap, const QString &topic, int partitions, const QMap<QString, QString> &configs,
                 QString *error, const ClientProperties &client, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    ClientState state;
    KafkaPtr rk = makeClient(RD_KAFKA_PRODUCER, bootstrap, client, {}, &state, error);
    if (!rk)
        return false;
    char errstr[512];
    NewTopicPtr newTopic(rd_kafka_NewTopic_new(topic.toUtf8().constData(), partitions, 1, errstr, sizeof errstr));
    if (!newTopic) {
        setError(error, QStringLiteral("topic %1: %2").arg(topic, QString::fromUtf8(errstr)));
        return false;
    }
    for (auto it = configs.cbegin(); it != configs.cend(); ++it) {
        const rd_kafka_resp_err_t err = rd_kafka_NewTopic_set_config(newTopic.get(), it.key().toUtf8().constData(),
                                                                     it.value().toUtf8().constData());
        if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
            setError(error, QStringLiteral("topic %1: config %2: %3").arg(topic, it.key(), errText(err)));
            return false;
        }
    }
    QueuePtr queue(rd_kafka_queue_new(rk.get()));
    AdminOptionsPtr options = adminOptions(rk.get(), RD_KAFKA_ADMIN_OP_CREATETOPICS, deadline);
    rd_kafka_NewTopic_t *topics[] = {newTopic.get()};
    rd_kafka_CreateTopics(rk.get(), topics, 1, options.get(), queue.get());
    const QString what = QStringLiteral("creating topic %1").arg(topic);
    EventPtr event = waitAdminResult(queue.get(), deadline, what, state, error);
    if (!event)
        return false;
    size_t count = 0;
    const rd_kafka_topic_result_t **results =
        rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(event.get()), &count);
    for (size_t i = 0; i < count; ++i) {
        const rd_kafka_resp_err_t err = rd_kafka_topic_result_error(results[i]);
        if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
            const char *text = rd_kafka_topic_result_error_string(results[i]);
            setError(error, QStringLiteral("%1 failed: %2%3")
                                .arg(what, errText(err),
                                     text ? QString(QStringLiteral(": ") + QString::fromUtf8(text)) : QString()));
            return false;
        }
    }
    // CreateTopics answers once the controller has the topic; wait until this
    // broker's metadata shows it with leaders, so the next produce cannot race.
    QString lastError;
    while (true) {
        const int state_ = topicState(rk.get(), topic, std::min(remainingMs(deadline), 5000), &lastError);
        if (state_ == partitions)
            return true;
        if (state_ >= 0) {
            setError(
                error,
                QStringLiteral("%1: broker reports %2 partitions, asked for %3").arg(what).arg(state_).arg(partitions));
            return false;
        }
        if (deadline.hasExpired()) {
            setError(error, QStringLiteral("%1: created, but not visible with leaders in time %2")
                                .arg(what, lastError.isEmpty() ? QString() : QStringLiteral("(%1)").arg(lastError)));
            return false;
        }
        QThread::msleep(100);
    }
}

bool deleteTopic(const QString &bootstrap, const QString &topic, QString *error, const ClientProperties &client,
                 int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    ClientState state;
    KafkaPtr rk = makeClient(RD_KAFKA_PRODUCER, bootstrap, client, {}, &state, error);
    if (!rk)
        return false;
    DeleteTopicPtr deleteTopic(rd_kafka_DeleteTopic_new(topic.toUtf8().constData()));
    QueuePtr queue(rd_kafka_queue_new(rk.get()));
    AdminOptionsPtr options = adminOptions(rk.get(), RD_KAFKA_ADMIN_OP_DELETETOPICS, deadline);
    rd_kafka_DeleteTopic_t *topics[] = {deleteTopic.get()};
    rd_kafka_DeleteTopics(rk.get(), topics, 1, options.get(), queue.get());
    const QString what = QStringLiteral("deleting topic %1").arg(topic);
    EventPtr event = waitAdminResult(queue.get(), deadline, what, state, error);
    if (!event)
        return false;
    size_t count = 0;
    const rd_kafka_topic_result_t **results =
        rd_kafka_DeleteTopics_result_topics(rd_kafka_event_DeleteTopics_result(event.get()), &count);
    for (size_t i = 0; i < count; ++i) {
        const rd_kafka_resp_err_t err = rd_kafka_topic_result_error(results[i]);
        if (err != RD_KAFKA_RESP_ERR_NO_ERROR && err != RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART) {
            setError(error, QStringLiteral("%1 failed: %2").arg(what, errText(err)));
            return false;
        }
    }
    QString lastError;
    while (true) {
        if (topicState(rk.get(), topic, std::min(remainingMs(deadline), 5000), &lastError) == -1)
            return true;
        if (deadline.hasExpired()) {
            setError(error, QStringLiteral("%1: still listed after the timeout").arg(what));
            return false;
        }
        QThread::msleep(100);
    }
}

int partitionCount(const QString &bootstrap, const QString &topic, QString *error, const ClientProperties &client,
                   int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    ClientState state;
    KafkaPtr rk = makeClient(RD_KAFKA_PRODUCER, bootstrap, client, {}, &state, error);
    if (!rk)
        return -1;
    QString lastError;
    while (true) {
        const int n = topicState(rk.get(), topic, std::max(std::min(remainingMs(deadline), 5000), 1), &lastError);
        if (n >= 0)
            return n;
        if (n == -1) {
            setError(error, QStringLiteral("topic %1 does not exist").arg(topic));
            return -1;
        }
        if (deadline.hasExpired()) {
            setError(error,
                     withClientError(QStringLiteral("partitions of %1 unknown: %2")
                                         .arg(topic, lastError.isEmpty() ? QStringLiteral("no leader") : lastError),
                                     state));
            return -1;
        }
        QThread::msleep(100);
    }
}

bool produce(const QString &bootstrap, const QString &topic, const QList<TestRecord> &records, QString *error,
             const ProduceOptions &options)
{
    const QDeadlineTimer deadline(options.timeoutMs);
    ClientState state;
    KafkaPtr rk = makeClient(RD_KAFKA_PRODUCER, bootstrap, options.client, producerSettings(options), &state, error);
    if (!rk)
        return false;
    if (!produceOn(rk.get(), topic, records, state, deadline, error))
        return false;
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

std::optional<Watermarks> watermarks(const QString &bootstrap, const QString &topic, QString *error,
                                     const ClientProperties &client, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    ClientState state;
    KafkaPtr rk = makeClient(RD_KAFKA_CONSUMER, bootstrap, client,
                             {{QStringLiteral("group.id"), QStringLiteral("md-test-watermarks")},
                              {QStringLiteral("isolation.level"), QStringLiteral("read_uncommitted")}},
                             &state, error);
    if (!rk)
        return std::nullopt;
    const int partitions = partitionCount(bootstrap, topic, error, client, remainingMs(deadline));
    if (partitions < 0)
        return std::nullopt;
    Watermarks marks;
    const QByteArray name = topic.toUtf8();
    for (int p = 0; p < partitions; ++p) {
        int64_t low = -1;
        int64_t high = -1;
        rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
        // Retried until the deadline: right after a broker (re)start the
        // partition may briefly have no leader or the answer may time out.
        for (;;) {
            err = rd_kafka_query_watermark_offsets(rk.get(), name.constData(), p, &low, &high,
                                                   std::clamp(remainingMs(deadline), 1, 5000));
            if (err == RD_KAFKA_RESP_ERR_NO_ERROR || deadline.hasExpired())
                break;
            QThread::msleep(200);
        }
        if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
            setError(error,
                     withClientError(QStringLiteral("watermarks of %1 [%2]: %3").arg(topic).arg(p).arg(errText(err)),
                                     state));
            return std::nullopt;
        }
        marks.insert(p, {low, high});
    }
    return marks;
}

qint64 totalMessages(const Watermarks &marks)
{
    qint64 total = 0;
    for (const auto &[low, high] : marks)
        total += high - low;
    return total;
}

bool deleteRecords(const QString &bootstrap, const QString &topic, const QMap<int, qint64> &beforeOffsets,
                   QString *error, const ClientProperties &client, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    ClientState state;
    KafkaPtr rk = makeClient(RD_KAFKA_PRODUCER, bootstrap, client, {}, &state, error);
    if (!rk)
        return false;
    const QByteArray name = topic.toUtf8();
    PartitionListPtr offsets(rd_kafka_topic_partition_list_new(int(beforeOffsets.size())));
    for (auto it = beforeOffsets.cbegin(); it != beforeOffsets.cend(); ++it)
        rd_kafka_topic_partition_list_add(offsets.get(), name.constData(), it.key())->offset = it.value();
    DeleteRecordsPtr request(rd_kafka_DeleteRecords_new(offsets.get()));
    QueuePtr queue(rd_kafka_queue_new(rk.get()));
    AdminOptionsPtr options = adminOptions(rk.get(), RD_KAFKA_ADMIN_OP_DELETERECORDS, deadline);
    rd_kafka_DeleteRecords_t *requests[] = {request.get()};
    rd_kafka_DeleteRecords(rk.get(), requests, 1, options.get(), queue.get());
    const QString what = QStringLiteral("deleting records of %1").arg(topic);
    EventPtr event = waitAdminResult(queue.get(), deadline, what, state, error);
    if (!event)
        return false;
    const rd_kafka_topic_partition_list_t *result =
        rd_kafka_DeleteRecords_result_offsets(rd_kafka_event_DeleteRecords_result(event.get()));
    for (int i = 0; result && i < result->cnt; ++i) {
        if (result->elems[i].err != RD_KAFKA_RESP_ERR_NO_ERROR) {
            setError(error, QStringLiteral("%1 [%2] failed: %3")
                                .arg(what)
                                .arg(result->elems[i].partition)
                                .arg(errText(result->elems[i].err)));
            return false;
        }
    }
    return true;
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
