// The judgement `check` prints for history the target would delete on
// arrival (RetentionCheck), without a cluster: which target settings make old
// records vanish, and the exact line.

#include "engine/mirror/RetentionCheck.h"

#include <QtTest/QtTest>

using namespace md;

namespace {

constexpr qint64 kNow = 1796000000000LL;       // 2026-11-30
constexpr qint64 kMarch2024 = 1709251200000LL; // 2024-03-01T00:00:00Z
constexpr qint64 kWeek = 604800000LL;

RetentionFinding finding(qint64 oldest, qint64 retentionMs)
{
    RetentionFinding f;
    f.sourceTopic = QStringLiteral("src-topic");
    f.targetTopic = QStringLiteral("dr.src-topic");
    f.targetExists = true;
    f.oldestTimestamp = oldest;
    f.oldestPartition = 0;
    f.timestampType = QStringLiteral("CreateTime");
    f.target.known = true;
    f.target.retentionMs = retentionMs;
    return f;
}

} // namespace

class TestRetentionCheck final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void oldRecordsAndAShortRetentionWarn()
    {
        RetentionFinding f = finding(kMarch2024, kWeek);
        judgeRetention(f, kNow);
        QCOMPARE(f.warning, QStringLiteral("src-topic: oldest record is from 2024-03-01 (CreateTime) but the target "
                                           "topic dr.src-topic keeps records for 7 days (retention.ms=604800000): the "
                                           "target will delete them on arrival"));
        f.targetExists = false;
        f.target.origin = QStringLiteral("the target's default");
        judgeRetention(f, kNow);
        QVERIFY2(f.warning.contains(QStringLiteral("would keep records for 7 days (retention.ms=604800000, the "
                                                   "target's default)")),
                 qPrintable(f.warning));
    }

    void nothingToWarnAbout_data()
    {
        QTest::addColumn<qint64>("oldest");
        QTest::addColumn<qint64>("retentionMs");
        QTest::addColumn<QString>("change");
        QTest::newRow("kept forever") << kMarch2024 << qint64(-1) << QString();
        QTest::newRow("recent records") << kNow - 3600000 << kWeek << QString();
        QTest::newRow("empty topic") << qint64(-1) << kWeek << QString();
        QTest::newRow("compact only") << kMarch2024 << kWeek << QStringLiteral("compact");
        QTest::newRow("LogAppendTime on the target") << kMarch2024 << kWeek << QStringLiteral("append");
        QTest::newRow("retention unknown") << kMarch2024 << kWeek << QStringLiteral("unknown");
    }

    void nothingToWarnAbout()
    {
        QFETCH(qint64, oldest);
        QFETCH(qint64, retentionMs);
        QFETCH(QString, change);
        RetentionFinding f = finding(oldest, retentionMs);
        if (change == QLatin1String("compact"))
            f.target.deletes = false;
        else if (change == QLatin1String("append"))
            f.target.logAppendTime = true;
        else if (change == QLatin1String("unknown"))
            f.target.known = false;
        judgeRetention(f, kNow);
        QVERIFY2(f.warning.isEmpty(), qPrintable(f.warning));
    }

    void durations()
    {
        QCOMPARE(durationText(kWeek), QStringLiteral("7 days"));
        QCOMPARE(durationText(86400000), QStringLiteral("1 day"));
        QCOMPARE(durationText(36 * 3600000LL), QStringLiteral("36 hours"));
        QCOMPARE(durationText(90 * 60000), QStringLiteral("90 minutes"));
        QCOMPARE(durationText(1500), QStringLiteral("1500 ms"));
    }
};

QTEST_GUILESS_MAIN(TestRetentionCheck)
#include "tst_retentioncheck.moc"
