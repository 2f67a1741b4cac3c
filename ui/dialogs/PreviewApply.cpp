#include "ui/dialogs/PreviewApply.h"

#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>

#include <utility>

namespace md {

namespace {
const QString kErrorStyle = QStringLiteral("color: #b00020;");
}

void PreviewApply::attach(QWidget *dialog, QLabel *status, QProgressBar *busyBar, std::function<void()> updateButtons)
{
    m_dialog = dialog;
    m_status = status;
    m_busyBar = busyBar;
    m_updateButtons = std::move(updateButtons);
}

bool PreviewApply::confirm(const QString &title, const QString &text, const QString &goText)
{
    if (m_confirmHook)
        return m_confirmHook(text);
    if (goText.isEmpty())
        return QMessageBox::question(m_dialog, title, text, QMessageBox::Yes | QMessageBox::Cancel,
                                     QMessageBox::Cancel) == QMessageBox::Yes;
    QMessageBox box(QMessageBox::Warning, title, text, QMessageBox::NoButton, m_dialog);
    QPushButton *go = box.addButton(goText, QMessageBox::DestructiveRole);
    QPushButton *cancel = box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(cancel);
    box.exec();
    return box.clickedButton() == go;
}

quint64 PreviewApply::beginPreview(const QString &text)
{
    setBusy(true, m_afterApply ? QString() : text);
    return ++m_generation;
}

bool PreviewApply::finishPreview(quint64 generation, bool *afterApply)
{
    if (generation != m_generation)
        return false;
    const bool after = std::exchange(m_afterApply, false);
    if (afterApply)
        *afterApply = after;
    m_havePlan = true;
    m_stale = false;
    setBusy(false);
    return true;
}

void PreviewApply::dropPreview()
{
    ++m_generation;
    m_afterApply = false;
    setBusy(false);
}

void PreviewApply::finishApply()
{
    m_afterApply = true;
    setBusy(false);
}

void PreviewApply::setStale(bool stale, const QString &message)
{
    stale = stale && m_havePlan;
    if (stale && !m_stale && !message.isEmpty())
        setStatus(message, false);
    m_stale = stale;
    if (m_updateButtons)
        m_updateButtons();
}

void PreviewApply::setBusy(bool busy, const QString &text)
{
    m_busy = busy;
    m_busyBar->setVisible(busy);
    if (!text.isEmpty())
        setStatus(text, false);
    if (m_updateButtons)
        m_updateButtons();
}

void PreviewApply::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? kErrorStyle : QString());
}

QString PreviewApply::statusText() const
{
    return m_status->text();
}

} // namespace md
