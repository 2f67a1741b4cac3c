#pragma once

#include <QDialog>

namespace md {

class JobWorkspace;

// The job editor's own window: the workspace's tabs in a non-modal dialog sized to the
// editor and to the screen, instead of a dock that squeezed the fields beside the panes.
// Closing it closes the open profiles (asking about unsaved changes first).
class JobEditorDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobEditorDialog)
public:
    JobEditorDialog(JobWorkspace *workspace, QWidget *parent);

    // Shows the dialog at a size that fits the editor and the screen it opens on.
    void showFitted();

    void reject() override;

protected:
    void keyPressEvent(QKeyEvent *event) override; // Escape does not close the open profiles

private:
    JobWorkspace *m_workspace;
};

// `wanted`, no larger than `fraction` of the available geometry of the screen of `widget`
// (the primary screen when it has none yet).
QSize fitToScreen(const QWidget *widget, QSize wanted, double fraction = 0.9);

} // namespace md
