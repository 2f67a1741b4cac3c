#pragma once

// One librdkafka mock cluster for unit tests, hosted by a dummy producer
// handle that keeps it alive. For the sandbox and fault injection only: Kafka
// behaviour is tested against real brokers (tests/integration).

#include "engine/core/KafkaHandles.h"

#include <QString>

#include <librdkafka/rdkafka_mock.h>

namespace md::test {

class MockCluster final {
public:
    // `controllerStub`: see below; for a job's target (its offset map).
    explicit MockCluster(int brokers = 1, bool controllerStub = false)
    {
        char errstr[256];
        rd_kafka_conf_t *conf = rd_kafka_conf_new();
        rd_kafka_conf_set(conf, "log_level", "2", errstr, sizeof errstr);
        m_host.reset(rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr));
        m_cluster = rd_kafka_mock_cluster_new(m_host.get(), brokers);
        // As the sandbox does (engine/sandbox/Sandbox.cpp): the mock names broker 0
        // as its controller, and without a broker 0 a CreateTopics (a job's offset
        // map) waits its whole timeout instead of hearing at once that the mock
        // does not serve it. A job's commits wait until its map is settled; the
        // map topic itself must then exist (createTopic, one partition).
        if (controllerStub)
            rd_kafka_mock_broker_add(m_cluster, 0);
    }
    ~MockCluster() { rd_kafka_mock_cluster_destroy(m_cluster); }
    Q_DISABLE_COPY_MOVE(MockCluster)

    QString bootstrap() const { return QString::fromUtf8(rd_kafka_mock_cluster_bootstraps(m_cluster)); }
    void createTopic(const QString &name, int partitions)
    {
        rd_kafka_mock_topic_create(m_cluster, name.toUtf8().constData(), partitions, 1);
    }
    rd_kafka_mock_cluster_t *get() const { return m_cluster; }

private:
    KafkaPtr m_host;
    rd_kafka_mock_cluster_t *m_cluster = nullptr;
};

} // namespace md::test
