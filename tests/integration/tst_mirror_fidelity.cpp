// The mirror engine against real Apache Kafka brokers: every record survives
// the copy exactly (nulls, empties, binary, large values, duplicate and null
// headers, old timestamps, compressed batches), aborted transactions are not
// copied, topic configs follow, and naming policies and topic filters hold.

#include "engine/core/KafkaHandles.h"
#include "engine/mirror/TopicSync.h"
#include "tst_mirror_support.h"

using namespace md;
using namespace md::test;

namespace {

QList<TestRecord> trickyRecords(int partitions)
{
    const qint64 old = 1'000'000'000'000; // 2001
    QList<TestRecord> out;
    auto add = [&](std::optional<QByteArray> k, std::optional<QByteArray> v, qint64 ts, int p,
                   QList<QPair<QString, std::optional<QByteArray>>> h = {}) {
        TestRecord r;
        r.key = std::move(k);
        r.value = std::move(v);
        r.timestamp = ts;
        r.partition = p % partitions;
        r.headers = std::move(h);
        out << r;
    };
    add(std::nullopt, QByteArray("null key"), old, 0);
    add(QByteArray(""), QByteArray(""), old + 1, 0);
    add(QByteArray("tombstone"), std::nullopt, 1000, 1);
    add(std::nullopt, std::nullopt, old + 3, 1);
    add(QByteArray("\x00\x01\xff", 3), QByteArray("bin\x00ary\xfe", 8), old + 4, 2,
        {{QStringLiteral("dup"), QByteArray("first")},
         {QStringLiteral("null"), std::nullopt},
         {QStringLiteral("empty"), QByteArray("")},
         {QStringLiteral("dup"), QByteArray("second")}});
    QByteArray big(300 * 1024, '\0');
    for (int i = 0; i < big.size(); ++i)
        big[i] = char((i * 131) & 0xff);
    add(QByteArray("big"), big, old + 5, 0);
    for (int i = 0; i < 50; ++i)
        add(QByteArray::number(i), QByteArray("plain-") + QByteArray::number(i), old + 100 + i, i);
    return out;
}

QMap<QString, QString> targetConfigs(const QString &topic)
{
    char errstr[256];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "bootstrap.servers", targetBootstrap().toUtf8().constData(), errstr, sizeof errstr);
    KafkaPtr rk(rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr));
    const TopicConfigs tc = describeTopicOverrides(rk.get(), topic, {}, 15000);
    return tc.configs;
}

} // namespace

class TstMirrorFidelity final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target")); }

    void everyRecordExactly()
    {
        const QString topic = uniqueName(QStringLiteral("fid"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 3, {}, &error), qPrintable(error));
        const QList<TestRecord> tricky = trickyRecords(3);
        QVERIFY2(produce(sourceBootstrap(), topic, tricky, &error), qPrintable(error));
        ProduceOptions lz4;
        lz4.compression = QStringLiteral("lz4");
        QVERIFY2(produce(sourceBootstrap(), topic, numbered(QStringLiteral("lz4"), 300, 3, 200), &error, lz4),
                 qPrintable(error));
        ProduceOptions zstd;
        zstd.compression = QStringLiteral("zstd");
        QVERIFY2(produce(sourceBootstrap(), topic, numbered(QStringLiteral("zstd"), 300, 3, 200), &error, zstd),
                 qPrintable(error));
        QVERIFY2(
            produceTransactionalAborted(sourceBootstrap(), topic, numbered(QStringLiteral("aborted"), 30, 3), &error),
            qPrintable(error));
        QVERIFY2(produceTransactionalCommitted(sourceBootstrap(), topic, numbered(QStringLiteral("committed"), 30, 3),
                                               &error),
                 qPrintable(error));

        MirrorJob job(harnessSpec(topic, {QRegularExpression::escape(topic)}));
        const JobOutcome out = runJob(job, 120000);
        QVERIFY2(out.finished, qPrintable(QStringLiteral("not caught up in time; events:\n  ") + joined(out.events)));
        QVERIFY2(out.ok, qPrintable(out.error + QStringLiteral("\n  ") + joined(out.events)));

        ConsumeOptions committed;
        committed.readCommitted = true;
        const auto expected = consumeAll(sourceBootstrap(), topic, &error, committed);
        QVERIFY2(expected, qPrintable(error));
        const auto copied = consumeAll(targetBootstrap(), topic, &error);
        QVERIFY2(copied, qPrintable(error));
        QCOMPARE(expected->size(), tricky.size() + 600 + 30);
        QVERIFY2(sameRecords(*expected, *copied, &error), qPrintable(error));
        const QSet<QByteArray> values = valueSet(*copied);
        QVERIFY(!values.contains("aborted-0"));
        QVERIFY(values.contains("committed-0"));

        // The last snapshot agrees: caught up, nothing in flight, lag 0.
        QVERIFY(!out.snapshots.isEmpty());
        const MetricsSnapshot &last = out.snapshots.last();
        QCOMPARE(last.recordsProduced, qint64(copied->size()));
        QCOMPARE(last.inFlight, 0);
        QCOMPARE(last.totalLag, 0);
        QCOMPARE(last.partitions.size(), 3);
        for (const PartitionMetrics &p : last.partitions) {
            QVERIFY(p.endOffset > 0);
            QCOMPARE(p.nextOffset, p.endOffset);
            QCOMPARE(p.committedOffset, p.endOffset);
        }
        QVERIFY(last.bytesProduced > 300 * 1024);
    }

    // Records far larger than a partition's fetch (1 MB) and than the
    // prefetch an operator may shrink the consumer to (fetch.max.bytes, for
    // memory): copied whole (the broker answers with the whole first batch,
    // KIP-74), between small records of the same partitions, in order.
    void recordsLargerThanOneFetch()
    {
        const QString topic = uniqueName(QStringLiteral("huge"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2,
                             {{QStringLiteral("max.message.bytes"), QStringLiteral("12000000")}}, &error),
                 qPrintable(error));
        auto patterned = [](int size, int seed) {
            QByteArray v(size, '\0');
            for (int i = 0; i < size; ++i)
                v[i] = char((i * 131 + seed) & 0xff);
            return v;
        };
        QList<TestRecord> records = numbered(QStringLiteral("before"), 2000, 2, 2048);
        for (const auto &[size, partition] : {std::pair{6'000'000, 0}, std::pair{9'000'000, 1}}) {
            TestRecord big;
            big.key = QByteArray("big-") + QByteArray::number(size);
            big.value = patterned(size, partition);
            big.partition = partition;
            records << big;
        }
        records << numbered(QStringLiteral("after"), 2000, 2, 2048);
        ProduceOptions large;
        large.client.insert(QStringLiteral("message.max.bytes"), QStringLiteral("16000000"));
        QVERIFY2(produce(sourceBootstrap(), topic, records, &error, large), qPrintable(error));

        MirrorJobSpec spec = harnessSpec(topic, {QRegularExpression::escape(topic)});
        spec.source.consumerProperties.insert(QStringLiteral("fetch.max.bytes"), QStringLiteral("4194304"));
        MirrorJob job(spec);
        const JobOutcome out = runJob(job, 120000);
        QVERIFY2(out.finished && out.ok, qPrintable(out.error + QStringLiteral("\n  ") + joined(out.events)));
        const auto expected = consumeAll(sourceBootstrap(), topic, &error);
        QVERIFY2(expected, qPrintable(error));
        const auto copied = consumeAll(targetBootstrap(), topic, &error);
        QVERIFY2(copied, qPrintable(error));
        QCOMPARE(copied->size(), records.size());
        QVERIFY2(sameRecords(*expected, *copied, &error), qPrintable(error));
        qsizetype biggest = 0;
        for (const TestRecord &r : *copied)
            biggest = std::max(biggest, r.value ? r.value->size() : 0);
        QCOMPARE(biggest, qsizetype(9'000'000));
    }

    void compactedTopicConfigFollows()
    {
        const QString topic = uniqueName(QStringLiteral("compact"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2,
                             {{QStringLiteral("cleanup.policy"), QStringLiteral("compact")},
                              {QStringLiteral("min.cleanable.dirty.ratio"), QStringLiteral("0.2")},
                              {QStringLiteral("min.insync.replicas"), QStringLiteral("1")},
                              {QStringLiteral("max.message.bytes"), QStringLiteral("2000000")}},
                             &error),
                 qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, numbered(QStringLiteral("c"), 40, 2), &error), qPrintable(error));
        MirrorJob job(harnessSpec(topic, {QRegularExpression::escape(topic)}));
        const JobOutcome out = runJob(job, 90000);
        QVERIFY2(out.finished && out.ok, qPrintable(out.error + QStringLiteral("\n  ") + joined(out.events)));
        QCOMPARE(partitionCount(targetBootstrap(), topic), 2);
        const QMap<QString, QString> cfg = targetConfigs(topic);
        QCOMPARE(cfg.value(QStringLiteral("cleanup.policy")), QStringLiteral("compact"));
        QCOMPARE(cfg.value(QStringLiteral("min.cleanable.dirty.ratio")), QStringLiteral("0.2"));
        QCOMPARE(cfg.value(QStringLiteral("max.message.bytes")), QStringLiteral("2000000"));
        QVERIFY2(!cfg.contains(QStringLiteral("min.insync.replicas")), "an MM2-excluded config was copied");
        const auto copied = consumeAll(targetBootstrap(), topic, &error);
        QVERIFY2(copied, qPrintable(error));
        QCOMPARE(copied->size(), 40);
    }

    void namingPolicies_data()
    {
        QTest::addColumn<int>("policy");
        QTest::addColumn<QString>("tmpl");
        QTest::addColumn<QString>("expectedPattern"); // %1 = source topic
        QTest::newRow("identity") << int(NamingPolicy::Identity) << QString() << QStringLiteral("%1");
        QTest::newRow("prefix") << int(NamingPolicy::Prefix) << QString() << QStringLiteral("source.%1");
        QTest::newRow("template") << int(NamingPolicy::Template) << QStringLiteral("dr-${topic}-copy")
                                  << QStringLiteral("dr-%1-copy");
    }
    void namingPolicies()
    {
        QFETCH(int, policy);
        QFETCH(QString, tmpl);
        QFETCH(QString, expectedPattern);
        const QString topic = uniqueName(QStringLiteral("name"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, numbered(QStringLiteral("n"), 20, 2), &error), qPrintable(error));
        MirrorJobSpec spec = harnessSpec(topic, {QRegularExpression::escape(topic)});
        spec.naming = NamingPolicy(policy);
        spec.nameTemplate = tmpl;
        MirrorJob job(spec);
        const JobOutcome out = runJob(job, 90000);
        QVERIFY2(out.finished && out.ok, qPrintable(out.error + QStringLiteral("\n  ") + joined(out.events)));
        const QString target = expectedPattern.arg(topic);
        const auto copied = consumeAll(targetBootstrap(), target, &error);
        QVERIFY2(copied, qPrintable(error));
        QCOMPARE(copied->size(), 20);
        QCOMPARE(partitionCount(targetBootstrap(), target), 2);
    }

    void filtersExcludeInternalAndLoops()
    {
        const QString base = uniqueName(QStringLiteral("flt"));
        const QString keep = base + QStringLiteral("-keep");
        const QString skip = base + QStringLiteral("-skip");
        const QString internal = base + QStringLiteral(".checkpoints.internal");
        const QString fromTarget = QStringLiteral("target.") + base + QStringLiteral("-loop");
        QString error;
        for (const QString &t : {keep, skip, internal, fromTarget}) {
            QVERIFY2(createTopic(sourceBootstrap(), t, 1, {}, &error), qPrintable(error));
            QVERIFY2(produce(sourceBootstrap(), t, numbered(t, 5, 1), &error), qPrintable(error));
        }
        MirrorJobSpec spec =
            harnessSpec(base, {QRegularExpression::escape(base) + QStringLiteral(".*"),
                               QStringLiteral("target\\.") + QRegularExpression::escape(base) + QStringLiteral(".*"),
                               QStringLiteral("__consumer_offsets")});
        spec.exclude = {QStringLiteral(".*-skip")};
        spec.naming = NamingPolicy::Prefix;
        MirrorJob job(spec);
        const JobOutcome out = runJob(job, 90000);
        QVERIFY2(out.finished && out.ok, qPrintable(out.error + QStringLiteral("\n  ") + joined(out.events)));
        QCOMPARE(partitionCount(targetBootstrap(), QStringLiteral("source.") + keep), 1);
        QCOMPARE(partitionCount(targetBootstrap(), QStringLiteral("source.") + skip), -1);
        QCOMPARE(partitionCount(targetBootstrap(), QStringLiteral("source.") + internal), -1);
        QCOMPARE(partitionCount(targetBootstrap(), QStringLiteral("source.") + fromTarget), -1);
        QCOMPARE(partitionCount(targetBootstrap(), QStringLiteral("source.__consumer_offsets")), -1);
    }
};

QTEST_GUILESS_MAIN(TstMirrorFidelity)
#include "tst_mirror_fidelity.moc"
