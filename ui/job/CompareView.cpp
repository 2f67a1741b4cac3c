#include "ui/job/CompareView.h"

#include "ui/dialogs/SchemaSyncDialog.h"

#include "model/tables/ClusterDiffModel.h"
#include "ui/widgets/Background.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace md {

namespace {

QString sideName(const ClusterConfig &c, const QString &fallback)
{
    return c.alias.isEmpty() ? fallback : c.alias;
}

} // namespace

CompareView::CompareView(const MirrorJobSpec &spec, QWidget *parent) : QWidget(parent), m_spec(spec)
{
    setWindowTitle(tr("Compare clusters \u2014 %1").arg(spec.name));
    auto *title = new QLabel(
        tr("%1: %2 \u2192 %3")
            .arg(spec.name, sideName(spec.source, spec.source.bootstrap), sideName(spec.target, spec.target.bootstrap)),
        this);
    title->setTextFormat(Qt::PlainText);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);

    m_refresh = new QToolButton(this);
    m_refresh->setObjectName(QStringLiteral("refresh"));
    m_refresh->setText(tr("Refresh"));
    connect(m_refresh, &QToolButton::clicked, this, &CompareView::refresh);
    m_cancel = new QToolButton(this);
    m_cancel->setObjectName(QStringLiteral("cancelRefresh"));
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop reading the clusters (a cluster that does not answer takes its timeout)"));
    m_cancel->hide();
    connect(m_cancel, &QToolButton::clicked, this, &CompareView::cancelRefresh);
    m_differencesOnly = new QCheckBox(tr("Differences only"), this);
    m_differencesOnly->setObjectName(QStringLiteral("differencesOnly"));
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("filter"));
    m_filter->setPlaceholderText(tr("Filter topics"));
    m_filter->setClearButtonEnabled(true);

    m_summary = new QLabel(tr("Reading both clusters\u2026"), this);
    m_summary->setObjectName(QStringLiteral("summary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("error"));
    m_error->setTextFormat(Qt::PlainText);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #d93636"));
    m_error->hide();
    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("note"));
    m_note->setTextFormat(Qt::PlainText);
    m_note->setWordWrap(true);
    m_note->setEnabled(false); // the palette's quieter text: a fact about a cluster, not an error
    m_note->hide();

    m_model = new ClusterDiffModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ClusterDiffModel::SortRole);
    m_proxy->setFilterKeyColumn(ClusterDiffModel::NameColumn);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    // A topic that matches keeps its partitions; partitions never match on their own.
    m_proxy->setRecursiveFilteringEnabled(false);
    m_proxy->setAutoAcceptChildRows(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_differencesOnly, &QCheckBox::toggled, m_model, &ClusterDiffModel::setDifferencesOnly);

    m_view = new QTreeView(this);
    m_view->setObjectName(QStringLiteral("diff"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ClusterDiffModel::NameColumn, Qt::AscendingOrder);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->header()->setStretchLastSection(true);

    m_schemasTitle = new QLabel(tr("Schemas"), this);
    m_schemasTitle->setFont(bold);
    m_schemas = new QListWidget(this);
    m_schemas->setObjectName(QStringLiteral("schemas"));
    m_schemas->setWordWrap(true);
    m_schemas->setToolTip(tr("Records are copied byte for byte: a schema id the target's registry lacks, or holds as "
                             "another schema, breaks the readers of the target topic."));
    // Both registries known: the schemas can be copied from here (a preview first).
    m_syncSchemas = new QPushButton(tr("Sync Schemas Now\u2026"), this);
    m_syncSchemas->setObjectName(QStringLiteral("syncSchemasNow"));
    m_syncSchemas->setToolTip(tr("Register the mirrored topics' subjects (and what they reference) on the target's "
                                 "registry, as the job's schema sync does; shows what it would register first"));
    m_syncSchemas->setVisible(m_spec.source.schemaRegistry.isSet() && m_spec.target.schemaRegistry.isSet());
    connect(m_syncSchemas, &QPushButton::clicked, this, [this] {
        auto *dialog = new SchemaSyncDialog(m_spec, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &SchemaSyncDialog::registered, this, &CompareView::refresh);
        dialog->open();
    });
    auto *schemas = new QWidget(this);
    auto *schemasLayout = new QVBoxLayout(schemas);
    schemasLayout->setContentsMargins(0, 0, 0, 0);
    auto *schemasTop = new QHBoxLayout;
    schemasTop->addWidget(m_schemasTitle, 1);
    schemasTop->addWidget(m_syncSchemas, 0, Qt::AlignTop);
    schemasLayout->addLayout(schemasTop);
    schemasLayout->addWidget(m_schemas, 1);
    schemas->hide();
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(schemas);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    auto *bar = new QHBoxLayout;
    bar->addWidget(title, 1);
    bar->addWidget(m_filter);
    bar->addWidget(m_differencesOnly);
    bar->addWidget(m_refresh);
    bar->addWidget(m_cancel);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_summary);
    layout->addWidget(m_error);
    layout->addWidget(m_note);
    layout->addWidget(split, 1);
    resize(1000, 600);
    refresh();
}

CompareView::~CompareView()
{
    if (m_fetchCancel)
        m_fetchCancel->store(true); // the reading ends on its own; nothing waits
}

const ClusterDiff &CompareView::diff() const
{
    return m_model->diff();
}

QString CompareView::summaryText() const
{
    return m_summary->text();
}

QString CompareView::errorText() const
{
    return m_error->text();
}

QString CompareView::noteText() const
{
    return m_note->text();
}

void CompareView::setDifferencesOnly(bool on)
{
    m_differencesOnly->setChecked(on);
}

void CompareView::refresh()
{
    if (m_fetching) {
        m_refreshAgain = true;
        return;
    }
    m_fetching = true;
    m_refresh->setEnabled(false);
    m_cancel->show();
    m_fetchCancel = std::make_shared<std::atomic_bool>(false);
    const quint64 generation = ++m_generation;
    inBackground<ClusterSnapshot>(
        this,
        [spec = m_spec, cancel = m_fetchCancel] {
            return readClusterSnapshot(spec, 10000, SnapshotMaxConfigTopics, cancel.get());
        },
        [this, generation](const ClusterSnapshot &snapshot) {
            if (generation == m_generation)
                apply(snapshot);
        });
}

void CompareView::cancelRefresh()
{
    if (!m_fetching)
        return;
    m_fetchCancel->store(true);
    ++m_generation; // its answer, when it comes, is dropped
    m_fetching = false;
    m_refreshAgain = false;
    m_refresh->setEnabled(true);
    m_cancel->hide();
    m_summary->setText(tr("Cancelled: the clusters were not read. Refresh reads them again."));
    Q_EMIT refreshed();
}

void CompareView::apply(const ClusterSnapshot &inputs)
{
    m_fetching = false;
    m_refresh->setEnabled(true);
    m_cancel->hide();
    if (!inputs.error.isEmpty()) {
        m_summary->setText(tr("Could not compare the clusters."));
        m_error->setText(inputs.error);
        m_error->show();
    } else {
        const ClusterDiff diff =
            diffClusters(m_spec, inputs.source, inputs.target, inputs.sourceConfigs, inputs.targetConfigs);
        m_model->setDiff(diff);
        m_summary->setText(diff.summary());
        m_error->setText(inputs.warnings.join(QLatin1Char('\n')));
        m_error->setVisible(!inputs.warnings.isEmpty());
        m_note->setText(inputs.notes.join(QLatin1Char('\n')));
        m_note->setVisible(!inputs.notes.isEmpty());
        applySchemas(inputs.registry);
    }
    Q_EMIT refreshed();
    if (m_refreshAgain) {
        m_refreshAgain = false;
        refresh();
    }
}

void CompareView::applySchemas(const RegistryComparison &c)
{
    m_registry = c;
    m_schemas->clear();
    m_schemas->parentWidget()->setVisible(c.state != RegistryComparison::State::NoRegistry);
    if (c.state == RegistryComparison::State::NoRegistry)
        return;
    m_schemasTitle->setText(c.summary());
    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    for (const QString &line : c.lines())
        m_schemas->addItem(new QListWidgetItem(warning, line));
    if (m_schemas->count() == 0)
        m_schemas->addItem(
            tr("Every schema id of the mirrored topics means the same schema on the target's registry."));
}

} // namespace md
