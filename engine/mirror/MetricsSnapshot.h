#pragma once

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>

#include <cstdint>

namespace md {

enum class JobState { Starting, Running, Paused, Stopping, Stopped, Failed };

QString jobStateName(JobState s);

// One partition of a running mirror job, as seen at one sampling tick.
// Offsets are -1 when unknown; committedOffset is -1 when the group has no
// committed offset (shown as such, never as zero).
struct PartitionMetrics {
    QString topic;       // source topic
    QString targetTopic; // name on the target
    int partition = -1;
    qint64 logStartOffset = -1; // source low watermark
    qint64 endOffset = -1;      // source high watermark
    qint64 nextOffset = -1;     // next source offset to mirror (acknowledged by the target)
    qint64 committedOffset = -1;
    qint64 lag = -1;                   // endOffset - nextOffset, -1 when unknown
    qint64 records = 0;                // copied since the job started (acknowledged by the target)
    qint64 bytes = 0;                  // key + value + headers
    qint64 lastSourceTimestampMs = -1; // timestamp of the newest record acknowledged
    // Records that vanished from the source before the job copied them
    // (retention, DeleteRecords), counted since this instance started.
    qint64 vanishedRecords = 0;
    bool paused = false; // by the user or the throttle
    bool caughtUp = false;
    // Lag in time (LagTime.h): the timestamp of the next record to copy or
    // read (at nextOffset; a group's at its committed offset), -1 unknown;
    // now minus it, 0 when caught up, -1 unknown.
    qint64 nextTimestampMs = -1;
    qint64 lagMs = -1;
    QString timestampType;        // the source topic's message.timestamp.type, empty: unknown
    double catchUpSeconds = -1;   // -1 unknown, kCatchUpNever: the backlog does not shrink
    qint64 retentionMs = -1;      // the source topic's retention.ms, -1 forever or unknown
    bool retentionAtRisk = false; // the next record is about to be removed by retention
};

// One source consumer group whose offsets the running job syncs to the
// target (GroupSyncRunner), as of its last sync pass.
struct GroupSyncMetrics {
    QString group;
    int partitions = 0;           // mirrored partitions the source group has committed offsets for
    int partitionsTranslated = 0; // whose target offset is now where the translation says
    qint64 lag = -1;              // records the target group is behind the source group, -1 unknown
    QDateTime lastSync;           // when its offsets were last written or confirmed (UTC), invalid: never
    QString skipReason;           // why some partitions are not synced, empty: none

    bool operator==(const GroupSyncMetrics &) const = default;
};

struct LatencyStats {
    double p50Ms = -1; // replication latency: target ack time - source record timestamp
    double p99Ms = -1;
    double maxMs = -1;
    qint64 samples = 0;
};

// One immutable sample of a job, emitted by value every sampling interval.
struct MetricsSnapshot {
    QString jobName;
    QString instanceId;   // static membership id, empty for a dynamic member
    QString memberId;     // this instance's member id in the job's group (empty before it joined)
    QDateTime time;       // when the sample was taken (UTC)
    qint64 elapsedMs = 0; // since the job started
    JobState state = JobState::Starting;
    qint64 recordsConsumed = 0; // totals since start
    qint64 recordsProduced = 0; // acknowledged by the target
    qint64 bytesConsumed = 0;
    qint64 bytesProduced = 0;
    double consumeRecordsPerSec = 0; // over the last interval
    double produceRecordsPerSec = 0;
    double consumeBytesPerSec = 0;
    double produceBytesPerSec = 0;
    qint64 totalLag = 0;   // sum of known partition lags
    qint64 lagTimeMs = -1; // newest source timestamp minus newest mirrored timestamp, -1 unknown
    qint64 inFlight = 0;   // produced, not yet acknowledged
    LatencyStats latency;  // over the last interval
    qint64 throttleBytesPerSecond = 0;
    bool caughtUp = false;      // every assigned partition has lag 0
    qint64 vanishedRecords = 0; // sum of the partitions' vanishedRecords
    qint64 maxLagMs = -1;       // the largest partition lag in time, 0 caught up, -1 unknown
    double catchUpSeconds = -1; // the slowest partition's, -1 unknown, kCatchUpNever
    int retentionAtRisk = 0;    // partitions whose next record retention is about to remove
    QList<PartitionMetrics> partitions;
    QList<GroupSyncMetrics> groups; // group offset sync, by group (empty when the job syncs none)
};

// Something the operator should read: connection trouble, topics created, etc.
struct JobEvent {
    enum class Severity { Info, Warning, Error };
    QDateTime time;
    Severity severity = Severity::Info;
    QString text;
};

} // namespace md

Q_DECLARE_METATYPE(md::MetricsSnapshot)
Q_DECLARE_METATYPE(md::JobEvent)
