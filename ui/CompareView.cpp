#include "CompareView.h"

#include "AdminService.h"
#include "ClusterClient.h"
#include "ClusterDiffModel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QThread>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <functional>

namespace md {

namespace {

QString sideName(const ClusterConfig &c, const QString &fallback)
{
    return c.alias.isEmpty() ? fallback : c.alias;
}

// One cluster's metadata with watermarks, and the configs of the given topics.
bool fetchSide(const ClusterConfig &cluster, const QString &side, int timeoutMs, ClusterMetadata *metadata,
               const std::function<QStringList(const ClusterMetadata &)> &topicsFor, TopicConfigMap *configs,
               CompareInputs *out)
{
    QString error;
    const std::unique_ptr<ProbeClient> probe = ProbeClient::create(cluster, &error);
    if (!probe) {
        out->error = QStringLiteral("%1 cluster: %2").arg(side, error);
        return false;
    }
    std::optional<ClusterMetadata> md = probe->fetchMetadata(timeoutMs, true, &error);
    if (!md) {
        out->error = QStringLiteral("%1 cluster: %2").arg(side, error);
        return false;
    }
    *metadata = *md;
    const QStringList topics = topicsFor(*metadata);
    if (topics.size() > CompareView::maxConfigTopics) {
        out->warnings << QStringLiteral("%1: %2 topics, configs not compared (more than %3)")
                             .arg(side)
                             .arg(topics.size())
                             .arg(CompareView::maxConfigTopics);
        return true;
    }
    const std::unique_ptr<AdminService> admin = AdminService::create(cluster, &error, timeoutMs);
    if (!admin) {
        out->warnings << QStringLiteral("%1: configs not read: %2").arg(side, error);
        return true;
    }
    QStringList failed;
    for (const QString &topic : topics) {
        const AdminResult<QList<ConfigEntry>> r = admin->describeTopicConfigs(topic);
        if (r.ok())
            configs->insert(topic, r.value);
        else
            failed << QString(topic + QStringLiteral(" (") + r.error + QLatin1Char(')'));
    }
    if (!failed.isEmpty())
        out->warnings << QStringLiteral("%1: configs not read for %2").arg(side, failed.join(QStringLiteral(", ")));
    return true;
}

} // namespace

CompareInputs CompareView::fetchInputs(const MirrorJobSpec &spec, int timeoutMs)
{
    CompareInputs in;
    const QString sourceName = sideName(spec.source, QStringLiteral("source"));
    const QString targetName = sideName(spec.target, QStringLiteral("target"));
    QList<QPair<QString, QString>> pairs;
    const bool sourceOk = fetchSide(
        spec.source, sourceName, timeoutMs, &in.source,
        [&](const ClusterMetadata &md) {
            pairs = selectedTopicPairs(spec, md);
            QStringList names;
            for (const auto &p : std::as_const(pairs))
                names << p.first;
            return names;
        },
        &in.sourceConfigs, &in);
    if (!sourceOk)
        return in;
    fetchSide(
        spec.target, targetName, timeoutMs, &in.target,
        [&](const ClusterMetadata &md) {
            // Only the target topics that exist: a describe of a missing one only fails.
            QStringList names;
            for (const auto &p : std::as_const(pairs)) {
                if (md.topic(p.second))
                    names << p.second;
            }
            return names;
        },
        &in.targetConfigs, &in);
    return in;
}

CompareView::CompareView(const MirrorJobSpec &spec, QWidget *parent) : QWidget(parent), m_spec(spec)
{
    setWindowTitle(tr("Compare clusters \u2014 %1").arg(spec.name));
    auto *title = new QLabel(tr("%1: %2 \u2192 %3")
                                 .arg(spec.name, sideName(spec.source, spec.source.bootstrap),
                                      sideName(spec.target, spec.target.bootstrap)),
                             this);
    title->setTextFormat(Qt::PlainText);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);

    m_refresh = new QToolButton(this);
    m_refresh->setObjectName(QStringLiteral("refresh"));
    m_refresh->setText(tr("Refresh"));
    connect(m_refresh, &QToolButton::clicked, this, &CompareView::refresh);
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

    auto *bar = new QHBoxLayout;
    bar->addWidget(title, 1);
    bar->addWidget(m_filter);
    bar->addWidget(m_differencesOnly);
    bar->addWidget(m_refresh);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_summary);
    layout->addWidget(m_error);
    layout->addWidget(m_view, 1);
    resize(1000, 600);
    refresh();
}

CompareView::~CompareView()
{
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
    }
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

void CompareView::setDifferencesOnly(bool on)
{
    m_differencesOnly->setChecked(on);
}

void CompareView::refresh()
{
    if (m_thread) {
        m_refreshAgain = true;
        return;
    }
    m_refresh->setEnabled(false);
    const MirrorJobSpec spec = m_spec;
    m_thread = QThread::create([this, spec] {
        CompareInputs inputs = fetchInputs(spec);
        // Queued to the view's thread; dropped if the view is gone by then (it waits for
        // this thread in its destructor, so it cannot be gone while this runs).
        QMetaObject::invokeMethod(this, [this, inputs = std::move(inputs)] { apply(inputs); }, Qt::QueuedConnection);
    });
    m_thread->setObjectName(QStringLiteral("compare"));
    m_thread->start();
}

void CompareView::apply(const CompareInputs &inputs)
{
    if (m_thread) {
        m_thread->wait(); // it has nothing left to do but return
        delete m_thread;
        m_thread = nullptr;
    }
    m_refresh->setEnabled(true);
    if (!inputs.error.isEmpty()) {
        m_summary->setText(tr("Could not compare the clusters."));
        m_error->setText(inputs.error);
        m_error->show();
    } else {
        const ClusterDiff diff = diffClusters(m_spec, inputs.source, inputs.target, inputs.sourceConfigs,
                                              inputs.targetConfigs);
        m_model->setDiff(diff);
        m_summary->setText(diff.summary());
        m_error->setText(inputs.warnings.join(QLatin1Char('\n')));
        m_error->setVisible(!inputs.warnings.isEmpty());
    }
    Q_EMIT refreshed();
    if (m_refreshAgain) {
        m_refreshAgain = false;
        refresh();
    }
}

} // namespace md
