#pragma once

#include "engine/acl/Acl.h"
#include "engine/mirror/MirrorJobSpec.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace md {

// Which target bindings a job's ACL sync wants, and what it changes to get there.
//
// A source binding follows to the target when it names
// - a mirrored topic (LITERAL): renamed as the topic is (targetTopicName);
// - a prefix (PREFIXED TOPIC) that some mirrored topic begins with, under
//   identity or prefix naming (a template cannot rename a prefix: noted);
// - a selected consumer group (LITERAL GROUP, by the job's groups selection),
//   or a prefix that selection selects read as a group name (PREFIXED GROUP).
// "*" resources, the cluster and transactional ids stay: they would grant on
// every target topic or the target itself, not on what the job mirrors.
// Safe mode (the default) follows MirrorMaker 2: mirrored topics are written
// only by the mirror, so ALLOW WRITE on a topic does not follow and ALLOW ALL
// on a topic becomes ALLOW READ; DENY and group bindings follow as they are.
// Exact mode copies every binding as it is (a migration's cutover).
//
// It only ever deletes what it created: `made` is the record of the bindings
// earlier passes created (AclSyncRecords), and a binding already on the target
// that it did not create is left alone whatever the source does.
struct AclSyncInput {
    QList<AclEntry> source;   // every binding of the source cluster
    QList<AclEntry> target;   // every binding of the target cluster
    QList<AclEntry> made;     // created by this job's earlier passes, still recorded
    QStringList sourceTopics; // every topic of the source cluster (for prefixes)
};

struct AclSyncPlan {
    QList<AclEntry> wanted; // every target binding the source's imply
    QList<AclEntry> create; // wanted, not on the target
    QList<AclEntry> remove; // made by the job, no longer wanted, still on the target
    QList<AclEntry> forget; // made by the job, no longer wanted, already gone: drop the record
    QStringList notes;      // what did not follow and why (one line each, for check and events)
};

// The target binding a source binding implies, if any; *note says why none
// when a binding that names what the job mirrors does not follow.
class GroupFilter;
// `groups`: the job's group selection, made once by a caller that asks for many (null: made here).
std::optional<AclEntry> targetAclOf(const MirrorJobSpec &spec, const AclEntry &source, const QStringList &sourceTopics,
                                    QString *note = nullptr, const GroupFilter *groups = nullptr);
AclSyncPlan planAclSync(const MirrorJobSpec &spec, const AclSyncInput &input);
// "<map topic's stem>.acl-sync": the compacted topic on the target where a job
// records the bindings it created (AclSyncRecords). Never mirrored.
QString aclSyncRecordsTopicOf(const MirrorJobSpec &spec);

} // namespace md
