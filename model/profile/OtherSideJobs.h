#pragma once

#include "engine/mirror/MirrorJobSpec.h"
#include "engine/offsetmap/OffsetLookup.h"

#include <QList>
#include <QString>

namespace md {

// A job that connects the two clusters shown and copies a record's topic:
// forward when the record's cluster is the job's source, back (the map read
// in reverse) when it is the job's target.
struct OtherSideCandidate {
    MirrorJobSpec spec;
    LookupDirection direction = LookupDirection::SourceToTarget;
};

// The jobs of `jobs`, in their order, that copy `topic` of cluster `own` to
// or from cluster `other`. None: *whyNone says why in plain words.
QList<OtherSideCandidate> otherSideCandidates(const QList<MirrorJobSpec> &jobs, const ClusterConfig &own,
                                              const ClusterConfig &other, const QString &topic, QString *whyNone);

} // namespace md
