#pragma once

#include <QStringList>
#include <QTextStream>

namespace md {

// `mirrordesk run FILE [--until-caught-up] [--sandbox] [--metrics-port N] [--instance-id NAME]`
// 0: a clean stop (or caught up), 1: the job failed, 2: bad arguments or profile.
int runRunCommand(const QStringList &args, QTextStream &out, QTextStream &err);

// The GUI: `mirrordesk [FILE...]` and `mirrordesk --sandbox`. Unless newInstance
// (or sandbox), a running instance gets the files instead.
int runGui(int argc, char **argv, const QStringList &files, bool sandbox, bool newInstance);

} // namespace md
