#pragma once

#include "engine/core/KafkaHandles.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

namespace md {

// The source topics' ids, asked without waiting: a topic deleted and
// recreated between two refreshes keeps its name but gets a new id, and its
// partitions must then start again from their first record. The answer is
// taken by poll() on the engine thread. A cluster that never answers (the
// sandbox's mock cluster) must not hold the engine: an ask unanswered for
// kAnswerTimeout counts as a failure, and after kMaxFailures in a row the
// probe asks no more.
class TopicIdProbe final {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr auto kAnswerTimeout = std::chrono::seconds(20);
    static constexpr int kMaxFailures = 2;

    // One ask at a time; false when one is pending or the probe gave up.
    bool ask(rd_kafka_t *client, const QStringList &names, Clock::time_point now);
    // The ids of the topics answered (name -> base64 id; a topic the
    // cluster could not describe is left out) once the answer came, else
    // nothing. Called every tick.
    std::optional<QHash<QString, QByteArray>> poll(Clock::time_point now);
    bool pending() const { return m_pending; }
    bool givenUp() const { return m_failures >= kMaxFailures; }
    // Before its client goes (a queue goes before its client); a pending ask
    // is forgotten, not counted.
    void close();

private:
    QueuePtr m_queue;
    bool m_pending = false;
    Clock::time_point m_sent;
    int m_failures = 0;
};

} // namespace md
