// The message browser reading a large topic of Avro records decoded by the schema
// registry, and the UI thread meanwhile (issue 19).
//
//   bench_decoded_read BOOTSTRAP REGISTRY_URL [--records 100000] [--partitions 6] [--repeat 3]
//                      [--topic NAME] [--max 100000]
//
// Registers an Avro schema under NAME-value (default topic: bench-decoded), loads NAME once
// (when it does not hold RECORDS yet) with ~200-byte values in the registry's wire format
// (magic byte, schema id, Avro body) from one plain librdkafka producer, then per repeat opens a
// shown MessagesPanel (the cluster view's Messages tab, offscreen) on a fresh AdminClient
// connected to the broker and the registry, shows Decoded, and reads MAX records from offset 0
// (the largest count the browser allows), while a 1 ms precise timer measures how late the
// event loop serves it. A fresh AdminClient each time: the first record of a run fetches its
// schema from the registry, as a newly opened window would.
// Prints per repeat:
//   RESULT read run=R rows=N decoded=D ms=T rate=ROWS_PER_S p50_ms= p99_ms= max_ms= paint_ms=
// ms: from Read to the table holding every row; paint_ms: the first paint of the table after it.
//   RESULT steps run=R reset_ms= sort_offset_ms=
// the UI thread's own steps afterwards: the same rows set again, and a sort by offset.

#include "engine/core/KafkaHandles.h"
#include "engine/schema/SchemaRegistryClient.h"
#include "ui/cluster/MessagesPanel.h"

#include "engine/admin/AdminClient.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <vector>

using namespace md;

namespace {

const char kSchema[] =
    R"({"type":"record","name":"Order","namespace":"com.acme","fields":[)"
    R"({"name":"id","type":"string"},{"name":"ts","type":"long"},)"
    R"({"name":"customer","type":{"type":"record","name":"Customer","fields":[)"
    R"({"name":"id","type":"long"},{"name":"name","type":"string"},{"name":"email","type":"string"},)"
    R"({"name":"tier","type":{"type":"enum","name":"Tier","symbols":["SILVER","GOLD"]}}]}},)"
    R"({"name":"total","type":"double"},{"name":"note","type":["null","string"]},)"
    R"({"name":"skus","type":{"type":"array","items":"string"}},)"
    R"({"name":"attrs","type":{"type":"map","values":"string"}}]})";

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
}

void varint(QByteArray *b, qint64 v)
{
    quint64 z = (quint64(v) << 1) ^ quint64(v >> 63);
    for (; z >= 0x80; z >>= 7)
        *b += char((z & 0x7f) | 0x80);
    *b += char(z);
}

void str(QByteArray *b, const QByteArray &s)
{
    varint(b, s.size());
    *b += s;
}

// Record n in the wire format: 0, the schema id big-endian, the Avro body; ~200 B in all.
QByteArray valueOf(qint64 n, int schemaId)
{
    QByteArray v(1, '\0');
    for (int shift = 24; shift >= 0; shift -= 8)
        v += char((quint32(schemaId) >> shift) & 0xff);
    str(&v, "o-" + QByteArray::number(n).rightJustified(9, '0') + "-2026-12-04");
    varint(&v, 1733212800123LL + n);
    varint(&v, n % 10000);
    str(&v, "Ann Lee");
    str(&v, "ann.lee." + QByteArray::number(n % 10000) + "@example.com");
    varint(&v, n % 2);
    const double total = 10.0 + double(n % 1000) / 4;
    v.append(reinterpret_cast<const char *>(&total), 8);
    varint(&v, 1);                                    // the union's string branch
    str(&v, "leave at the door, ring twice, thanks"); // 200 B in all
    varint(&v, 3);
    for (const char *s : {"SKU-B7-0001", "SKU-A1-0042", "SKU-C3-0100"})
        str(&v, s);
    varint(&v, 0);
    varint(&v, 2);
    str(&v, "channel");
    str(&v, "web-checkout");
    str(&v, "campaign");
    str(&v, "winter-sale-2026");
    varint(&v, 0);
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

bool load(const QString &bootstrap, const QByteArray &topic, qint64 records, int partitions, int schemaId)
{
    char err[512];
    KafkaConfPtr conf(rd_kafka_conf_new());
    for (const auto &[k, v] :
         std::initializer_list<std::pair<const char *, std::string>>{{"bootstrap.servers", bootstrap.toStdString()},
                                                                     {"linger.ms", "20"},
                                                                     {"batch.size", "1000000"},
                                                                     {"queue.buffering.max.messages", "1000000"}}) {
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
        const QByteArray value = valueOf(n, schemaId);
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
        std::fprintf(stderr, "load: the topic holds %lld records, not %lld (use another --topic)\n", (long long)now,
                     (long long)records);
        return false;
    }
    return true;
}

double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// Paints seen by the table's viewport, so the bench can wait for the first one after the read.
class PaintCounter final : public QObject {
public:
    int paints = 0;
    bool eventFilter(QObject *, QEvent *e) override
    {
        if (e->type() == QEvent::Paint)
            ++paints;
        return false;
    }
};

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 3) {
        std::fprintf(stderr, "usage: bench_decoded_read BOOTSTRAP REGISTRY_URL [--records N] [--partitions P] "
                             "[--repeat R] [--topic T] [--max M]\n");
        return 2;
    }
    const QString bootstrap = args.at(1);
    const QString registryUrl = args.at(2);
    qint64 records = 100'000;
    int partitions = 6, repeat = 3, max = 100'000;
    QString topic = QStringLiteral("bench-decoded");
    for (int i = 3; i + 1 < args.size(); i += 2) {
        if (args[i] == QLatin1String("--records"))
            records = args[i + 1].toLongLong();
        else if (args[i] == QLatin1String("--partitions"))
            partitions = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--repeat"))
            repeat = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--topic"))
            topic = args[i + 1];
        else if (args[i] == QLatin1String("--max"))
            max = args[i + 1].toInt();
    }

    SchemaRegistryConfig registry;
    registry.url = registryUrl;
    RegistryError registryError;
    const std::optional<int> schemaId = SchemaRegistryClient(registry).registerSchema(
        topic + QStringLiteral("-value"), QStringLiteral("AVRO"), QByteArray(kSchema), {}, &registryError);
    if (!schemaId) {
        std::fprintf(stderr, "%s\n", qPrintable(registryError.message));
        return 1;
    }
    ClusterConfig cluster;
    cluster.bootstrap = bootstrap;
    cluster.alias = QStringLiteral("bench");
    cluster.schemaRegistry = registry;
    {
        QString error;
        auto admin = AdminService::create(cluster, &error);
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
    std::fprintf(stderr, "record: %lld bytes (schema %d); loading %lld records into %s (%d partitions)...\n",
                 (long long)valueOf(0, *schemaId).size(), *schemaId, (long long)records, qPrintable(topic), partitions);
    if (!load(bootstrap, topic.toUtf8(), records, partitions, *schemaId))
        return 1;

    for (int run = 1; run <= repeat; ++run) {
        AdminClient admin;
        bool connected = false;
        QString failure;
        QObject::connect(&admin, &AdminClient::connected, [&] { connected = true; });
        QObject::connect(&admin, &AdminClient::requestFailed,
                         [&](quint64, AdminClient::Operation, const QString &error) { failure = error; });
        admin.connectTo(cluster);
        while (!connected && failure.isEmpty())
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        if (!failure.isEmpty()) {
            std::fprintf(stderr, "connect: %s\n", qPrintable(failure));
            return 1;
        }
        MessagesPanel panel(&admin);
        panel.setClusters(cluster, {});
        panel.resize(1280, 800);
        panel.show();
        panel.topicBox()->setCurrentText(topic);
        panel.modeBox()->setCurrentIndex(panel.modeBox()->findData(int(MessageQuery::Mode::FromOffset)));
        panel.offsetEdit()->setText(QStringLiteral("0"));
        panel.countBox()->setValue(max);
        if (panel.model()->displayMode() != MessageTableModel::DisplayMode::Decoded) {
            std::fprintf(stderr, "the panel does not show Decoded for a cluster with a registry\n");
            return 1;
        }
        PaintCounter paints;
        panel.view()->viewport()->installEventFilter(&paints);
        for (int i = 0; i < 20; ++i) // settle the first layout and paint
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);

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
        int shown = -1;
        QObject::connect(&panel, &MessagesPanel::messagesShown, [&](int count) { shown = count; });
        QObject::connect(&panel, &MessagesPanel::readFailed, [&](const QString &error) { failure = error; });
        QElapsedTimer t;
        t.start();
        expected = clock.nsecsElapsed() / 1'000'000 + 1;
        probe.start();
        panel.read();
        while (shown < 0 && failure.isEmpty())
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        const qint64 ms = t.elapsed();
        // The first paint of the full table (and what the event loop does until then).
        const int paintsBefore = paints.paints;
        QElapsedTimer paint;
        paint.start();
        while (paints.paints == paintsBefore && paint.elapsed() < 5000)
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        const qint64 paintMs = paint.elapsed();
        // A little more: a stall right after the paint belongs to the read too.
        QElapsedTimer tail;
        tail.start();
        while (tail.elapsed() < 200)
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        probe.stop();
        if (!failure.isEmpty()) {
            std::fprintf(stderr, "read: %s\n", qPrintable(failure));
            return 1;
        }
        int decoded = 0;
        for (const KafkaMessage &m : panel.model()->messages())
            decoded += m.valueDecoded.status == DecodedPart::Status::Decoded ? 1 : 0;
        std::printf("RESULT read run=%d rows=%d decoded=%d ms=%lld rate=%.0f p50_ms=%.2f p99_ms=%.2f max_ms=%.2f "
                    "paint_ms=%lld samples=%zu\n",
                    run, panel.model()->rowCount(), decoded, (long long)ms, double(shown) * 1000.0 / double(ms),
                    percentile(lateness, 0.5), percentile(lateness, 0.99),
                    lateness.empty() ? 0.0 : *std::max_element(lateness.begin(), lateness.end()), (long long)paintMs,
                    lateness.size());
        // Where a stall of the UI thread comes from: the same rows set again (model reset, the
        // proxy's sort by the header's column, the view's reset), and a sort alone.
        // CPU time of this thread too: on a loaded machine the wall time is mostly waiting for a core.
        const QList<KafkaMessage> rows = panel.model()->messages();
        QElapsedTimer step;
        step.start();
        double cpu = threadCpuMs();
        panel.model()->setMessages(rows);
        const qint64 resetMs = step.elapsed();
        const double resetCpu = threadCpuMs() - cpu;
        step.start();
        cpu = threadCpuMs();
        panel.view()->sortByColumn(MessageTableModel::Offset, Qt::AscendingOrder);
        const qint64 sortMs = step.elapsed();
        const double sortCpu = threadCpuMs() - cpu;
        // The same sort by QSortFilterProxyModel's own compare (QVariants of SortRole), no view.
        QSortFilterProxyModel plain;
        plain.setSortRole(MessageTableModel::SortRole);
        plain.setSourceModel(panel.model());
        cpu = threadCpuMs();
        plain.sort(MessageTableModel::Offset, Qt::AscendingOrder);
        const double plainCpu = threadCpuMs() - cpu;
        std::printf("RESULT steps run=%d reset_ms=%lld reset_cpu_ms=%.0f sort_offset_ms=%lld sort_cpu_ms=%.0f "
                    "default_proxy_sort_cpu_ms=%.0f\n",
                    run, (long long)resetMs, resetCpu, (long long)sortMs, sortCpu, plainCpu);
        panel.view()->sortByColumn(MessageTableModel::Partition, Qt::DescendingOrder);
        if (run == 1) {
            const QModelIndex first = panel.model()->index(0, MessageTableModel::Value);
            std::printf("first value: %s\n", qPrintable(first.data().toString()));
        }
        std::fflush(stdout);
    }
    return 0;
}
