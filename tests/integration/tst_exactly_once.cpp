// Exactly-once mirroring (`"delivery": "exactly-once"`), end to end with the
// real executable on real brokers, judged by Kafka's own ConsoleConsumer
// reading the target read_committed, record by record against the source:
//  1. kill -9 of the app twice mid-copy, the target broker killed -9 once and
//     the source broker bounced: each source record once, in order per
//     partition; `verify` reports no duplicate; progress committed on the
//     target is used (a restart does not copy from the start again);
//  2. two instances of the job, one killed -9 mid-copy: the other takes its
//     partitions over (fencing the dead one), no duplicate, no loss;
//  3. a source with aborted transactions: the target holds exactly the
//     committed records, and never an aborted one (not even uncommitted);
//  4. a compacted source with gaps: the target holds exactly the surviving
//     records once, and the offset map translates across every gap exactly.
// This file kills and restarts the brokers of the state dir: like every
// integration test it holds the CTest resource lock `kafka`, so nothing else
// runs against them meanwhile.
//
// Env MIRRORDESK_EOS_TEST_DELIVERY=at-least-once runs the same scenarios with
// at-least-once delivery: the checks must then fail wherever a replay left a
// duplicate (a check of the checks). Env MIRRORDESK_EOS_TEST_NAMING=identity
// mirrors to topics of the same name instead of MM2's default prefix.
#include "eos_support.h"

#include "engine/offsetmap/OffsetMap.h"

#include <QTemporaryDir>

#include <memory>
#include <vector>

using namespace md;
using namespace md::test;

namespace {

QString deliveryUnderTest()
{
    const QString d = qEnvironmentVariable("MIRRORDESK_EOS_TEST_DELIVERY");
    return d.isEmpty() ? QStringLiteral("exactly-once") : d;
}

// QVERIFY2 cuts its message at ~1 KiB: when a test failed, the runs'
// transcripts are logged whole, one message each, as it ends.
class TranscriptsOnFailure final {
public:
    explicit TranscriptsOnFailure(const std::vector<std::unique_ptr<MirrorRun>> &runs) : m_runs(runs) {}
    ~TranscriptsOnFailure()
    {
        if (QTest::currentTestFailed())
            for (const auto &r : m_runs)
                qInfo("%s", qPrintable(r->transcript(12000)));
    }
    TranscriptsOnFailure(const TranscriptsOnFailure &) = delete;
    TranscriptsOnFailure &operator=(const TranscriptsOnFailure &) = delete;

private:
    const std::vector<std::unique_ptr<MirrorRun>> &m_runs;
};

// A `run --until-caught-up` that must exit 0; otherwise its events and
// progress lines are logged whole (a QVERIFY2 message would cut them).
bool ranToTheEnd(const ExeResult &r)
{
    if (r.exitCode == 0)
        return true;
    qInfo("run exit %d, stderr:\n%s\n--- stdout:\n%s", r.exitCode, qPrintable(r.err.right(8000)),
          qPrintable(r.out.right(4000)));
    return false;
}

// "stopped cleanly: N records copied" -> N (-1: not found).
qint64 copiedByRun(const QString &out)
{
    static const QRegularExpression re(QStringLiteral("stopped cleanly: (\\d+) records copied"));
    const QRegularExpressionMatch m = re.match(out);
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

// The job's progress on the target (its group there, kept under the target
// topic's partitions: the target's coordinator refuses offsets of topics it
// does not have) must be the source's end: where a restart resumes from.
QString targetProgressProblem(const QString &topic, const QString &targetTopic, int partitions)
{
    QString error;
    const auto ends = endOffsets(sourceBootstrap(), topic, &error);
    if (!ends)
        return error;
    const auto committed = committedOffsets(targetBootstrap(), eosGroupFor(topic), targetTopic, partitions, &error);
    if (!committed)
        return error;
    if (*committed != *ends) {
        QStringList parts;
        for (int p = 0; p < partitions; ++p)
            parts << QStringLiteral("%1: %2 of %3").arg(p).arg(committed->value(p)).arg(ends->value(p));
        return QStringLiteral("group %1 on the target has committed %2 for %3 (partition: committed of source end)")
            .arg(eosGroupFor(topic), parts.join(QStringLiteral(", ")), targetTopic);
    }
    return {};
}

} // namespace

class TestExactlyOnce final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_delivery;
    bool m_identity = false;

    bool exactlyOnce() const { return m_delivery == QLatin1String("exactly-once"); }
    QString targetTopicFor(const QString &topic) const { return m_identity ? topic : QStringLiteral("src.") + topic; }
    QString profileFor(const QString &topic, qint64 throttle) const
    {
        return writeEosProfile(m_dir.path(), topic, throttle, m_delivery, m_identity);
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        MD_REQUIRE_KAFKA_TOOLS();
        QVERIFY(QFile::exists(mirrordeskExe()));
        QVERIFY(m_dir.isValid());
        m_delivery = deliveryUnderTest();
        m_identity = qEnvironmentVariable("MIRRORDESK_EOS_TEST_NAMING") == QLatin1String("identity");
        qInfo("delivery under test: %s, naming %s", qPrintable(m_delivery), m_identity ? "identity" : "prefix");
    }

    // A test that failed with a broker down must not leave the next one without it.
    void cleanup()
    {
        for (const QString &name : {QStringLiteral("source"), QStringLiteral("target")}) {
            QString error;
            if (!probe(bootstrap(name), &error, {}, 5000) && !restartBroker(name, &error))
                qWarning("could not bring broker %s back: %s", qPrintable(name), qPrintable(error));
        }
    }

    // 1. Two kill -9 of the app, a kill -9 of the target broker, a bounce of the source broker.
    void killedTwiceAndBrokersBouncedSeeEachRecordOnce()
    {
        const QString topic = uniqueName(QStringLiteral("eos-faults"));
        const QString targetTopic = targetTopicFor(topic);
        const int partitions = 4;
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, partitions, {}, &error), qPrintable(error));
        const int n = 12000;
        QVERIFY2(verifiableProduce(sourceBootstrap(), topic, n, 1, &error), qPrintable(error));
        // ~10-byte records: 6,000 B/s is ~600 records/s, about 20 s of copying in all.
        const QString path = profileFor(topic, 6000);
        std::vector<std::unique_ptr<MirrorRun>> runs;
        const TranscriptsOnFailure dump(runs);
        auto newRun = [&](const QString &label) -> MirrorRun & {
            runs.push_back(std::make_unique<MirrorRun>(label));
            return *runs.back();
        };

        // Run 1: kill -9 once a fifth is copied.
        MirrorRun &first = newRun(QStringLiteral("run 1 (killed)"));
        QVERIFY(first.start({QStringLiteral("run"), path}));
        QVERIFY2(MirrorRun::waitUntil([&] { return first.copied() >= n / 5 || first.finished(); }, 60000) &&
                     first.running(),
                 "(the runs' transcripts follow)");
        const qint64 copied1 = first.copied();
        const double rate = first.recentRate(3);
        QVERIFY2(first.crash(), qPrintable(first.transcript()));
        QVERIFY2(copied1 < n, "run 1 was killed too late to test anything");

        // Run 2: the target broker killed -9 and restarted under it; then it is killed -9 too.
        MirrorRun &second = newRun(QStringLiteral("run 2 (target broker killed, then killed)"));
        QVERIFY(second.start({QStringLiteral("run"), path}));
        QVERIFY2(MirrorRun::waitUntil([&] { return second.copied() >= n / 10 || second.finished(); }, 120000) &&
                     second.running(),
                 "(the runs' transcripts follow)");
        const qint64 beforeTargetKill = second.copied();
        QVERIFY2(killBroker(QStringLiteral("target"), &error), qPrintable(error));
        QTest::qWait(2000); // the job notices: produce and commit requests fail
        QVERIFY2(restartBroker(QStringLiteral("target"), &error), qPrintable(error));
        const qint64 atTargetRestart = second.copied();
        QVERIFY2(MirrorRun::waitUntil([&] { return second.copied() >= atTargetRestart + n / 10 || second.finished(); },
                                      120000) &&
                     second.running(),
                 "run 2 did not copy on after the target broker came back (transcripts follow)");
        const qint64 copied2 = second.copied();
        QVERIFY2(second.crash(), qPrintable(second.transcript()));

        // Run 3: the source broker bounced (clean stop, start) under it; runs until caught up.
        MirrorRun &third = newRun(QStringLiteral("run 3 (source broker bounced)"));
        QVERIFY(third.start({QStringLiteral("run"), path, QStringLiteral("--until-caught-up")}));
        QVERIFY2(MirrorRun::waitUntil([&] { return third.copied() >= n / 20 || third.finished(); }, 120000) &&
                     third.running(),
                 "(the runs' transcripts follow)");
        const qint64 atSourceBounce = third.copied();
        QVERIFY2(restartBroker(QStringLiteral("source"), &error), qPrintable(error));
        qint64 copied3 = -1;
        if (third.waitForExit(90000)) {
            QVERIFY2(third.exitCode() == 0, "(the runs' transcripts follow)");
            copied3 = copiedByRun(third.out());
        } else {
            // Seen once in three runs: after the bounce the source consumer
            // lists no topics and gets no partitions again (an open item of
            // the reliability issue). What this test is about is that nothing
            // is copied twice across it, so a fourth run finishes the copy.
            qWarning(
                "run 3 did not finish within 90 s of the source bounce (%lld copied); killed, a fourth run finishes",
                third.copied());
            copied3 = third.copied();
            QVERIFY2(third.crash(), qPrintable(third.transcript()));
            MirrorRun &fourth = newRun(QStringLiteral("run 4 (after a stuck run 3)"));
            QVERIFY(fourth.start({QStringLiteral("run"), path, QStringLiteral("--until-caught-up")}));
            QVERIFY2(fourth.waitForExit(150000) && fourth.exitCode() == 0, "(the runs' transcripts follow)");
        }
        QVERIFY2(copied3 > atSourceBounce, qPrintable(QStringLiteral("run 3 had finished before the source bounced "
                                                                     "(%1 copied at the bounce, %2 in all)")
                                                          .arg(atSourceBounce)
                                                          .arg(copied3)));

        // Each source record once, in order per partition, as an application reads it.
        QList<ReadRecord> read;
        const auto once = readAndCheckOnce(topic, targetTopic, &error, &read);
        QVERIFY2(once, qPrintable(error));
        const auto produced = uncommittedRecords(targetTopic, &error);
        QVERIFY2(produced, qPrintable(error));
        // Produced but never committed (aborted by the faults): what the
        // faults cost. Copying from the start again after each kill would cost
        // at least what the killed runs had copied.
        const qint64 wasted = *produced - n;
        qInfo(
            "%s, 4 faults: run 1 killed at %lld copied (%.0f records/s), run 2 at %lld (target killed at %lld, back at "
            "%lld), run 3 copied %lld (source bounced at %lld); the target log holds %lld records for %d (%lld "
            "aborted or replayed); %s",
            qPrintable(m_delivery), copied1, rate, copied2, beforeTargetKill, atTargetRestart, copied3, atSourceBounce,
            *produced, n, wasted, qPrintable(once->summary()));
        QVERIFY2(once->exactlyOnce(), qPrintable(once->summary()));
        QCOMPARE(once->targetRecords, qint64(n));

        QString verified;
        const QString verifyFailure = verifyProblem(path, &verified);
        qInfo("verify: %s", qPrintable(verified));
        QVERIFY2(verifyFailure.isEmpty(), qPrintable(verifyFailure));

        QVERIFY2(2 * wasted < copied1 + copied2,
                 qPrintable(QStringLiteral("%1 records produced to the target for %2: restarts did not resume from the "
                                           "committed progress (runs 1 and 2 had copied %3 and %4)")
                                .arg(*produced)
                                .arg(n)
                                .arg(copied1)
                                .arg(copied2)));
        if (exactlyOnce()) {
            const QString progress = targetProgressProblem(topic, targetTopic, partitions);
            QVERIFY2(progress.isEmpty(), qPrintable(progress));
        }
    }

    // 2. Two instances share the job; one is killed -9 mid-copy, the other finishes it.
    void twoInstancesOneKilledNoDuplicateNoLoss()
    {
        const QString topic = uniqueName(QStringLiteral("eos-two"));
        const QString targetTopic = targetTopicFor(topic);
        const int partitions = 6;
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, partitions, {}, &error), qPrintable(error));
        const int n = 9000;
        QVERIFY2(verifiableProduce(sourceBootstrap(), topic, n, 1, &error), qPrintable(error));
        // ~10-byte records: 3,000 B/s is ~300 records/s an instance.
        const QString path = profileFor(topic, 3000);

        std::vector<std::unique_ptr<MirrorRun>> runs;
        const TranscriptsOnFailure dump(runs);
        for (int i = 0; i < 2; ++i) {
            runs.push_back(std::make_unique<MirrorRun>(QStringLiteral("instance %1").arg(i + 1)));
            QVERIFY(runs.back()->start({QStringLiteral("run"), path, QStringLiteral("--until-caught-up")}));
        }
        MirrorRun &survivor = *runs[0];
        MirrorRun &victim = *runs[1];
        auto bothCopying = [&] {
            for (const auto &r : runs)
                if (!r->running() || r->copied() == 0 || r->progress().last().partitions == 0)
                    return false;
            return true;
        };
        QVERIFY2(MirrorRun::waitUntil(bothCopying, 60000), "(the runs' transcripts follow)");
        QTest::qWait(2500); // past a few transactions of the victim's
        const qint64 victimCopied = victim.copied();
        const int victimPartitions = victim.progress().last().partitions;
        QVERIFY2(survivor.copied() + victimCopied < n, "the kill came too late to test anything");
        const qsizetype linesAtKill = survivor.progress().size();
        const qint64 killedAt = testClockMs();
        QVERIFY2(victim.crash(), qPrintable(victim.transcript()));

        QVERIFY2(survivor.waitForExit(150000) && survivor.exitCode() == 0, "(the runs' transcripts follow)");
        qint64 tookOverAfterMs = -1;
        for (qsizetype i = linesAtKill; i < survivor.progress().size() && tookOverAfterMs < 0; ++i)
            if (survivor.progress()[i].partitions == partitions)
                tookOverAfterMs = survivor.progress()[i].atMs - killedAt;

        const auto once = readAndCheckOnce(topic, targetTopic, &error);
        QVERIFY2(once, qPrintable(error));
        const auto produced = uncommittedRecords(targetTopic, &error);
        QVERIFY2(produced, qPrintable(error));
        qInfo("%s, 2 instances, one killed -9 with %lld copied from %d partitions: the other owned all %d %lld ms "
              "after the kill and copied %lld; the target log holds %lld records for %d; %s",
              qPrintable(m_delivery), victimCopied, victimPartitions, partitions, tookOverAfterMs,
              copiedByRun(survivor.out()), *produced, n, qPrintable(once->summary()));
        QVERIFY2(once->exactlyOnce(), qPrintable(once->summary()));
        QCOMPARE(once->targetRecords, qint64(n));
        QVERIFY2(tookOverAfterMs >= 0, "the survivor never owned all partitions (transcripts follow)");
        QString verified;
        const QString verifyFailure = verifyProblem(path, &verified);
        qInfo("verify: %s", qPrintable(verified));
        QVERIFY2(verifyFailure.isEmpty(), qPrintable(verifyFailure));
        if (exactlyOnce()) {
            const QString progress = targetProgressProblem(topic, targetTopic, partitions);
            QVERIFY2(progress.isEmpty(), qPrintable(progress));
        }
    }

    // 3. Committed and aborted source transactions, and plain records between them.
    void abortedSourceTransactionsSkipped()
    {
        const QString topic = uniqueName(QStringLiteral("eos-aborted"));
        const QString targetTopic = targetTopicFor(topic);
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        const auto batch = [](const QString &tag, int count) {
            QList<TestRecord> out;
            for (int i = 0; i < count; ++i) {
                TestRecord r;
                r.key = QByteArray::number(i);
                r.value = QStringLiteral("%1.%2").arg(tag).arg(i).toUtf8();
                r.partition = i % 2;
                out << r;
            }
            return out;
        };
        const int rounds = 4, committedCount = 40, abortedCount = 25, plainCount = 10;
        for (int round = 0; round < rounds; ++round) {
            QVERIFY2(produceTransactional(sourceBootstrap(), topic,
                                          batch(QStringLiteral("c%1").arg(round), committedCount), true, &error),
                     qPrintable(error));
            QVERIFY2(produceTransactional(sourceBootstrap(), topic,
                                          batch(QStringLiteral("a%1").arg(round), abortedCount), false, &error),
                     qPrintable(error));
            QVERIFY2(produce(sourceBootstrap(), topic, batch(QStringLiteral("p%1").arg(round), plainCount), &error),
                     qPrintable(error));
        }
        const int expected = rounds * (committedCount + plainCount);
        const auto source = sourceValues(topic, &error);
        QVERIFY2(source, qPrintable(error));
        QCOMPARE((*source)[0].size() + (*source)[1].size(), qsizetype(expected)); // the source's own read_committed

        const QString path = profileFor(topic, 0);
        const ExeResult run = runMirrordesk({QStringLiteral("run"), path, QStringLiteral("--until-caught-up")}, 120000);
        QVERIFY2(ranToTheEnd(run), "the run did not exit 0 (its transcript is above)");

        const auto once = readAndCheckOnce(topic, targetTopic, &error);
        QVERIFY2(once, qPrintable(error));
        // Not even an aborted transaction of the job's own may hold an aborted source record.
        ConsumeOptions all;
        all.timeoutMs = 60000;
        const auto logged = consumeAll(targetBootstrap(), targetTopic, &error, all);
        QVERIFY2(logged, qPrintable(error));
        QStringList abortedOnTarget;
        for (const TestRecord &r : *logged)
            if (r.value.value_or(QByteArray()).startsWith('a'))
                abortedOnTarget << QString::fromUtf8(*r.value);
        qInfo("%s, %d rounds of a committed transaction (%d), an aborted one (%d) and %d plain records: %lld records "
              "in the target log, %lld aborted source records among them; %s",
              qPrintable(m_delivery), rounds, committedCount, abortedCount, plainCount, qint64(logged->size()),
              qint64(abortedOnTarget.size()), qPrintable(once->summary()));
        QVERIFY2(once->exactlyOnce(), qPrintable(once->summary() + QLatin1Char('\n') + run.out + run.err));
        QCOMPARE(once->targetRecords, qint64(expected));
        QVERIFY2(abortedOnTarget.isEmpty(), qPrintable(abortedOnTarget.mid(0, 10).join(QLatin1Char(' '))));
        QString verified;
        const QString verifyFailure = verifyProblem(path, &verified);
        qInfo("verify: %s", qPrintable(verified));
        QVERIFY2(verifyFailure.isEmpty(), qPrintable(verifyFailure));
    }

    // 4. A compacted source with offset gaps: the surviving records once, the map exact across the gaps.
    void compactionGapsExact()
    {
        const QString topic = uniqueName(QStringLiteral("eos-compact"));
        const QString targetTopic = targetTopicFor(topic);
        QString error;
        // Segments roll after 100 ms (on the next append) and are cleanable at once.
        const QMap<QString, QString> compacted{{QStringLiteral("cleanup.policy"), QStringLiteral("compact")},
                                               {QStringLiteral("segment.ms"), QStringLiteral("100")},
                                               {QStringLiteral("min.cleanable.dirty.ratio"), QStringLiteral("0.01")},
                                               {QStringLiteral("min.compaction.lag.ms"), QStringLiteral("0")}};
        QVERIFY2(createTopic(sourceBootstrap(), topic, 1, compacted, &error), qPrintable(error));
        const int keys = 200;
        const auto round = [&](int r, int every) {
            QList<TestRecord> out;
            for (int k = 0; k < keys; k += every) {
                TestRecord rec;
                rec.key = QStringLiteral("k%1").arg(k).toUtf8();
                rec.value = QStringLiteral("r%1.k%2").arg(r).arg(k).toUtf8();
                rec.partition = 0;
                out << rec;
            }
            return out;
        };
        // Every key, then every third and every fifth key again, each in its
        // own segment; a last record rolls the third one out of the active segment.
        for (const auto &[r, every] : {std::pair{1, 1}, std::pair{2, 3}, std::pair{3, 5}}) {
            QVERIFY2(produce(sourceBootstrap(), topic, round(r, every), &error), qPrintable(error));
            QTest::qWait(300);
        }
        TestRecord roll;
        roll.key = QByteArray("roll");
        roll.value = QByteArray("roll.0");
        roll.partition = 0;
        QVERIFY2(produce(sourceBootstrap(), topic, {roll}, &error), qPrintable(error));
        const auto marks = watermarks(sourceBootstrap(), topic, &error);
        QVERIFY2(marks, qPrintable(error));
        const qint64 written = marks->value(0).second;
        // The cleaner runs on its own schedule (log.cleaner.backoff.ms, 15 s by
        // default) and may take the segments in more than one pass: wait for
        // the end state, one record a key, so the source cannot change under
        // the copy.
        const qsizetype distinctKeys = keys + 1;
        ConsumeOptions committed;
        committed.readCommitted = true;
        QList<TestRecord> survivors;
        for (int waited = 0; waited < 90; waited += 2) {
            survivors = consumeAll(sourceBootstrap(), topic, &error, committed).value_or(QList<TestRecord>());
            if (survivors.size() == distinctKeys)
                break;
            QTest::qWait(2000);
        }
        QVERIFY2(
            survivors.size() == distinctKeys,
            qPrintable(QStringLiteral("the source was not compacted within 90 s (%1 records of %2 offsets, %3 keys) %4")
                           .arg(survivors.size())
                           .arg(written)
                           .arg(distinctKeys)
                           .arg(error)));

        const QString path = profileFor(topic, 0);
        const ExeResult run = runMirrordesk({QStringLiteral("run"), path, QStringLiteral("--until-caught-up")}, 120000);
        QVERIFY2(ranToTheEnd(run), "the run did not exit 0 (its transcript is above)");

        QList<ReadRecord> read;
        const auto once = readAndCheckOnce(topic, targetTopic, &error, &read);
        QVERIFY2(once, qPrintable(error));
        QVERIFY2(once->exactlyOnce(), qPrintable(once->summary() + QLatin1Char('\n') + run.out + run.err));
        QCOMPARE(once->targetRecords, qint64(survivors.size()));

        // Every source offset from the log start to the end: a survivor maps
        // Exact to its copy, a compacted-away offset is a Gap to the copy of
        // the next survivor (before the first survivor the map may say
        // BeforeMap, which names the same target offset).
        QHash<QString, qint64> copyAt; // value -> target offset (values are unique)
        for (const ReadRecord &r : read)
            copyAt.insert(r.value, r.offset);
        OffsetMap map;
        ClusterConfig target;
        target.bootstrap = targetBootstrap();
        QVERIFY2(readOffsetMap(target, defaultOffsetMapTopic(eosGroupFor(topic)), 30000, &map, &error),
                 qPrintable(error));
        const PartitionOffsetMap *pm = map.partition(topic, 0);
        QVERIFY2(pm, "partition 0 is not in the offset map");
        qint64 gaps = 0;
        qsizetype next = 0; // index of the first survivor at or after the offset
        for (qint64 o = marks->value(0).first; o < written; ++o) {
            while (survivors[next].offset < o)
                ++next;
            const TestRecord &s = survivors[next];
            const bool kept = s.offset == o;
            const qint64 want = copyAt.value(QString::fromUtf8(*s.value), -1);
            const OffsetTranslation t = pm->translate(o);
            gaps += kept ? 0 : 1;
            const bool kindOk = kept ? t.kind == OffsetTranslation::Kind::Exact
                                     : t.kind == OffsetTranslation::Kind::Gap ||
                                           (next == 0 && t.kind == OffsetTranslation::Kind::BeforeMap);
            QVERIFY2(
                kindOk && t.targetOffset == want && want >= 0,
                qPrintable(QStringLiteral("source offset %1 (%2): kind %3 target %4, expected %5 at target %6 (the "
                                          "copy of source offset %7); segments %8")
                               .arg(o)
                               .arg(kept ? QStringLiteral("kept") : QStringLiteral("compacted away"))
                               .arg(int(t.kind))
                               .arg(t.targetOffset)
                               .arg(kept ? QStringLiteral("Exact") : QStringLiteral("Gap"))
                               .arg(want)
                               .arg(s.offset)
                               .arg(pm->segmentCount())));
        }
        QCOMPARE(pm->translate(written).kind, OffsetTranslation::Kind::End);
        qInfo("%s, compacted source: %lld offsets written, %lld survive, %lld gaps translated to the next copy; %d "
              "segments, covered %lld; %s",
              qPrintable(m_delivery), written, qint64(survivors.size()), gaps, pm->segmentCount(), pm->covered(),
              qPrintable(once->summary()));
        QVERIFY2(gaps > 0, "no gap in the compacted source: the test tested nothing");
        QString verified;
        const QString verifyFailure = verifyProblem(path, &verified);
        qInfo("verify: %s", qPrintable(verified));
        QVERIFY2(verifyFailure.isEmpty(), qPrintable(verifyFailure));
    }
};

QTEST_GUILESS_MAIN(TestExactlyOnce)
#include "tst_exactly_once.moc"
