// Linked into the test programs of a ThreadSanitizer build only (tests/CMakeLists.txt).
//
// Qt 6.4's QProcess starts a child with clone(CLONE_VM | CLONE_VFORK): the
// child runs in the parent's memory until it execs. GCC 12's TSan intercepts
// clone() as a fork and does its fork bookkeeping in the child, which here is
// the parent's own state: the parent then dies at its next new thread
// ("starting new threads after multi-threaded fork is not supported"), and
// with die_after_fork=0 it lives on blind (a deliberate race went unreported).
// Without CLONE_VM the child is an ordinary (copy-on-write) fork, which TSan
// handles; TSan turns vfork() into fork() the same way. The parent still
// waits until the child execs (CLONE_VFORK), so QProcess sees no change.

#include <dlfcn.h>
#include <sched.h>
#include <sys/types.h>

#include <cstdarg>

extern "C" int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
    va_list rest;
    va_start(rest, arg);
    auto *parentTid = va_arg(rest, pid_t *);
    auto *tls = va_arg(rest, void *);
    auto *childTid = va_arg(rest, pid_t *);
    va_end(rest);
    using Clone = int (*)(int (*)(void *), void *, int, void *, ...);
    // TSan's interceptor, which calls glibc's.
    static const auto next = reinterpret_cast<Clone>(dlsym(RTLD_NEXT, "clone"));
    if ((flags & (CLONE_VM | CLONE_VFORK)) == (CLONE_VM | CLONE_VFORK))
        flags &= ~CLONE_VM;
    return next(fn, stack, flags, arg, parentTid, tls, childTid);
}
