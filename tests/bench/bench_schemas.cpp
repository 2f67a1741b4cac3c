// The Schemas tab on a registry with many subjects (issue 19).
//
//   bench_schemas URL fill N PREFIX     registers N Avro subjects PREFIX-<i>-value (8 at a time)
//   bench_schemas URL browse            a shown SchemasPanel (1366x700, offscreen unless a
//                                       platform is set) on the registry: time to the list,
//                                       to every subject's details, and how late a 5 ms timer
//                                       on the UI thread was served meanwhile (p50/p99/max).
//   bench_schemas URL pane BOOTSTRAP [SUBJECT]   a cluster pane as large as on a 1366x768
//                                       screen, its Schemas tab open (SUBJECT selected), for a
//                                       look or a screenshot; it closes after 60 s
//
// Use a registry of its own (harness.sh registry-start with a private state dir): the
// shared one serves the tests.

#include "engine/schema/RegistryDecoders.h"
#include "engine/schema/SchemaRegistryClient.h"
#include "model/tables/SchemaSubjectModel.h"
#include "ui/cluster/ClusterPane.h"
#include "ui/cluster/SchemasPanel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

using namespace md;

namespace {

int fill(const QString &url, int n, const QString &prefix)
{
    SchemaRegistryConfig config;
    config.url = url;
    std::atomic<int> next{0}, failed{0};
    QElapsedTimer timer;
    timer.start();
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&] {
            SchemaRegistryClient client(config);
            for (int i = next++; i < n; i = next++) {
                const QByteArray text = R"({"type":"record","name":"R)" + QByteArray::number(i) +
                                        R"(","namespace":"bench","fields":[{"name":"id","type":"long"}]})";
                RegistryError error;
                const QString subject = QStringLiteral("%1-%2-value").arg(prefix).arg(i);
                if (!client.registerSchema(subject, QStringLiteral("AVRO"), text, {}, &error)) {
                    if (failed++ < 3)
                        std::fprintf(stderr, "%s\n", qPrintable(error.message));
                }
            }
        });
    }
    for (std::thread &t : threads)
        t.join();
    std::printf("registered %d subjects in %lld ms, %d failed\n", n, timer.elapsed(), failed.load());
    return failed.load() == 0 ? 0 : 1;
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
}

int browse(const QString &url)
{
    SchemaRegistryConfig config;
    config.url = url;
    SchemasPanel panel;
    panel.resize(1366, 700);
    QElapsedTimer clock;
    qint64 listedMs = -1;
    int subjects = 0;
    std::vector<double> lateness;
    QElapsedTimer tick;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        lateness.push_back(std::max<double>(0, double(tick.nsecsElapsed()) / 1e6 - 5));
        tick.restart();
    });
    QObject::connect(&panel, &SchemasPanel::subjectsListed, [&](int count) {
        listedMs = clock.elapsed();
        subjects = count;
    });
    QObject::connect(&panel, &SchemasPanel::listFailed, [&](const QString &message) {
        std::fprintf(stderr, "%s\n", qPrintable(message));
        QCoreApplication::exit(1);
    });
    QObject::connect(&panel, &SchemasPanel::detailsLoaded, [&] {
        const qint64 all = clock.elapsed();
        probe.stop();
        int errors = 0;
        for (int r = 0; r < panel.model()->rowCount(); ++r)
            errors += panel.model()->rowAt(r)->summary.error.isEmpty() ? 0 : 1;
        std::printf("%d subjects: listed in %lld ms, all details in %lld ms (%d with an error)\n", subjects, listedMs,
                    all, errors);
        std::printf("UI timer lateness: p50 %.1f ms, p99 %.1f ms, max %.1f ms over %zu ticks\n",
                    percentile(lateness, 0.5), percentile(lateness, 0.99),
                    lateness.empty() ? 0.0 : *std::max_element(lateness.begin(), lateness.end()), lateness.size());
        QCoreApplication::exit(errors == 0 ? 0 : 1);
    });
    panel.show();
    tick.start();
    probe.start(5);
    clock.start();
    panel.setRegistry(std::make_shared<RegistryDecoders>(config));
    return QApplication::exec();
}

int pane(const QString &url, const QString &bootstrap, const QString &subject)
{
    ClusterPane pane(QStringLiteral("Source"));
    pane.resize(680, 460); // one of the main window's two panes at 1366x768
    pane.show();
    ClusterConfig config;
    config.alias = QStringLiteral("src");
    config.bootstrap = bootstrap;
    config.schemaRegistry.url = url;
    pane.connectTo(config);
    pane.tabs()->setCurrentWidget(pane.schemasPanel());
    if (!subject.isEmpty())
        QObject::connect(pane.schemasPanel(), &SchemasPanel::subjectsListed, &pane,
                         [&] { pane.schemasPanel()->openSubject(subject); });
    QTimer::singleShot(60000, &pane, [] { QCoreApplication::quit(); });
    return QApplication::exec();
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() >= 5 && args[2] == QLatin1String("fill"))
        return fill(args[1], args[3].toInt(), args[4]);
    if (args.size() >= 3 && args[2] == QLatin1String("browse"))
        return browse(args[1]);
    if (args.size() >= 4 && args[2] == QLatin1String("pane"))
        return pane(args[1], args[3], args.value(4));
    std::fprintf(stderr, "usage: bench_schemas URL fill N PREFIX | URL browse | URL pane BOOTSTRAP [SUBJECT]\n");
    return 2;
}
