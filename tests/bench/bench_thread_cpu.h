#pragma once

// The calling thread's CPU time in ms: on a shared machine wall time also
// counts the waits for a core, which the UI benchmarks tell apart from work.

#include <ctime>

namespace md::bench {

inline double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

} // namespace md::bench
