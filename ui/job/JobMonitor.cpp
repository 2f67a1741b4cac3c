#include "ui/job/JobMonitor.h"

#include "model/tables/GroupSyncTableModel.h"

#include "engine/admin/GroupLagSampler.h"
#include "engine/mirror/MirrorJob.h"
#include "engine/mirror/TopicNaming.h"
#include "model/tables/NumberFormat.h"
#include "model/tables/PartitionTableModel.h"
#include "ui/charts/ChartPanel.h"
#include "ui/charts/LagMapWidget.h"
#include "ui/cluster/PartitionSelection.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextStream>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

#include "ui/charts/QCustomPlotInclude.h"

namespace md {

namespace {
constexpr double kMB = 1e6; // throttle and charts use decimal megabytes, as Kafka quotas do
}

const QList<qint64> &JobMonitor::windowChoicesMs()
{
    static const QList<qint64> choices{60'000, 5 * 60'000, 15 * 60'000, 60 * 60'000, 0};
    return choices;
}

JobMonitor::JobMonitor(MonitoredJob *monitored, QWidget *parent) : JobMonitor(Kind::MirrorJob, monitored, parent)
{
}

JobMonitor::JobMonitor(Kind kind, MonitoredJob *monitored, QWidget *parent)
    : QWidget(parent), m_kind(kind), m_monitored(monitored)
{
    m_redrawTimer.setSingleShot(true);
    m_redrawTimer.setInterval(redrawIntervalMs);
    connect(&m_redrawTimer, &QTimer::timeout, this, &JobMonitor::redraw);
    build();
    connect(m_monitored, &MonitoredJob::snapshotAdded, this, &JobMonitor::onSnapshot);
    // What the job recorded before this view was made: drawn when it is first shown.
    if (!store().isEmpty()) {
        const QList<GroupSyncMetrics> &groups = store().latest().groups;
        if (!groups.isEmpty()) {
            m_groupsModel->setGroups(groups);
            m_tabs->setTabVisible(m_groupsTab, true);
        }
        m_stale = true;
    }
    watchJob();
}

JobMonitor::~JobMonitor() = default;

void JobMonitor::build()
{
    const bool group = m_kind == Kind::ConsumerGroup;
    auto *throughput = new ChartPanel(&m_monitored->store(), tr("records/s"), this);
    if (group) {
        // A group's consumption is seen through its commits, production through end offsets;
        // byte counts are not known.
        throughput->addSeries(MetricStore::Series::ConsumeRecordsPerSec, tr("committed records/s"));
        throughput->addSeries(MetricStore::Series::ProduceRecordsPerSec, tr("produced records/s"));
    } else {
        throughput->addSeries(MetricStore::Series::ConsumeRecordsPerSec, tr("consumed records/s"));
        throughput->addSeries(MetricStore::Series::ProduceRecordsPerSec, tr("produced records/s"));
        throughput->addSeries(MetricStore::Series::ConsumeBytesPerSec, tr("consumed MB/s"), 1.0 / kMB, true,
                              Qt::DashLine);
        throughput->addSeries(MetricStore::Series::ProduceBytesPerSec, tr("produced MB/s"), 1.0 / kMB, true,
                              Qt::DashLine);
        throughput->setRightAxisLabel(tr("MB/s"));
    }
    auto *lag = new ChartPanel(&m_monitored->store(), tr("records"), this);
    lag->addSeries(MetricStore::Series::TotalLag, tr("total lag (records)"));
    auto *lagTime = new ChartPanel(&m_monitored->store(), tr("seconds"), this);
    lagTime->addSeries(MetricStore::Series::LagTimeMs, tr("lag in time (s)"), 0.001);
    auto *latency = new ChartPanel(&m_monitored->store(), tr("ms"), this);
    latency->addSeries(MetricStore::Series::LatencyP50Ms, tr("latency p50 (ms)"));
    latency->addSeries(MetricStore::Series::LatencyP99Ms, tr("latency p99 (ms)"));
    m_lagMap = new LagMapWidget(&m_monitored->store(), this);
    m_charts = {throughput, lag, lagTime, latency, m_lagMap};

    m_partitionModel = new PartitionTableModel(this);
    m_partitionProxy = new QSortFilterProxyModel(this);
    m_partitionProxy->setSourceModel(m_partitionModel);
    m_partitionProxy->setSortRole(PartitionTableModel::SortRole);
    m_partitionProxy->setFilterKeyColumn(PartitionTableModel::TopicColumn);
    m_partitionProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_partitionView = new QTableView(this);
    m_partitionView->setObjectName(QStringLiteral("partitions"));
    m_partitionView->setModel(m_partitionProxy);
    m_partitionView->setSortingEnabled(true);
    m_partitionView->setMinimumHeight(48); // the lag map above keeps the room; the table scrolls
    m_partitionView->sortByColumn(PartitionTableModel::TopicColumn, Qt::AscendingOrder);
    m_partitionView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_partitionView->verticalHeader()->hide();
    m_partitionView->horizontalHeader()->setStretchLastSection(true);
    auto *filter = new QLineEdit(this);
    filter->setObjectName(QStringLiteral("partitionFilter"));
    filter->setPlaceholderText(tr("Filter topics"));
    filter->setClearButtonEnabled(true);
    connect(filter, &QLineEdit::textChanged, m_partitionProxy, &QSortFilterProxyModel::setFilterFixedString);
    followLagMapClicks(m_lagMap, m_partitionView, filter);

    auto *tablePane = new QWidget(this);
    auto *tableLayout = new QVBoxLayout(tablePane);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(filter);
    tableLayout->addWidget(m_partitionView);
    auto *partitions = new QSplitter(Qt::Vertical, this);
    partitions->addWidget(m_lagMap);
    partitions->addWidget(tablePane);

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("charts"));
    m_tabs->addTab(throughput, tr("Throughput"));
    m_tabs->addTab(lag, tr("Lag"));
    m_tabs->addTab(lagTime, tr("Lag in time"));
    m_tabs->addTab(latency, tr("Latency"));
    m_tabs->addTab(partitions, tr("Partitions"));
    m_groupsModel = new GroupSyncTableModel(this);
    auto *groupsView = new QTableView(this);
    groupsView->setObjectName(QStringLiteral("groupSyncTable"));
    groupsView->setModel(m_groupsModel);
    groupsView->verticalHeader()->hide();
    groupsView->horizontalHeader()->setStretchLastSection(true);
    groupsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_groupsTab = m_tabs->addTab(groupsView, tr("Groups"));
    m_tabs->setTabVisible(m_groupsTab, false); // until the job reports groups it syncs
    if (group) {
        // Hidden, not removed: tab indices stay the Chart values.
        m_tabs->setTabVisible(LagTime, false);
        m_tabs->setTabVisible(Latency, false);
        m_partitionView->setColumnHidden(PartitionTableModel::TargetTopicColumn, true);
        m_partitionView->setColumnHidden(PartitionTableModel::MirroredOffsetColumn, true);
        m_partitionView->setColumnHidden(PartitionTableModel::OwnerColumn, true);
    }
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (isVisible())
            redraw();
    });

    for (MonitorChart *c : std::as_const(m_charts)) {
        connect(c, &MonitorChart::userNavigated, this, [this] { setFollowLive(false); });
        connect(c, &MonitorChart::viewChangedByUser, this, [this, c] {
            m_followLive = false;
            m_live->setChecked(false);
            m_viewFromMs = c->viewFromMs();
            m_viewToMs = c->viewToMs();
            scheduleRedraw();
        });
    }

    // Time window and live controls.
    m_window = new QComboBox(this);
    m_window->setObjectName(QStringLiteral("window"));
    m_window->addItems({tr("1 min"), tr("5 min"), tr("15 min"), tr("1 h"), tr("Whole run")});
    m_window->setCurrentIndex(int(windowChoicesMs().indexOf(m_windowMs)));
    connect(m_window, &QComboBox::activated, this, [this](int i) { setWindowMs(windowChoicesMs().value(i)); });
    m_live = new QToolButton(this);
    m_live->setObjectName(QStringLiteral("live"));
    m_live->setText(tr("Live"));
    m_live->setCheckable(true);
    m_live->setChecked(true);
    m_live->setToolTip(tr("Follow the newest data; dragging or zooming a chart stops following"));
    connect(m_live, &QToolButton::clicked, this, [this](bool on) { setFollowLive(on); });

    auto *exportButton = new QToolButton(this);
    exportButton->setObjectName(QStringLiteral("export"));
    exportButton->setText(tr("Export"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    auto *exportMenu = new QMenu(exportButton);
    exportMenu->addAction(tr("Chart as PNG\u2026"), this, [this] { exportWithDialog(QStringLiteral("png")); });
    exportMenu->addAction(tr("Chart as PDF\u2026"), this, [this] { exportWithDialog(QStringLiteral("pdf")); });
    exportMenu->addAction(tr("Series as CSV\u2026"), this, [this] { exportWithDialog(QStringLiteral("csv")); });
    exportButton->setMenu(exportMenu);

    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Window:"), this));
    bar->addWidget(m_window);
    bar->addWidget(m_live);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("summary"));
    m_summary->setWordWrap(true); // a long status wraps instead of widening the window
    m_summary->setAlignment(Qt::AlignCenter);
    bar->addWidget(m_summary, 1);
    bar->addWidget(exportButton);

    // Job controls beside the charts.
    m_pause = new QToolButton(this);
    m_pause->setObjectName(QStringLiteral("pause"));
    m_pause->setText(tr("Pause"));
    m_resume = new QToolButton(this);
    m_resume->setObjectName(QStringLiteral("resume"));
    m_resume->setText(tr("Resume"));
    m_stop = new QToolButton(this);
    m_stop->setObjectName(QStringLiteral("stop"));
    m_stop->setText(tr("Stop"));
    for (QToolButton *b : {m_pause, m_resume, m_stop})
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    connect(m_pause, &QToolButton::clicked, this, [this] {
        if (job())
            job()->pause();
    });
    connect(m_resume, &QToolButton::clicked, this, [this] {
        if (job())
            job()->resume();
    });
    connect(m_stop, &QToolButton::clicked, this, [this] {
        if (job())
            job()->stop();
    });
    m_throttle = new QDoubleSpinBox(this);
    m_throttle->setObjectName(QStringLiteral("throttle"));
    m_throttle->setRange(0, 100000);
    m_throttle->setDecimals(1);
    m_throttle->setSingleStep(1);
    m_throttle->setSuffix(tr(" MB/s"));
    m_throttle->setSpecialValueText(tr("Unlimited"));
    m_throttle->setKeyboardTracking(false); // apply typed values once, not per keystroke
    m_throttle->setToolTip(tr("Bytes copied per second (1 MB = 1,000,000 bytes); 0 = unlimited. Applies live."));
    connect(m_throttle, &QDoubleSpinBox::valueChanged, this, [this](double mbPerSec) {
        if (job())
            job()->setThrottle(qint64(std::llround(mbPerSec * kMB)));
    });
    auto *controls = new QVBoxLayout;
    controls->addWidget(m_pause);
    controls->addWidget(m_resume);
    controls->addWidget(m_stop);
    controls->addSpacing(8);
    auto *throttleLabel = new QLabel(tr("Throttle:"), this);
    controls->addWidget(throttleLabel);
    controls->addWidget(m_throttle);
    controls->addStretch(1);
    if (group) {
        // Nothing to pause or throttle: the group belongs to someone else's consumers.
        for (QWidget *w : std::initializer_list<QWidget *>{m_pause, m_resume, m_stop, throttleLabel, m_throttle})
            w->hide();
    }

    auto *body = new QHBoxLayout;
    body->addWidget(m_tabs, 1);
    if (!group)
        body->addLayout(controls);
    else
        delete controls; // its widgets stay children of the monitor, hidden
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addLayout(body, 1);
}

void JobMonitor::watchJob()
{
    if (MirrorJob *job = this->job()) {
        connect(job, &MirrorJob::stateChanged, this, &JobMonitor::updateControls);
        connect(job, &MirrorJob::finished, this, &JobMonitor::updateControls);
        const QSignalBlocker blocker(m_throttle);
        m_throttle->setValue(double(job->spec().throttleBytesPerSecond) / kMB);
        if (m_kind == Kind::MirrorJob) {
            // Who owns the other partitions: DescribeConsumerGroups of the job's group, on the
            // sampler's thread. A failed poll keeps the last answer; the next one retries.
            m_ownersSampler = new GroupLagSampler(job->spec().source, consumerGroupId(job->spec()), this);
            m_ownersSampler->setIntervalMs(ownersIntervalMs);
            m_ownersSampler->setTimeoutMs(4000); // bounds the wait when the monitor closes mid-poll
            connect(m_ownersSampler, &GroupLagSampler::membersSampled, this, &JobMonitor::setGroupMembers);
        }
    }
    updateControls();
    updateOwnersPolling();
}

void JobMonitor::updateOwnersPolling()
{
    if (!m_ownersSampler)
        return;
    if (isVisible() && !m_ownersSampler->isRunning())
        m_ownersSampler->start();
    else if (!isVisible() && m_ownersSampler->isRunning())
        m_ownersSampler->stop();
}

void JobMonitor::setGroupMembers(const ConsumerGroupInfo &group, const MetricsSnapshot &groupOffsets)
{
    const MetricsSnapshot *own = store().isEmpty() ? nullptr : &m_monitored->store().latest();
    const QString memberId = own ? own->memberId : QString();
    QString instanceId = own ? own->instanceId : QString();
    if (instanceId.isEmpty() && job())
        instanceId = job()->spec().instanceId;
    QList<OtherMemberPartition> others = partitionsOfOtherMembers(group, groupOffsets.partitions, memberId, instanceId);
    if (job()) {
        for (OtherMemberPartition &o : others)
            o.metrics.targetTopic = targetTopicName(job()->spec(), o.metrics.topic);
    }
    int members = 0;
    for (const GroupMember &m : group.members) {
        if (!((!memberId.isEmpty() && m.memberId == memberId) ||
              (!instanceId.isEmpty() && m.groupInstanceId == instanceId)))
            ++members;
    }
    // Before the job reports its member id, one of them is this job.
    if (memberId.isEmpty() && instanceId.isEmpty() && job() && job()->isRunning())
        --members;
    m_otherMembers = std::max(0, members);
    m_partitionModel->setOtherMembers(std::move(others));
    m_summary->setText(summaryText());
}

void JobMonitor::updateControls()
{
    const JobState state = job() ? job()->state() : JobState::Stopped;
    const bool alive = job() && job()->isRunning();
    m_pause->setEnabled(alive && state != JobState::Paused && state != JobState::Stopping);
    m_resume->setEnabled(alive && state == JobState::Paused);
    m_stop->setEnabled(alive && state != JobState::Stopping);
    m_throttle->setEnabled(job() != nullptr);
}

void JobMonitor::onSnapshot(const MetricsSnapshot &snapshot)
{
    // The store has it already: only what this view shows follows.
    if (!snapshot.groups.isEmpty() || m_groupsModel->rowCount() > 0) {
        m_groupsModel->setGroups(snapshot.groups);
        m_tabs->setTabVisible(m_groupsTab, true);
    }
    scheduleRedraw(); // the controls follow the job's stateChanged
}

void JobMonitor::scheduleRedraw()
{
    if (!isVisible()) {
        m_stale = true;
        return;
    }
    if (!m_redrawTimer.isActive())
        m_redrawTimer.start();
}

void JobMonitor::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    updateOwnersPolling();
    if (m_stale) {
        m_stale = false;
        scheduleRedraw();
    }
}

void JobMonitor::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    updateOwnersPolling();
    if (m_redrawTimer.isActive()) {
        m_redrawTimer.stop();
        m_stale = true;
    }
}

void JobMonitor::currentWindow(qint64 *fromMs, qint64 *toMs) const
{
    if (!m_followLive) {
        *fromMs = m_viewFromMs;
        *toMs = m_viewToMs;
        return;
    }
    const qint64 last = store().isEmpty() ? QDateTime::currentMSecsSinceEpoch() : store().lastTimeMs();
    *toMs = last;
    if (m_windowMs > 0)
        *fromMs = last - m_windowMs;
    else
        *fromMs = store().isEmpty() ? last - 60'000 : std::min(store().firstTimeMs(), last - 1000);
}

void JobMonitor::redraw()
{
    m_redrawTimer.stop();
    if (!isVisible()) {
        m_stale = true;
        return;
    }
    QElapsedTimer timer;
    timer.start();
    qint64 from = 0;
    qint64 to = 0;
    currentWindow(&from, &to);
    const Chart current = currentChart();
    // The Groups tab is a table, not a chart: nothing to refresh there.
    if (current >= 0 && current < m_charts.size())
        m_charts.at(current)->refresh(from, to);
    if (current == Partitions)
        m_partitionModel->setRows(store().partitionTable());
    m_summary->setText(summaryText());
    ++m_redraws;
    m_redrawNs += timer.nsecsElapsed();
}

QString JobMonitor::summaryText() const
{
    if (store().isEmpty())
        return {};
    const MetricsSnapshot &s = store().latest();
    // Lag in time: the oldest next record's age, then when the slowest partition catches up.
    const QString lagTime =
        s.maxLagMs < 0 ? QString()
                       : tr(" (%1) \u2022 catch-up %2").arg(lagTimeText(s.maxLagMs), catchUpText(s.catchUpSeconds));
    if (m_kind == Kind::ConsumerGroup)
        return tr("%1 partitions \u2022 %2 records/s committed \u2022 lag %3%4 \u2022 %5")
            .arg(QString::number(s.partitions.size()),
                 formatCount(store().recentMean(MetricStore::Series::ConsumeRecordsPerSec)),
                 formatCount(double(s.totalLag)), lagTime, jobLagStatusName(status()));
    QString text = tr("%1 \u2022 %2 records/s \u2022 lag %3%4 \u2022 %5")
                       .arg(jobStateName(s.state), formatCount(s.produceRecordsPerSec), // the job list's figure
                            formatCount(double(s.totalLag)), lagTime, jobLagStatusName(status()));
    if (s.retentionAtRisk > 0)
        text += QStringLiteral(" \u2022 ") + MonitoredJob::retentionRiskText(s);
    if (job() && job()->spec().delivery == DeliveryGuarantee::ExactlyOnce)
        text += tr(" \u2022 exactly-once");
    if (m_otherMembers > 0)
        text += tr(" \u2022 shared with %n other member(s)", nullptr, m_otherMembers);
    if (s.vanishedRecords > 0) {
        // Never silent: retention or DeleteRecords removed them before they were copied.
        text += tr(" \u2022 %1 records vanished from the source before they were copied")
                    .arg(formatCount(double(s.vanishedRecords)));
    }
    return text;
}

void JobMonitor::setCurrentChart(Chart chart)
{
    m_tabs->setCurrentIndex(int(chart));
}

JobMonitor::Chart JobMonitor::currentChart() const
{
    return Chart(m_tabs->currentIndex());
}

void JobMonitor::setWindowMs(qint64 windowMs)
{
    const qsizetype index = windowChoicesMs().indexOf(windowMs);
    if (index < 0)
        return;
    m_windowMs = windowMs;
    m_window->setCurrentIndex(int(index));
    setFollowLive(true);
}

void JobMonitor::setFollowLive(bool live)
{
    if (!live && m_followLive) {
        // Freeze on what is shown now, so a press without a drag keeps the picture.
        currentWindow(&m_viewFromMs, &m_viewToMs);
    }
    m_followLive = live;
    m_live->setChecked(live);
    if (isVisible())
        redraw();
    else
        m_stale = true;
}

void JobMonitor::showRange(qint64 fromMs, qint64 toMs)
{
    m_followLive = false;
    m_live->setChecked(false);
    m_viewFromMs = fromMs;
    m_viewToMs = std::max(toMs, fromMs + 1);
    if (isVisible())
        redraw();
    else
        m_stale = true;
}

MonitorChart *JobMonitor::chart(Chart chart) const
{
    return m_charts.value(int(chart));
}

QCustomPlot *JobMonitor::plot(Chart chart) const
{
    MonitorChart *c = m_charts.value(int(chart));
    return c ? c->plot() : nullptr;
}

QCPColorMap *JobMonitor::lagMap() const
{
    return m_lagMap->colorMap();
}

bool JobMonitor::savePng(const QString &path, QString *error)
{
    // QCustomPlot renders into the file itself; a failure leaves no usable file to keep.
    QCustomPlot *chart = plot(currentChart());
    if (!chart) {
        if (error)
            *error = tr("The Groups tab is a table, not a chart: choose a chart tab to export");
        return false;
    }
    if (chart->savePng(path, 0, 0, 1.0, -1, 96))
        return true;
    if (error)
        *error = tr("Could not write the PNG image %1").arg(path);
    return false;
}

bool JobMonitor::savePdf(const QString &path, QString *error)
{
    QCustomPlot *chart = plot(currentChart());
    if (!chart) {
        if (error)
            *error = tr("The Groups tab is a table, not a chart: choose a chart tab to export");
        return false;
    }
    if (chart->savePdf(path))
        return true;
    if (error)
        *error = tr("Could not write the PDF file %1").arg(path);
    return false;
}

bool JobMonitor::saveCsv(const QString &path, QString *error)
{
    MonitorChart *chart = m_charts.value(int(currentChart()));
    if (!chart) {
        if (error)
            *error = tr("The Groups tab is a table, not a chart: choose a chart tab to export");
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
        if (error)
            *error = tr("Could not open %1 for writing: %2").arg(path, file.errorString());
        return false;
    }
    qint64 from = 0;
    qint64 to = 0;
    currentWindow(&from, &to);
    {
        QTextStream out(&file);
        chart->writeCsv(out, from, to);
        out.flush();
        if (out.status() != QTextStream::Ok) {
            file.cancelWriting();
            if (error)
                *error = tr("Could not write %1: %2").arg(path, file.errorString());
            return false;
        }
    }
    if (!file.commit()) {
        if (error)
            *error = tr("Could not save %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void JobMonitor::exportWithDialog(const QString &kind)
{
    const QString filter = kind == QLatin1String("png")   ? tr("PNG images (*.png)")
                           : kind == QLatin1String("pdf") ? tr("PDF documents (*.pdf)")
                                                          : tr("CSV files (*.csv)");
    QString path = QFileDialog::getSaveFileName(this, tr("Export"), {}, filter);
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1Char('.') + kind, Qt::CaseInsensitive))
        path += QLatin1Char('.') + kind;
    QString error;
    const bool ok = kind == QLatin1String("png")   ? savePng(path, &error)
                    : kind == QLatin1String("pdf") ? savePdf(path, &error)
                                                   : saveCsv(path, &error);
    if (!ok)
        QMessageBox::warning(this, tr("Export failed"), error);
}

} // namespace md
