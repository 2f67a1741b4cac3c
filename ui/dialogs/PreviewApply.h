#pragma once

#include <QString>

#include <functional>

class QLabel;
class QProgressBar;
class QWidget;

namespace md {

// The preview -> apply flow the job dialogs share (Fail Over, Reset
// Progress): Apply writes exactly what the current preview shows, after a
// confirmation; a preview stands for the options it was read with (stale once
// they change, current again when they change back); an answer that comes
// back after a newer request, a cancel or the dialog's end is dropped (each
// request has a generation); after an apply the preview is read again and the
// apply's message stays on the status line. The dialog keeps its controls and
// its words; this keeps the state, the status line, the busy bar and the
// confirmation.
class PreviewApply final {
public:
    // Answers a confirmation instead of a message box (tests); true goes ahead.
    using ConfirmHook = std::function<bool(const QString &text)>;

    // `updateButtons` is the dialog's own: called whenever the state changes.
    void attach(QWidget *dialog, QLabel *status, QProgressBar *busyBar, std::function<void()> updateButtons);
    void setConfirmHook(const ConfirmHook &hook) { m_confirmHook = hook; }
    // A warning box with `goText` as its destructive button and Cancel as the
    // default; `goText` empty: Yes and Cancel.
    bool confirm(const QString &title, const QString &text, const QString &goText = {});

    // A new preview, busy: `text` on the status line unless the preview
    // follows an apply. Returns the generation its answer must carry.
    quint64 beginPreview(const QString &text);
    // Takes the preview's answer: false when a newer request replaced it.
    // Otherwise the plan is current, nothing is busy, and *afterApply says
    // whether it follows an apply (whose message then stays).
    bool finishPreview(quint64 generation, bool *afterApply = nullptr);
    // A preview under way stops counting: its answer is dropped.
    void dropPreview();
    void beginApply(const QString &text) { setBusy(true, text); }
    // The apply is over; the dialog previews again next (beginPreview keeps the message).
    void finishApply();

    // Whether the preview still stands for the dialog's options; `message`
    // goes to the status line when it stops standing for them.
    void setStale(bool stale, const QString &message);

    bool isBusy() const { return m_busy; }
    bool havePlan() const { return m_havePlan; }
    bool isStale() const { return m_stale; }
    bool isCurrent() const { return m_havePlan && !m_stale; }

    void setBusy(bool busy, const QString &text = {});
    void setStatus(const QString &text, bool error);
    QString statusText() const;

private:
    QWidget *m_dialog = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_busyBar = nullptr;
    std::function<void()> m_updateButtons;
    ConfirmHook m_confirmHook;
    quint64 m_generation = 0;
    bool m_busy = false;
    bool m_havePlan = false;
    bool m_stale = false;
    bool m_afterApply = false;
};

} // namespace md
