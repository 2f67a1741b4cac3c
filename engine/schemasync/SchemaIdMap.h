#pragma once

#include <QHash>
#include <QSet>
#include <QString>

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace md {

// What the engine thread and the schema sync thread share (SchemaSyncRunner):
// which topics' keys and values carry registry ids, and each source id's
// target id. The engine asks for what it lacks and holds the record's
// partition; the sync thread answers. A mapped id never changes, so the
// engine may cache answers; generation() tells it when to look again.
class SchemaIdMap {
public:
    enum class Answer { Pending, Mapped, Failed };
    struct TopicUse {
        bool known = false; // the source registry was asked about the topic's subjects
        bool key = false;   // <topic>-key follows: keys carry ids
        bool value = false; // <topic>-value follows
    };

    // The engine thread.
    TopicUse topicUse(const QString &topic);                  // asks when not known yet
    Answer targetId(int sourceId, int *target, QString *why); // asks when neither mapped nor failed
    void retry(int sourceId);                                 // a failed id is asked again
    quint64 generation() const { return m_generation.load(std::memory_order_acquire); }
    QString fatal() const;

    // The sync thread.
    void setTopicUse(const QString &topic, bool key, bool value);
    void setMapped(int sourceId, int target);
    void setFailed(int sourceId, const QString &why);
    void setFatal(const QString &why);
    // Waits up to timeoutMs for questions, or until stop(); takes them.
    void waitForQuestions(int timeoutMs, QSet<int> *ids, QSet<QString> *topics);
    void stop();
    bool stopped() const { return m_stopped.load(); }

private:
    void changed() { m_generation.fetch_add(1, std::memory_order_acq_rel); }

    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    QHash<QString, TopicUse> m_topics;
    QHash<int, int> m_mapped;
    QHash<int, QString> m_failed;
    QSet<int> m_askedIds;
    QSet<QString> m_askedTopics;
    QString m_fatal;
    std::atomic<quint64> m_generation{0};
    std::atomic<bool> m_stopped{false};
};

} // namespace md
