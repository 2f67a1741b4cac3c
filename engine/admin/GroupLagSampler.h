#pragma once

#include "engine/admin/AdminService.h"
#include "engine/core/ClusterConfig.h"
#include "engine/core/WorkerThread.h"
#include "engine/mirror/MetricsSnapshot.h"

#include <QObject>

namespace md {

class GroupLagWorker;

// Watches one consumer group of one cluster: polls its committed offsets and the end
// offsets of its partitions (AdminService::groupOffsets) every interval on its own thread,
// and turns each poll into a MetricsSnapshot, so a JobMonitor (charts, lag map, partition
// table, Burrow status) shows the group exactly as it shows a mirror job:
//  - jobName = the group id, state Running while polls succeed;
//  - per partition: endOffset, committedOffset, lag = end - committed (-1: no commit),
//    nextOffset -1 (the group's position is its commit, which the status rules then use);
//  - consume rate = committed offsets' advance per second (what the group consumed),
//    produce rate = end offsets' advance per second (what producers wrote);
//  - totalLag = sum of the known lags; latency unknown (-1);
//  - lag in time per partition: now minus the timestamp of the record at the committed offset
//    (one read per partition and offset, cached: RecordTimestampReader), 0 when caught up;
//    time to catch up from the smoothed net drain rate, the slowest partition deciding.
// One signal per poll, never per partition; when the group could also be described, a second
// one carries its members and their assignments (which member owns which partition).
class GroupLagSampler final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GroupLagSampler)
public:
    GroupLagSampler(const ClusterConfig &cluster, const QString &groupId, QObject *parent = nullptr);
    ~GroupLagSampler() override; // stops polling; waits for a poll under way (bounded by the timeout)

    const ClusterConfig &cluster() const { return m_cluster; }
    const QString &groupId() const { return m_groupId; }
    int intervalMs() const { return m_intervalMs; }

    // The poll period (at least 200 ms); applies live.
    void setIntervalMs(int ms);
    // The bound of each admin call (default 10 s); before start().
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }
    // Polls at once, then every interval. Returns at once.
    void start();
    void stop();
    // One extra poll now (the schedule continues).
    void sampleNow();
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void sampled(const md::MetricsSnapshot &snapshot);
    // After sampled(), when the poll also described the group: its members, with the same poll's
    // snapshot. Not emitted when the describe failed (the offsets alone are still sampled).
    void membersSampled(const md::ConsumerGroupInfo &group, const md::MetricsSnapshot &snapshot);
    // A poll failed (the next one retries); the message names the cluster and the reason.
    void failed(const QString &error);

private:
    ClusterConfig m_cluster;
    QString m_groupId;
    int m_intervalMs = 5000;
    int m_timeoutMs = 10000;
    bool m_running = false;
    WorkerThread m_thread{QStringLiteral("group-lag")};
    GroupLagWorker *m_worker = nullptr; // lives on m_thread, deleted there when it ends
};

} // namespace md
