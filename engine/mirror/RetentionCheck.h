#pragma once

// `check`'s warning for mirroring history: a source topic whose oldest records
// are already older than the target topic's retention. The target appends
// them with their CreateTime and its retention deletes them at its next
// retention pass: the copy looks done and holds nothing of the past.

#include "engine/mirror/MirrorJobSpec.h"
#include "engine/mirror/MirrorPlan.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace md {

// What a target topic keeps, for one mirrored topic.
struct TargetRetention {
    qint64 retentionMs = -1;    // -1: forever (or unknown, see known)
    bool known = false;         // false: could not be read (problem says why)
    bool deletes = true;        // cleanup.policy includes delete
    bool logAppendTime = false; // message.timestamp.type=LogAppendTime: arrival time counts, not CreateTime
    QString origin;             // "" (the topic's own), "the target's default", "copied from the source topic"
};

struct RetentionFinding {
    QString sourceTopic;
    QString targetTopic;
    bool targetExists = false;
    qint64 oldestTimestamp = -1; // of the records at the log starts, the oldest; -1: no record
    int oldestPartition = -1;
    QString timestampType; // of that record: "CreateTime", "LogAppendTime"
    TargetRetention target;
    QString warning; // empty: nothing to warn about

    bool operator==(const RetentionFinding &) const = default;
};

struct RetentionCheckResult {
    QList<RetentionFinding> topics; // in plan order
    QStringList problems;           // what could not be read (the check is then incomplete)

    QStringList warnings() const;
};

// Pure: fills finding.warning when records as old as finding.oldestTimestamp
// are older than the target's retention at nowMs.
void judgeRetention(RetentionFinding &finding, qint64 nowMs);

// "7 days", "36 hours", "90 minutes", "1500 ms".
QString durationText(qint64 ms);

// Blocking (headless commands and worker threads, never the UI thread), each
// cluster request bounded by timeoutMs: for the plan's mirrored and created
// topics, reads the timestamp of the record at each source partition's log
// start and the retention the target topic has (existing topic: its
// DescribeConfigs; created topic: the configs the job sets, else the target
// broker's defaults), and judges each.
RetentionCheckResult checkRetention(const MirrorJobSpec &spec, const MirrorPlan &plan, int timeoutMs);

} // namespace md
