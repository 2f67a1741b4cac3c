#pragma once

#include "ClusterConfig.h"
#include "ClusterMetadata.h"

#include <QMutex>
#include <QObject>
#include <QThread>

#include <memory>
#include <optional>

namespace md {

class ClusterWorker;

// The UI-thread face of one connected cluster. Every Kafka call runs on the
// client's own admin thread; results come back as values through queued signals.
class ClusterClient final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterClient)
public:
    enum class State { Disconnected, Connecting, Connected, Unreachable };
    Q_ENUM(State)

    explicit ClusterClient(QObject *parent = nullptr);
    ~ClusterClient() override;

    // Connects (or reconnects) with these settings and fetches metadata. Returns at once.
    void connectTo(const ClusterConfig &config);
    void refresh();
    // 0 turns auto-refresh off.
    void setAutoRefreshInterval(int ms);

    State state() const { return m_state; }
    const ClusterConfig &config() const { return m_config; }
    const ClusterMetadata &metadata() const { return m_metadata; }
    QString lastError() const { return m_lastError; }

Q_SIGNALS:
    void stateChanged(md::ClusterClient::State state);
    void metadataReady(const md::ClusterMetadata &metadata);
    void errorOccurred(const QString &message);

private:
    void onMetadata(const ClusterMetadata &metadata);
    void onFailure(const QString &message);
    void setState(State s);

    ClusterConfig m_config;
    ClusterMetadata m_metadata;
    QString m_lastError;
    State m_state = State::Disconnected;
    QThread m_thread;
    ClusterWorker *m_worker = nullptr; // lives on m_thread, deleted when it finishes
};

// A lightweight blocking client for metadata and offsets (a consumer handle
// without a group), for admin threads and headless commands, never the UI thread.
// It keeps librdkafka's last connection error, which says more than a timeout.
class ProbeClient final {
    Q_DISABLE_COPY_MOVE(ProbeClient)
public:
    static std::unique_ptr<ProbeClient> create(const ClusterConfig &config, QString *error);
    ~ProbeClient();

    rd_kafka_t *handle() const { return m_rk.get(); }
    QString lastConnectionError() const;

    // Brokers, topics and partitions, with watermarks when asked. Fails within
    // about `timeoutMs` with a message naming the bootstrap address and the reason.
    std::optional<ClusterMetadata> fetchMetadata(int timeoutMs, bool withWatermarks, QString *error);

    // Fills low/high watermarks of the given topics with one batched ListOffsets
    // request per side (offsets_for_times with the earliest/latest sentinels).
    bool fetchWatermarks(QList<TopicInfo> &topics, int timeoutMs, QString *error);

private:
    ProbeClient() = default;
    bool queryWatermarks(const QList<TopicInfo *> &topics, int timeoutMs, QString *error);
    static void errorCallback(rd_kafka_t *rk, int err, const char *reason, void *opaque);
    QString failure(const QString &what, rd_kafka_resp_err_t err) const;

    ClusterConfig m_config;
    KafkaPtr m_rk;
    mutable QMutex m_mutex;
    QString m_lastError;
};

} // namespace md
