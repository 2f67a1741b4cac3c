#pragma once

#include "engine/admin/RecordTimestampReader.h"
#include "engine/core/ClusterConfig.h"
#include "engine/core/WorkerThread.h"

#include <memory>

namespace md {

// The running job's reads for lag in time, on their own thread so the engine
// never waits on them: the timestamp of the record at a partition's next
// offset where the engine holds no record of it (nothing in flight: paused,
// throttled, behind a full queue), and the source topics' retention.ms and
// message.timestamp.type (at start, then every minute). The engine asks and
// takes answers at its sampling tick; both calls return at once.
class LagTimeReader final {
public:
    explicit LagTimeReader(ClusterConfig source);
    ~LagTimeReader(); // stop(); the thread ends by itself after a read under way
    LagTimeReader(const LagTimeReader &) = delete;
    LagTimeReader &operator=(const LagTimeReader &) = delete;

    void start();
    void stop();
    // Records wanted (added to those not read yet; the newest offset of a partition is read).
    void ask(const QList<RecordAt> &records);
    // The topics whose configs are wanted; read at once when new ones appear.
    void setTopics(const QStringList &topics);
    QHash<RecordAt, RecordTime> takeAnswers();
    QHash<QString, TopicTimeConfig> topicConfigs() const;

private:
    struct Shared;
    std::shared_ptr<Shared> m_shared;
    WorkerThread m_thread{QStringLiteral("lag-time")};
};

} // namespace md
