// The user's path end to end with the real executable and the real brokers:
// one profile, `mirrordesk run --until-caught-up`, then `mirrordesk verify`.
// Also: SIGTERM stops a continuous run cleanly (exit 0), and a run killed with
// SIGKILL mid-copy and started again (start still "earliest") resumes from its
// last commit: nothing lost, and no more copied twice than about a commit
// interval's worth at the measured rate.
#include "headless_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace md;

namespace {

using Result = test::ExeResult;

Result runExe(const QStringList &args, int timeoutMs)
{
    return test::runMirrordesk(args, timeoutMs);
}

QList<test::TestRecord> makeRecords(int count, int partitions, int seed)
{
    QList<test::TestRecord> records;
    records.reserve(count);
    for (int i = 0; i < count; ++i) {
        test::TestRecord r;
        r.partition = i % partitions;
        if (i % 7 != 0)
            r.key = QByteArray("k-") + QByteArray::number(seed) + '-' + QByteArray::number(i);
        r.value = i % 11 == 0 ? QByteArray() : QByteArray(100 + (i % 50), char('a' + i % 26));
        r.headers.append({QStringLiteral("seq"), QByteArray::number(i)});
        if (i % 5 == 0)
            r.headers.append({QStringLiteral("seq"), std::nullopt});
        r.timestamp = 1700000000000LL + i;
        records.append(r);
    }
    return records;
}

} // namespace

class TestHeadlessRun final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString writeProfile(const QString &topic, const QString &extra = {})
    {
        test::ProfileSpec spec;
        spec.name = topic;
        spec.topic = topic;
        spec.extra = extra;
        return test::writeProfile(m_dir.path(), topic + QStringLiteral(".mirrorjob"), spec);
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        QVERIFY(QFile::exists(test::mirrordeskExe()));
        QVERIFY(m_dir.isValid());
    }

    void runArgumentsAreParsed()
    {
        const Result help = runExe({QStringLiteral("run"), QStringLiteral("--help")}, 10000);
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.startsWith(QLatin1String("usage: mirrordesk run FILE")), qPrintable(help.out));
        for (const char *option : {"--until-caught-up", "--sandbox", "--metrics-port", "--instance-id"})
            QVERIFY2(help.out.contains(QLatin1String(option)), option);

        const Result unknown =
            runExe({QStringLiteral("run"), QStringLiteral("x.mirrorjob"), QStringLiteral("--bogus")}, 10000);
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains(QLatin1String("unknown option --bogus")), qPrintable(unknown.err));
        QVERIFY2(unknown.err.contains(QLatin1String("usage: mirrordesk run")), qPrintable(unknown.err));

        const Result none = runExe({QStringLiteral("run")}, 10000);
        QCOMPARE(none.exitCode, 2);
        QVERIFY2(none.err.contains(QLatin1String("usage:")), qPrintable(none.err));
        const Result two =
            runExe({QStringLiteral("run"), QStringLiteral("a.mirrorjob"), QStringLiteral("b.mirrorjob")}, 10000);
        QCOMPARE(two.exitCode, 2);
        QVERIFY2(two.err.contains(QLatin1String("more than one profile given: a.mirrorjob b.mirrorjob")),
                 qPrintable(two.err));

        for (const QStringList &bad : {QStringList{QStringLiteral("--metrics-port=abc")},
                                       QStringList{QStringLiteral("--metrics-port"), QStringLiteral("70000")}}) {
            const Result port = runExe(QStringList{QStringLiteral("run"), QStringLiteral("x.mirrorjob")} + bad, 10000);
            QCOMPARE(port.exitCode, 2);
            QVERIFY2(port.err.contains(QLatin1String("--metrics-port needs a port number")), qPrintable(port.err));
        }
        const Result missing =
            runExe({QStringLiteral("run"), QStringLiteral("x.mirrorjob"), QStringLiteral("--metrics-port")}, 10000);
        QCOMPARE(missing.exitCode, 2);
        const Result badAddress =
            runExe({QStringLiteral("run"), QStringLiteral("x.mirrorjob"), QStringLiteral("--metrics-port=9464"),
                    QStringLiteral("--metrics-address=not-an-address")},
                   10000);
        QCOMPARE(badAddress.exitCode, 2);
        QVERIFY2(badAddress.err.contains(
                     QLatin1String("--metrics-address: \"not-an-address\" is not an IPv4 or IPv6 address")),
                 qPrintable(badAddress.err));
        const Result addressAlone = runExe({QStringLiteral("run"), QStringLiteral("x.mirrorjob"),
                                            QStringLiteral("--metrics-address"), QStringLiteral("0.0.0.0")},
                                           10000);
        QCOMPARE(addressAlone.exitCode, 2);
        QVERIFY2(addressAlone.err.contains(QLatin1String("--metrics-address needs --metrics-port")),
                 qPrintable(addressAlone.err));
        const Result emptyId =
            runExe({QStringLiteral("run"), QStringLiteral("x.mirrorjob"), QStringLiteral("--instance-id=")}, 10000);
        QCOMPARE(emptyId.exitCode, 2);
        QVERIFY2(emptyId.err.contains(QLatin1String("--instance-id needs a name")), qPrintable(emptyId.err));

        // Both spellings get past the options: what fails then is the missing profile (still 2).
        const QString absent = m_dir.filePath(QStringLiteral("absent.mirrorjob"));
        const Result spelled = runExe({QStringLiteral("run"), QStringLiteral("--metrics-port=9464"), absent,
                                       QStringLiteral("--instance-id"), QStringLiteral("dr-1")},
                                      10000);
        QCOMPARE(spelled.exitCode, 2);
        QVERIFY2(!spelled.err.contains(QLatin1String("option")), qPrintable(spelled.err));
        QVERIFY2(spelled.err.contains(QLatin1String("absent.mirrorjob")), qPrintable(spelled.err));
    }

    void runUntilCaughtUpThenVerify()
    {
        const QString topic = test::uniqueName(QStringLiteral("headless"));
        QString error;
        QVERIFY2(test::createTopic(test::sourceBootstrap(), topic, 3, {}, &error), qPrintable(error));
        const QList<test::TestRecord> records = makeRecords(3000, 3, 1);
        QVERIFY2(test::produce(test::sourceBootstrap(), topic, records, &error), qPrintable(error));
        const QString profile = writeProfile(topic);

        const Result check = runExe({QStringLiteral("check"), profile}, 60000);
        QVERIFY2(check.exitCode == 0, qPrintable(check.out + check.err));
        QVERIFY2(check.out.contains(QStringLiteral("src.") + topic), qPrintable(check.out));

        // A static member, named the --name=value way.
        const Result run = runExe({QStringLiteral("run"), profile, QStringLiteral("--until-caught-up"),
                                   QStringLiteral("--instance-id=") + topic},
                                  180000);
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains(QLatin1String("stopped cleanly")), qPrintable(run.out));

        const auto copied = test::consumeAll(test::targetBootstrap(), QStringLiteral("src.") + topic);
        QVERIFY(copied);
        // consumeAll returns partition after partition, each in offset order.
        QList<test::TestRecord> expected;
        for (int partition = 0; partition < 3; ++partition) {
            for (const test::TestRecord &r : records) {
                if (r.partition == partition)
                    expected.append(r);
            }
        }
        QString difference;
        QVERIFY2(test::sameRecords(expected, *copied, &difference), qPrintable(difference));

        const Result verify = runExe({QStringLiteral("verify"), profile}, 120000);
        QVERIFY2(verify.exitCode == 0, qPrintable(verify.out + verify.err));

        // A record the mirror never saw on the target makes verify fail with 1.
        QVERIFY2(test::produce(test::targetBootstrap(), QStringLiteral("src.") + topic, {records.first()}, &error),
                 qPrintable(error));
        QVERIFY2(test::produce(test::sourceBootstrap(), topic, makeRecords(3, 3, 2), &error), qPrintable(error));
        const Result differs = runExe({QStringLiteral("verify"), profile}, 120000);
        QVERIFY2(differs.exitCode == 1, qPrintable(differs.out + differs.err));
    }

    void sigtermStopsCleanlyAndSigkillLosesNothing()
    {
        const QString topic = test::uniqueName(QStringLiteral("headless-kill"));
        QString error;
        QVERIFY2(test::createTopic(test::sourceBootstrap(), topic, 4, {}, &error), qPrintable(error));
        QList<test::TestRecord> all = makeRecords(20000, 4, 3);
        QVERIFY2(test::produce(test::sourceBootstrap(), topic, all, &error), qPrintable(error));
        // A slow copy so that the kill lands mid-run: 300 KB/s for ~3 MB.
        const QString profile = writeProfile(topic, QStringLiteral(",\n \"throttleBytesPerSecond\": 300000"));

        // 1. SIGKILL mid-copy (half copied): no clean stop, no final commit.
        double rate = 0;
        qint64 copiedBeforeKill = 0;
        {
            test::MirrorRun p(QStringLiteral("throttled run"));
            QVERIFY(p.start({QStringLiteral("run"), profile}));
            QVERIFY2(test::MirrorRun::waitUntil([&] { return p.copied() >= all.size() / 2 || p.finished(); }, 90000) &&
                         p.running(),
                     qPrintable(p.transcript()));
            rate = p.recentRate(3);
            copiedBeforeKill = p.copied();
            QVERIFY2(p.crash(), qPrintable(p.transcript()));
        }
        // 2. More records arrive while nothing runs.
        const QList<test::TestRecord> more = makeRecords(1000, 4, 4);
        QVERIFY2(test::produce(test::sourceBootstrap(), topic, more, &error), qPrintable(error));
        all += more;

        // 3. A continuous run (start still earliest) resumes from the last
        // commit; SIGTERM stops it cleanly once caught up.
        {
            test::MirrorRun p(QStringLiteral("restart"));
            QVERIFY(p.start({QStringLiteral("run"), writeProfile(topic)}));
            QVERIFY2(test::MirrorRun::waitUntil([&] { return p.caughtUp() || p.finished(); }, 180000) && p.caughtUp(),
                     qPrintable(p.transcript()));
            QVERIFY2(p.stop(), qPrintable(p.transcript()));
            QVERIFY2(p.outputContains(QStringLiteral("stopped cleanly")), qPrintable(p.transcript()));
        }
        // Every source record is on the target (duplicates from the replay are allowed),
        // and verify agrees (duplicates from a replay are a warning, not a difference).
        const auto copied = test::consumeAll(test::targetBootstrap(), QStringLiteral("src.") + topic);
        QVERIFY(copied);
        QVERIFY2(copied->size() >= all.size(),
                 qPrintable(QStringLiteral("%1 < %2").arg(copied->size()).arg(all.size())));
        QHash<int, QList<test::TestRecord>> sourceByPartition;
        QHash<int, QList<test::TestRecord>> targetByPartition;
        const auto source = test::consumeAll(test::sourceBootstrap(), topic);
        QVERIFY(source);
        for (const test::TestRecord &r : *source)
            sourceByPartition[r.partition].append(r);
        for (const test::TestRecord &r : *copied)
            targetByPartition[r.partition].append(r);
        for (auto it = sourceByPartition.cbegin(); it != sourceByPartition.cend(); ++it) {
            // Order within the partition is kept: the target, with replays removed, is the source.
            const QList<test::TestRecord> &src = it.value();
            const QList<test::TestRecord> &dst = targetByPartition.value(it.key());
            qsizetype j = 0;
            for (const test::TestRecord &r : dst) {
                if (j < src.size() && r == src[j])
                    ++j;
            }
            QVERIFY2(j == src.size(),
                     qPrintable(QStringLiteral("partition %1: only %2 of %3 source records found in order")
                                    .arg(it.key())
                                    .arg(j)
                                    .arg(src.size())));
        }
        // Progress won: what the restart copied again is what the killed run
        // had copied since its last periodic commit (about a second's worth).
        const qint64 duplicates = copied->size() - all.size();
        const qint64 bound = test::duplicateBound(rate);
        qInfo("kill -9 after %lld of %lld copied at %.0f records/s: %lld duplicates after the restart, bound %lld",
              copiedBeforeKill, qint64(all.size() - more.size()), rate, duplicates, bound);
        QVERIFY2(rate > 0, "no copy rate measured before the kill");
        QVERIFY2(duplicates <= bound, qPrintable(QStringLiteral("%1 duplicates > bound %2 (%3 copied before the kill)")
                                                     .arg(duplicates)
                                                     .arg(bound)
                                                     .arg(copiedBeforeKill)));
        const Result verify = runExe({QStringLiteral("verify"), writeProfile(topic)}, 120000);
        QVERIFY2(verify.exitCode == 0, qPrintable(verify.out + verify.err));
    }
};

QTEST_GUILESS_MAIN(TestHeadlessRun)
#include "tst_headless_run.moc"
