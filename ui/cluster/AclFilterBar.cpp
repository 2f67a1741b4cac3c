#include "ui/cluster/AclFilterBar.h"

#include "model/acl/AclBindingInput.h"
#include "model/acl/AclFilterProxy.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QToolButton>

namespace md {

namespace {
// A combo whose first entry (data empty) does not narrow.
QComboBox *makeChoiceBox(const QString &any, const QStringList &names, QWidget *parent)
{
    auto *box = new QComboBox(parent);
    box->addItem(any, QString());
    for (const QString &n : names)
        box->addItem(n, n);
    return box;
}
} // namespace

AclFilterBar::AclFilterBar(AclFilterProxy *proxy, QWidget *parent)
    : QWidget(parent), m_proxy(proxy), m_principal(new QLineEdit(this)),
      m_resourceType(makeChoiceBox(tr("Any resource type"), aclResourceTypeChoices(), this)),
      m_resourceName(new QLineEdit(this)), m_operation(makeChoiceBox(tr("Any operation"), aclOperationChoices(), this))
{
    setObjectName(QStringLiteral("aclFilters"));
    m_principal->setObjectName(QStringLiteral("principalFilter"));
    // Short placeholders and combos that may shrink: the bar fits a half-width pane.
    m_principal->setPlaceholderText(tr("Principal"));
    m_principal->setToolTip(tr("Bindings whose principal contains this"));
    m_principal->setClearButtonEnabled(true);
    m_resourceType->setObjectName(QStringLiteral("resourceTypeFilter"));
    m_resourceName->setObjectName(QStringLiteral("resourceFilter"));
    m_resourceName->setPlaceholderText(tr("Resource name"));
    m_resourceName->setToolTip(tr("Bindings whose resource name contains this"));
    for (QComboBox *box : {m_resourceType, m_operation}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(9);
    }
    m_resourceName->setClearButtonEnabled(true);
    m_operation->setObjectName(QStringLiteral("operationFilter"));
    m_operation->setToolTip(tr("Bindings for exactly this operation (an ALL binding is not shown for READ: "
                               "Check access answers what a principal may do)"));
    auto *clearButton = new QToolButton(this);
    clearButton->setObjectName(QStringLiteral("clearAclFilters"));
    clearButton->setText(tr("Clear"));
    clearButton->setToolTip(tr("Show every binding"));

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_principal, 2);
    layout->addWidget(m_resourceType);
    layout->addWidget(m_resourceName, 2);
    layout->addWidget(m_operation);
    layout->addWidget(clearButton);

    connect(m_principal, &QLineEdit::textChanged, m_proxy, &AclFilterProxy::setPrincipalFilter);
    connect(m_resourceName, &QLineEdit::textChanged, m_proxy, &AclFilterProxy::setResourceNameFilter);
    connect(m_resourceType, &QComboBox::currentIndexChanged, this,
            [this] { m_proxy->setResourceTypeFilter(m_resourceType->currentData().toString()); });
    connect(m_operation, &QComboBox::currentIndexChanged, this,
            [this] { m_proxy->setOperationFilter(m_operation->currentData().toString()); });
    connect(clearButton, &QToolButton::clicked, this, &AclFilterBar::clear);
}

void AclFilterBar::clear()
{
    // Each widget's signal clears its own part of the proxy's filter.
    m_principal->clear();
    m_resourceName->clear();
    m_resourceType->setCurrentIndex(0);
    m_operation->setCurrentIndex(0);
}

} // namespace md
