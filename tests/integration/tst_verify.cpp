// `mirrordesk verify` against the real brokers of the harness: the copies are
// made with the independent test producer (same records on both sides), then
// altered one way at a time to prove each difference is found and located;
// missing topics and partitions, a latest start, the topic filter, an
// unreachable cluster, and the executable's output and exit codes. Replays
// and transactions: tst_verifydelivery; trimmed logs: tst_verifytrim.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/verify/Verifier.h"
#include "verify_support.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace md;
using namespace md::test;

class TestVerify final : public QObject {
    Q_OBJECT

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
