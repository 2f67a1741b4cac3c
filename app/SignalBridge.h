#pragma once

#include <QObject>

#include <functional>

class QSocketNotifier;

namespace md {

// SIGINT/SIGTERM become a queued call on the event loop (the handler only
// writes a byte): headless commands stop cleanly on the first and give up on
// the second, each in its own way. One bridge per process.
class SignalBridge final : public QObject {
public:
    explicit SignalBridge(std::function<void(int)> handler);

private:
    std::function<void(int)> m_handler;
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace md
