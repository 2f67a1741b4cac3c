// ProbeClient, the connection of browsing, administration and the headless
// checks, after librdkafka issue 5301: its broker, fenced for a moment, answered
// Metadata with no brokers, the handle forgot every broker it knew, and the
// broker is back. Its next fetch gives the handle the bootstrap servers again
// after a failed round and reaches the cluster within that same fetch.

#include "FencingProxy.h"
#include "LocalPorts.h"
#include "MockCluster.h"
#include "engine/admin/ProbeClient.h"
#include "engine/core/ClusterConfig.h"

#include <QElapsedTimer>
#include <QTcpServer>
#include <QTest>

using md::test::closedPort;
using namespace md;
using md::test::FencingProxy;
using md::test::MockCluster;

class TstProbeRevival final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aFetchAfterAFencedMomentReachesTheCluster()
    {
        MockCluster cluster;
        cluster.createTopic(QStringLiteral("t"), 1);
        FencingProxy proxy(cluster.bootstrap());
        QVERIFY(proxy.isListening());
        ClusterConfig config;
        config.bootstrap = proxy.address();
        // librdkafka's own re-bootstrap brings such a handle back mostly, not
        // always (tst_bootstraprevival): off here, so this shows ProbeClient's.
        config.properties.insert(QStringLiteral("metadata.recovery.strategy"), QStringLiteral("none"));
        QString error;
        std::unique_ptr<ProbeClient> probe = ProbeClient::create(config, &error);
        QVERIFY2(probe, qPrintable(error));
        std::optional<ClusterMetadata> md = probe->fetchMetadata(5000, false, &error);
        QVERIFY2(md, qPrintable(error));
        QCOMPARE(md->brokers.size(), 1);

        // The fenced broker's word is taken as the cluster's: no brokers.
        proxy.setFenced(true);
        md = probe->fetchMetadata(5000, false, &error);
        QVERIFY2(md, qPrintable(error));
        QVERIFY(md->brokers.isEmpty());
        QVERIFY(proxy.fencedAnswers() > 0);
        proxy.setFenced(false);

        // Without the revival it fails after its whole timeout, and every fetch
        // after it too. Nor may "all brokers down" in between end the fetch (it
        // did before ProbeClient's isHopeless left it out).
        QElapsedTimer took;
        took.start();
        md = probe->fetchMetadata(8000, false, &error);
        QVERIFY2(md, qPrintable(error));
        QCOMPARE(md->brokers.size(), 1);
        QCOMPARE(md->topics.size(), 1);
        // Of that, 3 s are DescribeCluster's, which the mock leaves unanswered until it times out.
        qInfo("reached the cluster again in %lld ms", took.elapsed());
    }

    // Nothing to revive on a handle that still has its bootstrap broker: a
    // closed port fails as it did, on the refusal and not after the fetch's
    // timeout, again and again. librdkafka reports the same refusal of a
    // broker once in 30 s, so from the second fetch on only the remembered
    // refusal says so (and without it each fetch took its whole 10 s).
    void aClosedPortStillFails()
    {
        ClusterConfig config;
        config.bootstrap = closedPort();
        QString error;
        std::unique_ptr<ProbeClient> probe = ProbeClient::create(config, &error);
        QVERIFY2(probe, qPrintable(error));
        for (int i = 0; i < 3; ++i) {
            QElapsedTimer took;
            took.start();
            QVERIFY(!probe->fetchMetadata(10000, false, &error));
            qInfo("fetch %d failed in %lld ms", i + 1, took.elapsed());
            QVERIFY2(took.elapsed() < 3000, qPrintable(QString::number(took.elapsed())));
            QVERIFY2(error.contains(QLatin1String("cannot reach the cluster: ")), qPrintable(error));
            QVERIFY2(error.contains(QLatin1String("refused"), Qt::CaseInsensitive), qPrintable(error));
        }
    }

    // One bootstrap server refuses, the other is a live cluster that takes
    // longer than a round to answer (1.5 s a request): the refusal must not
    // end the fetch while the other broker is still connecting.
    void oneRefusedOfTwoBootstrapServersIsNoReasonToGiveUp()
    {
        MockCluster cluster;
        cluster.createTopic(QStringLiteral("t"), 1);
        rd_kafka_mock_broker_set_rtt(cluster.get(), 1, 1500);
        ClusterConfig config;
        config.bootstrap = closedPort() + QLatin1Char(',') + cluster.bootstrap();
        QString error;
        std::unique_ptr<ProbeClient> probe = ProbeClient::create(config, &error);
        QVERIFY2(probe, qPrintable(error));
        std::optional<ClusterMetadata> md = probe->fetchMetadata(15000, false, &error);
        QVERIFY2(md, qPrintable(error));
        QCOMPARE(md->topics.size(), 1);
    }

    // A cluster that never answers (a black hole: the kernel accepts, nobody
    // reads) is slow, not refused: a fetch waits its whole timeout for it,
    // also beside a bootstrap server that refuses, and the next fetch too.
    void aBlackHoleIsWaitedFor()
    {
        QTcpServer blackHole;
        QVERIFY(blackHole.listen(QHostAddress::LocalHost));
        const QString silent = QStringLiteral("127.0.0.1:%1").arg(blackHole.serverPort());
        for (const QString &bootstrap : QStringList{silent, closedPort() + QLatin1Char(',') + silent}) {
            ClusterConfig config;
            config.bootstrap = bootstrap;
            QString error;
            std::unique_ptr<ProbeClient> probe = ProbeClient::create(config, &error);
            QVERIFY2(probe, qPrintable(error));
            for (int i = 0; i < 2; ++i) {
                QElapsedTimer took;
                took.start();
                QVERIFY(!probe->fetchMetadata(3000, false, &error));
                QVERIFY2(took.elapsed() >= 2900 && took.elapsed() < 5000,
                         qPrintable(bootstrap + QLatin1Char(' ') + QString::number(took.elapsed())));
                QVERIFY2(error.contains(QLatin1String("cannot reach the cluster within 3.0 s")), qPrintable(error));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TstProbeRevival)
#include "tst_proberevival.moc"
