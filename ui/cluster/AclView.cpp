#include "ui/cluster/AclView.h"

#include "model/acl/AclBindingInput.h"
#include "model/acl/AclFilterProxy.h"
#include "model/tables/AclTableModel.h"
#include "ui/cluster/AclBindingDialog.h"
#include "ui/cluster/AclCheckPanel.h"
#include "ui/cluster/AclDeleteDialog.h"
#include "ui/cluster/AclFilterBar.h"
#include "ui/widgets/TableViews.h"

#include <QHBoxLayout>
#include <QItemSelection>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace md {

namespace {
// Enabled with its usual tooltip, or disabled with the reason as its tooltip.
void enableWithReason(QAbstractButton *button, const QString &whyNot, const QString &tip)
{
    button->setEnabled(whyNot.isEmpty());
    button->setToolTip(whyNot.isEmpty() ? tip : whyNot);
}
} // namespace

AclView::AclView(AdminClient *admin, QWidget *parent)
    : QWidget(parent), m_admin(admin), m_model(new AclTableModel(this)), m_proxy(new AclFilterProxy(m_model, this)),
      m_filters(new AclFilterBar(m_proxy, this)), m_view(new QTableView(this)), m_status(new QLabel(this)),
      m_refresh(new QToolButton(this)), m_newBinding(new QPushButton(tr("New binding\u2026"), this)),
      m_delete(new QPushButton(tr("Delete\u2026"), this)),
      m_checkAccess(new QPushButton(tr("Check access\u2026"), this)), m_splitter(new QSplitter(Qt::Vertical, this)),
      m_checkPanel(new AclCheckPanel(m_model, this))
{
    setObjectName(QStringLiteral("aclView"));
    m_view->setObjectName(QStringLiteral("acls"));
    m_view->setModel(m_proxy);
    // Unlike the other tables: rows as tall as the style makes them, text wrapped.
    setUpTableView(m_view, {QAbstractItemView::ExtendedSelection, false});
    m_view->sortByColumn(AclTableModel::ResourceType, Qt::AscendingOrder);
    m_status->setObjectName(QStringLiteral("aclStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_refresh->setObjectName(QStringLiteral("refreshAcls"));
    m_refresh->setText(tr("Refresh"));
    m_refresh->setToolTip(tr("Read the ACLs again"));
    m_newBinding->setObjectName(QStringLiteral("newAclBinding"));
    m_delete->setObjectName(QStringLiteral("deleteAcls"));
    m_checkAccess->setObjectName(QStringLiteral("openAccessCheck"));
    m_checkPanel->hide();

    auto *actions = new QHBoxLayout;
    actions->addWidget(m_newBinding);
    actions->addWidget(m_delete);
    actions->addWidget(m_checkAccess);
    actions->addStretch(1);
    actions->addWidget(m_refresh);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_view);
    m_splitter->addWidget(m_checkPanel);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(m_filters);
    layout->addLayout(actions);
    layout->addWidget(m_status);
    layout->addWidget(m_splitter, 1);

    connect(m_refresh, &QToolButton::clicked, this, &AclView::refresh);
    connect(m_newBinding, &QPushButton::clicked, this, &AclView::openNewBinding);
    connect(m_delete, &QPushButton::clicked, this, &AclView::deleteSelected);
    connect(m_checkAccess, &QPushButton::clicked, this, &AclView::openAccessCheck);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &AclView::updateActions);
    connect(m_checkPanel, &AclCheckPanel::rulesWanted, this, &AclView::requestRules);
    connect(m_checkPanel, &AclCheckPanel::answered, this, &AclView::selectBindings);
    connect(m_checkPanel, &AclCheckPanel::closeRequested, m_checkPanel, &QWidget::hide);
    connect(m_admin, &AdminClient::aclsReady, this, &AclView::onAcls);
    connect(m_admin, &AdminClient::operationDone, this, &AclView::onDone);
    connect(m_admin, &AdminClient::requestFailed, this, &AclView::onFailed);
    // The pane's own connect: its answer says whether there is a cluster, and which.
    connect(m_admin, &AdminClient::connected, this, [this](quint64, const ClusterMetadata &md) {
        m_connected = true;
        m_cluster = md.bootstrap.isEmpty() ? md.clusterId : md.bootstrap;
        if (m_bindingDialog)
            m_bindingDialog->setCluster(m_cluster);
        updateActions();
    });
    connect(m_admin, &AdminClient::aclRulesReady, this, [this](quint64 id, const AclRules &rules) {
        if (id != m_rulesRequest)
            return;
        m_rulesRequest = 0;
        m_checkPanel->setRules(rules);
    });
    setStatus(tr("Not connected."), false);
    updateActions();
}

AclView::~AclView() = default;

void AclView::refresh()
{
    if (m_pending) {
        // A change answered while a read is under way: read once more after it.
        m_refreshAgain = true;
        return;
    }
    m_loaded = true;
    m_refreshAgain = false;
    m_pending = m_admin->listAcls();
    m_refresh->setEnabled(false);
    setStatus(tr("Reading ACLs \u2026"), false);
    updateActions();
}

void AclView::reset()
{
    // Answers for the old connection are ignored from here on.
    m_pending = 0;
    m_rulesRequest = 0;
    if (m_change && m_bindingDialog && m_bindingDialog->sending())
        m_bindingDialog->showRefusal(tr("the connection changed before the broker answered; read the ACLs of "
                                        "the new connection to see what they hold"));
    // A confirmation names the cluster: one still open would name the old one.
    if (m_bindingDialog)
        m_bindingDialog->back();
    m_change = 0;
    m_changeKind = Change::None;
    m_changeText.clear();
    m_connected = true;
    m_loaded = false;
    m_listed = false;
    m_refreshAgain = false;
    m_noAuthorizer = false;
    m_cluster.clear();
    m_listError.clear();
    m_model->clear();
    m_checkPanel->forgetRules();
    m_refresh->setEnabled(true);
    m_view->setEnabled(true);
    if (isVisible())
        refresh();
    updateActions();
}

void AclView::onAcls(quint64 id, const QList<AclEntry> &acls)
{
    if (id != m_pending)
        return;
    m_pending = 0;
    m_refresh->setEnabled(true);
    m_noAuthorizer = false;
    m_listed = true;
    m_listError.clear();
    m_model->setAcls(acls);
    m_view->setEnabled(true);
    // Once per list, not per change (ResizeToContents would measure every row on each):
    // in a half-width pane every column then fits without scrolling sideways.
    m_view->resizeColumnsToContents();
    const QString count = acls.isEmpty() ? tr("An authorizer is configured, and no ACLs are defined.")
                                         : tr("%n ACL binding(s)", nullptr, int(acls.size()));
    // What the last change did stays said beside what the refresh found.
    setStatus(m_changeText.isEmpty() ? count : m_changeText + QStringLiteral(" \u2014 ") + count, false);
    m_changeText.clear();
    m_checkPanel->recheck(); // an answer shown is one of the bindings now loaded
    updateActions();
    if (m_refreshAgain)
        refresh();
}

void AclView::onDone(quint64 id, AdminClient::Operation)
{
    if (id == 0 || id != m_change)
        return;
    m_change = 0;
    if (m_changeKind == Change::Create) {
        if (m_bindingDialog) {
            m_bindingDialog->finishCreated();
            m_bindingDialog->deleteLater();
        }
        m_changeText = tr("Created: %1").arg(m_changeText);
    } else {
        m_changeText = tr("Deleted %n binding(s)", nullptr, m_changeCount);
    }
    m_changeKind = Change::None;
    updateActions();
    refresh();
}

void AclView::onFailed(quint64 id, AdminClient::Operation op, const QString &error, const KafkaError &failure)
{
    if (id == 0)
        return;
    const bool securityDisabled = failure.code == RD_KAFKA_RESP_ERR_SECURITY_DISABLED;
    if (id == m_pending) {
        m_pending = 0;
        m_refresh->setEnabled(true);
        m_model->clear();
        m_listed = false;
        m_listError = error;
        // AdminService answers SECURITY_DISABLED for a cluster without an authorizer.
        m_noAuthorizer = securityDisabled;
        if (m_noAuthorizer) {
            m_view->setEnabled(false);
            m_checkPanel->hide();
            setStatus(tr("No authorizer is configured on this cluster: ACLs are not in use, "
                         "every client may do everything."),
                      false);
        } else {
            setStatus(tr("Could not list the ACLs: %1").arg(error), true);
        }
    } else if (id == m_change) {
        m_change = 0;
        const bool creating = m_changeKind == Change::Create;
        m_changeKind = Change::None;
        m_changeText.clear();
        m_noAuthorizer = m_noAuthorizer || securityDisabled;
        // The broker's reason, in the tab and in the dialog, whose input stays as typed.
        setStatus(creating ? tr("Not created: %1").arg(error) : tr("Not deleted: %1").arg(error), true);
        if (creating && m_bindingDialog)
            m_bindingDialog->showRefusal(error);
    } else if (id == m_rulesRequest) {
        m_rulesRequest = 0;
        m_checkPanel->setRulesRefused(error);
    } else if (op == AdminClient::Operation::Connect) {
        m_connected = false; // the pane's connect failed: nothing to send changes to
    } else {
        return;
    }
    updateActions();
}

void AclView::openNewBinding()
{
    if (!m_newBinding->isEnabled())
        return;
    if (!m_bindingDialog) {
        m_bindingDialog = new AclBindingDialog(clusterName(), this);
        connect(m_bindingDialog, &AclBindingDialog::createRequested, this, &AclView::sendCreate);
        // Cancelled or created: the next one starts empty.
        connect(m_bindingDialog, &QDialog::rejected, m_bindingDialog, &QObject::deleteLater);
    }
    m_bindingDialog->setCluster(clusterName());
    m_bindingDialog->open(); // window-modal, returns at once: no nested event loop
}

void AclView::sendCreate(const AclEntry &binding)
{
    if (m_change || !m_connected || m_noAuthorizer) {
        if (m_bindingDialog)
            m_bindingDialog->showRefusal(m_newBinding->toolTip());
        return;
    }
    m_changeKind = Change::Create;
    m_changeCount = 1;
    m_changeText = aclBindingText(binding);
    m_change = m_admin->createAcls({binding});
    if (m_bindingDialog)
        m_bindingDialog->setSending(true);
    setStatus(tr("Creating %1 \u2026").arg(m_changeText), false);
    updateActions();
}

void AclView::deleteSelected()
{
    if (!m_delete->isEnabled())
        return;
    const QList<AclEntry> chosen = m_proxy->bindingsAt(m_view->selectionModel()->selectedRows());
    if (chosen.isEmpty())
        return;
    auto *dialog = new AclDeleteDialog(chosen, clusterName(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // Exactly the bindings listed, whatever the table shows by the time of the click.
    connect(dialog, &QDialog::accepted, this, [this, chosen] { sendDelete(chosen); });
    dialog->open();
}

void AclView::sendDelete(const QList<AclEntry> &bindings)
{
    if (m_change || !m_connected || m_noAuthorizer || bindings.isEmpty())
        return;
    m_changeKind = Change::Delete;
    m_changeCount = int(bindings.size());
    m_change = m_admin->deleteAcls(bindings);
    setStatus(tr("Deleting %n binding(s) \u2026", nullptr, m_changeCount), false);
    updateActions();
}

void AclView::openAccessCheck()
{
    if (!m_checkAccess->isEnabled())
        return;
    m_checkPanel->show();
    m_checkPanel->principalEdit()->setFocus();
    requestRules(); // read now, so the first answer already has them
}

void AclView::requestRules()
{
    if (!m_connected || m_rulesRequest || !m_checkPanel->accessCheck().needsRules())
        return;
    m_rulesRequest = m_admin->aclRules();
    m_checkPanel->setRulesReading();
}

void AclView::selectBindings(const QList<AclEntry> &bindings)
{
    // The deciding bindings the filter lets through are selected in the table;
    // the panel lists all of them either way.
    QItemSelection selection;
    const QList<int> rows = m_proxy->rowsOf(bindings);
    for (int row : rows)
        selection.select(m_proxy->index(row, 0), m_proxy->index(row, m_proxy->columnCount() - 1));
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (!rows.isEmpty())
        m_view->scrollTo(m_proxy->index(rows.first(), 0));
}

void AclView::updateActions()
{
    QString whyNot;
    if (!m_connected)
        whyNot = tr("Not connected to a cluster");
    else if (m_noAuthorizer)
        whyNot = tr("No authorizer is configured on this cluster: there are no ACLs to create, delete or check");
    const QString busy = m_change ? tr("Waiting for the broker's answer to the last change") : QString();
    enableWithReason(m_newBinding, whyNot.isEmpty() ? busy : whyNot,
                     tr("Create an ACL binding on this cluster (it needs ALTER on the cluster)"));
    QString deleteWhyNot = whyNot.isEmpty() ? busy : whyNot;
    if (deleteWhyNot.isEmpty() && !m_view->selectionModel()->hasSelection())
        deleteWhyNot = tr("Select the bindings to delete (Ctrl+click for several)");
    enableWithReason(m_delete, deleteWhyNot, tr("Delete the selected bindings, after a confirmation listing them"));
    QString checkWhyNot = whyNot;
    if (checkWhyNot.isEmpty() && !m_listed)
        checkWhyNot = m_pending ? tr("Reading the ACLs: the check answers from them")
                      : m_listError.isEmpty()
                          ? tr("The ACLs are not read yet: the check answers from them")
                          : tr("The ACLs could not be read, so there is nothing to check against: %1").arg(m_listError);
    const QString checkTip = tr("May a principal do an operation on a resource? Answered from the bindings above");
    enableWithReason(m_checkAccess, checkWhyNot, checkTip);
    enableWithReason(m_checkPanel->checkButton(), checkWhyNot, checkTip);
}

QString AclView::statusText() const
{
    return m_status->text();
}

AclBindingDialog *AclView::bindingDialog() const
{
    return m_bindingDialog;
}

QString AclView::clusterName() const
{
    return m_cluster;
}

void AclView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_connected && !m_loaded)
        refresh();
}

void AclView::setStatus(const QString &text, bool error)
{
    m_status->setStyleSheet(error ? QStringLiteral("color: #c01c28;") : QString());
    m_status->setText(text);
}

} // namespace md
