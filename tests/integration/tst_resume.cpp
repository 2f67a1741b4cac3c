// "Progress always wins", end to end with the real executable and the real
// brokers: a run of a profile resumes where the job's progress stands, whatever
// its `start` says; `start` only places partitions without progress.
//  - earliest, `run --until-caught-up` twice with new records between: the
//    second run copies the new records only;
//  - latest, stopped with SIGTERM, records written while it is down: the next
//    run copies them (and nothing from before the first start);
//  - a start timestamp, run twice: no re-copy from the timestamp, no loss;
//  - kill -9 mid-copy, restart: no loss, duplicates bounded by the commit
//    interval times the measured rate;
//  - at-least-once, then exactly-once, then at-least-once again, new records
//    before each run: each run copies only the new records (progress moves
//    between the source group and the target's transactional progress).
// Kafka's VerifiableProducer writes the source (unique values), GetOffsetShell
// counts and ConsoleConsumer reads the target: independent of MirrorDesk.
#include "headless_support.h"

#include <QDateTime>
#include <QTemporaryDir>

using namespace md;
using namespace md::test;

class TestResume final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString profile(const QString &topic, const QString &fileSuffix, ProfileSpec spec)
    {
        spec.name = topic;
        spec.topic = topic;
        return writeProfile(m_dir.path(), topic + fileSuffix + QStringLiteral(".mirrorjob"), spec);
    }

    // `mirrordesk run PROFILE --until-caught-up`, which must exit 0 after a clean stop.
    static bool runUntilCaughtUp(const QString &profilePath, ExeResult *result, int timeoutMs = 180000)
    {
        *result = runMirrordesk({QStringLiteral("run"), profilePath, QStringLiteral("--until-caught-up")}, timeoutMs);
        return result->exitCode == 0 && result->out.contains(QLatin1String("stopped cleanly"));
    }

    // "stopped cleanly: N records copied" -> N (-1: not found).
    static qint64 copiedByRun(const QString &out)
    {
        static const QRegularExpression re(QStringLiteral("stopped cleanly: (\\d+) records copied"));
        const QRegularExpressionMatch m = re.match(out);
        return m.hasMatch() ? m.captured(1).toLongLong() : -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        MD_REQUIRE_KAFKA_TOOLS();
        QVERIFY(QFile::exists(mirrordeskExe()));
        QVERIFY(m_dir.isValid());
    }

    // 1. earliest: the second run copies the 5,000 new records and nothing else.
    void earliestRunTwiceCopiesOnlyNewRecords()
    {
        const QString topic = uniqueName(QStringLiteral("resume-earliest"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 3, {}, &error), qPrintable(error));
        const auto first = verifiableProduce(sourceBootstrap(), topic, 5000, 1, &error);
        QVERIFY2(first, qPrintable(error));
        const QString path = profile(topic, {}, {});

        ExeResult run;
        QVERIFY2(runUntilCaughtUp(path, &run), qPrintable(run.out + run.err));
        QCOMPARE(copiedByRun(run.out), qint64(5000));

        const auto second = verifiableProduce(sourceBootstrap(), topic, 5000, 2, &error);
        QVERIFY2(second, qPrintable(error));
        QVERIFY2(runUntilCaughtUp(path, &run), qPrintable(run.out + run.err));
        const qint64 secondCopied = copiedByRun(run.out);

        const auto sourceEnds = endOffsets(sourceBootstrap(), topic, &error);
        QVERIFY2(sourceEnds, qPrintable(error));
        QCOMPARE(sumOf(*sourceEnds), qint64(10000));
        const auto target = readTarget(QStringLiteral("src.") + topic, *first + *second, &error);
        QVERIFY2(target, qPrintable(error));
        qInfo("earliest, run twice: second run copied %lld; %s", secondCopied, qPrintable(target->summary()));
        QVERIFY2(target->missing.isEmpty(), qPrintable(target->summary()));
        QVERIFY2(target->records == sumOf(*sourceEnds), qPrintable(target->summary() + run.out));
        QCOMPARE(target->duplicates, qint64(0));
        QCOMPARE(secondCopied, qint64(5000));
    }

    // 2. latest: what was written while the job was down is copied by the next run.
    void latestResumesWhereItStopped()
    {
        const QString topic = uniqueName(QStringLiteral("resume-latest"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 3, {}, &error), qPrintable(error));
        const auto before = verifiableProduce(sourceBootstrap(), topic, 1000, 1, &error);
        QVERIFY2(before, qPrintable(error));
        ProfileSpec spec;
        spec.start = QStringLiteral("\"latest\"");
        const QString path = profile(topic, {}, spec);

        // First run: continuous, nothing new arrives; SIGTERM once caught up.
        {
            MirrorRun run(QStringLiteral("first run"));
            QVERIFY(run.start({QStringLiteral("run"), path}));
            QVERIFY2(MirrorRun::waitUntil([&] { return run.caughtUp() || run.finished(); }, 120000) && run.caughtUp(),
                     qPrintable(run.transcript()));
            QVERIFY2(run.stop(), qPrintable(run.transcript()));
            QVERIFY2(run.outputContains(QStringLiteral("stopped cleanly: 0 records copied")),
                     qPrintable(run.transcript()));
        }
        // Written while no instance runs.
        const auto whileDown = verifiableProduce(sourceBootstrap(), topic, 2000, 2, &error);
        QVERIFY2(whileDown, qPrintable(error));

        ExeResult run;
        QVERIFY2(runUntilCaughtUp(path, &run), qPrintable(run.out + run.err));

        const auto target = readTarget(QStringLiteral("src.") + topic, *whileDown, &error);
        QVERIFY2(target, qPrintable(error));
        qInfo("latest, SIGTERM, 2000 written while down, run again: %s", qPrintable(target->summary()));
        QVERIFY2(target->missing.isEmpty(), qPrintable(target->summary() + QLatin1Char('\n') + run.out + run.err));
        QVERIFY2(target->unexpected.isEmpty(), qPrintable(target->summary())); // nothing from before the first start
        QCOMPARE(target->records, qint64(2000));
    }

    // 3. A start timestamp places a partition once; the next run resumes from progress.
    void timestampRestartNeitherRecopiesNorLoses()
    {
        const QString topic = uniqueName(QStringLiteral("resume-time"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        const auto old = verifiableProduce(sourceBootstrap(), topic, 1000, 1, &error);
        QVERIFY2(old, qPrintable(error));
        // A whole second (the profile's precision) safely between the two batches.
        const qint64 startMs = (QDateTime::currentMSecsSinceEpoch() / 1000 + 2) * 1000;
        QVERIFY(MirrorRun::waitUntil([&] { return QDateTime::currentMSecsSinceEpoch() > startMs + 500; }, 5000));
        const auto fresh = verifiableProduce(sourceBootstrap(), topic, 1000, 2, &error);
        QVERIFY2(fresh, qPrintable(error));

        ProfileSpec spec;
        spec.start = QStringLiteral("{\"timestamp\": \"%1\"}")
                         .arg(QDateTime::fromMSecsSinceEpoch(startMs, Qt::UTC).toString(Qt::ISODate));
        const QString path = profile(topic, {}, spec);
        ExeResult run;
        QVERIFY2(runUntilCaughtUp(path, &run), qPrintable(run.out + run.err));
        QCOMPARE(copiedByRun(run.out), qint64(1000));

        const auto later = verifiableProduce(sourceBootstrap(), topic, 1000, 3, &error);
        QVERIFY2(later, qPrintable(error));
        QVERIFY2(runUntilCaughtUp(path, &run), qPrintable(run.out + run.err));
        const qint64 secondCopied = copiedByRun(run.out);

        const auto target = readTarget(QStringLiteral("src.") + topic, *fresh + *later, &error);
        QVERIFY2(target, qPrintable(error));
        qInfo("timestamp start, run twice: second run copied %lld; %s", secondCopied, qPrintable(target->summary()));
        QVERIFY2(target->missing.isEmpty(), qPrintable(target->summary()));
        QVERIFY2(target->unexpected.isEmpty(), qPrintable(target->summary())); // nothing before the timestamp
        QCOMPARE(target->duplicates, qint64(0));
        QCOMPARE(target->records, qint64(2000));
    }

    // 3b. Switching the delivery guarantee keeps progress both ways.
    void switchingDeliveryKeepsProgress()
    {
        const QString topic = uniqueName(QStringLiteral("resume-switch"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 3, {}, &error), qPrintable(error));
        QStringList all;
        ProfileSpec alo, eos;
        eos.extra = QStringLiteral(",\n \"delivery\": \"exactly-once\"");
        const QList<std::pair<QString, ProfileSpec>> runs{
            {QStringLiteral("-alo"), alo}, {QStringLiteral("-eos"), eos}, {QStringLiteral("-alo2"), alo}};
        int batch = 1;
        for (const auto &[suffix, spec] : runs) {
            const auto fresh = verifiableProduce(sourceBootstrap(), topic, 2000, batch++, &error);
            QVERIFY2(fresh, qPrintable(error));
            all += *fresh;
            const QString path = profile(topic, suffix, spec);
            ExeResult run;
            QVERIFY2(runUntilCaughtUp(path, &run), qPrintable(run.out + run.err));
            // Only what is new: a run that ignored the other mode's progress copies everything again.
            QVERIFY2(copiedByRun(run.out) == 2000, qPrintable(suffix + QLatin1Char('\n') + run.out + run.err));
        }
        const auto target = readTarget(QStringLiteral("src.") + topic, all, &error, true);
        QVERIFY2(target, qPrintable(error));
        qInfo("at-least-once, exactly-once, at-least-once: %s", qPrintable(target->summary()));
        QVERIFY2(target->missing.isEmpty(), qPrintable(target->summary()));
        QCOMPARE(target->duplicates, qint64(0));
        QCOMPARE(target->records, qint64(6000));
    }

    // 4. kill -9 mid-copy, restart with earliest: no loss, duplicates bounded.
    void killedRunResumesWithBoundedDuplicates()
    {
        const QString topic = uniqueName(QStringLiteral("resume-kill"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 4, {}, &error), qPrintable(error));
        const int n = 12000;
        const auto records = verifiableProduce(sourceBootstrap(), topic, n, 1, &error);
        QVERIFY2(records, qPrintable(error));

        // Records of ~9 bytes (key + value): 6,000 B/s is ~650 records/s, ~18 s for all.
        ProfileSpec slow;
        slow.throttleBytesPerSecond = 6000;
        MirrorRun first(QStringLiteral("throttled run"));
        QVERIFY(first.start({QStringLiteral("run"), profile(topic, QStringLiteral("-slow"), slow)}));
        QVERIFY2(MirrorRun::waitUntil([&] { return first.copied() >= n * 2 / 5 || first.finished(); }, 120000) &&
                     first.running(),
                 qPrintable(first.transcript()));
        const double rate = first.recentRate(3);
        const qint64 copiedBeforeKill = first.copied();
        QVERIFY2(first.crash(), qPrintable(first.transcript()));
        QVERIFY2(copiedBeforeKill < n, "the kill came too late to test anything");

        // The same job (same name, same group), unthrottled, start still earliest.
        ExeResult run;
        QVERIFY2(runUntilCaughtUp(profile(topic, QStringLiteral("-fast"), {}), &run), qPrintable(run.out + run.err));

        const auto target = readTarget(QStringLiteral("src.") + topic, *records, &error);
        QVERIFY2(target, qPrintable(error));
        const qint64 duplicates = target->records - n;
        const qint64 bound = duplicateBound(rate);
        qInfo("kill -9 after %lld of %d copied at %.0f records/s; the restart copied %lld: %lld duplicates, "
              "bound %lld = (%.0f s commit interval + %.0f s margin) x rate; %s",
              copiedBeforeKill, n, rate, copiedByRun(run.out), duplicates, bound, kCommitIntervalS, kCommitMarginS,
              qPrintable(target->summary()));
        QVERIFY2(target->missing.isEmpty(), qPrintable(target->summary()));
        QVERIFY2(rate > 0, qPrintable(first.transcript()));
        QVERIFY2(duplicates <= bound,
                 qPrintable(
                     QStringLiteral("%1 duplicates > bound %2; %3").arg(duplicates).arg(bound).arg(target->summary())));
    }
};

QTEST_GUILESS_MAIN(TestResume)
#include "tst_resume.moc"
