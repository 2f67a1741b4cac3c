#include "engine/admin/GroupLagSampler.h"

#include "engine/admin/AdminService.h"
#include "engine/admin/RecordTimestampReader.h"
#include "engine/mirror/LagTime.h"

#include <QElapsedTimer>
#include <QHash>
#include <QTimer>

#include <algorithm>
#include <memory>

namespace md {

namespace {

struct PartitionState {
    qint64 committed = -1;
    qint64 endOffset = -1;
    qint64 consumed = 0; // committed offsets' advance since the first poll
    DrainRate drain;
};

// Lag in time reads wait at most this long; the next poll asks again for what was not read.
constexpr int kTimestampReadMs = 3000;
constexpr qint64 kConfigEveryMs = 60000;

} // namespace

// Lives on the sampler's thread: owns the admin client and does every blocking call there.
class GroupLagWorker final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GroupLagWorker)
public:
    GroupLagWorker(const ClusterConfig &cluster, const QString &groupId, int timeoutMs)
        : m_cluster(cluster), m_groupId(groupId), m_timeoutMs(timeoutMs), m_timer(this)
    {
        connect(&m_timer, &QTimer::timeout, this, &GroupLagWorker::poll);
    }

    void start(int intervalMs)
    {
        m_timer.start(intervalMs);
        poll();
    }
    void stop() { m_timer.stop(); }
    void setInterval(int ms)
    {
        if (m_timer.isActive())
            m_timer.start(ms);
        else
            m_timer.setInterval(ms);
    }

    void poll()
    {
        QString error;
        if (!m_service) {
            m_service = AdminService::create(m_cluster, &error, m_timeoutMs);
            if (!m_service) {
                Q_EMIT failed(QStringLiteral("consumer group %1 on %2: %3").arg(m_groupId, m_cluster.bootstrap, error));
                return;
            }
        }
        std::optional<ConsumerGroupInfo> description;
        const AdminResult<QList<GroupPartitionOffset>> r = m_service->groupOffsets(m_groupId, &description);
        if (!r.ok()) {
            Q_EMIT failed(QStringLiteral("consumer group %1 on %2: %3").arg(m_groupId, m_cluster.bootstrap, r.error));
            return;
        }
        MetricsSnapshot snapshot = toSnapshot(r.value);
        addLagTime(snapshot);
        Q_EMIT sampled(snapshot);
        if (description)
            Q_EMIT membersSampled(*description, snapshot);
    }

Q_SIGNALS:
    void sampled(const md::MetricsSnapshot &snapshot);
    void membersSampled(const md::ConsumerGroupInfo &group, const md::MetricsSnapshot &snapshot);
    void failed(const QString &error);

private:
    // Lag in time of each lagging partition: the timestamp of the record at the group's
    // committed offset, one read per (partition, offset), as klag-exporter measures it.
    void addLagTime(MetricsSnapshot &s)
    {
        if (!m_timestamps)
            m_timestamps = std::make_unique<RecordTimestampReader>(m_cluster);
        QList<RecordAt> wanted;
        QStringList topics;
        for (const PartitionMetrics &p : std::as_const(s.partitions)) {
            if (p.lag > 0 && p.committedOffset >= 0)
                wanted.append({p.topic, p.partition, p.committedOffset});
            if (!topics.contains(p.topic))
                topics.append(p.topic);
        }
        if (m_configsReadMs < 0 || s.elapsedMs - m_configsReadMs >= kConfigEveryMs ||
            topics.size() != m_configs.size()) {
            const auto configs = m_timestamps->topicConfigs(topics, m_timeoutMs);
            if (!configs.isEmpty()) {
                m_configs = configs;
                m_configsReadMs = s.elapsedMs;
            }
        }
        const QHash<RecordAt, RecordTime> times =
            wanted.isEmpty() ? QHash<RecordAt, RecordTime>{} : m_timestamps->read(wanted, kTimestampReadMs);
        const qint64 nowMs = s.time.toMSecsSinceEpoch();
        QList<double> catchUp;
        for (PartitionMetrics &p : s.partitions) {
            const TopicTimeConfig config = m_configs.value(p.topic);
            p.timestampType = config.timestampType;
            p.retentionMs = config.known && config.deletes ? config.retentionMs : -1;
            const auto t = times.constFind(RecordAt{p.topic, p.partition, p.committedOffset});
            if (t != times.cend() && !t->atEnd && t->timestampMs >= 0)
                p.nextTimestampMs = t->timestampMs;
            p.lagMs = lagTimeMs(p.lag, p.nextTimestampMs, nowMs);
            const PartitionState st = m_partitions.value(partitionKey(p.topic, p.partition));
            p.catchUpSeconds =
                partitionCatchUpSeconds({p.lag, st.drain.primed(), st.drain.netPerSec(), st.drain.copyPerSec()});
            p.retentionAtRisk = retentionAtRisk(p.lag, p.nextTimestampMs, p.retentionMs, nowMs);
            if (p.lagMs >= 0)
                s.maxLagMs = std::max(s.maxLagMs, p.lagMs);
            if (p.retentionAtRisk)
                ++s.retentionAtRisk;
            catchUp.append(p.catchUpSeconds);
        }
        s.catchUpSeconds = slowestCatchUp(catchUp);
    }

    static QString partitionKey(const QString &topic, int partition)
    {
        return topic + QLatin1Char('\x1f') + QString::number(partition);
    }

    MetricsSnapshot toSnapshot(const QList<GroupPartitionOffset> &offsets)
    {
        MetricsSnapshot s;
        s.jobName = m_groupId;
        s.time = QDateTime::currentDateTimeUtc();
        if (!m_clock.isValid())
            m_clock.start();
        const qint64 elapsed = m_clock.elapsed();
        s.elapsedMs = elapsed;
        s.state = JobState::Running;
        const double seconds = m_lastElapsedMs >= 0 ? double(elapsed - m_lastElapsedMs) / 1000.0 : 0.0;
        qint64 consumedDelta = 0;
        qint64 producedDelta = 0;
        bool allCaughtUp = !offsets.isEmpty();
        QHash<QString, PartitionState> next;
        next.reserve(offsets.size());
        for (const GroupPartitionOffset &o : offsets) {
            const QString key = partitionKey(o.topic, o.partition);
            PartitionState st = m_partitions.value(key);
            // Only forward moves count as consumption or production: a reset backwards is a
            // rewind (the status rules show it), not negative throughput.
            if (st.committed >= 0 && o.committed > st.committed) {
                consumedDelta += o.committed - st.committed;
                st.consumed += o.committed - st.committed;
            }
            if (st.endOffset >= 0 && o.endOffset > st.endOffset)
                producedDelta += o.endOffset - st.endOffset;
            st.committed = o.committed;
            st.endOffset = o.endOffset;
            st.drain.add(elapsed, o.lag(), st.consumed);
            next.insert(key, st);

            PartitionMetrics p;
            p.topic = o.topic;
            p.targetTopic = o.topic;
            p.partition = o.partition;
            p.endOffset = o.endOffset;
            p.committedOffset = o.committed;
            p.lag = o.lag();
            p.records = st.consumed;
            p.caughtUp = p.lag == 0;
            allCaughtUp &= p.caughtUp;
            if (p.lag > 0)
                s.totalLag += p.lag;
            s.partitions.append(p);
        }
        m_partitions = std::move(next);
        m_consumed += consumedDelta;
        m_produced += producedDelta;
        s.recordsConsumed = m_consumed;
        s.recordsProduced = m_produced;
        if (seconds > 0) {
            s.consumeRecordsPerSec = double(consumedDelta) / seconds;
            s.produceRecordsPerSec = double(producedDelta) / seconds;
        }
        s.caughtUp = allCaughtUp;
        m_lastElapsedMs = elapsed;
        return s;
    }

    ClusterConfig m_cluster;
    QString m_groupId;
    int m_timeoutMs;
    QTimer m_timer;
    std::unique_ptr<AdminService> m_service;
    std::unique_ptr<RecordTimestampReader> m_timestamps; // made and used on this thread
    QHash<QString, TopicTimeConfig> m_configs;
    qint64 m_configsReadMs = -1;
    QHash<QString, PartitionState> m_partitions;
    QElapsedTimer m_clock;
    qint64 m_lastElapsedMs = -1;
    qint64 m_consumed = 0;
    qint64 m_produced = 0;
};

GroupLagSampler::GroupLagSampler(const ClusterConfig &cluster, const QString &groupId, QObject *parent)
    : QObject(parent), m_cluster(cluster), m_groupId(groupId)
{
    qRegisterMetaType<MetricsSnapshot>("md::MetricsSnapshot");
    qRegisterMetaType<ConsumerGroupInfo>("md::ConsumerGroupInfo");
}

// The sample under way ends on its thread without this waiting (WorkerThread).
GroupLagSampler::~GroupLagSampler() = default;

void GroupLagSampler::setIntervalMs(int ms)
{
    m_intervalMs = std::max(200, ms);
    if (m_worker)
        QMetaObject::invokeMethod(
            m_worker, [w = m_worker, ms = m_intervalMs] { w->setInterval(ms); }, Qt::QueuedConnection);
}

void GroupLagSampler::start()
{
    if (!m_worker) {
        m_worker = new GroupLagWorker(m_cluster, m_groupId, m_timeoutMs);
        m_thread.adopt(m_worker);
        connect(m_worker, &GroupLagWorker::sampled, this, &GroupLagSampler::sampled);
        connect(m_worker, &GroupLagWorker::membersSampled, this, &GroupLagSampler::membersSampled);
        connect(m_worker, &GroupLagWorker::failed, this, &GroupLagSampler::failed);
        m_thread.start();
    }
    m_running = true;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, ms = m_intervalMs] { w->start(ms); }, Qt::QueuedConnection);
}

void GroupLagSampler::stop()
{
    m_running = false;
    if (m_worker)
        QMetaObject::invokeMethod(m_worker, &GroupLagWorker::stop, Qt::QueuedConnection);
}

void GroupLagSampler::sampleNow()
{
    if (m_worker)
        QMetaObject::invokeMethod(m_worker, &GroupLagWorker::poll, Qt::QueuedConnection);
}

} // namespace md

#include "GroupLagSampler.moc"
