#pragma once

#include "engine/mirror/MirrorJobSpec.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

namespace md {

// Where each source partition of a job starts, by the engine's one rule
// ("progress always wins", docs/ARCHITECTURE.md):
//  - a partition with a committed offset in the job's group resumes there;
//    when that offset is below the log start (retention, DeleteRecords) the
//    records in between are gone and the job starts at the log start; when
//    it is past the end (topic recreated or truncated) it starts at the log
//    start too;
//  - a partition without progress starts as the profile's `start` says
//    (committed and earliest: the log start; latest: the end; a timestamp:
//    the first record at or after it, the end when there is none).
enum class StartReason {
    Committed,              // resumes at the committed offset
    CommittedBelowLogStart, // committed offset below the log start: `skipped` records vanished
    CommittedPastEnd,       // committed offset past the end: topic recreated or truncated
    Earliest,               // no progress: the log start
    Latest,                 // no progress: the end
    Timestamp,              // no progress: the first record at or after the start time
    Reset,                  // a reset plan's new position (planReset)
};

struct PartitionStart {
    QString topic;
    int partition = -1;
    qint64 logStart = -1;  // source low watermark
    qint64 end = -1;       // source end offset (read_committed: the last stable offset)
    qint64 committed = -1; // the job group's committed offset, -1: none
    qint64 start = -1;     // where the job (or the reset) puts this partition
    StartReason reason = StartReason::Earliest;
    qint64 toCopy = 0;   // end - start: what a run copies from here
    qint64 skipped = 0;  // CommittedBelowLogStart: logStart - committed
    QDateTime startTime; // Timestamp: the profile's start time; Reset: the reset's time (else invalid)

    // For people: "resumes at 1,234 (committed)", "starts at 0 (earliest, no progress)".
    QString describe() const;
    // CommittedBelowLogStart: "1,000 records vanished before they were copied: offsets 0..999"; else empty.
    QString vanishedText() const;
    bool operator==(const PartitionStart &) const = default;
};

struct JobProgress {
    bool ok = false;
    QString error;                    // why not ok, naming the cluster and the call
    QString groupId;                  // the job's source consumer group
    QString groupState;               // "Empty", "Stable", "Dead" (no such group), ...
    QStringList members;              // active members: "client-id on host" (empty: none)
    QList<PartitionStart> partitions; // by topic, then partition
    qint64 totalToCopy() const;
    qint64 totalSkipped() const; // records that vanished before they were copied, over all partitions
    // True when the group has members (or is rebalancing): a reset is refused then.
    bool groupActive() const;
};

// Blocking (engine threads, headless commands; never the UI thread): the
// selected source topics, their watermarks, the group's committed offsets and
// members, and where each partition starts by the rule above.
JobProgress readJobProgress(const MirrorJobSpec &spec, int timeoutMs);

// `mirrordesk reset`: where progress would be rewritten to.
struct ResetRequest {
    enum class To { Earliest, Latest, Timestamp };
    To to = To::Earliest;
    QDateTime timestamp;  // To::Timestamp
    QString topicPattern; // empty: every selected topic; else a regex matched against whole source topic names
};
// The current progress with `start` set to the reset position (reason Reset).
JobProgress planReset(const MirrorJobSpec &spec, const ResetRequest &request, int timeoutMs);

struct ResetOutcome {
    bool ok = false;
    QString error; // refused ("group mirror-x has 2 active members: ...") or failed
    int partitionsWritten = 0;
};
// Writes plan's `start` offsets as the group's committed offsets. Refused while
// the group has active members, like kafka-consumer-groups --reset-offsets.
ResetOutcome applyReset(const MirrorJobSpec &spec, const JobProgress &plan, int timeoutMs);

} // namespace md
