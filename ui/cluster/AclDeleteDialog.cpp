#include "ui/cluster/AclDeleteDialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace md {

AclDeleteDialog::AclDeleteDialog(const QList<AclEntry> &bindings, const QString &cluster, QWidget *parent)
    : QDialog(parent), m_bindings(bindings), m_list(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("aclDeleteDialog"));
    setWindowTitle(tr("Delete ACL bindings"));
    const int n = int(bindings.size());
    auto *question = new QLabel(
        tr("Delete these %n binding(s) on %1?", nullptr, n).arg(cluster.isEmpty() ? tr("this cluster") : cluster),
        this);
    question->setObjectName(QStringLiteral("question"));
    question->setTextFormat(Qt::PlainText);
    question->setWordWrap(true);
    // Deleting a DENY grants as surely as deleting an ALLOW revokes.
    auto *note = new QLabel(tr("Clients are authorized without them at once: an ALLOW removed takes access "
                               "away, a DENY removed may give it."),
                            this);
    note->setTextFormat(Qt::PlainText);
    note->setWordWrap(true);
    m_list->setObjectName(QStringLiteral("bindings"));
    m_list->setReadOnly(true);
    m_list->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_list->setPlainText(aclBindingLines(bindings).join(QLatin1Char('\n')));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_delete = buttons->addButton(tr("&Delete %n binding(s)", nullptr, n), QDialogButtonBox::AcceptRole);
    m_delete->setObjectName(QStringLiteral("delete"));
    // Cancel is the default: Return must not delete.
    buttons->button(QDialogButtonBox::Cancel)->setDefault(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(question);
    layout->addWidget(m_list, 1);
    layout->addWidget(note);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

QString AclDeleteDialog::listText() const
{
    return m_list->toPlainText();
}

} // namespace md
