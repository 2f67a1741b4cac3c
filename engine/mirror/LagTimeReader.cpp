#include "engine/mirror/LagTimeReader.h"

#include <QSet>

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace md {

namespace {

constexpr int kReadTimeoutMs = 5000;
constexpr auto kConfigEvery = std::chrono::seconds(60);

} // namespace

struct LagTimeReader::Shared {
    ClusterConfig source;
    mutable std::mutex mutex;
    std::condition_variable cv;
    bool stopped = false;
    QList<RecordAt> wanted;
    QHash<RecordAt, RecordTime> answers;
    QStringList topics;
    bool topicsChanged = false;
    QHash<QString, TopicTimeConfig> configs;
};

LagTimeReader::LagTimeReader(ClusterConfig source) : m_shared(std::make_shared<Shared>())
{
    m_shared->source = std::move(source);
}

LagTimeReader::~LagTimeReader()
{
    stop();
}

void LagTimeReader::start()
{
    if (m_thread.isStarted())
        return;
    m_thread.start([s = m_shared] {
        // Made and destroyed on this thread: its consumer is closed here, never by the engine.
        auto reader = std::make_unique<RecordTimestampReader>(s->source);
        auto nextConfigs = std::chrono::steady_clock::now();
        for (;;) {
            QList<RecordAt> records;
            QStringList topics;
            {
                std::unique_lock lock(s->mutex);
                s->cv.wait_until(lock, nextConfigs,
                                 [&] { return s->stopped || !s->wanted.isEmpty() || s->topicsChanged; });
                if (s->stopped)
                    break;
                records.swap(s->wanted);
                const bool configsDue = s->topicsChanged || std::chrono::steady_clock::now() >= nextConfigs;
                if (configsDue && !s->topics.isEmpty()) {
                    topics = s->topics;
                    s->topicsChanged = false;
                }
            }
            if (!topics.isEmpty()) {
                const QHash<QString, TopicTimeConfig> configs = reader->topicConfigs(topics, kReadTimeoutMs);
                nextConfigs = std::chrono::steady_clock::now() + kConfigEvery;
                std::lock_guard lock(s->mutex);
                for (auto it = configs.cbegin(); it != configs.cend(); ++it)
                    s->configs.insert(it.key(), it.value());
            } else if (std::chrono::steady_clock::now() >= nextConfigs) {
                nextConfigs = std::chrono::steady_clock::now() + kConfigEvery;
            }
            if (!records.isEmpty()) {
                const QHash<RecordAt, RecordTime> read = reader->read(records, kReadTimeoutMs);
                std::lock_guard lock(s->mutex);
                for (auto it = read.cbegin(); it != read.cend(); ++it)
                    s->answers.insert(it.key(), it.value());
            }
        }
        reader.reset();
    });
}

void LagTimeReader::stop()
{
    {
        std::lock_guard lock(m_shared->mutex);
        m_shared->stopped = true;
    }
    m_shared->cv.notify_all();
}

void LagTimeReader::ask(const QList<RecordAt> &records)
{
    {
        std::lock_guard lock(m_shared->mutex);
        m_shared->wanted += records; // the reader takes them all at once; nothing asked is lost
    }
    if (!records.isEmpty())
        m_shared->cv.notify_all();
}

void LagTimeReader::setTopics(const QStringList &topics)
{
    {
        std::lock_guard lock(m_shared->mutex);
        if (QSet<QString>(topics.cbegin(), topics.cend()) ==
            QSet<QString>(m_shared->topics.cbegin(), m_shared->topics.cend()))
            return;
        m_shared->topics = topics;
        m_shared->topicsChanged = true;
    }
    m_shared->cv.notify_all();
}

QHash<RecordAt, RecordTime> LagTimeReader::takeAnswers()
{
    std::lock_guard lock(m_shared->mutex);
    QHash<RecordAt, RecordTime> out;
    out.swap(m_shared->answers);
    return out;
}

QHash<QString, TopicTimeConfig> LagTimeReader::topicConfigs() const
{
    std::lock_guard lock(m_shared->mutex);
    return m_shared->configs;
}

} // namespace md
