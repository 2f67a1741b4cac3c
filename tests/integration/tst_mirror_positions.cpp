// Where a mirror job starts and stops, on real brokers: committed (falling
// back to earliest), latest, a timestamp; stop when caught up, at a
// timestamp, after N records per partition. And a SASL/SCRAM source.

#include "tst_mirror_support.h"

using namespace md;
using namespace md::test;

namespace {

const qint64 kT0 = 1'500'000'000'000; // 2017

// 100 records, timestamps kT0 + i, alternating over 2 partitions.
QList<TestRecord> timed(const QString &prefix)
{
    QList<TestRecord> out = numbered(prefix, 100, 2);
    for (int i = 0; i < out.size(); ++i)
        out[i].timestamp = kT0 + i;
    return out;
}

} // namespace

class TstMirrorPositions final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target")); }

    void startAndStop_data()
    {
        QTest::addColumn<int>("start");
        QTest::addColumn<qint64>("startTs");
        QTest::addColumn<int>("stop");
        QTest::addColumn<qint64>("stopTs");
        QTest::addColumn<qint64>("stopAfter");
        QTest::addColumn<qint64>("firstTs"); // expected copied range [firstTs, endTs)
        QTest::addColumn<qint64>("endTs");
        const int committed = int(StartPosition::Committed), earliest = int(StartPosition::Earliest),
                  ts = int(StartPosition::Timestamp);
        const int caughtUp = int(StopCondition::CaughtUp), atTs = int(StopCondition::AtTimestamp),
                  after = int(StopCondition::AfterRecords);
        QTest::newRow("committed, none yet: earliest")
            << committed << qint64(0) << caughtUp << qint64(0) << qint64(0) << kT0 << kT0 + 100;
        QTest::newRow("start at timestamp")
            << ts << kT0 + 80 << caughtUp << qint64(0) << qint64(0) << kT0 + 80 << kT0 + 100;
        QTest::newRow("start after the newest") << ts << kT0 + 1000 << caughtUp << qint64(0) << qint64(0) << kT0 << kT0;
        QTest::newRow("stop at timestamp") << earliest << qint64(0) << atTs << kT0 + 50 << qint64(0) << kT0 << kT0 + 50;
        QTest::newRow("stop after 10 per partition")
            << earliest << qint64(0) << after << qint64(0) << qint64(10) << kT0 << kT0 + 20;
        QTest::newRow("window") << ts << kT0 + 10 << atTs << kT0 + 30 << qint64(0) << kT0 + 10 << kT0 + 30;
    }
    void startAndStop()
    {
        QFETCH(int, start);
        QFETCH(qint64, startTs);
        QFETCH(int, stop);
        QFETCH(qint64, stopTs);
        QFETCH(qint64, stopAfter);
        QFETCH(qint64, firstTs);
        QFETCH(qint64, endTs);
        const QString topic = uniqueName(QStringLiteral("pos"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, timed(topic), &error), qPrintable(error));
        MirrorJobSpec spec = harnessSpec(topic, {QRegularExpression::escape(topic)});
        spec.start = StartPosition(start);
        spec.startTimestamp = QDateTime::fromMSecsSinceEpoch(startTs, Qt::UTC);
        spec.stop = StopCondition(stop);
        spec.stopTimestamp = QDateTime::fromMSecsSinceEpoch(stopTs, Qt::UTC);
        spec.stopAfterRecords = stopAfter;
        MirrorJob job(spec);
        const JobOutcome out = runJob(job, 90000);
        QVERIFY2(out.finished && out.ok, qPrintable(out.error + QStringLiteral("\n  ") + joined(out.events)));
        const auto copied = consumeAll(targetBootstrap(), topic, &error);
        QVERIFY2(copied, qPrintable(error));
        QCOMPARE(copied->size(), int(endTs - firstTs));
        for (const TestRecord &r : *copied)
            QVERIFY2(r.timestamp >= firstTs && r.timestamp < endTs, qPrintable(describe(r)));
    }

    void startLatestCopiesOnlyNewRecords()
    {
        const QString topic = uniqueName(QStringLiteral("latest"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, numbered(QStringLiteral("old"), 10, 2), &error), qPrintable(error));
        MirrorJobSpec spec = harnessSpec(topic, {QRegularExpression::escape(topic)});
        spec.start = StartPosition::Latest;
        spec.stop = StopCondition::RunForever;
        MirrorJob job(spec);
        bool caughtUp = false;
        connect(&job, &MirrorJob::metricsSampled, this, [&](const MetricsSnapshot &s) { caughtUp = s.caughtUp; });
        job.start();
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp, 60000);
        QVERIFY2(produce(sourceBootstrap(), topic, numbered(QStringLiteral("new"), 6, 2), &error), qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(consumeAll(targetBootstrap(), topic).value_or(QList<TestRecord>()).size(), 6, 30000);
        job.stop();
        QVERIFY(job.waitForFinished(60000));
        const auto copied = consumeAll(targetBootstrap(), topic, &error);
        QVERIFY2(copied, qPrintable(error));
        QCOMPARE(copied->size(), 6);
        QVERIFY(!valueSet(*copied).contains("old-0"));
    }

    void saslSource()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("sasl"), QStringLiteral("target"));
        const QString topic = uniqueName(QStringLiteral("sasl"));
        QString error;
        const ClientProperties sasl = clientProperties(QStringLiteral("sasl"));
        QVERIFY2(createTopic(saslBootstrap(), topic, 1, {}, &error, sasl), qPrintable(error));
        ProduceOptions po;
        po.client = sasl;
        QVERIFY2(produce(saslBootstrap(), topic, numbered(topic, 25, 1), &error, po), qPrintable(error));
        MirrorJobSpec spec = harnessSpec(topic, {QRegularExpression::escape(topic)});
        spec.source = clusterConfig(QStringLiteral("sasl"));
        spec.source.consumerProperties.insert(QStringLiteral("session.timeout.ms"), QStringLiteral("6000"));
        MirrorJob job(spec);
        const JobOutcome out = runJob(job, 90000);
        QVERIFY2(out.finished && out.ok, qPrintable(out.error + QStringLiteral("\n  ") + joined(out.events)));
        const auto copied = consumeAll(targetBootstrap(), topic, &error);
        QVERIFY2(copied, qPrintable(error));
        QCOMPARE(copied->size(), 25);
    }
};

QTEST_GUILESS_MAIN(TstMirrorPositions)
#include "tst_mirror_positions.moc"
