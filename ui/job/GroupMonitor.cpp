#include "ui/job/GroupMonitor.h"

#include "engine/admin/GroupLagSampler.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace md {

GroupMonitor::GroupMonitor(const ClusterConfig &cluster, const QString &groupId, int intervalMs, QWidget *parent)
    : QWidget(parent), m_groupId(groupId), m_cluster(cluster)
{
    m_sampler = new GroupLagSampler(cluster, groupId, this);
    m_sampler->setIntervalMs(intervalMs);
    // Closing the window waits for a poll under way: keep that short.
    m_sampler->setTimeoutMs(5000);
    connect(m_sampler, &GroupLagSampler::sampled, this, &GroupMonitor::addSnapshot);
    connect(m_sampler, &GroupLagSampler::failed, this, &GroupMonitor::showError);
    build(intervalMs);
    m_sampler->start();
}

GroupMonitor::GroupMonitor(const QString &groupId, QWidget *parent) : QWidget(parent), m_groupId(groupId)
{
    build(defaultIntervalMs);
}

GroupMonitor::~GroupMonitor()
{
    delete m_monitor; // the view before the history it draws
}

void GroupMonitor::build(int intervalMs)
{
    setWindowTitle(tr("Consumer group %1").arg(m_groupId));
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("groupTitle"));
    m_title->setTextFormat(Qt::PlainText);
    const QString where = m_cluster.alias.isEmpty() ? m_cluster.bootstrap : m_cluster.alias;
    m_title->setText(where.isEmpty() ? tr("Consumer group %1").arg(m_groupId)
                                     : tr("Consumer group %1 on %2").arg(m_groupId, where));
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);

    m_interval = new QSpinBox(this);
    m_interval->setObjectName(QStringLiteral("interval"));
    m_interval->setRange(1, 3600);
    m_interval->setSuffix(tr(" s"));
    m_interval->setValue(std::max(1, intervalMs / 1000));
    m_interval->setToolTip(tr("How often the group's committed offsets and the end offsets are read"));
    m_interval->setEnabled(m_sampler != nullptr);
    connect(m_interval, &QSpinBox::valueChanged, this, [this](int s) {
        if (m_sampler)
            m_sampler->setIntervalMs(s * 1000);
    });
    m_sampleNow = new QToolButton(this);
    m_sampleNow->setObjectName(QStringLiteral("sampleNow"));
    m_sampleNow->setText(tr("Sample now"));
    m_sampleNow->setEnabled(m_sampler != nullptr);
    connect(m_sampleNow, &QToolButton::clicked, this, [this] {
        if (m_sampler)
            m_sampler->sampleNow();
    });

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("groupError"));
    m_error->setTextFormat(Qt::PlainText);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #d93636"));
    m_error->hide();

    // The status rules' window is ten observations at least 5 s apart: polls faster than
    // that are folded into it, slower ones stretch it to ten polls.
    m_history = new MonitoredJob(MetricStore::Config{}, this);
    connect(m_history, &MonitoredJob::statusChanged, this, &GroupMonitor::statusChanged);
    m_monitor = new JobMonitor(JobMonitor::Kind::ConsumerGroup, m_history, this);
    m_monitor->setObjectName(QStringLiteral("groupMonitor"));
    m_monitor->setCurrentChart(JobMonitor::Lag);

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_title, 1);
    bar->addWidget(new QLabel(tr("Every"), this));
    bar->addWidget(m_interval);
    bar->addWidget(m_sampleNow);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_error);
    layout->addWidget(m_monitor, 1);
    resize(900, 600);
}

void GroupMonitor::addSnapshot(const MetricsSnapshot &snapshot)
{
    m_error->hide();
    m_error->clear();
    m_history->addSnapshot(snapshot);
}

void GroupMonitor::showError(const QString &error)
{
    m_error->setText(error);
    m_error->show();
}

QString GroupMonitor::errorText() const
{
    return m_error->text();
}

} // namespace md
