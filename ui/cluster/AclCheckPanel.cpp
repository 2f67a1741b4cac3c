#include "ui/cluster/AclCheckPanel.h"

#include "model/acl/AclBindingInput.h"
#include "model/tables/AclTableModel.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace md {

namespace {
QLabel *makeTextLabel(const QString &objectName, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}
} // namespace

AclCheckPanel::AclCheckPanel(const AclTableModel *bindings, QWidget *parent)
    : QWidget(parent), m_bindings(bindings), m_principal(new QLineEdit(this)), m_host(new QLineEdit(this)),
      m_operation(new QComboBox(this)), m_resourceType(new QComboBox(this)), m_resourceName(new QLineEdit(this)),
      m_checkButton(new QPushButton(tr("Check"), this)), m_superUsers(new QLineEdit(this)),
      m_allowEveryone(new QComboBox(this)), m_superUsersError(makeTextLabel(QStringLiteral("superUsersError"), this)),
      m_verdict(makeTextLabel(QStringLiteral("verdict"), this)),
      m_explanation(makeTextLabel(QStringLiteral("explanation"), this)),
      m_rules(makeTextLabel(QStringLiteral("rules"), this)),
      m_decidingTitle(new QLabel(tr("Deciding bindings:"), this)), m_deciding(new QListWidget(this))
{
    setObjectName(QStringLiteral("aclCheckPanel"));
    m_principal->setObjectName(QStringLiteral("checkPrincipal"));
    m_principal->setPlaceholderText(tr("User:alice"));
    m_host->setObjectName(QStringLiteral("checkHost"));
    m_host->setPlaceholderText(tr("client address (optional)"));
    m_host->setToolTip(tr("Without an address only bindings for every host (*) count"));
    m_operation->setObjectName(QStringLiteral("checkOperation"));
    // A question is about one operation: ALL is a binding's, not a request's.
    for (const QString &op : aclOperationChoices()) {
        if (op != QLatin1String("ALL"))
            m_operation->addItem(op);
    }
    m_resourceType->setObjectName(QStringLiteral("checkResourceType"));
    m_resourceType->addItems(aclResourceTypeChoices());
    m_resourceName->setObjectName(QStringLiteral("checkResource"));
    m_resourceName->setPlaceholderText(tr("orders"));
    m_checkButton->setObjectName(QStringLiteral("checkAccess"));
    m_checkButton->setToolTip(tr("Answer from the bindings loaded in the table"));
    // The brokers' rules as the operator knows them, for when the brokers keep them to themselves.
    m_superUsers->setObjectName(QStringLiteral("checkSuperUsers"));
    m_superUsers->setPlaceholderText(tr("as the brokers say; e.g. User:admin;User:ops"));
    m_superUsers->setToolTip(
        tr("The brokers' super.users, as in server.properties (principals separated by semicolons). Brokers "
           "usually do not reveal it; what you give here is used instead and the answer says so."));
    m_allowEveryone->setObjectName(QStringLiteral("checkAllowEveryone"));
    m_allowEveryone->addItem(tr("as the brokers say"));
    m_allowEveryone->addItem(QStringLiteral("true"), true);
    m_allowEveryone->addItem(QStringLiteral("false"), false);
    m_allowEveryone->setToolTip(
        tr("allow.everyone.if.no.acl.found: whether a resource no binding names is open to every principal. "
           "Brokers usually do not reveal it (then false is assumed); what you choose here is used instead."));
    m_superUsersError->setStyleSheet(QStringLiteral("color: #c01c28;"));
    m_superUsersError->hide();
    QFont big = m_verdict->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.4);
    m_verdict->setFont(big);
    m_rules->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_deciding->setObjectName(QStringLiteral("deciding"));
    m_deciding->setMaximumHeight(m_deciding->fontMetrics().height() * 6);
    m_decidingTitle->hide();
    m_deciding->hide();
    auto *close = new QToolButton(this);
    close->setObjectName(QStringLiteral("closeCheck"));
    close->setText(QStringLiteral("\u2715"));
    close->setToolTip(tr("Close the access checker"));
    close->setAutoRaise(true);

    auto *title = new QLabel(tr("<b>Check access</b>: may this principal do this?"), this);
    auto *header = new QHBoxLayout;
    header->addWidget(title, 1);
    header->addWidget(close);
    auto *grid = new QGridLayout;
    grid->addWidget(new QLabel(tr("Principal:"), this), 0, 0);
    grid->addWidget(m_principal, 0, 1);
    grid->addWidget(new QLabel(tr("Host:"), this), 0, 2);
    grid->addWidget(m_host, 0, 3);
    grid->addWidget(new QLabel(tr("Operation:"), this), 1, 0);
    grid->addWidget(m_operation, 1, 1);
    grid->addWidget(new QLabel(tr("Resource:"), this), 1, 2);
    auto *resource = new QHBoxLayout;
    // Combos that may shrink to their short names and the Check button on a row of its own:
    // the panel must fit a half-width pane without taking the jobs list's width.
    for (QComboBox *box : {m_operation, m_resourceType, m_allowEveryone}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(6);
    }
    resource->addWidget(m_resourceType);
    resource->addWidget(m_resourceName, 2);
    grid->addLayout(resource, 1, 3);
    auto *supersLabel = new QLabel(tr("Super users:"), this);
    supersLabel->setToolTip(m_superUsers->toolTip());
    grid->addWidget(supersLabel, 2, 0);
    grid->addWidget(m_superUsers, 2, 1);
    auto *everyoneLabel = new QLabel(tr("Everyone if no ACL:"), this);
    everyoneLabel->setToolTip(m_allowEveryone->toolTip());
    grid->addWidget(everyoneLabel, 2, 2);
    auto *everyone = new QHBoxLayout;
    everyone->addWidget(m_allowEveryone);
    everyone->addStretch(1);
    everyone->addWidget(m_checkButton);
    grid->addLayout(everyone, 2, 3);
    grid->addWidget(m_superUsersError, 3, 1, 1, 3);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(3, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(header);
    layout->addLayout(grid);
    layout->addWidget(m_verdict);
    layout->addWidget(m_explanation);
    layout->addWidget(m_rules);
    layout->addWidget(m_decidingTitle);
    layout->addWidget(m_deciding);
    layout->addStretch(1);

    connect(m_checkButton, &QPushButton::clicked, this, &AclCheckPanel::check);
    for (QLineEdit *edit : {m_principal, m_host, m_resourceName})
        connect(edit, &QLineEdit::returnPressed, this, &AclCheckPanel::check);
    connect(m_resourceType, &QComboBox::currentIndexChanged, this, &AclCheckPanel::onResourceTypeChanged);
    connect(m_superUsers, &QLineEdit::textChanged, this, &AclCheckPanel::onGivenRulesChanged);
    connect(m_superUsers, &QLineEdit::returnPressed, this, &AclCheckPanel::check);
    connect(m_allowEveryone, &QComboBox::currentIndexChanged, this, &AclCheckPanel::onGivenRulesChanged);
    connect(close, &QToolButton::clicked, this, &AclCheckPanel::closeRequested);
}

void AclCheckPanel::onResourceTypeChanged()
{
    // The cluster resource has one name: fill it in.
    if (isAclClusterResourceType(m_resourceType->currentText()))
        m_resourceName->setText(aclClusterResourceName());
    else if (m_resourceName->text() == aclClusterResourceName())
        m_resourceName->clear();
}

void AclCheckPanel::onGivenRulesChanged()
{
    const bool ok = m_check.setGivenSuperUsers(m_superUsers->text());
    m_superUsersError->setText(m_check.superUsersError());
    m_superUsersError->setVisible(!ok);
    const QVariant allow = m_allowEveryone->currentData();
    m_check.setGivenAllowEveryone(allow.isValid() ? std::optional<bool>(allow.toBool()) : std::nullopt);
    recheck();
}

void AclCheckPanel::check()
{
    // Disabled by the tab while there are no bindings to answer from (not read, no authorizer).
    if (!m_checkButton->isEnabled())
        return;
    if (m_check.needsRules())
        Q_EMIT rulesWanted(); // the answer now assumes the defaults and says so; recheck() follows the rules
    const AclQuestion q{m_principal->text(), m_host->text(), m_operation->currentText(), m_resourceType->currentText(),
                        m_resourceName->text()};
    showAnswer(m_check.answer(m_bindings->acls(), q));
}

void AclCheckPanel::recheck()
{
    if (m_answered)
        check();
}

void AclCheckPanel::showAnswer(const AclAccessAnswer &answer)
{
    m_answer = answer;
    m_answered = true;
    if (!answer.valid) {
        m_verdict->setStyleSheet(QString());
        m_verdict->setText(tr("Cannot check"));
        m_explanation->setText(answer.error);
        m_rules->clear();
    } else {
        m_verdict->setStyleSheet(answer.allowed ? QStringLiteral("color: #26a269;")
                                                : QStringLiteral("color: #c01c28;"));
        m_verdict->setText(answer.verdict);
        m_explanation->setText(answer.explanation);
        m_rules->setText(answer.rulesNote);
    }
    m_deciding->clear();
    m_deciding->addItems(answer.decidingLines);
    m_decidingTitle->setVisible(!answer.decidingLines.isEmpty());
    m_deciding->setVisible(!answer.decidingLines.isEmpty());
    Q_EMIT answered(answer.deciding);
}

void AclCheckPanel::forgetRules()
{
    m_check.forgetRules();
}

void AclCheckPanel::setRulesReading()
{
    m_check.setRulesReading();
}

void AclCheckPanel::setRules(const AclRules &rules)
{
    m_check.setRules(rules);
    recheck();
}

void AclCheckPanel::setRulesRefused(const QString &reason)
{
    m_check.setRulesRefused(reason);
    recheck();
}

QString AclCheckPanel::verdictText() const
{
    return m_verdict->text();
}

QString AclCheckPanel::explanationText() const
{
    return m_explanation->text();
}

QString AclCheckPanel::superUsersErrorText() const
{
    return m_superUsersError->isHidden() ? QString() : m_superUsersError->text();
}

QString AclCheckPanel::rulesText() const
{
    return m_rules->text();
}

QStringList AclCheckPanel::decidingLines() const
{
    QStringList lines;
    for (int i = 0; i < m_deciding->count(); ++i)
        lines.append(m_deciding->item(i)->text());
    return lines;
}

} // namespace md
