#pragma once

#include <QStringList>
#include <QTextStream>

namespace md {

// Headless subcommands. `args` are the arguments after the subcommand's name;
// normal output goes to `out`, problems to `err`; the return value is the exit code.

// mirrordesk verify FILE [--topic REGEX] [--timeout SECONDS]
// 0: every mirrored partition matches (duplicates from an at-least-once replay
// are a warning), 1: a difference (the first one is named), 2: could not
// compare (bad arguments or profile, unreachable cluster, read timeout).
int runVerifyCommand(const QStringList &args, QTextStream &out, QTextStream &err);

// mirrordesk check FILE
// 0: the profile is valid and both clusters answered; 1: the profile has errors,
// or the job would fail on these clusters (a target topic with fewer partitions
// than its source, a missing one with createTopics off); 2: a cluster could not
// be reached within 20 seconds (bad arguments too).
int runCheckCommand(const QStringList &args, QTextStream &out, QTextStream &err);

// mirrordesk reset FILE --to earliest|latest|TIME [--topic REGEX] [--dry-run]
// Rewrites the job group's committed offsets (every selected partition gets one).
// 0: done (or a dry run), 1: refused (the group has active members) or failed,
// 2: bad arguments or profile.
int runResetCommand(const QStringList &args, QTextStream &out, QTextStream &err);

// mirrordesk failover FILE [--groups REGEX] [--max-lag N] [--timeout SECONDS] [--allow-rewind] [--dry-run]
// Waits for the copy, then writes the selected source groups' offsets, translated
// through the job's offset map, on the target. 0: done (or a dry run that would
// succeed), 1: refused (active members on the target) or incomplete (not caught
// up in time, offsets that cannot be translated), 2: could not run.
int runFailoverCommand(const QStringList &args, QTextStream &out, QTextStream &err);

// mirrordesk cutover FILE [--dry-run] [--fence-principals P1,P2 | --fence-all] [--groups REGEX]
//                         [--timeout S] [--settle S] [--report FILE] | --rollback [--no-restart]
// The guided switch (engine/cutover/Cutover.h): preflight, fence, drain, groups, stop.
// 0: done (a dry run without blockers), 1: blocked, refused, not in time or
// interrupted (resumable), 2: could not run.
int runCutoverCommand(const QStringList &args, QTextStream &out, QTextStream &err);

// mirrordesk reverse FILE --output FILE2 [--dry-run] [--force]
// Failback: writes the reverse job (target -> source) and its start positions
// from the offset map, so what came from the source is not copied back.
// 0: written (or a dry run), 1: refused or failed, 2: bad arguments or profile.
int runReverseCommand(const QStringList &args, QTextStream &out, QTextStream &err);

// mirrordesk acl list|check|create|delete FILE [--side source|target] ...
// ACL bindings of one of a profile's clusters (AclCommand.cpp has the usage).
// 0: done (check: allowed), 1: check denied, or the broker refused, 2: could not run.
int runAclCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace md
