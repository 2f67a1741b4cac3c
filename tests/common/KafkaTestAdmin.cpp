// KafkaTestUtil.h's admin and metadata helpers: create and delete topics
// (waiting until the metadata agrees), partition counts, watermarks and
// DeleteRecords.

#include "KafkaTestUtil.h"

#include "KafkaTestUtilDetail.h"
#include "engine/core/KafkaHandles.h"

#include <QDeadlineTimer>
#include <QThread>

#include <algorithm>
#include <vector>

namespace md::test {

using namespace detail;

bool createTopics(const QString &bootstrap, const QList<TopicToCreate> &topics, QString *error,
                  const ClientProperties &client, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    ClientState state;
    KafkaPtr rk = makeClient(RD_KAFKA_PRODUCER, bootstrap, client, {}, &state, error);
    if (!rk)
        return false;
    std::vector<NewTopicPtr> owned;
    std::vector<rd_kafka_NewTopic_t *> newTopics;
    for (const TopicToCreate &t : topics) {
        char errstr[512];
        NewTopicPtr newTopic(
            rd_kafka_NewTopic_new(t.name.toUtf8().constData(), t.partitions, 1, errstr, sizeof errstr));
        if (!newTopic) {
            setError(error, QStringLiteral("topic %1: %2").arg(t.name, QString::fromUtf8(errstr)));
            return false;
        }
        for (auto it = t.configs.cbegin(); it != t.configs.cend(); ++it) {
            const rd_kafka_resp_err_t err = rd_kafka_NewTopic_set_config(newTopic.get(), it.key().toUtf8().constData(),
                                                                         it.value().toUtf8().constData());
            if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
                setError(error, QStringLiteral("topic %1: config %2: %3").arg(t.name, it.key(), errText(err)));
                return false;
            }
        }
        newTopics.push_back(newTopic.get());
        owned.push_back(std::move(newTopic));
    }
    QueuePtr queue(rd_kafka_queue_new(rk.get()));
    AdminOptionsPtr options = adminOptions(rk.get(), RD_KAFKA_ADMIN_OP_CREATETOPICS, deadline);
    rd_kafka_CreateTopics(rk.get(), newTopics.data(), newTopics.size(), options.get(), queue.get());
    const QString what = topics.size() == 1 ? QStringLiteral("creating topic %1").arg(topics.first().name)
                                            : QStringLiteral("creating %1 topics").arg(topics.size());
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
            setError(error, QStringLiteral("%1 failed: %2: %3%4")
                                .arg(what, QString::fromUtf8(rd_kafka_topic_result_name(results[i])), errText(err),
                                     text ? QString(QStringLiteral(": ") + QString::fromUtf8(text)) : QString()));
            return false;
        }
    }
    // CreateTopics answers once the controller has the topics; wait until this
    // broker's metadata shows each with leaders, so the next produce cannot race.
    for (const TopicToCreate &t : topics) {
        QString lastError;
        while (true) {
            const int state_ = topicState(rk.get(), t.name, std::min(remainingMs(deadline), 5000), &lastError);
            if (state_ == t.partitions)
                break;
            if (state_ >= 0) {
                setError(error, QStringLiteral("%1: broker reports %2 partitions of %3, asked for %4")
                                    .arg(what)
                                    .arg(state_)
                                    .arg(t.name)
                                    .arg(t.partitions));
                return false;
            }
            if (deadline.hasExpired()) {
                setError(error, QStringLiteral("%1: %2 created, but not visible with leaders in time %3")
                                    .arg(what, t.name,
                                         lastError.isEmpty() ? QString() : QStringLiteral("(%1)").arg(lastError)));
                return false;
            }
            QThread::msleep(100);
        }
    }
    return true;
}

bool createTopic(const QString &bootstrap, const QString &topic, int partitions, const QMap<QString, QString> &configs,
                 QString *error, const ClientProperties &client, int timeoutMs)
{
    return createTopics(bootstrap, {TopicToCreate{topic, partitions, configs}}, error, client, timeoutMs);
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

} // namespace md::test
