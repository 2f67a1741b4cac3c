// A transactional producer's send_offsets_to_transaction() whose group
// coordinator's broker dies: it must find the new coordinator, or give up at
// its timeout, never wait forever. librdkafka 2.12.1 waited forever (the
// coordinator request was only moved on by a broker coming up); our patch
// installer/librdkafka-patches/0001-coord-request-timeout.patch mends it. An
// exactly-once job's engine thread hung in exactly this call when a target
// broker was killed (tests/integration/tst_cluster3_faults). The mock
// cluster is used for what a real one cannot do on demand: move a group's
// coordinator to a chosen broker while another is down.

#include "MockCluster.h"
#include "engine/core/KafkaHandles.h"

#include <QtTest>

#include <chrono>
#include <future>
#include <thread>

using namespace md;
using namespace std::chrono_literals;

namespace {

constexpr char kTopic[] = "txn-coord";
constexpr char kGroup[] = "txn-coord-group";
constexpr char kTxnId[] = "txn-coord-producer";

struct Outcome {
    rd_kafka_resp_err_t code = RD_KAFKA_RESP_ERR_NO_ERROR;
    QString text;
    bool abortable = false;
    std::chrono::milliseconds took{0};
};

} // namespace

class TstTxnCoordinator final : public QObject {
    Q_OBJECT

    std::unique_ptr<test::MockCluster> m_cluster;
    KafkaPtr m_producer;
    std::unique_ptr<rd_kafka_consumer_group_metadata_t, decltype(&rd_kafka_consumer_group_metadata_destroy)> m_group{
        nullptr, rd_kafka_consumer_group_metadata_destroy};

    // Three brokers; the transaction coordinator on 1, the group's on 2; one
    // transaction with offsets committed, so the producer knows (and caches)
    // broker 2 as the group's coordinator.
    bool setUpProducer()
    {
        m_cluster = std::make_unique<test::MockCluster>(3);
        m_cluster->createTopic(QString::fromLatin1(kTopic), 1);
        rd_kafka_mock_coordinator_set(m_cluster->get(), "transaction", kTxnId, 1);
        rd_kafka_mock_coordinator_set(m_cluster->get(), "group", kGroup, 2);
        char errstr[512];
        rd_kafka_conf_t *conf = rd_kafka_conf_new();
        const QByteArray bootstrap = m_cluster->bootstrap().toUtf8();
        for (const auto &[k, v] :
             {std::pair{"bootstrap.servers", bootstrap.constData()}, {"transactional.id", kTxnId}, {"log_level", "2"}})
            if (rd_kafka_conf_set(conf, k, v, errstr, sizeof errstr) != RD_KAFKA_CONF_OK)
                qFatal("%s", errstr);
        m_producer.reset(rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr));
        if (!m_producer)
            return false;
        m_group.reset(rd_kafka_consumer_group_metadata_new(kGroup));
        ErrorPtr err(rd_kafka_init_transactions(m_producer.get(), 30000));
        if (err)
            qWarning("init_transactions: %s", rd_kafka_error_string(err.get()));
        return !err && sendOffsets(10000).code == RD_KAFKA_RESP_ERR_NO_ERROR && commit();
    }

    bool commit()
    {
        ErrorPtr err(rd_kafka_commit_transaction(m_producer.get(), 30000));
        if (err)
            qWarning("commit_transaction: %s", rd_kafka_error_string(err.get()));
        return !err;
    }

    // One transaction's send_offsets_to_transaction, on a thread of its own:
    // a hang is reported as one (the process ends: the call cannot be
    // interrupted) instead of eating the test's whole time budget.
    Outcome sendOffsets(int timeoutMs)
    {
        ErrorPtr begun(rd_kafka_begin_transaction(m_producer.get()));
        if (begun)
            qFatal("begin_transaction: %s", rd_kafka_error_string(begun.get()));
        PartitionListPtr offsets(rd_kafka_topic_partition_list_new(1));
        rd_kafka_topic_partition_list_add(offsets.get(), kTopic, 0)->offset = 1;
        auto call = std::async(std::launch::async, [&] {
            Outcome o;
            const auto began = std::chrono::steady_clock::now();
            ErrorPtr err(
                rd_kafka_send_offsets_to_transaction(m_producer.get(), offsets.get(), m_group.get(), timeoutMs));
            o.took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - began);
            if (err) {
                o.code = rd_kafka_error_code(err.get());
                o.text = QString::fromUtf8(rd_kafka_error_string(err.get()));
                o.abortable = rd_kafka_error_txn_requires_abort(err.get());
            }
            return o;
        });
        // The timeout, the producer's 60 s socket timeout it may be capped
        // to, and slack for a loaded machine: far less than "forever".
        if (call.wait_for(std::chrono::milliseconds(timeoutMs) + 90s) != std::future_status::ready)
            qFatal("send_offsets_to_transaction(%d ms) did not return in %d s: the group coordinator request hangs",
                   timeoutMs, timeoutMs / 1000 + 90);
        return call.get();
    }

private Q_SLOTS:
    void cleanup()
    {
        m_producer.reset();
        m_group.reset();
        m_cluster.reset();
    }

    // The coordinator's broker dies and the group moves to another broker:
    // the request looks the coordinator up again and the offsets go in.
    void offsetsReachTheGroupsNewCoordinator()
    {
        QVERIFY(setUpProducer());
        rd_kafka_mock_broker_set_down(m_cluster->get(), 2);
        rd_kafka_mock_coordinator_set(m_cluster->get(), "group", kGroup, 3);
        // The producer sees broker 2 go (its connection closes) first.
        QTest::qWait(1500);
        const Outcome o = sendOffsets(10000);
        QVERIFY2(o.code == RD_KAFKA_RESP_ERR_NO_ERROR, qPrintable(o.text));
        qInfo("offsets accepted by the new coordinator after %lld ms", qint64(o.took.count()));
        QVERIFY(commit());
    }

    // The coordinator stays on the dead broker: the call ends with an
    // abortable error once its timeout passed, and the transaction can be
    // aborted and the next one committed once the coordinator is back.
    void aCoordinatorThatNeverComesBackEndsTheCallAtItsTimeout()
    {
        QVERIFY(setUpProducer());
        rd_kafka_mock_broker_set_down(m_cluster->get(), 2);
        QTest::qWait(1500);
        const Outcome o = sendOffsets(5000);
        QVERIFY2(o.code != RD_KAFKA_RESP_ERR_NO_ERROR, "the offsets were accepted by a broker that is down");
        qInfo("gave up after %lld ms: %s", qint64(o.took.count()), qPrintable(o.text));
        QVERIFY2(o.abortable, qPrintable(o.text));
        ErrorPtr aborted(rd_kafka_abort_transaction(m_producer.get(), 30000));
        QVERIFY2(!aborted, aborted ? rd_kafka_error_string(aborted.get()) : "");
        rd_kafka_mock_broker_set_up(m_cluster->get(), 2);
        const Outcome again = sendOffsets(30000);
        QVERIFY2(again.code == RD_KAFKA_RESP_ERR_NO_ERROR, qPrintable(again.text));
        QVERIFY(commit());
    }
};

QTEST_GUILESS_MAIN(TstTxnCoordinator)
#include "tst_txncoordinator.moc"
