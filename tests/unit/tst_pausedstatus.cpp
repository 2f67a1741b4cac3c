#include "model/monitor/LagStatus.h"
#include "model/monitor/MetricStore.h"
#include "model/tables/JobListModel.h"

#include <QTest>

#include <algorithm>

using namespace md;

namespace {

const QDateTime kStart = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000, Qt::UTC);

// One partition at position `next` with `lag` records behind, at `atMs` after kStart.
MetricsSnapshot snapshot(JobState state, qint64 atMs, qint64 next, qint64 lag)
{
    MetricsSnapshot s;
    s.jobName = QStringLiteral("job");
    s.time = kStart.addMSecs(atMs);
    s.elapsedMs = atMs;
    s.state = state;
    PartitionMetrics p;
    p.topic = QStringLiteral("orders");
    p.targetTopic = QStringLiteral("eu.orders");
    p.partition = 0;
    p.nextOffset = next;
    p.endOffset = next + lag;
    p.lag = lag;
    p.paused = state == JobState::Paused;
    s.partitions = {p};
    s.totalLag = lag;
    return s;
}

} // namespace

class TstPausedStatus final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The bug: a paused job's position stands still while producers keep writing, which
    // Burrow's rules call STALL, so the job list showed ERR for a pause the user asked for.
    void pausedJobIsNotStalled()
    {
        MetricStore store;
        qint64 t = 0;
        // Running and caught up.
        for (; t <= 20'000; t += 250)
            store.addSnapshot(snapshot(JobState::Running, t, 1000 + t, 0));
        QCOMPARE(store.jobStatus(), JobLagStatus::Ok);
        // Paused for two minutes: the position freezes, the lag grows.
        const qint64 frozen = 1000 + t;
        const qint64 pausedAt = t;
        for (; t <= pausedAt + 120'000; t += 250)
            store.addSnapshot(snapshot(JobState::Paused, t, frozen, 1 + (t - pausedAt)));
        QCOMPARE(store.jobStatus(), JobLagStatus::Ok);
        QVERIFY(store.lagStatus().partitions().isEmpty());
        for (const MetricStore::PartitionRow &row : store.partitionTable())
            QCOMPARE(row.status, PartitionLagStatus::Ok);

        // The same frozen position while Running is a real STALL: the rules are still on.
        MetricStore running;
        for (qint64 r = 0; r <= 120'000; r += 250)
            running.addSnapshot(snapshot(JobState::Running, r, frozen, 1 + r));
        QCOMPARE(running.lagStatus().worstPartitionStatus(running.lastTimeMs()), PartitionLagStatus::Stall);
        QCOMPARE(running.jobStatus(), JobLagStatus::Err);

        // Resumed and catching up: a fresh window, judged on what happens after the pause.
        const qint64 resumedAt = t;
        qint64 lag = 1 + (t - pausedAt);
        qint64 next = frozen;
        for (; t <= resumedAt + 60'000; t += 250) {
            next += 100;
            lag = std::max<qint64>(0, lag - 60);
            store.addSnapshot(snapshot(JobState::Running, t, next, lag));
        }
        QCOMPARE(store.jobStatus(), JobLagStatus::Ok);
        QVERIFY(!store.lagStatus().partitions().isEmpty());
        // Resumed but stuck again: the rules apply once more.
        for (const qint64 end = t + 120'000; t <= end; t += 250)
            store.addSnapshot(snapshot(JobState::Running, t, next, lag + 5 + (t - resumedAt)));
        QCOMPARE(store.jobStatus(), JobLagStatus::Err);
    }

    void jobListShowsPaused()
    {
        JobListModel m;
        const int row = m.addJob(QStringLiteral("job"));
        m.setState(row, JobState::Running);
        QCOMPARE(m.index(row, JobListModel::Status).data().toString(), QString()); // no verdict yet
        m.setStatus(row, JobLagStatus::Err);
        QCOMPARE(m.index(row, JobListModel::Status).data().toString(), QStringLiteral("ERR"));
        m.setState(row, JobState::Paused);
        QCOMPARE(m.index(row, JobListModel::Status).data().toString(), QStringLiteral("PAUSED"));
        QCOMPARE(m.index(row, JobListModel::Status).data(JobListModel::SortRole).toString(), QStringLiteral("PAUSED"));
        m.setStatus(row, JobLagStatus::Ok);
        m.setState(row, JobState::Running);
        QCOMPARE(m.index(row, JobListModel::Status).data().toString(), QStringLiteral("OK"));
    }
};

QTEST_GUILESS_MAIN(TstPausedStatus)
#include "tst_pausedstatus.moc"
