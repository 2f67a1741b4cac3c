#pragma once

#include "engine/acl/Acl.h"
#include "engine/groupsync/GroupOffsetSync.h"
#include "engine/mirror/MirrorJobSpec.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace md {

// The parts of a cutover's report (JSON, `--report FILE`), made as the steps
// end and kept with its state, so that a resumed cutover reports the whole.

// Per group: where each partition resumes on the target.
QJsonArray cutoverGroupsJson(const QList<GroupSyncEntry> &groups);
// Per mirrored topic: partitions, the source's end offsets and what is not copied.
QJsonArray cutoverTopicsJson(const MirrorJobSpec &spec, const CopyLag &lag);
QJsonArray cutoverFenceJson(const QList<AclEntry> &fence);
// What the applications switch to: the target's bootstrap, security settings
// and registry, never a secret.
QJsonObject cutoverSwitchJson(const ClusterConfig &target);

// The summary an operator reads at the end (the same facts as the JSON).
QString cutoverReportText(const QJsonObject &report);

} // namespace md
