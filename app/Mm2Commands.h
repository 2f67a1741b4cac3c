#pragma once

#include <QStringList>
#include <QTextStream>

namespace md {

// mirrordesk import-mm2 FILE --output DIR [--force]
// One DIR/<A>-to-<B>.mirrorjob per enabled flow of an mm2.properties; lists the
// lines it could not map and the environment variables to set for passwords.
// 0: written; 1: nothing to import or a written profile needs editing; 2: bad
// arguments, unreadable input, or an output file exists (without --force).
int runImportMm2Command(const QStringList &args, QTextStream &out, QTextStream &err);

// mirrordesk export-mm2 FILE.mirrorjob [--output FILE] [--connect] [--replication-factor N | --single-broker]
// mm2.properties for dedicated mode (or, with --connect, MirrorSourceConnector
// JSON) on stdout or into FILE. 0: written; 1: the profile is invalid or has no
// MM2 equivalent (the reason is printed); 2: bad arguments or unreadable input.
int runExportMm2Command(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace md
