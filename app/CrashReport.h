#pragma once

namespace md {

// On a fatal signal (SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL) or an uncaught
// exception, write what happened and a stack trace to stderr, then die as
// the signal would have: a headless job that crashes under a supervisor (or
// a test) leaves a trace to go on instead of an exit status alone. Frames of
// the executable print as "mirrordesk(+0xOFFSET)", which `addr2line -Cfe
// mirrordesk 0xOFFSET` turns into a function and line.
void installCrashReport();

} // namespace md
