#pragma once

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

class QThreadPool;

namespace md {

// One-shot work, the one way: a task on this pool (runTask), answered by its
// QFuture. The UI waits for none; it gets the value through md::inBackground
// (ui/widgets/Background.h). Engine code that needs two answers at once (both
// clusters of a probe) starts one as a task and takes result(), which runs the
// task on the calling thread if no pool thread has taken it yet, so a task
// that starts tasks cannot starve the pool. Long-lived workers get a
// WorkerThread instead.
//
// Not the global pool: the tasks block on the network, so the pool has more
// threads than cores (the global pool has one per core). The application
// waits for it as it ends (a post routine), while queued answers can still be
// delivered to it.
QThreadPool *taskPool();

template <typename Work, typename... Args> auto runTask(Work &&work, Args &&...args)
{
    return QtConcurrent::run(taskPool(), std::forward<Work>(work), std::forward<Args>(args)...);
}

// From a task: runs `deliver(object)` on the application's (UI) thread unless
// `object` is gone by then. How a job with progress (MessageCopyJob,
// MessageSearchJob) emits its signals; the guard is read there, never on the
// task's thread.
template <typename Object, typename Deliver> void postToApplication(const QPointer<Object> &object, Deliver deliver)
{
    QMetaObject::invokeMethod(
        QCoreApplication::instance(),
        [object, deliver = std::move(deliver)] {
            if (object)
                deliver(object.data());
        },
        Qt::QueuedConnection);
}

} // namespace md
