// Several headless instances of one profile share the source partitions
// through the Kafka group protocol, with the real executable on real brokers:
//  - three `run --until-caught-up` instances, one killed with kill -9 mid-copy:
//    the other two take over its partitions from its progress, and both exit 0
//    once the whole group is caught up; nothing lost, duplicates bounded;
//  - an instance joining a running job does not stop the others' copying
//    (cooperative-sticky rebalancing): the rate dip is measured and the
//    longest stall bounded;
//  - instances that catch up at the same moment all exit promptly (one
//    leaving hands its partitions to another that is closing already);
//  - with static membership (`run --instance-id NAME`, when the build has it),
//    an instance restarted within the session timeout gets its partitions back
//    without a rebalance of the others.
// Kafka's VerifiableProducer writes the source; GetOffsetShell and
// ConsoleConsumer count and read the target.
#include "headless_support.h"

#include <QTemporaryDir>

#include <algorithm>
#include <limits>
#include <memory>
#include <vector>

using namespace md;
using namespace md::test;

namespace {

// A crashed member leaves the group after this (the broker's minimum); a
// heartbeat a second makes members learn of a rebalance quickly.
const QMap<QString, QString> kQuickGroup{{QStringLiteral("session.timeout.ms"), QStringLiteral("6000")},
                                         {QStringLiteral("heartbeat.interval.ms"), QStringLiteral("1000")}};
constexpr int kSessionTimeoutMs = 6000;

QString transcripts(const std::vector<std::unique_ptr<MirrorRun>> &runs)
{
    QString all;
    for (const auto &r : runs)
        all += r->transcript(3000) + QLatin1Char('\n');
    return all;
}

} // namespace

class TestInstances final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString profile(const QString &topic, qint64 throttle)
    {
        ProfileSpec spec;
        spec.name = topic;
        spec.topic = topic;
        spec.throttleBytesPerSecond = throttle;
        spec.consumerProperties = kQuickGroup;
        spec.extra = QStringLiteral(",\n \"groupId\": \"%1\"").arg(groupFor(topic));
        return writeProfile(m_dir.path(), topic + QStringLiteral(".mirrorjob"), spec);
    }
    static QString groupFor(const QString &topic) { return QStringLiteral("mirror-") + topic; }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        MD_REQUIRE_KAFKA_TOOLS();
        QVERIFY(QFile::exists(mirrordeskExe()));
        QVERIFY(m_dir.isValid());
    }

    // 5. Three instances, one killed with -9 once all copy: the others finish the job.
    void killedInstanceLeavesTheOthersToFinish()
    {
        const QString topic = uniqueName(QStringLiteral("inst-kill"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 6, {}, &error), qPrintable(error));
        const int n = 9000;
        const auto records = verifiableProduce(sourceBootstrap(), topic, n, 1, &error);
        QVERIFY2(records, qPrintable(error));
        // ~9-byte records: 1,500 B/s is ~160 records/s an instance.
        const QString path = profile(topic, 1500);

        std::vector<std::unique_ptr<MirrorRun>> runs;
        for (int i = 0; i < 3; ++i) {
            runs.push_back(std::make_unique<MirrorRun>(QStringLiteral("instance %1").arg(i + 1)));
            QVERIFY(runs.back()->start({QStringLiteral("run"), path, QStringLiteral("--until-caught-up")}));
        }
        // All three own partitions and have copied something.
        auto allCopying = [&] {
            for (const auto &r : runs)
                if (!r->running() || r->copied() == 0 || r->progress().last().partitions == 0)
                    return false;
            return true;
        };
        QVERIFY2(MirrorRun::waitUntil(allCopying, 120000), qPrintable(transcripts(runs)));
        QTest::qWait(2500); // a steady rate for the victim, past a commit or two

        MirrorRun &victim = *runs[1];
        const double victimRate = victim.recentRate(3);
        qint64 copiedAtKill = 0;
        double survivorsRate = 0;
        for (const auto &r : runs) {
            copiedAtKill += r->copied();
            if (r.get() != &victim)
                survivorsRate += r->recentRate(3);
        }
        QVERIFY2(copiedAtKill < n, "the kill came too late to test anything");
        const qint64 killedAt = testClockMs();
        QVERIFY2(victim.crash(), qPrintable(victim.transcript()));

        // The survivors: the killed member's partitions after the session
        // timeout, then the rest of the copy at their throttled rates.
        const double expectedS = kSessionTimeoutMs / 1000.0 + double(n - copiedAtKill) / std::max(1.0, survivorsRate);
        const int allowedMs = int(expectedS * 1500) + 20000;
        const bool exited = MirrorRun::waitUntil([&] { return runs[0]->finished() && runs[2]->finished(); }, allowedMs);
        qInfo(
            "kill -9 of instance 2 at %lld of %d copied (%.0f records/s; survivors %.0f records/s): instance 1 exit %d "
            "after %lld ms, instance 3 exit %d after %lld ms (allowed %d ms)",
            copiedAtKill, n, victimRate, survivorsRate, runs[0]->exitCode(),
            runs[0]->finished() ? runs[0]->finishedAtMs() - killedAt : -1, runs[2]->exitCode(),
            runs[2]->finished() ? runs[2]->finishedAtMs() - killedAt : -1, allowedMs);
        QVERIFY2(exited, qPrintable(QStringLiteral("the survivors did not exit within %1 ms\n").arg(allowedMs) +
                                    transcripts(runs)));
        QVERIFY2(runs[0]->exitCode() == 0 && runs[2]->exitCode() == 0, qPrintable(transcripts(runs)));

        const auto target = readTarget(QStringLiteral("src.") + topic, *records, &error);
        QVERIFY2(target, qPrintable(error));
        const qint64 duplicates = target->records - n;
        const qint64 bound = duplicateBound(victimRate);
        qInfo("three instances, one killed: %lld duplicates, bound %lld = (%.0f s + %.0f s) x the killed instance's "
              "%.0f records/s; %s",
              duplicates, bound, kCommitIntervalS, kCommitMarginS, victimRate, qPrintable(target->summary()));
        QVERIFY2(target->missing.isEmpty(), qPrintable(target->summary()));
        QVERIFY2(victimRate > 0, qPrintable(victim.transcript()));
        QVERIFY2(duplicates <= bound,
                 qPrintable(
                     QStringLiteral("%1 duplicates > bound %2; %3").arg(duplicates).arg(bound).arg(target->summary())));
    }

    // 6. A second instance joins: the first keeps copying through the rebalance.
    void joiningInstanceDoesNotStallTheOthers()
    {
        const QString topic = uniqueName(QStringLiteral("inst-join"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 6, {}, &error), qPrintable(error));
        const int n = 15000;
        const auto records = verifiableProduce(sourceBootstrap(), topic, n, 1, &error);
        QVERIFY2(records, qPrintable(error));
        // ~9-byte records: 3,000 B/s is ~330 records/s an instance.
        const QString path = profile(topic, 3000);

        std::vector<std::unique_ptr<MirrorRun>> runs;
        runs.push_back(std::make_unique<MirrorRun>(QStringLiteral("instance 1")));
        runs.push_back(std::make_unique<MirrorRun>(QStringLiteral("instance 2")));
        MirrorRun &first = *runs[0];
        MirrorRun &second = *runs[1];
        QVERIFY(first.start({QStringLiteral("run"), path, QStringLiteral("--until-caught-up")}));
        // Steady: five progress lines with copying under way.
        auto copyingLines = [&] {
            int k = 0;
            for (const ProgressLine &l : first.progress())
                k += l.copied > 0 ? 1 : 0;
            return k;
        };
        QVERIFY2(MirrorRun::waitUntil([&] { return copyingLines() >= 5 || first.finished(); }, 120000) &&
                     first.running(),
                 qPrintable(first.transcript()));
        const qsizetype beforeJoin = first.progress().size();
        double baseline = 0;
        for (qsizetype i = beforeJoin - 3; i < beforeJoin; ++i)
            baseline += first.progress()[i].rate / 3.0;
        const int partitionsBefore = first.progress().last().partitions;

        const qsizetype eventsAtJoin = first.err().size();
        const qint64 joinAt = testClockMs();
        QVERIFY(second.start({QStringLiteral("run"), path, QStringLiteral("--until-caught-up")}));
        // The join is done when the second copies and the first gave partitions away.
        const bool joined = MirrorRun::waitUntil(
            [&] {
                return (second.copied() > 0 && first.progress().last().partitions < partitionsBefore) ||
                       !first.running() || !second.running();
            },
            60000);
        const qint64 joinedAt = testClockMs();
        QVERIFY2(joined && first.running() && second.running(), qPrintable(transcripts(runs)));
        // Watch the first a while longer.
        const qint64 windowEnd = std::max(joinAt + 10000, joinedAt + 5000);
        MirrorRun::waitUntil([&] { return testClockMs() >= windowEnd || !first.running(); }, 60000);

        // From the first's progress lines around the join: the lowest one-second
        // rate, and the longest time between two lines whose count went up.
        double lowest = baseline;
        qint64 longestGapMs = 0;
        qint64 lastIncreaseAt = first.progress()[beforeJoin - 1].atMs;
        qint64 lastCopied = first.progress()[beforeJoin - 1].copied;
        QStringList lines;
        for (qsizetype i = beforeJoin; i < first.progress().size(); ++i) {
            const ProgressLine &l = first.progress()[i];
            if (l.atMs > windowEnd)
                break;
            lowest = std::min(lowest, l.rate);
            if (l.copied > lastCopied) {
                longestGapMs = std::max(longestGapMs, l.atMs - lastIncreaseAt);
                lastIncreaseAt = l.atMs;
                lastCopied = l.copied;
            }
            lines << QStringLiteral("%1 ms: copied %2 at %3/s, %4 partitions")
                         .arg(l.atMs - joinAt)
                         .arg(l.copied)
                         .arg(l.rate)
                         .arg(l.partitions);
        }
        longestGapMs = std::max(longestGapMs, std::min(windowEnd, testClockMs()) - lastIncreaseAt);
        const double dip = baseline > 0 ? 100.0 * (1.0 - lowest / baseline) : 100.0;
        qInfo("instance joins: instance 1 at %.0f records/s before (partitions %d), lowest second after the join "
              "%.0f records/s (dip %.0f %%), longest stretch without progress %lld ms, join took %lld ms\n  %s",
              baseline, partitionsBefore, lowest, dip, longestGapMs, joinedAt - joinAt,
              qPrintable(lines.join(QStringLiteral("\n  "))));
        qInfo("instance joins: instance 1's events since the join:\n%s",
              qPrintable(first.err().mid(eventsAtJoin).trimmed()));
        // How the coordinator rebalances this group, asked while both run:
        // incremental (cooperative-sticky; "uniform" for a KIP-848 consumer
        // group), not eager (range, roundrobin: every partition revoked).
        const auto strategy = groupAssignmentStrategy(sourceBootstrap(), groupFor(topic), &error);
        QVERIFY2(strategy, qPrintable(error));
        qInfo("instance joins: group assignment strategy \"%s\"", qPrintable(*strategy));
        // Progress lines come once a second: a gap of 4 s is ~3 s without copying.
        QVERIFY2(longestGapMs <= 4000, qPrintable(QStringLiteral("instance 1 stalled: %1 ms without progress\n  %2\n%3")
                                                      .arg(longestGapMs)
                                                      .arg(lines.join(QStringLiteral("\n  ")), transcripts(runs))));
        QVERIFY2(*strategy == QLatin1String("cooperative-sticky") || *strategy == QLatin1String("uniform"),
                 qPrintable(
                     QStringLiteral("assignment strategy %1: an eager rebalance stops every instance").arg(*strategy)));

        // Both finish the job: the whole group caught up.
        const bool exited = MirrorRun::waitUntil([&] { return first.finished() && second.finished(); },
                                                 int(double(n) / std::max(1.0, 2 * baseline) * 1500) + 30000);
        QVERIFY2(exited && first.exitCode() == 0 && second.exitCode() == 0, qPrintable(transcripts(runs)));
        const auto target = readTarget(QStringLiteral("src.") + topic, *records, &error);
        QVERIFY2(target, qPrintable(error));
        const qint64 duplicates = target->records - n;
        qInfo("instance joins: %lld duplicates after the rebalance (bound %lld); %s", duplicates,
              duplicateBound(baseline), qPrintable(target->summary()));
        QVERIFY2(target->missing.isEmpty(), qPrintable(target->summary()));
        QVERIFY2(duplicates <= duplicateBound(baseline), qPrintable(target->summary()));
    }

    // 7. Instances that catch up together all exit promptly: one leaving the
    // group hands its partitions to others that may be closing already.
    void instancesCaughtUpTogetherExitTogether()
    {
        for (int round = 1; round <= 2; ++round) {
            const QString topic = uniqueName(QStringLiteral("inst-exit"));
            QString error;
            QVERIFY2(createTopic(sourceBootstrap(), topic, 6, {}, &error), qPrintable(error));
            const int n = 3000;
            const auto records = verifiableProduce(sourceBootstrap(), topic, n, 1, &error);
            QVERIFY2(records, qPrintable(error));
            const QString path = profile(topic, 0);
            std::vector<std::unique_ptr<MirrorRun>> runs;
            for (int i = 0; i < 3; ++i) {
                runs.push_back(
                    std::make_unique<MirrorRun>(QStringLiteral("round %1 instance %2").arg(round).arg(i + 1)));
                QVERIFY(runs.back()->start({QStringLiteral("run"), path, QStringLiteral("--until-caught-up")}));
                QTest::qWait(round * 300); // different phases of their 2 s group checks
            }
            auto count = [&] {
                return std::count_if(runs.begin(), runs.end(), [](const auto &r) { return r->finished(); });
            };
            QVERIFY2(MirrorRun::waitUntil([&] { return count() > 0; }, 120000), qPrintable(transcripts(runs)));
            qint64 firstAt = std::numeric_limits<qint64>::max();
            for (const auto &r : runs)
                if (r->finished())
                    firstAt = std::min(firstAt, r->finishedAtMs());
            // The others: the group check's 2 s, a rebalance within the
            // session timeout, and a margin; never the 30 s of a blocked close.
            const int allowedMs = 2000 + kSessionTimeoutMs + 8000;
            const bool all = MirrorRun::waitUntil([&] { return count() == 3; }, allowedMs);
            QStringList after;
            for (const auto &r : runs)
                after << (r->finished() ? QStringLiteral("%1 ms").arg(r->finishedAtMs() - firstAt)
                                        : QStringLiteral("running"));
            qInfo("round %d: exits after the first: %s (allowed %d ms)", round,
                  qPrintable(after.join(QStringLiteral(", "))), allowedMs);
            for (const auto &r : runs)
                if (!r->finished() || r->finishedAtMs() - firstAt > 3000)
                    qInfo("round %d: the late one's events:\n%s", round, qPrintable(r->err().trimmed()));
            QVERIFY2(all,
                     qPrintable(QStringLiteral("an instance did not exit within %1 ms of the first\n").arg(allowedMs) +
                                transcripts(runs)));
            for (const auto &r : runs)
                QVERIFY2(r->exitCode() == 0, qPrintable(r->transcript()));
            const auto target = readTarget(QStringLiteral("src.") + topic, *records, &error);
            QVERIFY2(target, qPrintable(error));
            QVERIFY2(target->missing.isEmpty(), qPrintable(target->summary()));
        }
    }

    // Static membership: an instance killed and restarted with the same
    // --instance-id within the session timeout gets its partitions back from
    // its progress, and the other instance sees no rebalance.
    void staticMemberRestartKeepsTheOthersAssignment()
    {
        const QString topic = uniqueName(QStringLiteral("inst-static"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 4, {}, &error), qPrintable(error));
        const int n = 12000;
        const auto records = verifiableProduce(sourceBootstrap(), topic, n, 1, &error);
        QVERIFY2(records, qPrintable(error));
        // Session timeout well above the restart time; ~330 records/s an instance.
        ProfileSpec spec;
        spec.name = topic;
        spec.topic = topic;
        spec.throttleBytesPerSecond = 3000;
        spec.consumerProperties = {{QStringLiteral("session.timeout.ms"), QStringLiteral("30000")},
                                   {QStringLiteral("heartbeat.interval.ms"), QStringLiteral("1000")}};
        const QString path = writeProfile(m_dir.path(), topic + QStringLiteral(".mirrorjob"), spec);
        auto args = [&](const QString &id) {
            return QStringList{QStringLiteral("run"), path, QStringLiteral("--until-caught-up"),
                               QStringLiteral("--instance-id"), id};
        };

        // a first (the group's leader), then b; b is the one restarted, so that
        // no leader change can ask for a rebalance.
        std::vector<std::unique_ptr<MirrorRun>> runs;
        runs.push_back(std::make_unique<MirrorRun>(QStringLiteral("instance a")));
        runs.push_back(std::make_unique<MirrorRun>(QStringLiteral("instance b")));
        MirrorRun &a = *runs[0];
        QVERIFY(a.start(args(QStringLiteral("a"))));
        QVERIFY2(MirrorRun::waitUntil([&] { return a.copied() > 0 || a.finished(); }, 120000) && a.running(),
                 qPrintable(a.transcript()));
        QVERIFY(runs[1]->start(args(QStringLiteral("b"))));
        auto split = [&] {
            return a.running() && runs[1]->running() && runs[1]->copied() > 0 && a.progress().last().partitions == 2 &&
                   runs[1]->progress().last().partitions == 2;
        };
        QVERIFY2(MirrorRun::waitUntil(split, 120000), qPrintable(transcripts(runs)));
        QTest::qWait(2500);
        const double rateB = runs[1]->recentRate(3);
        const qsizetype aLinesBefore = a.progress().size();
        const qsizetype aErrBefore = a.err().size();
        QVERIFY2(runs[1]->crash(), qPrintable(runs[1]->transcript()));
        runs.push_back(std::make_unique<MirrorRun>(QStringLiteral("instance b, restarted")));
        MirrorRun &b = *runs[2];
        QVERIFY(b.start(args(QStringLiteral("b"))));
        QVERIFY2(MirrorRun::waitUntil([&] { return b.copied() > 0 || b.finished(); }, 60000) && b.copied() > 0,
                 qPrintable(transcripts(runs)));
        const qint64 restartCopyingAt = testClockMs();
        MirrorRun::waitUntil([&] { return testClockMs() > restartCopyingAt + 3000 || !a.running(); }, 10000);
        // a never gave up or gained a partition: no rebalance reached it.
        QStringList aLines;
        bool steady = true;
        for (qsizetype i = aLinesBefore; i < a.progress().size(); ++i) {
            aLines << QString::number(a.progress()[i].partitions);
            steady = steady && (a.progress()[i].partitions == 2 || a.progress()[i].caughtUp);
        }
        qInfo("static member b killed and restarted: a's partitions line by line: %s",
              qPrintable(aLines.join(QLatin1Char(' '))));
        QVERIFY2(steady, qPrintable(transcripts(runs)));
        QVERIFY2(!a.err().mid(aErrBefore).contains(QLatin1String("assigned")), qPrintable(transcripts(runs)));

        QVERIFY2(MirrorRun::waitUntil([&] { return a.finished() && b.finished(); }, 120000) && a.exitCode() == 0 &&
                     b.exitCode() == 0,
                 qPrintable(transcripts(runs)));
        const auto target = readTarget(QStringLiteral("src.") + topic, *records, &error);
        QVERIFY2(target, qPrintable(error));
        const qint64 duplicates = target->records - n;
        qInfo("static member killed and restarted: %lld duplicates (bound %lld); %s", duplicates, duplicateBound(rateB),
              qPrintable(target->summary()));
        QVERIFY2(target->missing.isEmpty(), qPrintable(target->summary()));
        QVERIFY2(duplicates <= duplicateBound(rateB), qPrintable(target->summary()));
    }
};

QTEST_GUILESS_MAIN(TestInstances)
#include "tst_instances.moc"
