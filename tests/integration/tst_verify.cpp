// `mirrordesk verify` against the real brokers of the harness: the copies are
// made with the independent test producer (same records on both sides), then
// altered one way at a time to prove each difference is found and located.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "Verifier.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace md;
using md::test::TestRecord;

namespace {

QByteArray bytes(const char *s)
{
    return QByteArray(s);
}

// Records exercising every field: null and empty keys and values, binary
// bytes, duplicate and null-valued headers, old explicit timestamps.
QList<TestRecord> sampleRecords(int partition, int count)
{
    QList<TestRecord> out;
    for (int i = 0; i < count; ++i) {
        TestRecord r;
        r.partition = partition;
        r.timestamp = 1500000000000LL + partition * 100000 + i; // 2017: far from "now"
        switch (i % 5) {
        case 0:
            r.key = std::nullopt;
            r.value = bytes("plain") + QByteArray::number(i);
            break;
        case 1:
            r.key = QByteArray();
            r.value = std::nullopt;
            break;
        case 2:
            r.key = bytes("k") + QByteArray::number(i);
            r.value = QByteArray();
            break;
        case 3:
            r.key = QByteArray("\x00\xff\x01", 3);
            r.value = QByteArray(1000, char(i));
            break;
        default:
            r.key = bytes("h") + QByteArray::number(i);
            r.value = bytes("with headers");
            r.headers = {{QStringLiteral("dup"), bytes("1")},
                         {QStringLiteral("dup"), bytes("2")},
                         {QStringLiteral("null"), std::nullopt},
                         {QStringLiteral("empty"), QByteArray()}};
            break;
        }
        out.append(r);
    }
    return out;
}

MirrorJobSpec makeSpec(const QString &topic)
{
    MirrorJobSpec spec;
    spec.name = QStringLiteral("verify test");
    spec.source = test::clusterConfig(QStringLiteral("source"));
    spec.source.alias = QStringLiteral("src");
    spec.target = test::clusterConfig(QStringLiteral("target"));
    spec.target.alias = QStringLiteral("dst");
    spec.include = {QRegularExpression::escape(topic)};
    spec.naming = NamingPolicy::Prefix;
    spec.start = StartPosition::Earliest;
    return spec;
}

QString targetName(const QString &topic)
{
    return QStringLiteral("src.") + topic;
}

int closedPort()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost, 0);
    return server.serverPort(); // closed again when `server` goes
}

VerifyOptions quickOptions()
{
    VerifyOptions o;
    o.connectTimeoutMs = 10000;
    o.idleTimeoutMs = 20000;
    return o;
}

} // namespace

class TestVerify final : public QObject {
    Q_OBJECT

private:
    // Source topic with `partitions` partitions, target copy under the prefix name;
    // `source` and `target` are produced as given (per partition, in order).
    void makePair(const QString &topic, int partitions, const QList<TestRecord> &source,
                  const QList<TestRecord> &target, bool createTarget = true)
    {
        QString error;
        QVERIFY2(test::createTopic(test::sourceBootstrap(), topic, partitions, {}, &error), qPrintable(error));
        if (createTarget)
            QVERIFY2(test::createTopic(test::targetBootstrap(), targetName(topic), partitions, {}, &error),
                     qPrintable(error));
        if (!source.isEmpty())
            QVERIFY2(test::produce(test::sourceBootstrap(), topic, source, &error), qPrintable(error));
        if (!target.isEmpty())
            QVERIFY2(test::produce(test::targetBootstrap(), targetName(topic), target, &error), qPrintable(error));
    }

    static const PartitionVerdict *verdictFor(const VerifyReport &report, int partition)
    {
        for (const PartitionVerdict &v : report.partitions) {
            if (v.partition == partition)
                return &v;
        }
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase() { MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target")); }

    void exactCopyMatches()
    {
        const QString topic = test::uniqueName(QStringLiteral("verify-exact"));
        const QList<TestRecord> records = sampleRecords(0, 25) + sampleRecords(1, 12);
        makePair(topic, 3, records, records); // partition 2 stays empty on both sides
        QList<PartitionVerdict> seen;
        const VerifyReport report =
            Verifier(makeSpec(topic), quickOptions()).run([&](const PartitionVerdict &v) { seen.append(v); });
        QVERIFY2(report.completed, qPrintable(report.error));
        QCOMPARE(report.exitCode(), 0);
        QCOMPARE(report.partitions.size(), 3);
        QCOMPARE(seen, report.partitions);
        const qint64 expected[] = {25, 12, 0};
        for (int p = 0; p < 3; ++p) {
            const PartitionVerdict *v = verdictFor(report, p);
            QVERIFY(v);
            QCOMPARE(v->status, PartitionVerdict::Status::Match);
            QCOMPARE(v->sourceCount, expected[p]);
            QCOMPARE(v->targetCount, expected[p]);
            QCOMPARE(v->targetTopic, targetName(topic));
            QCOMPARE(v->sourceDigest.size(), 64);
            QCOMPARE(v->sourceDigest, v->targetDigest);
        }
        QVERIFY(verdictFor(report, 0)->sourceDigest != verdictFor(report, 1)->sourceDigest);
        QVERIFY(report.summary().contains(QStringLiteral("3 match, 0 differ")));
    }

    void differenceIsLocated_data()
    {
        QTest::addColumn<int>("index");           // the altered record of partition 1
        QTest::addColumn<QString>("change");      // value, key, headers, timestamp, missing, missing-last, null
        QTest::addColumn<qint64>("sourceOffset"); // expected location
        QTest::addColumn<qint64>("targetOffset");
        QTest::addColumn<QString>("expectedText");

        QTest::newRow("value") << 7 << QStringLiteral("value") << qint64(7) << qint64(7)
                               << QStringLiteral("value differs");
        QTest::newRow("key") << 3 << QStringLiteral("key") << qint64(3) << qint64(3) << QStringLiteral("key differs");
        QTest::newRow("headers order") << 4 << QStringLiteral("headers") << qint64(4) << qint64(4)
                                       << QStringLiteral("headers differs");
        QTest::newRow("null header") << 9 << QStringLiteral("null-header") << qint64(9) << qint64(9)
                                     << QStringLiteral("headers differs");
        QTest::newRow("timestamp") << 5 << QStringLiteral("timestamp") << qint64(5) << qint64(5)
                                   << QStringLiteral("timestamp (source");
        QTest::newRow("null vs empty value")
            << 2 << QStringLiteral("null") << qint64(2) << qint64(2) << QStringLiteral("value differs");
        QTest::newRow("missing in the middle")
            << 6 << QStringLiteral("missing") << qint64(6) << qint64(6)
            << QStringLiteral("missing on the target: 1 source record (offsets 6 to 6)");
        QTest::newRow("missing at the end") << 11 << QStringLiteral("missing") << qint64(11) << qint64(11)
                                            << QStringLiteral("missing on the target (11 of 12 records copied)");
        QTest::newRow("extra on the target") << 12 << QStringLiteral("extra") << qint64(-1) << qint64(12)
                                             << QStringLiteral("extra record on the target");
    }

    void differenceIsLocated()
    {
        QFETCH(int, index);
        QFETCH(QString, change);
        QFETCH(qint64, sourceOffset);
        QFETCH(qint64, targetOffset);
        QFETCH(QString, expectedText);

        const QString topic = test::uniqueName(QStringLiteral("verify-diff"));
        const QList<TestRecord> p0 = sampleRecords(0, 10);
        const QList<TestRecord> p1 = sampleRecords(1, 12);
        QList<TestRecord> altered = p1;
        if (change == QLatin1String("value")) {
            altered[index].value = bytes("changed");
        } else if (change == QLatin1String("key")) {
            altered[index].key = QByteArray("\x00\xff\x02", 3);
        } else if (change == QLatin1String("headers")) {
            std::swap(altered[index].headers[0], altered[index].headers[1]);
        } else if (change == QLatin1String("null-header")) {
            altered[index].headers[2].second = QByteArray(); // null -> empty
        } else if (change == QLatin1String("timestamp")) {
            altered[index].timestamp += 1;
        } else if (change == QLatin1String("null")) {
            QVERIFY(!altered[index].value.has_value() || altered[index].value->isEmpty());
            altered[index].value = altered[index].value ? std::nullopt : std::optional<QByteArray>(QByteArray());
        } else if (change == QLatin1String("missing")) {
            altered.removeAt(index);
        } else if (change == QLatin1String("extra")) {
            altered.append(sampleRecords(1, 13).last()); // a record the source never had
        }
        makePair(topic, 2, p0 + p1, p0 + altered);

        const VerifyReport report = Verifier(makeSpec(topic), quickOptions()).run();
        QVERIFY2(report.completed, qPrintable(report.error));
        QCOMPARE(report.exitCode(), 1);
        QCOMPARE(verdictFor(report, 0)->status, PartitionVerdict::Status::Match);
        const PartitionVerdict *first = report.firstDifference();
        QVERIFY(first);
        QCOMPARE(first->partition, 1);
        QCOMPARE(first->sourceTopic, topic);
        QVERIFY2(first->difference.contains(expectedText), qPrintable(first->difference));
        QCOMPARE(first->sourceOffset, sourceOffset);
        QCOMPARE(first->targetOffset, targetOffset);
        QCOMPARE(first->sourceCount, 12);
        QCOMPARE(first->targetCount, qint64(altered.size()));
        const QString summary = report.summary();
        QVERIFY2(summary.contains(QStringLiteral("first difference: ") + topic + QStringLiteral("[1]")),
                 qPrintable(summary));
        QVERIFY2(first->toString().contains(
                     QStringLiteral("target offset %1")
                         .arg(targetOffset >= 0 ? QString::number(targetOffset) : QStringLiteral("-"))),
                 qPrintable(first->toString()));
    }

    void missingTargetTopicIsADifference()
    {
        const QString topic = test::uniqueName(QStringLiteral("verify-notarget"));
        makePair(topic, 2, sampleRecords(0, 3), {}, false);
        const VerifyReport report = Verifier(makeSpec(topic), quickOptions()).run();
        QVERIFY2(report.completed, qPrintable(report.error));
        QCOMPARE(report.exitCode(), 1);
        QCOMPARE(report.partitions.size(), 1);
        QCOMPARE(report.partitions.first().partition, -1);
        QVERIFY2(report.partitions.first().difference.contains(targetName(topic) + QStringLiteral(" does not exist")),
                 qPrintable(report.partitions.first().difference));
    }

    void fewerTargetPartitionsIsADifference()
    {
        const QString topic = test::uniqueName(QStringLiteral("verify-fewer"));
        QString error;
        QVERIFY2(test::createTopic(test::sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        QVERIFY2(test::createTopic(test::targetBootstrap(), targetName(topic), 1, {}, &error), qPrintable(error));
        const VerifyReport report = Verifier(makeSpec(topic), quickOptions()).run();
        QVERIFY2(report.completed, qPrintable(report.error));
        QCOMPARE(report.exitCode(), 1);
        QCOMPARE(report.firstDifference()->partition, 1);
        QVERIFY(report.firstDifference()->difference.contains(QStringLiteral("target partition missing")));
    }

    void replayedRunIsAWarningNotADifference()
    {
        // What an at-least-once restart leaves: records 0..7 copied, progress
        // committed at 4, so 4..7 are copied again before the copy goes on.
        const QString topic = test::uniqueName(QStringLiteral("verify-replay"));
        const QList<TestRecord> source = sampleRecords(0, 12);
        const QList<TestRecord> target = source.mid(0, 8) + source.mid(4, 4) + source.mid(8);
        makePair(topic, 1, source, target);
        const VerifyReport report = Verifier(makeSpec(topic), quickOptions()).run();
        QVERIFY2(report.completed, qPrintable(report.error));
        QCOMPARE(report.exitCode(), 0);
        const PartitionVerdict &v = report.partitions.first();
        QCOMPARE(v.status, PartitionVerdict::Status::MatchWithDuplicates);
        QCOMPARE(v.duplicates, 4);
        QCOMPARE(v.sourceCount, 12);
        QCOMPARE(v.targetCount, 16);
        QCOMPARE(v.sourceDigest, v.targetDigest);
        QVERIFY2(report.summary().contains(QStringLiteral("4 duplicate records")), qPrintable(report.summary()));

        // A replay cut short and followed by a record out of order is still a difference.
        const QString topic2 = test::uniqueName(QStringLiteral("verify-replay-bad"));
        QList<TestRecord> bad = source.mid(0, 8) + source.mid(4, 2) + source.mid(9);
        makePair(topic2, 1, source, bad);
        const VerifyReport report2 = Verifier(makeSpec(topic2), quickOptions()).run();
        QCOMPARE(report2.exitCode(), 1);
        QCOMPARE(report2.firstDifference()->sourceOffset, 6);
    }

    void duplicatesFailAnExactlyOnceJob()
    {
        // The same target with a record produced twice: allowed for at-least-once,
        // a failure for exactly-once, whose read_committed readers must see each record once.
        const QString topic = test::uniqueName(QStringLiteral("verify-eos-dup"));
        const QList<TestRecord> source = sampleRecords(0, 10);
        const QList<TestRecord> target = source.mid(0, 6) + source.mid(5, 1) + source.mid(6);
        makePair(topic, 2, source + sampleRecords(1, 3), target + sampleRecords(1, 3));
        MirrorJobSpec spec = makeSpec(topic);
        const VerifyReport atLeastOnce = Verifier(spec, quickOptions()).run();
        QVERIFY2(atLeastOnce.completed, qPrintable(atLeastOnce.error));
        QCOMPARE(atLeastOnce.exitCode(), 0);
        QCOMPARE(verdictFor(atLeastOnce, 0)->status, PartitionVerdict::Status::MatchWithDuplicates);

        spec.delivery = DeliveryGuarantee::ExactlyOnce;
        const VerifyReport exactlyOnce = Verifier(spec, quickOptions()).run();
        QVERIFY2(exactlyOnce.completed, qPrintable(exactlyOnce.error));
        QCOMPARE(exactlyOnce.exitCode(), 1);
        const PartitionVerdict *v = verdictFor(exactlyOnce, 0);
        QVERIFY(v);
        QCOMPARE(v->status, PartitionVerdict::Status::Different);
        QCOMPARE(v->duplicates, 1);
        QCOMPARE(v->sourceOffset, 5); // the record copied twice
        QCOMPARE(v->targetOffset, 6); // its second copy
        QVERIFY2(v->toString().contains(QStringLiteral("DIFFERENT: exactly-once job: 1 duplicate on the target")),
                 qPrintable(v->toString()));
        QCOMPARE(verdictFor(exactlyOnce, 1)->status, PartitionVerdict::Status::Match); // no duplicate there
        QCOMPARE(exactlyOnce.firstDifference(), v);
        QVERIFY2(exactlyOnce.summary().contains(QStringLiteral("; exactly-once job: 1 duplicate on the target")),
                 qPrintable(exactlyOnce.summary()));
        QVERIFY2(!exactlyOnce.summary().contains(QStringLiteral("at-least-once replay")),
                 qPrintable(exactlyOnce.summary()));
    }

    // End to end: an exactly-once run copies, and verify of the job finds no duplicate
    // (the run line names the mode).
    void exactlyOnceRunVerifiesWithoutDuplicates()
    {
        const QString exe = QStringLiteral(MIRRORDESK_BINARY_DIR "/app/mirrordesk");
        QVERIFY2(QFile::exists(exe), qPrintable(exe + QStringLiteral(" was not built")));
        const QString topic = test::uniqueName(QStringLiteral("verify-eos-run"));
        // Prefix naming: progress on the target is kept under the target topic's name.
        makePair(topic, 2, sampleRecords(0, 150) + sampleRecords(1, 90), {}, false);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("eos.mirrorjob"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral(R"({"mirrordesk": 1, "name": "%3",
            "source": {"alias": "src", "bootstrap": "%1"}, "target": {"alias": "dst", "bootstrap": "%2"},
            "topics": {"include": ["%3"]}, "naming": {"policy": "prefix"}, "start": "earliest",
            "delivery": "exactly-once", "transactionIntervalMs": 50, "transactionMaxRecords": 40})")
                    .arg(test::sourceBootstrap(), test::targetBootstrap(), topic)
                    .toUtf8());
        f.close();
        QProcess run;
        run.start(exe, {QStringLiteral("run"), path, QStringLiteral("--until-caught-up")});
        if (!run.waitForFinished(120000))
            run.kill();
        run.waitForFinished();
        const QString runOut = QString::fromUtf8(run.readAllStandardOutput() + run.readAllStandardError());
        QVERIFY2(run.exitStatus() == QProcess::NormalExit && run.exitCode() == 0, qPrintable(runOut));
        QVERIFY2(runOut.contains(QStringLiteral(" (exactly-once)")), qPrintable(runOut));

        MirrorJobSpec spec = makeSpec(topic);
        spec.delivery = DeliveryGuarantee::ExactlyOnce;
        const VerifyReport report = Verifier(spec, quickOptions()).run();
        QVERIFY2(report.completed, qPrintable(report.error));
        QVERIFY2(report.exitCode() == 0, qPrintable(report.summary()));
        QCOMPARE(report.partitions.size(), 2);
        for (const PartitionVerdict &v : report.partitions) {
            QCOMPARE(v.status, PartitionVerdict::Status::Match);
            QCOMPARE(v.duplicates, 0);
        }
        QCOMPARE(report.partitions.at(0).sourceCount + report.partitions.at(1).sourceCount, 240);
    }

    void transactionMarkersAndAbortsDoNotShiftTheComparison()
    {
        // The source holds a committed and an aborted transaction (control
        // records and invisible records): offsets differ from the target's,
        // the content is the same.
        const QString topic = test::uniqueName(QStringLiteral("verify-txn"));
        makePair(topic, 1, {}, {});
        QString error;
        const QList<TestRecord> a = sampleRecords(0, 5);
        const QList<TestRecord> b = sampleRecords(0, 10).mid(5);
        QVERIFY2(test::produceTransactionalCommitted(test::sourceBootstrap(), topic, a, &error), qPrintable(error));
        QVERIFY2(test::produceTransactionalAborted(test::sourceBootstrap(), topic, sampleRecords(0, 3), &error),
                 qPrintable(error));
        QVERIFY2(test::produce(test::sourceBootstrap(), topic, b, &error), qPrintable(error));
        QVERIFY2(test::produce(test::targetBootstrap(), targetName(topic), a + b, &error), qPrintable(error));

        const VerifyReport report = Verifier(makeSpec(topic), quickOptions()).run();
        QVERIFY2(report.completed, qPrintable(report.error));
        QCOMPARE(report.exitCode(), 0);
        QCOMPARE(report.partitions.first().sourceCount, 10);
        QCOMPARE(report.partitions.first().targetCount, 10);
    }

    void latestStartAlignsOnTheFirstTargetRecord()
    {
        const QString topic = test::uniqueName(QStringLiteral("verify-latest"));
        const QList<TestRecord> source = sampleRecords(0, 10);
        makePair(topic, 1, source, source.mid(6));
        MirrorJobSpec spec = makeSpec(topic);
        spec.start = StartPosition::Latest;
        const VerifyReport report = Verifier(spec, quickOptions()).run();
        QVERIFY2(report.completed, qPrintable(report.error));
        QCOMPARE(report.exitCode(), 0);
        QCOMPARE(report.partitions.first().sourceCount, 4);
        QCOMPARE(report.partitions.first().sourceSkipped, 6);

        // The same copy checked as an "earliest" job misses its first six records.
        spec.start = StartPosition::Earliest;
        const VerifyReport strict = Verifier(spec, quickOptions()).run();
        QCOMPARE(strict.exitCode(), 1);
        QCOMPARE(strict.firstDifference()->sourceOffset, 0);
        QVERIFY(
            strict.firstDifference()->difference.contains(QStringLiteral("missing on the target: 6 source records")));
    }

    void topicFilterRestricts()
    {
        const QString good = test::uniqueName(QStringLiteral("verify-filter-a"));
        const QString bad = test::uniqueName(QStringLiteral("verify-filter-b"));
        makePair(good, 1, sampleRecords(0, 3), sampleRecords(0, 3));
        makePair(bad, 1, sampleRecords(0, 3), {});
        MirrorJobSpec spec = makeSpec(good);
        spec.include << QRegularExpression::escape(bad);
        QCOMPARE(Verifier(spec, quickOptions()).run().exitCode(), 1);
        VerifyOptions options = quickOptions();
        options.topicFilter = QRegularExpression::escape(good);
        const VerifyReport report = Verifier(spec, options).run();
        QCOMPARE(report.exitCode(), 0);
        QCOMPARE(report.partitions.size(), 1);
        options.topicFilter = QStringLiteral("(");
        const VerifyReport invalid = Verifier(spec, options).run();
        QCOMPARE(invalid.exitCode(), 2);
        QVERIFY(invalid.error.contains(QStringLiteral("--topic")));
    }

    void unreachableClusterCannotCompare()
    {
        const QString address = QStringLiteral("127.0.0.1:%1").arg(closedPort());
        MirrorJobSpec spec = makeSpec(QStringLiteral("whatever"));
        spec.target.bootstrap = address;
        QElapsedTimer timer;
        timer.start();
        const VerifyReport report = Verifier(spec, quickOptions()).run();
        QVERIFY2(timer.elapsed() < 12000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(!report.completed);
        QCOMPARE(report.exitCode(), 2);
        QVERIFY2(report.error.contains(QStringLiteral("target ") + address), qPrintable(report.error));
        QVERIFY2(report.summary().startsWith(QStringLiteral("verify: cannot compare")), qPrintable(report.summary()));
    }

    // Records with 2024 CreateTimes (what retention.ms on the target removes),
    // then records from a minute ago (what it keeps).
    static QList<TestRecord> historyThenRecent(int oldCount, int recentCount, qint64 nowMs)
    {
        QList<TestRecord> out = sampleRecords(0, oldCount);
        for (int i = 0; i < oldCount; ++i)
            out[i].timestamp = 1709251200000LL + i * 1000; // 2024-03-01
        QList<TestRecord> recent = sampleRecords(0, oldCount + recentCount).mid(oldCount);
        for (int i = 0; i < recentCount; ++i)
            recent[i].timestamp = nowMs - 60000 + i;
        return out + recent;
    }

    void targetTrimmedByRetentionComparesTheRangeBothHold()
    {
        // The user's case: history mirrored to a target topic that keeps 7
        // days. The target's retention deletes the 2024 records (at its next
        // retention check, up to log.retention.check.interval.ms = 5 min).
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const QList<TestRecord> records = historyThenRecent(30, 20, now);
        const QMap<QString, QString> keep7Days{{QStringLiteral("retention.ms"), QStringLiteral("604800000")}};
        struct Pair {
            QString topic;
            QList<TestRecord> target;
        };
        QList<TestRecord> gapInside = records;
        gapInside.removeAt(35); // a recent record, inside the kept range
        QList<TestRecord> gapAtStart = records;
        gapAtStart.removeAt(30); // the first recent record: right after what retention removes
        const QList<Pair> pairs{{test::uniqueName(QStringLiteral("verify-ret")), records},
                                {test::uniqueName(QStringLiteral("verify-ret-gap")), gapInside},
                                {test::uniqueName(QStringLiteral("verify-ret-gap0")), gapAtStart}};
        QString error;
        for (const Pair &p : pairs) {
            QVERIFY2(test::createTopic(test::sourceBootstrap(), p.topic, 1, {}, &error), qPrintable(error));
            QVERIFY2(test::createTopic(test::targetBootstrap(), targetName(p.topic), 1, keep7Days, &error),
                     qPrintable(error));
            QVERIFY2(test::produce(test::sourceBootstrap(), p.topic, records.mid(0, 30), &error), qPrintable(error));
            QVERIFY2(test::produce(test::sourceBootstrap(), p.topic, records.mid(30), &error), qPrintable(error));
            // Two produce calls: the old records' segment rolls before the recent ones.
            QVERIFY2(test::produce(test::targetBootstrap(), targetName(p.topic), p.target.mid(0, 30), &error),
                     qPrintable(error));
            QVERIFY2(test::produce(test::targetBootstrap(), targetName(p.topic), p.target.mid(30), &error),
                     qPrintable(error));
        }
        QElapsedTimer waited;
        waited.start();
        for (const Pair &p : pairs) {
            while (true) {
                const auto marks = test::watermarks(test::targetBootstrap(), targetName(p.topic), &error);
                QVERIFY2(marks, qPrintable(error));
                if (marks->value(0).first >= 30)
                    break;
                QVERIFY2(waited.elapsed() < 400000, "the target's retention did not remove the 2024 records in time");
                QTest::qWait(2000);
            }
        }

        const VerifyReport report = Verifier(makeSpec(pairs[0].topic), quickOptions()).run();
        QVERIFY2(report.completed, qPrintable(report.error));
        QCOMPARE(report.exitCode(), 0);
        const PartitionVerdict &v = report.partitions.first();
        QCOMPARE(v.status, PartitionVerdict::Status::Match);
        QCOMPARE(v.trimmedFromTarget, 30);
        QCOMPARE(v.sourceCount, 20);
        QCOMPARE(v.targetCount, 20);
        const QString line = v.toString();
        QVERIFY2(line.contains(QStringLiteral("target log starts at 30: removed by the target's "
                                              "retention.ms=604800000; records carry 2024 CreateTimes")),
                 qPrintable(line));
        QVERIFY2(line.contains(QStringLiteral("source offsets 0 to 29 (30 records) not compared")), qPrintable(line));
        QVERIFY2(report.summary().contains(QStringLiteral("30 source records the target no longer holds")),
                 qPrintable(report.summary()));

        const VerifyReport inside = Verifier(makeSpec(pairs[1].topic), quickOptions()).run();
        QVERIFY2(inside.completed, qPrintable(inside.error));
        QCOMPARE(inside.exitCode(), 1);
        QCOMPARE(inside.firstDifference()->sourceOffset, 35);
        QVERIFY2(
            inside.firstDifference()->difference.contains(QStringLiteral("missing on the target: 1 source record")),
            qPrintable(inside.firstDifference()->difference));

        const VerifyReport atStart = Verifier(makeSpec(pairs[2].topic), quickOptions()).run();
        QVERIFY2(atStart.completed, qPrintable(atStart.error));
        QCOMPARE(atStart.exitCode(), 1);
        QVERIFY2(
            atStart.firstDifference()->difference.contains(QStringLiteral("missing on the target: 31 source records")),
            qPrintable(atStart.firstDifference()->difference));
        QCOMPARE(atStart.firstDifference()->sourceOffset, 30);
    }

    void targetTrimmedByDeleteRecordsComparesTheRangeBothHold()
    {
        const QList<TestRecord> records = sampleRecords(0, 20);
        QList<TestRecord> gapInside = records;
        gapInside.removeAt(12);
        QList<TestRecord> gapAtStart = records;
        gapAtStart.removeAt(8); // target offset 8 now holds source offset 9
        QList<TestRecord> altered = records;
        altered[15].value = bytes("changed");
        const QString ok = test::uniqueName(QStringLiteral("verify-del"));
        const QString inside = test::uniqueName(QStringLiteral("verify-del-gap"));
        const QString atStart = test::uniqueName(QStringLiteral("verify-del-gap0"));
        const QString changed = test::uniqueName(QStringLiteral("verify-del-alt"));
        makePair(ok, 1, records, records);
        makePair(inside, 1, records, gapInside);
        makePair(atStart, 1, records, gapAtStart);
        makePair(changed, 1, records, altered);
        QString error;
        for (const QString &t : {ok, inside, atStart, changed})
            QVERIFY2(test::deleteRecords(test::targetBootstrap(), targetName(t), {{0, 8}}, &error), qPrintable(error));

        const VerifyReport report = Verifier(makeSpec(ok), quickOptions()).run();
        QVERIFY2(report.completed, qPrintable(report.error));
        QCOMPARE(report.exitCode(), 0);
        const PartitionVerdict &v = report.partitions.first();
        QCOMPARE(v.trimmedFromTarget, 8);
        QCOMPARE(v.sourceCount, 12);
        QCOMPARE(v.sourceDigest, v.targetDigest);
        // No time retention on these topics: the log start was moved by a deletion.
        QVERIFY2(v.toString().contains(QStringLiteral("target log starts at 8 (deleted records or retention: "
                                                      "retention.ms=-1")),
                 qPrintable(v.toString()));

        const VerifyReport r1 = Verifier(makeSpec(inside), quickOptions()).run();
        QCOMPARE(r1.exitCode(), 1);
        QCOMPARE(r1.firstDifference()->sourceOffset, 12);
        QVERIFY2(r1.firstDifference()->difference.contains(QStringLiteral("missing on the target: 1 source record")),
                 qPrintable(r1.firstDifference()->difference));

        const VerifyReport r2 = Verifier(makeSpec(atStart), quickOptions()).run();
        QCOMPARE(r2.exitCode(), 1);
        QCOMPARE(r2.firstDifference()->sourceOffset, 8);
        QCOMPARE(r2.firstDifference()->targetOffset, 8);
        QVERIFY2(r2.firstDifference()->difference.contains(QStringLiteral("missing on the target: 9 source records "
                                                                          "before the target's first record")),
                 qPrintable(r2.firstDifference()->difference));

        const VerifyReport r3 = Verifier(makeSpec(changed), quickOptions()).run();
        QCOMPARE(r3.exitCode(), 1);
        QCOMPARE(r3.firstDifference()->sourceOffset, 15);
        QVERIFY(r3.firstDifference()->difference.contains(QStringLiteral("value differs")));
    }

    void sourceTrimmedAfterTheCopyComparesTheRangeBothHold()
    {
        const QList<TestRecord> records = sampleRecords(0, 20);
        QList<TestRecord> altered = records;
        altered[10].value = bytes("changed");
        QList<TestRecord> extra = sampleRecords(1, 8); // 8 records the source never had, then the copy
        for (TestRecord &r : extra)
            r.partition = 0;
        extra += records;
        const QString ok = test::uniqueName(QStringLiteral("verify-srcdel"));
        const QString changed = test::uniqueName(QStringLiteral("verify-srcdel-alt"));
        const QString extras = test::uniqueName(QStringLiteral("verify-srcdel-extra"));
        makePair(ok, 1, records, records);
        makePair(changed, 1, records, altered);
        makePair(extras, 1, records, extra);
        QString error;
        for (const QString &t : {ok, changed, extras})
            QVERIFY2(test::deleteRecords(test::sourceBootstrap(), t, {{0, 5}}, &error), qPrintable(error));

        const VerifyReport report = Verifier(makeSpec(ok), quickOptions()).run();
        QVERIFY2(report.completed, qPrintable(report.error));
        QCOMPARE(report.exitCode(), 0);
        const PartitionVerdict &v = report.partitions.first();
        QCOMPARE(v.trimmedFromSource, 5);
        QCOMPARE(v.sourceCount, 15);
        QCOMPARE(v.targetCount, 15);
        QVERIFY2(v.toString().contains(QStringLiteral("source log starts at 5 (deleted records or retention: "
                                                      "retention.ms=-1")),
                 qPrintable(v.toString()));
        QVERIFY2(v.toString().contains(QStringLiteral("target offsets 0 to 4 (5 records) not compared")),
                 qPrintable(v.toString()));

        const VerifyReport r1 = Verifier(makeSpec(changed), quickOptions()).run();
        QCOMPARE(r1.exitCode(), 1);
        QCOMPARE(r1.firstDifference()->sourceOffset, 10);
        QVERIFY(r1.firstDifference()->difference.contains(QStringLiteral("value differs")));

        // Nothing copied at all is still "missing", trimmed source or not.
        const QString empty = test::uniqueName(QStringLiteral("verify-srcdel-empty"));
        makePair(empty, 1, records, {});
        QVERIFY2(test::deleteRecords(test::sourceBootstrap(), empty, {{0, 5}}, &error), qPrintable(error));
        const VerifyReport r3 = Verifier(makeSpec(empty), quickOptions()).run();
        QCOMPARE(r3.exitCode(), 1);
        QVERIFY2(
            r3.firstDifference()->difference.contains(QStringLiteral("missing on the target (0 of 15 records copied)")),
            qPrintable(r3.firstDifference()->difference));

        // Both trimmed: the side that lost more decides where the compared range starts.
        const QString both1 = test::uniqueName(QStringLiteral("verify-both-tgt"));
        const QString both2 = test::uniqueName(QStringLiteral("verify-both-src"));
        makePair(both1, 1, records, records);
        makePair(both2, 1, records, records);
        QVERIFY2(test::deleteRecords(test::sourceBootstrap(), both1, {{0, 5}}, &error), qPrintable(error));
        QVERIFY2(test::deleteRecords(test::targetBootstrap(), targetName(both1), {{0, 8}}, &error), qPrintable(error));
        QVERIFY2(test::deleteRecords(test::sourceBootstrap(), both2, {{0, 8}}, &error), qPrintable(error));
        QVERIFY2(test::deleteRecords(test::targetBootstrap(), targetName(both2), {{0, 5}}, &error), qPrintable(error));
        const VerifyReport b1 = Verifier(makeSpec(both1), quickOptions()).run();
        QCOMPARE(b1.exitCode(), 0);
        QCOMPARE(b1.partitions.first().trimmedFromTarget, 3);
        QCOMPARE(b1.partitions.first().sourceCount, 12);
        QVERIFY2(b1.partitions.first().trimNote.contains(QStringLiteral("source offsets 5 to 7 (3 records)")),
                 qPrintable(b1.partitions.first().trimNote));
        const VerifyReport b2 = Verifier(makeSpec(both2), quickOptions()).run();
        QCOMPARE(b2.exitCode(), 0);
        QCOMPARE(b2.partitions.first().trimmedFromSource, 3);
        QCOMPARE(b2.partitions.first().targetCount, 12);
        QVERIFY2(b2.partitions.first().trimNote.contains(QStringLiteral("target offsets 5 to 7 (3 records)")),
                 qPrintable(b2.partitions.first().trimNote));

        // 13 target records before the source's first one: its log start (5) explains 5 at most.
        const VerifyReport r2 = Verifier(makeSpec(extras), quickOptions()).run();
        QCOMPARE(r2.exitCode(), 1);
        QVERIFY2(r2.firstDifference()->difference.contains(QStringLiteral("extra records on the target: 13")),
                 qPrintable(r2.firstDifference()->difference));
    }

    void commandLineExitCodes()
    {
        // The real executable, as a user runs it.
        const QString exe = QStringLiteral(MIRRORDESK_BINARY_DIR "/app/mirrordesk");
        QVERIFY2(QFile::exists(exe), qPrintable(exe + QStringLiteral(" was not built")));
        const QString topic = test::uniqueName(QStringLiteral("verify-cli"));
        const QList<TestRecord> records = sampleRecords(0, 8);
        QList<TestRecord> altered = records;
        altered[3].value = bytes("other");
        makePair(topic, 1, records, records);
        const QString topic2 = test::uniqueName(QStringLiteral("verify-cli-bad"));
        makePair(topic2, 1, records, altered);

        QTemporaryDir dir;
        auto profile = [&](const QString &include, const QString &targetBootstrap) {
            const QString path = dir.filePath(include + QStringLiteral(".mirrorjob"));
            QFile f(path);
            if (!f.open(QIODevice::WriteOnly))
                return QString();
            f.write(QStringLiteral(R"({"mirrordesk": 1, "name": "cli",
                "source": {"alias": "src", "bootstrap": "%1"},
                "target": {"alias": "dst", "bootstrap": "%2"},
                "topics": {"include": ["%3"]}, "naming": {"policy": "prefix"}, "start": "earliest"})")
                        .arg(test::sourceBootstrap(), targetBootstrap, include)
                        .toUtf8());
            return path;
        };
        auto run = [&](const QStringList &args, QString *out, QString *err) {
            QProcess p;
            p.start(exe, QStringList{QStringLiteral("verify")} + args);
            if (!p.waitForFinished(60000)) {
                p.kill();
                p.waitForFinished();
                return -1;
            }
            *out = QString::fromUtf8(p.readAllStandardOutput());
            *err = QString::fromUtf8(p.readAllStandardError());
            return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        };
        QString out, err;
        QCOMPARE(run({profile(topic, test::targetBootstrap())}, &out, &err), 0);
        QVERIFY2(
            out.contains(topic + QStringLiteral("[0] -> src.") + topic + QStringLiteral("[0]  source 8  target 8  OK")),
            qPrintable(out + err));

        QCOMPARE(run({profile(topic2, test::targetBootstrap())}, &out, &err), 1);
        QVERIFY2(out.contains(QStringLiteral("DIFFERENT: value differs at source offset 3, target offset 3")),
                 qPrintable(out + err));
        QVERIFY2(out.contains(QStringLiteral("first difference: ") + topic2 + QStringLiteral("[0]")), qPrintable(out));

        // A target whose log start moved: the range both hold matches, and the output says what was left out.
        const QString trimmed = test::uniqueName(QStringLiteral("verify-cli-trim"));
        makePair(trimmed, 1, records, records);
        QString error;
        QVERIFY2(test::deleteRecords(test::targetBootstrap(), targetName(trimmed), {{0, 3}}, &error),
                 qPrintable(error));
        QCOMPARE(run({profile(trimmed, test::targetBootstrap())}, &out, &err), 0);
        QVERIFY2(out.contains(QStringLiteral("[0]  source 5  target 5  OK")), qPrintable(out + err));
        QVERIFY2(out.contains(QStringLiteral("(target log starts at 3 (deleted records or retention: retention.ms=-1")),
                 qPrintable(out + err));
        QVERIFY2(out.contains(QStringLiteral("source offsets 0 to 2 (3 records) not compared)")),
                 qPrintable(out + err));
        QVERIFY2(
            out.contains(QStringLiteral("not compared (trimmed logs): 3 source records the target no longer holds")),
            qPrintable(out + err));

        // An exactly-once job's duplicate is a difference for the command too.
        const QString duplicated = test::uniqueName(QStringLiteral("verify-cli-eos"));
        makePair(duplicated, 1, records, records.mid(0, 4) + records.mid(3));
        const QString eosProfile = profile(duplicated, test::targetBootstrap());
        QCOMPARE(run({eosProfile}, &out, &err), 0);
        QVERIFY2(out.contains(QStringLiteral("OK with 1 duplicate")), qPrintable(out + err));
        QFile eosFile(eosProfile);
        QVERIFY(eosFile.open(QIODevice::ReadWrite));
        QByteArray json = eosFile.readAll();
        json.replace("\"start\": \"earliest\"", "\"start\": \"earliest\", \"delivery\": \"exactly-once\"");
        eosFile.resize(0);
        eosFile.write(json);
        eosFile.close();
        QCOMPARE(run({eosProfile}, &out, &err), 1);
        QVERIFY2(
            out.contains(QStringLiteral("DIFFERENT: exactly-once job: 1 duplicate on the target at source offset 3, "
                                        "target offset 4")),
            qPrintable(out + err));
        QVERIFY2(out.contains(QStringLiteral("; exactly-once job: 1 duplicate on the target")), qPrintable(out));

        const QString closed = QStringLiteral("127.0.0.1:%1").arg(closedPort());
        QCOMPARE(run({profile(topic, closed)}, &out, &err), 2);
        QVERIFY2(err.contains(closed), qPrintable(err));

        QCOMPARE(run({dir.filePath(QStringLiteral("nope.mirrorjob"))}, &out, &err), 2);
        QVERIFY2(err.contains(QStringLiteral("nope.mirrorjob")), qPrintable(err));
        QCOMPARE(run({}, &out, &err), 2);
        QVERIFY(err.contains(QStringLiteral("usage")));
    }
};

QTEST_GUILESS_MAIN(TestVerify)
#include "tst_verify.moc"
