// The user's path end to end with the real executable and the real brokers:
// one profile, `mirrordesk run --until-caught-up`, then `mirrordesk verify`.
// Also: SIGTERM stops a continuous run cleanly (exit 0), and a run killed with
// SIGKILL mid-copy resumes from its last commit without losing a record.
#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <csignal>

using namespace md;

namespace {

const QString kExe = QStringLiteral(MIRRORDESK_BINARY_DIR "/app/mirrordesk");

struct Result {
    int exitCode = -1; // -1: crashed or timed out
    QString out;
    QString err;
};

Result finish(QProcess &p, int timeoutMs)
{
    Result r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
    } else if (p.exitStatus() == QProcess::NormalExit) {
        r.exitCode = p.exitCode();
    }
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

Result runExe(const QStringList &args, int timeoutMs)
{
    QProcess p;
    p.start(kExe, args);
    return finish(p, timeoutMs);
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
        const QString path = m_dir.filePath(topic + QStringLiteral(".mirrorjob"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        const QString json =
            QStringLiteral("{\n \"mirrordesk\": 1,\n \"name\": \"%1\",\n"
                           " \"source\": {\"alias\": \"src\", \"bootstrap\": \"%2\"},\n"
                           " \"target\": {\"alias\": \"dst\", \"bootstrap\": \"%3\"},\n"
                           " \"topics\": {\"include\": [\"%4\"]},\n"
                           " \"naming\": {\"policy\": \"prefix\", \"separator\": \".\"},\n"
                           " \"start\": \"earliest\"%5\n}\n")
                .arg(topic, test::sourceBootstrap(), test::targetBootstrap(), QRegularExpression::escape(topic)
                                                                                      .replace(QLatin1String("\\"),
                                                                                               QLatin1String("\\\\")),
                     extra);
        f.write(json.toUtf8());
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        QVERIFY(QFile::exists(kExe));
        QVERIFY(m_dir.isValid());
    }

    void runArgumentsAreParsed()
    {
        const Result help = runExe({QStringLiteral("run"), QStringLiteral("--help")}, 10000);
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.startsWith(QLatin1String("usage: mirrordesk run FILE")), qPrintable(help.out));
        for (const char *option : {"--until-caught-up", "--sandbox", "--metrics-port", "--instance-id"})
            QVERIFY2(help.out.contains(QLatin1String(option)), option);

        const Result unknown = runExe({QStringLiteral("run"), QStringLiteral("x.mirrorjob"), QStringLiteral("--bogus")}, 10000);
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains(QLatin1String("unknown option --bogus")), qPrintable(unknown.err));
        QVERIFY2(unknown.err.contains(QLatin1String("usage: mirrordesk run")), qPrintable(unknown.err));

        const Result none = runExe({QStringLiteral("run")}, 10000);
        QCOMPARE(none.exitCode, 2);
        QVERIFY2(none.err.contains(QLatin1String("usage:")), qPrintable(none.err));
        const Result two = runExe({QStringLiteral("run"), QStringLiteral("a.mirrorjob"), QStringLiteral("b.mirrorjob")}, 10000);
        QCOMPARE(two.exitCode, 2);
        QVERIFY2(two.err.contains(QLatin1String("one profile at a time")), qPrintable(two.err));

        for (const QStringList &bad : {QStringList{QStringLiteral("--metrics-port=abc")},
                                       QStringList{QStringLiteral("--metrics-port"), QStringLiteral("70000")}}) {
            const Result port = runExe(QStringList{QStringLiteral("run"), QStringLiteral("x.mirrorjob")} + bad, 10000);
            QCOMPARE(port.exitCode, 2);
            QVERIFY2(port.err.contains(QLatin1String("--metrics-port needs a port number")), qPrintable(port.err));
        }
        const Result missing = runExe({QStringLiteral("run"), QStringLiteral("x.mirrorjob"), QStringLiteral("--metrics-port")}, 10000);
        QCOMPARE(missing.exitCode, 2);
        const Result emptyId = runExe({QStringLiteral("run"), QStringLiteral("x.mirrorjob"), QStringLiteral("--instance-id=")}, 10000);
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

        // 1. SIGKILL mid-copy: no clean stop, no final commit.
        {
            QProcess p;
            p.start(kExe, {QStringLiteral("run"), profile});
            QVERIFY(p.waitForStarted());
            QElapsedTimer t;
            t.start();
            bool copying = false;
            QString out;
            while (!copying && t.elapsed() < 90000 && p.state() == QProcess::Running) {
                p.waitForReadyRead(500);
                out += QString::fromUtf8(p.readAllStandardOutput());
                static const QRegularExpression copied(QStringLiteral("copied ([1-9][0-9.]*)"));
                copying = copied.match(out).hasMatch();
            }
            QVERIFY2(copying, qPrintable(out));
            QTest::qWait(2500); // let at least one periodic commit happen
            ::kill(pid_t(p.processId()), SIGKILL);
            QVERIFY(p.waitForFinished(10000));
            QCOMPARE(p.exitStatus(), QProcess::CrashExit);
        }
        // 2. More records arrive while nothing runs.
        const QList<test::TestRecord> more = makeRecords(1000, 4, 4);
        QVERIFY2(test::produce(test::sourceBootstrap(), topic, more, &error), qPrintable(error));
        all += more;

        // 3. A continuous run resumes from the last commit; SIGTERM stops it cleanly once caught up.
        {
            QProcess p;
            p.start(kExe, {QStringLiteral("run"), writeProfile(topic)});
            QVERIFY(p.waitForStarted());
            QElapsedTimer t;
            t.start();
            QString out;
            while (!out.contains(QLatin1String("caught-up")) && t.elapsed() < 180000 && p.state() == QProcess::Running) {
                p.waitForReadyRead(500);
                out += QString::fromUtf8(p.readAllStandardOutput());
            }
            QVERIFY2(out.contains(QLatin1String("caught-up")), qPrintable(out));
            ::kill(pid_t(p.processId()), SIGTERM);
            const Result r = finish(p, 60000);
            QVERIFY2(r.exitCode == 0, qPrintable(out + r.out + r.err));
            QVERIFY2(r.out.contains(QLatin1String("stopped cleanly")), qPrintable(r.out));
        }

        // Every source record is on the target (duplicates from the replay are allowed),
        // and verify agrees (duplicates from a replay are a warning, not a difference).
        const auto copied = test::consumeAll(test::targetBootstrap(), QStringLiteral("src.") + topic);
        QVERIFY(copied);
        QVERIFY2(copied->size() >= all.size(), qPrintable(QStringLiteral("%1 < %2").arg(copied->size()).arg(all.size())));
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
            QVERIFY2(j == src.size(), qPrintable(QStringLiteral("partition %1: only %2 of %3 source records found in order")
                                                     .arg(it.key()).arg(j).arg(src.size())));
        }
        const Result verify = runExe({QStringLiteral("verify"), writeProfile(topic)}, 120000);
        QVERIFY2(verify.exitCode == 0, qPrintable(verify.out + verify.err));
    }
};

QTEST_GUILESS_MAIN(TestHeadlessRun)
#include "tst_headless_run.moc"
