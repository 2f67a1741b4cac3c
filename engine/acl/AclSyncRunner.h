#pragma once

#include "engine/acl/AclSync.h"
#include "engine/core/PeriodicRunner.h"
#include "engine/mirror/MetricsSnapshot.h"
#include "engine/mirror/MirrorJobSpec.h"

#include <atomic>
#include <functional>
#include <memory>

namespace md {

class AdminService;
class AclSyncRecords;

// One round of a job's ACL sync (AclSync.h): reads both clusters' bindings and
// the record of what the job created, plans, and (apply) records, creates and
// deletes, in that order, so a crash between two steps leaves a record the
// next round settles. `check` runs it without applying.
struct AclSyncRound {
    enum class Stop { No, NoTargetAuthorizer, NoTargetAlter }; // the job runs on without ACL sync
    bool ok = false;
    QString error;
    Stop stop = Stop::No;
    bool sourceHasAuthorizer = true;
    AclSyncPlan plan;
    QList<AclEntry> created, removed;
};
AclSyncRound runAclSyncRound(const MirrorJobSpec &spec, AdminService &source, AdminService &target,
                             AclSyncRecords &records, bool apply);

// The running job's ACL sync: a round at once, then every aclSyncIntervalMs,
// on its own thread (PeriodicRunner, as GroupSyncRunner), off the record path.
// A job event for each binding created or deleted; a target without an
// authorizer or without ALTER on the cluster is reported once and the job
// runs on without ACL sync.
class AclSyncRunner final {
public:
    using EventSink = std::function<void(const JobEvent &)>;

    AclSyncRunner(MirrorJobSpec spec, EventSink events);
    ~AclSyncRunner(); // stop() + finish(1000)
    AclSyncRunner(const AclSyncRunner &) = delete;
    AclSyncRunner &operator=(const AclSyncRunner &) = delete;

    static bool wanted(const MirrorJobSpec &spec) { return spec.syncAcls; }

    void start();
    void stop(); // asks; returns at once (any thread)
    void finish(int timeoutMs);

private:
    struct Shared;
    std::shared_ptr<Shared> m_shared;
    PeriodicRunner m_runner{QStringLiteral("acl-sync")};
};

} // namespace md
