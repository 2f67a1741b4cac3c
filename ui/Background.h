#pragma once

#include <QCoreApplication>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace md {

// The one way a widget runs one-shot cluster work: `work` on the thread pool,
// its result handed to `done` on the UI thread unless `receiver` is gone by
// then (a dialog closed meanwhile: the result is dropped, nothing waits). The
// continuation's context is the application, which outlives every task (it
// waits for the pool when it ends): Qt 6.4's then(context, ...) requires the
// context to be alive when the task finishes, so the receiver cannot be it.
// Stale results of a still-open widget are the widget's business (a
// generation counter).
template<typename Result, typename Work, typename Done>
void inBackground(QObject *receiver, Work work, Done done)
{
    QPointer<QObject> guard(receiver);
    auto future = QtConcurrent::run(std::move(work)).then(QCoreApplication::instance(),
                                                          [guard, done = std::move(done)](const Result &result) {
                                                              if (guard)
                                                                  done(result);
                                                          });
    Q_UNUSED(future)
}

} // namespace md
