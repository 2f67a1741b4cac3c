#include "model/monitor/MetricStore.h"

#include <QSet>

#include <cmath>

namespace md {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

qint64 floorTo(qint64 t, qint64 step)
{
    const qint64 q = t / step;
    return (t % step < 0 ? q - 1 : q) * step;
}

// fromMs - bucketMs + 1 without overflowing for "from the beginning of time" windows.
qint64 bucketOverlapStart(qint64 fromMs, qint64 bucketMs)
{
    return fromMs < std::numeric_limits<qint64>::min() + bucketMs ? fromMs : fromMs - bucketMs + 1;
}

double orNaN(double v)
{
    return v < 0 ? kNaN : v;
}

// First logical index whose time is >= t (the rings are in time order).
template <typename Ring, typename TimeOf> qsizetype lowerBound(const Ring &ring, qint64 t, TimeOf timeOf)
{
    qsizetype lo = 0;
    qsizetype hi = ring.size();
    while (lo < hi) {
        const qsizetype mid = lo + (hi - lo) / 2;
        if (timeOf(ring.at(mid)) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// A point plus the weight (samples behind it) used when merging points for maxPoints.
struct Weighted {
    MetricStore::Point p;
    double weight = 0;
};

QList<MetricStore::Point> mergeDown(const QList<Weighted> &in, int maxPoints, bool peak)
{
    QList<MetricStore::Point> out;
    if (maxPoints <= 0 || in.size() <= maxPoints) {
        out.reserve(in.size());
        for (const Weighted &w : in)
            out.append(w.p);
        return out;
    }
    const qsizetype group = (in.size() + maxPoints - 1) / maxPoints;
    out.reserve(maxPoints);
    for (qsizetype i = 0; i < in.size(); i += group) {
        MetricStore::Point p;
        p.timeMs = in[i].p.timeMs;
        double lo = std::numeric_limits<double>::infinity();
        double hi = -std::numeric_limits<double>::infinity();
        double sum = 0;
        double weight = 0;
        for (qsizetype j = i; j < std::min(in.size(), i + group); ++j) {
            const Weighted &w = in[j];
            if (std::isnan(w.p.avg) || w.weight <= 0)
                continue;
            lo = std::min(lo, w.p.min);
            hi = std::max(hi, w.p.max);
            sum += w.p.avg * w.weight;
            weight += w.weight;
        }
        if (weight > 0) {
            p.min = lo;
            p.max = hi;
            p.avg = sum / weight;
            p.value = peak ? p.max : p.avg;
        }
        out.append(p);
    }
    return out;
}

} // namespace

bool MetricStore::isPeakSeries(Series s)
{
    return s == Series::TotalLag || s == Series::LagTimeMs || s == Series::LatencyP99Ms;
}

QString MetricStore::seriesName(Series s)
{
    switch (s) {
    case Series::ConsumeRecordsPerSec: return QStringLiteral("consumed records/s");
    case Series::ProduceRecordsPerSec: return QStringLiteral("produced records/s");
    case Series::ConsumeBytesPerSec: return QStringLiteral("consumed bytes/s");
    case Series::ProduceBytesPerSec: return QStringLiteral("produced bytes/s");
    case Series::TotalLag: return QStringLiteral("lag (records)");
    case Series::LagTimeMs: return QStringLiteral("lag (ms)");
    case Series::LatencyP50Ms: return QStringLiteral("latency p50 (ms)");
    case Series::LatencyP99Ms: return QStringLiteral("latency p99 (ms)");
    case Series::InFlight: return QStringLiteral("in flight");
    }
    return {};
}

void MetricStore::Acc::add(double v)
{
    if (std::isnan(v))
        return;
    min = std::min(min, v);
    max = std::max(max, v);
    sum += v;
    ++count;
}

MetricStore::AggValue MetricStore::toAgg(const Acc &a)
{
    if (a.count == 0) {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        return {nan, nan, nan};
    }
    return {float(a.min), float(a.max), float(a.sum / a.count)};
}

void MetricStore::fillNan(RingBuffer<float> &ring, qsizetype n)
{
    for (qsizetype i = 0; i < n; ++i)
        ring.push(std::numeric_limits<float>::quiet_NaN());
}

void MetricStore::fillNan(RingBuffer<AggValue> &ring, qsizetype n)
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (qsizetype i = 0; i < n; ++i)
        ring.push({nan, nan, nan});
}

MetricStore::MetricStore() : MetricStore(Config{})
{
}

MetricStore::MetricStore(const Config &config) : m_config(config), m_lag(config.lag)
{
    m_config.rawCapacity = std::max<qsizetype>(1, m_config.rawCapacity);
    // Tiers must get coarser; a bad one is dropped rather than corrupting the ordering.
    QList<Tier> tiers;
    for (const Tier &t : std::as_const(m_config.tiers)) {
        if (t.bucketMs > 0 && t.capacity > 0 && (tiers.isEmpty() || t.bucketMs > tiers.last().bucketMs))
            tiers.append(t);
    }
    m_config.tiers = tiers;
    m_config.maxPartitions = std::max(0, m_config.maxPartitions);
    clear();
}

void MetricStore::clear()
{
    m_raw = RingBuffer<RawSample>(m_config.rawCapacity);
    m_tiers.clear();
    for (const Tier &t : std::as_const(m_config.tiers)) {
        TierState s;
        s.bucketMs = t.bucketMs;
        s.ring = RingBuffer<JobBucket>(t.capacity);
        m_tiers.push_back(std::move(s));
    }
    m_partitions.clear();
    m_lag.clear();
    m_latest = MetricsSnapshot{};
    m_rateAt.clear();
    m_rateWindows.clear();
    m_layout.clear();
    m_lastTimeMs = std::numeric_limits<qint64>::min();
    m_sampleCount = 0;
}

MetricStore::PartitionSeries &MetricStore::createSeries(const PartitionKey &key)
{
    PartitionSeries s;
    s.raw = RingBuffer<float>(m_config.rawCapacity);
    fillNan(s.raw, m_raw.size()); // align slots with the job's rings
    for (const TierState &t : m_tiers) {
        RingBuffer<AggValue> ring(t.ring.capacity());
        fillNan(ring, t.ring.size());
        s.tiers.push_back(std::move(ring));
        s.open.push_back(Acc{});
    }
    return m_partitions.insert(key, std::move(s)).value();
}

void MetricStore::closeBucket(int tier)
{
    TierState &t = m_tiers[size_t(tier)];
    JobBucket b;
    b.startMs = t.openStartMs;
    for (int i = 0; i < SeriesCount; ++i) {
        b.v[size_t(i)] = toAgg(t.open[size_t(i)]);
        b.count[size_t(i)] = t.open[size_t(i)].count;
        t.open[size_t(i)].reset();
    }
    t.ring.push(b);
    for (PartitionSeries &p : m_partitions) {
        p.tiers[size_t(tier)].push(toAgg(p.open[size_t(tier)]));
        p.open[size_t(tier)].reset();
    }
}

bool MetricStore::addSnapshot(const MetricsSnapshot &snapshot)
{
    const qint64 t = snapshot.time.isValid() ? snapshot.time.toMSecsSinceEpoch() : snapshot.elapsedMs;
    if (t < m_lastTimeMs)
        return false;

    // 1. Another set of partitions than the last snapshot's: windows and series for the new
    // ones (rings aligned with the job's, before any slot is added), none for the gone.
    if (!layoutMatches(snapshot))
        rebuildLayout(snapshot);

    // Rates per partition from the records counters (the snapshot has job-level
    // rates only), over the same window as those (RateWindow).
    const qsizetype n = snapshot.partitions.size();
    QList<double> rates(n, -1.0);
    for (qsizetype i = 0; i < n; ++i) {
        RateWindow<1> &w = *m_layout[size_t(i)].window; // updated in place: no rebuild per tick
        const bool seen = !w.empty();
        const double rate = w.add(t, {snapshot.partitions.at(i).records})[0];
        if (seen)
            rates[i] = rate; // a partition's first sample has no rate yet
    }

    // 2. Close the buckets this sample is past.
    for (int i = 0; i < int(m_tiers.size()); ++i) {
        TierState &tier = m_tiers[size_t(i)];
        const qint64 bucket = floorTo(t, tier.bucketMs);
        if (tier.openStartMs >= 0 && bucket != tier.openStartMs)
            closeBucket(i);
        tier.openStartMs = bucket;
    }

    // 3. The sample itself: raw slot and open buckets.
    // The lag-in-time chart shows the age of the oldest next record (klag-exporter's measure)
    // where the sample has it, else the older in-flight spread (lagTimeMs).
    const qint64 lagTime = snapshot.maxLagMs >= 0 ? snapshot.maxLagMs : snapshot.lagTimeMs;
    RawSample raw;
    raw.timeMs = t;
    raw.v = {snapshot.consumeRecordsPerSec, snapshot.produceRecordsPerSec, snapshot.consumeBytesPerSec,
             snapshot.produceBytesPerSec,   double(snapshot.totalLag),     lagTime < 0 ? kNaN : double(lagTime),
             orNaN(snapshot.latency.p50Ms), orNaN(snapshot.latency.p99Ms), double(snapshot.inFlight)};
    m_raw.push(raw);
    for (TierState &tier : m_tiers) {
        for (int i = 0; i < SeriesCount; ++i)
            tier.open[size_t(i)].add(raw.v[size_t(i)]);
    }
    for (PartitionSeries &p : m_partitions)
        p.raw.push(std::numeric_limits<float>::quiet_NaN());
    for (qsizetype i = 0; i < n; ++i) {
        PartitionSeries *series = m_layout[size_t(i)].series;
        if (!series)
            continue;
        const PartitionMetrics &p = snapshot.partitions.at(i);
        series->lastSeenMs = t;
        const double lag = p.lag < 0 ? kNaN : double(p.lag);
        series->raw.at(series->raw.size() - 1) = float(lag);
        for (Acc &a : series->open)
            a.add(lag);
    }

    m_lag.addSnapshot(snapshot);
    m_latest = snapshot;
    m_rateAt = std::move(rates);
    m_lastTimeMs = t;
    ++m_sampleCount;
    prune();
    return true;
}

qint64 MetricStore::firstTimeMs() const
{
    if (m_raw.isEmpty())
        return 0;
    qint64 first = m_raw.first().timeMs;
    for (const TierState &t : m_tiers) {
        if (!t.ring.isEmpty())
            first = std::min(first, t.ring.first().startMs);
    }
    return first;
}

void MetricStore::prune()
{
    // A partition gone for longer than the oldest data held has nothing left to show.
    const qint64 oldest = firstTimeMs();
    for (auto it = m_partitions.begin(); it != m_partitions.end();) {
        if (it->lastSeenMs < oldest) {
            it = m_partitions.erase(it);
            m_layout.clear(); // the hash's nodes moved
        } else {
            ++it;
        }
    }
}

bool MetricStore::layoutMatches(const MetricsSnapshot &snapshot) const
{
    if (m_layout.size() != size_t(snapshot.partitions.size()))
        return false;
    for (qsizetype i = 0; i < snapshot.partitions.size(); ++i) {
        const PartitionMetrics &p = snapshot.partitions.at(i);
        const PartitionKey &key = m_layout[size_t(i)].key;
        if (key.partition != p.partition || key.topic != p.topic)
            return false;
    }
    return true;
}

void MetricStore::rebuildLayout(const MetricsSnapshot &snapshot)
{
    // Every insert and erase first: the pointers taken after them stay valid until the next.
    if (m_rateWindows.size() > snapshot.partitions.size()) {
        // Partitions no longer listed (revoked, deleted) drop their windows.
        QSet<PartitionKey> listed;
        for (const PartitionMetrics &p : snapshot.partitions)
            listed.insert({p.topic, p.partition});
        m_rateWindows.removeIf([&](const auto &it) { return !listed.contains(it.key()); });
    }
    for (const PartitionMetrics &p : snapshot.partitions) {
        const PartitionKey key{p.topic, p.partition};
        (void)m_rateWindows[key]; // a default window for a new partition
        if (!m_partitions.contains(key) && m_partitions.size() < m_config.maxPartitions)
            createSeries(key);
    }
    m_layout.clear();
    m_layout.reserve(size_t(snapshot.partitions.size()));
    for (const PartitionMetrics &p : snapshot.partitions) {
        LayoutEntry e;
        e.key = {p.topic, p.partition};
        e.window = &m_rateWindows[e.key];
        const auto series = m_partitions.find(e.key);
        e.series = series == m_partitions.end() ? nullptr : &series.value();
        m_layout.push_back(std::move(e));
    }
}

int MetricStore::tierFor(qint64 fromMs) const
{
    if (!m_raw.hasDropped() || (!m_raw.isEmpty() && m_raw.first().timeMs <= fromMs))
        return -1;
    for (int i = 0; i < int(m_tiers.size()); ++i) {
        const TierState &t = m_tiers[size_t(i)];
        if (!t.ring.hasDropped() || (!t.ring.isEmpty() && t.ring.first().startMs <= fromMs))
            return i;
    }
    return m_tiers.empty() ? -1 : int(m_tiers.size()) - 1;
}

QList<MetricStore::Point> MetricStore::series(Series s, qint64 fromMs, qint64 toMs, int maxPoints) const
{
    QList<Weighted> points;
    const size_t si = size_t(s);
    const int tier = tierFor(fromMs);
    if (tier < 0) {
        const auto timeOf = [](const RawSample &r) { return r.timeMs; };
        for (qsizetype i = lowerBound(m_raw, fromMs, timeOf); i < m_raw.size(); ++i) {
            const RawSample &r = m_raw.at(i);
            if (r.timeMs > toMs)
                break;
            Weighted w;
            w.p.timeMs = r.timeMs;
            w.p.value = w.p.min = w.p.max = w.p.avg = r.v[si];
            w.weight = std::isnan(r.v[si]) ? 0 : 1;
            points.append(w);
        }
    } else {
        const TierState &t = m_tiers[size_t(tier)];
        const auto timeOf = [](const JobBucket &b) { return b.startMs; };
        const auto add = [&](qint64 start, double lo, double hi, double avg, double count) {
            Weighted w;
            w.p.timeMs = start;
            w.p.min = lo;
            w.p.max = hi;
            w.p.avg = avg;
            w.p.value = isPeakSeries(s) ? hi : avg;
            w.weight = count;
            points.append(w);
        };
        // A bucket overlapping the window's start belongs to it.
        for (qsizetype i = lowerBound(t.ring, bucketOverlapStart(fromMs, t.bucketMs), timeOf); i < t.ring.size(); ++i) {
            const JobBucket &b = t.ring.at(i);
            if (b.startMs > toMs)
                break;
            const AggValue &v = b.v[si];
            add(b.startMs, v.min, v.max, v.avg, b.count[si]);
        }
        const Acc &open = t.open[si];
        if (t.openStartMs >= 0 && t.openStartMs <= toMs && t.openStartMs + t.bucketMs > fromMs) {
            if (open.count > 0)
                add(t.openStartMs, open.min, open.max, open.sum / open.count, open.count);
            else
                add(t.openStartMs, kNaN, kNaN, kNaN, 0);
        }
    }
    return mergeDown(points, maxPoints, isPeakSeries(s));
}

QList<MetricStore::Point> MetricStore::partitionLagSeries(const PartitionKey &key, qint64 fromMs, qint64 toMs,
                                                          int maxPoints) const
{
    const auto it = m_partitions.constFind(key);
    if (it == m_partitions.cend())
        return {};
    const PartitionSeries &ps = *it;
    QList<Weighted> points;
    const int tier = tierFor(fromMs);
    if (tier < 0) {
        const auto timeOf = [](const RawSample &r) { return r.timeMs; };
        for (qsizetype i = lowerBound(m_raw, fromMs, timeOf); i < m_raw.size(); ++i) {
            const qint64 time = m_raw.at(i).timeMs;
            if (time > toMs)
                break;
            const double v = ps.raw.at(i);
            Weighted w;
            w.p.timeMs = time;
            w.p.value = w.p.min = w.p.max = w.p.avg = v;
            w.weight = std::isnan(v) ? 0 : 1;
            points.append(w);
        }
    } else {
        const TierState &t = m_tiers[size_t(tier)];
        const RingBuffer<AggValue> &ring = ps.tiers[size_t(tier)];
        const auto timeOf = [](const JobBucket &b) { return b.startMs; };
        const auto add = [&](qint64 start, double lo, double hi, double avg) {
            Weighted w;
            w.p.timeMs = start;
            w.p.min = lo;
            w.p.max = hi;
            w.p.avg = avg;
            w.p.value = hi;
            w.weight = std::isnan(avg) ? 0 : 1; // buckets are equal-sized: equal weights
            points.append(w);
        };
        for (qsizetype i = lowerBound(t.ring, bucketOverlapStart(fromMs, t.bucketMs), timeOf); i < t.ring.size(); ++i) {
            const qint64 start = t.ring.at(i).startMs;
            if (start > toMs)
                break;
            const AggValue &v = ring.at(i);
            add(start, v.min, v.max, v.avg);
        }
        const Acc &open = ps.open[size_t(tier)];
        if (t.openStartMs >= 0 && t.openStartMs <= toMs && t.openStartMs + t.bucketMs > fromMs) {
            if (open.count > 0)
                add(t.openStartMs, open.min, open.max, open.sum / open.count);
            else
                add(t.openStartMs, kNaN, kNaN, kNaN);
        }
    }
    return mergeDown(points, maxPoints, true);
}

QList<PartitionKey> MetricStore::partitionsWithHistory() const
{
    QList<PartitionKey> keys = m_partitions.keys();
    std::sort(keys.begin(), keys.end());
    return keys;
}

double MetricStore::recentMean(Series s, qint64 windowMs) const
{
    if (m_raw.isEmpty())
        return std::numeric_limits<double>::quiet_NaN();
    const qint64 from = m_raw.at(m_raw.size() - 1).timeMs - windowMs;
    double sum = 0;
    int count = 0;
    for (qsizetype i = m_raw.size() - 1; i >= 0; --i) {
        const RawSample &r = m_raw.at(i);
        if (count > 0 && r.timeMs <= from)
            break;
        const double v = r.v[size_t(s)];
        if (std::isfinite(v)) {
            sum += v;
            ++count;
        }
    }
    return count > 0 ? sum / count : std::numeric_limits<double>::quiet_NaN();
}

QList<MetricStore::PartitionRow> MetricStore::partitionTable() const
{
    const auto status = m_lag.evaluate(m_lastTimeMs);
    QList<PartitionRow> rows;
    rows.reserve(m_latest.partitions.size());
    for (qsizetype i = 0; i < m_latest.partitions.size(); ++i) {
        const PartitionMetrics &p = m_latest.partitions.at(i);
        PartitionRow row;
        row.metrics = p;
        row.recordsPerSec = m_rateAt.value(i, -1);
        row.status = status.value(PartitionKey{p.topic, p.partition}, PartitionLagStatus::Ok);
        rows.append(row);
    }
    std::sort(rows.begin(), rows.end(), [](const PartitionRow &a, const PartitionRow &b) {
        return PartitionKey{a.metrics.topic, a.metrics.partition} < PartitionKey{b.metrics.topic, b.metrics.partition};
    });
    return rows;
}

qsizetype MetricStore::memoryBytes() const
{
    qsizetype bytes = qsizetype(sizeof(*this)) + m_raw.memoryBytes();
    for (const TierState &t : m_tiers)
        bytes += qsizetype(sizeof(TierState)) + t.ring.memoryBytes();
    // QHash node: key, value, and a span slot; the topic's characters.
    constexpr qsizetype nodeOverhead = 16;
    for (auto it = m_partitions.cbegin(); it != m_partitions.cend(); ++it) {
        const PartitionSeries &p = it.value();
        bytes += qsizetype(sizeof(PartitionKey) + sizeof(PartitionSeries)) + nodeOverhead +
                 it.key().topic.capacity() * 2 + p.raw.memoryBytes();
        for (const auto &r : p.tiers)
            bytes += qsizetype(sizeof(r)) + r.memoryBytes();
        bytes += qsizetype(p.open.capacity() * sizeof(Acc));
    }
    const qsizetype partitions = m_latest.partitions.size();
    bytes += partitions * qsizetype(sizeof(PartitionMetrics) + 2 * 32); // two short topic names
    bytes += m_rateAt.size() * qsizetype(sizeof(double));
    bytes += qsizetype(m_layout.capacity() * sizeof(LayoutEntry)); // its keys share the snapshot's names
    for (const RateWindow<1> &w : m_rateWindows)
        bytes += qsizetype(sizeof(PartitionKey) + sizeof(RateWindow<1>) + w.memoryBytes()) + nodeOverhead;
    const auto lagWindow = m_lag.config().windowSize;
    bytes += m_lag.partitions().size() *
             qsizetype(lagWindow * (sizeof(LagObservation) + sizeof(qint64)) + 96 + nodeOverhead);
    return bytes;
}

} // namespace md
