#pragma once

// Message search: scans a topic (or one partition) from an offset, a time, the
// beginning, or from the end backwards, keeps the records a MessageFilter
// matches, and stops at a match limit, at the end of what the partitions held
// when the search started, or when cancelled. Records are filtered on the
// consumed bytes; only matches become KafkaMessages. Like MessageCopyJob it is
// one-shot work on the task pool (MessageSearchJob): matches and progress
// arrive in batches about every 100 ms, never a signal per record. With a
// schema registry, a key or value a condition reads is decoded first, so
// conditions (a JSON path most of all) see the decoded JSON.

#include "engine/admin/AdminService.h"
#include "engine/core/BackgroundJob.h"
#include "engine/core/ClusterConfig.h"
#include "engine/query/MessageFilter.h"
#include "engine/schema/RegistryDecoders.h"

#include <QObject>

#include <atomic>
#include <functional>
#include <memory>

namespace md {

struct SearchSpec {
    enum class Start { Beginning, Offset, Timestamp, EndBackwards };

    ClusterConfig cluster;
    QString topic;
    int partition = -1; // -1: every partition
    Start start = Start::EndBackwards;
    qint64 offset = 0;      // Start::Offset (clamped into each partition's range)
    qint64 timestampMs = 0; // Start::Timestamp: the first record at or after it
    MessageFilter filter;
    int maxMatches = 100;
    int timeoutMs = 10000; // connecting, and the longest wait for a fetch
    // EndBackwards reads chunks of about this many records (over all
    // partitions) from the end down; 0: the default (200,000).
    qint64 backwardsChunk = 0;
    // The registry's decoders to share (AdminClient::registryDecoders());
    // null: made from cluster.schemaRegistry for this search.
    std::shared_ptr<RegistryDecoders> decoders;
};

struct SearchProgress {
    qint64 scanned = 0; // records read
    qint64 total = 0;   // records in the ranges to read
    qint64 matched = 0;
    qint64 notJson = 0; // records a JSON path condition could not read as JSON

    bool operator==(const SearchProgress &) const = default;
};

struct SearchResult {
    SearchProgress progress;
    bool cancelled = false;
    bool limitReached = false;
    QString error; // empty on success and on a clean cancel

    bool ok() const { return error.isEmpty(); }
    // "12 matches in 1,000,000 records", "... (match limit reached)", "cancelled after ...", or the error.
    QString summary() const;
};

// Matches found since the last call (in the order shown: forwards by offset, or
// newest first when searching backwards) and the progress so far. Called on the
// searching thread, about every 100 ms and once at the end.
using SearchBatch = std::function<void(const QList<KafkaMessage> &matches, const SearchProgress &progress)>;

// Blocking: the search itself (tests, benchmarks, the job below).
SearchResult searchMessages(const SearchSpec &spec, const std::atomic_bool *cancel = nullptr,
                            const SearchBatch &batch = {});

// Runs searchMessages as a pool task. Signals arrive on the application's (UI) thread.
class MessageSearchJob final : public BackgroundJob {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MessageSearchJob)
public:
    explicit MessageSearchJob(SearchSpec spec, QObject *parent = nullptr);
    ~MessageSearchJob() override = default; // cancels; does not wait (the task ends on its own)

    const SearchSpec &spec() const { return m_spec; }
    void start();
    // The search sees it within one poll and finishes with what it found.
    void cancel() { raiseCancel(); }

Q_SIGNALS:
    void matchesFound(const QList<md::KafkaMessage> &matches, const md::SearchProgress &progress);
    void finished(const md::SearchResult &result);

private:
    SearchSpec m_spec;
};

} // namespace md

Q_DECLARE_METATYPE(md::SearchProgress)
Q_DECLARE_METATYPE(md::SearchResult)
