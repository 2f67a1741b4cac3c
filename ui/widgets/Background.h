#pragma once

#include "engine/core/Tasks.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>

#include <utility>

namespace md {

// The one way a widget runs one-shot cluster work: `work` as a task (engine/core/Tasks.h),
// its result handed to `done` on the UI thread unless `receiver` is gone by
// then (a dialog closed meanwhile: the result is dropped, nothing waits). The
// continuation's context is the application, which outlives every task (it
// waits for the task pool when it ends): Qt 6.4's then(context, ...) requires the
// context to be alive when the task finishes, so the receiver cannot be it.
// `done` always runs from the event loop, never inside this call: Qt 6.4 runs a
// continuation at once when the task finished before then() is attached, which
// would hand a caller its answer before it has set up the state the answer reads.
// A still-open widget whose inputs change while a task runs (PlanView) drops
// stale answers with a generation counter: bump it on every change, capture it
// in `done`, compare it there.
template <typename Result, typename Work, typename Done> void inBackground(QObject *receiver, Work work, Done done)
{
    QPointer<QObject> guard(receiver);
    auto future = runTask(std::move(work))
                      .then(QCoreApplication::instance(), [guard, done = std::move(done)](const Result &result) {
                          QMetaObject::invokeMethod(
                              QCoreApplication::instance(),
                              [guard, done, result] {
                                  if (guard)
                                      done(result);
                              },
                              Qt::QueuedConnection);
                      });
    Q_UNUSED(future)
}

} // namespace md
