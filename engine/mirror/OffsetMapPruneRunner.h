#pragma once

#include "engine/core/PeriodicRunner.h"
#include "engine/mirror/MetricsSnapshot.h"
#include "engine/mirror/MirrorJobSpec.h"

#include <functional>
#include <memory>

namespace md {

// The running job's pruning of its offset map (engine/offsetmap/OffsetMapPruner.h):
// a pass every spec.mapPruneIntervalMs (10 min), the first after one interval
// (a job's start is busy enough), on its own thread (PeriodicRunner, as the
// ACL and group syncs), off the record path. A pass that deletes something
// says so in the job's events; failed passes are said from the third in a row
// on (the map is only larger meanwhile, never wrong).
class OffsetMapPruneRunner final {
public:
    using EventSink = std::function<void(const JobEvent &)>;

    OffsetMapPruneRunner(MirrorJobSpec spec, EventSink events);
    ~OffsetMapPruneRunner(); // stop() + finish(1000)
    OffsetMapPruneRunner(const OffsetMapPruneRunner &) = delete;
    OffsetMapPruneRunner &operator=(const OffsetMapPruneRunner &) = delete;

    static bool wanted(const MirrorJobSpec &spec) { return spec.offsetMap && spec.mapPruneIntervalMs > 0; }

    void start();
    void stop(); // asks; returns at once (any thread)
    void finish(int timeoutMs);

private:
    struct Shared;
    std::shared_ptr<Shared> m_shared;
    PeriodicRunner m_runner{QStringLiteral("map-prune")};
};

} // namespace md
