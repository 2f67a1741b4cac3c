#pragma once

#include "engine/acl/Acl.h"
#include "engine/mirror/MirrorJobSpec.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace md {

// What a job's ACL sync would create and delete on the target now: the round
// `mirrordesk check` prints (runAclSyncRound without applying, engine/acl/AclSyncRunner.h),
// as a value for the job editor's plan. Nothing is changed on either cluster.
struct AclSyncPreview {
    enum class State {
        Off,                // the profile does not sync ACLs: nothing was asked
        Ready,              // the round's plan
        NoTargetAuthorizer, // the job would run without ACL sync
        Failed              // a cluster refused or did not answer: not checked
    };
    State state = State::Off;
    QString error; // NoTargetAuthorizer, Failed
    MirrorJobSpec::AclSyncMode mode = MirrorJobSpec::AclSyncMode::Safe;
    int intervalMs = 0;
    QString recordsTopic;            // where the job records what it created (aclSyncRecordsTopicOf)
    bool sourceHasAuthorizer = true; // false: no binding to copy, what the job made goes
    qsizetype wanted = 0;            // target bindings the source's imply
    QList<AclEntry> create;          // wanted, not on the target
    QList<AclEntry> remove;          // made by the job, gone from the source, still on the target
    QStringList notes;               // what does not follow and why

    qsizetype changes() const { return create.size() + remove.size(); }
    // One sentence: the mode, the interval and the counts, or why there are none.
    QString summary() const;
    // The lines under the summary, in this order: "create <binding>", "delete
    // <binding> (made by this job, gone from the source)", then "note: ...".
    struct Line {
        enum class Kind { Create, Delete, Note };
        Kind kind;
        QString text;
    };
    QList<Line> lines() const;
};

// Blocking (a task, never the UI thread): both clusters' bindings, the source's
// topics and the job's record of what it made, then the plan. Off at once, with
// no request, when spec.syncAcls is false.
AclSyncPreview readAclSyncPreview(const MirrorJobSpec &spec, int timeoutMs);

} // namespace md
