// Memory and cost of one job's MetricStore over a simulated 24-hour run at 250 ms.
//
//   bench_metricstore [partitions ...]      (default: 12 100)
//
// For each partition count it feeds 345,600 snapshots (24 h at 250 ms), then prints
// memoryBytes() (the store's own estimate), the heap actually grown (glibc mallinfo2, the
// latest snapshot excluded), the cost of one addSnapshot and of the chart queries a monitor
// issues per redraw. Exits non-zero when the memory is not flat after warm-up or the
// estimate is off by more than 10% from the measurement.

#include "model/monitor/MetricStore.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <malloc.h>

#include <cstdio>
#include <memory>

using namespace md;

namespace {

constexpr qint64 kTickMs = 250;
constexpr qint64 kDayTicks = 24LL * 3600 * 1000 / kTickMs;

size_t heapInUse()
{
    const struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

double mib(double bytes)
{
    return bytes / (1024.0 * 1024.0);
}

int run(int partitions)
{
    MetricsSnapshot s;
    s.jobName = QStringLiteral("orders to DR");
    s.state = JobState::Running;
    for (int p = 0; p < partitions; ++p) {
        PartitionMetrics m;
        m.topic = QStringLiteral("orders.eu.%1").arg(p % 4);
        m.targetTopic = QStringLiteral("dr.") + m.topic;
        m.partition = p;
        s.partitions.append(m);
    }
    const qint64 t0 = 1'700'000'000'000;

    const size_t heapBefore = heapInUse();
    auto store = std::make_unique<MetricStore>();
    qsizetype estimateAfter15Min = 0;
    size_t heapAfter15Min = 0;

    QElapsedTimer timer;
    timer.start();
    for (qint64 i = 0; i < kDayTicks; ++i) {
        const qint64 t = t0 + i * kTickMs;
        s.time = QDateTime::fromMSecsSinceEpoch(t, Qt::UTC);
        s.elapsedMs = i * kTickMs;
        s.consumeRecordsPerSec = 50000 + double(i % 1000);
        s.produceRecordsPerSec = s.consumeRecordsPerSec - 10;
        s.consumeBytesPerSec = s.consumeRecordsPerSec * 512;
        s.produceBytesPerSec = s.produceRecordsPerSec * 512;
        s.totalLag = 0;
        for (int p = 0; p < partitions; ++p) {
            PartitionMetrics &m = s.partitions[p];
            m.nextOffset = i * 100;
            m.endOffset = i * 100 + (i + p) % 500;
            m.committedOffset = m.nextOffset - 50;
            m.lag = m.endOffset - m.nextOffset;
            m.records = m.nextOffset;
            m.bytes = m.records * 512;
            s.totalLag += m.lag;
        }
        s.lagTimeMs = (i % 7) * 10;
        s.latency.p50Ms = 12;
        s.latency.p99Ms = 80 + double(i % 13);
        s.inFlight = i % 2000;
        store->addSnapshot(s);
        if (i == 2 * 3600) { // 30 min: raw rings full; the coarse ones are allocated up front
            estimateAfter15Min = store->memoryBytes();
            heapAfter15Min = heapInUse();
        }
    }
    const double feedMs = double(timer.nsecsElapsed()) / 1e6;

    // What a monitor asks per redraw: 9 job series plus a lag map row per partition.
    timer.restart();
    constexpr int kRedraws = 100;
    qsizetype points = 0;
    const qint64 last = store->lastTimeMs();
    for (int r = 0; r < kRedraws; ++r) {
        for (int si = 0; si < MetricStore::SeriesCount; ++si)
            points += store->series(MetricStore::Series(si), last - 3600 * 1000, last, 1000).size();
        for (const PartitionKey &key : store->partitionsWithHistory())
            points += store->partitionLagSeries(key, last - 3600 * 1000, last, 240).size();
    }
    const double queryMs = double(timer.nsecsElapsed()) / 1e6 / kRedraws;

    const qsizetype estimate = store->memoryBytes();
    const size_t heapAfter = heapInUse();
    const double heapGrowth = double(heapAfter) - double(heapBefore);
    std::printf("partitions %4d: 24 h = %lld snapshots | memoryBytes %.2f MiB | heap growth %.2f MiB"
                " | addSnapshot %.2f us | 1 h redraw query %.2f ms (%lld points)\n",
                partitions, static_cast<long long>(kDayTicks), mib(double(estimate)), mib(heapGrowth),
                feedMs * 1000.0 / double(kDayTicks), queryMs, static_cast<long long>(points / kRedraws));

    int failures = 0;
    if (estimate != estimateAfter15Min) {
        std::printf("  FAIL: memoryBytes grew after warm-up: %lld -> %lld\n",
                    static_cast<long long>(estimateAfter15Min), static_cast<long long>(estimate));
        ++failures;
    }
    const double heapDrift = double(heapAfter) - double(heapAfter15Min);
    if (heapDrift > 64 * 1024) {
        std::printf("  FAIL: heap grew by %.0f bytes after warm-up\n", heapDrift);
        ++failures;
    }
    // The latest snapshot is held by the store too; it is part of the estimate.
    if (std::abs(heapGrowth - double(estimate)) > 0.10 * double(estimate)) {
        std::printf("  FAIL: estimate %.2f MiB vs measured %.2f MiB\n", mib(double(estimate)), mib(heapGrowth));
        ++failures;
    }
    return failures;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QList<int> counts;
    const QStringList args = app.arguments().mid(1);
    for (const QString &a : args) {
        bool ok = false;
        const int n = a.toInt(&ok);
        if (!ok || n < 0 || n > 100000) {
            std::fprintf(stderr, "bench_metricstore: not a partition count: %s\n", qPrintable(a));
            return 2;
        }
        counts.append(n);
    }
    if (counts.isEmpty())
        counts = {12, 100};
    int failures = 0;
    for (int n : counts)
        failures += run(n);
    return failures == 0 ? 0 : 1;
}
