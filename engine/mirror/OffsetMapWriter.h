#pragma once

#include "engine/core/KafkaHandles.h"
#include "engine/mirror/MapSegments.h"
#include "engine/mirror/MetricsSnapshot.h"

#include <QString>

#include <chrono>
#include <functional>

namespace md {

// The job's writer of its offset map topic (docs/ARCHITECTURE.md, "The offset
// map"), a part of the mirror worker, on the engine thread: creates the topic
// without waiting (poll() takes the answer), produces each partition's
// MapSegments through the job's producer and takes their delivery reports.
// A job that keeps a map stops rather than copy what it cannot translate:
// when the topic cannot be created, or the target keeps refusing its records,
// the writer says so through `lost` and the worker fails the job.
class OffsetMapWriter {
public:
    struct Reports {
        std::function<void(JobEvent::Severity, const QString &)> event;
        std::function<void(const QString &key, JobEvent::Severity, const QString &)> debouncedEvent;
        std::function<void(const QString &)> lost; // the job must stop: why
        // Exactly-once: a map record of the open transaction failed, which
        // can now only abort.
        std::function<void(const QString &)> transactionFailed;
    };

    OffsetMapWriter(Reports reports, bool transactional);
    ~OffsetMapWriter();
    Q_DISABLE_COPY_MOVE(OffsetMapWriter)

    // Asks the target for the topic (one partition, compacted), or with
    // `enabled` false ("offsetMap": false) keeps no map at all.
    void start(rd_kafka_t *producer, const QString &topic, bool enabled);
    void poll(); // takes the CreateTopics answer; asks again after a failure

    // The map topic is there, or no map is kept: records may be copied.
    bool settled() const { return m_off || m_rkt; }
    bool setupPending() const { return m_setupPending; }
    bool off() const { return m_off; }
    const QString &topic() const { return m_topic; }
    int inFlight() const { return m_inFlight; }
    bool isMapRecord(const rd_kafka_message_t *m) const { return m_rkt && m->rkt == m_rkt.get(); }

    // Produces what `map` still has to say below `covered`; `sourceTopic`,
    // `partition` and `targetTopic` name the partition in the records.
    void write(MapSegments &map, qint64 covered, const QString &sourceTopic, int32_t partition,
               const QString &targetTopic);
    // The delivery report of a map record (isMapRecord).
    void onDelivery(const rd_kafka_message_t *m);

    void closeQueue(); // a queue goes before its client
    void close();      // topic handles go before their client

private:
    struct Written; // a map record's opaque
    void giveUp(const QString &why);
    void lose(const QString &what);

    Reports m_reports;
    const bool m_transactional;
    rd_kafka_t *m_producer = nullptr;
    QString m_topic;
    TopicPtr m_rkt;   // null: the map is not written (yet: its topic is being created, or not at all)
    QueuePtr m_queue; // the map topic's CreateTopics answer, taken without waiting
    bool m_setupPending = false;
    int m_setupAttempts = 0;
    std::chrono::steady_clock::time_point m_setupSent, m_setupRetryAt;
    int m_inFlight = 0;
    int m_failures = 0; // in a row; past a bound the job stops
    bool m_off = false; // "offsetMap": false: no map, commits never wait for one
    bool m_lost = false;
};

} // namespace md
