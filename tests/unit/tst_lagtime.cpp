// Lag in time, time to catch up and the retention risk (engine/mirror/LagTime.h)
// without a cluster or a clock: the pure rules the engine and the group sampler
// apply to each partition, and the texts the list, monitor and `run` show.

#include "engine/mirror/LagTime.h"
#include "model/tables/NumberFormat.h"

#include <QtTest/QtTest>

using namespace md;

namespace {

constexpr qint64 kNow = 1796000000000LL; // 2026-11-30
constexpr qint64 kHour = 3600000;
constexpr qint64 kDay = 24 * kHour;

// A partition whose lag and copied total follow the given steps, 1 s apart.
DrainRate fed(const QList<QPair<qint64, qint64>> &lagAndCopied)
{
    DrainRate d;
    qint64 t = 0;
    for (const auto &[lag, copied] : lagAndCopied) {
        d.add(t, lag, copied);
        t += 1000;
    }
    return d;
}

PartitionBacklog backlog(qint64 lag, const DrainRate &d)
{
    return {lag, d.primed(), d.netPerSec(), d.copyPerSec()};
}

} // namespace

class TestLagTime final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void lagInTimeIsTheNextRecordsAge()
    {
        QCOMPARE(lagTimeMs(500, kNow - kHour, kNow), kHour);
        QCOMPARE(lagTimeMs(0, kNow - kHour, kNow), 0); // caught up: 0, whatever the last record's age
        QCOMPARE(lagTimeMs(0, -1, kNow), 0);
        QCOMPARE(lagTimeMs(5, -1, kNow), -1);            // lagging, timestamp not read yet: unknown
        QCOMPARE(lagTimeMs(-1, kNow - kHour, kNow), -1); // lag unknown
        QCOMPARE(lagTimeMs(5, kNow + 5000, kNow), 0);    // a producer's clock ahead is no negative lag
    }

    void drainRateSmoothsAndKnowsItsSign()
    {
        DrainRate d;
        QVERIFY(!d.primed());
        d.add(0, 1000, 0);
        QVERIFY(!d.primed());  // one point is no rate
        d.add(1000, 900, 200); // drained 100/s, copied 200/s
        QVERIFY(d.primed());
        QCOMPARE(d.netPerSec(), 100.0);
        QCOMPARE(d.copyPerSec(), 200.0);
        // One bad second moves the smoothed rate only part of the way (10 s time constant).
        d.add(2000, 1000, 200); // grew by 100, copied nothing
        QVERIFY(d.netPerSec() > 0);
        QVERIFY(d.netPerSec() < 100.0);
        // The same instant again teaches nothing.
        const double before = d.netPerSec();
        d.add(2000, 0, 5000);
        QCOMPARE(d.netPerSec(), before);
        // Growing steadily: the rate turns negative.
        DrainRate g = fed({{100, 0}, {200, 50}, {300, 100}, {400, 150}, {500, 200}});
        QVERIFY(g.netPerSec() < 0);
    }

    void catchUpIsBacklogOverNetDrain()
    {
        // 10,000 behind, shrinking by 100/s (copies 300/s, 200/s arrive): 100 s.
        DrainRate d = fed({{10400, 0}, {10300, 300}, {10200, 600}, {10100, 900}, {10000, 1200}});
        QCOMPARE(partitionCatchUpSeconds(backlog(10000, d)), 100.0);
        QCOMPARE(partitionCatchUpSeconds(backlog(0, d)), 0.0);
        QCOMPARE(partitionCatchUpSeconds(backlog(10000, DrainRate())), -1.0); // no rate yet: unknown
    }

    void catchUpIsNeverWhenTheJobFallsBehind()
    {
        // Copies 100/s while 150/s arrive (a throttled job): never.
        DrainRate d = fed({{1000, 0}, {1050, 100}, {1100, 200}, {1150, 300}});
        QCOMPARE(partitionCatchUpSeconds(backlog(1150, d)), kCatchUpNever);
        // Copies nothing at all (paused): never.
        DrainRate stopped = fed({{1000, 0}, {1000, 0}, {1000, 0}});
        QCOMPARE(partitionCatchUpSeconds(backlog(1000, stopped)), kCatchUpNever);
    }

    void aSmallBacklogAtASteadyRateKeepsUp()
    {
        // Lag wobbles around 50 while 1,000/s are copied: keeping up, not "never".
        DrainRate d = fed({{50, 0}, {60, 1000}, {40, 2000}, {55, 3000}, {50, 4000}});
        const double s = partitionCatchUpSeconds(backlog(50, d));
        QVERIFY2(s >= 0 && s < 1, qPrintable(QString::number(s)));
    }

    void theSlowestPartitionDecides()
    {
        DrainRate fast = fed({{10400, 0}, {10300, 300}, {10200, 600}, {10100, 900}, {10000, 1200}}); // 100 s
        DrainRate slow = fed({{1040, 0}, {1030, 30}, {1020, 60}, {1010, 90}, {1000, 120}});          // 100 s at 10/s
        DrainRate skewed = fed({{5040, 0}, {5030, 30}, {5020, 60}, {5010, 90}, {5000, 120}});        // 500 s at 10/s
        // The sum (16,000 records over 120 records/s net = 133 s) would hide the skewed partition.
        QCOMPARE(catchUpSeconds({backlog(10000, fast), backlog(1000, slow), backlog(5000, skewed)}), 500.0);
        DrainRate behind = fed({{1000, 0}, {1050, 100}, {1100, 200}, {1150, 300}});
        QCOMPARE(catchUpSeconds({backlog(10000, fast), backlog(1150, behind)}), kCatchUpNever);
        // Caught up everywhere: 0; nothing known: unknown.
        QCOMPARE(catchUpSeconds({backlog(0, fast), backlog(0, slow)}), 0.0);
        QCOMPARE(catchUpSeconds({}), -1.0);
        // A partition without a rate yet may be the slowest: unknown, unless another is never.
        QCOMPARE(catchUpSeconds({backlog(10000, fast), backlog(10, DrainRate())}), -1.0);
        QCOMPARE(catchUpSeconds({backlog(1150, behind), backlog(10, DrainRate())}), kCatchUpNever);
        QCOMPARE(slowestCatchUp({3.0, 0.0, 7.5}), 7.5);
    }

    void retentionMarginIsATenthAtLeastAMinute()
    {
        QCOMPARE(retentionMarginMs(7 * kDay), 7 * kDay / 10);
        QCOMPARE(retentionMarginMs(5 * 60000), 60000); // 10% would be 30 s
        QCOMPARE(retentionMarginMs(30000), 30000);     // never more than the retention
        QCOMPARE(retentionMarginMs(-1), 0);
    }

    void retentionRiskJudgement()
    {
        const qint64 week = 7 * kDay;
        // 6.2 days old against 7 days: inside the 16.8 h margin.
        QVERIFY(retentionAtRisk(10, kNow - (week - 16 * kHour), week, kNow));
        // 6 days old: 24 h left, outside the margin.
        QVERIFY(!retentionAtRisk(10, kNow - 6 * kDay, week, kNow));
        // Older than the retention (deletion pending at the next segment roll): at risk.
        QVERIFY(retentionAtRisk(10, kNow - 8 * kDay, week, kNow));
        // Retention -1 (forever), no lag, or an unknown timestamp: never.
        QVERIFY(!retentionAtRisk(10, kNow - 400 * kDay, -1, kNow));
        QVERIFY(!retentionAtRisk(0, kNow - 8 * kDay, week, kNow));
        QVERIFY(!retentionAtRisk(10, -1, week, kNow));
        // Five minutes of retention: the margin is the minute.
        QVERIFY(retentionAtRisk(1, kNow - 4 * 60000, 5 * 60000, kNow));
        QVERIFY(!retentionAtRisk(1, kNow - 3 * 60000 - 59000, 5 * 60000, kNow));
    }

    void texts()
    {
        QCOMPARE(lagTimeText(3600 * 1000 + 5 * 60000 + 999), QStringLiteral("1 h 5 min"));
        QCOMPARE(lagTimeText(45000), QStringLiteral("45 s"));
        QCOMPARE(lagTimeText(0), QStringLiteral("0 s"));
        QCOMPARE(lagTimeText(-1), QStringLiteral("\u2014"));
        QCOMPARE(catchUpText(kCatchUpNever), QStringLiteral("never"));
        QCOMPARE(catchUpText(-1), QStringLiteral("\u2014"));
        QCOMPARE(catchUpText(90.2), QStringLiteral("1 min 31 s"));
        QCOMPARE(catchUpText(2.5 * 86400), QStringLiteral("2 d 12 h"));
    }
};

QTEST_APPLESS_MAIN(TestLagTime)
#include "tst_lagtime.moc"
