#pragma once

// MM2-format checkpoints: what MirrorMaker 2's checkpoint connector writes to
// `<source alias>.checkpoints.internal` on the target, so applications that
// call MM2's RemoteClusterUtils.translateOffsets(props, alias, group) find the
// offsets MirrorDesk's exact translation gives (docs/ARCHITECTURE.md,
// "MM2-format checkpoints").
//
// MM2's record (org.apache.kafka.connect.mirror.Checkpoint, Kafka protocol
// types: big-endian integers, STRING = int16 byte length + UTF-8):
//   key   = group STRING, topic STRING, partition INT32
//   value = version INT16 (0), upstreamOffset INT64, offset INT64, metadata STRING
// The topic is the DOWNSTREAM (target) topic: MirrorCheckpointTask renames it
// before writing and MirrorClient.remoteConsumerOffsets returns it as it is, so
// any naming policy reads back right. MM2 writes partition 0 only and reads
// only partition 0.

#include "engine/mirror/MirrorJobSpec.h"
#include "engine/mirror/TopicNaming.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>

namespace md {

struct GroupSyncPlan;

struct Mm2Checkpoint {
    QString group;
    QString topic; // the target topic
    int partition = -1;
    qint64 upstreamOffset = -1;   // the source group's committed offset
    qint64 downstreamOffset = -1; // its exact translation on the target
    QString metadata;             // MM2 copies the source commit's; never null in its schema

    bool operator==(const Mm2Checkpoint &) const = default;
};

// The checkpoints topic's name (mm2CheckpointsTopic) is with the other names, in
// engine/mirror/TopicNaming.h.

// Bytes in MM2's layout; nullopt when a string does not fit an int16 length.
std::optional<QByteArray> mm2CheckpointKey(const Mm2Checkpoint &c);
std::optional<QByteArray> mm2CheckpointValue(const Mm2Checkpoint &c);
// The inverse, strict (tests): nullopt for bad lengths, another version or
// trailing bytes.
std::optional<Mm2Checkpoint> parseMm2Checkpoint(const QByteArray &key, const QByteArray &value);

// Pure: one checkpoint per planned group partition whose source offset has an
// exact translation (Exact, Gap or End: the offsets group sync writes without
// guessing), whatever the target group's state. MM2 too checkpoints a group
// that is active on the target: checkpoints say where the source group is.
QList<Mm2Checkpoint> checkpointsOfPlan(const GroupSyncPlan &plan);

// Writes checkpoints with a producer of its own on the target (the job's
// producer belongs to the worker thread). Creates the topic when missing:
// one partition, compacted, the cluster's default replication factor, as
// MM2 does. Blocking: GroupSyncRunner's thread only.
class Mm2CheckpointWriter final {
public:
    explicit Mm2CheckpointWriter(const MirrorJobSpec &spec);
    ~Mm2CheckpointWriter();
    Mm2CheckpointWriter(const Mm2CheckpointWriter &) = delete;
    Mm2CheckpointWriter &operator=(const Mm2CheckpointWriter &) = delete;

    struct Result {
        bool ok = false;
        QString error; // names the topic and the cause
        int written = 0;
        int unchanged = 0; // the same as the last one acknowledged: not written again
    };
    // Records every checkpoint that differs from the last one acknowledged for
    // its group and partition (compaction keeps the last per key, so a repeat
    // adds nothing), and waits for their acknowledgements.
    Result write(const QList<Mm2Checkpoint> &checkpoints, int timeoutMs, const std::atomic<bool> *cancel);

private:
    struct State;
    std::unique_ptr<State> d;
};

} // namespace md
