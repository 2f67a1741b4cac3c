#pragma once

#include "engine/mirror/MirrorJobSpec.h"
#include "model/schemasync/SchemaSyncPreview.h"

#include <QDialog>

class QLabel;
class QListWidget;
class QPushButton;

namespace md {

// "Sync Schemas Now" (the Compare tab): what one round of the job's schema
// sync would register on the target's registry, read when the dialog opens;
// Register does it (in the background, as the running job's round would) and
// shows what was registered. Works whether or not the profile syncs schemas
// while it runs: both sides need a registry.
class SchemaSyncDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SchemaSyncDialog)
public:
    explicit SchemaSyncDialog(const MirrorJobSpec &spec, QWidget *parent = nullptr);

    const SchemaSyncPreview &preview() const { return m_preview; }
    QPushButton *registerButton() const { return m_register; }
    QListWidget *lines() const { return m_lines; }
    bool isBusy() const { return m_busy; }

Q_SIGNALS:
    void registered(); // a round registered something: what the target has changed
    void previewShown();

private:
    void read(bool apply);
    void showPreview(const SchemaSyncPreview &preview);

    MirrorJobSpec m_spec;
    SchemaSyncPreview m_preview;
    QLabel *m_summary;
    QListWidget *m_lines;
    QPushButton *m_register;
    bool m_busy = false;
};

} // namespace md
