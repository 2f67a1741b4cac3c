#include "engine/schemasync/SchemaIdMap.h"

#include <chrono>

namespace md {

SchemaIdMap::TopicUse SchemaIdMap::topicUse(const QString &topic)
{
    std::lock_guard lock(m_mutex);
    if (auto it = m_topics.constFind(topic); it != m_topics.cend())
        return *it;
    if (!m_askedTopics.contains(topic)) {
        m_askedTopics.insert(topic);
        m_cv.notify_all();
    }
    return {};
}

SchemaIdMap::Answer SchemaIdMap::targetId(int sourceId, int *target, QString *why)
{
    std::lock_guard lock(m_mutex);
    if (auto it = m_mapped.constFind(sourceId); it != m_mapped.cend()) {
        *target = *it;
        return Answer::Mapped;
    }
    if (auto it = m_failed.constFind(sourceId); it != m_failed.cend()) {
        *why = *it;
        return Answer::Failed;
    }
    if (!m_askedIds.contains(sourceId)) {
        m_askedIds.insert(sourceId);
        m_cv.notify_all();
    }
    return Answer::Pending;
}

void SchemaIdMap::retry(int sourceId)
{
    std::lock_guard lock(m_mutex);
    if (m_failed.remove(sourceId) > 0) {
        m_askedIds.insert(sourceId);
        m_cv.notify_all();
    }
}

QString SchemaIdMap::fatal() const
{
    std::lock_guard lock(m_mutex);
    return m_fatal;
}

void SchemaIdMap::setTopicUse(const QString &topic, bool key, bool value)
{
    {
        std::lock_guard lock(m_mutex);
        TopicUse &u = m_topics[topic];
        if (u.known && u.key == key && u.value == value)
            return;
        u = {true, key, value};
    }
    changed();
}

void SchemaIdMap::setMapped(int sourceId, int target)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_mapped.value(sourceId, -1) == target)
            return;
        m_mapped.insert(sourceId, target);
        m_failed.remove(sourceId);
    }
    changed();
}

void SchemaIdMap::setFailed(int sourceId, const QString &why)
{
    {
        std::lock_guard lock(m_mutex);
        m_failed.insert(sourceId, why);
    }
    changed();
}

void SchemaIdMap::setFatal(const QString &why)
{
    {
        std::lock_guard lock(m_mutex);
        m_fatal = why;
    }
    changed();
}

void SchemaIdMap::waitForQuestions(int timeoutMs, QSet<int> *ids, QSet<QString> *topics)
{
    std::unique_lock lock(m_mutex);
    m_cv.wait_for(lock, std::chrono::milliseconds(timeoutMs),
                  [&] { return m_stopped.load() || !m_askedIds.isEmpty() || !m_askedTopics.isEmpty(); });
    ids->swap(m_askedIds);
    m_askedIds.clear();
    topics->swap(m_askedTopics);
    m_askedTopics.clear();
}

void SchemaIdMap::stop()
{
    std::lock_guard lock(m_mutex);
    m_stopped = true;
    m_cv.notify_all();
}

} // namespace md
