#include "engine/core/BackgroundPriority.h"

#include <algorithm>
#include <cerrno>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace md {

BackgroundPriority::BackgroundPriority()
{
#ifdef Q_OS_LINUX
    m_tid = int(syscall(SYS_gettid));
    errno = 0;
    m_old = getpriority(PRIO_PROCESS, id_t(m_tid));
    // Relative to the main thread (whose id is the process id), not to this one: an
    // unprivileged process cannot raise a thread's priority again, so a pool thread
    // may still be at +10 from earlier background work and must not sink further.
    const int target = std::min(19, getpriority(PRIO_PROCESS, id_t(getpid())) + 10);
    m_changed = errno == 0 && m_old < target && setpriority(PRIO_PROCESS, id_t(m_tid), target) == 0;
#endif
}

BackgroundPriority::~BackgroundPriority()
{
#ifdef Q_OS_LINUX
    if (m_changed)
        (void)setpriority(PRIO_PROCESS, id_t(m_tid), m_old);
#endif
}

int BackgroundPriority::currentThreadNice()
{
#ifdef Q_OS_LINUX
    errno = 0;
    const int nice = getpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid)));
    return errno == 0 ? nice : 0;
#else
    return 0;
#endif
}

} // namespace md
