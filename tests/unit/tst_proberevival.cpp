// ProbeClient, the connection of browsing, administration and the headless
// checks, after librdkafka issue 5301: its broker, fenced for a moment, answered
// Metadata with no brokers, the handle forgot every broker it knew, and the
// broker is back. Its next fetch gives the handle the bootstrap servers again
// after a failed round and reaches the cluster within that same fetch.

#include "ClusterConfig.h"
#include "FencingProxy.h"
#include "MockCluster.h"
#include "ProbeClient.h"

#include <QElapsedTimer>
#include <QTest>

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

        // Without the revival this fails after its whole timeout, and every fetch after it too.
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
    // closed port fails as it did, within the fetch's time, again and again.
    void aClosedPortStillFails()
    {
        ClusterConfig config;
        config.bootstrap = QStringLiteral("127.0.0.1:1");
        QString error;
        std::unique_ptr<ProbeClient> probe = ProbeClient::create(config, &error);
        QVERIFY2(probe, qPrintable(error));
        for (int i = 0; i < 2; ++i) {
            QElapsedTimer took;
            took.start();
            QVERIFY(!probe->fetchMetadata(3000, false, &error));
            QVERIFY2(took.elapsed() < 5000, qPrintable(QString::number(took.elapsed())));
            QVERIFY2(error.contains(QLatin1String("cannot reach the cluster")), qPrintable(error));
        }
    }
};

QTEST_GUILESS_MAIN(TstProbeRevival)
#include "tst_proberevival.moc"
