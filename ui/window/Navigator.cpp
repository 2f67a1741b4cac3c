#include "ui/window/Navigator.h"

#include "model/tables/JobListModel.h"
#include "ui/cluster/ClusterPane.h"
#include "ui/widgets/FlowLayout.h"

#include <QAbstractButton>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

namespace md {

namespace {
constexpr int kPaneRole = Qt::UserRole + 1;
constexpr int kPageRole = Qt::UserRole + 2;

QLabel *sectionTitle(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    QFont bold = label->font();
    bold.setBold(true);
    label->setFont(bold);
    return label;
}

QString stateText(ClusterClient::State state)
{
    switch (state) {
    case ClusterClient::State::Disconnected: return Navigator::tr("not connected");
    case ClusterClient::State::Connecting: return Navigator::tr("connecting");
    case ClusterClient::State::Connected: return Navigator::tr("connected");
    case ClusterClient::State::Unreachable: return Navigator::tr("unreachable");
    }
    return {};
}
} // namespace

QList<int> Navigator::defaultHiddenColumns()
{
    // The monitor tab shows the figures in full; the list keeps what tells jobs apart.
    return {JobListModel::Records, JobListModel::Lag, JobListModel::LastEvent, JobListModel::LagTime,
            JobListModel::CatchUp};
}

Navigator::Navigator(JobListModel *jobs, const QList<ClusterPane *> &panes, QWidget *parent)
    : QWidget(parent), m_jobs(jobs), m_panes(panes), m_jobView(new QTableView(this)), m_buttons(new FlowLayout),
      m_clusterView(new QTreeView(this)), m_clusterModel(new QStandardItemModel(this))
{
    setObjectName(QStringLiteral("navigator"));

    m_jobView->setObjectName(QStringLiteral("jobs"));
    m_jobView->setModel(jobs);
    m_jobView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_jobView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_jobView->verticalHeader()->hide();
    m_jobView->setWordWrap(false); // a long name elides; rows keep one line
    QHeaderView *header = m_jobView->horizontalHeader();
    header->setStretchLastSection(true);
    header->setMinimumSectionSize(40);
    // Narrow figures, so name, state, rate and status fit the navigator's width.
    const QFontMetrics fm = m_jobView->fontMetrics();
    header->setDefaultSectionSize(fm.horizontalAdvance(QStringLiteral("1234.5 k/s")) + 12);
    header->resizeSection(JobListModel::Name, fm.horizontalAdvance(QStringLiteral("payments-eu")) + 12);
    header->resizeSection(JobListModel::State, fm.horizontalAdvance(QStringLiteral("stopping")) + 12);
    header->resizeSection(JobListModel::Rate, fm.horizontalAdvance(QStringLiteral("999.9 k/s")) + 12);
    header->resizeSection(JobListModel::Status, fm.horizontalAdvance(QStringLiteral("PAUSED")) + 16);
    for (int column : defaultHiddenColumns())
        header->hideSection(column);
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QWidget::customContextMenuRequested, this, &Navigator::showColumnMenu);
    m_jobView->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    connect(m_jobView, &QAbstractItemView::activated, this,
            [this](const QModelIndex &index) { Q_EMIT jobActivated(index.row()); });

    auto *jobsPanel = new QWidget(this);
    auto *jobsLayout = new QVBoxLayout(jobsPanel);
    jobsLayout->setContentsMargins(4, 4, 0, 0);
    jobsLayout->addWidget(sectionTitle(tr("Mirror jobs"), jobsPanel));
    jobsLayout->addLayout(m_buttons);
    jobsLayout->addWidget(m_jobView, 1);

    m_clusterView->setObjectName(QStringLiteral("clusterTree"));
    m_clusterView->setModel(m_clusterModel);
    m_clusterView->setHeaderHidden(true);
    m_clusterView->setUniformRowHeights(true);
    m_clusterView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // One click opens the page (a tree of places, like Qt Creator's projects).
    connect(m_clusterView, &QAbstractItemView::clicked, this, [this](const QModelIndex &index) {
        ClusterPane *pane = m_panes.value(index.data(kPaneRole).toInt(), nullptr);
        if (pane)
            Q_EMIT clusterPageRequested(pane, index.data(kPageRole).toInt());
    });
    auto *clustersPanel = new QWidget(this);
    auto *clustersLayout = new QVBoxLayout(clustersPanel);
    clustersLayout->setContentsMargins(4, 4, 0, 0);
    clustersLayout->addWidget(sectionTitle(tr("Clusters"), clustersPanel));
    clustersLayout->addWidget(m_clusterView, 1);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("navigatorSplitter"));
    split->setChildrenCollapsible(false);
    split->addWidget(jobsPanel);
    split->addWidget(clustersPanel);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    for (ClusterPane *pane : m_panes)
        connect(pane->client(), &ClusterClient::stateChanged, this, &Navigator::updateClusters);
    updateClusters();
}

int Navigator::listWidth() const
{
    const QHeaderView *header = m_jobView->horizontalHeader();
    int width = 2 * m_jobView->frameWidth() + 8; // the panel's margin
    for (int column = 0; column < header->count(); ++column) {
        if (!header->isSectionHidden(column))
            width += header->sectionSize(column);
    }
    return width;
}

void Navigator::addJobButton(QAbstractButton *button)
{
    m_buttons->addWidget(button);
}

void Navigator::updateClusters()
{
    m_clusterModel->clear();
    for (int p = 0; p < m_panes.size(); ++p) {
        ClusterPane *pane = m_panes[p];
        auto *item = new QStandardItem(pane->title());
        item->setData(p, kPaneRole);
        item->setData(-1, kPageRole);
        item->setEditable(false);
        const QString bootstrap = pane->client()->config().bootstrap;
        item->setToolTip(bootstrap.isEmpty() ? stateText(pane->client()->state())
                                             : bootstrap + QStringLiteral(": ") + stateText(pane->client()->state()));
        for (int t = 0; t < pane->tabs()->count(); ++t) {
            auto *page = new QStandardItem(pane->tabs()->tabText(t));
            page->setData(p, kPaneRole);
            page->setData(t, kPageRole);
            page->setEditable(false);
            item->appendRow(page);
        }
        m_clusterModel->appendRow(item);
    }
    m_clusterView->expandAll();
}

void Navigator::showColumnMenu(const QPoint &pos)
{
    QHeaderView *header = m_jobView->horizontalHeader();
    QMenu menu(this);
    for (int column = 0; column < m_jobs->columnCount(); ++column) {
        QAction *a = menu.addAction(m_jobs->headerData(column, Qt::Horizontal).toString());
        a->setCheckable(true);
        a->setChecked(!header->isSectionHidden(column));
        a->setEnabled(column != JobListModel::Name); // a job needs its name
        connect(a, &QAction::toggled, header, [header, column](bool on) { header->setSectionHidden(column, !on); });
    }
    menu.exec(header->mapToGlobal(pos));
}

} // namespace md
