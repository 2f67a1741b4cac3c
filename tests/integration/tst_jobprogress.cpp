// readJobProgress, planReset and applyReset against the real source broker:
// where each partition of a job starts by the "progress always wins" rule, with
// the group's offsets written by an independent client (a real group member)
// and records removed with DeleteRecords through librdkafka directly.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/mirror/JobProgress.h"
#include "tst_progress_support.h"

#include <QRegularExpression>
#include <QtTest/QtTest>

using namespace md;

namespace {

constexpr qint64 kBaseTime = 1700000000000LL; // record i of a partition: kBaseTime + i s
constexpr int kTimeoutMs = 30000;

// `count` records into `partition`, the i-th with timestamp kBaseTime + i s (+ offsetSeconds).
QList<test::TestRecord> recordsFor(int partition, int count, qint64 offsetSeconds = 0)
{
    QList<test::TestRecord> out;
    for (int i = 0; i < count; ++i) {
        test::TestRecord r;
        r.partition = partition;
        r.key = QByteArray("k") + QByteArray::number(i);
        r.value = QByteArray("v") + QByteArray::number(i);
        r.timestamp = kBaseTime + (offsetSeconds + i) * 1000;
        out.append(r);
    }
    return out;
}

// Commits `offsets` for `topic` in `group` as a real member, then leaves the group.
bool commitAsMember(const QString &group, const QString &topic, const QMap<int, qint64> &offsets, QString *error)
{
    test::GroupMember member;
    if (!member.start(test::sourceBootstrap(), group, topic, error))
        return false;
    const bool ok = member.commit(offsets, error);
    member.close();
    return ok;
}

const PartitionStart *find(const JobProgress &p, const QString &topic, int partition)
{
    for (const PartitionStart &s : p.partitions) {
        if (s.topic == topic && s.partition == partition)
            return &s;
    }
    return nullptr;
}

QString dump(const JobProgress &p)
{
    QStringList lines{QStringLiteral("ok=%1 error=%2 group=%3 state=%4 members=%5")
                          .arg(p.ok)
                          .arg(p.error, p.groupId, p.groupState, p.members.join(QLatin1Char(',')))};
    for (const PartitionStart &s : p.partitions)
        lines << QStringLiteral("%1[%2] log %3..%4 committed %5 start %6 reason %7 toCopy %8 skipped %9: %10")
                     .arg(s.topic)
                     .arg(s.partition)
                     .arg(s.logStart)
                     .arg(s.end)
                     .arg(s.committed)
                     .arg(s.start)
                     .arg(int(s.reason))
                     .arg(s.toCopy)
                     .arg(s.skipped)
                     .arg(s.describe());
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestJobProgress final : public QObject {
    Q_OBJECT

    // A job over `base`'s topics (topics named base.*), its own group.
    MirrorJobSpec jobFor(const QString &base, StartPosition start, const QString &group) const
    {
        MirrorJobSpec s;
        s.name = base;
        s.source = test::clusterConfig(QStringLiteral("source"));
        s.source.alias = QStringLiteral("src");
        s.target = test::clusterConfig(QStringLiteral("target"));
        s.target.alias = QStringLiteral("dst");
        s.include = {QRegularExpression::escape(base) + QStringLiteral("\\..*")};
        s.groupId = group;
        s.start = start;
        return s;
    }

    // base.a with 2 partitions (10 records in 0 at 0..9 s, 6 in 1 at -10..-5 s), base.b with 1
    // (4 records at 100..103 s); no progress.
    QString makeTopics()
    {
        const QString base = test::uniqueName(QStringLiteral("progress"));
        QString error;
        if (!test::createTopic(test::sourceBootstrap(), base + QStringLiteral(".a"), 2, {}, &error) ||
            !test::createTopic(test::sourceBootstrap(), base + QStringLiteral(".b"), 1, {}, &error) ||
            !test::produce(test::sourceBootstrap(), base + QStringLiteral(".a"),
                           recordsFor(0, 10) + recordsFor(1, 6, -10), &error) ||
            !test::produce(test::sourceBootstrap(), base + QStringLiteral(".b"), recordsFor(0, 4, 100), &error)) {
            qWarning("%s", qPrintable(error));
            return {};
        }
        return base;
    }

private Q_SLOTS:
    void initTestCase() { MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target")); }

    void noProgressStartsAsTheProfileSays_data()
    {
        QTest::addColumn<int>("start");
        QTest::newRow("committed") << int(StartPosition::Committed);
        QTest::newRow("earliest") << int(StartPosition::Earliest);
        QTest::newRow("latest") << int(StartPosition::Latest);
        QTest::newRow("timestamp") << int(StartPosition::Timestamp);
    }

    void noProgressStartsAsTheProfileSays()
    {
        QFETCH(int, start);
        const QString base = makeTopics();
        QVERIFY(!base.isEmpty());
        const QString group = test::uniqueName(QStringLiteral("progress-group"));
        MirrorJobSpec spec = jobFor(base, StartPosition(start), group);
        // Records 4.. of base.a[0] are at or after this time, none of base.a[1]'s, all of base.b's.
        spec.startTimestamp = QDateTime::fromMSecsSinceEpoch(kBaseTime + 4000, Qt::UTC);
        const JobProgress p = readJobProgress(spec, kTimeoutMs);
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(p.groupId, group);
        QVERIFY2(p.members.isEmpty(), qPrintable(dump(p)));
        QVERIFY2(!p.groupActive(), qPrintable(dump(p)));
        QCOMPARE(p.partitions.size(), 3);
        QCOMPARE(p.partitions[0].topic, base + QStringLiteral(".a"));
        QCOMPARE(p.partitions[0].partition, 0);
        QCOMPARE(p.partitions[1].partition, 1);
        QCOMPARE(p.partitions[2].topic, base + QStringLiteral(".b"));
        const qint64 ends[] = {10, 6, 4};
        for (int i = 0; i < 3; ++i) {
            const PartitionStart &s = p.partitions[i];
            QCOMPARE(s.committed, -1);
            QCOMPARE(s.logStart, 0);
            QCOMPARE(s.end, ends[i]);
        }
        switch (StartPosition(start)) {
        case StartPosition::Committed:
        case StartPosition::Earliest:
            for (int i = 0; i < 3; ++i) {
                QCOMPARE(p.partitions[i].reason, StartReason::Earliest);
                QCOMPARE(p.partitions[i].start, 0);
                QCOMPARE(p.partitions[i].toCopy, ends[i]);
            }
            QCOMPARE(p.partitions[0].describe(), QStringLiteral("starts at 0 (earliest, no progress)"));
            QCOMPARE(p.totalToCopy(), 20);
            break;
        case StartPosition::Latest:
            for (int i = 0; i < 3; ++i) {
                QCOMPARE(p.partitions[i].reason, StartReason::Latest);
                QCOMPARE(p.partitions[i].start, ends[i]);
                QCOMPARE(p.partitions[i].toCopy, 0);
            }
            QCOMPARE(p.partitions[0].describe(), QStringLiteral("starts at 10 (latest, no progress)"));
            QCOMPARE(p.totalToCopy(), 0);
            break;
        case StartPosition::Timestamp:
            for (const PartitionStart &s : p.partitions)
                QCOMPARE(s.reason, StartReason::Timestamp);
            QCOMPARE(p.partitions[0].start, 4);
            QCOMPARE(p.partitions[0].toCopy, 6);
            QCOMPARE(p.partitions[1].start, 6); // nothing that new: the end
            QCOMPARE(p.partitions[1].toCopy, 0);
            QCOMPARE(p.partitions[2].start, 0);
            QCOMPARE(p.partitions[2].toCopy, 4);
            QVERIFY2(p.partitions[0].describe().startsWith(
                         QStringLiteral("starts at 4 (first record at or after 2023-11-14T22:13:24Z")),
                     qPrintable(p.partitions[0].describe()));
            QCOMPARE(p.totalToCopy(), 10);
            break;
        }
    }

    void committedProgressWinsOverStart_data()
    {
        QTest::addColumn<int>("start");
        QTest::newRow("earliest") << int(StartPosition::Earliest);
        QTest::newRow("latest") << int(StartPosition::Latest);
        QTest::newRow("timestamp") << int(StartPosition::Timestamp);
    }

    void committedProgressWinsOverStart()
    {
        QFETCH(int, start);
        const QString base = makeTopics();
        QVERIFY(!base.isEmpty());
        const QString group = test::uniqueName(QStringLiteral("progress-group"));
        MirrorJobSpec spec = jobFor(base, StartPosition(start), group);
        spec.startTimestamp = QDateTime::fromMSecsSinceEpoch(kBaseTime + 8000, Qt::UTC);
        QString error;
        // A member that stays: the group is active and its members are named.
        test::GroupMember member;
        const QString clientId = test::uniqueName(QStringLiteral("progress-member"));
        QVERIFY2(member.start(test::sourceBootstrap(), group, base + QStringLiteral(".a"), &error, clientId),
                 qPrintable(error));
        QVERIFY2(member.commit({{0, 4}, {1, 6}}, &error), qPrintable(error));
        JobProgress p = readJobProgress(spec, kTimeoutMs);
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(p.members.size(), 1);
        QVERIFY2(p.members[0].startsWith(clientId + QStringLiteral(" on ")), qPrintable(p.members[0]));
        QVERIFY2(p.groupActive(), qPrintable(dump(p)));
        member.close();

        p = readJobProgress(spec, kTimeoutMs);
        QVERIFY2(p.ok, qPrintable(p.error));
        QVERIFY2(p.members.isEmpty(), qPrintable(dump(p)));
        QCOMPARE(p.groupState, QStringLiteral("Empty"));
        QVERIFY(!p.groupActive());
        const PartitionStart *a0 = find(p, base + QStringLiteral(".a"), 0);
        const PartitionStart *a1 = find(p, base + QStringLiteral(".a"), 1);
        const PartitionStart *b0 = find(p, base + QStringLiteral(".b"), 0);
        QVERIFY2(a0 && a1 && b0, qPrintable(dump(p)));
        QCOMPARE(a0->reason, StartReason::Committed);
        QCOMPARE(a0->committed, 4);
        QCOMPARE(a0->start, 4);
        QCOMPARE(a0->toCopy, 6);
        QCOMPARE(a0->describe(), QStringLiteral("resumes at 4 (committed)"));
        QCOMPARE(a1->reason, StartReason::Committed);
        QCOMPARE(a1->start, 6);
        QCOMPARE(a1->toCopy, 0);
        // base.b has no progress: `start` decides.
        QCOMPARE(b0->committed, -1);
        const StartReason expected = StartPosition(start) == StartPosition::Earliest ? StartReason::Earliest
                                     : StartPosition(start) == StartPosition::Latest ? StartReason::Latest
                                                                                     : StartReason::Timestamp;
        QCOMPARE(b0->reason, expected);
        QCOMPARE(b0->start, StartPosition(start) == StartPosition::Latest ? 4 : 0);
        QCOMPARE(p.totalToCopy(), 6 + (StartPosition(start) == StartPosition::Latest ? 0 : 4));
    }

    void committedBelowLogStartCountsTheVanishedRecords()
    {
        const QString base = makeTopics();
        QVERIFY(!base.isEmpty());
        const QString group = test::uniqueName(QStringLiteral("progress-group"));
        const QString a = base + QStringLiteral(".a");
        QString error;
        QVERIFY2(commitAsMember(group, a, {{0, 2}, {1, 3}}, &error), qPrintable(error));
        // Records 0..6 of a[0] go: 5 of them (2..6) were never copied. a[1] loses 0..2, all copied already.
        QVERIFY2(test::deleteRecordsBefore(a, 0, 7, &error), qPrintable(error));
        QVERIFY2(test::deleteRecordsBefore(a, 1, 3, &error), qPrintable(error));
        const JobProgress p = readJobProgress(jobFor(base, StartPosition::Earliest, group), kTimeoutMs);
        QVERIFY2(p.ok, qPrintable(p.error));
        const PartitionStart *a0 = find(p, a, 0);
        const PartitionStart *a1 = find(p, a, 1);
        QVERIFY2(a0 && a1, qPrintable(dump(p)));
        QCOMPARE(a0->reason, StartReason::CommittedBelowLogStart);
        QCOMPARE(a0->logStart, 7);
        QCOMPARE(a0->committed, 2);
        QCOMPARE(a0->start, 7);
        QCOMPARE(a0->skipped, 5);
        QCOMPARE(a0->toCopy, 3);
        QCOMPARE(a0->vanishedText(), QStringLiteral("5 records vanished before they were copied: offsets 2..6"));
        QCOMPARE(a1->reason, StartReason::Committed); // committed == log start: nothing vanished
        QCOMPARE(a1->start, 3);
        QCOMPARE(a1->skipped, 0);
        QVERIFY(a1->vanishedText().isEmpty());
        QCOMPARE(p.totalSkipped(), 5);
    }

    void committedPastTheEndStartsAtTheLogStart()
    {
        const QString base = makeTopics();
        QVERIFY(!base.isEmpty());
        const QString group = test::uniqueName(QStringLiteral("progress-group"));
        const QString a = base + QStringLiteral(".a");
        QString error;
        QVERIFY2(commitAsMember(group, a, {{0, 500}}, &error), qPrintable(error));
        QVERIFY2(test::deleteRecordsBefore(a, 0, 3, &error), qPrintable(error));
        const JobProgress p = readJobProgress(jobFor(base, StartPosition::Latest, group), kTimeoutMs);
        QVERIFY2(p.ok, qPrintable(p.error));
        const PartitionStart *a0 = find(p, a, 0);
        QVERIFY2(a0, qPrintable(dump(p)));
        QCOMPARE(a0->reason, StartReason::CommittedPastEnd);
        QCOMPARE(a0->committed, 500);
        QCOMPARE(a0->start, 3);
        QCOMPARE(a0->toCopy, 7);
    }

    void planResetPositions_data()
    {
        QTest::addColumn<int>("to");
        QTest::addColumn<QString>("topicPattern");
        QTest::newRow("earliest") << int(ResetRequest::To::Earliest) << QString();
        QTest::newRow("latest") << int(ResetRequest::To::Latest) << QString();
        QTest::newRow("timestamp") << int(ResetRequest::To::Timestamp) << QString();
        QTest::newRow("earliest, topic a only") << int(ResetRequest::To::Earliest) << QStringLiteral(".*\\.a");
    }

    void planResetPositions()
    {
        QFETCH(int, to);
        QFETCH(QString, topicPattern);
        const QString base = makeTopics();
        QVERIFY(!base.isEmpty());
        const QString group = test::uniqueName(QStringLiteral("progress-group"));
        const QString a = base + QStringLiteral(".a");
        QString error;
        QVERIFY2(commitAsMember(group, a, {{0, 8}}, &error), qPrintable(error));
        QVERIFY2(test::deleteRecordsBefore(a, 0, 2, &error), qPrintable(error));
        const MirrorJobSpec spec = jobFor(base, StartPosition::Latest, group);
        ResetRequest request;
        request.to = ResetRequest::To(to);
        request.topicPattern = topicPattern;
        request.timestamp = QDateTime::fromMSecsSinceEpoch(kBaseTime + 3000, Qt::UTC);
        const JobProgress plan = planReset(spec, request, kTimeoutMs);
        QVERIFY2(plan.ok, qPrintable(plan.error));
        QCOMPARE(plan.partitions.size(), topicPattern.isEmpty() ? 3 : 2);
        for (const PartitionStart &s : plan.partitions)
            QCOMPARE(s.reason, StartReason::Reset);
        // a[0]: log 2..10 (times 2..9 s), committed 8; a[1]: 0..6 (times -10..-5 s), none;
        // b[0]: 0..4 (times 100..103 s), none.
        QList<qint64> expected;
        switch (ResetRequest::To(to)) {
        case ResetRequest::To::Earliest: expected = {2, 0, 0}; break;
        case ResetRequest::To::Latest: expected = {10, 6, 4}; break;
        case ResetRequest::To::Timestamp: expected = {3, 6, 0}; break;
        }
        for (qsizetype i = 0; i < plan.partitions.size(); ++i) {
            QCOMPARE(plan.partitions[i].start, expected[i]);
            QCOMPARE(plan.partitions[i].toCopy, plan.partitions[i].end - expected[i]);
        }
        QCOMPARE(plan.partitions[0].committed, 8);
        QCOMPARE(plan.partitions[1].committed, -1);

        // Written: every planned partition gets a commit, the one that had none too;
        // the rule then resumes each there.
        const ResetOutcome outcome = applyReset(spec, plan, kTimeoutMs);
        QVERIFY2(outcome.ok, qPrintable(outcome.error));
        QCOMPARE(outcome.partitionsWritten, int(plan.partitions.size()));
        const JobProgress after = readJobProgress(spec, kTimeoutMs);
        QVERIFY2(after.ok, qPrintable(after.error));
        for (qsizetype i = 0; i < plan.partitions.size(); ++i) {
            QCOMPARE(after.partitions[i].committed, expected[i]);
            QCOMPARE(after.partitions[i].reason, StartReason::Committed);
        }
        if (!topicPattern.isEmpty()) {
            QCOMPARE(after.partitions[2].committed, -1); // base.b untouched
            QCOMPARE(after.partitions[2].reason, StartReason::Latest);
        }
    }

    void resetIsRefusedWhileTheGroupHasMembers()
    {
        const QString base = makeTopics();
        QVERIFY(!base.isEmpty());
        const QString group = test::uniqueName(QStringLiteral("progress-group"));
        const QString a = base + QStringLiteral(".a");
        QString error;
        test::GroupMember member;
        const QString clientId = test::uniqueName(QStringLiteral("blocker"));
        QVERIFY2(member.start(test::sourceBootstrap(), group, a, &error, clientId), qPrintable(error));
        QVERIFY2(member.commit({{0, 5}}, &error), qPrintable(error));
        const MirrorJobSpec spec = jobFor(base, StartPosition::Earliest, group);
        const JobProgress plan = planReset(spec, {}, kTimeoutMs);
        QVERIFY2(plan.ok, qPrintable(plan.error));
        const ResetOutcome outcome = applyReset(spec, plan, kTimeoutMs);
        QVERIFY(!outcome.ok);
        QVERIFY2(outcome.error.contains(group), qPrintable(outcome.error));
        QVERIFY2(outcome.error.contains(clientId + QStringLiteral(" on ")), qPrintable(outcome.error));
        QVERIFY2(outcome.error.contains(QStringLiteral("1 active member")), qPrintable(outcome.error));
        QCOMPARE(outcome.partitionsWritten, 0);
        member.close();
        const JobProgress after = readJobProgress(spec, kTimeoutMs);
        QVERIFY2(after.ok, qPrintable(after.error));
        QCOMPARE(find(after, a, 0)->committed, 5);
        QCOMPARE(find(after, a, 1)->committed, -1);
    }

    void unreachableClusterIsNamed()
    {
        MirrorJobSpec spec = jobFor(QStringLiteral("nothing"), StartPosition::Earliest, QStringLiteral("g"));
        spec.source.bootstrap = QStringLiteral("127.0.0.1:1");
        spec.source.alias = QStringLiteral("eu");
        const JobProgress p = readJobProgress(spec, 3000);
        QVERIFY(!p.ok);
        QVERIFY2(p.error.startsWith(QStringLiteral("source cluster eu (127.0.0.1:1): metadata: ")),
                 qPrintable(p.error));
    }
};

QTEST_GUILESS_MAIN(TestJobProgress)
#include "tst_jobprogress.moc"
