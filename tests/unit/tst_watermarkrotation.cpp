// Which partitions a metric snapshot reads the watermarks of
// (engine/mirror/WatermarkRotation.h): never more than 256 a snapshot, and every
// partition within watermarkRounds() snapshots, so the lag of a job over
// thousands of partitions is never older than a few snapshots.

#include "engine/mirror/WatermarkRotation.h"

#include <QTest>

#include <vector>

using namespace md;

class TstWatermarkRotation final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyPartitionWithinTheRounds_data()
    {
        QTest::addColumn<qint64>("partitions");
        QTest::addColumn<qint64>("rounds");
        QTest::newRow("1") << qint64(1) << qint64(1);
        QTest::newRow("256") << qint64(256) << qint64(1);
        QTest::newRow("257") << qint64(257) << qint64(2);
        QTest::newRow("2000") << qint64(2000) << qint64(8);
        QTest::newRow("50000") << qint64(50000) << qint64(196);
    }

    void everyPartitionWithinTheRounds()
    {
        QFETCH(qint64, partitions);
        QFETCH(qint64, rounds);
        QCOMPARE(watermarkRounds(partitions), rounds);
        // Any window of `rounds` consecutive snapshots, wherever it starts,
        // reads each partition exactly once and at most 256 in a snapshot.
        for (const qint64 first : {qint64(0), qint64(5), qint64(1000003)}) {
            std::vector<int> reads(size_t(partitions), 0);
            for (qint64 s = first; s < first + rounds; ++s) {
                qint64 inSnapshot = 0;
                for (qint64 i = 0; i < partitions; ++i)
                    if (watermarkDue(i, s, rounds)) {
                        ++reads[size_t(i)];
                        ++inSnapshot;
                    }
                QVERIFY2(inSnapshot <= kWatermarksPerSnapshot, qPrintable(QString::number(inSnapshot)));
            }
            for (qint64 i = 0; i < partitions; ++i)
                QVERIFY2(reads[size_t(i)] == 1, qPrintable(QStringLiteral("partition %1 read %2 times in %3 snapshots")
                                                               .arg(i)
                                                               .arg(reads[size_t(i)])
                                                               .arg(rounds)));
        }
    }

    void noPartitionsStillOneRound() { QCOMPARE(watermarkRounds(0), qint64(1)); }
};

QTEST_GUILESS_MAIN(TstWatermarkRotation)
#include "tst_watermarkrotation.moc"
