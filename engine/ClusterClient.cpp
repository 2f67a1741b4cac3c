#include "ClusterClient.h"

#include <QTimer>

#include <algorithm>

namespace md {

namespace {
constexpr int kMetadataTimeoutMs = 8000; // the UI promises an answer within ten seconds
constexpr int kWatermarkTimeoutMs = 8000;

void registerTypes()
{
    static const bool once = [] {
        qRegisterMetaType<ClusterConfig>("md::ClusterConfig");
        qRegisterMetaType<ClusterMetadata>("md::ClusterMetadata");
        return true;
    }();
    Q_UNUSED(once);
}
} // namespace

// Lives on the client's admin thread: owns the librdkafka handle and does every
// blocking call there.
class ClusterWorker final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterWorker)
public:
    ClusterWorker() : m_timer(this)
    {
        connect(&m_timer, &QTimer::timeout, this, &ClusterWorker::refresh);
    }

    void connectTo(const ClusterConfig &config)
    {
        m_probe.reset();
        m_config = config;
        refresh();
    }

    void setAutoRefresh(int ms)
    {
        if (ms > 0)
            m_timer.start(ms);
        else
            m_timer.stop();
    }

    void refresh()
    {
        if (m_config.bootstrap.isEmpty())
            return;
        QString error;
        if (!m_probe) {
            m_probe = ProbeClient::create(m_config, &error);
            if (!m_probe) {
                Q_EMIT failure(error);
                return;
            }
        }
        if (auto md = m_probe->fetchMetadata(kMetadataTimeoutMs, true, &error))
            Q_EMIT metadata(*md);
        else
            Q_EMIT failure(error);
    }

Q_SIGNALS:
    void metadata(const md::ClusterMetadata &metadata);
    void failure(const QString &message);

private:
    ClusterConfig m_config;
    std::unique_ptr<ProbeClient> m_probe;
    QTimer m_timer;
};

ClusterClient::ClusterClient(QObject *parent) : QObject(parent)
{
    registerTypes();
    m_thread.setObjectName(QStringLiteral("cluster-admin"));
    m_worker = new ClusterWorker;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &ClusterWorker::metadata, this, &ClusterClient::onMetadata);
    connect(m_worker, &ClusterWorker::failure, this, &ClusterClient::onFailure);
    m_thread.start();
}

ClusterClient::~ClusterClient()
{
    m_thread.quit();
    m_thread.wait();
}

void ClusterClient::connectTo(const ClusterConfig &config)
{
    m_config = config;
    m_metadata = {};
    setState(State::Connecting);
    QMetaObject::invokeMethod(m_worker, [w = m_worker, config] { w->connectTo(config); }, Qt::QueuedConnection);
}

void ClusterClient::refresh()
{
    QMetaObject::invokeMethod(m_worker, &ClusterWorker::refresh, Qt::QueuedConnection);
}

void ClusterClient::setAutoRefreshInterval(int ms)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, ms] { w->setAutoRefresh(ms); }, Qt::QueuedConnection);
}

void ClusterClient::onMetadata(const ClusterMetadata &metadata)
{
    m_metadata = metadata;
    m_lastError.clear();
    setState(State::Connected);
    Q_EMIT metadataReady(m_metadata);
}

void ClusterClient::onFailure(const QString &message)
{
    m_lastError = message;
    setState(State::Unreachable);
    Q_EMIT errorOccurred(message);
}

void ClusterClient::setState(State s)
{
    if (m_state == s)
        return;
    m_state = s;
    Q_EMIT stateChanged(s);
}

// --- ProbeClient ---------------------------------------------------------------

std::unique_ptr<ProbeClient> ProbeClient::create(const ClusterConfig &config, QString *error)
{
    std::unique_ptr<ProbeClient> probe(new ProbeClient);
    probe->m_config = config;
    ConfResult conf = makeKafkaConf(config, ClientRole::Admin,
                                    {{QStringLiteral("enable.auto.commit"), QStringLiteral("false")},
                                     {QStringLiteral("socket.connection.setup.timeout.ms"), QStringLiteral("7000")}});
    if (!conf.conf) {
        *error = config.bootstrap + QStringLiteral(": invalid client setting ") + conf.error;
        return nullptr;
    }
    rd_kafka_conf_set_opaque(conf.conf.get(), probe.get());
    rd_kafka_conf_set_error_cb(conf.conf.get(), &ProbeClient::errorCallback);
    // The error callback keeps what matters; librdkafka's own stderr log would only repeat it.
    rd_kafka_conf_set_log_cb(conf.conf.get(), [](const rd_kafka_t *, int, const char *, const char *) {});
    char errstr[512];
    probe->m_rk.reset(rd_kafka_new(RD_KAFKA_CONSUMER, conf.conf.get(), errstr, sizeof errstr));
    if (!probe->m_rk) {
        *error = config.bootstrap + QStringLiteral(": ") + QString::fromUtf8(errstr);
        return nullptr;
    }
    conf.conf.release(); // rd_kafka_new took ownership
    return probe;
}

ProbeClient::~ProbeClient() = default;

void ProbeClient::errorCallback(rd_kafka_t *, int err, const char *reason, void *opaque)
{
    auto *self = static_cast<ProbeClient *>(opaque);
    QMutexLocker lock(&self->m_mutex);
    // "all brokers down" repeats the cause less precisely than the error before it.
    if (err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN && !self->m_lastError.isEmpty())
        return;
    self->m_lastError = QString::fromUtf8(reason);
}

QString ProbeClient::lastConnectionError() const
{
    QMutexLocker lock(&m_mutex);
    return m_lastError;
}

QString ProbeClient::failure(const QString &what, rd_kafka_resp_err_t err) const
{
    rd_kafka_poll(m_rk.get(), 0); // serve the error callback so its reason is recorded
    QString text = m_config.bootstrap + QStringLiteral(": ") + what + QStringLiteral(": ") + kafkaErrorText(err);
    if (const QString cause = lastConnectionError(); !cause.isEmpty())
        text += QStringLiteral(" (") + cause + QLatin1Char(')');
    return text;
}

std::optional<ClusterMetadata> ProbeClient::fetchMetadata(int timeoutMs, bool withWatermarks, QString *error)
{
    const rd_kafka_metadata_t *raw = nullptr;
    rd_kafka_resp_err_t err = rd_kafka_metadata(m_rk.get(), 1, nullptr, &raw, timeoutMs);
    MetadataPtr meta(raw);
    if (err) {
        *error = failure(QStringLiteral("cannot fetch metadata"), err);
        return std::nullopt;
    }
    ClusterMetadata result;
    result.bootstrap = m_config.bootstrap;
    result.fetchedAt = QDateTime::currentDateTimeUtc();
    result.controllerId = rd_kafka_controllerid(m_rk.get(), 0);
    if (char *id = rd_kafka_clusterid(m_rk.get(), 0)) {
        result.clusterId = QString::fromUtf8(id);
        rd_kafka_mem_free(m_rk.get(), id);
    }
    for (int i = 0; i < meta->broker_cnt; ++i) {
        const auto &b = meta->brokers[i];
        result.brokers.append({b.id, QString::fromUtf8(b.host), b.port, {}, b.id == result.controllerId});
    }
    std::sort(result.brokers.begin(), result.brokers.end(),
              [](const BrokerInfo &a, const BrokerInfo &b) { return a.id < b.id; });
    result.topics.reserve(meta->topic_cnt);
    for (int i = 0; i < meta->topic_cnt; ++i) {
        const auto &t = meta->topics[i];
        TopicInfo topic;
        topic.name = QString::fromUtf8(t.topic);
        topic.internal = topic.name.startsWith(QLatin1String("__"));
        if (t.err)
            topic.error = kafkaErrorText(t.err);
        topic.partitions.reserve(t.partition_cnt);
        for (int p = 0; p < t.partition_cnt; ++p) {
            const auto &mp = t.partitions[p];
            PartitionInfo part;
            part.id = mp.id;
            part.leader = mp.leader;
            part.replicas = QList<int>(mp.replicas, mp.replicas + mp.replica_cnt);
            part.isr = QList<int>(mp.isrs, mp.isrs + mp.isr_cnt);
            if (mp.err)
                part.error = kafkaErrorText(mp.err);
            topic.partitions.append(std::move(part));
        }
        std::sort(topic.partitions.begin(), topic.partitions.end(),
                  [](const PartitionInfo &a, const PartitionInfo &b) { return a.id < b.id; });
        result.topics.append(std::move(topic));
    }
    std::sort(result.topics.begin(), result.topics.end(),
              [](const TopicInfo &a, const TopicInfo &b) { return a.name < b.name; });
    if (withWatermarks) {
        QString wmError;
        // Watermarks are a nicety: metadata without them is still an answer.
        fetchWatermarks(result.topics, kWatermarkTimeoutMs, &wmError);
    }
    return result;
}

bool ProbeClient::fetchWatermarks(QList<TopicInfo> &topics, int timeoutMs, QString *error)
{
    // One batched ListOffsets per side for everything; when the batch fails as a
    // whole (a topic being deleted or without a leader fails the request), each
    // topic is asked on its own so one bad topic does not blank the others.
    QList<TopicInfo *> all;
    for (TopicInfo &t : topics)
        all.append(&t);
    if (queryWatermarks(all, timeoutMs, error))
        return true;
    bool allOk = true;
    for (TopicInfo *t : std::as_const(all)) {
        QString topicError;
        if (!queryWatermarks({t}, timeoutMs, &topicError)) {
            allOk = false;
            *error = topicError;
        }
    }
    return allOk;
}

bool ProbeClient::queryWatermarks(const QList<TopicInfo *> &topics, int timeoutMs, QString *error)
{
    int count = 0;
    for (const TopicInfo *t : topics)
        count += int(t->partitions.size());
    if (count == 0)
        return true;
    // ListOffsets with timestamp -2 answers the earliest offset, -1 the latest:
    // one batched request per leader instead of one round trip per partition.
    for (const qint64 sentinel : {qint64(-2), qint64(-1)}) {
        PartitionListPtr list(rd_kafka_topic_partition_list_new(count));
        for (const TopicInfo *t : topics) {
            const QByteArray name = t->name.toUtf8();
            for (const PartitionInfo &p : t->partitions)
                rd_kafka_topic_partition_list_add(list.get(), name.constData(), p.id)->offset = sentinel;
        }
        if (rd_kafka_resp_err_t err = rd_kafka_offsets_for_times(m_rk.get(), list.get(), timeoutMs)) {
            *error = failure(QStringLiteral("cannot read offsets"), err);
            return false;
        }
        int i = 0;
        for (TopicInfo *t : topics) {
            for (PartitionInfo &p : t->partitions) {
                const rd_kafka_topic_partition_t &e = list->elems[i++];
                const qint64 value = e.err ? -1 : e.offset;
                (sentinel == -2 ? p.lowWatermark : p.highWatermark) = value;
            }
        }
    }
    return true;
}

} // namespace md

#include "ClusterClient.moc"
