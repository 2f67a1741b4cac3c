// The main window's consumer-group monitors: tabs of the work area, one per
// group and cluster, restored with the layout.
#include "ui/window/MainWindow.h"

#include "engine/admin/ClusterClient.h"
#include "ui/cluster/ClusterPane.h"
#include "ui/job/GroupMonitor.h"
#include "ui/window/WorkArea.h"

namespace md {

QString MainWindow::groupMonitorKey(const ClusterConfig &cluster, const QString &groupId)
{
    // The bootstrap names the cluster (never a secret); a group id may hold '/', a bootstrap cannot.
    return QStringLiteral("group:") + cluster.bootstrap + QLatin1Char('/') + groupId;
}

GroupMonitor *MainWindow::watchGroup(const ClusterConfig &cluster, const QString &groupId)
{
    // One per group and cluster, a tab like a job's monitor, on the side of
    // that cluster's view: closing parks it (it goes on sampling) and Watch
    // lag opens it again where it was.
    const QString key = groupMonitorKey(cluster, groupId);
    const QString title = tr("Group %1 (%2)").arg(groupId, cluster.alias.isEmpty() ? cluster.bootstrap : cluster.alias);
    WorkArea::Side side = WorkArea::Left;
    for (ClusterPane *pane : {m_source, m_target}) {
        if (pane->client()->config().bootstrap == cluster.bootstrap && m_workArea->isOpen(pane))
            side = m_workArea->sideOf(pane);
    }
    auto *monitor = qobject_cast<GroupMonitor *>(m_workArea->page(key));
    if (!monitor)
        monitor = new GroupMonitor(cluster, groupId, GroupMonitor::defaultIntervalMs, m_workArea);
    m_workArea->open(monitor, key, title, side);
    return monitor;
}

void MainWindow::reopenGroupMonitors(const QList<QStringList> &layout)
{
    // Their clusters are the panes' (the same bootstrap): a group of a cluster no longer shown stays closed.
    for (const QStringList &keys : layout) {
        for (const QString &key : keys) {
            if (!key.startsWith(QLatin1String("group:")) || !m_workArea->hasPendingPage(key))
                continue;
            const QString rest = key.mid(6);
            const qsizetype slash = rest.indexOf(QLatin1Char('/'));
            if (slash <= 0)
                continue;
            for (ClusterPane *pane : {m_source, m_target}) {
                const ClusterConfig &config = pane->client()->config();
                if (config.bootstrap == rest.left(slash)) {
                    watchGroup(config, rest.mid(slash + 1));
                    break;
                }
            }
        }
    }
}

} // namespace md
