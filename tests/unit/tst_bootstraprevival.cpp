// reviveBootstrapBrokers (engine/BootstrapRevival.h): a handle that knows no
// usable broker gets the bootstrap servers again and reaches the cluster; on
// a handle that knows them it adds nothing. (The state librdkafka issue 5301
// leaves a handle in, every broker forgotten, needs a broker that lists none
// in its metadata; the mock cannot answer so. A handle whose only broker is a
// closed port is the same to it: nothing usable, nothing it will ever try.)

#include "BootstrapRevival.h"
#include "KafkaHandles.h"
#include "MockCluster.h"

#include <QTest>

using namespace md;
using md::test::MockCluster;

namespace {

KafkaPtr consumer(const QByteArray &bootstrap)
{
    char errstr[512];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.constData(), errstr, sizeof errstr);
    rd_kafka_conf_set(conf, "group.id", "revival", errstr, sizeof errstr);
    rd_kafka_conf_set(conf, "log_level", "0", errstr, sizeof errstr);
    rd_kafka_conf_set(conf, "reconnect.backoff.ms", "50", errstr, sizeof errstr);
    return KafkaPtr(rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof errstr));
}

rd_kafka_resp_err_t metadata(rd_kafka_t *rk, int timeoutMs)
{
    const rd_kafka_metadata_t *md = nullptr;
    const rd_kafka_resp_err_t err = rd_kafka_metadata(rk, 1, nullptr, &md, timeoutMs);
    if (md)
        rd_kafka_metadata_destroy(md);
    return err;
}

} // namespace

class TstBootstrapRevival final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aHandleWithNoUsableBrokerReachesTheClusterAgain()
    {
        MockCluster cluster;
        cluster.createTopic(QStringLiteral("t"), 1);
        // Port 1 on loopback: refused at once, and the handle knows nothing else.
        KafkaPtr rk = consumer("127.0.0.1:1");
        QVERIFY(rk);
        QVERIFY(metadata(rk.get(), 1500) != RD_KAFKA_RESP_ERR_NO_ERROR);

        QCOMPARE(reviveBootstrapBrokers(rk.get(), cluster.bootstrap()), 1);
        QCOMPARE(metadata(rk.get(), 5000), RD_KAFKA_RESP_ERR_NO_ERROR);
    }

    // A handle that works keeps working, and an address is one entry however
    // often it is given.
    void aHealthyHandleWorksOn()
    {
        MockCluster cluster;
        KafkaPtr rk = consumer(cluster.bootstrap().toUtf8());
        QCOMPARE(metadata(rk.get(), 5000), RD_KAFKA_RESP_ERR_NO_ERROR);
        QCOMPARE(reviveBootstrapBrokers(rk.get(), cluster.bootstrap()), 1);
        QCOMPARE(reviveBootstrapBrokers(rk.get(), cluster.bootstrap()), 1);
        QCOMPARE(metadata(rk.get(), 5000), RD_KAFKA_RESP_ERR_NO_ERROR);
    }

    void nothingToAddIsNoCall()
    {
        KafkaPtr rk = consumer("127.0.0.1:1");
        QCOMPARE(reviveBootstrapBrokers(rk.get(), QStringLiteral("  ")), 0);
        QCOMPARE(reviveBootstrapBrokers(nullptr, QStringLiteral("127.0.0.1:1")), 0);
    }
};

QTEST_GUILESS_MAIN(TstBootstrapRevival)
#include "tst_bootstraprevival.moc"
