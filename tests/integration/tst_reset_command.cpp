// `mirrordesk reset` end to end: the real executable against the real source
// broker, with the group's offsets read back by an independent reader, Kafka's
// own ConsumerGroupCommand (kafka-consumer-groups --describe).

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "ProcessTestUtil.h"
#include "tst_progress_support.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace md;

namespace {

const QString kExe = QStringLiteral(MIRRORDESK_BINARY_DIR "/app/mirrordesk");
constexpr qint64 kBaseTime = 1700000000000LL; // record i: kBaseTime + i s

using Result = test::ExeResult;
using test::runProcess;

Result reset(const QStringList &args)
{
    return runProcess(kExe, QStringList{QStringLiteral("reset")} + args, 90000);
}

// Where tests/kafka/harness.sh keeps the Kafka jars (as tst_mm2_run finds them).
QString kafkaLibsDir(QString *error)
{
    QFile pom(QStringLiteral(MIRRORDESK_SOURCE_DIR "/tests/kafka/pom.xml"));
    if (!pom.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read tests/kafka/pom.xml");
        return {};
    }
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("<kafka.version>([^<]+)</kafka.version>"))
                                          .match(QString::fromUtf8(pom.readAll()));
    if (!m.hasMatch()) {
        *error = QStringLiteral("no <kafka.version> in tests/kafka/pom.xml");
        return {};
    }
    QString cache = qEnvironmentVariable("XDG_CACHE_HOME");
    if (cache.isEmpty())
        cache = QDir::homePath() + QStringLiteral("/.cache");
    const QString libs = cache + QStringLiteral("/mirrordesk/kafka-") + m.captured(1) + QStringLiteral("/libs");
    if (!QFile::exists(libs + QStringLiteral("/kafka-tools-") + m.captured(1) + QStringLiteral(".jar"))) {
        *error = QStringLiteral("kafka-tools-%1.jar is not in %2 (run: bash tests/kafka/harness.sh fetch)")
                     .arg(m.captured(1), libs);
        return {};
    }
    return libs;
}

QList<test::TestRecord> recordsFor(int partition, int count)
{
    QList<test::TestRecord> out;
    for (int i = 0; i < count; ++i) {
        test::TestRecord r;
        r.partition = partition;
        r.value = QByteArray("v") + QByteArray::number(i);
        r.timestamp = kBaseTime + qint64(i) * 1000;
        out.append(r);
    }
    return out;
}

using Offsets = QMap<QString, qint64>; // "topic[partition]" -> committed offset, -1: none ("-")

} // namespace

class TestResetCommand final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_libs;
    QString m_java;

    // The group's committed offsets as Kafka's own tool reports them.
    std::optional<Offsets> describe(const QString &group, QString *error)
    {
        const Result r =
            runProcess(m_java,
                       {QStringLiteral("-Xms32m"), QStringLiteral("-Xmx256m"), QStringLiteral("-XX:+UseSerialGC"),
                        QStringLiteral("-XX:TieredStopAtLevel=1"), QStringLiteral("-cp"), m_libs + QStringLiteral("/*"),
                        QStringLiteral("org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"),
                        QStringLiteral("--bootstrap-server"), test::sourceBootstrap(), QStringLiteral("--describe"),
                        QStringLiteral("--group"), group},
                       120000);
        if (r.exitCode != 0 && !r.out.contains(group)) {
            *error = QStringLiteral("ConsumerGroupCommand exit %1: %2 %3").arg(r.exitCode).arg(r.out, r.err);
            return std::nullopt;
        }
        // GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID
        Offsets out;
        for (const QString &line : r.out.split(QLatin1Char('\n'))) {
            const QStringList cols = line.simplified().split(QLatin1Char(' '));
            if (cols.size() < 4 || cols[0] != group)
                continue;
            bool ok = false;
            const qint64 offset = cols[3].toLongLong(&ok);
            out.insert(cols[1] + QLatin1Char('[') + cols[2] + QLatin1Char(']'), ok ? offset : -1);
        }
        return out;
    }

    QString writeProfile(const QString &base, const QString &group)
    {
        const QString path = m_dir.filePath(base + QStringLiteral(".mirrorjob"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(QStringLiteral(R"({"mirrordesk": 1, "name": "reset %1",
            "source": {"alias": "src", "bootstrap": "%2"},
            "target": {"alias": "dst", "bootstrap": "%3"},
            "topics": {"include": ["%1\\..*"]},
            "groupId": "%4", "start": "latest"})")
                    .arg(base, test::sourceBootstrap(), test::targetBootstrap(), group)
                    .toUtf8());
        return path;
    }

    // base.a: 2 partitions, a[0] 10 records (times 0..9 s) of which 0..1 deleted, a[1] 6 records;
    // base.b: 1 partition, 4 records. The group committed a[0] at 5 only.
    struct Job {
        QString base, group, profile, a, b;
    };
    std::optional<Job> makeJob()
    {
        Job j;
        j.base = test::uniqueName(QStringLiteral("resetcmd"));
        j.group = test::uniqueName(QStringLiteral("resetcmd-group"));
        j.a = j.base + QStringLiteral(".a");
        j.b = j.base + QStringLiteral(".b");
        QString error;
        test::GroupMember member;
        if (!test::createTopic(test::sourceBootstrap(), j.a, 2, {}, &error) ||
            !test::createTopic(test::sourceBootstrap(), j.b, 1, {}, &error) ||
            !test::produce(test::sourceBootstrap(), j.a, recordsFor(0, 10) + recordsFor(1, 6), &error) ||
            !test::produce(test::sourceBootstrap(), j.b, recordsFor(0, 4), &error) ||
            !test::deleteRecordsBefore(j.a, 0, 2, &error) ||
            !member.start(test::sourceBootstrap(), j.group, j.a, &error) || !member.commit({{0, 5}}, &error)) {
            qWarning("%s", qPrintable(error));
            return std::nullopt;
        }
        member.close();
        j.profile = writeProfile(j.base, j.group);
        return j;
    }

    QString key(const QString &topic, int partition) const
    {
        return topic + QLatin1Char('[') + QString::number(partition) + QLatin1Char(']');
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        QVERIFY2(QFile::exists(kExe), qPrintable(kExe + QStringLiteral(" was not built")));
        QVERIFY(m_dir.isValid());
        QString error;
        m_libs = kafkaLibsDir(&error);
        m_java = QStandardPaths::findExecutable(QStringLiteral("java"));
        if (m_libs.isEmpty() || m_java.isEmpty()) {
            const QString why = m_libs.isEmpty() ? error : QStringLiteral("java not found");
            if (test::isCi())
                QFAIL(qPrintable(why));
            QSKIP(qPrintable(why));
        }
    }

    void usageErrors()
    {
        Result r = reset({QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(QStringLiteral("usage: mirrordesk reset FILE.mirrorjob --to earliest|latest|TIME")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("--dry-run")), qPrintable(r.out));

        r = reset({QStringLiteral("job.mirrorjob"), QStringLiteral("--to"), QStringLiteral("earliest"),
                   QStringLiteral("--bogus")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("unknown option --bogus\n")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("usage: mirrordesk reset")), qPrintable(r.err));

        r = reset({QStringLiteral("job.mirrorjob")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--to is required")), qPrintable(r.err));

        r = reset({QStringLiteral("job.mirrorjob"), QStringLiteral("--to"), QStringLiteral("yesterday")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--to: \"yesterday\" is not an ISO 8601 date and time")),
                 qPrintable(r.err));
        r = reset({QStringLiteral("job.mirrorjob"), QStringLiteral("--to=2026-11-01T00:00:00")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("\"2026-11-01T00:00:00\" has no time zone")), qPrintable(r.err));

        // A profile that does not load is a usage/profile error too, and nothing is contacted.
        r = reset(
            {m_dir.filePath(QStringLiteral("missing.mirrorjob")), QStringLiteral("--to"), QStringLiteral("latest")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("missing.mirrorjob")), qPrintable(r.err));
    }

    void dryRunWritesNothingThenResetToEarliestWritesEveryPartition()
    {
        const std::optional<Job> job = makeJob();
        QVERIFY(job);
        QString error;
        const std::optional<Offsets> before = describe(job->group, &error);
        QVERIFY2(before, qPrintable(error));
        QCOMPARE(before->value(key(job->a, 0), -2), 5);

        Result r =
            reset({job->profile, QStringLiteral("--to"), QStringLiteral("earliest"), QStringLiteral("--dry-run")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("dry run: 3 partitions, 18 records to copy; nothing written")),
                 qPrintable(r.out));
        // topic, partition, committed now, new position, records to copy
        const auto row = [](const QString &topic, int partition, const QString &committed, qint64 start,
                            qint64 toCopy) {
            return QRegularExpression(QStringLiteral("(^|\\n)%1 +%2 +%3 +%4 +%5\\n")
                                          .arg(QRegularExpression::escape(topic))
                                          .arg(partition)
                                          .arg(committed)
                                          .arg(start)
                                          .arg(toCopy));
        };
        QVERIFY2(r.out.contains(row(job->a, 0, QStringLiteral("5"), 2, 8)), qPrintable(r.out));
        QVERIFY2(r.out.contains(row(job->a, 1, QStringLiteral("none"), 0, 6)), qPrintable(r.out));
        QVERIFY2(r.out.contains(row(job->b, 0, QStringLiteral("none"), 0, 4)), qPrintable(r.out));
        const std::optional<Offsets> afterDry = describe(job->group, &error);
        QVERIFY2(afterDry, qPrintable(error));
        QCOMPARE(*afterDry, *before);

        r = reset({job->profile, QStringLiteral("--to"), QStringLiteral("earliest")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("3 committed offsets written")), qPrintable(r.out));
        const std::optional<Offsets> after = describe(job->group, &error);
        QVERIFY2(after, qPrintable(error));
        const Offsets expected{{key(job->a, 0), 2}, {key(job->a, 1), 0}, {key(job->b, 0), 0}};
        QCOMPARE(*after, expected);
    }

    void runResumesAndOnlyAResetCopiesAgain()
    {
        // What the operator relies on: a run after a run copies nothing twice
        // (progress wins, whatever `start` says), and reset makes the next run
        // copy again from where it says.
        const std::optional<Job> job = makeJob();
        QVERIFY(job);
        Result r = reset({job->profile, QStringLiteral("--to"), QStringLiteral("earliest")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const auto targetCount = [&] {
            qint64 n = 0;
            for (const QString &t : {job->a, job->b})
                if (const auto got = test::consumeAll(test::targetBootstrap(), QStringLiteral("src.") + t))
                    n += got->size();
            return n;
        };
        const auto run = [&] {
            return runProcess(kExe, {QStringLiteral("run"), job->profile, QStringLiteral("--until-caught-up")}, 180000);
        };
        r = run();
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QCOMPARE(targetCount(), 18); // a[0] from 2 (0..1 deleted), a[1] and b from 0
        r = run();
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QCOMPARE(targetCount(), 18);
        r = reset({job->profile, QStringLiteral("--to"), QStringLiteral("earliest")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        r = run();
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QCOMPARE(targetCount(), 36);
    }

    void resetToLatestAndToATime()
    {
        const std::optional<Job> job = makeJob();
        QVERIFY(job);
        QString error;
        Result r = reset({job->profile, QStringLiteral("--to=latest")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("0 records to copy")), qPrintable(r.out));
        std::optional<Offsets> after = describe(job->group, &error);
        QVERIFY2(after, qPrintable(error));
        QCOMPARE(*after, (Offsets{{key(job->a, 0), 10}, {key(job->a, 1), 6}, {key(job->b, 0), 4}}));

        // 3.5 s after the base time: a[0] record 4 (1 is deleted anyway), a[1] record 4, b record 4 = the end.
        r = reset({job->profile, QStringLiteral("--to"), QStringLiteral("2023-11-14T22:13:23.500Z")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        after = describe(job->group, &error);
        QVERIFY2(after, qPrintable(error));
        QCOMPARE(*after, (Offsets{{key(job->a, 0), 4}, {key(job->a, 1), 4}, {key(job->b, 0), 4}}));
        // The same time in another zone is the same instant.
        r = reset({job->profile, QStringLiteral("--to"), QStringLiteral("2023-11-14T23:13:21+01:00")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        after = describe(job->group, &error);
        QVERIFY2(after, qPrintable(error));
        QCOMPARE(*after, (Offsets{{key(job->a, 0), 2}, {key(job->a, 1), 1}, {key(job->b, 0), 1}}));
    }

    void topicFilterResetsOnlyMatchingTopics()
    {
        const std::optional<Job> job = makeJob();
        QVERIFY(job);
        QString error;
        Result r = reset({job->profile, QStringLiteral("--to"), QStringLiteral("latest"), QStringLiteral("--topic"),
                          QRegularExpression::escape(job->b)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(!r.out.contains(job->a), qPrintable(r.out));
        const std::optional<Offsets> after = describe(job->group, &error);
        QVERIFY2(after, qPrintable(error));
        // (the tool lists only committed partitions of a group without members: a[1] has none)
        QCOMPARE(*after, (Offsets{{key(job->a, 0), 5}, {key(job->b, 0), 4}}));

        // A filter that matches no mirrored topic is said, not silently "done".
        r = reset({job->profile, QStringLiteral("--to"), QStringLiteral("latest"), QStringLiteral("--topic"),
                   QStringLiteral("nothing-like-this")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("no mirrored topic matches --topic nothing-like-this")),
                 qPrintable(r.err));
    }

    void refusedWhileTheGroupHasAnActiveMember()
    {
        const std::optional<Job> job = makeJob();
        QVERIFY(job);
        QString error;
        test::GroupMember member;
        const QString clientId = test::uniqueName(QStringLiteral("still-running"));
        QVERIFY2(member.start(test::sourceBootstrap(), job->group, job->a, &error, clientId), qPrintable(error));
        const Result r = reset({job->profile, QStringLiteral("--to"), QStringLiteral("earliest")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("refused: group ") + job->group), qPrintable(r.err));
        QVERIFY2(r.err.contains(clientId + QStringLiteral(" on ")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("stop the job's instances first")), qPrintable(r.err));
        member.close();
        const std::optional<Offsets> after = describe(job->group, &error);
        QVERIFY2(after, qPrintable(error));
        QCOMPARE(after->value(key(job->a, 0), -2), 5);
        QVERIFY2(!after->contains(key(job->b, 0)), qPrintable(QStringList(after->keys()).join(QLatin1Char(' '))));
    }
};

QTEST_GUILESS_MAIN(TestResetCommand)
#include "tst_reset_command.moc"
