#include "ui/job/JobEditorDialog.h"

#include "ui/job/JobWorkspace.h"

#include <QGuiApplication>
#include <QKeyEvent>
#include <QScreen>
#include <QVBoxLayout>

namespace md {

QSize fitToScreen(const QWidget *widget, QSize wanted, double fraction)
{
    QScreen *screen = widget ? widget->screen() : nullptr;
    if (!screen)
        screen = QGuiApplication::primaryScreen();
    if (!screen)
        return wanted;
    const QSize available = screen->availableGeometry().size();
    return wanted.boundedTo(QSize(int(available.width() * fraction), int(available.height() * fraction)));
}

JobEditorDialog::JobEditorDialog(JobWorkspace *workspace, QWidget *parent) : QDialog(parent), m_workspace(workspace)
{
    setObjectName(QStringLiteral("jobEditorDialog"));
    setWindowTitle(tr("Job Editor"));
    setModal(false);
    setSizeGripEnabled(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(workspace);
}

void JobEditorDialog::showFitted()
{
    if (!isVisible()) {
        // Room for the editor's fields and its plan; never more than the screen.
        resize(fitToScreen(this, sizeHint().expandedTo(QSize(980, 720))));
    }
    show();
    raise();
    activateWindow();
}

void JobEditorDialog::reject()
{
    // The workspace asks about unsaved changes; the last document closing hides the dialog.
    if (m_workspace->closeAll())
        QDialog::reject();
}

void JobEditorDialog::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape) {
        event->ignore();
        return;
    }
    QDialog::keyPressEvent(event);
}

} // namespace md
