#pragma once

#include "engine/admin/ClusterMetadata.h"
#include "engine/admin/ProbeClient.h"
#include "engine/core/ClusterConfig.h"
#include "engine/core/WorkerThread.h"

#include <QMutex>
#include <QObject>

#include <memory>
#include <optional>

namespace md {

class ClusterWorker;

// How a ClusterClient answers on big clusters; production code keeps the defaults.
struct ClusterClientOptions {
    // Above this many partitions a connection's first answer goes out twice: the names and
    // partitions as soon as the metadata is read, then with the message counts. Reading the
    // watermarks of 50,000 partitions takes seconds; the list need not wait for them.
    int listFirstPartitions = 5000;
    ProbeOptions probe;
};

// The UI-thread face of one connected cluster. Every Kafka call runs on the
// client's own admin thread; results come back as values through queued signals.
class ClusterClient final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterClient)
public:
    enum class State { Disconnected, Connecting, Connected, Unreachable };
    Q_ENUM(State)

    explicit ClusterClient(QObject *parent = nullptr);
    explicit ClusterClient(const ClusterClientOptions &options, QObject *parent = nullptr);
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
    // Every answer, with watermarks; except on a connection's first answer above
    // ClusterClientOptions::listFirstPartitions, which comes first without them (-1).
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
    WorkerThread m_thread{QStringLiteral("cluster-admin")};
    ClusterWorker *m_worker = nullptr; // lives on m_thread, deleted there when it ends
};

} // namespace md
