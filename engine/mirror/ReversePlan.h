#pragma once

#include "engine/mirror/JobProgress.h"
#include "engine/mirror/MirrorJobSpec.h"
#include "engine/offsetmap/OffsetMap.h"

#include <QString>

namespace md {

// Failback (`mirrordesk reverse`): the job that copies the target back to the
// source, built from a forward job.
//  - The clusters swap, aliases with them; include/exclude stay (the topics
//    applications write on the target keep their names).
//  - Prefix naming stays prefix: the reverse job writes "<target alias>.<topic>"
//    on the source and never takes "<source alias>.*" topics (they came from
//    the source): loop-safe even with both jobs running.
//  - Identity naming stays identity: what the forward job copied must not go
//    back, so each partition the forward job filled starts after the last
//    record it copied there (from the offset map). Both jobs running at once
//    would copy each other's records back and forth: the forward job must be
//    stopped first.
//  - Template naming cannot be inverted in general: refused.
struct ReverseJob {
    bool ok = false;
    QString error;
    MirrorJobSpec spec; // the reverse job (for planning; the profile is written by the caller)
};
ReverseJob reverseSpec(const MirrorJobSpec &forward);

// Where each partition of the reverse job starts. Partitions the forward job
// filled (per the forward map) start after its last copied record: only what
// applications wrote on the target since then goes back. Others start at the
// log start. The plan's reason is Reset; `committed` is the reverse group's
// current progress (normally none).
JobProgress planReverseStart(const MirrorJobSpec &forward, const MirrorJobSpec &reverse, const OffsetMap &forwardMap,
                             int timeoutMs);

} // namespace md
