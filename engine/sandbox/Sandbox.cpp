#include "engine/sandbox/Sandbox.h"

#include "engine/core/ClusterConfig.h"
#include "engine/groupsync/GroupOffsetSync.h"
#include "engine/mirror/TopicNaming.h"

#include <librdkafka/rdkafka_mock.h>

#include <QDateTime>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

namespace md {

namespace {
const char *const kRegions[] = {"eu-west", "us-east", "ap-south"};
}

QList<SandboxClusters::DemoTopic> SandboxClusters::demoTopics()
{
    return {
        {QStringLiteral("demo.orders"), 6}, {QStringLiteral("demo.payments"), 3}, {QStringLiteral("demo.clicks"), 12}};
}

bool SandboxClusters::makeCluster(Cluster &c, int brokers, QString *bootstrap, QString *error)
{
    KafkaConfPtr conf(rd_kafka_conf_new());
    setConf(conf.get(), QStringLiteral("log_level"), QStringLiteral("3"));
    char errstr[512];
    c.host.reset(rd_kafka_new(RD_KAFKA_PRODUCER, conf.get(), errstr, sizeof errstr));
    if (!c.host) {
        *error = QStringLiteral("sandbox: ") + QString::fromUtf8(errstr);
        return false;
    }
    conf.release();
    // Brokers 1..n from the mock, and broker 0 added: the mock's metadata
    // names broker 0 as the controller (librdkafka 2.12 never sets another),
    // and without a broker 0 every admin request aimed at the controller
    // (CreateTopics, DescribeConfigs) waits its whole timeout and fails with
    // "Failed while waiting for controller". With one, the client sees at
    // once that the mock does not serve those requests and says so.
    // `brokers` counts broker 0: at least 2 (the bootstrap list names the mock's own).
    c.mock = rd_kafka_mock_cluster_new(c.host.get(), std::max(1, brokers - 1));
    if (!c.mock || rd_kafka_mock_broker_add(c.mock, 0) != RD_KAFKA_RESP_ERR_NO_ERROR) {
        *error = QStringLiteral("sandbox: cannot start an embedded cluster");
        return false;
    }
    *bootstrap = QString::fromUtf8(rd_kafka_mock_cluster_bootstraps(c.mock));
    return true;
}

std::unique_ptr<SandboxClusters> SandboxClusters::start(QString *error, int recordsPerSecond)
{
    std::unique_ptr<SandboxClusters> s(new SandboxClusters);
    if (!makeCluster(s->m_source, 3, &s->m_sourceBootstrap, error) ||
        !makeCluster(s->m_target, 2, &s->m_targetBootstrap, error))
        return nullptr;
    for (const DemoTopic &t : demoTopics()) {
        if (rd_kafka_mock_topic_create(s->m_source.mock, t.name.toUtf8().constData(), t.partitions, 1)) {
            *error = QStringLiteral("sandbox: cannot create demo topic ") + t.name;
            return nullptr;
        }
    }
    ClusterConfig cfg;
    cfg.bootstrap = s->m_sourceBootstrap;
    ConfResult conf = makeKafkaConf(cfg, ClientRole::Producer,
                                    {{QStringLiteral("linger.ms"), QStringLiteral("20")},
                                     {QStringLiteral("enable.idempotence"), QStringLiteral("true")}});
    if (!conf.conf) {
        *error = conf.error;
        return nullptr;
    }
    char errstr[512];
    s->m_producer.reset(rd_kafka_new(RD_KAFKA_PRODUCER, conf.conf.get(), errstr, sizeof errstr));
    if (!s->m_producer) {
        *error = QStringLiteral("sandbox: ") + QString::fromUtf8(errstr);
        return nullptr;
    }
    conf.conf.release();
    s->m_thread.start([raw = s.get(), recordsPerSecond] { raw->produceLoop(recordsPerSecond); });
    return s;
}

SandboxClusters::~SandboxClusters()
{
    m_stop = true;
    // The loop produces to the mock clusters torn down below.
    m_thread.join();
    if (m_producer)
        rd_kafka_flush(m_producer.get(), 2000);
    m_producer.reset();
    // A mock cluster goes before the client instance that hosts it.
    for (Cluster *c : {&m_target, &m_source}) {
        if (c->mock)
            rd_kafka_mock_cluster_destroy(c->mock);
        c->mock = nullptr;
        c->host.reset();
    }
}

void SandboxClusters::produceLoop(int recordsPerSecond)
{
    using namespace std::chrono;
    const QList<DemoTopic> topics = demoTopics();
    const auto period = microseconds(1000000 / std::max(1, recordsPerSecond));
    auto next = steady_clock::now();
    qint64 n = 0;
    char key[32];
    char value[256];
    while (!m_stop.load(std::memory_order_relaxed)) {
        const DemoTopic &t = topics[n % topics.size()];
        const QByteArray topic = t.name.toUtf8();
        const int customer = int((n * 7919) % 500);
        const int keyLen = std::snprintf(key, sizeof key, "customer-%d", customer);
        const int valueLen =
            std::snprintf(value, sizeof value, "{\"seq\":%lld,\"customer\":%d,\"amount\":%d.%02d,\"region\":\"%s\"}",
                          static_cast<long long>(n), customer, int(n % 997), int(n % 100), kRegions[n % 3]);
        const QByteArray trace = QByteArray::number(n, 16);
        // Keys pick the partition, headers carry a trace id and the producer name.
        rd_kafka_resp_err_t err = rd_kafka_producev(
            m_producer.get(), RD_KAFKA_V_TOPIC(topic.constData()), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
            RD_KAFKA_V_KEY(key, size_t(keyLen)), RD_KAFKA_V_VALUE(value, size_t(valueLen)),
            RD_KAFKA_V_HEADER("trace-id", trace.constData(), trace.size()),
            RD_KAFKA_V_HEADER("producer", "mirrordesk-sandbox", -1), RD_KAFKA_V_END);
        if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
            rd_kafka_poll(m_producer.get(), 100);
            continue;
        }
        if (!err) {
            ++n;
            m_produced.store(n, std::memory_order_relaxed);
        }
        rd_kafka_poll(m_producer.get(), 0);
        next += period;
        const auto now = steady_clock::now();
        if (next > now)
            std::this_thread::sleep_for(std::min(duration_cast<microseconds>(next - now), microseconds(100000)));
        else if (now - next > seconds(1))
            next = now; // fell far behind (machine busy): don't burst to catch up
    }
}

QStringList SandboxClusters::prepareTarget(const MirrorJobSpec &spec)
{
    QStringList created;
    for (const DemoTopic &t : demoTopics()) {
        if (!topicSelected(spec, t.name))
            continue;
        const QString name = targetTopicName(spec, t.name);
        if (!rd_kafka_mock_topic_create(m_target.mock, name.toUtf8().constData(), t.partitions, 1))
            created.append(name);
    }
    // The job's offset map: the mock cannot create it for the job (no
    // CreateTopics), and a topic it creates on its own has 4 partitions.
    if (spec.offsetMap) {
        const QString map = offsetMapTopicOf(spec);
        if (!rd_kafka_mock_topic_create(m_target.mock, map.toUtf8().constData(), 1, 1))
            created.append(map);
    }
    return created;
}

std::optional<QString> SandboxClusters::resolve(const QString &arg, QString *error) const
{
    if (arg == QLatin1String("source"))
        return m_sourceBootstrap;
    if (arg == QLatin1String("target"))
        return m_targetBootstrap;
    *error = QStringLiteral("unknown sandbox cluster \"") + arg + QStringLiteral("\" (expected source or target)");
    return std::nullopt;
}

} // namespace md
