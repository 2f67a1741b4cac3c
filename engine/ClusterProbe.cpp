#include "ClusterProbe.h"

#include <QElapsedTimer>
#include <QMutex>

#include <algorithm>

namespace md {

namespace {

// Filled by librdkafka's error callback; read by the probing thread.
struct ProbeErrors {
    QMutex mutex;
    QString reason;      // the most precise connection error seen
    bool hopeless = false; // every broker down, or credentials refused
};

void onError(rd_kafka_t *, int err, const char *reason, void *opaque)
{
    auto *errors = static_cast<ProbeErrors *>(opaque);
    QMutexLocker lock(&errors->mutex);
    const auto code = static_cast<rd_kafka_resp_err_t>(err);
    // "1/1 brokers are down" repeats the cause less precisely than the transport error before it.
    if (code != RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN || errors->reason.isEmpty())
        errors->reason = QString::fromUtf8(reason);
    if (code == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN || code == RD_KAFKA_RESP_ERR__AUTHENTICATION
        || code == RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED || code == RD_KAFKA_RESP_ERR__SSL
        || code == RD_KAFKA_RESP_ERR__RESOLVE)
        errors->hopeless = true;
}

} // namespace

const ProbedTopic *ClusterProbeResult::topic(const QString &name) const
{
    auto it = std::lower_bound(topics.cbegin(), topics.cend(), name,
                               [](const ProbedTopic &t, const QString &n) { return t.name < n; });
    return it != topics.cend() && it->name == name ? &*it : nullptr;
}

ClusterProbeResult probeCluster(const ClusterConfig &cluster, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    ClusterProbeResult result;
    const QString where = cluster.bootstrap.isEmpty() ? QStringLiteral("(no bootstrap address)") : cluster.bootstrap;
    auto finish = [&](const QString &error) {
        result.error = error.isEmpty() ? QString() : where + QStringLiteral(": ") + error;
        result.elapsedMs = timer.elapsed();
        return result;
    };

    const QString setupTimeout = QString::number(std::clamp(timeoutMs, 1000, 30000));
    ConfResult conf = makeKafkaConf(cluster, ClientRole::Admin,
                                    {{QStringLiteral("socket.connection.setup.timeout.ms"), setupTimeout}});
    if (!conf.conf)
        return finish(QStringLiteral("invalid client setting: ") + conf.error);
    ProbeErrors errors;
    rd_kafka_conf_set_opaque(conf.conf.get(), &errors);
    rd_kafka_conf_set_error_cb(conf.conf.get(), &onError);
    // The reason reaches the caller through the result; nothing goes to stderr.
    rd_kafka_conf_set_log_cb(conf.conf.get(), [](const rd_kafka_t *, int, const char *, const char *) {});
    char errstr[512];
    // A producer handle needs no group and sends nothing until asked.
    KafkaPtr rk(rd_kafka_new(RD_KAFKA_PRODUCER, conf.conf.get(), errstr, sizeof errstr));
    if (!rk)
        return finish(QString::fromUtf8(errstr));
    conf.conf.release(); // rd_kafka_new took ownership

    // Short metadata attempts, serving the error callback between them, so a
    // refused connection is reported in about a second, not after the whole timeout.
    rd_kafka_resp_err_t lastErr = RD_KAFKA_RESP_ERR__TIMED_OUT;
    while (true) {
        const qint64 remaining = timeoutMs - timer.elapsed();
        if (remaining <= 0)
            break;
        const rd_kafka_metadata_t *raw = nullptr;
        lastErr = rd_kafka_metadata(rk.get(), 1, nullptr, &raw, int(std::min<qint64>(remaining, 1000)));
        MetadataPtr meta(raw);
        if (lastErr == RD_KAFKA_RESP_ERR_NO_ERROR && meta) {
            result.reachable = true;
            result.brokerCount = meta->broker_cnt;
            result.topics.reserve(meta->topic_cnt);
            for (int i = 0; i < meta->topic_cnt; ++i) {
                const auto &t = meta->topics[i];
                ProbedTopic topic{QString::fromUtf8(t.topic), t.partition_cnt, {}};
                if (t.err)
                    topic.error = kafkaErrorText(t.err);
                result.topics.append(std::move(topic));
            }
            std::sort(result.topics.begin(), result.topics.end(),
                      [](const ProbedTopic &a, const ProbedTopic &b) { return a.name < b.name; });
            return finish({});
        }
        rd_kafka_poll(rk.get(), 0); // serve the error callback
        QMutexLocker lock(&errors.mutex);
        if (errors.hopeless)
            break;
    }
    rd_kafka_poll(rk.get(), 0);
    QMutexLocker lock(&errors.mutex);
    QString text = QStringLiteral("cannot reach the cluster within %1 s").arg(double(timeoutMs) / 1000.0, 0, 'f', 1);
    if (errors.hopeless)
        text = QStringLiteral("cannot reach the cluster");
    text += QStringLiteral(": ") + (errors.reason.isEmpty() ? kafkaErrorText(lastErr) : errors.reason);
    return finish(text);
}

} // namespace md
