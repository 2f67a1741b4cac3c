#pragma once

#include "engine/core/KafkaHandles.h"
#include "engine/mirror/ByteThrottle.h"
#include "engine/mirror/CopyBounds.h"
#include "engine/mirror/InFlightRing.h"
#include "engine/mirror/LagTime.h"
#include "engine/mirror/LagTimeReader.h"
#include "engine/mirror/LatencyHistogram.h"
#include "engine/mirror/MapSegments.h"
#include "engine/mirror/MetricsSnapshot.h"
#include "engine/mirror/MirrorJobSpec.h"
#include "engine/mirror/OffsetMapWriter.h"
#include "engine/mirror/RateWindow.h"
#include "engine/mirror/TargetSilenceWatch.h"
#include "engine/mirror/TopicIdProbe.h"
#include "engine/mirror/TopicSync.h"
#include "engine/offsetmap/OffsetMap.h"
#include "engine/schemasync/SchemaSyncRunner.h"

#include <QByteArray>
#include <QHash>
#include <QMap>
#include <QSet>
#include <QString>

#include <atomic>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace md {

// Where the engine thread reports to; MirrorJob forwards to its signals.
class MirrorSink {
public:
    virtual ~MirrorSink() = default;
    virtual void onState(JobState state) = 0;
    virtual void onEvent(const JobEvent &event) = 0;
    virtual void onMetrics(const MetricsSnapshot &snapshot) = 0;
    virtual void onFinished(bool ok, const QString &error) = 0;
};

// The engine of one mirror job. run() is the whole life of the engine
// thread; every other public function may be called from any thread and
// only posts a command. librdkafka callbacks run inside the polls of run(),
// on the engine thread, and only record state.
//
// The implementation is split by feature: MirrorWorker.cpp (commands, life,
// callbacks, reporting), MirrorWorkerRecords.cpp (copying records,
// deliveries, replays, pausing, throttle), MirrorWorkerGroup.cpp (rebalances,
// start positions, commits), MirrorWorkerTopics.cpp (source topic selection,
// target topic creation and growth), MirrorWorkerProgress.cpp (stop
// condition, metrics) and MirrorWorkerTxn.cpp (exactly-once: transactions,
// progress on the target, fencing). Parts with state of their own are classes
// it composes: OffsetMapWriter and each partition's MapSegments (the offset
// map), SchemaSyncRunner, LagTimeReader, InFlightRing, ByteThrottle,
// TargetSilenceWatch, TopicIdProbe.
class MirrorWorker final {
public:
    MirrorWorker(MirrorJobSpec spec, MirrorSink *sink);
    ~MirrorWorker();
    Q_DISABLE_COPY_MOVE(MirrorWorker)

    void run();

    void requestPause();
    void requestResume();
    void requestStop();  // graceful: flush, commit, finish
    void requestAbort(); // at once: no flush, no commit (what a crash leaves behind)
    void setThrottle(qint64 bytesPerSecond);

    // How long a graceful stop or a rebalance waits for the target to
    // acknowledge what is in flight.
    static constexpr int kFlushTimeoutMs = 30000;

private:
    using Clock = std::chrono::steady_clock;

    struct TopicState;
    struct PartState {
        TopicState *topic = nullptr;
        int32_t partition = -1;
        bool assigned = false;
        bool pausedActual = false;
        bool done = false;    // stop condition reached for this partition
        bool blocked = false; // the target partition does not exist
        // Schema sync: a record's schema id (or its topic's subjects, id -1)
        // is not on the target registry yet; the partition waits at resumeFrom.
        bool schemaWaiting = false;
        int schemaWaitId = -1;
        bool schemaFailureShown = false;
        bool atEof = false;
        qint64 consumedNext = -1; // offset after the last record handed to the producer (or EOF position)
        qint64 resumeFrom = -1;   // a record was dropped here: seek back before consuming again
        qint64 failedOffset = -1; // a delivery failed: replay from here once nothing is in flight
        qint64 lastFailedOffset = -1;
        int failures = 0;
        QString lastFailure;
        rd_kafka_resp_err_t lastFailureCode = RD_KAFKA_RESP_ERR_NO_ERROR;
        // Refused by the target 5 times in a row (a record too large for the
        // target topic, a lost WRITE permission): the partition waits and is
        // tried again (retryAt, backing off to 30 s) while the others go on;
        // it is never skipped. The largest refused record names the culprit.
        bool parked = false;
        int parkRetries = 0;
        Clock::time_point retryAt;
        qint64 largestRefusedOffset = -1, largestRefusedBytes = 0;
        InFlightRing ring;
        qint64 committed = -1;
        qint64 copiedThisRun = 0; // handed to the producer, for AfterRecords
        qint64 records = 0;       // acknowledged
        qint64 bytes = 0;
        qint64 lastAckedTs = -1;
        qint64 lastConsumedTs = -1;
        qint64 lo = -1, hi = -1;
        qint64 vanished = 0; // records gone from the source before they were copied (this instance)
        // Lag in time (MirrorWorkerLagTime.cpp): timestamps read by offset for
        // when nothing is in flight (the asked record and those after it in
        // the same fetch), from the next offset on; the read last asked.
        QMap<qint64, qint64> knownTs;
        qint64 tsAskedFor = -1;
        Clock::time_point tsAskedAt;
        DrainRate drain;
        bool riskWarned = false; // retention risk named (again after kRiskRepeat)
        Clock::time_point riskWarnedAt;

        MapSegments map; // the offset map of this assignment (OffsetMapWriter writes it)

        // Exactly-once: where the open transaction began for this partition
        // (an abort re-copies from here); whether the committed offset's
        // metadata names this run (claimed) or says it was handed over.
        qint64 txnBase = -1;
        bool claimed = false;
        bool releasedWritten = false;

        qint64 committable() const { return ring.isEmpty() ? consumedNext : ring.frontOffset(); }
    };
    struct TopicState {
        QString name;
        QByteArray nameUtf8;
        QString targetName;
        TopicPtr targetRkt;
        int sourcePartitions = 0;
        int targetPartitions = -1;
        bool targetReady = false;
        QString lastError;
        std::chrono::steady_clock::time_point nextSyncAttempt; // after a failed create/grow
        std::chrono::seconds syncRetryDelay{0};                // the last wait; doubles per failure
        QByteArray topicId;                   // the source topic's id when last seen (recreation shows as a new id)
        bool missing = false;                 // selected before, gone from the source at the last refresh
        bool recreated = false;               // its partitions start from their first record, whatever progress says
        QMap<QString, QString> syncedConfigs; // what the target topic was last given
        int schemaUse = -1;                   // schema sync: -1 not known yet, else kSchemaKey | kSchemaValue bits
        std::vector<std::unique_ptr<PartState>> parts;
    };
    enum class Command { Pause, Resume, Stop, Abort };

    // setup and teardown
    bool setup(QString *error);
    // the source consumer (MirrorWorkerConsumer.cpp)
    // partitions: those the job selects (0: not known yet), for the fetch sizes (CopyBounds.h).
    KafkaPtr makeConsumer(qint64 prefetchRecords, qint64 partitions, bool *cooperative, QString *error);
    void sizeConsumer(const QList<qint64> &selectedPartitions); // once, before it first subscribes
    void shutdown(bool graceful);

    // the loop
    void handleCommands();
    bool handleMessage(MessagePtr &msg); // false: could not take it now (stays pending)
    void drainPending();
    void refreshTopics();
    void tick();
    void commit(bool sync, const std::vector<PartState *> *only = nullptr); // the map, then the offsets
    void commitOffsets(bool sync, const std::vector<PartState *> *only);
    void applyPauses();
    void serviceReplays();
    void checkStopCondition();
    void checkTargetSilence(Clock::time_point now);
    void reviveBrokers(bool target); // BootstrapRevival.h, when a client cannot reach its cluster
    void park(PartState *p);
    void unpark(PartState *p, qint64 offset);
    bool caughtUp(bool exceptParked = false) const;
    void sampleMetrics();
    // Lag in time of one partition, from the ring's front record or a read
    // of the record at its next offset (asked into `asks`).
    void measureLagTime(TopicState *t, PartState *p, PartitionMetrics &pm, qint64 nowMs, QList<RecordAt> &asks);
    void finishLagTime(MetricsSnapshot &s, const QList<RecordAt> &asks);
    void takeLagTimeAnswers();
    void warnRetention(const PartitionMetrics &pm, PartState *p, qint64 next, qint64 nowMs);
    bool flushProducer(int timeoutMs);
    // A Stop or Abort posted while the engine thread waits inside a long call
    // (a flush, a progress read while a coordinator moves): seen before
    // handleCommands takes it, which then finds the flag already set.
    bool commandQueued(Command c);
    bool abortAsked();
    bool stopAsked();            // a stop or an abort
    void resizeInFlightWindow(); // from the partitions assigned now, after a rebalance
    void waitForAcks(const std::vector<PartState *> &parts, int timeoutMs);

    // the offset map: m_map writes it; commits never pass what it made durable
    void writeOffsetMap(const std::vector<PartState *> *only);
    void waitForMapAcks(const std::vector<PartState *> *only, int timeoutMs);
    qint64 commitLimit(const PartState *p) const; // what the map lets a commit reach
    // originHeader: false while a cluster id is still unknown (the record waits).
    bool originIdsKnown();
    bool cameFromTarget(const rd_kafka_message_t *m) const;
    void stampOrigin(rd_kafka_headers_t **hdrs) const; // adds the header unless the record has one

    // schema sync (MirrorWorkerSchemas.cpp): ids rewritten in place in the
    // consumed record (translate); what was there, to undo when it waits.
    struct SchemaUndo {
        unsigned char key[4] = {}, value[4] = {};
        bool keyDone = false, valueDone = false;
    };
    static constexpr int kSchemaKey = 1, kSchemaValue = 2;
    void startSchemaSync();
    bool schemaIdsReady(PartState *p, rd_kafka_message_t *m, SchemaUndo *undo); // false: p waits
    void undoSchemaIds(rd_kafka_message_t *m, const SchemaUndo &undo);
    void serviceSchemaWaits(Clock::time_point now);

    // exactly-once (MirrorWorkerTxn.cpp)
    bool eos() const { return m_spec.delivery == DeliveryGuarantee::ExactlyOnce; }
    bool setupTransactions(QString *error); // the progress reader on the target
    bool initTransactions();                // blocking; false: stopped or failed
    bool beginTransaction();
    bool transactionFull() const { return m_txnOpen && m_txnRecords >= m_spec.transactionMaxRecords; }
    void noteTransactional(PartState *p, qint64 before); // a record of p went into the open transaction
    // Flush, write the map, send the offsets, commit. `released`: partitions
    // handed over (revoke), all: every assigned partition (stop).
    bool commitTransaction(const std::vector<PartState *> *released, bool releaseAll, bool syncSource);
    void abortTransaction(const QString &why);
    bool handleTxnError(rd_kafka_error_t *error, const char *step); // false: the instance stops
    void mergeTargetProgress(rd_kafka_topic_partition_list_t *committed, rd_kafka_resp_err_t *sourceErr);
    bool readTargetProgress(rd_kafka_topic_partition_list_t *list, bool stable);
    bool fenceTransactionalId(const QString &id);
    void waitForMapSetup();
    void tickTransactions(Clock::time_point now);
    bool stretchTransaction(Clock::time_point now);
    void claimPartitions(rd_kafka_topic_partition_list_t *parts); // before any of their records is written

    // librdkafka callbacks (static trampolines into these)
    void onRebalance(rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t *parts);
    void onDelivery(const rd_kafka_message_t *msg);
    void onError(rd_kafka_t *rk, int err, const char *reason);
    void onCommit(rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t *offsets);
    static void rebalanceCb(rd_kafka_t *rk, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t *parts,
                            void *opaque);
    static void deliveryCb(rd_kafka_t *rk, const rd_kafka_message_t *msg, void *opaque);
    static void errorCb(rd_kafka_t *rk, int err, const char *reason, void *opaque);
    static void commitCb(rd_kafka_t *rk, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t *offsets,
                         void *opaque);

    TopicState *topicFor(const rd_kafka_topic_t *rkt);
    TopicState *topicByName(const QString &name);
    PartState *partFor(TopicState *t, int32_t partition);
    void assignPartitions(rd_kafka_topic_partition_list_t *parts);
    void startWithoutProgress(rd_kafka_topic_partition_t &e, rd_kafka_topic_partition_list_t *byTime);
    void noteJump(PartState *p, qint64 offset, bool eof); // offsets not contiguous: vanished records, recreated topic
    bool groupCaughtUp(); // every partition of the job, whoever owns it, committed at its end
    void syncTopicConfigs();
    void pollTopicIds(); // applies m_topicIds' answer: a recreated topic starts over
    void revokePartitions(rd_kafka_topic_partition_list_t *parts);
    bool ensureTargetPartitions(TopicState *t, int32_t partition);
    // Events, partition count, retry time; true when the target topic became
    // ready or grew (the producer's metadata of it is read again, unless the
    // caller reads all topics once for many).
    bool applySyncResult(TopicState *t, const TopicSyncResult &r, bool refreshProducer = true);

    void event(JobEvent::Severity severity, const QString &text);
    void debouncedEvent(const QString &key, JobEvent::Severity severity, const QString &text);
    void setState(JobState s);
    void fail(const QString &error);
    static qint64 nowMs(); // wall clock, ms since the epoch (record timestamps)

    MirrorJobSpec m_spec;
    MirrorSink *m_sink;

    std::mutex m_cmdMutex;
    std::vector<Command> m_commands;
    std::atomic<bool> m_hasCommands{false};
    std::atomic<qint64> m_throttleRequest{-1};

    KafkaPtr m_producer; // declared first: destroyed after the consumer
    KafkaPtr m_consumer;
    KafkaPtr m_progressReader; // exactly-once: reads the job's committed progress on the target
    KafkaPtr m_ownerReader;    // the same without waiting for open transactions: who owns a partition
    std::unique_ptr<rd_kafka_consumer_group_metadata_t, KafkaDeleter> m_txnGroup;
    QString m_txnId;
    bool m_txnOpen = false;
    bool m_txnAbortPending = false; // a record or map record failed: the transaction can only abort
    QString m_txnAbortWhy;
    int m_txnRecords = 0;
    int m_txnAborts = 0; // in a row
    Clock::time_point m_txnBegan;
    Clock::time_point m_txnStretchCheck;
    bool m_txnStretching = false; // a backlog keeps the open transaction going (stretchTransaction)
    static constexpr std::chrono::milliseconds kTxnStretchMax{1000};
    QString m_groupId;

    std::map<QString, std::unique_ptr<TopicState>> m_topics;
    QHash<const void *, TopicState *> m_byRkt;
    QSet<QString> m_selected;      // selected source topics at the last refresh
    QStringList m_subscribed;      // what the consumer is subscribed to
    QSet<QString> m_subscribedSet; // the same, looked up once per topic by caughtUp() (every tick)
    bool m_sourceKnown = false;    // the last source metadata read worked
    bool m_rebalancePending = false;
    bool m_cooperative = true;    // the last rebalance protocol known (RebalanceProtocol.h)
    qint64 m_prefetchRecords = 0; // the prefetch the consumer was made with (CopyBounds.h; the operator's own wins)
    bool m_consumerSized = false; // sizeConsumer decided
    bool m_firstAssignmentDone = false;
    bool m_joined = false;            // the group assigned this instance its share (maybe none)
    std::deque<MessagePtr> m_pending; // consumed, not yet accepted by the producer (queue full)

    JobState m_state = JobState::Starting;
    bool m_userPaused = false;
    bool m_backpressure = false;
    bool m_replaysPending = false; // some partition has a failedOffset (serviceReplays)
    bool m_stopping = false;
    bool m_aborting = false;
    QString m_fatal;

    ByteThrottle m_throttle;

    Clock::time_point m_started;
    Clock::time_point m_nextCommit;
    Clock::time_point m_quickCommitsUntil; // after a target outage: commits every 200 ms until then
    Clock::time_point m_nextSample;
    qint64 m_snapshots = 0;      // taken so far: whose turn it is to read watermarks (sampleMetrics)
    qint64 m_watermarkEvery = 1; // each partition's watermarks read every this many snapshots
    Clock::time_point m_nextRefresh;
    Clock::time_point m_nextConfigSync;
    Clock::time_point m_nextGroupCheck;
    OffsetMapWriter m_map;
    bool m_offsetCommitPending = false; // the periodic map went out; its offsets follow once it is acknowledged
    Clock::time_point m_offsetCommitBy;
    TopicIdProbe m_topicIds; // the source topics' ids (a recreated topic), asked without waiting
    QString m_memberId;
    Clock::time_point m_lastConsumerPoll;

    std::unique_ptr<SchemaSyncRunner> m_schemaSync; // null: schemas.sync off
    std::unique_ptr<LagTimeReader> m_lagTime;       // reads for lag in time, on its own thread
    QHash<QString, TopicTimeConfig> m_topicTimes;   // the source topics' retention and timestamp type
    quint64 m_schemaGeneration = 0;
    QHash<int, int> m_schemaIds; // source id -> target id, as answered (never changes)
    Clock::time_point m_nextSchemaRetry;

    // totals
    qint64 m_recordsConsumed = 0, m_recordsProduced = 0, m_bytesConsumed = 0, m_bytesProduced = 0;
    // originHeader (MirrorWorkerOrigin.cpp): its name, both clusters' ids once known.
    QByteArray m_originHeader, m_sourceClusterId, m_targetClusterId;
    qint64 m_originSkipped = 0; // records not copied back: they came from the target
    qint64 m_inFlight = 0;
    // Records allowed in flight (CopyBounds.h), from the partitions
    // assigned (resizeInFlightWindow); librdkafka's queue alone bounds them
    // when the operator set it.
    qint64 m_inFlightWindow = InFlightWindow::kMinRecords;
    bool m_operatorWindow = false;
    RateWindow<4> m_rates; // records and bytes, consumed and produced
    LatencyHistogram m_latency;

    // connectivity events
    struct Debounce {
        Clock::time_point last;
        int suppressed = 0;
    };
    QHash<QString, Debounce> m_debounce;
    bool m_targetTrouble = false;
    bool m_sourceTrouble = false;
    TargetSilenceWatch m_targetSilence;                         // how long records have waited for the target
    Clock::time_point m_nextSourceRevival, m_nextTargetRevival; // reviveBrokers
};

} // namespace md
