#pragma once

#include "engine/admin/ClusterMetadata.h"
#include "engine/core/ClusterConfig.h"
#include "engine/core/KafkaError.h"

#include <QHash>
#include <QMutex>
#include <QSet>
#include <QString>
#include <QStringList>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>

namespace md {

// How a ProbeClient paces its requests on big or slow clusters. Production code
// keeps the defaults; tests make them small to reach these paths on a small cluster.
struct ProbeOptions {
    // The first metadata round; the error callback is served between rounds.
    int roundMs = 1000;
    // A timed-out round's answer is lost, and a loaded broker can take longer than a second
    // to answer for 50,000 partitions: each round after a timeout waits twice as long, up to
    // this (within the fetch's budget).
    int maxRoundMs = 4000;
    // Partitions per ListOffsets call, whole topics per call. librdkafka matches each answered
    // partition to the list asked with a linear search (leader lookup and result update alike),
    // so one call's cost grows with the square of its size: 50,000 partitions in one call kept
    // the admin thread busy for 15-30 s, in calls of 1,000 the whole fetch takes about a second.
    int watermarkChunk = 1000;
    // Called before each chunk's ListOffsets calls (earliest and latest) with the topics it
    // asks, on the fetching thread; empty in production. How a test sees the calls, which the
    // values alone do not show.
    std::function<void(const QStringList &topics)> watermarkCallObserved;
};

// The one blocking connection to a cluster that browsing, administration and
// the headless checks share: a consumer-type handle without a group (it serves
// metadata, ListOffsets and admin requests alike) that remembers librdkafka's
// connection errors, because they say more than the timeout that follows them.
// For admin threads and headless commands, never the UI thread.
class ProbeClient final {
    Q_DISABLE_COPY_MOVE(ProbeClient)
public:
    // Null with *error on a bad setting; does not connect yet.
    static std::unique_ptr<ProbeClient> create(const ClusterConfig &config, QString *error,
                                               int connectTimeoutMs = 7000);
    // The same with the error's kind: Invalid for a refused setting, Tls when
    // the client's TLS files cannot be used (librdkafka builds its TLS
    // context when the client is created).
    static std::unique_ptr<ProbeClient> create(const ClusterConfig &config, KafkaError *error,
                                               int connectTimeoutMs = 7000);
    // A client for ListConsumerGroupOffsets: the same, with a group id of its
    // own (offsetFetchGroupId()) that it never joins. librdkafka 2.12 answers a
    // NOT_COORDINATOR to that request by asking the handle's consumer group to
    // find its coordinator again, and a handle without a group.id has none: it
    // dereferences a null group and the process dies (librdkafka issue 5040).
    static std::unique_ptr<ProbeClient> createForGroupOffsets(const ClusterConfig &config, QString *error,
                                                              int connectTimeoutMs = 7000);
    ~ProbeClient();

    rd_kafka_t *handle() const { return m_rk.get(); }
    const ClusterConfig &config() const { return m_config; }

    // The most precise connection error seen ("authentication failed: ..." for
    // refused credentials), or empty.
    QString lastConnectionError() const;
    // "<bootstrap>: <what>: <detail or the error's text>", with the connection
    // error appended when err is a timeout or transport failure.
    QString describeFailure(const QString &what, rd_kafka_resp_err_t err, const QString &detail = {}) const;

    // Brokers, topics and partitions, with watermarks when asked. Tries in short
    // rounds so a refused connection, failed authentication or TLS error is
    // reported in about a second, and otherwise fails after about `timeoutMs`,
    // naming the bootstrap address and the reason ("cannot reach the cluster").
    // "Refused" means every broker the handle has refused (or failed) its
    // connection: while one of several is still connecting, the fetch waits.
    // A refusal counts for later fetches too (for a minute, until a fetch gets
    // through), because librdkafka reports a broker's repeated identical
    // connection error only once in 30 s.
    // A round that cannot get through gives the handle its bootstrap servers
    // again (at most once a minute): after librdkafka issue 5301 it knows none.
    std::optional<ClusterMetadata> fetchMetadata(int timeoutMs, bool withWatermarks, QString *error);
    // The same with the error's code and kind: the most precise connection
    // error of this fetch, Tls when a handshake failed even if librdkafka's
    // last word was a transport error.
    std::optional<ClusterMetadata> fetchMetadata(int timeoutMs, bool withWatermarks, KafkaError *error);
    // A flag another thread may set to end a fetch early (between requests:
    // one librdkafka call in progress still finishes, within its timeout).
    // The flag must outlive this client.
    void setCancelFlag(const std::atomic<bool> *flag) { m_cancel = flag; }
    void setOptions(ProbeOptions options) { m_options = std::move(options); }

    // Fills low/high watermarks of the given topics with batched ListOffsets
    // requests per side (offsets_for_times with the earliest/latest sentinels),
    // in calls of about ProbeOptions::watermarkChunk partitions.
    bool fetchWatermarks(QList<TopicInfo> &topics, int timeoutMs, QString *error);

private:
    ProbeClient() = default;
    static std::unique_ptr<ProbeClient> create(const ClusterConfig &config, KafkaError *error, int connectTimeoutMs,
                                               const QString &groupId);
    bool queryWatermarks(const QList<TopicInfo *> &topics, int timeoutMs, QString *error);
    bool queryWatermarkChunk(const QList<TopicInfo *> &topics, int count, int timeoutMs, QString *error);
    static void errorCallback(rd_kafka_t *rk, int err, const char *reason, void *opaque);
    ClusterMetadata convert(const rd_kafka_metadata_t &meta) const;
    // Racks and the controller from DescribeCluster (metadata has no racks);
    // a nicety like watermarks: left as they are when the call fails.
    void fillFromDescribeCluster(ClusterMetadata &metadata, int timeoutMs);
    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }
    // Gives the handle its bootstrap servers again (BootstrapRevival.h), at most once a minute.
    void reviveBrokers();
    // Whether every broker the handle has failed its connection in this fetch or
    // refused it lately (see fetchMetadata). m_mutex held.
    bool everyBrokerFailedLocked();
    const std::atomic<bool> *m_cancel = nullptr;
    ProbeOptions m_options;
    bool m_describeClusterUnsupported = false;           // asked once, the cluster cannot answer
    std::chrono::steady_clock::time_point m_nextRevival; // reviveBrokers; the fetching thread's

    ClusterConfig m_config;
    KafkaPtr m_rk;
    mutable QMutex m_mutex;
    QString m_lastError;
    bool m_hopeless = false;           // every broker down, or credentials/TLS refused, since the last fetch began
    bool m_tlsHandshakeFailed = false; // a TLS handshake failed since the last fetch began
    // Connection failures by librdkafka's broker name ("host:port/bootstrap",
    // "host:port/<id>"), from the error callback. librdkafka reports an error
    // identical to a broker's last one at most once in 30 s, so a refusal (the
    // connect itself failed: refused, unreachable, not resolved) is kept across
    // fetches until a fetch gets through or it is a minute old; any other
    // transport failure counts for the fetch it happened in.
    QSet<QString> m_failedThisFetch;
    QHash<QString, std::chrono::steady_clock::time_point> m_refusedAt;
    // How many brokers the handle has: its bootstrap servers until a fetch
    // lists the cluster's brokers (librdkafka then drops the bootstrap ones),
    // the bootstrap servers again too once revived.
    int m_bootstrapCount = 0;
    int m_learnedBrokers = 0;
    bool m_bootstrapInHandle = true;
    // The code of the most precise connection error since the last fetch began
    // (authentication or TLS outrank the transport error that follows them).
    int m_fetchErrorCode = 0;
};

} // namespace md
