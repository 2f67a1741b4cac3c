// How the engine's rebalance callback picks incremental or whole assignment
// (engine/core/RebalanceProtocol.h). librdkafka reports no protocol once a closing
// consumer's group is terminating, and a callback can still come then.

#include "engine/core/RebalanceProtocol.h"

#include <QTest>

#include <librdkafka/rdkafka.h>

using namespace md;

class TstRebalanceProtocol final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void reportedProtocolWins()
    {
        QVERIFY(rebalanceIsCooperative("COOPERATIVE", false));
        QVERIFY(!rebalanceIsCooperative("EAGER", true));
    }

    void noReportKeepsTheLastKnown()
    {
        QVERIFY(rebalanceIsCooperative(nullptr, true));
        QVERIFY(!rebalanceIsCooperative(nullptr, false));
        QVERIFY(rebalanceIsCooperative("NONE", true));
        QVERIFY(!rebalanceIsCooperative("NONE", false));
    }

    void configurationNamesTheProtocol()
    {
        QVERIFY(configuredCooperative("cooperative-sticky", ""));
        QVERIFY(configuredCooperative("cooperative-sticky", "classic"));
        QVERIFY(!configuredCooperative("range,roundrobin", "classic"));
        QVERIFY(configuredCooperative("", "consumer"));
    }

    // The case that crashed: a consumer whose group is gone still gets asked.
    // librdkafka answers NULL after close; the decision must not read it.
    void closedConsumerReportsNoProtocol()
    {
        char errstr[256];
        rd_kafka_conf_t *conf = rd_kafka_conf_new();
        QCOMPARE(rd_kafka_conf_set(conf, "bootstrap.servers", "127.0.0.1:1", errstr, sizeof errstr), RD_KAFKA_CONF_OK);
        QCOMPARE(rd_kafka_conf_set(conf, "group.id", "tst-rebalance-protocol", errstr, sizeof errstr),
                 RD_KAFKA_CONF_OK);
        rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof errstr);
        QVERIFY2(rk, errstr);
        const char *before = rd_kafka_rebalance_protocol(rk);
        QVERIFY(before); // "NONE" before the first join
        QVERIFY(!rd_kafka_consumer_close(rk));
        const char *after = rd_kafka_rebalance_protocol(rk);
        QVERIFY(!after); // what a callback during the close sees
        QVERIFY(rebalanceIsCooperative(after, true));
        QVERIFY(!rebalanceIsCooperative(after, false));
        rd_kafka_destroy(rk);
    }
};

QTEST_GUILESS_MAIN(TstRebalanceProtocol)
#include "tst_rebalanceprotocol.moc"
