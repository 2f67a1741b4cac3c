// What a cluster's answer costs the UI thread, receiver by receiver, without a cluster
// (issue 20): a ClusterPane (its topic table, Messages and Schemas tabs) shown offscreen is
// handed the metadata of N topics x P partitions, first each tab's own slot on its own, then
// the whole answer through ClusterClient::metadataReady as a connection delivers it, then one
// paint. Times are the UI thread's CPU, so waiting for a core on a shared machine does not
// count. The real-cluster bench (bench_large_cluster browse) measures the stalls a user sees;
// this one says which receiver they could come from.
//
//   bench_firstload [--topics N] [--partitions P] [--rounds R]

#include "bench_synthetic_topics.h"
#include "bench_thread_cpu.h"
#include "engine/admin/ClusterClient.h"
#include "engine/admin/ClusterMetadata.h"
#include "ui/cluster/ClusterPane.h"
#include "ui/cluster/MessagesPanel.h"
#include "ui/cluster/SchemasPanel.h"

#include <QApplication>
#include <QDateTime>

#include <algorithm>
#include <cstdio>

using namespace md;

namespace {

using md::bench::threadCpuMs;

ClusterMetadata makeMetadata(int topics, int partitions)
{
    ClusterMetadata md;
    md.bootstrap = QStringLiteral("bench:9092");
    md.fetchedAt = QDateTime::currentDateTimeUtc();
    for (int b = 0; b < 3; ++b) {
        BrokerInfo broker;
        broker.id = b;
        broker.host = QStringLiteral("broker-%1").arg(b);
        broker.port = 9092;
        md.brokers.append(broker);
    }
    for (int i = 0; i < topics; ++i) {
        TopicInfo t;
        t.name = QStringLiteral("topic.%1").arg(i, 5, 10, QLatin1Char('0'));
        t.partitions = md::bench::syntheticPartitions(i, partitions);
        md.topics.append(t);
    }
    return md;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int topics = 10000, partitions = 5, rounds = 3;
    const QStringList args = QCoreApplication::arguments();
    for (qsizetype i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == QLatin1String("--topics"))
            topics = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--partitions"))
            partitions = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--rounds"))
            rounds = args[i + 1].toInt();
    }
    const ClusterMetadata md = makeMetadata(topics, partitions);
    ClusterPane pane(QStringLiteral("Source"));
    pane.resize(1300, 900);
    pane.show();
    QCoreApplication::processEvents();

    double worstAll = 0, worstPaint = 0;
    for (int r = 0; r < rounds; ++r) {
        double t = threadCpuMs();
        pane.messagesPanel()->setMetadata(md);
        const double messages = threadCpuMs() - t;
        t = threadCpuMs();
        pane.messagesPanel()->setOtherMetadata(md);
        const double other = threadCpuMs() - t;
        t = threadCpuMs();
        pane.schemasPanel()->setMetadata(md);
        const double schemas = threadCpuMs() - t;
        t = threadCpuMs();
        Q_EMIT pane.client()->metadataReady(md); // every receiver, the topic table's included
        const double all = threadCpuMs() - t;
        t = threadCpuMs();
        pane.repaint();
        QCoreApplication::processEvents();
        const double paint = threadCpuMs() - t;
        worstAll = std::max(worstAll, all);
        worstPaint = std::max(worstPaint, paint);
        std::printf("round %d: messages %.1f, other side %.1f, schemas %.1f, all receivers %.1f, paint %.1f ms\n",
                    r + 1, messages, other, schemas, all, paint);
    }
    std::printf("RESULT firstload topics=%d partitions=%d worst_receivers_ms=%.1f worst_paint_ms=%.1f\n", topics,
                partitions, worstAll, worstPaint);
    return 0;
}
