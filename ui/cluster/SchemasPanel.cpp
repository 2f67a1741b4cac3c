#include "ui/cluster/SchemasPanel.h"

#include "engine/schema/RegistryDecoders.h"
#include "model/tables/SchemaSubjectModel.h"
#include "ui/cluster/SchemaDetails.h"
#include "ui/connections/ConnectionDialog.h"
#include "ui/widgets/Background.h"
#include "ui/widgets/TableViews.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace md {

namespace {
// Each lane is a client (one connection) of its own: at most this many
// requests at a time, whatever the number of subjects.
constexpr int kLanes = 3;
// Subjects per task: big enough to amortise a task, small enough that the rows
// on screen come next soon after a scroll.
constexpr int kChunk = 12;
constexpr int kLaneTimeoutMs = 10000;
constexpr int kApicurioListCap = 1000;
} // namespace

SchemasPanel::SchemasPanel(QWidget *parent)
    : QWidget(parent), m_model(new SchemaSubjectModel(this)), m_proxy(new QSortFilterProxyModel(this)),
      m_stack(new QStackedWidget(this)), m_placeholder(new QLabel(this)), m_filter(new QLineEdit(this)),
      m_refresh(new QToolButton(this)), m_status(new QLabel(this)), m_progress(new QProgressBar(this)),
      m_view(makeTableView(this, QStringLiteral("schemaSubjects"),
                           {QAbstractItemView::SingleSelection, /*compactRows=*/true})),
      m_details(new SchemaDetails(this))
{
    setObjectName(QStringLiteral("schemasPanel"));
    m_placeholder->setObjectName(QStringLiteral("schemasPlaceholder"));
    m_placeholder->setWordWrap(true);
    m_placeholder->setTextFormat(Qt::PlainText);
    m_placeholder->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_placeholder->setMargin(12);
    m_placeholder->setText(
        tr("No schema registry is configured for this connection.\n\n"
           "To add one: Cluster \u25b8 Connections\u2026, select this connection, fill in the URL under "
           "\u201cSchema registry\u201d (Apicurio serves the Confluent API under /apis/ccompat/v7), save and "
           "connect again. A job profile names it in its cluster's schemaRegistry.url."));

    m_filter->setObjectName(QStringLiteral("schemaFilter"));
    m_filter->setPlaceholderText(tr("Filter subjects"));
    m_filter->setClearButtonEnabled(true);
    m_refresh->setObjectName(QStringLiteral("schemaRefresh"));
    m_refresh->setText(tr("Refresh"));
    m_refresh->setToolTip(tr("List the registry's subjects again"));
    m_status->setObjectName(QStringLiteral("schemaStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress->setObjectName(QStringLiteral("schemaProgress"));
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(m_status->fontMetrics().height() / 2 + 2);
    m_progress->hide();

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SchemaSubjectModel::SortRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(SchemaSubjectModel::Subject);
    m_view->setModel(m_proxy);
    // "orders.eu-…-value": the end of a subject says key or value, keep it in sight.
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->sortByColumn(SchemaSubjectModel::Subject, Qt::AscendingOrder);
    QHeaderView *header = m_view->horizontalHeader();
    const QFontMetrics fm = m_view->fontMetrics();
    header->setDefaultSectionSize(fm.horizontalAdvance(QStringLiteral("Versions")) + 16);
    header->resizeSection(SchemaSubjectModel::Subject, fm.horizontalAdvance(QStringLiteral("orders.payments-value")));
    header->resizeSection(SchemaSubjectModel::Type, fm.horizontalAdvance(QStringLiteral("PROTOBUF")) + 16);
    header->resizeSection(SchemaSubjectModel::Compatibility,
                          fm.horizontalAdvance(QStringLiteral("FORWARD_TRANSITIVE")) + 16);

    auto *listPage = new QWidget(this);
    auto *listLayout = new QVBoxLayout(listPage);
    listLayout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_refresh);
    listLayout->addLayout(bar);
    listLayout->addWidget(m_view, 1);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("schemaSplitter"));
    split->addWidget(listPage);
    split->addWidget(m_details);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    auto *browser = new QWidget(this);
    auto *browserLayout = new QVBoxLayout(browser);
    browserLayout->setContentsMargins(0, 0, 0, 0);
    browserLayout->addWidget(m_status);
    browserLayout->addWidget(m_progress);
    browserLayout->addWidget(split, 1);
    m_stack->addWidget(m_placeholder);
    m_stack->addWidget(browser);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(m_stack);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_refresh, &QToolButton::clicked, this, &SchemasPanel::refresh);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &SchemasPanel::onSelectionChanged);
    // The rows scrolled to are read next (the queue is ordered when a lane frees up).
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this, &SchemasPanel::scheduleDetails);
    connect(m_details, &SchemaDetails::versionPicked, this, &SchemasPanel::showSubject);
    connect(m_details, &SchemaDetails::referenceActivated, this, &SchemasPanel::openSubject);
    setRegistry({});
}

SchemasPanel::~SchemasPanel()
{
    // Running tasks end after their current request.
    for (const auto &stop : {m_stop, m_detailStop}) {
        if (stop)
            stop->store(true);
    }
}

bool SchemasPanel::hasRegistry() const
{
    return m_registry && m_registry->config().isSet();
}

QString SchemasPanel::where() const
{
    return m_registry ? redactedRegistryUrl(m_registry->config().url) : QString();
}

void SchemasPanel::setRegistry(std::shared_ptr<RegistryDecoders> registry)
{
    for (const auto &stop : {m_stop, m_detailStop}) {
        if (stop)
            stop->store(true);
    }
    m_stop = std::make_shared<std::atomic<bool>>(false);
    ++m_generation;
    ++m_detailGeneration;
    m_registry = std::move(registry);
    m_lanes.clear();
    m_queue.clear();
    m_queued.clear();
    m_inFlight = 0;
    m_listing = false;
    m_batchError.clear();
    m_listError.clear();
    m_listedAt = {};
    m_global.clear();
    m_shownSubject.clear();
    m_shownVersion = -1;
    m_view->selectionModel()->clear();
    m_model->clear();
    m_details->clear();
    m_progress->hide();
    m_stack->setCurrentIndex(hasRegistry() ? 1 : 0);
    if (!hasRegistry())
        return;
    for (int i = 0; i < kLanes; ++i)
        m_lanes.push_back({std::make_shared<SchemaRegistryClient>(m_registry->config(), kLaneTimeoutMs), false});
    m_stale = true;
    setStatus(tr("Schema registry %1").arg(where()), false);
    if (isVisible())
        refresh();
}

void SchemasPanel::setMetadata(const ClusterMetadata &metadata)
{
    QSet<QString> topics;
    topics.reserve(metadata.topics.size());
    for (const TopicInfo &t : metadata.topics)
        topics.insert(t.name);
    m_model->setTopics(topics);
    if (!m_shownSubject.isEmpty() && m_details->subject() == m_shownSubject)
        m_details->topicLabel()->setText(m_model->topicText(m_shownSubject));
}

void SchemasPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale && hasRegistry())
        refresh();
}

void SchemasPanel::refresh()
{
    if (!hasRegistry())
        return;
    if (!isVisible()) {
        m_stale = true; // nobody looks: the registry is asked when the tab is shown
        return;
    }
    m_stale = false;
    // A new listing: the previous batch's chunks stop and their answers are dropped.
    m_stop->store(true);
    m_stop = std::make_shared<std::atomic<bool>>(false);
    const quint64 generation = ++m_generation;
    m_queue.clear();
    m_queued.clear();
    m_inFlight = 0;
    m_batchError.clear();
    m_listing = true;
    updateStatus();
    std::shared_ptr<SchemaRegistryClient> client = m_registry->client();
    inBackground<SubjectList>(
        this, [client] { return readSubjectList(*client); },
        [this, generation](const SubjectList &list) { onList(generation, list); });
    if (!m_shownSubject.isEmpty())
        showSubject(m_shownSubject, m_shownVersion);
}

void SchemasPanel::onList(quint64 generation, const SubjectList &list)
{
    if (generation != m_generation)
        return;
    m_listing = false;
    if (!list.error.ok()) {
        m_listError = tr("Could not list the subjects of the schema registry %1: %2")
                          .arg(where(), ConnectionDialog::explainRegistryFailure(list.error));
        updateStatus();
        Q_EMIT listFailed(m_listError);
        return;
    }
    m_listError.clear();
    m_listedAt = QDateTime::currentDateTime();
    m_global = list.globalCompatibility;
    m_model->setSubjects(list.subjects);
    // Every subject is read again (a new version, a changed level), the old details shown meanwhile.
    m_queue = list.subjects;
    m_queued = QSet<QString>(list.subjects.cbegin(), list.subjects.cend());
    if (!m_selectWhenListed.isEmpty() && m_model->rowOf(m_selectWhenListed) >= 0)
        openSubject(std::exchange(m_selectWhenListed, QString()), m_versionWhenListed);
    Q_EMIT subjectsListed(int(list.subjects.size()));
    scheduleDetails();
    updateStatus();
    if (list.subjects.isEmpty())
        Q_EMIT detailsLoaded(); // otherwise the last chunk says so
}

int SchemasPanel::pendingDetails() const
{
    return int(m_queued.size()) + m_inFlight;
}

QStringList SchemasPanel::nextChunk()
{
    QStringList chunk;
    const auto take = [&](const QString &subject) {
        if (chunk.size() < kChunk && m_queued.remove(subject))
            chunk.append(subject);
    };
    // The rows on screen first, in their (sorted, filtered) order.
    const int first = m_view->rowAt(0);
    if (first >= 0) {
        int last = m_view->rowAt(m_view->viewport()->height() - 1);
        if (last < 0)
            last = m_proxy->rowCount() - 1;
        for (int row = first; row <= last && chunk.size() < kChunk; ++row)
            take(m_proxy->index(row, SchemaSubjectModel::Subject).data().toString());
    }
    while (chunk.size() < kChunk && !m_queue.isEmpty())
        take(m_queue.takeFirst());
    return chunk;
}

// Each lane is taken before its task starts; its answer (from the event loop,
// see Background.h) frees it and schedules the next chunk.
void SchemasPanel::scheduleDetails()
{
    if (!m_batchError.isEmpty())
        return;
    for (Lane &lane : m_lanes) {
        if (lane.busy || m_queued.isEmpty())
            continue;
        const QStringList chunk = nextChunk();
        if (chunk.isEmpty())
            break;
        lane.busy = true;
        m_inFlight += int(chunk.size());
        const quint64 generation = m_generation;
        inBackground<SummaryBatch>(
            this,
            [client = lane.client, chunk, global = m_global, stop = m_stop] {
                return readSubjectSummaries(*client, chunk, global, stop.get());
            },
            [this, generation, client = lane.client, n = int(chunk.size())](const SummaryBatch &batch) {
                if (generation == m_generation)
                    m_inFlight -= n;
                onChunk(generation, client, batch);
            });
    }
    m_progress->setVisible(pendingDetails() > 0);
}

void SchemasPanel::onChunk(quint64 generation, const std::shared_ptr<SchemaRegistryClient> &lane,
                           const SummaryBatch &batch)
{
    for (Lane &l : m_lanes) {
        if (l.client == lane)
            l.busy = false;
    }
    if (generation != m_generation) {
        scheduleDetails(); // the lane is free for the current batch
        return;
    }
    m_model->setSummaries(batch.summaries);
    if (!batch.error.ok() && m_batchError.isEmpty()) {
        // The registry stopped answering: the rest waits for the next refresh.
        m_batchError = tr("Could not read the subjects' details from the schema registry %1: %2")
                           .arg(where(), ConnectionDialog::explainRegistryFailure(batch.error));
        m_queue.clear();
        m_queued.clear();
    }
    scheduleDetails();
    updateStatus();
    if (pendingDetails() == 0)
        Q_EMIT detailsLoaded();
}

void SchemasPanel::onSelectionChanged()
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows(SchemaSubjectModel::Subject);
    if (rows.isEmpty())
        return; // the details stay: a refresh that re-sorts must not blank them
    const QString subject = rows.first().data().toString();
    if (subject != m_shownSubject)
        showSubject(subject, -1);
}

void SchemasPanel::openSubject(const QString &subject, int version)
{
    int row = m_model->rowOf(subject);
    if (row >= 0) {
        QModelIndex index = m_proxy->mapFromSource(m_model->index(row, SchemaSubjectModel::Subject));
        if (!index.isValid()) {
            m_filter->clear(); // the filter hid it
            index = m_proxy->mapFromSource(m_model->index(row, SchemaSubjectModel::Subject));
        }
        // The version first: selecting the row would ask for the latest.
        m_shownSubject = subject;
        m_view->selectionModel()->setCurrentIndex(index,
                                                  QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_view->scrollTo(index);
    } else {
        m_view->selectionModel()->clear(); // a click on the row shown before must ask again
        if (m_listing) {
            m_selectWhenListed = subject;
            m_versionWhenListed = version;
        }
    }
    showSubject(subject, version);
}

void SchemasPanel::showSubject(const QString &subject, int version)
{
    if (!hasRegistry())
        return;
    const quint64 generation = ++m_detailGeneration;
    // Arrowing down a list starts one task per row: those passed by skip their
    // requests (they share one client, one request at a time).
    if (m_detailStop)
        m_detailStop->store(true);
    m_detailStop = std::make_shared<std::atomic<bool>>(false);
    m_shownSubject = subject;
    m_shownVersion = version;
    m_details->showLoading(subject, version);
    std::shared_ptr<SchemaRegistryClient> client = m_registry->client();
    inBackground<SubjectVersionDetail>(
        this,
        [client, subject, version, stop = m_detailStop] {
            return readSubjectVersion(*client, subject, version, stop.get());
        },
        [this, generation](const SubjectVersionDetail &d) {
            if (generation != m_detailGeneration)
                return; // another subject or version was asked for meanwhile
            if (!d.error.ok()) {
                const QString message = tr("Could not read %1 from the schema registry %2: %3")
                                            .arg(d.subject, where(), ConnectionDialog::explainRegistryFailure(d.error));
                m_details->showError(d.subject, message);
                Q_EMIT subjectFailed(d.subject, message);
                return;
            }
            // Picking the newest version follows the latest on the next refresh.
            if (!d.versions.isEmpty() && d.schema.version == *std::max_element(d.versions.cbegin(), d.versions.cend()))
                m_shownVersion = -1;
            m_details->showDetail(d, m_model->topicText(d.subject));
            Q_EMIT subjectShown(d.subject, d.schema.version);
        });
}

QString SchemasPanel::statusText() const
{
    return m_status->text();
}

QString SchemasPanel::placeholderText() const
{
    return m_stack->currentIndex() == 0 ? m_placeholder->text() : QString();
}

void SchemasPanel::updateStatus()
{
    const int total = m_model->rowCount();
    m_progress->setVisible(m_listing || pendingDetails() > 0);
    m_progress->setRange(0, m_listing ? 0 : total); // a busy bar while listing
    m_progress->setValue(total - pendingDetails());
    if (m_listing) {
        setStatus(tr("Listing the subjects of the schema registry %1\u2026").arg(where()), false);
        return;
    }
    if (!m_listError.isEmpty()) {
        setStatus(m_listError, true);
        return;
    }
    if (!m_batchError.isEmpty()) {
        setStatus(m_batchError, true);
        return;
    }
    QString text = tr("%n subject(s) in the schema registry %1", nullptr, total).arg(where());
    // Apicurio's Confluent API lists at most apicurio.ccompat.max-subjects (1000 by default).
    if (total == kApicurioListCap)
        text += tr(" (the registry may list no more: Apicurio's apicurio.ccompat.max-subjects is %1 by default)")
                    .arg(kApicurioListCap);
    if (!m_global.isEmpty())
        text += QStringLiteral(" \u00b7 ") + tr("global compatibility %1").arg(m_global);
    if (pendingDetails() > 0)
        text +=
            QStringLiteral(" \u00b7 ") + tr("reading details %1 of %2\u2026").arg(total - pendingDetails()).arg(total);
    else if (m_listedAt.isValid())
        text += QStringLiteral(" \u00b7 ") + tr("updated %1").arg(m_listedAt.time().toString(Qt::ISODate));
    setStatus(text, false);
}

void SchemasPanel::setStatus(const QString &text, bool error)
{
    m_status->setStyleSheet(error ? QStringLiteral("color: #c01c28;") : QString());
    m_status->setText(text);
}

} // namespace md
