#include "ui/job/PlanView.h"

#include "engine/admin/ClusterProbe.h"
#include "engine/mirror/TargetTopicRule.h"
#include "model/tables/ProgressTableModel.h"
#include "ui/widgets/Background.h"

#include <QColor>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTime>
#include <QTimer>
#include <QVBoxLayout>

namespace md {

struct PlanView::Result {
    bool specOk = false;
    QString specError;
    ClusterConfig sourceConfig;
    ClusterConfig targetConfig;
    ProbedPlan probed;
    std::optional<MirrorJobSpec> spec; // for the start positions, read once the plan is shown
};

namespace {

enum Column {
    SourceTopic = PlanView::SourceTopicColumn,
    Partitions = PlanView::PartitionsColumn,
    TargetTopic = PlanView::TargetTopicColumn,
    Action = PlanView::ActionColumn,
    Note = PlanView::NoteColumn,
    Configs = PlanView::ConfigsColumn,
    ColumnCount = PlanView::ColumnCount
};

QString sideText(const QString &role, const ClusterConfig &c, const ClusterProbeResult &r)
{
    const QString name = role + QLatin1Char(' ') + (c.alias.isEmpty() ? QString() : c.alias + QLatin1Char(' ')) +
                         QLatin1Char('(') + c.bootstrap + QLatin1Char(')');
    if (!r.reachable)
        return name + QStringLiteral(": UNREACHABLE: ") + r.error;
    return name + QStringLiteral(": %1 topics").arg(r.topics.size());
}

} // namespace

PlanView::PlanView(QWidget *parent)
    : QWidget(parent), m_status(new QLabel(this)), m_table(new QTableWidget(0, ColumnCount, this)),
      m_views(new QTabWidget(this)), m_startsStatus(new QLabel(this)),
      m_startsModel(new ProgressTableModel(ProgressTableModel::Mode::Plan, this)),
      m_startsProxy(new QSortFilterProxyModel(this)), m_starts(new QTableView(this)),
      m_schemasList(new QListWidget(this)), m_aclSyncList(new QListWidget(this)),
      m_schemaSyncList(new QListWidget(this)), m_debounce(new QTimer(this))
{
    m_status->setObjectName(QStringLiteral("planStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setObjectName(QStringLiteral("planTable"));
    m_table->setHorizontalHeaderLabels({tr("Source topic"), tr("Partitions"), tr("Target topic"), tr("Action"),
                                        tr("Note"), tr("Created with configs")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    // Per partition: where the job starts, why, and what that copies.
    m_startsStatus->setObjectName(QStringLiteral("planStartsStatus"));
    m_startsStatus->setWordWrap(true);
    m_startsStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_startsStatus->setToolTip(tr("Committed progress in the job's group always wins: the profile's start position "
                                  "only applies to partitions without progress. Reset Progress changes it."));
    m_startsProxy->setSourceModel(m_startsModel);
    m_startsProxy->setSortRole(ProgressTableModel::SortRole);
    m_starts->setObjectName(QStringLiteral("planStarts"));
    m_starts->setModel(m_startsProxy);
    m_starts->setSortingEnabled(true);
    m_starts->sortByColumn(-1, Qt::AscendingOrder);
    m_starts->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_starts->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_starts->verticalHeader()->hide();
    m_starts->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_starts->horizontalHeader()->setStretchLastSection(true);
    // "Starts" names the committed offset or its absence; the log start and end are in
    // each row's tooltip. What is left fits the editor's window.
    m_starts->hideColumn(ProgressTableModel::LogStartColumn);
    m_starts->hideColumn(ProgressTableModel::EndColumn);
    m_starts->hideColumn(ProgressTableModel::CommittedColumn);
    auto *starts = new QWidget(this);
    auto *startsLayout = new QVBoxLayout(starts);
    startsLayout->setContentsMargins(0, 4, 0, 0);
    auto *resetProgress = new QPushButton(tr("Reset &Progress\u2026"), starts);
    resetProgress->setObjectName(QStringLiteral("resetProgress"));
    resetProgress->setToolTip(tr("Choose where this job's group restarts each partition, preview it, then reset"));
    connect(resetProgress, &QPushButton::clicked, this, &PlanView::resetProgressRequested);
    auto *startsTop = new QHBoxLayout;
    startsTop->addWidget(m_startsStatus, 1);
    startsTop->addWidget(resetProgress, 0, Qt::AlignTop);
    startsLayout->addLayout(startsTop);
    startsLayout->addWidget(m_starts, 1);
    m_views->setObjectName(QStringLiteral("planViews"));
    m_views->setDocumentMode(true);
    m_views->addTab(m_table, tr("Topics"));
    m_views->addTab(starts, tr("Start positions"));
    m_schemasList->setObjectName(QStringLiteral("planSchemas"));
    m_schemasList->setWordWrap(true);
    m_schemasList->setToolTip(tr("Records are copied byte for byte: a schema id the target's registry lacks, or holds "
                                 "as another schema, breaks the readers of the target topic."));
    m_views->addTab(m_schemasList, tr("Schemas"));
    m_aclSyncList->setObjectName(QStringLiteral("planAclSync"));
    m_aclSyncList->setWordWrap(true);
    m_aclSyncList->setToolTip(tr("What one round of the job's ACL sync would create and delete on the target now; "
                                 "nothing is changed. Only bindings this job created are ever deleted: the "
                                 "target's own bindings are never touched."));
    m_views->addTab(m_aclSyncList, tr("ACL sync"));
    m_schemaSyncList->setObjectName(QStringLiteral("planSchemaSync"));
    m_schemaSyncList->setWordWrap(true);
    m_schemaSyncList->setToolTip(tr("What one round of the job's schema sync would register on the target's registry "
                                    "now, and the ids the target already has; nothing is registered."));
    m_views->addTab(m_schemaSyncList, tr("Schema sync"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_status);
    layout->addWidget(m_views, 1);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(DefaultDebounceMs);
    connect(m_debounce, &QTimer::timeout, this, &PlanView::startProbe);
    setState(State::Idle, tr("The plan appears once the profile is valid."));
    m_startsStatus->setText(tr("Where each partition starts appears with the plan."));
    clearAclSync(tr("What ACL sync would create and delete appears with the plan."));
    clearSchemaSync(tr("What schema sync would register appears with the plan."));
}

void PlanView::setDebounceMs(int ms)
{
    m_debounce->setInterval(ms);
}

void PlanView::setProfile(const JobProfile &profile, const ReferenceResolver &resolver)
{
    // Only what reaches the clusters or the plan matters; ignore the rest so
    // typing a job name does not re-probe.
    auto relevant = [](JobProfile p) {
        p.name.clear();
        p.fileName.clear();
        return p;
    };
    if (m_haveProfile && relevant(profile) == relevant(m_profile) && m_state != State::Invalid) {
        m_profile = profile;
        return;
    }
    m_profile = profile;
    m_resolver = resolver;
    m_haveProfile = true;
    ++m_generation;
    if (m_state != State::Probing)
        setState(State::Waiting,
                 m_state == State::Ready ? m_status->text() : tr("Waiting for the edits to settle\u2026"));
    m_debounce->start();
}

void PlanView::setInvalid(const QString &reason)
{
    ++m_generation;
    m_debounce->stop();
    m_haveProfile = false;
    m_plan = {};
    m_table->setRowCount(0);
    setState(State::Invalid, tr("No plan while the profile has errors: %1").arg(reason));
    clearProgress(tr("No start positions while the profile has errors."));
    clearAclSync(tr("No ACL sync plan while the profile has errors."));
    clearSchemaSync(tr("No schema sync plan while the profile has errors."));
    Q_EMIT planUpdated();
}

void PlanView::refreshNow()
{
    if (!m_haveProfile)
        return;
    ++m_generation;
    m_debounce->stop();
    startProbe();
}

QString PlanView::statusText() const
{
    return m_status->text();
}

QString PlanView::startsText() const
{
    return m_startsStatus->text();
}

void PlanView::clearProgress(const QString &why)
{
    m_progress = {};
    m_startsModel->clear();
    m_startsStatus->setText(why);
}

void PlanView::applyProgress(quint64 generation, const JobProgress &progress)
{
    if (generation != m_generation)
        return;
    m_progress = progress;
    if (!progress.ok) {
        m_startsModel->clear();
        m_startsStatus->setText(tr("Cannot tell where the partitions start: %1").arg(progress.error));
    } else {
        m_startsModel->setPartitions(progress.partitions);
        m_startsStatus->setText(describeTotal(progress) + QStringLiteral(" \u2014 ") + describeGroup(progress) +
                                tr("; as of %1").arg(QTime::currentTime().toString()));
    }
    Q_EMIT progressUpdated();
}

void PlanView::readSchemas(const MirrorJobSpec &spec)
{
    const quint64 generation = m_generation;
    QList<MirroredTopic> topics;
    for (const TopicPlanEntry &e : std::as_const(m_plan.topics))
        topics.append({e.sourceTopic, e.targetTopic});
    inBackground<RegistryComparison>(
        this,
        [source = spec.source.schemaRegistry, target = spec.target.schemaRegistry, topics] {
            return readRegistryComparison(source, target, topics, ProbeTimeoutMs);
        },
        [this, generation](const RegistryComparison &c) { applySchemas(generation, c); });
}

void PlanView::applySchemas(quint64 generation, const RegistryComparison &c)
{
    if (generation != m_generation)
        return;
    m_schemas = c;
    m_schemasList->clear();
    if (c.state == RegistryComparison::State::NoRegistry) {
        m_schemasList->addItem(tr("Neither cluster has a schema registry configured: nothing to compare."));
    } else {
        m_schemasList->addItem(c.summary());
        const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
        for (const QString &line : c.lines())
            m_schemasList->addItem(new QListWidgetItem(warning, line));
    }
    const qsizetype n = c.lines().size();
    m_views->setTabText(m_views->indexOf(m_schemasList), n ? tr("Schemas (%1)").arg(n) : tr("Schemas"));
    Q_EMIT schemasUpdated();
}

void PlanView::readAclSync(const MirrorJobSpec &spec)
{
    const quint64 generation = m_generation;
    if (!spec.syncAcls) {
        // Nothing to ask either cluster.
        AclSyncPreview off;
        off.mode = spec.aclSyncMode;
        off.intervalMs = spec.aclSyncIntervalMs;
        applyAclSync(generation, off);
        return;
    }
    // The previous answer stays until the new one is in (as the start positions do).
    inBackground<AclSyncPreview>(
        this, [spec] { return readAclSyncPreview(spec, ProbeTimeoutMs); },
        [this, generation](const AclSyncPreview &preview) { applyAclSync(generation, preview); });
}

void PlanView::applyAclSync(quint64 generation, const AclSyncPreview &preview)
{
    if (generation != m_generation)
        return;
    m_aclSync = preview;
    m_aclSyncList->clear();
    const bool failed =
        preview.state == AclSyncPreview::State::NoTargetAuthorizer || preview.state == AclSyncPreview::State::Failed;
    auto *summary = new QListWidgetItem(preview.summary(), m_aclSyncList);
    if (failed)
        summary->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
    for (const AclSyncPreview::Line &line : preview.lines()) {
        auto *item = new QListWidgetItem(line.text, m_aclSyncList);
        switch (line.kind) {
        case AclSyncPreview::Line::Kind::Create: item->setForeground(QColor(0x1b, 0x5e, 0x20)); break;
        case AclSyncPreview::Line::Kind::Delete: item->setForeground(QColor(0xb0, 0x00, 0x20)); break;
        case AclSyncPreview::Line::Kind::Note: item->setForeground(QColor(0x75, 0x75, 0x75)); break;
        }
    }
    const qsizetype n = preview.state == AclSyncPreview::State::Ready ? preview.changes() : 0;
    m_views->setTabText(m_views->indexOf(m_aclSyncList), n ? tr("ACL sync (%1)").arg(n) : tr("ACL sync"));
    Q_EMIT aclSyncUpdated();
}

void PlanView::clearAclSync(const QString &why)
{
    m_aclSync = {};
    m_aclSyncList->clear();
    m_aclSyncList->addItem(why);
    m_views->setTabText(m_views->indexOf(m_aclSyncList), tr("ACL sync"));
}

void PlanView::readSchemaSync(const MirrorJobSpec &spec)
{
    const quint64 generation = m_generation;
    if (!spec.syncSchemas) {
        SchemaSyncPreview off;
        off.ids = spec.schemaIds;
        off.intervalMs = spec.schemaSyncIntervalMs;
        applySchemaSync(generation, off);
        return;
    }
    inBackground<SchemaSyncPreview>(
        this, [spec] { return readSchemaSyncPreview(spec, ProbeTimeoutMs); },
        [this, generation](const SchemaSyncPreview &preview) { applySchemaSync(generation, preview); });
}

void PlanView::applySchemaSync(quint64 generation, const SchemaSyncPreview &preview)
{
    if (generation != m_generation)
        return;
    m_schemaSync = preview;
    m_schemaSyncList->clear();
    auto *summary = new QListWidgetItem(preview.summary(), m_schemaSyncList);
    if (preview.state == SchemaSyncPreview::State::Refused || preview.state == SchemaSyncPreview::State::Failed)
        summary->setIcon(style()->standardIcon(preview.state == SchemaSyncPreview::State::Refused
                                                   ? QStyle::SP_MessageBoxCritical
                                                   : QStyle::SP_MessageBoxWarning));
    for (const SchemaSyncPreview::Line &line : preview.lines()) {
        auto *item = new QListWidgetItem(line.text, m_schemaSyncList);
        switch (line.kind) {
        case SchemaSyncPreview::Line::Kind::Register: item->setForeground(QColor(0x1b, 0x5e, 0x20)); break;
        case SchemaSyncPreview::Line::Kind::Failure:
            item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
            break;
        case SchemaSyncPreview::Line::Kind::Present: item->setForeground(QColor(0x75, 0x75, 0x75)); break;
        }
    }
    const int n = preview.state == SchemaSyncPreview::State::Ready ? preview.toRegister() : 0;
    m_views->setTabText(m_views->indexOf(m_schemaSyncList), n ? tr("Schema sync (%1)").arg(n) : tr("Schema sync"));
    Q_EMIT schemaSyncUpdated();
}

void PlanView::clearSchemaSync(const QString &why)
{
    m_schemaSync = {};
    m_schemaSyncList->clear();
    m_schemaSyncList->addItem(why);
    m_views->setTabText(m_views->indexOf(m_schemaSyncList), tr("Schema sync"));
}

void PlanView::setState(State state, const QString &text)
{
    m_state = state;
    m_status->setText(text);
}

void PlanView::startProbe()
{
    if (!m_haveProfile)
        return;
    // One probe at a time: when it ends, apply() sees it is stale and probes again.
    if (m_probeRunning)
        return;
    m_probeRunning = true;
    const quint64 generation = m_generation;
    const JobProfile profile = m_profile;
    const ReferenceResolver resolver = m_resolver;
    setState(State::Probing, tr("Contacting both clusters\u2026"));
    // Resolving references may ask the keychain and probing blocks for seconds:
    // both stay off the UI thread.
    inBackground<Result>(
        this,
        [profile, resolver] {
            Result r;
            QList<ProfileIssue> issues;
            r.spec = profile.toSpec(resolver, &issues);
            if (!r.spec) {
                for (const ProfileIssue &i : std::as_const(issues)) {
                    if (i.isError()) {
                        r.specError = (i.keyPath.isEmpty() ? QString() : i.keyPath + QStringLiteral(": ")) + i.message;
                        break;
                    }
                }
            } else {
                r.specOk = true;
                r.sourceConfig = r.spec->source;
                r.targetConfig = r.spec->target;
                // Both clusters, then the configs of the topics the job would create.
                r.probed = probeAndPlan(*r.spec, ProbeTimeoutMs);
            }
            return r;
        },
        [this, generation](const Result &r) { apply(generation, r); });
}

void PlanView::readProgress(const MirrorJobSpec &spec)
{
    const quint64 generation = m_generation;
    inBackground<JobProgress>(
        this, [spec] { return readJobProgress(spec, ProbeTimeoutMs); },
        [this, generation](const JobProgress &progress) { applyProgress(generation, progress); });
}

void PlanView::setConfigsCell(int row, const TopicPlanEntry &e)
{
    auto *item = new QTableWidgetItem;
    if (e.action == TopicPlanEntry::Action::Create) {
        // Only what the job will set on the new topic: the rest is the target's default.
        QStringList lines;
        for (auto it = e.configs.cbegin(); it != e.configs.cend(); ++it)
            lines << it.key() + QLatin1Char('=') + it.value();
        QString tip = lines.isEmpty() ? tr("No topic configs are set: the target's defaults apply.")
                                      : tr("Set on the new topic:\n%1").arg(lines.join(QLatin1Char('\n')));
        if (!e.configsNote.isEmpty())
            tip += QLatin1Char('\n') + e.configsNote;
        QString text = configsText(e.configs);
        if (text.isEmpty())
            text = e.configsNote.isEmpty() ? tr("(target's defaults)") : e.configsNote;
        else if (!e.configsNote.isEmpty())
            text += QStringLiteral(" (") + e.configsNote + QLatin1Char(')');
        item->setText(text);
        item->setToolTip(tip);
        if (e.configs.isEmpty())
            item->setForeground(QColor(0x75, 0x75, 0x75));
        // The exact map, for whoever reads the table (tests, copy).
        QVariantMap values;
        for (auto it = e.configs.cbegin(); it != e.configs.cend(); ++it)
            values.insert(it.key(), it.value());
        item->setData(Qt::UserRole, values);
    }
    m_table->setItem(row, Configs, item);
}

void PlanView::apply(quint64 generation, const Result &r)
{
    m_probeRunning = false;
    if (generation != m_generation) {
        // An edit came in meanwhile: that result is stale, probe the new profile.
        if (m_haveProfile && !m_debounce->isActive())
            startProbe();
        return;
    }
    if (!r.specOk) {
        m_plan = {};
        m_table->setRowCount(0);
        clearProgress(tr("No start positions: the clusters cannot be contacted."));
        clearAclSync(tr("No ACL sync plan: the clusters cannot be contacted."));
        clearSchemaSync(tr("No schema sync plan: the clusters cannot be contacted."));
        setState(State::Invalid, tr("Cannot contact the clusters: %1").arg(r.specError));
        Q_EMIT planUpdated();
        return;
    }
    const ClusterProbeResult &source = r.probed.source;
    const ClusterProbeResult &target = r.probed.target;
    if (!source.reachable || !target.reachable) {
        m_plan = {};
        m_table->setRowCount(0);
        clearProgress(tr("No start positions while a cluster is unreachable."));
        clearAclSync(tr("No ACL sync plan while a cluster is unreachable."));
        clearSchemaSync(tr("No schema sync plan while a cluster is unreachable."));
        setState(State::Unreachable, sideText(tr("Source"), r.sourceConfig, source) + QLatin1Char('\n') +
                                         sideText(tr("Target"), r.targetConfig, target));
        Q_EMIT planUpdated();
        return;
    }
    m_plan = r.probed.plan;
    // The previous start positions stay until the new ones are in.
    m_startsStatus->setText(tr("Reading the job group's committed offsets\u2026"));
    readProgress(*r.spec);
    readSchemas(*r.spec);
    readAclSync(*r.spec);
    readSchemaSync(*r.spec);
    int created = 0, errors = 0;
    m_table->setRowCount(int(m_plan.topics.size() + m_plan.excluded.size()));
    int row = 0;
    auto set = [this](int row, int column, const QString &text, const QColor &color = QColor()) {
        auto *item = new QTableWidgetItem(text);
        if (color.isValid())
            item->setForeground(color);
        m_table->setItem(row, column, item);
        return item;
    };
    for (const TopicPlanEntry &e : std::as_const(m_plan.topics)) {
        QString action;
        QColor color;
        switch (e.action) {
        case TopicPlanEntry::Action::Mirror: action = tr("mirror"); break;
        case TopicPlanEntry::Action::Create:
            action = tr("create");
            color = QColor(0x1b, 0x5e, 0x20);
            ++created;
            break;
        case TopicPlanEntry::Action::Error:
            action = tr("error");
            color = QColor(0xb0, 0x00, 0x20);
            ++errors;
            break;
        }
        set(row, SourceTopic, e.sourceTopic);
        set(row, Partitions, QString::number(e.sourcePartitions));
        set(row, TargetTopic, e.targetTopic);
        set(row, Action, action, color);
        set(row, Note, e.note, color)->setToolTip(e.note);
        setConfigsCell(row, e);
        ++row;
    }
    for (const ExcludedTopic &x : std::as_const(m_plan.excluded)) {
        const QColor grey(0x75, 0x75, 0x75);
        set(row, SourceTopic, x.topic, grey);
        set(row, Partitions, QString());
        set(row, TargetTopic, QString());
        set(row, Action, tr("excluded"), grey);
        set(row, Note, x.reason, grey);
        set(row, Configs, QString());
        ++row;
    }
    m_table->resizeColumnsToContents();
    const qsizetype mirrored = m_plan.topics.size();
    QString text = (mirrored == 1 ? tr("1 topic to mirror") : tr("%1 topics to mirror").arg(mirrored)) +
                   tr(", %1 to create, %2 excluded").arg(created).arg(m_plan.excluded.size());
    if (errors)
        text += errors == 1 ? tr(", 1 error") : tr(", %1 errors").arg(errors);
    if (m_plan.topics.isEmpty())
        text += tr(" (no source topic matches the include patterns)");
    text += QStringLiteral(" \u2014 ") + sideText(tr("source"), r.sourceConfig, source) + QStringLiteral("; ") +
            sideText(tr("target"), r.targetConfig, target) + tr("; as of %1").arg(QTime::currentTime().toString());
    setState(State::Ready, text);
    Q_EMIT planUpdated();
}

} // namespace md
