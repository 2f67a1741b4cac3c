// KafkaTestUtil.h's shared part: the client plumbing every helper uses
// (declared in KafkaTestUtilDetail.h), records compared and described, and the
// metadata probe. Topics and watermarks: KafkaTestAdmin.cpp; producing and
// consuming: KafkaTestProduceConsume.cpp.

#include "KafkaTestUtil.h"

#include "KafkaTestUtilDetail.h"
#include "engine/core/KafkaHandles.h"

#include <QDeadlineTimer>
#include <QMutexLocker>

#include <algorithm>

namespace md::test {

KafkaPtr bareClient(const QString &bootstrap)
{
    char errstr[256];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.toUtf8().constData(), errstr, sizeof errstr);
    rd_kafka_conf_set(conf, "log_level", "0", errstr, sizeof errstr);
    return KafkaPtr(rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr));
}

using namespace detail;

namespace {

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

} // namespace

namespace detail {

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

QString withClientError(const QString &text, ClientState &state)
{
    const QString all = state.allErrorsText();
    return all.isEmpty() ? text : QStringLiteral("%1; client errors: %2").arg(text, all);
}

int remainingMs(const QDeadlineTimer &deadline)
{
    return static_cast<int>(std::clamp<qint64>(deadline.remainingTime(), 0, 1000 * 3600));
}

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

} // namespace detail

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

} // namespace md::test
