// A job started from the window runs its engine thread and librdkafka's
// threads at a lower priority (MirrorJob::setBackgroundPriority), so the
// window's thread gets a core while busy jobs take all of them; a headless
// job keeps full priority. Read from /proc: the nice value of each thread the
// job created. Linux only (nice is per thread there).

#include "MockCluster.h"
#include "engine/core/BackgroundPriority.h"
#include "engine/mirror/MirrorJob.h"

#include <QDir>
#include <QFile>
#include <QMap>
#include <QTest>

#include <thread>

using namespace md;
using md::test::MockCluster;

namespace {

// Every thread of this process: id -> (name, nice).
struct ThreadInfo {
    QString name;
    int nice = 0;
};

QMap<int, ThreadInfo> threads()
{
    QMap<int, ThreadInfo> out;
    const QDir tasks(QStringLiteral("/proc/self/task"));
    for (const QString &tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile comm(tasks.filePath(tid + QStringLiteral("/comm")));
        QFile stat(tasks.filePath(tid + QStringLiteral("/stat")));
        if (!comm.open(QIODevice::ReadOnly) || !stat.open(QIODevice::ReadOnly))
            continue; // ended meanwhile
        const QByteArray line = stat.readAll();
        // "tid (comm) state ...": fields after the last ')' start at field 3; nice is field 19.
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() < 17)
            continue;
        out.insert(tid.toInt(), {QString::fromUtf8(comm.readAll().trimmed()), fields.at(16).toInt()});
    }
    return out;
}

MirrorJobSpec spec(const MockCluster &src, const MockCluster &dst)
{
    MirrorJobSpec s;
    s.name = QStringLiteral("priority");
    s.groupId = QStringLiteral("g-priority");
    s.source.bootstrap = src.bootstrap();
    s.target.bootstrap = dst.bootstrap();
    s.include = {QStringLiteral("t")};
    s.naming = NamingPolicy::Identity;
    s.stop = StopCondition::RunForever;
    s.samplingIntervalMs = 100;
    return s;
}

} // namespace

class TstJobPriority final : public QObject {
    Q_OBJECT

    // The nice values of the librdkafka threads a job made, once it runs.
    QList<int> jobThreadNices(bool background)
    {
        MockCluster src, dst;
        src.createTopic(QStringLiteral("t"), 2);
        dst.createTopic(QStringLiteral("t"), 2);
        const QMap<int, ThreadInfo> before = threads();
        MirrorJob job(spec(src, dst));
        job.setBackgroundPriority(background);
        job.start();
        QList<int> nices;
        if (!QTest::qWaitFor([&] { return job.state() == JobState::Running; }, 30000))
            qWarning("the job did not reach Running: state %d", int(job.state()));
        const QMap<int, ThreadInfo> after = threads();
        for (auto it = after.begin(); it != after.end(); ++it)
            if (!before.contains(it.key()) && it->name.startsWith(QLatin1String("rdk:")))
                nices << it->nice;
        job.stop();
        job.waitForFinished(30000);
        return nices;
    }

private Q_SLOTS:
    void initTestCase()
    {
#ifndef Q_OS_LINUX
        QSKIP("nice is per thread on Linux only");
#endif
        if (BackgroundPriority::currentThreadNice() > 9)
            QSKIP("the test runs at nice 10 or more already: nothing left to lower");
    }

    void aWindowsJobRunsBelowTheWindow()
    {
        const int base = BackgroundPriority::currentThreadNice();
        const QList<int> nices = jobThreadNices(true);
        // The consumer's and producer's main and broker threads, at least.
        QVERIFY2(nices.size() >= 4, qPrintable(QString::number(nices.size())));
        for (int nice : nices)
            QCOMPARE(nice, std::min(19, base + 10));
        QCOMPARE(BackgroundPriority::currentThreadNice(), base); // the caller's own thread is untouched
    }

    void aHeadlessJobKeepsFullPriority()
    {
        const int base = BackgroundPriority::currentThreadNice();
        const QList<int> nices = jobThreadNices(false);
        QVERIFY2(nices.size() >= 4, qPrintable(QString::number(nices.size())));
        for (int nice : nices)
            QCOMPARE(nice, base);
    }

    void priorityIsRestoredForThreadsThatLiveOn()
    {
        // A pool thread's task: lowered inside, as before after (where allowed).
        const int main = BackgroundPriority::currentThreadNice();
        int before = 0, inside = 0, after = 0;
        std::thread pool([&] {
            before = BackgroundPriority::currentThreadNice();
            {
                const BackgroundPriority lower;
                inside = BackgroundPriority::currentThreadNice();
            }
            after = BackgroundPriority::currentThreadNice();
        });
        pool.join();
        QCOMPARE(inside, std::min(19, main + 10));
        // Without CAP_SYS_NICE the raise back is refused and the thread stays low.
        QVERIFY2(after == before || after == inside, qPrintable(QString::number(after)));
        QCOMPARE(BackgroundPriority::currentThreadNice(), main);
    }
};

QTEST_GUILESS_MAIN(TstJobPriority)
#include "tst_jobpriority.moc"
