// Message search scan rate and the UI thread meanwhile (issue 16).
//
//   bench_search BOOTSTRAP [--records 2000000] [--partitions 6] [--repeat 3] [--topic NAME]
//                [--ui-filter PREDICATE]
//
// Loads TOPIC once (when it does not hold RECORDS yet) with 200-byte JSON values
// ({"id":N,"customer":{"id":N % 10000,...},"items":[...],...} padded to 200 B) from one
// plain librdkafka producer, then per repeat:
//   1. `scan`: searchMessages (the engine's search, no UI) from the beginning with the JSON
//      path filter `$.customer.id == 4242 && $.items[*].sku == "A2"` (a few matches), timed
//      over the whole call (connect, plan, read every record);
//   2. `ui`: the same search as the message browser runs it (a shown MessagesPanel, its
//      MessageSearchJob, matches streamed into the table, QT_QPA_PLATFORM=offscreen) with
//      the filter `$.customer.id < 1000` (--ui-filter; 10% match; the match limit 100,000 lets the table
//      take 100,000 rows in batches) while a 1 ms precise timer measures how late the
//      event loop serves it.
// Prints per repeat:
//   RESULT scan run=R records=N ms=T rate=RECORDS_PER_S matches=M
//   RESULT ui run=R records=N ms=T rate=RECORDS_PER_S matches=M p50_ms= p99_ms= max_ms=

#include "engine/core/KafkaHandles.h"
#include "engine/query/MessageSearch.h"
#include "ui/cluster/MessageSearchBar.h"
#include "ui/cluster/MessagesPanel.h"

#include "engine/admin/AdminClient.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QSpinBox>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace md;

namespace {

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
}

QByteArray valueOf(qint64 n)
{
    QByteArray v = QStringLiteral(R"({"id":%1,"customer":{"id":%2,"tier":"%3"},"items":[{"sku":"A%4","qty":%5},)"
                                  R"({"sku":"B%6","qty":1}],"note":")")
                       .arg(n)
                       .arg(n % 10000)
                       .arg(n % 3 == 0 ? QStringLiteral("gold") : QStringLiteral("basic"))
                       .arg(n % 7)
                       .arg(n % 5 + 1)
                       .arg(n % 11)
                       .toUtf8();
    v.append(QByteArray(qMax<qsizetype>(0, 200 - v.size() - 2), 'x'));
    v.append("\"}");
    return v;
}

qint64 recordsIn(rd_kafka_t *rk, const QByteArray &topic, int partitions)
{
    qint64 total = 0;
    for (int p = 0; p < partitions; ++p) {
        int64_t lo = 0, hi = 0;
        if (rd_kafka_query_watermark_offsets(rk, topic.constData(), p, &lo, &hi, 10000) != RD_KAFKA_RESP_ERR_NO_ERROR)
            return -1;
        total += hi - lo;
    }
    return total;
}

// Loads the topic (created by main when missing) from one producer.
bool load(const QString &bootstrap, const QByteArray &topic, qint64 records, int partitions)
{
    char err[512];
    KafkaConfPtr conf(rd_kafka_conf_new());
    for (const auto &[k, v] :
         std::initializer_list<std::pair<const char *, std::string>>{{"bootstrap.servers", bootstrap.toStdString()},
                                                                     {"linger.ms", "20"},
                                                                     {"batch.size", "1000000"},
                                                                     {"queue.buffering.max.messages", "1000000"},
                                                                     {"compression.type", "none"}}) {
        if (rd_kafka_conf_set(conf.get(), k, v.c_str(), err, sizeof err) != RD_KAFKA_CONF_OK) {
            std::fprintf(stderr, "load: %s\n", err);
            return false;
        }
    }
    KafkaPtr rk(rd_kafka_new(RD_KAFKA_PRODUCER, conf.release(), err, sizeof err));
    if (!rk) {
        std::fprintf(stderr, "load: %s\n", err);
        return false;
    }
    if (recordsIn(rk.get(), topic, partitions) == records)
        return true;
    for (qint64 n = 0; n < records; ++n) {
        const QByteArray value = valueOf(n);
        const QByteArray key = QByteArray::number(n);
        for (;;) {
            const rd_kafka_resp_err_t e = rd_kafka_producev(
                rk.get(), RD_KAFKA_V_TOPIC(topic.constData()), RD_KAFKA_V_PARTITION(int(n % partitions)),
                RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(key.constData(), size_t(key.size())),
                RD_KAFKA_V_VALUE(const_cast<char *>(value.constData()), size_t(value.size())), RD_KAFKA_V_END);
            if (e == RD_KAFKA_RESP_ERR_NO_ERROR)
                break;
            if (e != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
                std::fprintf(stderr, "load: %s\n", rd_kafka_err2str(e));
                return false;
            }
            rd_kafka_poll(rk.get(), 10);
        }
        rd_kafka_poll(rk.get(), 0);
    }
    rd_kafka_flush(rk.get(), 120000);
    const qint64 now = recordsIn(rk.get(), topic, partitions);
    if (now != records) {
        std::fprintf(stderr, "load: the topic holds %lld records, not %lld (delete it and run again)\n", (long long)now,
                     (long long)records);
        return false;
    }
    return true;
}

FilterCondition jsonPath(const QString &text)
{
    FilterCondition c;
    c.field = FilterCondition::Field::Value;
    c.match = FilterCondition::Match::JsonPath;
    c.text = text;
    return c;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStringList args = app.arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: bench_search BOOTSTRAP [--records N] [--partitions P] [--repeat R] [--topic T]\n");
        return 2;
    }
    const QString bootstrap = args.at(1);
    qint64 records = 2'000'000;
    int partitions = 6, repeat = 3;
    QString topic = QStringLiteral("bench-search");
    QString uiFilter = QStringLiteral("$.customer.id < 1000");
    for (int i = 2; i + 1 < args.size(); i += 2) {
        if (args[i] == QLatin1String("--records"))
            records = args[i + 1].toLongLong();
        else if (args[i] == QLatin1String("--partitions"))
            partitions = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--repeat"))
            repeat = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--topic"))
            topic = args[i + 1];
        else if (args[i] == QLatin1String("--ui-filter"))
            uiFilter = args[i + 1];
    }
    {
        ClusterConfig c;
        c.bootstrap = bootstrap;
        QString error;
        auto admin = AdminService::create(c, &error);
        if (!admin) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        const AdminResult<ClusterMetadata> md = admin->metadata();
        if (!md.ok()) {
            std::fprintf(stderr, "%s\n", qPrintable(md.error));
            return 1;
        }
        if (!md.value.topic(topic)) {
            NewTopicSpec t;
            t.name = topic;
            t.partitions = partitions;
            const AdminResult<Done> created = admin->createTopic(t);
            if (!created.ok()) {
                std::fprintf(stderr, "%s\n", qPrintable(created.error));
                return 1;
            }
            QThread::sleep(2); // leaders settle
        }
    }
    std::fprintf(stderr, "loading %lld records into %s (%d partitions)...\n", (long long)records, qPrintable(topic),
                 partitions);
    if (!load(bootstrap, topic.toUtf8(), records, partitions))
        return 1;

    ClusterConfig cluster;
    cluster.bootstrap = bootstrap;
    cluster.alias = QStringLiteral("bench");

    for (int run = 1; run <= repeat; ++run) {
        SearchSpec spec;
        spec.cluster = cluster;
        spec.topic = topic;
        spec.start = SearchSpec::Start::Beginning;
        spec.maxMatches = 1'000'000;
        spec.filter.conditions = {jsonPath(QStringLiteral(R"($.customer.id == 4242 && $.items[*].sku == "A2")"))};
        QElapsedTimer t;
        t.start();
        const SearchResult r = searchMessages(spec);
        const qint64 ms = t.elapsed();
        if (!r.ok()) {
            std::fprintf(stderr, "scan: %s\n", qPrintable(r.error));
            return 1;
        }
        std::printf("RESULT scan run=%d records=%lld ms=%lld rate=%.0f matches=%lld\n", run,
                    (long long)r.progress.scanned, (long long)ms, double(r.progress.scanned) * 1000.0 / double(ms),
                    (long long)r.progress.matched);
        std::fflush(stdout);

        // The browser's path: a shown panel, the job, matches into the table.
        AdminClient admin;
        MessagesPanel panel(&admin);
        panel.setClusters(cluster, {});
        panel.resize(1280, 800);
        panel.show();
        panel.topicBox()->setCurrentText(topic);
        panel.modeBox()->setCurrentIndex(panel.modeBox()->findData(int(MessageQuery::Mode::FromOffset)));
        panel.offsetEdit()->setText(QStringLiteral("0"));
        panel.countBox()->setValue(100000);
        MessageSearchBar *bar = panel.searchBar();
        bar->matchBox()->setCurrentIndex(bar->matchBox()->findData(int(FilterCondition::Match::JsonPath)));
        bar->textEdit()->setText(uiFilter);
        std::vector<double> lateness;
        QElapsedTimer clock;
        clock.start();
        qint64 expected = 1;
        QTimer probe;
        probe.setTimerType(Qt::PreciseTimer);
        probe.setInterval(1);
        QObject::connect(&probe, &QTimer::timeout, [&] {
            const qint64 now = clock.nsecsElapsed();
            lateness.push_back(double(std::max<qint64>(0, now - expected * 1'000'000)) / 1e6);
            expected = now / 1'000'000 + 1;
        });
        SearchResult uiResult;
        bool done = false;
        QObject::connect(&panel, &MessagesPanel::searchFinished, [&](const SearchResult &result) {
            uiResult = result;
            done = true;
        });
        t.start();
        probe.start();
        panel.search();
        while (!done)
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        probe.stop();
        const qint64 uiMs = t.elapsed();
        if (!uiResult.ok()) {
            std::fprintf(stderr, "ui: %s\n", qPrintable(uiResult.error));
            return 1;
        }
        std::printf("RESULT ui run=%d records=%lld ms=%lld rate=%.0f matches=%lld rows=%d p50_ms=%.2f p99_ms=%.2f "
                    "max_ms=%.2f\n",
                    run, (long long)uiResult.progress.scanned, (long long)uiMs,
                    double(uiResult.progress.scanned) * 1000.0 / double(uiMs), (long long)uiResult.progress.matched,
                    panel.model()->rowCount(), percentile(lateness, 0.5), percentile(lateness, 0.99),
                    lateness.empty() ? 0.0 : *std::max_element(lateness.begin(), lateness.end()));
        std::fflush(stdout);
    }
    return 0;
}
