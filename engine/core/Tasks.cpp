#include "engine/core/Tasks.h"

#include <QCoreApplication>
#include <QThreadPool>

namespace md {

namespace {
constexpr int kTaskThreads = 16; // blocked on brokers, not on the CPU
}

QThreadPool *taskPool()
{
    static QThreadPool *const pool = [] {
        auto *p = new QThreadPool; // never deleted: it may be used until the process ends
        p->setMaxThreadCount(kTaskThreads);
        qAddPostRoutine([] { taskPool()->waitForDone(); });
        return p;
    }();
    return pool;
}

} // namespace md
