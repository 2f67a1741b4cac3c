#include "ui/cluster/AclView.h"

#include "engine/admin/AdminClient.h"
#include "model/tables/AclTableModel.h"
#include "ui/widgets/TableViews.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace md {

AclView::AclView(AdminClient *admin, QWidget *parent)
    : QWidget(parent), m_admin(admin), m_model(new AclTableModel(this)), m_proxy(new QSortFilterProxyModel(this)),
      m_view(new QTableView(this)), m_status(new QLabel(this)), m_refresh(new QToolButton(this))
{
    setObjectName(QStringLiteral("aclView"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(AclTableModel::SortRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);
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

    auto *filter = new QLineEdit(this);
    filter->setPlaceholderText(tr("Filter ACLs"));
    filter->setClearButtonEnabled(true);
    connect(filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    auto *top = new QHBoxLayout;
    top->addWidget(filter, 1);
    top->addWidget(m_refresh);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_status);
    layout->addWidget(m_view, 1);

    connect(m_refresh, &QToolButton::clicked, this, &AclView::refresh);
    connect(m_admin, &AdminClient::aclsReady, this, [this](quint64 id, const QList<AclEntry> &acls) {
        if (id != m_pending)
            return;
        m_pending = 0;
        m_refresh->setEnabled(true);
        m_noAuthorizer = false;
        m_model->setAcls(acls);
        m_view->setEnabled(true);
        setStatus(acls.isEmpty() ? tr("An authorizer is configured, and no ACLs are defined.")
                                 : tr("%n ACL binding(s)", nullptr, int(acls.size())),
                  false);
    });
    connect(m_admin, &AdminClient::requestFailed, this,
            [this](quint64 id, AdminClient::Operation, const QString &error, const KafkaError &failure) {
                if (id != m_pending)
                    return;
                m_pending = 0;
                m_refresh->setEnabled(true);
                m_model->clear();
                // AdminService answers SECURITY_DISABLED for a cluster without an authorizer.
                m_noAuthorizer = failure.code == RD_KAFKA_RESP_ERR_SECURITY_DISABLED;
                if (m_noAuthorizer) {
                    m_view->setEnabled(false);
                    setStatus(tr("No authorizer is configured on this cluster: ACLs are not in use, "
                                 "every client may do everything."),
                              false);
                } else {
                    setStatus(tr("Could not list the ACLs: %1").arg(error), true);
                }
            });
    setStatus(tr("Not connected."), false);
}

AclView::~AclView() = default;

void AclView::refresh()
{
    if (m_pending)
        return;
    m_loaded = true;
    m_pending = m_admin->listAcls();
    m_refresh->setEnabled(false);
    setStatus(tr("Reading ACLs \u2026"), false);
}

void AclView::reset()
{
    m_pending = 0; // a late answer for the old connection is ignored
    m_connected = true;
    m_loaded = false;
    m_noAuthorizer = false;
    m_model->clear();
    m_refresh->setEnabled(true);
    m_view->setEnabled(true);
    if (isVisible())
        refresh();
}

QString AclView::statusText() const
{
    return m_status->text();
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
