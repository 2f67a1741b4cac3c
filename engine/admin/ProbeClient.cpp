#include "engine/admin/ProbeClient.h"

#include "engine/core/BootstrapRevival.h"

#include <QElapsedTimer>
#include <QHash>

#include <algorithm>
#include <cstring>

namespace md {

namespace {
constexpr int kWatermarkTimeoutMs = 8000;
constexpr int kDescribeClusterTimeoutMs = 3000;
// How long a broker's refusal counts without being reported again: librdkafka
// reports an identical connection error again after 30 s at the earliest, at
// its next attempt (reconnect.backoff.max.ms, 10 s, apart at most).
constexpr auto kRefusalKept = std::chrono::seconds(60);

// Final at once. Not "all brokers down": librdkafka says it also for the
// moment between forgetting every broker and re-bootstrapping (issue 5301),
// when the next round gets through; the brokers' own failures decide then.
bool isHopeless(int code)
{
    switch (code) {
    case RD_KAFKA_RESP_ERR__AUTHENTICATION:
    case RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED:
    case RD_KAFKA_RESP_ERR__SSL:
    case RD_KAFKA_RESP_ERR__RESOLVE: return true;
    default: return false;
    }
}

bool isConnectionError(rd_kafka_resp_err_t err)
{
    return err == RD_KAFKA_RESP_ERR__TIMED_OUT || err == RD_KAFKA_RESP_ERR__TRANSPORT ||
           err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN || err == RD_KAFKA_RESP_ERR__AUTHENTICATION ||
           err == RD_KAFKA_RESP_ERR__SSL || err == RD_KAFKA_RESP_ERR__RESOLVE;
}

// What a fetch that cannot get through ends with, whether or not the handle
// still knows a broker.
bool isUnreachable(rd_kafka_resp_err_t err)
{
    return err == RD_KAFKA_RESP_ERR__TIMED_OUT || err == RD_KAFKA_RESP_ERR__TRANSPORT ||
           err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN;
}

// The broker a connection error is about: librdkafka's reasons begin with its
// name ("127.0.0.1:9092/bootstrap: Connect to ... failed: ...").
QString brokerOf(const char *reason)
{
    const char *end = reason ? std::strstr(reason, ": ") : nullptr;
    return end ? QString::fromUtf8(reason, end - reason) : QString();
}

// The connect itself failed, at once: the address answered that no broker
// listens there ("Connection refused"; host or network unreachable alike), or
// the name did not resolve. Not a connection setup that timed out, nor one
// that broke after it was made.
bool isRefusal(int err, const char *reason)
{
    if (err == RD_KAFKA_RESP_ERR__RESOLVE)
        return true;
    return err == RD_KAFKA_RESP_ERR__TRANSPORT && reason && std::strstr(reason, "Connect to ") &&
           std::strstr(reason, " failed: ");
}

// The distinct entries of a bootstrap list, separated as librdkafka does (commas, spaces).
int bootstrapEntries(const QString &bootstrap)
{
    QSet<QString> entries;
    for (const QString &entry : QString(bootstrap).replace(QLatin1Char(' '), QLatin1Char(',')).split(QLatin1Char(',')))
        if (const QString e = entry.trimmed(); !e.isEmpty())
            entries.insert(e);
    return int(entries.size());
}

bool usesTls(const ClusterConfig &config)
{
    return config.security == SecurityProtocol::Ssl || config.security == SecurityProtocol::SaslSsl;
}

// Authentication and TLS failures name the cause; the transport error or
// "all brokers down" that follows them only repeats it less precisely.
bool isPrecise(int code)
{
    return code == RD_KAFKA_RESP_ERR__AUTHENTICATION || code == RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED ||
           code == RD_KAFKA_RESP_ERR__SSL;
}
} // namespace

std::unique_ptr<ProbeClient> ProbeClient::create(const ClusterConfig &config, QString *error, int connectTimeoutMs)
{
    KafkaError e;
    std::unique_ptr<ProbeClient> probe = create(config, &e, connectTimeoutMs);
    *error = e.message;
    return probe;
}

std::unique_ptr<ProbeClient> ProbeClient::createForGroupOffsets(const ClusterConfig &config, QString *error,
                                                                int connectTimeoutMs)
{
    KafkaError e;
    std::unique_ptr<ProbeClient> probe = create(config, &e, connectTimeoutMs, offsetFetchGroupId());
    *error = e.message;
    return probe;
}

std::unique_ptr<ProbeClient> ProbeClient::create(const ClusterConfig &config, KafkaError *error, int connectTimeoutMs)
{
    return create(config, error, connectTimeoutMs, QString());
}

std::unique_ptr<ProbeClient> ProbeClient::create(const ClusterConfig &config, KafkaError *error, int connectTimeoutMs,
                                                 const QString &groupId)
{
    if (config.bootstrap.trimmed().isEmpty()) {
        *error = KafkaError::from(RD_KAFKA_RESP_ERR__INVALID_ARG, QStringLiteral("no bootstrap servers given"));
        return nullptr;
    }
    std::unique_ptr<ProbeClient> probe(new ProbeClient);
    probe->m_config = config;
    probe->m_bootstrapCount = bootstrapEntries(config.bootstrap);
    QMap<QString, QString> overrides{{QStringLiteral("enable.auto.commit"), QStringLiteral("false")},
                                     {QStringLiteral("socket.connection.setup.timeout.ms"),
                                      QString::number(std::clamp(connectTimeoutMs, 1000, 30000))}};
    if (!groupId.isEmpty())
        overrides.insert(QStringLiteral("group.id"), groupId);
    ConfResult conf = makeKafkaConf(config, ClientRole::Admin, overrides);
    if (!conf.conf) {
        *error = KafkaError::from(RD_KAFKA_RESP_ERR__INVALID_ARG,
                                  config.bootstrap + QStringLiteral(": invalid client setting ") + conf.error);
        return nullptr;
    }
    rd_kafka_conf_set_opaque(conf.conf.get(), probe.get());
    rd_kafka_conf_set_error_cb(conf.conf.get(), &ProbeClient::errorCallback);
    // The error callback keeps what matters; librdkafka's own stderr log would only repeat it.
    rd_kafka_conf_set_log_cb(conf.conf.get(), [](const rd_kafka_t *, int, const char *, const char *) {});
    char errstr[512];
    probe->m_rk.reset(rd_kafka_new(RD_KAFKA_CONSUMER, conf.conf.get(), errstr, sizeof errstr));
    if (!probe->m_rk) {
        // librdkafka answers _INVALID_ARG for any refusal here. With TLS
        // configured, what it checks at creation beyond the settings already
        // accepted above is its TLS context: the CA, certificate and key files
        // and the key's password.
        const QString text = config.bootstrap + QStringLiteral(": ") + QString::fromUtf8(errstr);
        *error = usesTls(config) ? KafkaError::withKind(KafkaErrorKind::Tls, RD_KAFKA_RESP_ERR__SSL, text)
                                 : KafkaError::from(RD_KAFKA_RESP_ERR__INVALID_ARG, text);
        return nullptr;
    }
    conf.conf.release(); // rd_kafka_new took ownership
    return probe;
}

ProbeClient::~ProbeClient() = default;

void ProbeClient::errorCallback(rd_kafka_t *rk, int err, const char *reason, void *opaque)
{
    auto *self = static_cast<ProbeClient *>(opaque);
    QMutexLocker lock(&self->m_mutex);
    if (isHopeless(err))
        self->m_hopeless = true;
    if (err == RD_KAFKA_RESP_ERR__TRANSPORT || err == RD_KAFKA_RESP_ERR__RESOLVE) {
        if (const QString broker = brokerOf(reason); !broker.isEmpty()) {
            self->m_failedThisFetch.insert(broker);
            // A connection that timed out or broke says the broker is not refusing any more.
            if (isRefusal(err, reason))
                self->m_refusedAt.insert(broker, std::chrono::steady_clock::now());
            else
                self->m_refusedAt.remove(broker);
        }
    }
    if (failedInTlsHandshake(rd_kafka_resp_err_t(err), reason))
        self->m_tlsHandshakeFailed = true;
    if (!isPrecise(self->m_fetchErrorCode) && (err != RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN || !self->m_fetchErrorCode))
        self->m_fetchErrorCode = err;
    // "all brokers down" repeats the cause less precisely than the error before it.
    if (err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN && !self->m_lastError.isEmpty())
        return;
    self->m_lastError = describeConnectionError(rk, err, reason);
}

QString ProbeClient::lastConnectionError() const
{
    QMutexLocker lock(&m_mutex);
    return m_lastError; // already in a user's words (describeConnectionError)
}

QString ProbeClient::describeFailure(const QString &what, rd_kafka_resp_err_t err, const QString &detail) const
{
    rd_kafka_poll(m_rk.get(), 0); // serve the error callback so its reason is recorded
    QString text = m_config.bootstrap + QStringLiteral(": ") + what + QStringLiteral(": ");
    text += detail.isEmpty() ? kafkaErrorText(err) : detail;
    // A timeout alone says nothing; the connection error before it usually does.
    if (isConnectionError(err)) {
        if (const QString cause = lastConnectionError(); !cause.isEmpty())
            text += QStringLiteral(" (") + cause + QLatin1Char(')');
    }
    return text;
}

std::optional<ClusterMetadata> ProbeClient::fetchMetadata(int timeoutMs, bool withWatermarks, QString *error)
{
    KafkaError e;
    std::optional<ClusterMetadata> result = fetchMetadata(timeoutMs, withWatermarks, &e);
    *error = e.message;
    return result;
}

std::optional<ClusterMetadata> ProbeClient::fetchMetadata(int timeoutMs, bool withWatermarks, KafkaError *error)
{
    QElapsedTimer timer;
    timer.start();
    {
        // Only what goes wrong during this fetch decides to give up early; an
        // old "all brokers down" from before a broker came back must not.
        QMutexLocker lock(&m_mutex);
        m_hopeless = false;
        m_failedThisFetch.clear();
        m_tlsHandshakeFailed = false;
        m_fetchErrorCode = 0;
    }
    rd_kafka_resp_err_t lastErr = RD_KAFKA_RESP_ERR__TIMED_OUT;
    // At least 1 ms: a round of 0 would ask with librdkafka's "no wait" and spin.
    const int maxRoundMs = std::max(m_options.maxRoundMs, 1);
    int roundMs = std::clamp(m_options.roundMs, 1, maxRoundMs);
    while (!cancelled()) {
        const qint64 remaining = timeoutMs - timer.elapsed();
        if (remaining <= 0)
            break;
        const rd_kafka_metadata_t *raw = nullptr;
        QElapsedTimer round;
        round.start();
        lastErr = rd_kafka_metadata(m_rk.get(), 1, nullptr, &raw, int(std::min<qint64>(remaining, roundMs)));
        MetadataPtr meta(raw);
        if (lastErr == RD_KAFKA_RESP_ERR_NO_ERROR && meta) {
            {
                // The handle now has the brokers listed (librdkafka drops the bootstrap ones
                // then), and the refusals it reported are over.
                QMutexLocker lock(&m_mutex);
                m_refusedAt.clear();
                m_failedThisFetch.clear();
                m_learnedBrokers = meta->broker_cnt;
                m_bootstrapInHandle = meta->broker_cnt == 0;
            }
            ClusterMetadata result = convert(*meta);
            fillFromDescribeCluster(result, kDescribeClusterTimeoutMs);
            if (withWatermarks) {
                QString wmError;
                // Watermarks are a nicety: metadata without them is still an answer.
                fetchWatermarks(result.topics, kWatermarkTimeoutMs, &wmError);
            }
            return result;
        }
        rd_kafka_poll(m_rk.get(), 0); // serve the error callback
        bool hopeless;
        bool refused;
        {
            QMutexLocker lock(&m_mutex);
            // A round ends with a transport error when no broker became usable in
            // it, refused or slow alike. librdkafka says "all brokers down" once
            // per outage, not at every fetch (docs/decisions/0006-*), so: final
            // when every broker the handle has failed in this fetch or refused
            // lately (a refusal is reported once in 30 s), and not while another
            // is still connecting.
            if ((lastErr == RD_KAFKA_RESP_ERR__TRANSPORT || lastErr == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN) &&
                everyBrokerFailedLocked())
                m_hopeless = true;
            hopeless = m_hopeless;
            refused = isPrecise(m_fetchErrorCode) || m_tlsHandshakeFailed;
        }
        // Revived after the first failed round, not when the fetch gives up: a
        // handle that forgot every broker (librdkafka issue 5301) then reaches
        // the cluster in this fetch's next round, and the user's refresh or
        // admin call succeeds instead of failing once more. Once a minute at
        // most, so a cluster that is slow or down costs nothing more. Refused
        // credentials or TLS are settings to fix, and a cancelled fetch asks no more.
        if (!refused && !cancelled() && isUnreachable(lastErr))
            reviveBrokers();
        if (hopeless)
            break;
        // A request that failed at once must not turn the rounds into a busy loop.
        // In slices, so a cancel is seen within one metadata request (a round) and not two.
        for (qint64 rest = std::min<qint64>(roundMs - round.elapsed(), timeoutMs - timer.elapsed());
             rest > 0 && !cancelled(); rest = std::min<qint64>(roundMs - round.elapsed(), timeoutMs - timer.elapsed()))
            rd_kafka_poll(m_rk.get(), int(std::min<qint64>(rest, 100)));
        if (lastErr == RD_KAFKA_RESP_ERR__TIMED_OUT)
            roundMs = std::min(2 * roundMs, maxRoundMs);
    }
    rd_kafka_poll(m_rk.get(), 0);
    bool hopeless;
    KafkaErrorContext context;
    rd_kafka_resp_err_t code = lastErr;
    {
        QMutexLocker lock(&m_mutex);
        hopeless = m_hopeless;
        context.tlsConfigured = usesTls(m_config);
        context.tlsHandshakeFailed = m_tlsHandshakeFailed;
        // The connection error says why; the request's own timeout or
        // transport failure only that it did not get through.
        if (m_fetchErrorCode)
            code = rd_kafka_resp_err_t(m_fetchErrorCode);
    }
    QString text =
        hopeless ? QStringLiteral("cannot reach the cluster")
                 : QStringLiteral("cannot reach the cluster within %1 s").arg(double(timeoutMs) / 1000.0, 0, 'f', 1);
    const QString cause = lastConnectionError();
    text += QStringLiteral(": ") + (cause.isEmpty() ? kafkaErrorText(lastErr) : cause);
    *error = KafkaError::from(code, m_config.bootstrap + QStringLiteral(": ") + text, context);
    return std::nullopt;
}

void ProbeClient::reviveBrokers()
{
    // At most once a minute: during a real outage it changes nothing, and each
    // call keeps a copy of the list in the handle.
    const auto now = std::chrono::steady_clock::now();
    if (now < m_nextRevival)
        return;
    m_nextRevival = now + std::chrono::seconds(60);
    reviveBootstrapBrokers(m_rk.get(), m_config.bootstrap);
    QMutexLocker lock(&m_mutex);
    m_bootstrapInHandle = true; // beside the brokers it learned, even at the same addresses
}

bool ProbeClient::everyBrokerFailedLocked()
{
    const auto now = std::chrono::steady_clock::now();
    for (auto it = m_refusedAt.begin(); it != m_refusedAt.end();)
        it = now - it.value() > kRefusalKept ? m_refusedAt.erase(it) : std::next(it);
    // Counted, not matched by name: librdkafka's names differ from the bootstrap
    // list's entries. Too many brokers expected only means waiting for the timeout.
    const int brokers = m_learnedBrokers + (m_bootstrapInHandle ? m_bootstrapCount : 0);
    if (brokers <= 0)
        return false;
    QSet<QString> failed = m_failedThisFetch;
    for (auto it = m_refusedAt.cbegin(); it != m_refusedAt.cend(); ++it)
        failed.insert(it.key());
    return failed.size() >= brokers;
}

ClusterMetadata ProbeClient::convert(const rd_kafka_metadata_t &meta) const
{
    ClusterMetadata result;
    result.bootstrap = m_config.bootstrap;
    result.fetchedAt = QDateTime::currentDateTimeUtc();
    result.controllerId = rd_kafka_controllerid(m_rk.get(), 0);
    if (char *id = rd_kafka_clusterid(m_rk.get(), 0)) {
        result.clusterId = QString::fromUtf8(id);
        rd_kafka_mem_free(m_rk.get(), id);
    }
    for (int i = 0; i < meta.broker_cnt; ++i) {
        const auto &b = meta.brokers[i];
        result.brokers.append({b.id, QString::fromUtf8(b.host), b.port, {}, b.id == result.controllerId});
    }
    std::sort(result.brokers.begin(), result.brokers.end(),
              [](const BrokerInfo &a, const BrokerInfo &b) { return a.id < b.id; });
    result.topics.reserve(meta.topic_cnt);
    for (int i = 0; i < meta.topic_cnt; ++i) {
        const auto &t = meta.topics[i];
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
    return result;
}

void ProbeClient::fillFromDescribeCluster(ClusterMetadata &metadata, int timeoutMs)
{
    if (m_describeClusterUnsupported)
        return;
    QueuePtr queue(rd_kafka_queue_new(m_rk.get()));
    AdminOptionsPtr options(rd_kafka_AdminOptions_new(m_rk.get(), RD_KAFKA_ADMIN_OP_DESCRIBECLUSTER));
    char errstr[256];
    if (rd_kafka_AdminOptions_set_request_timeout(options.get(), timeoutMs, errstr, sizeof errstr))
        return;
    rd_kafka_DescribeCluster(m_rk.get(), options.get(), queue.get());
    EventPtr ev(rd_kafka_queue_poll(queue.get(), timeoutMs + 500));
    if (!ev)
        return;
    if (const rd_kafka_resp_err_t err = rd_kafka_event_error(ev.get())) {
        // Brokers before Kafka 2.8 and librdkafka's mock cluster have no
        // DescribeCluster: do not pay for the question on every refresh.
        if (err == RD_KAFKA_RESP_ERR__UNSUPPORTED_FEATURE || err == RD_KAFKA_RESP_ERR_UNSUPPORTED_VERSION)
            m_describeClusterUnsupported = true;
        return;
    }
    const rd_kafka_DescribeCluster_result_t *described = rd_kafka_event_DescribeCluster_result(ev.get());
    if (!described)
        return;
    size_t n = 0;
    const rd_kafka_Node_t **nodes = rd_kafka_DescribeCluster_result_nodes(described, &n);
    QHash<int, QString> racks;
    for (size_t i = 0; i < n; ++i) {
        if (const char *rack = rd_kafka_Node_rack(nodes[i]))
            racks.insert(rd_kafka_Node_id(nodes[i]), QString::fromUtf8(rack));
    }
    if (const rd_kafka_Node_t *controller = rd_kafka_DescribeCluster_result_controller(described))
        metadata.controllerId = rd_kafka_Node_id(controller);
    for (BrokerInfo &b : metadata.brokers) {
        b.rack = racks.value(b.id);
        b.controller = b.id == metadata.controllerId;
    }
}

bool ProbeClient::fetchWatermarks(QList<TopicInfo> &topics, int timeoutMs, QString *error)
{
    // One batched ListOffsets per side for everything; when the batch fails as a
    // whole (a topic being deleted or without a leader fails the request), each
    // topic is asked on its own so one bad topic does not blank the others.
    QList<TopicInfo *> all;
    for (TopicInfo &t : topics)
        all.append(&t);
    QElapsedTimer spent;
    spent.start();
    if (queryWatermarks(all, timeoutMs, error))
        return true;
    // One by one is bounded too: on a cluster with thousands of topics it could
    // otherwise take minutes (and keep a closing window waiting). Topics not
    // asked in time keep unknown watermarks (-1), shown as unknown.
    bool allOk = true;
    for (TopicInfo *t : std::as_const(all)) {
        if (cancelled() || spent.elapsed() >= 2 * qint64(timeoutMs)) {
            *error = QStringLiteral("watermarks of some topics not read in time");
            return false;
        }
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
    QElapsedTimer spent;
    spent.start();
    // Whole topics per call, about watermarkChunk partitions each, within one time budget.
    const int chunk = std::max(m_options.watermarkChunk, 1);
    qsizetype first = 0;
    while (first < topics.size()) {
        qsizetype end = first;
        int count = 0;
        while (end < topics.size() && (count == 0 || count + topics.at(end)->partitions.size() <= chunk))
            count += int(topics.at(end++)->partitions.size());
        const qint64 left = timeoutMs - spent.elapsed();
        if (left <= 0 || cancelled()) {
            *error = describeFailure(QStringLiteral("cannot read offsets"), RD_KAFKA_RESP_ERR__TIMED_OUT);
            return false;
        }
        if (!queryWatermarkChunk(topics.mid(first, end - first), count, int(left), error))
            return false;
        first = end;
    }
    return true;
}

bool ProbeClient::queryWatermarkChunk(const QList<TopicInfo *> &topics, int count, int timeoutMs, QString *error)
{
    if (count == 0)
        return true;
    if (m_options.watermarkCallObserved) {
        QStringList names;
        for (const TopicInfo *t : topics)
            names.append(t->name);
        m_options.watermarkCallObserved(names);
    }
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
            *error = describeFailure(QStringLiteral("cannot read offsets"), err);
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
