#pragma once

#include "model/acl/AclBindingInput.h"

#include <QDialog>

class QPlainTextEdit;
class QPushButton;

namespace md {

// "Delete…" of the ACLs tab: lists exactly the bindings that will be deleted,
// one per line, and deletes nothing itself (the caller sends them when accepted).
class AclDeleteDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AclDeleteDialog)
public:
    AclDeleteDialog(const QList<AclEntry> &bindings, const QString &cluster, QWidget *parent = nullptr);

    const QList<AclEntry> &bindings() const { return m_bindings; }
    QString listText() const;
    QPushButton *deleteButton() const { return m_delete; }

private:
    QList<AclEntry> m_bindings;
    QPlainTextEdit *m_list;
    QPushButton *m_delete;
};

} // namespace md
