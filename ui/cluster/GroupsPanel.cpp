#include "ui/cluster/GroupsPanel.h"

#include "model/tables/ConsumerGroupModel.h"
#include "model/tables/GroupOffsetsModel.h"
#include "ui/widgets/TableViews.h"

#include <QComboBox>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace md {

namespace {

constexpr int kAutoRefreshMs = 10000;

QString modeName(OffsetReset::Mode mode)
{
    switch (mode) {
    case OffsetReset::Mode::Earliest: return QObject::tr("the earliest offsets");
    case OffsetReset::Mode::Latest: return QObject::tr("the latest offsets");
    case OffsetReset::Mode::Timestamp: return QObject::tr("a time");
    case OffsetReset::Mode::Explicit: return QObject::tr("explicit offsets");
    }
    return {};
}

} // namespace

GroupsPanel::GroupsPanel(AdminClient *admin, QWidget *parent)
    : QWidget(parent), m_admin(admin), m_groups(new ConsumerGroupModel(this)), m_offsets(new GroupOffsetsModel(this)),
      m_groupProxy(new QSortFilterProxyModel(this)), m_offsetsProxy(new QSortFilterProxyModel(this)),
      m_filter(new QLineEdit(this)),
      m_groupView(makeTableView(this, QStringLiteral("groups"), {QAbstractItemView::SingleSelection})),
      m_offsetsView(makeTableView(this, QStringLiteral("groupOffsets"), {QAbstractItemView::SingleSelection})),
      m_members(new QTableWidget(0, 3, this)), m_groupTitle(new QLabel(this)), m_totalLag(new QLabel(this)),
      m_resetHint(new QLabel(this)), m_status(new QLabel(this)), m_refresh(new QPushButton(tr("Refresh"), this)),
      m_reset(new QPushButton(tr("Reset offsets\u2026"), this)),
      m_delete(new QPushButton(tr("Delete group\u2026"), this)), m_watch(new QPushButton(tr("Watch lag"), this)),
      m_autoRefresh(new QTimer(this))
{
    setObjectName(QStringLiteral("groupsPanel"));
    m_groupProxy->setSourceModel(m_groups);
    m_groupProxy->setSortRole(ConsumerGroupModel::SortRole);
    m_groupProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_groupProxy->setFilterKeyColumn(ConsumerGroupModel::GroupId);
    m_groupView->setModel(m_groupProxy);
    m_groupView->sortByColumn(ConsumerGroupModel::GroupId, Qt::AscendingOrder);
    m_groupView->horizontalHeader()->setSectionResizeMode(ConsumerGroupModel::GroupId, QHeaderView::Stretch);
    m_groupView->horizontalHeader()->setStretchLastSection(false);

    m_offsetsProxy->setSourceModel(m_offsets);
    m_offsetsProxy->setSortRole(GroupOffsetsModel::SortRole);
    m_offsetsView->setModel(m_offsetsProxy);
    m_offsetsView->sortByColumn(GroupOffsetsModel::Topic, Qt::AscendingOrder);
    m_offsetsView->setSelectionMode(QAbstractItemView::ExtendedSelection);

    m_members->setObjectName(QStringLiteral("groupMembers"));
    m_members->setHorizontalHeaderLabels({tr("Client id"), tr("Host"), tr("Assignment")});
    m_members->horizontalHeader()->setStretchLastSection(true);
    m_members->verticalHeader()->hide();
    m_members->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_members->setSelectionBehavior(QAbstractItemView::SelectRows);

    m_filter->setPlaceholderText(tr("Filter groups"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_groupProxy, &QSortFilterProxyModel::setFilterFixedString);

    for (QLabel *l : {m_groupTitle, m_totalLag, m_resetHint, m_status}) {
        l->setTextFormat(Qt::PlainText);
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    QFont bold = m_groupTitle->font();
    bold.setBold(true);
    m_groupTitle->setFont(bold);
    m_totalLag->setObjectName(QStringLiteral("totalLag"));
    m_resetHint->setObjectName(QStringLiteral("resetHint"));
    m_status->setObjectName(QStringLiteral("groupStatus"));
    m_resetHint->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_watch->setToolTip(tr("Chart this group's lag over time"));

    // Layout: filter + groups on top; the selected group's details below.
    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_refresh);
    topLayout->addLayout(filterRow);
    topLayout->addWidget(m_groupView, 1);

    auto *details = new QWidget(this);
    auto *detailsLayout = new QVBoxLayout(details);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->addWidget(m_groupTitle);
    auto *actions = new QHBoxLayout;
    actions->addWidget(m_reset);
    actions->addWidget(m_delete);
    actions->addWidget(m_watch);
    actions->addStretch(1);
    detailsLayout->addLayout(actions);
    detailsLayout->addWidget(m_resetHint);
    // Offsets and members as tabs: two tables stacked made the pane too tall for a laptop.
    auto *offsetsPage = new QWidget(details);
    auto *offsetsLayout = new QVBoxLayout(offsetsPage);
    offsetsLayout->setContentsMargins(0, 2, 0, 0);
    offsetsLayout->addWidget(m_totalLag);
    offsetsLayout->addWidget(m_offsetsView, 1);
    auto *detailTabs = new QTabWidget(details);
    detailTabs->setObjectName(QStringLiteral("groupDetailTabs"));
    detailTabs->addTab(offsetsPage, tr("Offsets and lag"));
    detailTabs->addTab(m_members, tr("Members"));
    detailsLayout->addWidget(detailTabs, 1);
    // The tables scroll; their default minimum made the pane too tall for a laptop screen.
    for (QAbstractItemView *view :
         {static_cast<QAbstractItemView *>(m_groupView), static_cast<QAbstractItemView *>(m_offsetsView),
          static_cast<QAbstractItemView *>(m_members)})
        view->setMinimumHeight(48);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(details);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(split, 1);
    layout->addWidget(m_status);

    connect(m_refresh, &QPushButton::clicked, this, &GroupsPanel::refresh);
    connect(m_reset, &QPushButton::clicked, this, &GroupsPanel::askReset);
    connect(m_delete, &QPushButton::clicked, this, &GroupsPanel::askDelete);
    connect(m_watch, &QPushButton::clicked, this, [this] {
        if (const QString id = selectedGroupId(); !id.isEmpty())
            Q_EMIT watchGroupRequested(id);
    });
    connect(m_groupView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &GroupsPanel::onSelectionChanged);

    connect(m_admin, &AdminClient::connected, this, [this] { refresh(); });
    connect(m_admin, &AdminClient::groupsReady, this, &GroupsPanel::onGroups);
    connect(m_admin, &AdminClient::groupOffsetsReady, this, &GroupsPanel::onOffsets);
    connect(m_admin, &AdminClient::operationDone, this, &GroupsPanel::onDone);
    connect(m_admin, &AdminClient::requestFailed, this, &GroupsPanel::onFailed);

    // Refreshes only while the tab is on screen: nobody looks otherwise.
    m_autoRefresh->setInterval(kAutoRefreshMs);
    connect(m_autoRefresh, &QTimer::timeout, this, [this] {
        if (m_pending.isEmpty())
            refresh();
    });
    updateDetails();
}

GroupsPanel::~GroupsPanel() = default;

void GroupsPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    m_autoRefresh->start();
}

void GroupsPanel::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_autoRefresh->stop();
}

void GroupsPanel::refresh()
{
    m_listRequest = m_admin->listConsumerGroups();
    m_pending.insert(m_listRequest);
}

bool GroupsPanel::selectGroup(const QString &groupId)
{
    for (int row = 0; row < m_groupProxy->rowCount(); ++row) {
        const QModelIndex idx = m_groupProxy->index(row, ConsumerGroupModel::GroupId);
        if (idx.data().toString() == groupId) {
            m_groupView->selectRow(row);
            return true;
        }
    }
    return false;
}

const ConsumerGroupInfo *GroupsPanel::selectedGroup() const
{
    const QModelIndexList rows = m_groupView->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return nullptr;
    return m_groups->groupAt(m_groupProxy->mapToSource(rows.first()).row());
}

QString GroupsPanel::selectedGroupId() const
{
    const ConsumerGroupInfo *g = selectedGroup();
    return g ? g->groupId : QString();
}

QString GroupsPanel::statusText() const
{
    return m_status->text();
}

QString GroupsPanel::totalLagText() const
{
    return m_totalLag->text();
}

QString GroupsPanel::resetHint() const
{
    return m_resetHint->text();
}

void GroupsPanel::onGroups(quint64 id, const QList<ConsumerGroupInfo> &groups)
{
    if (!m_pending.remove(id))
        return;
    m_groups->setGroups(groups);
    if (id == m_listRequest)
        showStatus(tr("%n consumer group(s)", nullptr, int(groups.size())), false);
    if (selectedGroup())
        requestOffsets();
    else
        m_offsets->clear();
    updateDetails();
}

void GroupsPanel::onSelectionChanged()
{
    const QString id = selectedGroupId();
    if (id != m_offsets->groupId())
        m_offsets->clear();
    updateDetails();
    if (!id.isEmpty())
        requestOffsets();
}

void GroupsPanel::requestOffsets()
{
    const QString id = selectedGroupId();
    if (id.isEmpty())
        return;
    m_offsetsRequest = m_admin->groupOffsets(id);
    m_pending.insert(m_offsetsRequest);
}

void GroupsPanel::onOffsets(quint64 id, const QString &groupId, const QList<GroupPartitionOffset> &offsets)
{
    if (!m_pending.remove(id))
        return;
    if (groupId != selectedGroupId())
        return; // the user moved on
    m_offsets->setOffsets(groupId, offsets);
    updateDetails();
}

void GroupsPanel::onDone(quint64 id, AdminClient::Operation op)
{
    if (!m_pending.contains(id))
        return;
    if (op == AdminClient::Operation::ResetOffsets) {
        // The new offsets follow as groupOffsetsReady with this id: keep it pending.
        showStatus(m_pendingAction, false);
        Q_EMIT actionFinished(true, m_pendingAction);
        return;
    }
    m_pending.remove(id);
    if (op == AdminClient::Operation::DeleteGroup) {
        showStatus(m_pendingAction, false);
        Q_EMIT actionFinished(true, m_pendingAction);
        m_offsets->clear();
        refresh();
    }
}

void GroupsPanel::onFailed(quint64 id, AdminClient::Operation op, const QString &error)
{
    if (!m_pending.remove(id))
        return;
    if (op == AdminClient::Operation::ResetOffsets || op == AdminClient::Operation::DeleteGroup) {
        showStatus(error, true);
        Q_EMIT actionFinished(false, error);
        requestOffsets();
        return;
    }
    if (op == AdminClient::Operation::GroupOffsets && id != m_offsetsRequest)
        return;
    showStatus(error, true);
}

void GroupsPanel::updateDetails()
{
    const ConsumerGroupInfo *g = selectedGroup();
    m_members->setRowCount(0);
    if (!g) {
        m_groupTitle->setText(tr("Select a group to see its members, offsets and lag."));
        m_totalLag->clear();
        m_resetHint->clear();
        for (QPushButton *b : {m_reset, m_delete, m_watch})
            b->setEnabled(false);
        return;
    }
    m_groupTitle->setText(
        tr("%1 \u2014 %2%3%4")
            .arg(g->groupId, groupStateName(g->state),
                 g->type == GroupType::Unknown ? QString() : tr(", %1 group").arg(groupTypeName(g->type)),
                 g->protocol.isEmpty() ? QString() : QStringLiteral(", ") + g->protocol) +
        (g->simple ? tr(" (simple: commits offsets only)") : QString()));
    m_groupTitle->setToolTip(ConsumerGroupModel::typeDescription(g->type));
    m_members->setRowCount(int(g->members.size()));
    for (int i = 0; i < g->members.size(); ++i) {
        const GroupMember &m = g->members.at(i);
        m_members->setItem(i, 0, new QTableWidgetItem(m.clientId));
        m_members->setItem(i, 1, new QTableWidgetItem(m.host));
        m_members->setItem(i, 2, new QTableWidgetItem(ConsumerGroupModel::assignmentText(m)));
        m_members->item(i, 0)->setToolTip(tr("member id: %1").arg(m.memberId));
    }

    const bool share = g->type == GroupType::Share;
    m_offsets->setShareGroup(share);
    if (g->type == GroupType::Streams) {
        m_totalLag->setText(tr("Lag: not readable for a %1 group").arg(groupTypeName(g->type)));
    } else if (m_offsets->groupId() == g->groupId) {
        const qint64 total = m_offsets->totalLag();
        int none = 0;
        for (const GroupPartitionOffset &o : m_offsets->offsets())
            none += o.committed < 0 ? 1 : 0;
        QString text = total >= 0 ? tr("Total lag: %L1").arg(total)
                       : share    ? tr("Total lag: none (no start offsets yet)")
                                  : tr("Total lag: none (no committed offsets)");
        if (none > 0 && total >= 0)
            text += share       ? tr(" \u00b7 %n partition(s) without a start offset", nullptr, none)
                    : none == 1 ? tr(" \u00b7 1 partition without a committed offset")
                                : tr(" \u00b7 %1 partitions without a committed offset").arg(none);
        m_totalLag->setText(text);
    } else {
        m_totalLag->setText(tr("Reading offsets\u2026"));
    }

    // Kafka lets a reset through only for a group without members; the
    // members' next commit would overwrite anything written meanwhile.
    QString hint;
    const bool listedOnly = g->type == GroupType::Streams;
    if (listedOnly) {
        // Described by StreamsGroupDescribe, which librdkafka does not have.
        hint = tr("A streams group's offsets cannot be read or reset from MirrorDesk: librdkafka has no API for "
                  "them (use kafka-streams-groups.sh).");
    } else if (share) {
        hint = tr("A share group's start offsets cannot be moved: Kafka 4.1 does not do it yet "
                  "(kafka-share-groups.sh --reset-offsets is not implemented there either).");
    } else if (g->state != GroupState::Empty) {
        hint = g->members.isEmpty()
                   ? tr("Offsets can be reset only while the group is Empty (it is %1).").arg(groupStateName(g->state))
                   : tr("Offsets can be reset only while the group is Empty: it has %n active member(s) (%1), and "
                        "Kafka would "
                        "overwrite new offsets with their next commit. Stop its consumers first.",
                        nullptr, int(g->members.size()))
                         .arg(groupStateName(g->state));
    }
    m_resetHint->setText(hint);
    m_reset->setEnabled(hint.isEmpty());
    m_reset->setToolTip(hint.isEmpty() ? tr("Move the group's committed offsets") : hint);
    m_delete->setEnabled(true);
    m_watch->setEnabled(!listedOnly);
    m_watch->setToolTip(listedOnly ? hint : tr("Chart this group's lag over time"));
}

void GroupsPanel::showStatus(const QString &text, bool error)
{
    m_status->setStyleSheet(error ? QStringLiteral("color: #c01c28;") : QString());
    m_status->setText(text);
}

void GroupsPanel::resetOffsets(const OffsetReset &reset)
{
    const QString id = selectedGroupId();
    if (id.isEmpty())
        return;
    m_pendingAction = tr("Offsets of group %1 reset to %2").arg(id, modeName(reset.mode));
    const quint64 request = m_admin->resetGroupOffsets(id, reset);
    m_pending.insert(request);
    showStatus(tr("Resetting offsets of group %1\u2026").arg(id), false);
}

void GroupsPanel::deleteGroup(const QString &groupId)
{
    m_pendingAction = tr("Group %1 deleted").arg(groupId);
    m_pending.insert(m_admin->deleteGroup(groupId));
    showStatus(tr("Deleting group %1\u2026").arg(groupId), false);
}

void GroupsPanel::askReset()
{
    const ConsumerGroupInfo *g = selectedGroup();
    if (!g || m_offsets->groupId() != g->groupId)
        return;
    ResetOffsetsDialog dialog(g->groupId, m_offsets->offsets(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QString error;
    const OffsetReset reset = dialog.reset(&error);
    if (error.isEmpty())
        resetOffsets(reset);
}

void GroupsPanel::askDelete()
{
    const QString id = selectedGroupId();
    if (id.isEmpty())
        return;
    const auto answer = QMessageBox::question(
        this, tr("Delete consumer group"),
        tr("Delete consumer group \"%1\" and all its committed offsets? This cannot be undone.").arg(id),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer == QMessageBox::Yes)
        deleteGroup(id);
}

// --- ResetOffsetsDialog ------------------------------------------------------

ResetOffsetsDialog::ResetOffsetsDialog(const QString &groupId, const QList<GroupPartitionOffset> &offsets,
                                       QWidget *parent)
    : QDialog(parent), m_offsets(offsets), m_mode(new QComboBox(this)), m_time(new QDateTimeEdit(this)),
      m_table(new QTableWidget(int(offsets.size()), 4, this)), m_error(new QLabel(this))
{
    setWindowTitle(tr("Reset offsets of %1").arg(groupId));
    m_mode->addItem(tr("Earliest"), int(OffsetReset::Mode::Earliest));
    m_mode->addItem(tr("Latest"), int(OffsetReset::Mode::Latest));
    m_mode->addItem(tr("At a time (UTC)"), int(OffsetReset::Mode::Timestamp));
    m_mode->addItem(tr("Explicit offsets"), int(OffsetReset::Mode::Explicit));
    m_time->setTimeSpec(Qt::UTC);
    m_time->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz 'UTC'"));
    m_time->setDateTime(QDateTime::currentDateTimeUtc().addSecs(-3600));
    m_time->setCalendarPopup(true);

    m_table->setHorizontalHeaderLabels({tr("Topic"), tr("Partition"), tr("Committed"), tr("New offset")});
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    for (int i = 0; i < offsets.size(); ++i) {
        const GroupPartitionOffset &o = offsets.at(i);
        auto *topic = new QTableWidgetItem(o.topic);
        auto *partition = new QTableWidgetItem(QString::number(o.partition));
        auto *committed = new QTableWidgetItem(o.committed >= 0 ? QString::number(o.committed) : tr("none"));
        for (QTableWidgetItem *it : {topic, partition, committed})
            it->setFlags(it->flags() & ~Qt::ItemIsEditable);
        m_table->setItem(i, 0, topic);
        m_table->setItem(i, 1, partition);
        m_table->setItem(i, 2, committed);
        // Empty: this partition is left as it is.
        m_table->setItem(i, 3, new QTableWidgetItem(o.committed >= 0 ? QString::number(o.committed) : QString()));
    }

    auto *explanation = new QLabel(tr("Earliest, latest and time apply to every partition the group has offsets for. "
                                      "Explicit: leave a row empty to keep its offset."),
                                   this);
    explanation->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c01c28;"));
    m_error->setWordWrap(true);
    auto *form = new QFormLayout;
    form->addRow(tr("Reset to"), m_mode);
    form->addRow(tr("Time"), m_time);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Reset"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ResetOffsetsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &ResetOffsetsDialog::updateMode);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(explanation);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    updateMode();
}

void ResetOffsetsDialog::updateMode()
{
    const auto mode = OffsetReset::Mode(m_mode->currentData().toInt());
    m_time->setEnabled(mode == OffsetReset::Mode::Timestamp);
    m_table->setEditTriggers(mode == OffsetReset::Mode::Explicit ? QAbstractItemView::AllEditTriggers
                                                                 : QAbstractItemView::NoEditTriggers);
    m_table->setColumnHidden(3, mode != OffsetReset::Mode::Explicit);
}

OffsetReset ResetOffsetsDialog::reset(QString *error) const
{
    OffsetReset r;
    r.mode = OffsetReset::Mode(m_mode->currentData().toInt());
    if (r.mode == OffsetReset::Mode::Timestamp)
        r.timestampMs = m_time->dateTime().toMSecsSinceEpoch();
    if (r.mode == OffsetReset::Mode::Explicit) {
        for (int i = 0; i < m_offsets.size(); ++i) {
            const QString text = m_table->item(i, 3) ? m_table->item(i, 3)->text().trimmed() : QString();
            if (text.isEmpty())
                continue;
            bool ok = false;
            const qint64 offset = text.toLongLong(&ok);
            if (!ok || offset < 0) {
                *error = tr("%1[%2]: \"%3\" is not an offset (a whole number, 0 or more)")
                             .arg(m_offsets.at(i).topic)
                             .arg(m_offsets.at(i).partition)
                             .arg(text);
                return {};
            }
            r.explicitOffsets.insert({m_offsets.at(i).topic, m_offsets.at(i).partition}, offset);
        }
        if (r.explicitOffsets.isEmpty()) {
            *error = tr("Give a new offset for at least one partition");
            return {};
        }
    }
    return r;
}

void ResetOffsetsDialog::accept()
{
    QString error;
    reset(&error);
    if (!error.isEmpty()) {
        m_error->setText(error);
        return;
    }
    QDialog::accept();
}

} // namespace md
