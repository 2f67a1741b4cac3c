// The one-off message copy (engine/query/MessageCopier) between the real "source"
// and "target" brokers: records read by the browser arrive on the other
// cluster identical (null vs empty keys and values, headers with duplicates
// and nulls, timestamps, partitions); an offset range copies exactly that
// range; a missing target topic and an empty range fail with a clear error;
// the threaded job reports progress and its result.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/admin/AdminService.h"
#include "engine/query/MessageCopier.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>

using namespace md;
using namespace md::test;

namespace {

TestRecord rec(std::optional<QByteArray> key, std::optional<QByteArray> value, qint64 ts, int partition,
               QList<QPair<QString, std::optional<QByteArray>>> headers = {})
{
    TestRecord r;
    r.key = std::move(key);
    r.value = std::move(value);
    r.timestamp = ts;
    r.partition = partition;
    r.headers = std::move(headers);
    return r;
}

QList<TestRecord> byPartition(QList<TestRecord> list)
{
    std::stable_sort(list.begin(), list.end(),
                     [](const TestRecord &a, const TestRecord &b) { return a.partition < b.partition; });
    return list;
}

// Reads every record of `topic` on the source through the browser's path.
QList<KafkaMessage> browse(const QString &topic, QString *error)
{
    auto admin = AdminService::create(clusterConfig(QStringLiteral("source")), error, 15000);
    if (!admin)
        return {};
    MessageQuery q;
    q.topic = topic;
    q.mode = MessageQuery::Mode::FromOffset;
    q.offset = 0;
    q.maxMessages = 1000;
    q.timeoutMs = 20000;
    // A fresh topic may not answer ListOffsets for a moment (KRaft): poll.
    QElapsedTimer t;
    t.start();
    for (;;) {
        auto r = admin->readMessages(q);
        if (r.ok() || t.elapsed() > 20000) {
            *error = r.error;
            return r.value;
        }
        QTest::qWait(300);
    }
}

std::optional<QList<TestRecord>> waitForTarget(const QString &topic, int expected, QString *error)
{
    std::optional<QList<TestRecord>> got;
    QElapsedTimer t;
    t.start();
    do {
        got = consumeAll(targetBootstrap(), topic, error);
        if (got && got->size() >= expected)
            return got;
        QTest::qWait(200);
    } while (t.elapsed() < 20000);
    return got;
}

} // namespace

class TstMessageCopy final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void selectedMessagesArriveIdentical()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        const QString src = uniqueName(QStringLiteral("copy-src"));
        const QString dst = uniqueName(QStringLiteral("copy-dst"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), src, 3, {}, &error), qPrintable(error));
        QVERIFY2(createTopic(targetBootstrap(), dst, 3, {}, &error), qPrintable(error));

        const qint64 old = 1'600'000'000'000; // 2020: CreateTime must survive, not become "now"
        QList<TestRecord> records{
            rec(std::nullopt, QByteArray("null key"), old, 0),
            rec(QByteArray(""), QByteArray(""), old + 1, 0),
            rec(QByteArray("tombstone"), std::nullopt, old + 2, 1),
            rec(std::nullopt, std::nullopt, old + 3, 1),
            rec(QByteArray("\x00\x01\xff", 3), QByteArray("bin\x00ary\xfe", 8), old + 4, 2,
                {{QStringLiteral("dup"), QByteArray("first")},
                 {QStringLiteral("null"), std::nullopt},
                 {QStringLiteral("empty"), QByteArray("")},
                 {QStringLiteral("dup"), QByteArray("second")}}),
            rec(QByteArray("json"), QByteArray(R"({"a":1,"b":[true,null]})"), old + 5, 2),
        };
        QVERIFY2(produce(sourceBootstrap(), src, records, &error), qPrintable(error));
        const QList<KafkaMessage> shown = browse(src, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(shown.size(), records.size());

        CopySpec spec;
        spec.target = clusterConfig(QStringLiteral("target"));
        spec.targetTopic = dst;
        spec.messages = shown;
        qint64 lastDone = -1, lastTotal = -1;
        const CopyResult result = copyMessages(spec, nullptr, [&](qint64 done, qint64 total) {
            lastDone = done;
            lastTotal = total;
        });
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.copied, records.size());
        QCOMPARE(result.requested, records.size());
        QCOMPARE(lastDone, records.size());
        QCOMPARE(lastTotal, records.size());
        QCOMPARE(result.summary(spec), QStringLiteral("copied 6 records to %1 on target").arg(dst));

        const auto got = waitForTarget(dst, int(records.size()), &error);
        QVERIFY2(got, qPrintable(error));
        QString difference;
        QVERIFY2(sameRecords(byPartition(records), *got, &difference), qPrintable(difference));

        deleteTopic(sourceBootstrap(), src);
        deleteTopic(targetBootstrap(), dst);
    }

    void offsetRangeCopiesExactlyThatRange()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        const QString src = uniqueName(QStringLiteral("copy-range-src"));
        const QString dst = uniqueName(QStringLiteral("copy-range-dst"));
        const QString narrow = uniqueName(QStringLiteral("copy-range-narrow"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), src, 2, {}, &error), qPrintable(error));
        QVERIFY2(createTopic(targetBootstrap(), dst, 2, {}, &error), qPrintable(error));
        QVERIFY2(createTopic(targetBootstrap(), narrow, 1, {}, &error), qPrintable(error));
        const qint64 base = QDateTime::currentMSecsSinceEpoch() - 60000;
        QList<TestRecord> records;
        for (int i = 0; i < 30; ++i)
            records << rec(QByteArray::number(i), QByteArray("v") + QByteArray::number(i), base + i, 1,
                           {{QStringLiteral("i"), QByteArray::number(i)}});
        for (int i = 0; i < 5; ++i)
            records << rec(QByteArray("other"), QByteArray::number(i), base + i, 0);
        QVERIFY2(produce(sourceBootstrap(), src, records, &error), qPrintable(error));

        CopySpec spec;
        spec.source = clusterConfig(QStringLiteral("source"));
        spec.target = clusterConfig(QStringLiteral("target"));
        spec.targetTopic = dst;
        spec.sourceTopic = src;
        spec.sourcePartition = 1;
        spec.firstOffset = 10;
        spec.lastOffset = 19;
        const CopyResult result = copyMessages(spec);
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.copied, 10);

        const auto got = waitForTarget(dst, 10, &error);
        QVERIFY2(got, qPrintable(error));
        const QList<TestRecord> expected = records.mid(10, 10); // partition 1, offsets 10..19
        QString difference;
        QVERIFY2(sameRecords(expected, *got, &difference), qPrintable(difference));
        for (const TestRecord &r : *got)
            QCOMPARE(r.partition, 1); // the same partition: the target has it

        // A target without that partition: the target's partitioner decides; the
        // records are all there. A last offset past the end stops at the end.
        spec.targetTopic = narrow;
        spec.firstOffset = 25;
        spec.lastOffset = 1000;
        const CopyResult tail = copyMessages(spec);
        QVERIFY2(tail.ok(), qPrintable(tail.error));
        QCOMPARE(tail.copied, 5);
        const auto gotTail = waitForTarget(narrow, 5, &error);
        QVERIFY2(gotTail, qPrintable(error));
        QList<TestRecord> expectedTail = records.mid(25, 5);
        for (TestRecord &r : expectedTail)
            r.partition = 0;
        QVERIFY2(sameRecords(expectedTail, *gotTail, &difference), qPrintable(difference));

        // A range the partition does not hold: said so, nothing written.
        spec.firstOffset = 500;
        spec.lastOffset = 600;
        const CopyResult empty = copyMessages(spec);
        QVERIFY(!empty.ok());
        QVERIFY2(empty.error.contains(QLatin1String("nothing to copy")) &&
                     empty.error.contains(QLatin1String("0 to 29")),
                 qPrintable(empty.error));

        deleteTopic(sourceBootstrap(), src);
        deleteTopic(targetBootstrap(), dst);
        deleteTopic(targetBootstrap(), narrow);
    }

    void missingTargetTopicIsAClearError()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("target"));
        const QString missing = uniqueName(QStringLiteral("copy-missing"));
        CopySpec spec;
        spec.target = clusterConfig(QStringLiteral("target"));
        spec.targetTopic = missing;
        KafkaMessage m;
        m.partition = 0;
        m.value = QByteArray("x");
        spec.messages = {m};
        QElapsedTimer t;
        t.start();
        const CopyResult result = copyMessages(spec);
        QVERIFY(!result.ok());
        QCOMPARE(result.copied, 0);
        QVERIFY2(result.error.contains(missing) && result.error.contains(QLatin1String("does not exist")),
                 qPrintable(result.error));
        QVERIFY2(t.elapsed() < 15000, "the error must come quickly, not after the delivery timeout");
        // And it was not created behind our back.
        QString error;
        QCOMPARE(partitionCount(targetBootstrap(), missing, &error, {}, 3000), -1);
    }

    void jobRunsOnItsThreadWithProgress()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("target"));
        const QString dst = uniqueName(QStringLiteral("copy-job"));
        QString error;
        QVERIFY2(createTopic(targetBootstrap(), dst, 1, {}, &error), qPrintable(error));
        QList<KafkaMessage> many;
        for (int i = 0; i < 2000; ++i) {
            KafkaMessage m;
            m.partition = 0;
            m.offset = i;
            m.key = QByteArray::number(i);
            m.value = QByteArray(200, 'x');
            many << m;
        }
        CopySpec spec;
        spec.target = clusterConfig(QStringLiteral("target"));
        spec.targetTopic = dst;
        spec.messages = many;
        MessageCopyJob job(spec);
        QSignalSpy progress(&job, &MessageCopyJob::progress);
        QSignalSpy finished(&job, &MessageCopyJob::finished);
        job.start();
        QVERIFY(job.isRunning());
        QVERIFY(finished.wait(30000));
        QVERIFY(!job.isRunning());
        const auto result = finished.first().first().value<CopyResult>();
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.copied, 2000);
        QVERIFY(!progress.isEmpty());
        QVERIFY(progress.size() < 200); // throttled, never a signal per record
        QCOMPARE(progress.last().at(0).toLongLong(), 2000);
        QCOMPARE(progress.last().at(1).toLongLong(), 2000);
        QString marksError;
        const auto marks = watermarks(targetBootstrap(), dst, &marksError);
        QVERIFY2(marks, qPrintable(marksError));
        QCOMPARE(totalMessages(*marks), 2000);

        // Cancelled before it starts: nothing is written, the result says so.
        MessageCopyJob cancelled(spec);
        QSignalSpy cancelledDone(&cancelled, &MessageCopyJob::finished);
        cancelled.cancel();
        cancelled.start();
        QVERIFY(cancelledDone.wait(30000));
        const auto r2 = cancelledDone.first().first().value<CopyResult>();
        QVERIFY(r2.cancelled);
        QVERIFY(r2.copied < 2000);
        QVERIFY2(r2.summary(spec).startsWith(QLatin1String("cancelled")), qPrintable(r2.summary(spec)));
        deleteTopic(targetBootstrap(), dst);
    }
};

QTEST_GUILESS_MAIN(TstMessageCopy)
#include "tst_messagecopy.moc"
