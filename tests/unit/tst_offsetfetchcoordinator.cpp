// librdkafka 2.12 answers NOT_COORDINATOR to ListConsumerGroupOffsets by asking
// the handle's own consumer group to look for its coordinator again; on a handle
// without a group.id there is none, and it dereferences a null group on its main
// thread: the whole process dies (librdkafka issue 5040). Seen in the ten-jobs
// benchmark when a shown monitor read its job's group on fresh brokers. Every
// client that sends that request now has a group id of its own, never joined.
//
// The error is injected on librdkafka's mock cluster (fault injection: a real
// broker answers NOT_COORDINATOR only while a coordinator moves). The call
// fails with that error (librdkafka's admin request does not retry it) and the
// next one answers. Without the group ids these cases crash the test.

#include "engine/admin/AdminService.h"
#include "engine/core/KafkaHandles.h"
#include "engine/groupsync/GroupAdmin.h"

#include <QTest>

#include <librdkafka/rdkafka_mock.h>

using namespace md;

namespace {

constexpr int16_t kOffsetFetch = 9; // the OffsetFetch API key

} // namespace

class TestOffsetFetchCoordinator final : public QObject {
    Q_OBJECT

    KafkaPtr m_host;
    rd_kafka_mock_cluster_t *m_mock = nullptr;
    ClusterConfig m_cluster;

    void injectNotCoordinator(int times)
    {
        for (int i = 0; i < times; ++i)
            rd_kafka_mock_push_request_errors(m_mock, kOffsetFetch, 1, RD_KAFKA_RESP_ERR_NOT_COORDINATOR);
    }

private Q_SLOTS:
    void initTestCase()
    {
        char errstr[256];
        rd_kafka_conf_t *conf = rd_kafka_conf_new();
        rd_kafka_conf_set(conf, "log_level", "3", errstr, sizeof errstr);
        m_host.reset(rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr));
        QVERIFY2(m_host, errstr);
        m_mock = rd_kafka_mock_cluster_new(m_host.get(), 1);
        QVERIFY(m_mock);
        m_cluster.alias = QStringLiteral("mock");
        m_cluster.bootstrap = QString::fromUtf8(rd_kafka_mock_cluster_bootstraps(m_mock));
    }

    void cleanupTestCase()
    {
        if (m_mock)
            rd_kafka_mock_cluster_destroy(m_mock);
        m_host.reset();
    }

    // The browser's and the lag sampler's path (AdminService::groupOffsets).
    void adminServiceReadsGroupOffsetsAfterNotCoordinator()
    {
        QString error;
        std::unique_ptr<AdminService> admin = AdminService::create(m_cluster, &error, 10000);
        QVERIFY2(admin, qPrintable(error));
        for (int round = 0; round < 3; ++round) {
            injectNotCoordinator(1);
            // librdkafka's admin call does not retry it: the answer is that error.
            const auto failed = admin->groupOffsets(QStringLiteral("mirrordesk-test-group"));
            QVERIFY2(failed.error.contains(QLatin1String("Not coordinator")), qPrintable(failed.error));
            // The process is alive and the next read (the lag sampler's next tick) answers.
            const auto result = admin->groupOffsets(QStringLiteral("mirrordesk-test-group"));
            QVERIFY2(result.ok(), qPrintable(result.error));
            QVERIFY(result.value.isEmpty()); // the group has no offsets
        }
    }

    // Group offset sync's and a job's progress reads (groupadmin::Admin).
    void groupAdminReadsGroupOffsetsAfterNotCoordinator()
    {
        groupadmin::Admin admin(m_cluster, QStringLiteral("source"), 10000, nullptr);
        QVERIFY2(admin.ok(), qPrintable(admin.error()));
        for (int round = 0; round < 6; ++round) {
            // Even rounds: NOT_COORDINATOR, answered as an error; odd: the answer.
            const bool fault = round % 2 == 0;
            if (fault)
                injectNotCoordinator(1);
            const QByteArray id("mirrordesk-test-group");
            std::unique_ptr<rd_kafka_ListConsumerGroupOffsets_t, KafkaDeleter> req(
                rd_kafka_ListConsumerGroupOffsets_new(id.constData(), nullptr));
            QString error;
            EventPtr ev = admin.call(
                RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS, QStringLiteral("ListConsumerGroupOffsets"),
                [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
                    rd_kafka_ListConsumerGroupOffsets_t *arr[] = {req.get()};
                    rd_kafka_ListConsumerGroupOffsets(admin.rk(), arr, 1, o, q);
                },
                &error);
            if (fault) {
                QVERIFY2(!ev && error.contains(QLatin1String("Not coordinator")), qPrintable(error));
                continue;
            }
            QVERIFY2(ev, qPrintable(error));
            size_t n = 0;
            const rd_kafka_group_result_t **groups = rd_kafka_ListConsumerGroupOffsets_result_groups(
                rd_kafka_event_ListConsumerGroupOffsets_result(ev.get()), &n);
            QCOMPARE(n, size_t(1));
            QVERIFY(!rd_kafka_group_result_error(groups[0]));
        }
    }
};

QTEST_GUILESS_MAIN(TestOffsetFetchCoordinator)
#include "tst_offsetfetchcoordinator.moc"
