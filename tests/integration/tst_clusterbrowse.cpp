// The thin slice against a real broker: topics created on the source broker
// are seen through ClusterClient (admin thread) and TopicTableModel, with
// partition counts and message counts; an unreachable cluster is reported
// within ten seconds, naming the address.
#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/admin/ClusterClient.h"
#include "model/tables/TopicTableModel.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

using namespace md;

class TestClusterBrowse final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void topicsAppearInTheModel()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        const QString bootstrap = test::sourceBootstrap();
        const QString a = test::uniqueName(QStringLiteral("browse-a"));
        const QString b = test::uniqueName(QStringLiteral("browse-b"));
        QString error;
        QVERIFY2(test::createTopic(bootstrap, a, 3, {}, &error), qPrintable(error));
        QVERIFY2(test::createTopic(bootstrap, b, 7, {}, &error), qPrintable(error));
        QList<test::TestRecord> records;
        for (int i = 0; i < 25; ++i) {
            test::TestRecord r;
            r.value = QByteArray::number(i);
            r.partition = i % 3;
            records.append(r);
        }
        QVERIFY2(test::produce(bootstrap, a, records, &error), qPrintable(error));

        ClusterClient client;
        TopicTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QObject::connect(&client, &ClusterClient::metadataReady, &model,
                         [&](const ClusterMetadata &md) { model.setTopics(md.topics); });
        QSignalSpy ready(&client, &ClusterClient::metadataReady);
        client.connectTo(test::clusterConfig(QStringLiteral("source")));
        QVERIFY(ready.wait(15000));
        QCOMPARE(client.state(), ClusterClient::State::Connected);
        // A topic created a moment ago may not answer ListOffsets yet (its count
        // shows as unknown, never as a wrong number); the next refresh has it.
        {
            QElapsedTimer waited;
            waited.start();
            const auto known = [&] {
                const TopicInfo *x = client.metadata().topic(a);
                const TopicInfo *y = client.metadata().topic(b);
                return x && y && x->messageCount() >= 0 && y->messageCount() >= 0;
            };
            while (!known() && waited.elapsed() < 30000) {
                QSignalSpy again(&client, &ClusterClient::metadataReady);
                client.refresh();
                QVERIFY(again.wait(15000));
            }
        }

        const ClusterMetadata &md = client.metadata();
        QVERIFY(!md.brokers.isEmpty());
        QVERIFY(md.controllerId >= 0 || md.brokers.size() == 1);
        // The harness sets broker.rack; metadata has no racks, DescribeCluster does.
        QCOMPARE(md.brokers.first().rack, QStringLiteral("rack-source"));
        const TopicInfo *ta = md.topic(a);
        const TopicInfo *tb = md.topic(b);
        QVERIFY(ta && tb);
        QCOMPARE(ta->partitions.size(), 3);
        QCOMPARE(tb->partitions.size(), 7);
        QCOMPARE(ta->messageCount(), 25);
        QCOMPARE(tb->messageCount(), 0);
        QCOMPARE(ta->replicationFactor(), 1);

        int rowA = -1;
        for (int r = 0; r < model.rowCount(); ++r) {
            if (model.index(r, TopicTableModel::Name).data().toString() == a)
                rowA = r;
        }
        QVERIFY(rowA >= 0);
        QCOMPARE(model.index(rowA, TopicTableModel::Partitions).data().toInt(), 3);
        QCOMPARE(model.index(rowA, TopicTableModel::Messages).data(TopicTableModel::SortRole).toLongLong(), 25);

        // A topic created later shows up on refresh; a deleted one goes away.
        const QString c = test::uniqueName(QStringLiteral("browse-c"));
        QVERIFY2(test::createTopic(bootstrap, c, 2, {}, &error), qPrintable(error));
        QVERIFY2(test::deleteTopic(bootstrap, b, &error), qPrintable(error));
        QElapsedTimer waited;
        waited.start();
        bool seen = false;
        while (!seen && waited.elapsed() < 60000) {
            QSignalSpy again(&client, &ClusterClient::metadataReady);
            client.refresh();
            QVERIFY(again.wait(15000));
            seen = client.metadata().topic(c) && !client.metadata().topic(b);
        }
        QVERIFY2(seen, "a new topic did not appear, or a deleted one did not go, within 60 s");
    }

    void unreachableClusterIsReportedQuickly()
    {
        // A port that nothing listens on: bind, learn the port, close.
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        const quint16 port = server.serverPort();
        server.close();

        ClusterClient client;
        QSignalSpy failed(&client, &ClusterClient::errorOccurred);
        ClusterConfig config;
        config.bootstrap = QStringLiteral("127.0.0.1:%1").arg(port);
        QElapsedTimer timer;
        timer.start();
        client.connectTo(config);
        QVERIFY(failed.wait(12000));
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed())));
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(config.bootstrap), qPrintable(message));
        QCOMPARE(client.state(), ClusterClient::State::Unreachable);
    }

    void saslWrongPasswordIsAnError()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("sasl"));
        ClusterConfig config = test::clusterConfig(QStringLiteral("sasl"));
        {
            ClusterClient client;
            QSignalSpy ready(&client, &ClusterClient::metadataReady);
            client.connectTo(config);
            QVERIFY(ready.wait(15000));
        }
        config.saslPassword = QStringLiteral("not-the-password");
        ClusterClient client;
        QSignalSpy failed(&client, &ClusterClient::errorOccurred);
        client.connectTo(config);
        QVERIFY(failed.wait(15000));
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(QLatin1String("uthentication")), qPrintable(message));
        QVERIFY2(!message.contains(QLatin1String("not-the-password")), qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(TestClusterBrowse)
#include "tst_clusterbrowse.moc"
