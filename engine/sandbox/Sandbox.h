#pragma once

#include "engine/core/KafkaHandles.h"
#include "engine/core/WorkerThread.h"
#include "engine/mirror/MirrorJobSpec.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>

struct rd_kafka_mock_cluster_s;

namespace md {

// Two in-process Kafka-protocol clusters on loopback (librdkafka's mock
// cluster), for trying MirrorDesk without a broker: the source holds demo
// topics fed by a demo producer at a steady rate, the target starts empty.
// The mock does not serve CreateTopics or DescribeConfigs, so the sandbox
// creates the target topics a job needs itself (prepareTarget), its offset
// map included. Each cluster has a broker 0, the controller the mock's
// metadata names, so those requests are refused at once as unsupported
// instead of waiting for a controller that never comes.
class SandboxClusters final {
    Q_DISABLE_COPY_MOVE(SandboxClusters)
public:
    struct DemoTopic {
        QString name;
        int partitions;
    };

    static std::unique_ptr<SandboxClusters> start(QString *error, int recordsPerSecond = 200);
    ~SandboxClusters();

    QString sourceBootstrap() const { return m_sourceBootstrap; }
    QString targetBootstrap() const { return m_targetBootstrap; }
    static QList<DemoTopic> demoTopics();

    // Creates on the target every topic the job will write, with the source's
    // partition count, and the job's offset map topic. Returns the names created.
    QStringList prepareTarget(const MirrorJobSpec &spec);

    // Resolves "${sandbox:source}" / "${sandbox:target}" in profiles.
    std::optional<QString> resolve(const QString &arg, QString *error) const;

    qint64 producedRecords() const { return m_produced.load(); }

private:
    SandboxClusters() = default;
    void produceLoop(int recordsPerSecond);

    struct Cluster {
        KafkaPtr host; // the client instance that owns the mock cluster
        rd_kafka_mock_cluster_s *mock = nullptr;
    };
    static bool makeCluster(Cluster &c, int brokers, QString *bootstrap, QString *error);

    Cluster m_source;
    Cluster m_target;
    QString m_sourceBootstrap;
    QString m_targetBootstrap;
    KafkaPtr m_producer;
    WorkerThread m_thread{QStringLiteral("sandbox-producer")};
    std::atomic<bool> m_stop{false};
    std::atomic<qint64> m_produced{0};
};

} // namespace md
