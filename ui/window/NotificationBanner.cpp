#include "ui/window/NotificationBanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace md {

NotificationBanner::NotificationBanner(QWidget *parent)
    : QFrame(parent), m_text(new QLabel(this)), m_close(new QToolButton(this))
{
    setObjectName(QStringLiteral("notificationBanner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_text->setObjectName(QStringLiteral("notificationText"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close->setObjectName(QStringLiteral("closeNotification"));
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(tr("Close"));
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    hide();
}

void NotificationBanner::showNotification(const Notification &n)
{
    m_severity = n.severity;
    m_text->setText(n.body.isEmpty() ? n.summary : n.summary + QStringLiteral(" \u2014 ") + n.body);
    applyColours();
    show();
}

QString NotificationBanner::text() const
{
    return m_text->text();
}

void NotificationBanner::applyColours()
{
    // The window's own colours, tinted towards the severity's (the job list's red and amber;
    // the palette's highlight for information), so light and dark themes both read.
    const QPalette base = parentWidget() ? parentWidget()->palette() : QPalette();
    QColor accent = base.color(QPalette::Highlight);
    if (m_severity == Notification::Severity::Critical)
        accent = QColor(0xc0, 0x1c, 0x28);
    else if (m_severity == Notification::Severity::Warning)
        accent = QColor(0xb5, 0x83, 0x5a);
    const QColor window = base.color(QPalette::Window);
    const auto mix = [](int a, int b) { return (a * 3 + b) / 4; };
    QPalette pal = base;
    pal.setColor(QPalette::Window, QColor(mix(window.red(), accent.red()), mix(window.green(), accent.green()),
                                          mix(window.blue(), accent.blue())));
    setPalette(pal);
}

} // namespace md
