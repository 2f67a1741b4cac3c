// The mirror engine under change and failure, on real brokers: a topic
// created while running is picked up, a job killed without a clean stop
// resumes from its progress (start still earliest) without loss and with
// bounded duplicates, a target broker killed with -9 and restarted loses
// nothing, and the throttle bounds the rate. Broker restarts (issue #18): a
// bounce of the source longer than the group session is recovered from by
// itself, and after a target kill the job's commits go on and a clean stop
// commits exactly what was copied (read back with a plain OffsetFetch).

#include "duplicate_bound.h"
#include "failover_support.h"
#include "tst_mirror_support.h"

using namespace md;
using namespace md::test;

class TstMirrorFaults final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target")); }

    void discoversNewTopicWhileRunning()
    {
        const QString base = uniqueName(QStringLiteral("disc"));
        const QString first = base + QStringLiteral("-a");
        const QString late = base + QStringLiteral("-late");
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), first, 1, {}, &error), qPrintable(error));
        MirrorJobSpec spec = harnessSpec(base, {QRegularExpression::escape(base) + QStringLiteral("-.*")});
        spec.stop = StopCondition::RunForever;
        MirrorJob job(spec);
        QStringList events;
        connect(&job, &MirrorJob::eventRaised, this, [&](const JobEvent &e) { events << e.text; });
        job.start();
        QTRY_COMPARE_WITH_TIMEOUT(job.state(), JobState::Running, 30000);
        QVERIFY2(createTopic(sourceBootstrap(), late, 3, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), late, numbered(late, 30, 3), &error), qPrintable(error));
        QElapsedTimer t;
        t.start();
        QTRY_VERIFY2_WITH_TIMEOUT(consumeAll(targetBootstrap(), late).value_or(QList<TestRecord>()).size() == 30,
                                  qPrintable(joined(events)), 30000);
        qInfo("new topic mirrored %lld ms after its records were written", t.elapsed());
        QCOMPARE(partitionCount(targetBootstrap(), late), 3);
        job.stop();
        QVERIFY(job.waitForFinished(60000));
    }

    void resumesAfterCrashWithoutLoss()
    {
        const QString topic = uniqueName(QStringLiteral("crash"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        const QList<TestRecord> records = numbered(topic, 1000, 2, 1000);
        QVERIFY2(produce(sourceBootstrap(), topic, records, &error), qPrintable(error));

        MirrorJobSpec spec = harnessSpec(topic, {QRegularExpression::escape(topic)});
        spec.stop = StopCondition::RunForever;
        spec.throttleBytesPerSecond = 100 * 1000; // about 100 records/s: the crash comes mid-copy
        double rate = 0;
        qint64 copiedBeforeCrash = 0;
        {
            MirrorJob first(spec);
            QList<MetricsSnapshot> snapshots;
            connect(&first, &MirrorJob::metricsSampled, this, [&](const MetricsSnapshot &s) { snapshots << s; });
            first.start();
            // Half copied: several periodic commits behind it.
            QTRY_VERIFY_WITH_TIMEOUT(!snapshots.isEmpty() && snapshots.last().recordsProduced >= 500, 60000);
            first.abort(); // no flush, no commit, no leave-group
            QVERIFY(first.waitForFinished(30000));
            // The copy rate over the last ~2 s before the crash.
            const MetricsSnapshot &last = snapshots.last();
            for (qsizetype i = snapshots.size() - 1; i >= 0; --i) {
                if (last.elapsedMs - snapshots[i].elapsedMs >= 2000 || i == 0) {
                    const double dt = double(last.elapsedMs - snapshots[i].elapsedMs) / 1000.0;
                    if (dt > 0)
                        rate = double(last.recordsProduced - snapshots[i].recordsProduced) / dt;
                    break;
                }
            }
            copiedBeforeCrash = last.recordsProduced;
        }
        const auto partial = consumeAll(targetBootstrap(), topic, &error);
        QVERIFY2(partial, qPrintable(error));
        QVERIFY2(partial->size() < records.size(), "the crash came too late to test anything");

        // Started again as the profile says (earliest), not from "committed":
        // progress must win over `start` by itself.
        spec.throttleBytesPerSecond = 0;
        spec.start = StartPosition::Earliest;
        spec.stop = StopCondition::CaughtUp;
        MirrorJob second(spec);
        const JobOutcome out = runJob(second, 120000);
        QVERIFY2(out.finished && out.ok, qPrintable(out.error + QStringLiteral("\n  ") + joined(out.events)));
        const auto copied = consumeAll(targetBootstrap(), topic, &error);
        QVERIFY2(copied, qPrintable(error));
        const QSet<QByteArray> got = valueSet(*copied);
        for (const TestRecord &r : records)
            QVERIFY2(got.contains(*r.value), r.value->left(40).constData());
        const qint64 duplicates = qint64(copied->size()) - qint64(records.size());
        const qint64 bound = duplicateBound(rate);
        qInfo("after the crash (%lld copied at %.0f records/s): %lld records on the target for %lld on the source, "
              "%lld duplicates, bound %lld",
              copiedBeforeCrash, rate, qint64(copied->size()), qint64(records.size()), duplicates, bound);
        QVERIFY2(rate > 0, "no copy rate measured before the crash");
        QVERIFY2(duplicates <= bound, qPrintable(QStringLiteral("%1 duplicates > bound %2 (%3 copied before the crash)")
                                                     .arg(duplicates)
                                                     .arg(bound)
                                                     .arg(copiedBeforeCrash)));
    }

    void survivesTargetBrokerKill()
    {
        const QString topic = uniqueName(QStringLiteral("tkill"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, numbered(topic + QStringLiteral("-a"), 500, 2), &error),
                 qPrintable(error));
        MirrorJobSpec spec = harnessSpec(topic, {QRegularExpression::escape(topic)});
        spec.stop = StopCondition::RunForever;
        MirrorJob job(spec);
        QStringList events;
        connect(&job, &MirrorJob::eventRaised, this, [&](const JobEvent &e) { events << e.text; });
        bool caughtUp = false;
        connect(&job, &MirrorJob::metricsSampled, this, [&](const MetricsSnapshot &s) { caughtUp = s.caughtUp; });
        job.start();
        QTRY_VERIFY2_WITH_TIMEOUT(caughtUp, qPrintable(joined(events)), 60000);

        QVERIFY2(killBroker(QStringLiteral("target"), &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, numbered(topic + QStringLiteral("-b"), 500, 2), &error),
                 qPrintable(error));
        QTest::qWait(4000);
        QVERIFY(job.isRunning());
        QVERIFY2(restartBroker(QStringLiteral("target"), &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, numbered(topic + QStringLiteral("-c"), 500, 2), &error),
                 qPrintable(error));

        const auto source = consumeAll(sourceBootstrap(), topic, &error);
        QVERIFY2(source, qPrintable(error));
        const QSet<QByteArray> expected = valueSet(*source);
        QCOMPARE(expected.size(), 1500);
        QString seen;
        QTRY_VERIFY2_WITH_TIMEOUT(targetHolds(topic, expected, &seen),
                                  qPrintable(seen + QStringLiteral("; events:\n  ") + joined(events)), 120000);
        QVERIFY(job.isRunning());
        bool reported = false;
        for (const QString &e : events)
            reported =
                reported || (e.contains(QLatin1String("target kafka")) && e.contains(QLatin1String("unreachable")));
        QVERIFY2(reported, qPrintable(joined(events)));
        job.stop();
        QVERIFY(job.waitForFinished(60000));
    }

    // The source broker stops cleanly and starts again, for longer than the
    // group session (6 s, harnessSpec): the group forgets the member, which
    // must join again, get every partition back and copy on by itself.
    void recoversAfterSourceBrokerRestart()
    {
        const QString topic = uniqueName(QStringLiteral("sbounce"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 3, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, numbered(topic + QStringLiteral("-a"), 300, 3), &error),
                 qPrintable(error));
        MirrorJobSpec spec = harnessSpec(topic, {QRegularExpression::escape(topic)});
        spec.stop = StopCondition::RunForever;
        MirrorJob job(spec);
        QStringList events;
        connect(&job, &MirrorJob::eventRaised, this, [&](const JobEvent &e) { events << e.text; });
        MetricsSnapshot last;
        connect(&job, &MirrorJob::metricsSampled, this, [&](const MetricsSnapshot &s) { last = s; });
        job.start();
        QTRY_VERIFY2_WITH_TIMEOUT(last.caughtUp && last.partitions.size() == 3, qPrintable(joined(events)), 60000);

        QVERIFY2(restartBroker(QStringLiteral("source"), &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, numbered(topic + QStringLiteral("-b"), 300, 3), &error),
                 qPrintable(error));
        const auto source = consumeAll(sourceBootstrap(), topic, &error);
        QVERIFY2(source && source->size() == 600, qPrintable(error));
        const QSet<QByteArray> expected = valueSet(*source);
        QString seen;
        QTRY_VERIFY2_WITH_TIMEOUT(targetHolds(topic, expected, &seen),
                                  qPrintable(QStringLiteral("%1; %2 partitions assigned; events:\n  %3")
                                                 .arg(seen)
                                                 .arg(last.partitions.size())
                                                 .arg(joined(events))),
                                  90000);
        QTRY_VERIFY2_WITH_TIMEOUT(last.caughtUp && last.partitions.size() == 3, qPrintable(joined(events)), 30000);
        QVERIFY(job.isRunning());
        job.stop();
        QVERIFY(job.waitForFinished(60000));
    }

    // After the target broker is killed (-9) and restarted, the job's
    // progress commits advance again as the target acknowledges; a clean stop
    // mid-copy commits exactly what was copied, so the next run copies the
    // rest and nothing twice.
    void commitsResumeAfterTargetKill()
    {
        const QString topic = uniqueName(QStringLiteral("tcommit"));
        const int partitions = 2;
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, partitions, {}, &error), qPrintable(error));
        QVERIFY2(
            produce(sourceBootstrap(), topic, numbered(topic + QStringLiteral("-a"), 400, partitions, 200), &error),
            qPrintable(error));
        MirrorJobSpec spec = harnessSpec(topic, {QRegularExpression::escape(topic)});
        spec.stop = StopCondition::RunForever;
        const auto committedSum = [&]() -> qint64 {
            QString e;
            const auto c = committedOffsets(sourceBootstrap(), spec.groupId, topic, partitions, &e);
            if (!c)
                return -1;
            qint64 sum = 0;
            for (qint64 o : *c)
                sum += std::max<qint64>(0, o);
            return sum;
        };
        const auto endSum = [&]() -> qint64 {
            const auto marks = watermarks(sourceBootstrap(), topic);
            qint64 sum = 0;
            for (const auto &m : marks.value_or(Watermarks()))
                sum += m.second;
            return marks ? sum : -1;
        };
        QStringList events;
        {
            MirrorJob job(spec);
            connect(&job, &MirrorJob::eventRaised, this, [&](const JobEvent &e) { events << e.text; });
            job.start();
            QTRY_VERIFY2_WITH_TIMEOUT(committedSum() == 400, qPrintable(joined(events)), 60000);

            QVERIFY2(killBroker(QStringLiteral("target"), &error), qPrintable(error));
            QVERIFY2(
                produce(sourceBootstrap(), topic, numbered(topic + QStringLiteral("-b"), 400, partitions, 200), &error),
                qPrintable(error));
            QTest::qWait(3000); // records and map records pile up for the dead target
            QVERIFY2(restartBroker(QStringLiteral("target"), &error), qPrintable(error));
            QVERIFY2(
                produce(sourceBootstrap(), topic, numbered(topic + QStringLiteral("-c"), 400, partitions, 200), &error),
                qPrintable(error));
            // Commits go on without a stop: everything is committed while it runs.
            QTRY_VERIFY2_WITH_TIMEOUT(committedSum() == 1200, qPrintable(joined(events)), 60000);
            QVERIFY(job.isRunning());

            // Stopped mid-copy, about 1,000 records/s: up to a second of them
            // acknowledged since the last periodic commit, which only the
            // stop's own commit covers.
            job.setThrottle(200 * 1000);
            QVERIFY2(produce(sourceBootstrap(), topic, numbered(topic + QStringLiteral("-d"), 6000, partitions, 200),
                             &error),
                     qPrintable(error));
            QTest::qWait(2500);
            job.stop();
            QVERIFY(job.waitForFinished(60000));
        }
        const qint64 end = endSum();
        const qint64 committed = committedSum();
        const auto onTarget = consumeAll(targetBootstrap(), topic, &error);
        QVERIFY2(onTarget, qPrintable(error));
        const qint64 distinct = valueSet(*onTarget).size();
        qInfo("after the clean stop: %lld of %lld committed, %lld distinct records on the target (%lld in all)",
              committed, end, distinct, qint64(onTarget->size()));
        QCOMPARE(end, qint64(7200));
        QVERIFY2(committed > 1200 && committed < end, qPrintable(QString::number(committed)));
        // Copied in order from offset 0: what the target holds is exactly what is committed.
        QCOMPARE(distinct, committed);

        spec.stop = StopCondition::CaughtUp;
        MirrorJob rest(spec);
        const JobOutcome out = runJob(rest, 120000);
        QVERIFY2(out.finished && out.ok, qPrintable(out.error + QStringLiteral("\n  ") + joined(out.events)));
        QVERIFY(!out.snapshots.isEmpty());
        QCOMPARE(out.snapshots.last().recordsProduced, end - committed);
        const auto all = consumeAll(targetBootstrap(), topic, &error);
        QVERIFY2(all, qPrintable(error));
        QCOMPARE(valueSet(*all).size(), qsizetype(end));
        QCOMPARE(all->size(), onTarget->size() + qsizetype(end - committed));
    }

    void throughput()
    {
        // Not a benchmark (2 shared cores, brokers on the same machine): a
        // sanity figure for the report and a check that a larger copy is whole.
        const QString topic = uniqueName(QStringLiteral("tput"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 3, {}, &error), qPrintable(error));
        const int n = 200000;
        ProduceOptions po;
        po.compression = QStringLiteral("lz4");
        po.timeoutMs = 120000;
        QVERIFY2(produce(sourceBootstrap(), topic, numbered(topic, n, 3, 100), &error, po), qPrintable(error));
        MirrorJob job(harnessSpec(topic, {QRegularExpression::escape(topic)}));
        const JobOutcome out = runJob(job, 300000);
        QVERIFY2(out.finished && out.ok, qPrintable(out.error + QStringLiteral("\n  ") + joined(out.events)));
        qint64 firstMs = -1, lastMs = -1;
        for (const MetricsSnapshot &s : out.snapshots) {
            if (s.recordsProduced > 0 && firstMs < 0)
                firstMs = s.elapsedMs;
            if (s.recordsProduced < n)
                lastMs = s.elapsedMs;
        }
        QCOMPARE(out.snapshots.last().recordsProduced, qint64(n));
        const double seconds = std::max(0.25, double(lastMs - firstMs + 250) / 1000.0);
        qInfo("mirrored %d records of ~100 B in %.2f s: %.0f records/s (job total %lld ms incl. group join)", n,
              seconds, n / seconds, out.elapsedMs);
        const auto marks = watermarks(targetBootstrap(), topic, &error);
        QVERIFY2(marks, qPrintable(error));
        QCOMPARE(totalMessages(*marks), qint64(n));
    }

    void throttleBoundsTheRate()
    {
        const QString topic = uniqueName(QStringLiteral("thr"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        const int n = 300, size = 10 * 1000; // 3 MB
        QList<TestRecord> records = numbered(topic, n, 2, size);
        // A record held back by the throttle waits in line with its headers
        // taken off and put back: they must arrive all the same. (librdkafka
        // would re-read them from the record if they were not put back, so a
        // missing put-back shows only as a leak: the asan preset's job.)
        for (int i = 0; i < n; ++i)
            if (i % 3 != 0)
                records[i].headers = {{QStringLiteral("seq"), QByteArray::number(i)},
                                      {QStringLiteral("seq"), std::nullopt}};
        QVERIFY2(produce(sourceBootstrap(), topic, records, &error), qPrintable(error));
        MirrorJobSpec spec = harnessSpec(topic, {QRegularExpression::escape(topic)});
        spec.throttleBytesPerSecond = 1000 * 1000; // 1 MB/s: about 3 s
        MirrorJob job(spec);
        JobOutcome out = runJob(job, 120000);
        QVERIFY2(out.finished && out.ok, qPrintable(out.error + QStringLiteral("\n  ") + joined(out.events)));
        const auto expected = consumeAll(sourceBootstrap(), topic, &error);
        QVERIFY2(expected, qPrintable(error));
        const auto copied = consumeAll(targetBootstrap(), topic, &error);
        QVERIFY2(copied, qPrintable(error));
        QCOMPARE(copied->size(), n);
        QVERIFY2(sameRecords(*expected, *copied, &error), qPrintable(error));
        // Time from the first to the last record acknowledged, from the snapshots.
        qint64 firstMs = -1, lastMs = -1;
        double peak = 0;
        for (const MetricsSnapshot &s : out.snapshots) {
            if (s.recordsProduced > 0 && firstMs < 0)
                firstMs = s.elapsedMs;
            if (s.recordsProduced < n)
                lastMs = s.elapsedMs;
            peak = std::max(peak, s.produceBytesPerSec);
            QCOMPARE(s.throttleBytesPerSecond, spec.throttleBytesPerSecond);
        }
        const double seconds = double(lastMs - firstMs) / 1000.0;
        qInfo("3 MB at a 1 MB/s throttle took about %.1f s (peak sample %.0f B/s)", seconds, peak);
        QVERIFY2(seconds >= 1.8, qPrintable(QString::number(seconds)));

        // Live change: remove the throttle and the rest goes at full speed.
        const QString topic2 = uniqueName(QStringLiteral("thr2"));
        QVERIFY2(createTopic(sourceBootstrap(), topic2, 1, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic2, numbered(topic2, n, 1, size), &error), qPrintable(error));
        MirrorJobSpec spec2 = harnessSpec(topic2, {QRegularExpression::escape(topic2)});
        spec2.throttleBytesPerSecond = 20 * 1000; // would take 150 s
        MirrorJob job2(spec2);
        QTimer::singleShot(3000, &job2, [&] { job2.setThrottle(0); });
        out = runJob(job2, 60000);
        QVERIFY2(out.finished && out.ok, qPrintable(out.error + QStringLiteral("\n  ") + joined(out.events)));
        QVERIFY2(out.elapsedMs < 40000, qPrintable(QString::number(out.elapsedMs)));
    }
};

QTEST_GUILESS_MAIN(TstMirrorFaults)
#include "tst_mirror_faults.moc"
