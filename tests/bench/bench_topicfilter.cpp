// The topic filter of a cluster pane on 10,000 topics, without a cluster (issue 20): the
// pane's own models and view (TopicTableModel, TopicFilterModel, a table view set up as
// ClusterPane sets it up), shown offscreen, typing a filter one key at a time and clearing
// it. Per keystroke: the time to filter and draw the view synchronously (what the next frame
// shows) as the UI thread's CPU time, split into the filter and the draw, against one
// 60 Hz frame. The real-cluster bench (bench_large_cluster browse)
// measures the same inside the whole pane; this one isolates the filter so it can be
// profiled and repeated in seconds.
//
//   bench_topicfilter [--topics N] [--partitions P] [--text FILTER] [--rounds R]

#include "bench_synthetic_topics.h"
#include "bench_thread_cpu.h"
#include "engine/admin/ClusterMetadata.h"
#include "model/tables/TopicTableModel.h"
#include "ui/widgets/TableViews.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QTableView>

#include <algorithm>
#include <cstdio>

using namespace md;

namespace {

double msSince(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

using md::bench::threadCpuMs;

QList<TopicInfo> makeTopics(int topics, int partitions)
{
    QList<TopicInfo> out;
    out.reserve(topics);
    for (int i = 0; i < topics; ++i) {
        TopicInfo t;
        // Names as a real cluster's: a few prefixes, numbered.
        static const char *const kPrefixes[] = {"orders", "payments", "topic", "audit.events", "src.inventory"};
        t.name = QStringLiteral("%1.%2").arg(QLatin1String(kPrefixes[i % 5])).arg(i, 5, 10, QLatin1Char('0'));
        t.partitions = md::bench::syntheticPartitions(i, partitions);
        out.append(t);
    }
    std::sort(out.begin(), out.end(), [](const TopicInfo &a, const TopicInfo &b) { return a.name < b.name; });
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int topics = 10000, partitions = 5, rounds = 3;
    QString text = QStringLiteral("topic.0099");
    const QStringList args = QCoreApplication::arguments();
    for (qsizetype i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == QLatin1String("--topics"))
            topics = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--partitions"))
            partitions = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--text"))
            text = args[i + 1];
        else if (args[i] == QLatin1String("--rounds"))
            rounds = args[i + 1].toInt();
    }

    TopicTableModel source;
    TopicFilterModel proxy(&source);
    QTableView *view = makeTableView(nullptr, QStringLiteral("topics"), {QAbstractItemView::SingleSelection});
    view->setModel(&proxy);
    view->sortByColumn(TopicTableModel::Name, Qt::AscendingOrder);
    view->resize(900, 900);
    view->show();
    QElapsedTimer load;
    load.start();
    source.setTopics(makeTopics(topics, partitions));
    view->viewport()->repaint();
    std::printf("topicfilter: %d topics x %d partitions listed and drawn in %.1f ms\n", topics, partitions,
                msSince(load));
    // A selected row, as an operator has one: the filter keeps or drops it.
    view->selectRow(proxy.rowCount() / 2);

    double worst = 0, worstNarrow = 0, worstWiden = 0, worstFilter = 0;
    for (int r = 0; r < rounds; ++r) {
        QStringList keys;
        for (qsizetype i = 1; i <= text.size() + 1; ++i) {
            const QString next = i <= text.size() ? text.left(i) : QString();
            const double cpu0 = threadCpuMs();
            proxy.setNameFilter(next);
            const double filtered = threadCpuMs() - cpu0;
            worstFilter = std::max(worstFilter, filtered);
            view->viewport()->repaint();
            const double ms = threadCpuMs() - cpu0;
            keys << QStringLiteral("%1=%2+%3")
                        .arg(next.isEmpty() ? QStringLiteral("''") : next)
                        .arg(filtered, 0, 'f', 1)
                        .arg(ms - filtered, 0, 'f', 1);
            worst = std::max(worst, ms);
            (next.isEmpty() ? worstWiden : worstNarrow) = std::max(next.isEmpty() ? worstWiden : worstNarrow, ms);
            QCoreApplication::processEvents();
        }
        std::printf("round %d: %s\n", r + 1, qPrintable(keys.join(QLatin1Char(' '))));
    }
    // Per key above: filter + draw, in ms of the UI thread's CPU.
    std::printf("RESULT topicfilter topics=%d worst_filter_ms=%.1f worst_key_ms=%.1f worst_narrow_ms=%.1f "
                "clear_ms=%.1f rows=%d\n",
                topics, worstFilter, worst, worstNarrow, worstWiden, proxy.rowCount());
    delete view;
    return 0;
}
