#pragma once

#include "MirrorJobSpec.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

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
    qint64 sourceCount = 0; // records in the mirrored range of the source
    qint64 targetCount = 0; // records read from the target, duplicates included
    qint64 duplicates = 0;  // target records that repeat an earlier stretch (MatchWithDuplicates)
    qint64 sourceSkipped = 0; // source records before the job's start position (start: latest/timestamp)
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

struct VerifyReport {
    bool completed = false; // false: could not compare (error says why)
    QString error;
    QStringList warnings;
    QList<PartitionVerdict> partitions; // in topic, partition order

    const PartitionVerdict *firstDifference() const;
    // 0: every mirrored partition matches; 1: a difference; 2: could not compare.
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
// run begins. The target partition is read from its low watermark. Records are
// matched by content and order, not by offset, because the target's offsets
// differ from the source's (transaction markers, compaction). Both sides are
// read with read_committed through assign() (no group membership, no commits).
// Verify a job that is caught up or stopped: records still on their way show
// up as missing.
class Verifier final
{
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
