#pragma once

// One-off copy of records from one cluster to a topic on another: either
// records already read (the messages a user selected in the browser) or a
// partition's offset range read afresh from the source. Records keep key,
// value (null stays null, empty stays empty), headers (order, duplicates,
// null values) and timestamp, and go to the same partition when the target
// topic has it (else the target's partitioner picks one), as the mirror engine
// does. The copy is one-shot work on the thread pool (MessageCopyJob) with
// progress, finished and cancel; the blocking core (copyMessages) serves tests
// and headless use. Bytes are copied as they are, so a record in a schema
// registry's wire format keeps its schema id: a range copy collects the ids
// of what it reads (its caller checks them on the target's registry, as the
// copy dialog does for selected records before copying).

#include "engine/admin/AdminService.h"
#include "engine/core/BackgroundJob.h"
#include "engine/core/ClusterConfig.h"
#include "engine/schema/RegistryCompare.h"

#include <QObject>

#include <atomic>
#include <functional>
#include <memory>

namespace md {

struct CopySpec {
    ClusterConfig target;
    QString targetTopic;

    // Either the given records ...
    QList<KafkaMessage> messages;
    // ... or, when `messages` is empty, the offsets [firstOffset, lastOffset]
    // (inclusive; clamped to what the partition holds) of one source partition.
    ClusterConfig source;
    QString sourceTopic;
    int sourcePartition = -1;
    qint64 firstOffset = 0;
    qint64 lastOffset = -1; // -1: up to the end of the partition at the start of the copy

    int timeoutMs = 30000; // bound for connecting, reading a stall and the final flush
};

struct CopyResult {
    qint64 copied = 0;    // records the target acknowledged
    qint64 requested = 0; // records the copy set out to write
    bool cancelled = false;
    // A cancelled copy does not wait long for records already sent: these had
    // no answer yet, and the target may still write them.
    qint64 unanswered = 0;
    QString error; // empty on success (and on a clean cancel)
    // A range copy: the distinct schema ids of the keys and values it read in
    // the wire format, ascending (given records: their caller knows them).
    QList<int> schemaIds;

    bool ok() const { return error.isEmpty() && !cancelled; }
    // "copied 500 records to orders on target", "cancelled after 120 of 500 records", or the error.
    QString summary(const CopySpec &spec) const;
};

// Progress callback: (acknowledged, total). Called from the copying thread,
// at most about every 100 ms and once at the end.
using CopyProgress = std::function<void(qint64 done, qint64 total)>;
// A range copy's schema ids not reported before (ascending), with a progress
// report: never per record, and only when the read records brought new ids.
using CopySchemaIds = std::function<void(const QList<int> &newIds)>;

// Blocking: copies and waits for every delivery report (or the first failure).
// `cancel` is polled between records and, while connecting, about every
// second; already queued records are purged, and records already sent are
// waited for about a second at most. `writing`, when given, is set (before
// `cancel` is read) as the first record is handed to the producer: whoever
// sets `cancel` and then reads `writing` false knows that nothing will be
// written (both are sequentially consistent).
CopyResult copyMessages(const CopySpec &spec, const std::atomic_bool *cancel = nullptr,
                        const CopyProgress &progress = {}, std::atomic_bool *writing = nullptr,
                        const CopySchemaIds &schemaIds = {});

// Runs copyMessages as a pool task. Signals arrive on the application's (UI) thread.
class MessageCopyJob final : public BackgroundJob {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MessageCopyJob)
public:
    explicit MessageCopyJob(CopySpec spec, QObject *parent = nullptr);
    ~MessageCopyJob() override = default; // cancels; does not wait (the task ends on its own)

    const CopySpec &spec() const { return m_spec; }
    void start();
    // Before the first record is written (connecting, reading the target
    // topic or the source range) it answers at once: finished() with a
    // cancelled result before cancel() returns, while the task ends on its
    // own and its late signals are dropped. Once records are written, the
    // copy stops producing and answers within about a second with what the
    // target acknowledged.
    void cancel();

Q_SIGNALS:
    void progress(qint64 done, qint64 total);
    // A range copy read records with these schema ids (first seen since the last time).
    void schemaIdsSeen(const QList<int> &ids);
    void finished(const md::CopyResult &result);

private:
    CopySpec m_spec;
    // Set by the run's task once it writes (then a cancel waits for its answer); its own per run.
    std::shared_ptr<std::atomic_bool> m_writing = std::make_shared<std::atomic_bool>(false);
    qint64 m_total = 0; // the last progress report's
};

} // namespace md

Q_DECLARE_METATYPE(md::CopyResult)
