#include "ui/cluster/ClusterPane.h"

#include "model/tables/TopicConfigModel.h"
#include "model/tables/TopicTableModel.h"
#include "ui/cluster/AclView.h"
#include "ui/cluster/GroupsPanel.h"
#include "ui/cluster/MessagesPanel.h"
#include "ui/cluster/SchemasPanel.h"
#include "ui/cluster/TopicDetails.h"
#include "ui/dialogs/AdminDialogs.h"
#include "ui/widgets/TableViews.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <utility>

namespace md {

namespace {
constexpr int kDefaultRefreshMs = 10000;
// DescribeConfigs trails AlterConfigs on KRaft brokers: read the configs again after this.
constexpr int kConfigRecheckMs = 1500;

QString quoted(const QString &name)
{
    return QLatin1Char('"') + name + QLatin1Char('"');
}
} // namespace

ClusterPane::ClusterPane(const QString &role, QWidget *parent)
    : QWidget(parent), m_role(role), m_client(new ClusterClient(this)), m_admin(new AdminClient(this)),
      m_topics(new TopicTableModel(this)), m_brokers(new BrokerTableModel(this)),
      m_topicProxy(new TopicFilterModel(m_topics, this)), m_title(new QLabel(this)), m_status(new QLabel(this)),
      m_actionStatus(new QLabel(this)), m_filter(new QLineEdit(this)), m_topicView(makeTableView(this)),
      m_brokerView(makeTableView(this)), m_tabs(new QTabWidget(this)), m_refresh(new QToolButton(this)),
      m_interval(new QComboBox(this)), m_toolbar(new QToolBar(this)), m_splitter(new QSplitter(Qt::Horizontal, this)),
      m_details(new TopicDetails(this)), m_acls(new AclView(m_admin, this)),
      m_createAction(new QAction(tr("Create topic\u2026"), this)),
      m_deleteAction(new QAction(tr("Delete topic\u2026"), this)),
      m_addPartitionsAction(new QAction(tr("Add partitions\u2026"), this)),
      m_editConfigsAction(new QAction(tr("Edit configs\u2026"), this))
{
    setObjectName(role.toLower() + QStringLiteral("Pane"));
    m_title->setTextFormat(Qt::PlainText);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    m_title->setFont(titleFont);
    m_title->setText(role);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setText(tr("Not connected"));
    m_actionStatus->setTextFormat(Qt::PlainText);
    m_actionStatus->setWordWrap(true);
    m_actionStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_actionStatus->setObjectName(QStringLiteral("actionStatus"));
    m_actionStatus->hide();

    m_refresh->setObjectName(QStringLiteral("refresh"));
    m_refresh->setText(tr("Refresh"));
    m_refresh->setToolTip(tr("Fetch brokers, topics, the selected topic's configs and the registry's subjects again"));
    connect(m_refresh, &QToolButton::clicked, this, &ClusterPane::refresh);

    m_interval->setObjectName(QStringLiteral("refreshInterval"));
    m_interval->setToolTip(tr("Refresh automatically every \u2026"));
    for (int ms : refreshIntervals())
        m_interval->addItem(ms == 0      ? tr("Auto-refresh off")
                            : ms < 60000 ? tr("Every %1 s").arg(ms / 1000)
                                         : tr("Every %1 min").arg(ms / 60000),
                            ms);
    m_interval->setCurrentIndex(int(refreshIntervals().indexOf(kDefaultRefreshMs)));
    connect(m_interval, &QComboBox::currentIndexChanged, this, [this] {
        if (m_connected)
            m_client->setAutoRefreshInterval(refreshInterval());
    });

    m_topicView->setModel(m_topicProxy);
    m_topicView->setObjectName(QStringLiteral("topics"));
    m_topicView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_topicView->sortByColumn(TopicTableModel::Name, Qt::AscendingOrder);
    // The name first, wide enough to read in a pane half a laptop screen wide; the figures
    // narrower, the last one stretched, the rest of the row scrolls.
    QHeaderView *topicHeader = m_topicView->horizontalHeader();
    topicHeader->setDefaultSectionSize(m_topicView->fontMetrics().horizontalAdvance(QStringLiteral("Partitions")) + 16);
    topicHeader->resizeSection(TopicTableModel::Name,
                               m_topicView->fontMetrics().horizontalAdvance(QStringLiteral("src.demo.payments")) + 24);
    topicHeader->setStretchLastSection(true);
    m_brokerView->setModel(m_brokers);
    m_brokerView->setObjectName(QStringLiteral("brokers"));
    m_brokerView->setSortingEnabled(false);

    m_filter->setPlaceholderText(tr("Filter topics"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_topicProxy, &TopicFilterModel::setNameFilter);

    // Actions: toolbar and the topic list's context menu.
    m_createAction->setObjectName(QStringLiteral("createTopic"));
    m_createAction->setToolTip(tr("Create a topic on this cluster"));
    m_deleteAction->setObjectName(QStringLiteral("deleteTopic"));
    m_deleteAction->setToolTip(tr("Delete the selected topic and its messages"));
    m_addPartitionsAction->setObjectName(QStringLiteral("addPartitions"));
    m_addPartitionsAction->setToolTip(tr("Give the selected topic more partitions"));
    m_editConfigsAction->setObjectName(QStringLiteral("editConfigs"));
    m_editConfigsAction->setToolTip(tr("Set or reset the selected topic's configs"));
    connect(m_createAction, &QAction::triggered, this, &ClusterPane::createTopic);
    connect(m_deleteAction, &QAction::triggered, this, &ClusterPane::deleteSelectedTopic);
    connect(m_addPartitionsAction, &QAction::triggered, this, &ClusterPane::addPartitionsToSelected);
    connect(m_editConfigsAction, &QAction::triggered, this, &ClusterPane::editSelectedConfigs);
    m_toolbar->setObjectName(QStringLiteral("topicToolbar"));
    m_toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_toolbar->addAction(m_createAction);
    m_toolbar->addAction(m_deleteAction);
    m_toolbar->addAction(m_addPartitionsAction);
    m_toolbar->addAction(m_editConfigsAction);
    m_topicView->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_topicView->addAction(m_createAction);
    auto *separator = new QAction(this);
    separator->setSeparator(true);
    m_topicView->addAction(separator);
    m_topicView->addAction(m_deleteAction);
    m_topicView->addAction(m_addPartitionsAction);
    m_topicView->addAction(m_editConfigsAction);

    connect(m_topicView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ClusterPane::onTopicSelectionChanged);

    auto *listPage = new QWidget(this);
    auto *listLayout = new QVBoxLayout(listPage);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->addWidget(m_filter);
    listLayout->addWidget(m_topicView);
    // The selected topic's details beside the list, not below it: on a laptop screen the
    // pane's height is what is short, and both tables get all of it.
    m_splitter->setObjectName(QStringLiteral("topicSplitter"));
    m_splitter->addWidget(listPage);
    m_splitter->addWidget(m_details);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setChildrenCollapsible(false);

    auto *topicsPage = new QWidget(this);
    auto *topicsLayout = new QVBoxLayout(topicsPage);
    topicsLayout->setContentsMargins(0, 4, 0, 0);
    topicsLayout->addWidget(m_toolbar);
    topicsLayout->addWidget(m_splitter, 1);
    m_tabs->addTab(topicsPage, tr("Topics"));
    m_tabs->addTab(m_brokerView, tr("Brokers"));
    m_tabs->addTab(m_acls, tr("ACLs"));
    m_groupsPanel = new GroupsPanel(m_admin, this);
    m_tabs->addTab(m_groupsPanel, tr("Consumer groups"));
    m_messagesPanel = new MessagesPanel(m_admin, this);
    m_tabs->addTab(m_messagesPanel, tr("Messages"));
    m_schemasPanel = new SchemasPanel(this);
    m_tabs->addTab(m_schemasPanel, tr("Schemas"));
    connect(m_groupsPanel, &GroupsPanel::watchGroupRequested, this, &ClusterPane::watchGroupRequested);
    connect(m_client, &ClusterClient::metadataReady, m_messagesPanel, &MessagesPanel::setMetadata);
    connect(m_client, &ClusterClient::metadataReady, m_schemasPanel, &SchemasPanel::setMetadata);

    auto *header = new QHBoxLayout;
    header->addWidget(m_title, 1);
    header->addWidget(m_interval);
    header->addWidget(m_refresh);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(header);
    layout->addWidget(m_status);
    layout->addWidget(m_actionStatus);
    layout->addWidget(m_tabs, 1);

    connect(m_client, &ClusterClient::stateChanged, this, &ClusterPane::onState);
    connect(m_client, &ClusterClient::metadataReady, this, &ClusterPane::onMetadata);
    connect(m_client, &ClusterClient::errorOccurred, this, &ClusterPane::onError);
    connect(m_admin, &AdminClient::operationDone, this, &ClusterPane::onAdminDone);
    connect(m_admin, &AdminClient::requestFailed, this, &ClusterPane::onAdminFailed);
    connect(m_admin, &AdminClient::topicConfigsReady, this, &ClusterPane::onConfigs);
    updateActions();
}

ClusterPane::~ClusterPane() = default;

void ClusterPane::connectTo(const ClusterConfig &config)
{
    const QString alias = config.alias.isEmpty() ? QString() : QStringLiteral(" \u2014 ") + config.alias;
    m_title->setText(m_role + alias);
    m_title->setToolTip(config.bootstrap);
    m_connected = true;
    m_client->connectTo(config);
    m_client->setAutoRefreshInterval(refreshInterval());
    // Answers to requests of the previous connection are no longer awaited.
    m_pendingAction = 0;
    m_configRequest = 0;
    m_configsAgain = false;
    m_adminConnect = m_admin->connectTo(config);
    // The registry client decoding uses: one per connection.
    m_schemasPanel->setRegistry(m_admin->registryDecoders());
    m_acls->reset();
    setActionStatus({}, false);
    updateActions();
}

QString ClusterPane::title() const
{
    return m_title->text();
}

void ClusterPane::addTab(QWidget *page, const QString &title)
{
    m_tabs->addTab(page, title);
}

QString ClusterPane::statusText() const
{
    return m_status->text();
}

QString ClusterPane::actionStatusText() const
{
    return m_actionStatus->text();
}

QList<int> ClusterPane::refreshIntervals()
{
    return {0, 5000, 10000, 30000, 60000};
}

int ClusterPane::refreshInterval() const
{
    return m_interval->currentData().toInt();
}

void ClusterPane::setRefreshInterval(int ms)
{
    const int index = m_interval->findData(ms);
    if (index >= 0)
        m_interval->setCurrentIndex(index);
}

void ClusterPane::refresh()
{
    if (!m_connected)
        return;
    m_client->refresh();
    requestConfigs();
    m_schemasPanel->refresh();
}

bool ClusterPane::selectTopic(const QString &name)
{
    for (int row = 0; row < m_topicProxy->rowCount(); ++row) {
        const QModelIndex index = m_topicProxy->index(row, TopicTableModel::Name);
        if (index.data().toString() == name) {
            m_topicView->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                                      QItemSelectionModel::Rows);
            m_topicView->scrollTo(index);
            return true;
        }
    }
    return false;
}

void ClusterPane::onState(ClusterClient::State state)
{
    if (state == ClusterClient::State::Connecting) {
        m_status->setStyleSheet({});
        m_status->setText(tr("Connecting to %1 \u2026").arg(m_client->config().bootstrap));
    }
}

void ClusterPane::onMetadata(const ClusterMetadata &metadata)
{
    // The selected topic is gone (deleted here or elsewhere): clear the selection
    // before its row goes, or a single-selection view selects the neighbour row,
    // and the next admin action would silently apply to another topic.
    if (!m_selected.isEmpty() && !metadata.topic(m_selected))
        m_topicView->selectionModel()->clear();
    m_topics->setTopics(metadata.topics);
    m_brokers->setBrokers(metadata.brokers);
    m_status->setStyleSheet({});
    m_status->setText(tr("%1 \u00b7 %n broker(s)", nullptr, int(metadata.brokers.size())).arg(metadata.bootstrap) +
                      QStringLiteral(" \u00b7 ") + tr("%n topic(s)", nullptr, int(metadata.topics.size())) +
                      QStringLiteral(" \u00b7 ") +
                      tr("updated %1").arg(metadata.fetchedAt.toLocalTime().time().toString(Qt::ISODate)));
    if (!m_selectWhenListed.isEmpty() && metadata.topic(m_selectWhenListed)) {
        const QString name = std::exchange(m_selectWhenListed, QString());
        selectTopic(name);
    }
    // A deleted topic's row is gone, and with it the selection.
    const QString before = m_selected;
    onTopicSelectionChanged();
    if (!m_selected.isEmpty() && m_selected == before) {
        m_details->setTopic(m_selected, metadata.topic(m_selected));
        // The configs follow the same refresh cadence as the metadata.
        requestConfigs();
    }
    updateActions();
}

void ClusterPane::onError(const QString &message)
{
    m_status->setStyleSheet(QStringLiteral("color: #c01c28;"));
    m_status->setText(tr("Unreachable: %1").arg(message));
}

void ClusterPane::onTopicSelectionChanged()
{
    const QModelIndexList rows = m_topicView->selectionModel()->selectedRows(TopicTableModel::Name);
    showTopic(rows.isEmpty() ? QString() : rows.first().data().toString());
}

void ClusterPane::showTopic(const QString &name)
{
    if (name == m_selected)
        return;
    m_selected = name;
    m_details->setTopic(name, name.isEmpty() ? nullptr : m_client->metadata().topic(name));
    requestConfigs();
    updateActions();
}

void ClusterPane::requestConfigs()
{
    if (m_selected.isEmpty() || !m_connected)
        return;
    if (m_configRequest) {
        // One at a time; a newer selection or a change asks again when it answers.
        m_configsAgain = true;
        return;
    }
    m_configTopic = m_selected;
    m_configRequest = m_admin->describeTopicConfigs(m_selected);
    m_details->setConfigsLoading(m_selected);
}

void ClusterPane::onConfigs(quint64 id, const QString &topic, const QList<ConfigEntry> &configs)
{
    if (id != m_configRequest)
        return;
    m_configRequest = 0;
    m_details->setConfigs(topic, configs);
    if (std::exchange(m_configsAgain, false))
        requestConfigs();
    updateActions();
}

void ClusterPane::startAction(quint64 id, AdminClient::Operation op, const QString &topic, const QString &success,
                              const QString &failure)
{
    m_pendingAction = id;
    m_pendingOp = op;
    m_pendingTopic = topic;
    m_pendingSuccess = success;
    m_pendingFailure = failure;
    setActionStatus(tr("Working \u2026"), false);
    updateActions();
}

void ClusterPane::onAdminDone(quint64 id, AdminClient::Operation op)
{
    if (id != m_pendingAction)
        return;
    m_pendingAction = 0;
    const QString message = m_pendingSuccess;
    setActionStatus(message, false);
    if (op == AdminClient::Operation::CreateTopic)
        m_selectWhenListed = m_pendingTopic;
    m_client->refresh();
    if (op == AdminClient::Operation::AlterConfigs && m_pendingTopic == m_selected) {
        requestConfigs();
        QTimer::singleShot(kConfigRecheckMs, this, &ClusterPane::requestConfigs);
    }
    updateActions();
    Q_EMIT adminActionFinished(op, true, message);
}

void ClusterPane::onAdminFailed(quint64 id, AdminClient::Operation op, const QString &error)
{
    if (id == m_adminConnect) {
        m_adminConnect = 0;
        setActionStatus(tr("Administration is not available: %1").arg(error), true);
        return;
    }
    if (id == m_configRequest) {
        m_configRequest = 0;
        m_details->setConfigsError(m_configTopic, error);
        if (std::exchange(m_configsAgain, false))
            requestConfigs();
        updateActions();
        return;
    }
    if (id != m_pendingAction)
        return; // another tab's request
    m_pendingAction = 0;
    const QString message = m_pendingFailure + QStringLiteral(": ") + error;
    setActionStatus(message, true);
    m_client->refresh();
    updateActions();
    Q_EMIT adminActionFinished(op, false, message);
}

void ClusterPane::setActionStatus(const QString &text, bool error)
{
    m_actionStatus->setStyleSheet(error ? QStringLiteral("color: #c01c28;") : QString());
    m_actionStatus->setText(text);
    m_actionStatus->setVisible(!text.isEmpty());
}

void ClusterPane::updateActions()
{
    const bool idle = m_connected && m_pendingAction == 0;
    const bool haveTopic = !m_selected.isEmpty() && m_client->metadata().topic(m_selected) != nullptr;
    m_createAction->setEnabled(idle);
    m_deleteAction->setEnabled(idle && haveTopic);
    m_addPartitionsAction->setEnabled(idle && haveTopic);
    // Editing starts from the configs as read, with their sources.
    m_editConfigsAction->setEnabled(idle && haveTopic && m_details->topic() == m_selected &&
                                    m_details->configModel()->rowCount() > 0);
}

void ClusterPane::createTopic()
{
    if (!m_createAction->isEnabled())
        return;
    auto *dialog = new CreateTopicDialog(int(m_client->metadata().brokers.size()), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const NewTopicSpec spec = dialog->spec();
        const QString rf = spec.replicationFactor < 0 ? tr("the broker's default replication factor")
                                                      : tr("replication factor %1").arg(spec.replicationFactor);
        startAction(
            m_admin->createTopic(spec), AdminClient::Operation::CreateTopic, spec.name,
            tr("Created topic %1 with %n partition(s) and %2.", nullptr, spec.partitions).arg(quoted(spec.name), rf),
            tr("Could not create topic %1").arg(quoted(spec.name)));
    });
    dialog->open();
}

void ClusterPane::deleteSelectedTopic()
{
    const TopicInfo *info = m_client->metadata().topic(m_selected);
    if (!m_deleteAction->isEnabled() || !info)
        return;
    auto *dialog = new DeleteTopicDialog(info->name, info->messageCount(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const QString topic = dialog->topic();
        startAction(m_admin->deleteTopic(topic), AdminClient::Operation::DeleteTopic, topic,
                    tr("Deleted topic %1.").arg(quoted(topic)), tr("Could not delete topic %1").arg(quoted(topic)));
    });
    dialog->open();
}

void ClusterPane::addPartitionsToSelected()
{
    const TopicInfo *info = m_client->metadata().topic(m_selected);
    if (!m_addPartitionsAction->isEnabled() || !info)
        return;
    auto *dialog = new AddPartitionsDialog(info->name, int(info->partitions.size()), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const QString topic = dialog->topic();
        const int total = dialog->newTotal();
        startAction(m_admin->addPartitions(topic, total), AdminClient::Operation::AddPartitions, topic,
                    tr("Topic %1 now has %n partition(s).", nullptr, total).arg(quoted(topic)),
                    tr("Could not add partitions to topic %1").arg(quoted(topic)));
    });
    dialog->open();
}

void ClusterPane::editSelectedConfigs()
{
    if (!m_editConfigsAction->isEnabled())
        return;
    auto *dialog = new EditConfigsDialog(m_selected, m_details->configModel()->configs(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const QString topic = dialog->topic();
        const auto changes = dialog->changes();
        QStringList said;
        for (auto it = changes.cbegin(); it != changes.cend(); ++it)
            said.append(it.value() ? it.key() + QLatin1Char('=') + *it.value()
                                   : tr("%1 reset to default").arg(it.key()));
        startAction(m_admin->alterTopicConfigs(topic, changes), AdminClient::Operation::AlterConfigs, topic,
                    tr("Changed configs of topic %1: %2.").arg(quoted(topic), said.join(QStringLiteral(", "))),
                    tr("Could not change the configs of topic %1").arg(quoted(topic)));
    });
    dialog->open();
}

} // namespace md
