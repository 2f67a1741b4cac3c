#include "engine/mirror/TopicIdProbe.h"

#include <memory>
#include <vector>

namespace md {

namespace {

struct TopicCollectionDeleter {
    void operator()(rd_kafka_TopicCollection_t *c) const { rd_kafka_TopicCollection_destroy(c); }
};
using TopicCollectionPtr = std::unique_ptr<rd_kafka_TopicCollection_t, TopicCollectionDeleter>;

} // namespace

bool TopicIdProbe::ask(rd_kafka_t *client, const QStringList &names, Clock::time_point now)
{
    if (!client || names.isEmpty() || m_pending || givenUp())
        return false;
    std::vector<QByteArray> utf8;
    std::vector<const char *> raw;
    for (const QString &n : names)
        utf8.push_back(n.toUtf8());
    for (const QByteArray &n : utf8)
        raw.push_back(n.constData());
    TopicCollectionPtr topics(rd_kafka_TopicCollection_of_topic_names(raw.data(), raw.size()));
    if (!m_queue)
        m_queue.reset(rd_kafka_queue_new(client));
    AdminOptionsPtr options(rd_kafka_AdminOptions_new(client, RD_KAFKA_ADMIN_OP_DESCRIBETOPICS));
    char errstr[256];
    rd_kafka_AdminOptions_set_request_timeout(options.get(), 10000, errstr, sizeof errstr);
    rd_kafka_DescribeTopics(client, topics.get(), options.get(), m_queue.get());
    m_pending = true;
    m_sent = now;
    return true;
}

std::optional<QHash<QString, QByteArray>> TopicIdProbe::poll(Clock::time_point now)
{
    if (!m_pending)
        return std::nullopt;
    EventPtr ev(rd_kafka_queue_poll(m_queue.get(), 0));
    if (!ev) {
        if (now - m_sent > kAnswerTimeout) {
            m_queue.reset(); // a late answer goes with it
            m_pending = false;
            ++m_failures;
        }
        return std::nullopt;
    }
    m_pending = false;
    const rd_kafka_DescribeTopics_result_t *result =
        rd_kafka_event_error(ev.get()) ? nullptr : rd_kafka_event_DescribeTopics_result(ev.get());
    if (!result) {
        ++m_failures;
        return std::nullopt;
    }
    m_failures = 0;
    QHash<QString, QByteArray> ids;
    size_t cnt = 0;
    const rd_kafka_TopicDescription_t **descs = rd_kafka_DescribeTopics_result_topics(result, &cnt);
    for (size_t i = 0; i < cnt; ++i) {
        if (rd_kafka_error_code(rd_kafka_TopicDescription_error(descs[i])))
            continue;
        if (const rd_kafka_Uuid_t *uuid = rd_kafka_TopicDescription_topic_id(descs[i]))
            ids.insert(QString::fromUtf8(rd_kafka_TopicDescription_name(descs[i])),
                       QByteArray(rd_kafka_Uuid_base64str(uuid)));
    }
    return ids;
}

void TopicIdProbe::close()
{
    m_queue.reset();
    m_pending = false;
}

} // namespace md
