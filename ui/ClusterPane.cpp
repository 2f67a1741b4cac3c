#include "ClusterPane.h"

#include "TopicTableModel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace md {

namespace {
constexpr int kAutoRefreshMs = 10000;

QTableView *makeTable(QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->setSortingEnabled(true);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setWordWrap(false);
    return view;
}
} // namespace

ClusterPane::ClusterPane(const QString &role, QWidget *parent)
    : QWidget(parent), m_role(role), m_client(new ClusterClient(this)), m_admin(new AdminClient(this)), m_topics(new TopicTableModel(this)),
      m_brokers(new BrokerTableModel(this)), m_topicProxy(new QSortFilterProxyModel(this)),
      m_title(new QLabel(this)), m_status(new QLabel(this)), m_filter(new QLineEdit(this)),
      m_topicView(makeTable(this)), m_brokerView(makeTable(this)), m_tabs(new QTabWidget(this)),
      m_refresh(new QToolButton(this))
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

    m_refresh->setText(tr("Refresh"));
    m_refresh->setToolTip(tr("Fetch brokers and topics again (also every %1 s)").arg(kAutoRefreshMs / 1000));
    connect(m_refresh, &QToolButton::clicked, m_client, &ClusterClient::refresh);

    m_topicProxy->setSourceModel(m_topics);
    m_topicProxy->setSortRole(TopicTableModel::SortRole);
    m_topicProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_topicProxy->setFilterKeyColumn(TopicTableModel::Name);
    m_topicView->setModel(m_topicProxy);
    m_topicView->setObjectName(QStringLiteral("topics"));
    m_topicView->sortByColumn(TopicTableModel::Name, Qt::AscendingOrder);
    m_topicView->horizontalHeader()->setSectionResizeMode(TopicTableModel::Name, QHeaderView::Stretch);
    m_topicView->horizontalHeader()->setStretchLastSection(false);
    m_brokerView->setModel(m_brokers);
    m_brokerView->setObjectName(QStringLiteral("brokers"));
    m_brokerView->setSortingEnabled(false);

    m_filter->setPlaceholderText(tr("Filter topics"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_topicProxy, &QSortFilterProxyModel::setFilterFixedString);

    auto *topicsPage = new QWidget(this);
    auto *topicsLayout = new QVBoxLayout(topicsPage);
    topicsLayout->setContentsMargins(0, 4, 0, 0);
    topicsLayout->addWidget(m_filter);
    topicsLayout->addWidget(m_topicView);
    m_tabs->addTab(topicsPage, tr("Topics"));
    m_tabs->addTab(m_brokerView, tr("Brokers"));

    auto *header = new QHBoxLayout;
    header->addWidget(m_title, 1);
    header->addWidget(m_refresh);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(header);
    layout->addWidget(m_status);
    layout->addWidget(m_tabs, 1);

    connect(m_client, &ClusterClient::stateChanged, this, &ClusterPane::onState);
    connect(m_client, &ClusterClient::metadataReady, this, &ClusterPane::onMetadata);
    connect(m_client, &ClusterClient::errorOccurred, this, &ClusterPane::onError);
}

ClusterPane::~ClusterPane() = default;

void ClusterPane::connectTo(const ClusterConfig &config)
{
    const QString alias = config.alias.isEmpty() ? QString() : QStringLiteral(" \u2014 ") + config.alias;
    m_title->setText(m_role + alias);
    m_title->setToolTip(config.bootstrap);
    m_client->connectTo(config);
    m_client->setAutoRefreshInterval(kAutoRefreshMs);
    m_admin->connectTo(config);
}

void ClusterPane::addTab(QWidget *page, const QString &title)
{
    m_tabs->addTab(page, title);
}

QString ClusterPane::statusText() const
{
    return m_status->text();
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
    m_topics->setTopics(metadata.topics);
    m_brokers->setBrokers(metadata.brokers);
    m_status->setStyleSheet({});
    m_status->setText(tr("%1 \u00b7 %n broker(s)", nullptr, int(metadata.brokers.size())).arg(metadata.bootstrap)
                      + QStringLiteral(" \u00b7 ")
                      + tr("%n topic(s)", nullptr, int(metadata.topics.size()))
                      + QStringLiteral(" \u00b7 ")
                      + tr("updated %1").arg(metadata.fetchedAt.toLocalTime().time().toString(Qt::ISODate)));
}

void ClusterPane::onError(const QString &message)
{
    m_status->setStyleSheet(QStringLiteral("color: #c01c28;"));
    m_status->setText(tr("Unreachable: %1").arg(message));
}

} // namespace md
