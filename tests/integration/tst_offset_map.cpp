// The exact offset map, end to end with the real executable and real brokers
// (docs/ARCHITECTURE.md, "The offset map"): after `mirrordesk run` the job's
// map topic on the target, read back with readOffsetMap, translates every
// source offset to the target offset of its copy, checked record by record
// against the target read independently (by partition and offset).
//  1. a plain topic: every offset Exact, one segment per partition;
//  2. transactions with an aborted one: committed records Exact, aborted
//     records and markers a Gap to the next copy, one segment per committed run;
//  3. kill -9 mid-copy and restart: the re-copied range maps to the newer copy,
//     and the map read after another restart is the same;
//  4. a reader with a cursor (group sync's) reads only what is new, and ends
//     with the same map as a whole read;
//  5. exactly-once: the marker each commit leaves in the target is a step of
//     one map record, not a record of its own, and every copy still
//     translates exactly both ways;
//  and with "offsetMap": false no map topic is created (failover and reverse refuse);
// 1-3 print the segment count, the map topic's record count and the records
// mirrored.
#include "headless_support.h"

#include "engine/offsetmap/OffsetMap.h"
#include "model/profile/JobProfile.h"

#include <QTemporaryDir>

using namespace md;
using namespace md::test;

namespace {

using Where = QPair<int, qint64>; // partition, offset

// The values of a topic by partition and offset (read_committed: what a group sees).
std::optional<QHash<Where, QByteArray>> valuesByOffset(const QString &bootstrap, const QString &topic, QString *error)
{
    ConsumeOptions o;
    o.readCommitted = true;
    o.timeoutMs = 60000;
    const auto records = consumeAll(bootstrap, topic, error, o);
    if (!records)
        return std::nullopt;
    QHash<Where, QByteArray> out;
    for (const TestRecord &r : *records)
        out.insert({r.partition, r.offset}, r.value.value_or(QByteArray("<null>")));
    return out;
}

QString mapTopicFor(const QString &jobName)
{
    return defaultOffsetMapTopic(JobProfile::groupIdForName(jobName));
}

bool readMap(const QString &jobName, OffsetMap *map, QString *error)
{
    ClusterConfig target;
    target.bootstrap = targetBootstrap();
    return readOffsetMap(target, mapTopicFor(jobName), 30000, map, error);
}

qint64 mapRecords(const QString &jobName)
{
    QString error;
    const auto marks = watermarks(targetBootstrap(), mapTopicFor(jobName), &error);
    return marks ? totalMessages(*marks) : -1;
}

QString kindName(OffsetTranslation::Kind k)
{
    switch (k) {
    case OffsetTranslation::Kind::Exact: return QStringLiteral("Exact");
    case OffsetTranslation::Kind::Gap: return QStringLiteral("Gap");
    case OffsetTranslation::Kind::End: return QStringLiteral("End");
    case OffsetTranslation::Kind::NotCopied: return QStringLiteral("NotCopied");
    case OffsetTranslation::Kind::BeforeMap: return QStringLiteral("BeforeMap");
    case OffsetTranslation::Kind::Unknown: return QStringLiteral("Unknown");
    }
    return {};
}

QString segmentsText(const PartitionOffsetMap *p)
{
    QStringList out;
    if (p)
        for (const OffsetSegment &s : p->segments())
            out << QStringLiteral("[%1,%2)->%3%4")
                       .arg(s.sourceStart)
                       .arg(s.sourceEnd)
                       .arg(s.targetStart)
                       .arg(s.steps.empty() ? QString() : QStringLiteral(" (%1 steps)").arg(s.steps.size()));
    return out.join(QLatin1Char(' ')) + QStringLiteral(" covered %1").arg(p ? p->covered() : -1);
}

// Every source record translates Exact to a target record with its value.
// Returns the first failure, empty when all hold.
QString checkExact(const OffsetMap &map, const QString &topic, const QString &targetTopic,
                   const QHash<Where, QByteArray> &source, const QHash<Where, QByteArray> &target)
{
    for (auto it = source.cbegin(); it != source.cend(); ++it) {
        const OffsetTranslation t = map.translate(topic, it.key().first, it.key().second);
        const QString where = QStringLiteral("%1/%2 offset %3").arg(topic).arg(it.key().first).arg(it.key().second);
        if (t.kind != OffsetTranslation::Kind::Exact)
            return where + QStringLiteral(": %1, not Exact; segments %2")
                               .arg(kindName(t.kind), segmentsText(map.partition(topic, it.key().first)));
        if (t.targetTopic != targetTopic)
            return where + QStringLiteral(": target topic %1, not %2").arg(t.targetTopic, targetTopic);
        const auto copy = target.constFind({it.key().first, t.targetOffset});
        if (copy == target.cend())
            return where + QStringLiteral(": no target record at %1").arg(t.targetOffset);
        if (copy.value() != it.value())
            return where + QStringLiteral(": target offset %1 holds %2, the source %3")
                               .arg(t.targetOffset)
                               .arg(QString::fromUtf8(copy.value()), QString::fromUtf8(it.value()));
    }
    return {};
}

} // namespace

class TestOffsetMap final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString profile(const QString &topic, const QString &fileSuffix, ProfileSpec spec)
    {
        spec.name = topic;
        spec.topic = topic;
        return writeProfile(m_dir.path(), topic + fileSuffix + QStringLiteral(".mirrorjob"), spec);
    }

    static bool runUntilCaughtUp(const QString &profilePath, ExeResult *result, int timeoutMs = 180000)
    {
        *result = runMirrordesk({QStringLiteral("run"), profilePath, QStringLiteral("--until-caught-up")}, timeoutMs);
        return result->exitCode == 0 && result->out.contains(QLatin1String("stopped cleanly"));
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        MD_REQUIRE_KAFKA_TOOLS();
        QVERIFY(QFile::exists(mirrordeskExe()));
        QVERIFY(m_dir.isValid());
    }

    void missingTopicIsAnEmptyMap()
    {
        OffsetMap map;
        QString error;
        QVERIFY2(readMap(uniqueName(QStringLiteral("no-such-job")), &map, &error), qPrintable(error));
        QVERIFY(map.isEmpty());
        // Unreachable is an error naming the cluster and the topic, not an empty map.
        ClusterConfig nowhere;
        nowhere.bootstrap = QStringLiteral("127.0.0.1:1");
        QVERIFY(!readOffsetMap(nowhere, QStringLiteral("some.offset-map"), 3000, &map, &error));
        QVERIFY2(error.contains(QLatin1String("127.0.0.1:1")) && error.contains(QLatin1String("some.offset-map")),
                 qPrintable(error));
    }

    // 1. One run of a plain topic: every offset Exact, one segment a partition.
    void plainTopicEveryOffsetExact()
    {
        const QString topic = uniqueName(QStringLiteral("map-plain"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 3, {}, &error), qPrintable(error));
        const int n = 6000;
        QVERIFY2(verifiableProduce(sourceBootstrap(), topic, n, 1, &error), qPrintable(error));
        ExeResult run;
        QVERIFY2(runUntilCaughtUp(profile(topic, {}, {}), &run), qPrintable(run.out + run.err));

        OffsetMap map;
        QVERIFY2(readMap(topic, &map, &error), qPrintable(error));
        const auto source = valuesByOffset(sourceBootstrap(), topic, &error);
        QVERIFY2(source, qPrintable(error));
        const auto target = valuesByOffset(targetBootstrap(), QStringLiteral("src.") + topic, &error);
        QVERIFY2(target, qPrintable(error));
        QCOMPARE(source->size(), qsizetype(n));
        const QString failure = checkExact(map, topic, QStringLiteral("src.") + topic, *source, *target);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        for (int p = 0; p < 3; ++p) {
            const PartitionOffsetMap *pm = map.partition(topic, p);
            QVERIFY2(pm, qPrintable(QStringLiteral("partition %1 not in the map").arg(p)));
            QVERIFY2(pm->segmentCount() == 1, qPrintable(segmentsText(pm)));
            QCOMPARE(pm->translate(pm->covered()).kind, OffsetTranslation::Kind::End);
        }
        qInfo("plain topic, 3 partitions, %d records mirrored in one run: %d segments, %lld map records", n,
              map.segmentCount(), mapRecords(topic));
    }

    // "offsetMap": false: the copy is whole, no map topic appears on the target, and
    // the commands that need the map say why they cannot run.
    void noMapWithOffsetMapFalse()
    {
        const QString topic = uniqueName(QStringLiteral("map-off"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        QVERIFY2(verifiableProduce(sourceBootstrap(), topic, 500, 1, &error), qPrintable(error));
        ProfileSpec spec;
        spec.extra = QStringLiteral(", \"offsetMap\": false");
        const QString path = profile(topic, {}, spec);
        ExeResult run;
        QVERIFY2(runUntilCaughtUp(path, &run), qPrintable(run.out + run.err));
        QVERIFY2(QString(run.out + run.err).contains(QLatin1String("keeps no offset map")),
                 qPrintable(run.out + run.err));
        const auto target = valuesByOffset(targetBootstrap(), QStringLiteral("src.") + topic, &error);
        QVERIFY2(target, qPrintable(error));
        QCOMPARE(target->size(), qsizetype(500));
        QVERIFY2(partitionCount(targetBootstrap(), mapTopicFor(topic), &error, {}, 5000) < 0,
                 qPrintable(QStringLiteral("%1 exists on the target").arg(mapTopicFor(topic))));

        const QString why = QStringLiteral("the job keeps no offset map (offsetMap: false)");
        const ExeResult failover =
            runMirrordesk({QStringLiteral("failover"), path, QStringLiteral("--groups"), QStringLiteral(".*")}, 30000);
        QVERIFY2(failover.exitCode == 2 && failover.err.contains(why), qPrintable(failover.out + failover.err));
        const ExeResult reverse =
            runMirrordesk({QStringLiteral("reverse"), path, QStringLiteral("--output"),
                           m_dir.filePath(topic + QStringLiteral("-back.mirrorjob")), QStringLiteral("--dry-run")},
                          30000);
        QVERIFY2(reverse.exitCode == 1 && reverse.err.contains(why), qPrintable(reverse.out + reverse.err));
    }

    // 2. Transactions: committed C1(5), aborted A(5), committed C2(5), C3(5).
    // Source offsets: C1 0-4, marker 5, A 6-10, marker 11, C2 12-16, marker 17,
    // C3 18-22, marker 23. The target gets 20 records at 0-19. Discontinuities:
    // 5-11 (marker, aborted, marker) and 17 (marker): 3 segments.
    void transactionsMapCommittedAndGaps()
    {
        const QString topic = uniqueName(QStringLiteral("map-txn"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 1, {}, &error), qPrintable(error));
        const auto batch = [](const QString &tag) {
            QList<TestRecord> out;
            for (int i = 0; i < 5; ++i) {
                TestRecord r;
                r.key = QByteArray::number(i);
                r.value = (tag + QLatin1Char('.') + QString::number(i)).toUtf8();
                r.partition = 0;
                out << r;
            }
            return out;
        };
        QVERIFY2(produceTransactional(sourceBootstrap(), topic, batch(QStringLiteral("c1")), true, &error),
                 qPrintable(error));
        QVERIFY2(produceTransactional(sourceBootstrap(), topic, batch(QStringLiteral("a")), false, &error),
                 qPrintable(error));
        QVERIFY2(produceTransactional(sourceBootstrap(), topic, batch(QStringLiteral("c2")), true, &error),
                 qPrintable(error));
        QVERIFY2(produceTransactional(sourceBootstrap(), topic, batch(QStringLiteral("c3")), true, &error),
                 qPrintable(error));
        ExeResult run;
        QVERIFY2(runUntilCaughtUp(profile(topic, {}, {}), &run), qPrintable(run.out + run.err));

        OffsetMap map;
        QVERIFY2(readMap(topic, &map, &error), qPrintable(error));
        const auto source = valuesByOffset(sourceBootstrap(), topic, &error);
        QVERIFY2(source, qPrintable(error));
        const auto target = valuesByOffset(targetBootstrap(), QStringLiteral("src.") + topic, &error);
        QVERIFY2(target, qPrintable(error));
        QCOMPARE(source->size(), qsizetype(15));
        QCOMPARE(target->size(), qsizetype(15));
        const QString failure = checkExact(map, topic, QStringLiteral("src.") + topic, *source, *target);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));

        const PartitionOffsetMap *pm = map.partition(topic, 0);
        QVERIFY(pm);
        QVERIFY2(pm->segmentCount() == 3, qPrintable(segmentsText(pm)));
        QVERIFY2(pm->covered() == 24, qPrintable(segmentsText(pm)));
        // Markers and aborted records: a group there continues at the next copy.
        for (qint64 o : {5, 6, 10, 11}) {
            const OffsetTranslation t = pm->translate(o);
            QVERIFY2(t.kind == OffsetTranslation::Kind::Gap && t.targetOffset == 5,
                     qPrintable(QStringLiteral("offset %1: %2 %3").arg(o).arg(kindName(t.kind)).arg(t.targetOffset)));
        }
        const OffsetTranslation m17 = pm->translate(17);
        QVERIFY2(m17.kind == OffsetTranslation::Kind::Gap && m17.targetOffset == 10,
                 qPrintable(QStringLiteral("17: %1 %2").arg(kindName(m17.kind)).arg(m17.targetOffset)));
        const OffsetTranslation m23 = pm->translate(23); // the last marker: the target's next offset
        QVERIFY2(m23.kind == OffsetTranslation::Kind::Gap && m23.targetOffset == 15,
                 qPrintable(QStringLiteral("23: %1 %2").arg(kindName(m23.kind)).arg(m23.targetOffset)));
        const OffsetTranslation end = pm->translate(24);
        QVERIFY2(end.kind == OffsetTranslation::Kind::End && end.targetOffset == 15,
                 qPrintable(QStringLiteral("24: %1 %2").arg(kindName(end.kind)).arg(end.targetOffset)));
        QCOMPARE(pm->translate(30).kind, OffsetTranslation::Kind::NotCopied);
        QCOMPARE(pm->translate(30).notCopied, qint64(6));
        qInfo("transactions (3 committed, 1 aborted): %d segments (2 discontinuities expected: 3), %lld map records, "
              "15 records mirrored; %s",
              pm->segmentCount(), mapRecords(topic), qPrintable(segmentsText(pm)));
    }

    // 5. Exactly-once, 100 records a transaction: 30 commits leave 30 markers
    // in the target partition. Each is a step of the one segment (a record
    // written again at each commit, one key for compaction to keep), not a
    // segment and a key of its own as before steps (30 keys then).
    void exactlyOnceMarkersAreStepsOfOneRecord()
    {
        const QString topic = uniqueName(QStringLiteral("map-eos"));
        const QString targetTopic = QStringLiteral("src.") + topic;
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 1, {}, &error), qPrintable(error));
        const int n = 3000;
        QVERIFY2(verifiableProduce(sourceBootstrap(), topic, n, 1, &error), qPrintable(error));
        ProfileSpec spec;
        spec.extra = QStringLiteral(", \"delivery\": \"exactly-once\", \"transactionMaxRecords\": 100");
        ExeResult run;
        QVERIFY2(runUntilCaughtUp(profile(topic, {}, spec), &run), qPrintable(run.out + run.err));

        OffsetMap map;
        QVERIFY2(readMap(topic, &map, &error), qPrintable(error));
        const auto source = valuesByOffset(sourceBootstrap(), topic, &error);
        QVERIFY2(source, qPrintable(error));
        const auto target = valuesByOffset(targetBootstrap(), targetTopic, &error);
        QVERIFY2(target, qPrintable(error));
        QCOMPARE(target->size(), qsizetype(n));
        const QString failure = checkExact(map, topic, targetTopic, *source, *target);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));

        const auto marks = watermarks(targetBootstrap(), targetTopic, &error);
        QVERIFY2(marks, qPrintable(error));
        const qint64 markers = totalMessages(*marks) - n;
        QVERIFY2(markers >= n / 100,
                 qPrintable(QStringLiteral("%1 markers for %2 transactions of 100").arg(markers).arg(n / 100)));
        // Back from the target: a copy names its source offset, a marker none.
        QHash<QByteArray, qint64> sourceOffsetOf;
        for (auto it = source->cbegin(); it != source->cend(); ++it)
            sourceOffsetOf.insert(it.value(), it.key().second);
        const PartitionOffsetMap *pm = map.partition(topic, 0);
        QVERIFY(pm);
        for (qint64 t = 0; t < marks->value(0).second; ++t) {
            const auto copy = target->constFind({0, t});
            const qint64 want = copy == target->cend() ? -1 : sourceOffsetOf.value(copy.value(), -2);
            QVERIFY2(pm->sourceFor(t) == want, qPrintable(QStringLiteral("target offset %1: source %2, expected %3; %4")
                                                              .arg(t)
                                                              .arg(pm->sourceFor(t))
                                                              .arg(want)
                                                              .arg(segmentsText(pm))));
        }
        ConsumeOptions o;
        o.readCommitted = true;
        const auto records = consumeAll(targetBootstrap(), mapTopicFor(topic), &error, o);
        QVERIFY2(records, qPrintable(error));
        QSet<QByteArray> keys;
        for (const TestRecord &r : *records)
            keys.insert(r.key.value_or(QByteArray()));
        const qint64 bound = 1 + markers / kMaxOffsetSteps;
        QVERIFY2(pm->segmentCount() <= bound && keys.size() <= bound,
                 qPrintable(QStringLiteral("%1 markers: %2 segments, %3 keys in the map topic; at most %4 expected: %5")
                                .arg(markers)
                                .arg(pm->segmentCount())
                                .arg(keys.size())
                                .arg(bound)
                                .arg(segmentsText(pm))));
        qInfo("exactly-once, %d records in transactions of 100: %lld markers on the target, %d segments, %lld keys, "
              "%lld map records before compaction",
              n, markers, pm->segmentCount(), qint64(keys.size()), qint64(records->size()));
    }

    // 3. kill -9 mid-copy, restart: the re-copied range maps to the newer copy.
    void crashedRunMapsToTheNewerCopy()
    {
        const QString topic = uniqueName(QStringLiteral("map-kill"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        const int n = 8000;
        QVERIFY2(verifiableProduce(sourceBootstrap(), topic, n, 1, &error), qPrintable(error));

        ProfileSpec slow;
        slow.throttleBytesPerSecond = 6000; // ~650 records/s: the kill lands mid-way
        MirrorRun first(QStringLiteral("throttled run"));
        QVERIFY(first.start({QStringLiteral("run"), profile(topic, QStringLiteral("-slow"), slow)}));
        QVERIFY2(MirrorRun::waitUntil([&] { return first.copied() >= n * 2 / 5 || first.finished(); }, 120000) &&
                     first.running(),
                 qPrintable(first.transcript()));
        QVERIFY2(first.crash(), qPrintable(first.transcript()));
        const qint64 copiedBeforeKill = first.copied();
        QVERIFY2(copiedBeforeKill < n, "the kill came too late to test anything");

        const QString fast = profile(topic, QStringLiteral("-fast"), {});
        ExeResult run;
        QVERIFY2(runUntilCaughtUp(fast, &run), qPrintable(run.out + run.err));

        OffsetMap map;
        QVERIFY2(readMap(topic, &map, &error), qPrintable(error));
        const auto source = valuesByOffset(sourceBootstrap(), topic, &error);
        QVERIFY2(source, qPrintable(error));
        const QString targetTopic = QStringLiteral("src.") + topic;
        const auto target = valuesByOffset(targetBootstrap(), targetTopic, &error);
        QVERIFY2(target, qPrintable(error));
        QCOMPARE(source->size(), qsizetype(n));
        QVERIFY2(target->size() > n, qPrintable(QStringLiteral("no duplicates on the target (%1 records): the kill "
                                                               "tested nothing")
                                                    .arg(target->size())));
        const QString failure = checkExact(map, topic, targetTopic, *source, *target);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));

        // Where a value is on the target twice, the map points at its last copy.
        QHash<QPair<int, QByteArray>, qint64> lastCopy;
        for (auto it = target->cbegin(); it != target->cend(); ++it) {
            qint64 &at = lastCopy[{it.key().first, it.value()}];
            at = std::max(at, it.key().second);
        }
        qint64 recopied = 0;
        for (auto it = source->cbegin(); it != source->cend(); ++it) {
            const OffsetTranslation t = map.translate(topic, it.key().first, it.key().second);
            const qint64 newest = lastCopy.value({it.key().first, it.value()}, -1);
            QVERIFY2(t.targetOffset == newest, qPrintable(QStringLiteral("%1/%2: map says %3, the newest copy is at %4")
                                                              .arg(it.key().first)
                                                              .arg(it.key().second)
                                                              .arg(t.targetOffset)
                                                              .arg(newest)));
            if (t.targetOffset > it.key().second)
                ++recopied;
        }
        QVERIFY2(recopied > 0, "no source offset maps past its own offset: nothing was copied twice");
        int segments = 0;
        for (int p = 0; p < 2; ++p) {
            const PartitionOffsetMap *pm = map.partition(topic, p);
            QVERIFY(pm);
            // Two runs: at most one segment per run and partition (no gaps here).
            QVERIFY2(pm->segmentCount() <= 2, qPrintable(segmentsText(pm)));
            segments += pm->segmentCount();
        }

        // Persisted: another run (nothing new) leaves the map read back the same.
        QVERIFY2(runUntilCaughtUp(fast, &run), qPrintable(run.out + run.err));
        OffsetMap again;
        QVERIFY2(readMap(topic, &again, &error), qPrintable(error));
        for (int p = 0; p < 2; ++p) {
            QVERIFY(again.partition(topic, p));
            QCOMPARE(again.partition(topic, p)->segments(), map.partition(topic, p)->segments());
            QCOMPARE(again.partition(topic, p)->covered(), map.partition(topic, p)->covered());
        }
        qInfo("kill -9 after %lld of %d copied, restart: %lld target records (%lld duplicates), %lld source offsets "
              "map to the newer copy; %d segments (%s | %s), %lld map records",
              copiedBeforeKill, n, qint64(target->size()), qint64(target->size() - n), recopied, segments,
              qPrintable(segmentsText(map.partition(topic, 0))), qPrintable(segmentsText(map.partition(topic, 1))),
              mapRecords(topic));
    }

    // 4. A reader with a cursor (group sync's, kept across passes) reads only
    // what was written since, ends with the same map as a whole read, and
    // reads the whole topic again when the topic no longer fits the cursor.
    void cursorReadsOnlyWhatIsNew()
    {
        const QString topic = uniqueName(QStringLiteral("cursor.offset-map"));
        const QString source = QStringLiteral("orders");
        const auto record = [&](qint64 start, qint64 end, qint64 target) {
            OffsetSegment s{start, end, target, end, QStringLiteral("tgt.orders")};
            TestRecord r;
            r.key = offsetMapKey(source, 0, start);
            r.value = offsetMapValue(s);
            r.partition = 0;
            return r;
        };
        QString error;
        QVERIFY2(createTopic(targetBootstrap(), topic, 1, {}, &error), qPrintable(error));
        QVERIFY2(produce(targetBootstrap(), topic, {record(0, 100, 0), record(100, 200, 101)}, &error),
                 qPrintable(error));

        ClusterConfig target;
        target.bootstrap = targetBootstrap();
        OffsetMap kept;
        OffsetMapCursor cursor;
        QVERIFY2(readOffsetMap(target, topic, 30000, &kept, &error, &cursor), qPrintable(error));
        QVERIFY(cursor.lastReadWhole);
        QCOMPARE(cursor.lastRecords, 2);
        QCOMPARE(kept.translate(source, 0, 150).targetOffset, 151);

        // Two more (one the rewrite of a key under compaction, as the engine does
        // when a segment grows): only those two are read, onto the kept map.
        QVERIFY2(produce(targetBootstrap(), topic, {record(100, 250, 101), record(250, 300, 253)}, &error),
                 qPrintable(error));
        QVERIFY2(readOffsetMap(target, topic, 30000, &kept, &error, &cursor), qPrintable(error));
        QVERIFY(!cursor.lastReadWhole);
        QCOMPARE(cursor.lastRecords, 2);
        OffsetMap whole;
        QVERIFY2(readOffsetMap(target, topic, 30000, &whole, &error), qPrintable(error));
        QCOMPARE(kept.partition(source, 0)->segments(), whole.partition(source, 0)->segments());
        QCOMPARE(kept.partition(source, 0)->covered(), 300);
        QCOMPARE(kept.translate(source, 0, 260).targetOffset, 263);
        QCOMPARE(kept.translate(source, 0, 50).targetOffset, 50); // what the first read brought is kept

        // Nothing new: nothing read, nothing lost.
        QVERIFY2(readOffsetMap(target, topic, 30000, &kept, &error, &cursor), qPrintable(error));
        QVERIFY(!cursor.lastReadWhole);
        QCOMPARE(cursor.lastRecords, 0);
        QCOMPARE(kept.segmentCount(), whole.segmentCount());

        // The topic deleted and created again, shorter than the cursor: read whole,
        // and what the old topic said is gone.
        QVERIFY2(deleteTopic(targetBootstrap(), topic, &error), qPrintable(error));
        QVERIFY2(createTopic(targetBootstrap(), topic, 1, {}, &error), qPrintable(error));
        QVERIFY2(produce(targetBootstrap(), topic, {record(0, 10, 5)}, &error), qPrintable(error));
        QVERIFY2(readOffsetMap(target, topic, 30000, &kept, &error, &cursor), qPrintable(error));
        QVERIFY(cursor.lastReadWhole);
        QCOMPARE(kept.partition(source, 0)->covered(), 10);
        QCOMPARE(kept.translate(source, 0, 3).targetOffset, 8);
    }
};

QTEST_GUILESS_MAIN(TestOffsetMap)
#include "tst_offset_map.moc"
