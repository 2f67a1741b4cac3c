#pragma once

#include "engine/mirror/MirrorJobSpec.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>

namespace md {

struct VerifyOptions {
    // Only source topics whose whole name matches (on top of the job's own selection). Empty: all.
    QString topicFilter;
    int connectTimeoutMs = 15000;
    // A read that makes no progress for this long ends the run as "cannot compare".
    int idleTimeoutMs = 30000;
    // Source records remembered per partition (about 40 bytes each) to recognise
    // an at-least-once replay on the target: a replay that jumps back further
    // than this is reported as a difference.
    int replayWindow = 200000;
    // Set from another thread to end the run: the reads check it at least
    // every 200 ms, connecting to the clusters about every second, and the
    // report says cancelled. Null: not cancellable.
    const std::atomic_bool *cancel = nullptr;
    // Records of the source partition compared so far, from the verifying
    // thread, at most every progressIntervalMs while a partition is read.
    std::function<void(const QString &sourceTopic, int partition, qint64 compared)> onProgress;
    int progressIntervalMs = 100;
    // Once, from the verifying thread, when both clusters answered: the verdicts the run sets out to give.
    std::function<void(int plannedPartitions)> onPlanned;
};

// The outcome for one source partition (or one whole topic when its target
// topic is missing: partition is then -1).
struct PartitionVerdict {
    enum class Status {
        Match,               // the target holds exactly the source's records, in order
        MatchWithDuplicates, // the same, with runs replayed after an at-least-once restart
        Different,
    };

    QString sourceTopic;
    QString targetTopic;
    int partition = -1;
    Status status = Status::Match;
    qint64 sourceCount = 0;                 // records of the source compared (the mirrored range both sides still hold)
    qint64 targetCount = 0;                 // records of the target compared, duplicates included
    qint64 duplicates = 0;                  // target records that repeat an earlier stretch (MatchWithDuplicates)
    qint64 firstDuplicateSourceOffset = -1; // the first of them: the source record it repeats
    qint64 firstDuplicateTargetOffset = -1; // and where the repeat is on the target
    qint64 sourceSkipped = 0;               // source records before the job's start position (start: latest/timestamp)
    // When a log start moved (retention, DeleteRecords), only what both sides
    // still hold is compared; these are left out, and trimNote says what was
    // trimmed where and why ("target log starts at 205: removed by the
    // target's retention.ms=604800000; ..."). Empty/0 when nothing was.
    qint64 trimmedFromTarget = 0; // source records of the range gone from the target's log
    qint64 trimmedFromSource = 0; // target records whose originals are gone from the source's log
    QString trimNote;
    // First difference: source and target offsets (-1 when that side has no record there)
    // and what differs ("value differs", "missing on the target", ...).
    qint64 sourceOffset = -1;
    qint64 targetOffset = -1;
    QString difference;
    // SHA-256 over key, value, headers and timestamp of every record in order
    // (on the target, replayed duplicates left out); equal when the partition matches.
    QByteArray sourceDigest;
    QByteArray targetDigest;

    bool matches() const { return status != Status::Different; }
    QString location() const; // "orders[2] -> eu.orders[2]"
    QString toString() const; // one line for the command's output

    bool operator==(const PartitionVerdict &) const = default;
};

// The delivery guarantee decides what a duplicate is: an at-least-once replay
// is allowed (MatchWithDuplicates); for an exactly-once job it breaks the
// guarantee, so a partition that otherwise matches becomes Different
// ("exactly-once job: N duplicates"). True when it changed the verdict.
bool judgeDuplicates(PartitionVerdict &v, DeliveryGuarantee delivery);

struct VerifyReport {
    bool completed = false;    // false: could not compare (error says why) or cancelled
    bool cancelled = false;    // VerifyOptions::cancel was set before the run ended
    int plannedPartitions = 0; // verdicts the run set out to give (a missing target topic counts once)
    QString error;
    QStringList warnings;
    QList<PartitionVerdict> partitions;                          // in topic, partition order
    DeliveryGuarantee delivery = DeliveryGuarantee::AtLeastOnce; // the job's
    qint64 exactlyOnceDuplicates = 0;                            // of the partitions judgeDuplicates failed

    const PartitionVerdict *firstDifference() const;
    // 0: every mirrored partition matches; 1: a difference; 2: could not compare (or cancelled).
    int exitCode() const;
    QString summary() const;
};

// Compares a job's source partitions with their copies on the target, record by
// record, streaming both sides (memory stays bounded). Blocking: run it on a
// worker thread or from a headless command, never on the UI thread.
//
// The mirrored range of a source partition starts at its low watermark
// (start: committed or earliest), at the first offset at or after the start
// timestamp (start: timestamp), or at the source record equal to the target's
// first record (start: latest), and ends at the source's end offset when the
// run begins. The target partition is read from its low watermark.
//
// A log whose start moved (retention, DeleteRecords) is compared on the range
// both sides still hold. Target trimmed: the compared range starts at the
// source record equal to the target's first record; the source records before
// it are what the target removed, which its log start offset bounds (the
// target removed that many offsets, so at most that many records): more
// source records before it are reported as missing. Source trimmed: the
// compared range starts at the target's copy of the source's first record, the
// target records before it likewise bounded by the source's log start. Gaps
// and changes inside the compared range are differences as always. Records are
// matched by content and order, not by offset, because the target's offsets
// differ from the source's (transaction markers, compaction). Both sides are
// read with read_committed through assign() (no group membership, no commits).
// Verify a job that is caught up or stopped: records still on their way show
// up as missing.
class Verifier final {
public:
    using PartitionCallback = std::function<void(const PartitionVerdict &)>;

    Verifier(MirrorJobSpec spec, VerifyOptions options = {});

    // onPartition sees each verdict as soon as it is known.
    VerifyReport run(const PartitionCallback &onPartition = {});

private:
    MirrorJobSpec m_spec;
    VerifyOptions m_options;
};

} // namespace md
