#pragma once

#include "ui/window/Notifier.h"

#include <QFrame>

class QLabel;
class QToolButton;

namespace md {

// A closable bar at the top of the main window's central area: the latest notification
// where neither a notification service nor a tray can show it. Hidden until then.
class NotificationBanner final : public QFrame {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NotificationBanner)
public:
    explicit NotificationBanner(QWidget *parent = nullptr);

    void showNotification(const Notification &n); // replaces what it showed
    QString text() const;
    Notification::Severity severity() const { return m_severity; }
    QToolButton *closeButton() const { return m_close; }

private:
    void applyColours();

    QLabel *m_text;
    QToolButton *m_close;
    Notification::Severity m_severity = Notification::Severity::Info;
};

} // namespace md
