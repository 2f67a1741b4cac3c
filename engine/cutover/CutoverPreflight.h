#pragma once

#include "engine/groupsync/GroupOffsetSync.h"
#include "engine/mirror/MirrorJobSpec.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace md {

// One line of the drift report: what would block a cutover (with its fix), or
// what an operator should know before starting one.
struct CutoverFinding {
    enum class Severity { Blocker, Warning, Info };
    Severity severity = Severity::Info;
    QString subject; // "topic orders", "group billing", "schemas", "fence", ...
    QString text;
    QString fix; // for a blocker or a warning: what to do about it
};
QString cutoverSeverityName(CutoverFinding::Severity s); // "BLOCKER", "warning", "info"

// What the cutover is asked to do besides the steps every cutover takes.
struct CutoverOptions {
    QStringList fencePrincipals; // DENY WRITE for these ("User:alice"); "User:*" fences everyone
    QString groupPattern;        // --groups: besides (or without) the profile's "groups"
    int timeoutS = 300;          // for each waiting step (fence settle, drain)
    int settleS = 5;             // the source's ends must stand still this long after the fence
    bool dryRun = false;         // the preflight only
    bool fences() const { return !fencePrincipals.isEmpty(); }
};

// "alice" -> "User:alice", "*" -> "User:*"; nullopt with *error for a bad name.
std::optional<QString> normalizedPrincipal(const QString &name, QString *error);

struct CutoverPreflight {
    bool ok = false; // both clusters answered; false with error
    QString error;
    QList<CutoverFinding> findings;
    QStringList sourceTopics; // the mirrored source topics, sorted
    CopyLag lag;              // the copy's lag when the report was made
    int groupsSelected = 0;
    bool blocked() const;
    int count(CutoverFinding::Severity s) const;
};

// Blocking (a task or a headless command; never the UI thread): both clusters,
// the offset map, the registries and the ACLs, read once.
CutoverPreflight runCutoverPreflight(const MirrorJobSpec &spec, const CutoverOptions &options, int timeoutMs);

} // namespace md
