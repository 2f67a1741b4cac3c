#include "ui/cluster/AclBindingDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace md {

namespace {
QLabel *makeWrappedLabel(const QString &objectName, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    return label;
}

QComboBox *makeCombo(const QString &objectName, const QStringList &items, QWidget *parent)
{
    auto *box = new QComboBox(parent);
    box->setObjectName(objectName);
    box->addItems(items);
    return box;
}
} // namespace

AclBindingDialog::AclBindingDialog(const QString &cluster, QWidget *parent)
    : QDialog(parent), m_cluster(cluster), m_pages(new QStackedWidget(this)),
      m_resourceType(makeCombo(QStringLiteral("resourceType"), aclResourceTypeChoices(), this)),
      m_patternType(makeCombo(QStringLiteral("patternType"), aclPatternTypeChoices(), this)),
      m_resourceName(new QLineEdit(this)), m_principal(new QLineEdit(this)), m_host(new QLineEdit(this)),
      m_operation(makeCombo(QStringLiteral("operation"), aclOperationChoices(), this)),
      m_permission(makeCombo(QStringLiteral("permission"), aclPermissionChoices(), this)),
      m_error(makeWrappedLabel(QStringLiteral("error"), this)),
      m_refusal(makeWrappedLabel(QStringLiteral("refusal"), this)),
      m_preview(makeWrappedLabel(QStringLiteral("preview"), this))
{
    setObjectName(QStringLiteral("aclBindingDialog"));
    setWindowTitle(tr("New ACL binding"));
    // Wide enough for the confirmation's sentence and the refusals on one or two lines.
    setMinimumWidth(fontMetrics().averageCharWidth() * 64);
    m_resourceName->setObjectName(QStringLiteral("resourceName"));
    m_resourceName->setPlaceholderText(tr("orders (\"*\" for every resource of the type)"));
    m_principal->setObjectName(QStringLiteral("principal"));
    m_principal->setPlaceholderText(tr("User:alice (User:* for everyone)"));
    m_host->setObjectName(QStringLiteral("host"));
    m_host->setText(QStringLiteral("*"));
    m_host->setToolTip(tr("The client's address, or * for every host"));
    m_error->setStyleSheet(QStringLiteral("color: #c01c28;"));
    m_refusal->setStyleSheet(QStringLiteral("color: #c01c28;"));
    m_refusal->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_refusal->hide();
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_preview->font();
    bold.setBold(true);
    m_preview->setFont(bold);

    auto *formPage = new QWidget(m_pages);
    auto *form = new QFormLayout;
    form->addRow(tr("Resource &type:"), m_resourceType);
    form->addRow(tr("&Pattern:"), m_patternType);
    form->addRow(tr("Resource &name:"), m_resourceName);
    form->addRow(tr("P&rincipal:"), m_principal);
    form->addRow(tr("&Host:"), m_host);
    form->addRow(tr("&Operation:"), m_operation);
    form->addRow(tr("Per&mission:"), m_permission);
    auto *formLayout = new QVBoxLayout(formPage);
    formLayout->setContentsMargins(0, 0, 0, 0);
    formLayout->addLayout(form);
    formLayout->addWidget(m_error);
    formLayout->addWidget(m_refusal);
    formLayout->addStretch(1);

    auto *confirmPage = new QWidget(m_pages);
    auto *confirmLayout = new QVBoxLayout(confirmPage);
    confirmLayout->setContentsMargins(0, 0, 0, 0);
    auto *note = makeWrappedLabel(QStringLiteral("previewNote"), confirmPage);
    note->setText(tr("The brokers apply it to this principal's clients as soon as they accept it."));
    confirmLayout->addWidget(m_preview);
    confirmLayout->addWidget(note);
    confirmLayout->addStretch(1);
    m_pages->addWidget(formPage);
    m_pages->addWidget(confirmPage);

    auto *buttons = new QDialogButtonBox(this);
    m_back = buttons->addButton(tr("< &Back"), QDialogButtonBox::ResetRole);
    m_back->setObjectName(QStringLiteral("back"));
    m_ok = buttons->addButton(QDialogButtonBox::Ok);
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_pages);
    layout->addWidget(buttons);

    connect(m_ok, &QPushButton::clicked, this, &AclBindingDialog::accept);
    connect(m_back, &QPushButton::clicked, this, &AclBindingDialog::back);
    connect(m_cancel, &QPushButton::clicked, this, &AclBindingDialog::reject);
    for (QLineEdit *edit : {m_resourceName, m_principal, m_host})
        connect(edit, &QLineEdit::textChanged, this, &AclBindingDialog::updateState);
    for (QComboBox *box : {m_patternType, m_operation, m_permission})
        connect(box, &QComboBox::currentIndexChanged, this, &AclBindingDialog::updateState);
    connect(m_resourceType, &QComboBox::currentIndexChanged, this, &AclBindingDialog::onResourceTypeChanged);
    updateState();
}

AclEntry AclBindingDialog::typed() const
{
    return {m_resourceType->currentText(), m_resourceName->text(), m_patternType->currentText(),
            m_principal->text(),           m_host->text(),         m_operation->currentText(),
            m_permission->currentText()};
}

std::optional<AclEntry> AclBindingDialog::binding() const
{
    return checkAclBinding(typed()).binding;
}

QString AclBindingDialog::errorText() const
{
    return m_error->text();
}

QString AclBindingDialog::previewText() const
{
    return m_preview->text();
}

bool AclBindingDialog::reviewing() const
{
    return m_pages->currentIndex() == 1;
}

void AclBindingDialog::onResourceTypeChanged()
{
    // The cluster resource has one name and no prefix: fill them in rather than
    // let the user type something the check would refuse.
    const bool cluster = isAclClusterResourceType(m_resourceType->currentText());
    if (cluster) {
        m_resourceName->setText(aclClusterResourceName());
        m_patternType->setCurrentIndex(0);
    } else if (m_resourceName->text() == aclClusterResourceName()) {
        m_resourceName->clear();
    }
    m_resourceName->setReadOnly(cluster);
    m_patternType->setEnabled(!cluster);
    updateState();
}

void AclBindingDialog::updateState()
{
    const bool onForm = !reviewing();
    const AclBindingCheck check = checkAclBinding(typed());
    // An untouched form is the starting state, not a mistake worth red text.
    const bool untouched = m_principal->text().isEmpty() && m_resourceName->text().isEmpty();
    m_error->setText(check.ok() || untouched ? QString() : check.error);
    m_ok->setText(onForm ? tr("&Review\u2026") : tr("&Create"));
    m_ok->setEnabled(check.ok() && !m_sending);
    m_back->setVisible(!onForm);
    m_back->setEnabled(!m_sending);
    for (QWidget *w : std::initializer_list<QWidget *>{m_resourceType, m_resourceName, m_principal, m_host, m_operation,
                                                       m_permission})
        w->setEnabled(!m_sending);
    m_patternType->setEnabled(!m_sending && !isAclClusterResourceType(m_resourceType->currentText()));
}

void AclBindingDialog::accept()
{
    if (m_sending)
        return;
    const AclBindingCheck check = checkAclBinding(typed());
    if (!check.ok()) {
        m_error->setText(check.error);
        return;
    }
    if (!reviewing()) {
        m_preview->setText(aclCreatePreview(*check.binding, m_cluster));
        m_pages->setCurrentIndex(1);
        updateState();
        m_ok->setFocus();
        return;
    }
    Q_EMIT createRequested(*check.binding);
}

void AclBindingDialog::back()
{
    if (m_sending)
        return;
    m_pages->setCurrentIndex(0);
    updateState();
}

void AclBindingDialog::setSending(bool sending)
{
    m_sending = sending;
    if (sending)
        m_refusal->hide();
    updateState();
}

void AclBindingDialog::showRefusal(const QString &reason)
{
    m_sending = false;
    m_refusal->setText(tr("Not created: %1").arg(reason));
    m_refusal->show();
    m_pages->setCurrentIndex(0);
    updateState();
}

void AclBindingDialog::finishCreated()
{
    m_sending = false;
    QDialog::accept();
}

} // namespace md
