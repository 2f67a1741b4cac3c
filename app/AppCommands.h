#pragma once

#include <QStringList>
#include <QTextStream>

namespace md {

// `mirrordesk run FILE [--until-caught-up] [--sandbox] [--metrics-port N] [--instance-id NAME]`
// 0: a clean stop (or caught up), 1: the job failed, 2: bad arguments or profile.
int runRunCommand(const QStringList &args, QTextStream &out, QTextStream &err);

// `mirrordesk lag FILE (--group ID ... | --groups REGEX) [--side source|target] [--interval S]
// [--once] [--metrics-port N [--metrics-address ADDR]]`: consumer groups of any type (classic,
// KIP-848 consumer, KIP-932 share) watched headless, a line per group and poll, Prometheus
// mirrordesk_group_* series. 0: stopped by a signal (--once: every group read), 1: a group
// could not be read (--once) or none matched, 2: bad arguments, profile or cluster.
int runLagCommand(const QStringList &args, QTextStream &out, QTextStream &err);

// The GUI: `mirrordesk [FILE...]` and `mirrordesk --sandbox`. Unless newInstance
// (or sandbox), a running instance gets the files instead.
int runGui(int argc, char **argv, const QStringList &files, bool sandbox, bool newInstance);

} // namespace md
