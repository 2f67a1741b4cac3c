#pragma once

#include "engine/mirror/MirrorJobSpec.h"
#include "engine/offsetmap/OffsetMap.h"

#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <atomic>
#include <chrono>

namespace md::groupadmin {
struct Clients;
}

namespace md {

// Consumer-group offset sync: the committed offsets of selected SOURCE groups,
// translated through the job's offset map (OffsetMap.h), written as the same
// groups' offsets on the TARGET, so a consumer that moves to the target
// continues with the record it would have read next on the source. Used by
// the running job (periodically, GroupSyncRunner) and by `mirrordesk failover`.
//
// Rules: a group is written only while it has no active members on the
// target (asked again right before writing); a target offset is never moved
// backwards unless the plan allows rewinds; a source offset the map cannot
// translate exactly is written only when the caller allows partial sync (then
// at where the copy stands), never when the map knows nothing of it.

// Which source groups a job syncs: spec.groupsInclude / groupsExclude, and an
// optional extra regex (the command line's --groups) that must match too; when
// the spec lists no group the extra regex alone selects. The job's own group
// and every "mirrordesk-*" / "mirrordesk.*" group (jobs' groups) never are.
class GroupFilter final {
public:
    GroupFilter(const MirrorJobSpec &spec, const QString &extraPattern = {});
    bool isValid() const { return m_error.isEmpty(); }
    QString error() const { return m_error; } // names the bad regex
    bool selects(const QString &group) const;
    bool selectsAny() const { return !m_include.isEmpty() || m_hasExtra; }

private:
    QList<QRegularExpression> m_include, m_exclude;
    QRegularExpression m_extra;
    bool m_hasExtra = false;
    QString m_ownGroup;
    QString m_error;
};

struct GroupSyncOptions {
    QString groupPattern;      // the extra regex of GroupFilter, empty: none
    bool allowRewind = false;  // move a target offset backwards to the translation
    bool allowPartial = false; // NotCopied offsets go to where the copy stands (the covered end's target offset)
    const std::atomic<bool> *cancel = nullptr; // when set, calls give up within ~100 ms
    // Connections kept by the caller across plans and applies (null: each call
    // opens its own). Same clusters and cancel flag every time; drop them after
    // a failed call so the next one connects afresh.
    groupadmin::Clients *clients = nullptr;
};

enum class GroupSyncAction {
    Write,               // the target group's offset is set to the translation
    AlreadyThere,        // it is there already
    SkipWouldRewind,     // the target group is ahead of the translation (no allowRewind)
    SkipActiveMembers,   // the target group has active members
    SkipNotTranslatable, // the map cannot place this offset (Unknown, BeforeMap, NotCopied without partial)
};
QString groupSyncActionName(GroupSyncAction action); // "write", "already-there", "skip-would-rewind", ...

struct GroupPartitionSync {
    QString topic; // source topic
    int partition = -1;
    QString targetTopic;         // where the map put its records
    qint64 sourceCommitted = -1; // the source group's committed offset
    qint64 sourceEnd = -1;       // the source partition's end (read_committed), -1 unknown
    OffsetTranslation translation;
    qint64 targetCurrent = -1; // the target group's committed offset now, -1 none
    qint64 readAgain = 0;      // records the group reads again on the target (NotCopied: past the copy)
    qint64 neverReached = -1;  // sourceEnd - covered: records not on the target yet, -1 unknown
    GroupSyncAction action = GroupSyncAction::SkipNotTranslatable;
    QString note; // why skipped, or what a partial write means

    // The target offset written (Write) or confirmed (AlreadyThere); -1 otherwise.
    qint64 syncedOffset() const;
};

// Pure: translation, readAgain, neverReached, action and note of one partition
// from its source offset, the map and the target group's state.
void decidePartition(GroupPartitionSync *p, const PartitionOffsetMap *map, bool targetActive, bool allowRewind,
                     bool allowPartial);
// A source partition that holds no record (log start = end) and so is not in
// the map: a group at its end reads next what is produced next, which on the
// target comes at the target partition's end.
void decideEmptyPartition(GroupPartitionSync *p, const QString &targetTopic, qint64 targetEnd, bool targetActive,
                          bool allowRewind);
// The action for a translated partition: write, already there, or why not.
void decideAction(GroupPartitionSync *p, bool targetActive, bool allowRewind);

struct GroupSyncEntry {
    QString group;
    QString sourceState;                  // as ListConsumerGroups reports it
    QString targetState;                  // "Empty", "Stable", ...; "Dead": no such group on the target yet
    QStringList targetMembers;            // "client-id on host"
    QList<GroupPartitionSync> partitions; // mirrored partitions with a committed offset, by topic and partition
    bool targetActive() const;
    int count(GroupSyncAction action) const;
};

// True when a group with this state and members counts as active (it may commit).
bool groupStateActive(const QString &state, const QStringList &members);

struct GroupSyncPlan {
    bool ok = false;
    // When the target's group states and offsets were read (steady clock;
    // default: never). applyGroupSync reads them again unless they are fresh.
    std::chrono::steady_clock::time_point targetReadAt;
    QString error;                // why not ok, naming the cluster and the call
    GroupSyncOptions options;     // what the plan was made with (applyGroupSync honours it)
    int groupsListed = 0;         // source groups seen
    QList<GroupSyncEntry> groups; // selected groups with mirrored partitions, by name
    int count(GroupSyncAction action) const;
};

// Blocking (engine threads and headless commands; never the UI thread).
GroupSyncPlan planGroupSync(const MirrorJobSpec &spec, const OffsetMap &map, const GroupSyncOptions &options,
                            int timeoutMs);

struct GroupSyncOutcome {
    struct Failure {
        QString group;
        QString topic; // empty: the whole group
        int partition = -1;
        QString error;
    };
    bool ok = false; // every "write" partition was written
    QString error;   // a call failed as a whole
    int groupsWritten = 0;
    int partitionsWritten = 0;
    QStringList writtenGroups;
    QStringList refused;          // "group (Stable: member on host)": became active since the plan
    bool targetReadAgain = false; // the plan was not fresh: states and offsets were read again
    QList<Failure> failures;      // per partition or per group
};

// Writes the plan's "write" partitions (AlterConsumerGroupOffsets on the
// target), one request per group, concurrently. Unless the plan's target
// answers are younger than kFreshPlanMs, asks the target again first: a group
// that became active is refused; an offset that moved ahead since the plan is
// not rewound (unless the plan allows it). A plan that fresh (the running sync
// writes right after planning) is as current as a second read would be, which
// takes longer than that itself; one shown to an operator first (failover) is not.
constexpr int kFreshPlanMs = 250;
GroupSyncOutcome applyGroupSync(const MirrorJobSpec &spec, const GroupSyncPlan &plan, int timeoutMs);

// How far the copy is: per mirrored source partition, its end (read_committed)
// against the map's covered end. What `failover` waits for.
struct CopyLag {
    struct Partition {
        QString topic;
        int partition = -1;
        qint64 logStart = -1;
        qint64 end = -1;
        qint64 covered = -1; // -1: the map knows nothing of it
        qint64 lag = 0;      // end - covered (end - logStart when the map knows nothing)
    };
    bool ok = false;
    QString error;
    QList<Partition> partitions; // by topic, then partition
    qint64 total() const;
    QList<Partition> behind() const; // lag > 0
};
// Pure part: the lag of one partition.
qint64 copyLagOf(qint64 logStart, qint64 end, const PartitionOffsetMap *map);
CopyLag readCopyLag(const MirrorJobSpec &spec, const OffsetMap &map, int timeoutMs);

// The map topic of the job (the profile's, else defaultOffsetMapTopic of its group).
QString offsetMapTopicOf(const MirrorJobSpec &spec);

} // namespace md
