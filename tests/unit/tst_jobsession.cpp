// JobSession and MonitoredJob: the one owner of each job's state below the widgets. The
// job list, notifications, monitors and `run` read what these hold; these tests pin what
// they promise without any widget.
#include "engine/mirror/MirrorJob.h"
#include "engine/mirror/TopicNaming.h"
#include "model/monitor/MetricStore.h"
#include "model/session/JobSession.h"
#include "model/session/MonitoredJob.h"
#include "model/tables/JobListModel.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFileInfo>
#include <QPointer>
#include <QSignalSpy>
#include <QTest>

using namespace md;

namespace {

const QDateTime kStart = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000, Qt::UTC);

// Nothing listens there: a started job keeps trying and stays running until stopped.
MirrorJobSpec unreachable(const QString &name, const QString &bootstrap = QStringLiteral("127.0.0.1:1"))
{
    MirrorJobSpec spec;
    spec.name = name;
    spec.source.alias = QStringLiteral("src");
    spec.source.bootstrap = bootstrap;
    spec.target.alias = QStringLiteral("dst");
    spec.target.bootstrap = QStringLiteral("127.0.0.1:1");
    spec.include = {QStringLiteral("orders")};
    return spec;
}

// Tick i, 2 s apart: the position moves while the lag only grows (Burrow's WARN once the
// window is old enough), or every lag is 0 when caughtUp.
MetricsSnapshot tick(int i, bool caughtUp = false)
{
    MetricsSnapshot s;
    s.jobName = QStringLiteral("job");
    s.time = kStart.addMSecs(qint64(i) * 2000);
    s.elapsedMs = qint64(i) * 2000;
    s.state = JobState::Running;
    s.recordsProduced = 1000 * i;
    PartitionMetrics p;
    p.topic = QStringLiteral("orders");
    p.partition = 3;
    p.lag = caughtUp ? 0 : 100 + 50 * i;
    p.endOffset = 1000 + 200 * i;
    p.nextOffset = p.endOffset - p.lag;
    s.partitions = {p};
    s.totalLag = p.lag;
    return s;
}

QString cell(const JobListModel *model, int row, int column)
{
    return model->data(model->index(row, column)).toString();
}

} // namespace

class TstJobSession final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theListFollowsTheJobsState()
    {
        JobSession session;
        QAbstractItemModelTester tester(session.listModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        QSignalSpy added(&session, &JobSession::jobAdded);
        MonitoredJob *a = session.add(new MirrorJob(unreachable(QStringLiteral("a"))));
        MonitoredJob *b = session.add(new MirrorJob(unreachable(QStringLiteral("b"))));
        QCOMPARE(added.size(), 2);
        QCOMPARE(session.count(), 2);
        QCOMPARE(session.listModel()->rowCount(), 2);
        QCOMPARE(session.at(1), b);
        QCOMPARE(session.rowOf(a->job()), 0);
        QCOMPARE(cell(session.listModel(), 1, JobListModel::Name), QStringLiteral("b"));

        // b's snapshots reach b's row (and only it), its status with them.
        QSignalSpy status(b, &MonitoredJob::statusChanged);
        for (int i = 0; i < 30; ++i)
            b->addSnapshot(tick(i));
        QCOMPARE(b->store().sampleCount(), 30);
        QCOMPARE(b->status(), JobLagStatus::Warn);
        QCOMPARE(status.size(), 1);
        QCOMPARE(session.listModel()->metrics(1).totalLag, tick(29).totalLag);
        QCOMPARE(cell(session.listModel(), 1, JobListModel::Status), QStringLiteral("WARN"));
        QCOMPARE(session.listModel()->metrics(0).totalLag, 0);
        QVERIFY(a->store().isEmpty());
        // Why, for a notification: the lag and the partition.
        QVERIFY2(b->lagReason().contains(QStringLiteral("orders-3")), qPrintable(b->lagReason()));

        // Caught up: OK again, in the list too.
        b->addSnapshot(tick(30, true));
        QCOMPARE(b->status(), JobLagStatus::Ok);
        QCOMPARE(cell(session.listModel(), 1, JobListModel::Status), QStringLiteral("OK"));
        QCOMPARE(status.size(), 2);
        // An older snapshot than the latest changes nothing.
        b->addSnapshot(tick(5));
        QCOMPARE(b->store().sampleCount(), 31);
    }

    void theSessionOwnsItsJobs()
    {
        QPointer<MirrorJob> job = new MirrorJob(unreachable(QStringLiteral("owned")));
        QPointer<MonitoredJob> monitored;
        {
            JobSession session;
            monitored = session.add(job, QStringLiteral("relative/orders.mirrorjob"));
            QCOMPARE(monitored->job(), job.data());
            // Kept canonical: the same file by any spelling.
            QVERIFY(QFileInfo(monitored->profilePath()).isAbsolute());
            QVERIFY(monitored->profilePath().endsWith(QLatin1String("relative/orders.mirrorjob")));
        }
        QVERIFY(!monitored);
        QVERIFY(!job);
    }

    void aDuplicateAndAResetAreAnsweredFromTheList()
    {
        JobSession session;
        const QString path = QDir::current().absoluteFilePath(QStringLiteral("dup.mirrorjob"));
        const MirrorJobSpec spec = unreachable(QStringLiteral("orders"));
        MonitoredJob *running = session.add(new MirrorJob(spec), path);
        QVERIFY(!session.runningDuplicate(spec, path)); // not started: no duplicate, no block
        QVERIFY(session.resetBlockedReason(spec).isEmpty());
        QSignalSpy finished(&session, &JobSession::jobFinished);
        running->job()->start();
        QTRY_VERIFY(running->job()->isRunning());
        QCOMPARE(session.runningJobs(), QList<MirrorJob *>{running->job()});

        QString why;
        QCOMPARE(session.runningDuplicate(spec, path, nullptr, &why), running);
        QCOMPARE(why, QStringLiteral("the same profile file"));
        // Another file, but the same group on the same cluster by another spelling.
        MirrorJobSpec sameGroup = unreachable(QStringLiteral("orders"), QStringLiteral("PLAINTEXT://127.0.0.1:1"));
        QCOMPARE(session.runningDuplicate(sameGroup, QStringLiteral("/elsewhere.mirrorjob"), nullptr, &why), running);
        QVERIFY2(why.contains(consumerGroupId(spec)), qPrintable(why));
        // Another group, or the job itself: none.
        QVERIFY(!session.runningDuplicate(unreachable(QStringLiteral("payments")), {}));
        QVERIFY(!session.runningDuplicate(spec, path, running->job()));
        QVERIFY(session.resetBlockedReason(spec).contains(QStringLiteral("orders")));

        running->job()->stop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QCOMPARE(finished.at(0).at(1).toBool(), true);
        QCOMPARE(session.listModel()->state(0), JobState::Stopped);
        QVERIFY(!session.runningDuplicate(spec, path));
        QVERIFY(session.resetBlockedReason(spec).isEmpty());
    }

    void aHeadlessHistoryJudgesAsTheWindowsDoes()
    {
        // `run` keeps a short history: the same status, a fraction of the memory.
        MonitoredJob window;
        MonitoredJob headless(MonitoredJob::statusOnlyConfig());
        for (int i = 0; i < 400; ++i) {
            MetricsSnapshot s = tick(i);
            for (int p = 0; p < 200; ++p) {
                if (p == 3)
                    continue; // tick's own
                PartitionMetrics m = s.partitions.first();
                m.partition = p;
                s.partitions.append(m);
            }
            window.addSnapshot(s);
            headless.addSnapshot(s);
            QCOMPARE(headless.status(), window.status());
        }
        QCOMPARE(headless.status(), JobLagStatus::Warn);
        QCOMPARE(headless.store().latest().totalLag, window.store().latest().totalLag);
        QVERIFY2(headless.store().memoryBytes() * 20 < window.store().memoryBytes(),
                 qPrintable(
                     QStringLiteral("%1 vs %2").arg(headless.store().memoryBytes()).arg(window.store().memoryBytes())));
    }

    void retentionRiskIsAnError()
    {
        // Records about to be removed by the source's retention: ERR (so the notifier
        // tells), with the partition, offset, age and retention in the reason.
        MonitoredJob job;
        QSignalSpy status(&job, &MonitoredJob::statusChanged);
        job.addSnapshot(tick(0, true));
        QCOMPARE(job.status(), JobLagStatus::Ok);
        MetricsSnapshot s = tick(1);
        s.partitions[0].nextTimestampMs = s.time.toMSecsSinceEpoch() - 3500000;
        s.partitions[0].lagMs = 3500000;
        s.partitions[0].retentionMs = 3600000;
        s.partitions[0].retentionAtRisk = true;
        s.partitions[0].timestampType = QStringLiteral("CreateTime");
        s.maxLagMs = 3500000;
        s.retentionAtRisk = 1;
        job.addSnapshot(s);
        QCOMPARE(job.status(), JobLagStatus::Err);
        QCOMPARE(status.size(), 1);
        const QString reason = job.lagReason();
        QVERIFY2(
            reason.contains(QStringLiteral("orders-3 at offset %1 (CreateTime 58 min 20 s old, retention 1 h 0 min)")
                                .arg(s.partitions[0].nextOffset)),
            qPrintable(reason));
        QVERIFY2(reason.contains(QStringLiteral("58 min 20 s behind")), qPrintable(reason));
        // Caught up again: back to what the lag rules say.
        job.addSnapshot(tick(2, true));
        QCOMPARE(job.status(), JobLagStatus::Ok);
    }
};

QTEST_GUILESS_MAIN(TstJobSession)
#include "tst_jobsession.moc"
