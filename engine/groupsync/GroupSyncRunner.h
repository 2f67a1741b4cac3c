#pragma once

#include "engine/core/PeriodicRunner.h"
#include "engine/mirror/MetricsSnapshot.h"
#include "engine/mirror/MirrorJobSpec.h"

#include <QList>

#include <functional>
#include <memory>

namespace md {

// The running job's periodic group offset sync: every groupSyncIntervalMs it
// reads the offset map from the target and runs planGroupSync + applyGroupSync
// (no rewinds, partial allowed: a group past the copy goes to where the copy
// stands); with spec.emitCheckpoints it writes the plan's MM2-format
// checkpoints first (Mm2Checkpoints.h). Its own thread, off the record path;
// MirrorJob owns it next to the worker. Reports through `events` (called from
// its thread, so it must only post) and summary() (for the job's MetricsSnapshot).
class GroupSyncRunner final {
public:
    using EventSink = std::function<void(const JobEvent &)>;

    GroupSyncRunner(MirrorJobSpec spec, EventSink events);
    ~GroupSyncRunner(); // stop() + finish(1000)
    GroupSyncRunner(const GroupSyncRunner &) = delete;
    GroupSyncRunner &operator=(const GroupSyncRunner &) = delete;

    // True when the spec selects groups and syncs them or emits their MM2
    // checkpoints while running (either may be on without the other, as in MM2).
    static bool wanted(const MirrorJobSpec &spec);

    void start();
    void stop(); // asks; returns at once (any thread)
    // Waits up to timeoutMs for the thread. One still inside a Kafka call then is
    // left to end on its own: it reports nothing more and owns what it uses.
    void finish(int timeoutMs);

    QList<GroupSyncMetrics> summary() const; // any thread

private:
    struct Shared;
    std::shared_ptr<Shared> m_shared;
    PeriodicRunner m_runner{QStringLiteral("group-sync")}; // its rounds own a reference to m_shared
};

} // namespace md
