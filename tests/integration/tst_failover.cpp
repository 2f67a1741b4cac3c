// `mirrordesk failover` end to end: real brokers, the real executable, a real
// consumer group on the source (committed by the test's own librdkafka member),
// and Kafka's own ConsoleConsumer as that group on the target, which must read
// first exactly the record the group would have read next on the source.

#include "broker_configs.h"
#include "failover_support.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace md;
using namespace md::test;

namespace {

QList<TestRecord> valuesFor(int partition, int from, int count, int pad = 0)
{
    QList<TestRecord> out;
    for (int i = from; i < from + count; ++i) {
        TestRecord r;
        r.partition = partition;
        r.value = QStringLiteral("p%1-%2").arg(partition).arg(i).toUtf8() + QByteArray(pad, 'x');
        out.append(r);
    }
    return out;
}

QString diag(const ExeResult &r)
{
    return QStringLiteral("exit %1\n--- stdout:\n%2\n--- stderr:\n%3")
        .arg(r.exitCode)
        .arg(r.out.right(5000), r.err.right(5000));
}

} // namespace

class TstFailover final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    // The group on the target reads first, in every partition, what it would have read next on the source.
    void checkGroupContinuesOnTarget(const QString &topic, const QString &group,
                                     const QMap<int, qint64> &sourceCommitted, qint64 remaining,
                                     QMap<int, QStringList> *read = nullptr)
    {
        QString error;
        const auto expected = nextOnSource(topic, sourceCommitted, &error);
        QVERIFY2(expected, qPrintable(error));
        const auto records =
            consumeAsGroup(targetBootstrap(), QStringLiteral("src.") + topic, group, remaining, &error);
        QVERIFY2(records, qPrintable(error));
        const QMap<int, QStringList> byPartition = valuesByPartition(*records);
        for (auto it = expected->begin(); it != expected->end(); ++it) {
            QVERIFY2(!byPartition.value(it.key()).isEmpty(),
                     qPrintable(QStringLiteral("nothing read in partition %1").arg(it.key())));
            QCOMPARE(byPartition.value(it.key()).first(), it.value());
        }
        if (read)
            *read = byPartition;
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS();
        MD_REQUIRE_KAFKA_TOOLS();
        QVERIFY2(QFile::exists(mirrordeskExe()), qPrintable(mirrordeskExe() + QStringLiteral(" was not built")));
        QVERIFY(m_dir.isValid());
    }

    void usage()
    {
        ExeResult r = failoverCommand({QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(QStringLiteral("usage: mirrordesk failover FILE.mirrorjob")), qPrintable(r.out));
        r = failoverCommand({QStringLiteral("x.mirrorjob"), QStringLiteral("--max-lag"), QStringLiteral("many")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--max-lag")), qPrintable(r.err));
        r = failoverCommand({QStringLiteral("x.mirrorjob"), QStringLiteral("--groups"), QStringLiteral("(")});
        QCOMPARE(r.exitCode, 2);
        r = failoverCommand({m_dir.filePath(QStringLiteral("missing.mirrorjob"))});
        QCOMPARE(r.exitCode, 2);
        const ExeResult help = runMirrordesk({QStringLiteral("--help")}, 30000);
        QVERIFY2(help.out.contains(QStringLiteral("mirrordesk failover FILE")), qPrintable(help.out));
    }

    void plainTopicGroupContinuesOnTarget()
    {
        const QString topic = uniqueName(QStringLiteral("fo-plain"));
        const QString group = uniqueName(QStringLiteral("fo-plain-app"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 3, {}, &error), qPrintable(error));
        QVERIFY2(
            produce(sourceBootstrap(), topic, valuesFor(0, 0, 20) + valuesFor(1, 0, 20) + valuesFor(2, 0, 20), &error),
            qPrintable(error));
        const QMap<int, qint64> committed{{0, 3}, {1, 7}, {2, 12}};
        {
            GroupMember member;
            QVERIFY2(member.start(sourceBootstrap(), group, topic, &error), qPrintable(error));
            QVERIFY2(member.consumeAndCommit(committed, &error), qPrintable(error));
        }
        const QString profile =
            writeGroupsProfile(m_dir.path(), topic, topic, {group}, QStringLiteral(", \"syncGroupOffsets\": false"));
        ExeResult r = runToTheEnd(profile);
        QVERIFY2(r.exitCode == 0, qPrintable(diag(r)));

        r = failoverCommand({profile});
        QVERIFY2(r.exitCode == 0, qPrintable(diag(r)));
        QVERIFY2(r.out.contains(QStringLiteral("group ") + group), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("wrote 3 partition offsets of 1 group")), qPrintable(r.out));
        const auto onTarget = committedOffsets(targetBootstrap(), group, QStringLiteral("src.") + topic, 3, &error);
        QVERIFY2(onTarget, qPrintable(error));
        QCOMPARE(*onTarget, committed); // no markers, no gaps: the same offsets
        QMap<int, QStringList> read;
        checkGroupContinuesOnTarget(topic, group, committed, 17 + 13 + 8, &read);
        for (int p = 0; p < 3; ++p)
            QCOMPARE(read.value(p).size(), 20 - committed.value(p)); // each remaining record once
    }

    void transactionsAreTranslated()
    {
        const QString topic = uniqueName(QStringLiteral("fo-txn"));
        const QString group = uniqueName(QStringLiteral("fo-txn-app"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        // Per partition: 0..4 committed, marker 5, 6..8 aborted, marker 9, 10..14 committed, marker 15, 16..20 plain.
        for (int p = 0; p < 2; ++p) {
            QVERIFY2(produceTransactionalCommitted(sourceBootstrap(), topic, valuesFor(p, 0, 5), &error),
                     qPrintable(error));
            QVERIFY2(produceTransactionalAborted(sourceBootstrap(), topic, valuesFor(p, 100, 3), &error),
                     qPrintable(error));
            QVERIFY2(produceTransactionalCommitted(sourceBootstrap(), topic, valuesFor(p, 5, 5), &error),
                     qPrintable(error));
            QVERIFY2(produce(sourceBootstrap(), topic, valuesFor(p, 10, 5), &error), qPrintable(error));
        }
        const QMap<int, qint64> committed{{0, 12}, {1, 16}};
        {
            GroupMember member;
            QVERIFY2(member.start(sourceBootstrap(), group, topic, &error), qPrintable(error));
            QVERIFY2(member.commit(committed, &error), qPrintable(error));
        }
        const QString profile =
            writeGroupsProfile(m_dir.path(), topic, topic, {group}, QStringLiteral(", \"syncGroupOffsets\": false"));
        ExeResult r = runToTheEnd(profile);
        QVERIFY2(r.exitCode == 0, qPrintable(diag(r)));
        r = failoverCommand({profile});
        QVERIFY2(r.exitCode == 0, qPrintable(diag(r)));

        const auto onTarget = committedOffsets(targetBootstrap(), group, QStringLiteral("src.") + topic, 2, &error);
        QVERIFY2(onTarget, qPrintable(error));
        // The target has no markers and no aborted records: a translation, not a copy of the number.
        QCOMPARE(onTarget->value(0), 7);
        QCOMPARE(onTarget->value(1), 10);
        QVERIFY(onTarget->value(0) != committed.value(0) && onTarget->value(1) != committed.value(1));
        checkGroupContinuesOnTarget(topic, group, committed, 8 + 5);
    }

    // A compacted source: the offsets the cleaner removed hold no record, and
    // the target, a dense copy, numbers the survivors from 0. The group
    // continues on the target at the copy of the next surviving record.
    void compactedTopicGapsAreTranslated()
    {
        const QString topic = uniqueName(QStringLiteral("fo-compact"));
        const QString group = uniqueName(QStringLiteral("fo-compact-app"));
        const QString targetTopic = QStringLiteral("src.") + topic;
        QString error;
        // The cleaner looks for work every log.cleaner.backoff.ms (15 s in the
        // broker's file; dynamic in Kafka 4.1, LogCleaner.RECONFIGURABLE_CONFIGS).
        // Shorter for this test, put back when it ends.
        ScopedBrokerConfig backoff;
        if (!backoff.set(sourceBootstrap(), QStringLiteral("log.cleaner.backoff.ms"), QStringLiteral("200"), &error))
            qWarning("log.cleaner.backoff.ms stays as it is (%s): compaction may take 15 s longer", qPrintable(error));

        constexpr int kPartitions = 3, kPerPartition = 1000, kKeys = 150;
        const QMap<QString, QString> compacted{{QStringLiteral("cleanup.policy"), QStringLiteral("compact")},
                                               {QStringLiteral("segment.ms"), QStringLiteral("100")},
                                               {QStringLiteral("min.cleanable.dirty.ratio"), QStringLiteral("0.01")},
                                               {QStringLiteral("min.compaction.lag.ms"), QStringLiteral("0")}};
        QVERIFY2(createTopic(sourceBootstrap(), topic, kPartitions, compacted, &error), qPrintable(error));
        // Per partition 1000 records over 150 keys drawn at random (fixed
        // seeds). Compaction keeps the last record of each key: survivors
        // scattered over the log with gaps of every length between them. The
        // records carry a timestamp a minute old and one more record per
        // partition carries now: its append is past segment.ms and rolls the
        // segment holding the others out of the active one, which is never
        // cleaned. Offsets are the write order (checked below).
        const qint64 written = QDateTime::currentMSecsSinceEpoch() - 60000;
        QList<TestRecord> records, expected; // expected: the survivors, by partition and offset
        QMap<int, QList<TestRecord>> survivors;
        for (int p = 0; p < kPartitions; ++p) {
            QRandomGenerator random(20261202u + quint32(p));
            QList<TestRecord> partition;
            QHash<QByteArray, int> last;
            for (int i = 0; i < kPerPartition; ++i) {
                TestRecord r;
                r.key = QByteArray("k") + QByteArray::number(random.bounded(kKeys));
                r.value = QStringLiteral("p%1.%2.%3").arg(p).arg(QString::fromUtf8(*r.key)).arg(i).toUtf8();
                r.partition = p;
                r.timestamp = written;
                r.offset = i;
                last.insert(*r.key, i);
                partition.append(r);
            }
            for (const TestRecord &r : std::as_const(partition))
                if (last.value(*r.key) == r.offset)
                    survivors[p].append(r);
            TestRecord roll;
            roll.key = QByteArray("roll");
            roll.value = QStringLiteral("p%1.roll").arg(p).toUtf8();
            roll.partition = p;
            roll.offset = kPerPartition;
            survivors[p].append(roll);
            expected += survivors[p];
            records += partition;
        }
        QVERIFY2(produce(sourceBootstrap(), topic, records, &error), qPrintable(error));
        QList<TestRecord> rolls;
        for (int p = 0; p < kPartitions; ++p)
            rolls.append(survivors[p].last());
        QVERIFY2(produce(sourceBootstrap(), topic, rolls, &error), qPrintable(error));
        const auto marks = watermarks(sourceBootstrap(), topic, &error);
        QVERIFY2(marks, qPrintable(error));
        for (int p = 0; p < kPartitions; ++p)
            QCOMPARE(marks->value(p), (QPair<qint64, qint64>(0, kPerPartition + 1)));

        // Wait for the cleaner's end state: exactly the survivors, at their offsets.
        const auto compactedAsExpected = [&](const QList<TestRecord> &read, QString *difference) {
            if (!sameRecords(expected, read, difference))
                return false;
            for (qsizetype i = 0; i < read.size(); ++i) {
                if (read.at(i).offset != expected.at(i).offset) {
                    *difference = QStringLiteral("%1 at offset %2, expected %3")
                                      .arg(describe(read.at(i)))
                                      .arg(read.at(i).offset)
                                      .arg(expected.at(i).offset);
                    return false;
                }
            }
            return true;
        };
        QElapsedTimer waited;
        waited.start();
        QList<TestRecord> onSource;
        QString difference;
        for (const QDeadlineTimer deadline(60000);;) {
            onSource = consumeAll(sourceBootstrap(), topic, &error).value_or(QList<TestRecord>());
            if (compactedAsExpected(onSource, &difference) || deadline.hasExpired())
                break;
            QTest::qWait(250);
        }
        QVERIFY2(compactedAsExpected(onSource, &difference),
                 qPrintable(QStringLiteral("the source was not compacted within 60 s: %1 records of %2 offsets, %3 "
                                           "expected; %4 %5")
                                .arg(onSource.size())
                                .arg(totalMessages(*marks))
                                .arg(expected.size())
                                .arg(difference, error)));
        // The test is about gaps: the log holds far fewer records than offsets.
        QVERIFY2(onSource.size() < totalMessages(*marks) / 2, "the source has no gaps: the test would prove nothing");
        qInfo("compacted in %lld ms: %lld records survive of %lld offsets", qint64(waited.elapsed()),
              qint64(onSource.size()), totalMessages(*marks));

        // Where the group stands, one kind per partition, in the second half of
        // the log next to a gap of at least two offsets: 0 inside the gap (an
        // offset removed, not its first), 1 at the gap's first offset (right
        // after a surviving record), 2 on the surviving record right after the
        // gap. It reads the survivor at nextIndex next.
        QMap<int, qint64> committed;
        QMap<int, qsizetype> nextIndex;
        for (int p = 0; p < kPartitions; ++p) {
            const QList<TestRecord> &s = survivors[p];
            qsizetype j = s.size() / 2;
            while (j + 1 < s.size() && s.at(j + 1).offset - s.at(j).offset < 3)
                ++j;
            QVERIFY2(j + 1 < s.size(),
                     qPrintable(QStringLiteral("no gap of two offsets in the second half of partition %1").arg(p)));
            committed.insert(p, p == 0 ? s.at(j).offset + 2 : p == 1 ? s.at(j).offset + 1 : s.at(j + 1).offset);
            nextIndex.insert(p, j + 1);
        }
        {
            GroupMember member;
            QVERIFY2(member.start(sourceBootstrap(), group, topic, &error), qPrintable(error));
            QVERIFY2(member.consumeAndCommit(committed, &error), qPrintable(error));
        }
        const QString profile =
            writeGroupsProfile(m_dir.path(), topic, topic, {group}, QStringLiteral(", \"syncGroupOffsets\": false"));
        ExeResult r = runToTheEnd(profile);
        QVERIFY2(r.exitCode == 0, qPrintable(diag(r)));
        r = failoverCommand({profile});
        QVERIFY2(r.exitCode == 0, qPrintable(diag(r)));
        QVERIFY2(r.out.contains(QStringLiteral("wrote 3 partition offsets of 1 group")), qPrintable(r.out));

        // The copy is dense: the survivors in order at target offsets 0, 1, 2, ...
        const auto copy = consumeAll(targetBootstrap(), targetTopic, &error);
        QVERIFY2(copy, qPrintable(error));
        QVERIFY2(sameRecords(expected, *copy, &difference), qPrintable(difference));
        for (qsizetype i = 0, first = 0; i < copy->size(); ++i) {
            if (i > 0 && copy->at(i).partition != copy->at(i - 1).partition)
                first = i;
            QCOMPARE(copy->at(i).offset, qint64(i - first));
        }
        // So the group's target offset is the index of its next survivor, far below its source offset.
        const auto onTarget = committedOffsets(targetBootstrap(), group, targetTopic, kPartitions, &error);
        QVERIFY2(onTarget, qPrintable(error));
        for (int p = 0; p < kPartitions; ++p) {
            qInfo("partition %d: source offset %lld -> target offset %lld (%s)", p, committed.value(p),
                  onTarget->value(p), survivors[p].at(nextIndex.value(p)).value->constData());
            QCOMPARE(onTarget->value(p), qint64(nextIndex.value(p)));
            QVERIFY(onTarget->value(p) < committed.value(p));
        }
        QMap<int, QStringList> read;
        qint64 remaining = 0;
        for (int p = 0; p < kPartitions; ++p)
            remaining += survivors[p].size() - nextIndex.value(p);
        checkGroupContinuesOnTarget(topic, group, committed, remaining, &read);
        if (QTest::currentTestFailed())
            return;
        // Then every later survivor once, in order.
        for (int p = 0; p < kPartitions; ++p) {
            QStringList want;
            for (qsizetype i = nextIndex.value(p); i < survivors[p].size(); ++i)
                want << QString::fromUtf8(*survivors[p].at(i).value);
            QCOMPARE(read.value(p), want);
        }
    }

    void duplicatesOfACrashedRunAreNotReadAgain()
    {
        const QString topic = uniqueName(QStringLiteral("fo-crash"));
        const QString group = uniqueName(QStringLiteral("fo-crash-app"));
        QString error;
        constexpr int kPerPartition = 3000;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic,
                         valuesFor(0, 0, kPerPartition, 200) + valuesFor(1, 0, kPerPartition, 200), &error),
                 qPrintable(error));
        const QString profile = writeGroupsProfile(m_dir.path(), topic, topic, {group},
                                                   QStringLiteral(", \"syncGroupOffsets\": false"), 150 * 1024);
        {
            MirrorRun run(QStringLiteral("throttled run"));
            QVERIFY(run.start({QStringLiteral("run"), profile}));
            QVERIFY2(MirrorRun::waitUntil([&] { return run.copied() >= 1500 || run.finished(); }, 90000),
                     qPrintable(run.transcript()));
            QVERIFY2(run.crash(), qPrintable(run.transcript())); // kill -9: no flush, no commit
        }
        ExeResult r = runToTheEnd(profile);
        QVERIFY2(r.exitCode == 0, qPrintable(diag(r)));

        // What the crash copied twice, by source offset (values carry it).
        const auto all = consumeAll(targetBootstrap(), QStringLiteral("src.") + topic, &error);
        QVERIFY2(all, qPrintable(error));
        QMap<int, QList<qint64>> duplicated;
        QSet<QByteArray> seen;
        for (const TestRecord &rec : *all) {
            const QByteArray v = rec.value.value_or(QByteArray());
            if (seen.contains(v))
                duplicated[rec.partition].append(
                    v.mid(v.indexOf('-') + 1, v.indexOf('x') - v.indexOf('-') - 1).toLongLong());
            seen.insert(v);
        }
        QVERIFY2(!duplicated.isEmpty(), "the crash left no duplicates: the test proves nothing");
        // The group is inside the duplicated range where there is one.
        QMap<int, qint64> committed{{0, 100}, {1, 100}};
        for (auto it = duplicated.begin(); it != duplicated.end(); ++it)
            committed[it.key()] = it.value().at(it.value().size() / 2);
        {
            GroupMember member;
            QVERIFY2(member.start(sourceBootstrap(), group, topic, &error), qPrintable(error));
            QVERIFY2(member.commit(committed, &error), qPrintable(error));
        }
        r = failoverCommand({profile});
        QVERIFY2(r.exitCode == 0, qPrintable(diag(r)));
        QMap<int, QStringList> read;
        const qint64 remaining = 2 * kPerPartition - committed.value(0) - committed.value(1);
        checkGroupContinuesOnTarget(topic, group, committed, remaining, &read);
        // Every record after the group's position exactly once, in order: the newest copy.
        for (int p = 0; p < 2; ++p) {
            const QStringList values = read.value(p);
            QCOMPARE(values.size(), kPerPartition - committed.value(p));
            for (qsizetype i = 0; i < values.size(); ++i)
                QVERIFY2(
                    values.at(i).startsWith(QStringLiteral("p%1-%2x").arg(p).arg(committed.value(p) + i)),
                    qPrintable(QStringLiteral("partition %1, record %2: %3").arg(p).arg(i).arg(values.at(i).left(20))));
        }
    }

    void activeGroupsRewindsAndDryRun()
    {
        const QString topic = uniqueName(QStringLiteral("fo-guard"));
        const QString group = uniqueName(QStringLiteral("fo-guard-app"));
        const QString targetTopic = QStringLiteral("src.") + topic;
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 1, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, valuesFor(0, 0, 10), &error), qPrintable(error));
        {
            GroupMember member;
            QVERIFY2(member.start(sourceBootstrap(), group, topic, &error), qPrintable(error));
            QVERIFY2(member.consumeAndCommit({{0, 4}}, &error), qPrintable(error));
        }
        const QString profile =
            writeGroupsProfile(m_dir.path(), topic, topic, {group}, QStringLiteral(", \"syncGroupOffsets\": false"));
        ExeResult r = runToTheEnd(profile);
        QVERIFY2(r.exitCode == 0, qPrintable(diag(r)));
        const auto offsetOnTarget = [&] {
            QString e;
            const auto o = committedOffsets(targetBootstrap(), group, targetTopic, 1, &e);
            return o ? o->value(0, -2) : -3;
        };

        // A dry run shows the table and writes nothing.
        r = failoverCommand({profile, QStringLiteral("--dry-run")});
        QVERIFY2(r.exitCode == 0, qPrintable(diag(r)));
        QVERIFY2(r.out.contains(QRegularExpression(
                     QStringLiteral("\\n +%1 +0 +4 +%2 +4 +- +0 +0 +write\\n")
                         .arg(QRegularExpression::escape(topic), QRegularExpression::escape(targetTopic)))),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("dry run: 1 partition would be written; nothing written")),
                 qPrintable(r.out));
        QCOMPARE(offsetOnTarget(), -1);

        // An active group on the target is refused and named; its offsets stay.
        {
            GroupMember onTarget;
            QVERIFY2(onTarget.start(targetBootstrap(), group, targetTopic, &error, QStringLiteral("dr-consumer")),
                     qPrintable(error));
            QVERIFY2(onTarget.commit({{0, 1}}, &error), qPrintable(error));
            r = failoverCommand({profile});
            QVERIFY2(r.exitCode == 1, qPrintable(diag(r)));
            QVERIFY2(r.err.contains(QStringLiteral("refused: group ") + group), qPrintable(r.err));
            QVERIFY2(r.err.contains(QStringLiteral("dr-consumer on ")), qPrintable(r.err));
            QVERIFY2(r.out.contains(QStringLiteral("skip-active-members")), qPrintable(r.out));
            QCOMPARE(offsetOnTarget(), 1);
        }

        // A target group ahead of the translation is not moved back, unless asked.
        {
            GroupMember onTarget;
            QVERIFY2(onTarget.start(targetBootstrap(), group, targetTopic, &error), qPrintable(error));
            QVERIFY2(onTarget.commit({{0, 8}}, &error), qPrintable(error));
        }
        QVERIFY(MirrorRun::waitUntil([&] { return offsetOnTarget() == 8; }, 10000));
        r = failoverCommand({profile});
        QVERIFY2(r.exitCode == 0, qPrintable(diag(r)));
        QVERIFY2(r.out.contains(QStringLiteral("skip-would-rewind")), qPrintable(r.out));
        QCOMPARE(offsetOnTarget(), 8);
        r = failoverCommand({profile, QStringLiteral("--allow-rewind")});
        QVERIFY2(r.exitCode == 0, qPrintable(diag(r)));
        QCOMPARE(offsetOnTarget(), 4);
        // Done: running it again finds it there.
        r = failoverCommand({profile});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("already-there")), qPrintable(diag(r)));
    }

    void notCaughtUpInTimeSaysWhere()
    {
        const QString topic = uniqueName(QStringLiteral("fo-behind"));
        const QString group = uniqueName(QStringLiteral("fo-behind-app"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 1, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, valuesFor(0, 0, 5), &error), qPrintable(error));
        {
            GroupMember member;
            QVERIFY2(member.start(sourceBootstrap(), group, topic, &error), qPrintable(error));
            QVERIFY2(member.consumeAndCommit({{0, 5}}, &error), qPrintable(error));
        }
        const QString profile =
            writeGroupsProfile(m_dir.path(), topic, topic, {group}, QStringLiteral(", \"syncGroupOffsets\": false"));
        ExeResult r = runToTheEnd(profile);
        QVERIFY2(r.exitCode == 0, qPrintable(diag(r)));
        QVERIFY2(produce(sourceBootstrap(), topic, valuesFor(0, 5, 3), &error), qPrintable(error)); // not copied
        r = failoverCommand({profile, QStringLiteral("--timeout"), QStringLiteral("3")});
        QVERIFY2(r.exitCode == 1, qPrintable(diag(r)));
        QVERIFY2(r.err.contains(QStringLiteral("%1[0]: 3 records not copied").arg(topic)), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("waiting for the copy")), qPrintable(r.err));
        QString e;
        QCOMPARE(committedOffsets(targetBootstrap(), group, QStringLiteral("src.") + topic, 1, &e)
                     .value_or(QMap<int, qint64>{})
                     .value(0, -2),
                 -1);
        // With --max-lag 3 it proceeds: the group goes to where the copy stands.
        r = failoverCommand({profile, QStringLiteral("--max-lag"), QStringLiteral("3")});
        QVERIFY2(r.exitCode == 0, qPrintable(diag(r)));
        QCOMPARE(committedOffsets(targetBootstrap(), group, QStringLiteral("src.") + topic, 1, &e)
                     .value_or(QMap<int, qint64>{})
                     .value(0, -2),
                 5);
    }
};

QTEST_GUILESS_MAIN(TstFailover)
#include "tst_failover.moc"
