// The mirror engine against librdkafka's in-process mock clusters: record
// fidelity, commits, metrics, pause/resume, stop conditions, fault injection
// and bad configuration, without real brokers. (The mock does not answer
// CreateTopics/DescribeConfigs, so target topics are made here; real-broker
// behaviour is in tests/integration/tst_mirror*.cpp.)

#include "KafkaTestUtil.h"
#include "MockCluster.h"
#include "engine/core/KafkaHandles.h"
#include "engine/groupsync/GroupOffsetSync.h"
#include "engine/mirror/CopyBounds.h"
#include "engine/mirror/InFlightRing.h"
#include "engine/mirror/LatencyHistogram.h"
#include "engine/mirror/MirrorJob.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <librdkafka/rdkafka_mock.h>

using namespace md;
using md::test::MockCluster;
using md::test::TestRecord;

namespace {

MirrorJobSpec mockSpec(const MockCluster &src, const MockCluster &dst, const QString &topic)
{
    MirrorJobSpec s;
    s.name = QStringLiteral("mock-") + topic;
    s.groupId = QStringLiteral("g-") + topic;
    s.source.alias = QStringLiteral("src");
    s.source.bootstrap = src.bootstrap();
    s.target.alias = QStringLiteral("dst");
    s.target.bootstrap = dst.bootstrap();
    s.include = {QRegularExpression::escape(topic)};
    s.naming = NamingPolicy::Identity;
    s.start = StartPosition::Earliest;
    s.stop = StopCondition::CaughtUp;
    s.samplingIntervalMs = 100;
    s.topicRefreshIntervalMs = 2000;
    // The mock answers quickly; keep group joins short.
    s.source.consumerProperties.insert(QStringLiteral("session.timeout.ms"), QStringLiteral("6000"));
    // The mock creates no topic for the job (MockCluster's controllerStub): its offset map is made here.
    rd_kafka_mock_topic_create(dst.get(), offsetMapTopicOf(s).toUtf8().constData(), 1, 1);
    return s;
}

QList<TestRecord> sampleRecords(int n, int partitions)
{
    QList<TestRecord> out;
    for (int i = 0; i < n; ++i) {
        TestRecord r;
        r.partition = i % partitions;
        r.timestamp = 1600000000000 + i;
        switch (i % 5) {
        case 0:
            r.key = std::nullopt;
            r.value = QByteArray("v") + QByteArray::number(i);
            break;
        case 1:
            r.key = QByteArray();
            r.value = std::nullopt;
            break;
        case 2:
            r.key = QByteArray("k") + QByteArray::number(i);
            r.value = QByteArray();
            break;
        case 3:
            r.key = QByteArray("\x00\xff\x01", 3);
            r.value = QByteArray("\x00\x00\xfe", 3);
            break;
        default:
            r.key = QByteArray("k");
            r.value = QByteArray(1000, 'x');
            r.headers = {{QStringLiteral("h"), QByteArray("1")},
                         {QStringLiteral("h"), QByteArray("2")},
                         {QStringLiteral("n"), std::nullopt},
                         {QStringLiteral("e"), QByteArray()}};
        }
        out << r;
    }
    return out;
}

// What a consumer reading partition after partition sees of records produced in this order.
QList<TestRecord> byPartition(QList<TestRecord> records)
{
    std::stable_sort(records.begin(), records.end(),
                     [](const TestRecord &a, const TestRecord &b) { return a.partition < b.partition; });
    return records;
}

bool runToEnd(MirrorJob &job, int timeoutMs, bool *ok, QString *error)
{
    QSignalSpy finished(&job, &MirrorJob::finished);
    job.start();
    if (!finished.wait(timeoutMs) && finished.isEmpty())
        return false;
    *ok = finished.first().at(0).toBool();
    *error = finished.first().at(1).toString();
    return true;
}

} // namespace

class TstMirrorJobMock final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void ring()
    {
        InFlightRing r;
        for (qint64 o = 10; o < 200; o += 2)
            r.push(o, qint32(1000 + o)); // grows past its first capacity of 64
        QCOMPARE(r.frontOffset(), 10);
        qint32 bytes = 0;
        QVERIFY(r.complete(12, true, &bytes)); // out of order: front stays
        QCOMPARE(bytes, 1012);                 // the record's size comes back with its offset
        QCOMPARE(r.frontOffset(), 10);
        QVERIFY(r.complete(150, true, &bytes)); // found past the first capacity
        QCOMPARE(bytes, 1150);
        QVERIFY(r.complete(10, true));
        QCOMPARE(r.frontOffset(), 14);
        QVERIFY(!r.complete(11, true)); // never in flight
        QVERIFY(r.complete(14, false));
        QCOMPARE(r.frontOffset(), 14); // a failure holds the commit point
        QCOMPARE(r.frontState(), InFlightRing::State::Failed);
        QCOMPARE(r.inFlight(), qsizetype(91));
    }

    void histogram()
    {
        LatencyHistogram h;
        QCOMPARE(h.percentile(0.5), -1.0);
        for (int i = 1; i <= 100; ++i)
            h.add(i);
        const LatencyStats s = h.stats();
        QCOMPARE(s.samples, 100);
        QCOMPARE(s.maxMs, 100.0);
        QVERIFY2(s.p50Ms >= 50 && s.p50Ms <= 50 * 1.2, qPrintable(QString::number(s.p50Ms)));
        QVERIFY(s.p99Ms >= 99 && s.p99Ms <= 100);
        h.add(-5); // future timestamps count as 0
        QCOMPARE(h.samples(), 101);
        h.reset();
        QCOMPARE(h.samples(), 0);
    }

    void copiesRecordsExactly()
    {
        MockCluster src, dst(1, true);
        const QString topic = QStringLiteral("exact");
        src.createTopic(topic, 3);
        dst.createTopic(topic, 3);
        const QList<TestRecord> records = sampleRecords(300, 3);
        QString error;
        QVERIFY2(md::test::produce(src.bootstrap(), topic, records, &error), qPrintable(error));

        MirrorJob job(mockSpec(src, dst, topic));
        QSignalSpy metrics(&job, &MirrorJob::metricsSampled);
        QSignalSpy states(&job, &MirrorJob::stateChanged);
        bool ok = false;
        QVERIFY2(runToEnd(job, 60000, &ok, &error), "job did not finish");
        QVERIFY2(ok, qPrintable(error));
        QCOMPARE(job.state(), JobState::Stopped);

        const auto copied = md::test::consumeAll(dst.bootstrap(), topic, &error);
        QVERIFY2(copied, qPrintable(error));
        QVERIFY2(md::test::sameRecords(byPartition(records), *copied, &error), qPrintable(error));

        QVERIFY(!metrics.isEmpty());
        const auto last = metrics.last().first().value<MetricsSnapshot>();
        QCOMPARE(last.recordsProduced, 300);
        QCOMPARE(last.recordsConsumed, 300);
        // Bytes are key + value + header names and values, counted when
        // consumed and again (from the in-flight ring) when acknowledged.
        qint64 bytes = 0;
        for (const TestRecord &r : records) {
            bytes += (r.key ? r.key->size() : 0) + (r.value ? r.value->size() : 0);
            for (const auto &[name, value] : r.headers)
                bytes += name.toUtf8().size() + (value ? value->size() : 0);
        }
        QVERIFY(bytes > 0);
        QCOMPARE(last.bytesConsumed, bytes);
        QCOMPARE(last.bytesProduced, bytes);
        QCOMPARE(last.inFlight, 0);
        QCOMPARE(last.partitions.size(), 3);
        for (const PartitionMetrics &p : last.partitions) {
            QCOMPARE(p.records, 100);
            QCOMPARE(p.nextOffset, 100);
            QCOMPARE(p.committedOffset, 100);
            QCOMPARE(p.lag, 0);
        }
        QList<JobState> seen;
        for (const auto &args : states)
            seen << args.first().value<JobState>();
        QVERIFY(seen.contains(JobState::Running));
        QCOMPARE(seen.last(), JobState::Stopped);

        // Committed progress: a second run from "committed" copies nothing again.
        MirrorJobSpec again = mockSpec(src, dst, topic);
        again.start = StartPosition::Committed;
        MirrorJob job2(again);
        QVERIFY2(runToEnd(job2, 60000, &ok, &error), "second job did not finish");
        QVERIFY2(ok, qPrintable(error));
        const auto after = md::test::consumeAll(dst.bootstrap(), topic, &error);
        QVERIFY2(after, qPrintable(error));
        QCOMPARE(after->size(), 300);
    }

    void stopAfterRecordsAndPause()
    {
        MockCluster src, dst(1, true);
        const QString topic = QStringLiteral("afterN");
        src.createTopic(topic, 2);
        dst.createTopic(topic, 2);
        QString error;
        QVERIFY2(md::test::produce(src.bootstrap(), topic, sampleRecords(100, 2), &error), qPrintable(error));
        MirrorJobSpec spec = mockSpec(src, dst, topic);
        spec.stop = StopCondition::AfterRecords;
        spec.stopAfterRecords = 20;
        MirrorJob job(spec);
        QSignalSpy finished(&job, &MirrorJob::finished);
        job.pause(); // before start: ignored (no worker yet)
        job.start();
        job.pause();
        QTRY_COMPARE_WITH_TIMEOUT(job.state(), JobState::Paused, 10000);
        QTest::qWait(1500);
        QVERIFY(finished.isEmpty());
        job.resume();
        QVERIFY(finished.wait(60000) || !finished.isEmpty());
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
        const auto copied = md::test::consumeAll(dst.bootstrap(), topic, &error);
        QVERIFY2(copied, qPrintable(error));
        QCOMPARE(copied->size(), 40); // 20 per partition
    }

    void survivesProduceErrors()
    {
        MockCluster src, dst(1, true);
        const QString topic = QStringLiteral("faulty");
        src.createTopic(topic, 1);
        dst.createTopic(topic, 1);
        QString error;
        QVERIFY2(md::test::produce(src.bootstrap(), topic, sampleRecords(200, 1), &error), qPrintable(error));
        // Retriable errors on the target's Produce: librdkafka retries, nothing is lost.
        rd_kafka_mock_push_request_errors(dst.get(), 0 /* Produce */, 4, RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION,
                                          RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT, RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS,
                                          RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE);
        MirrorJob job(mockSpec(src, dst, topic));
        bool ok = false;
        QVERIFY2(runToEnd(job, 60000, &ok, &error), "job did not finish");
        QVERIFY2(ok, qPrintable(error));
        const auto copied = md::test::consumeAll(dst.bootstrap(), topic, &error);
        QVERIFY2(copied, qPrintable(error));
        QVERIFY2(md::test::sameRecords(sampleRecords(200, 1), *copied, &error), qPrintable(error));
    }

    // librdkafka calls a batch delivered, offset unknown, when its request
    // failed without an answer and a later batch of the same producer was
    // taken ("implicitly acked"). A new leader that does not know the
    // producer (a replica recreated by a reassignment) takes the later batch
    // without the first: the chaos soak lost records so. The mock answers the
    // first request with a timeout, appends nothing, and takes the later ones
    // as such a leader does: every record must still reach the target.
    void aBatchAcknowledgedOnlyByALaterOneIsCopiedAgain()
    {
        MockCluster src, dst(1, true);
        const QString topic = QStringLiteral("implicit");
        src.createTopic(topic, 1);
        dst.createTopic(topic, 1);
        QList<TestRecord> records;
        for (int i = 0; i < 300; ++i) {
            TestRecord r;
            r.partition = 0;
            r.key = QByteArray::number(i);
            r.value = QByteArray("implicit-") + QByteArray::number(i);
            records << r;
        }
        QString error;
        QVERIFY2(md::test::produce(src.bootstrap(), topic, records, &error), qPrintable(error));
        // One record a batch, answered late: several requests are in flight at
        // once (librdkafka's idempotent producer keeps at most five records of
        // a partition in flight, so larger batches go one at a time).
        QCOMPARE(rd_kafka_mock_broker_set_rtt(dst.get(), 1, 50), RD_KAFKA_RESP_ERR_NO_ERROR);
        rd_kafka_mock_push_request_errors(dst.get(), 0 /* Produce */, 1, RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT);
        MirrorJobSpec spec = mockSpec(src, dst, topic);
        spec.target.producerProperties.insert(QStringLiteral("batch.num.messages"), QStringLiteral("1"));
        spec.target.producerProperties.insert(QStringLiteral("linger.ms"), QStringLiteral("0"));
        MirrorJob job(spec);
        QStringList events;
        connect(&job, &MirrorJob::eventRaised, this, [&](const JobEvent &e) { events << e.text; });
        bool ok = false;
        QVERIFY2(runToEnd(job, 60000, &ok, &error), "job did not finish");
        QVERIFY2(ok, qPrintable(error));
        QCOMPARE(rd_kafka_mock_broker_set_rtt(dst.get(), 1, 0), RD_KAFKA_RESP_ERR_NO_ERROR);
        const auto copied = md::test::consumeAll(dst.bootstrap(), topic, &error);
        QVERIFY2(copied, qPrintable(error));
        QSet<QByteArray> seen;
        for (const TestRecord &r : *copied)
            seen.insert(r.value.value_or(QByteArray()));
        QStringList missing;
        for (const TestRecord &r : records)
            if (!seen.contains(r.value.value_or(QByteArray())))
                missing << QString::fromUtf8(r.key.value_or(QByteArray()));
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("%1 of %2 records never reached the target (keys %3); "
                                                              "events:\n%4")
                                                   .arg(missing.size())
                                                   .arg(records.size())
                                                   .arg(missing.mid(0, 5).join(u' '), events.join(u'\n'))));
        // The inference was seen, and said.
        QVERIFY2(events.filter(QStringLiteral("acknowledged without an offset")).size() > 0,
                 qPrintable(events.join(u'\n')));
    }

    // Records in flight pin their consumed messages: a slow target must not
    // let them grow past the engine's window (CopyBounds.h), and nothing
    // waiting in line for room may be lost or reordered.
    void inFlightStaysWithinItsWindow()
    {
        MockCluster src, dst(1, true);
        const QString topic = QStringLiteral("window");
        src.createTopic(topic, 2);
        dst.createTopic(topic, 2);
        QList<TestRecord> records;
        const int count = int(InFlightWindow::kMinRecords * 5 / 2);
        for (int i = 0; i < count; ++i) {
            TestRecord r;
            r.partition = i % 2;
            r.key = QByteArray::number(i);
            r.value = QByteArray(16, char('a' + i % 26)); // the mock keeps 5 MB a partition
            records << r;
        }
        QString error;
        QVERIFY2(md::test::produce(src.bootstrap(), topic, records, &error), qPrintable(error));
        // Every acknowledgement late: the consumer fills the window at once.
        QCOMPARE(rd_kafka_mock_broker_set_rtt(dst.get(), 1, 100), RD_KAFKA_RESP_ERR_NO_ERROR);

        MirrorJobSpec spec = mockSpec(src, dst, topic);
        spec.samplingIntervalMs = 20;
        MirrorJob job(spec);
        qint64 mostInFlight = 0;
        connect(&job, &MirrorJob::metricsSampled, this,
                [&](const MetricsSnapshot &s) { mostInFlight = std::max<qint64>(mostInFlight, s.inFlight); });
        bool ok = false;
        QVERIFY2(runToEnd(job, 120000, &ok, &error), "job did not finish");
        QVERIFY2(ok, qPrintable(error));
        QVERIFY2(mostInFlight <= InFlightWindow::kMinRecords, qPrintable(QString::number(mostInFlight)));
        // The window, not something else, held them back.
        QVERIFY2(mostInFlight >= InFlightWindow::kMinRecords / 2, qPrintable(QString::number(mostInFlight)));

        const auto copied = md::test::consumeAll(dst.bootstrap(), topic, &error);
        QVERIFY2(copied, qPrintable(error));
        QVERIFY2(md::test::sameRecords(byPartition(records), *copied, &error), qPrintable(error));
    }

    // The consumer's prefetch grows, and its fetch per partition shrinks, with
    // the partitions a job selects: it is made again, before it first
    // subscribes, and that loses nothing.
    void prefetchGrowsWithTheSelectedPartitions()
    {
        const int partitions = 600;
        const qint64 wanted = ConsumerPrefetch::forPartitions(partitions);
        QVERIFY(wanted > ConsumerPrefetch::kMinRecords);
        QCOMPARE(FetchBytes::partitionFor(partitions), 256 * 1024);
        QCOMPARE(FetchBytes::fetchFor(partitions), 16 * 1024 * 1024);
        QCOMPARE(FetchBytes::partitionFor(12), 1024 * 1024); // a few partitions: librdkafka's sizes
        QCOMPARE(FetchBytes::fetchFor(12), 50 * 1024 * 1024);
        const QString prefetchEvent = QStringLiteral("prefetching up to %1 records, fetching up to 256 KiB a partition "
                                                     "and 16384 KiB an answer, for %2 partitions");
        auto prefetchEvents = [](const QSignalSpy &events) {
            QStringList out;
            for (const auto &args : events)
                if (const auto e = args.first().value<JobEvent>(); e.text.startsWith(QLatin1String("prefetching")))
                    out << e.text;
            return out;
        };
        auto eventIndex = [](const QSignalSpy &events, const QString &prefix) {
            for (qsizetype i = 0; i < events.size(); ++i)
                if (events.at(i).first().value<JobEvent>().text.startsWith(prefix))
                    return i;
            return qsizetype(-1);
        };

        MockCluster src, dst(1, true);
        const QString wide = QStringLiteral("wide"), narrow = QStringLiteral("narrow");
        src.createTopic(wide, partitions);
        dst.createTopic(wide, partitions);
        src.createTopic(narrow, 2);
        dst.createTopic(narrow, 2);
        const QList<TestRecord> records = sampleRecords(2 * partitions, partitions);
        QString error;
        QVERIFY2(md::test::produce(src.bootstrap(), wide, records, &error), qPrintable(error));
        QVERIFY2(md::test::produce(src.bootstrap(), narrow, sampleRecords(20, 2), &error), qPrintable(error));

        {
            MirrorJob job(mockSpec(src, dst, wide));
            QSignalSpy events(&job, &MirrorJob::eventRaised);
            bool ok = false;
            QVERIFY2(runToEnd(job, 120000, &ok, &error), "job did not finish");
            QVERIFY2(ok, qPrintable(error));
            // The text reads the value back from the consumer librdkafka was given.
            QCOMPARE(prefetchEvents(events), QStringList{prefetchEvent.arg(wanted).arg(partitions)});
            // Made again before it subscribed to anything.
            const qsizetype subscribed = eventIndex(events, QStringLiteral("mirroring wide"));
            QVERIFY(subscribed >= 0);
            QVERIFY(eventIndex(events, QStringLiteral("prefetching")) < subscribed);
            const auto copied = md::test::consumeAll(dst.bootstrap(), wide, &error);
            QVERIFY2(copied, qPrintable(error));
            QVERIFY2(md::test::sameRecords(byPartition(records), *copied, &error), qPrintable(error));
        }
        {
            // A few partitions keep the smallest prefetch and the largest fetch
            // the consumer was made with.
            MirrorJob job(mockSpec(src, dst, narrow));
            QSignalSpy events(&job, &MirrorJob::eventRaised);
            bool ok = false;
            QVERIFY2(runToEnd(job, 60000, &ok, &error), "job did not finish");
            QVERIFY2(ok, qPrintable(error));
            QCOMPARE(prefetchEvents(events), QStringList());
        }
        {
            // The operator's own prefetch stays; the fetch is still sized.
            MirrorJobSpec spec = mockSpec(src, dst, wide);
            spec.groupId += QStringLiteral("-own");
            dst.createTopic(offsetMapTopicOf(spec), 1);
            spec.source.consumerProperties.insert(QStringLiteral("queued.min.messages"), QStringLiteral("7000"));
            MirrorJob job(spec);
            QSignalSpy events(&job, &MirrorJob::eventRaised);
            bool ok = false;
            QVERIFY2(runToEnd(job, 120000, &ok, &error), "job did not finish");
            QVERIFY2(ok, qPrintable(error));
            QCOMPARE(prefetchEvents(events), QStringList{prefetchEvent.arg(7000).arg(partitions)});
        }
        {
            // All three set by the operator: the consumer stays as it was made.
            MirrorJobSpec spec = mockSpec(src, dst, wide);
            spec.groupId += QStringLiteral("-both");
            dst.createTopic(offsetMapTopicOf(spec), 1);
            spec.source.consumerProperties.insert(QStringLiteral("queued.min.messages"), QStringLiteral("7000"));
            spec.source.consumerProperties.insert(QStringLiteral("max.partition.fetch.bytes"),
                                                  QStringLiteral("524288"));
            spec.source.consumerProperties.insert(QStringLiteral("fetch.max.bytes"), QStringLiteral("33554432"));
            MirrorJob job(spec);
            QSignalSpy events(&job, &MirrorJob::eventRaised);
            bool ok = false;
            QVERIFY2(runToEnd(job, 120000, &ok, &error), "job did not finish");
            QVERIFY2(ok, qPrintable(error));
            QCOMPARE(prefetchEvents(events), QStringList());
        }
    }

    void targetWithFewerPartitions()
    {
        MockCluster src, dst(1, true);
        const QString topic = QStringLiteral("narrow");
        src.createTopic(topic, 4);
        dst.createTopic(topic, 2);
        QString error;
        QVERIFY2(md::test::produce(src.bootstrap(), topic, sampleRecords(40, 4), &error), qPrintable(error));
        MirrorJobSpec spec = mockSpec(src, dst, topic);
        spec.stop = StopCondition::RunForever;
        MirrorJob job(spec);
        QSignalSpy events(&job, &MirrorJob::eventRaised);
        job.start();
        auto partitionError = [&] {
            for (const auto &args : events) {
                const auto e = args.first().value<JobEvent>();
                if (e.severity == JobEvent::Severity::Error && e.text.contains(QLatin1String("2 partitions")) &&
                    e.text.contains(QLatin1String("has 4")))
                    return true;
            }
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(partitionError(), 40000);
        // Partitions 0 and 1 are mirrored; 2 and 3 never land in a wrong partition.
        QTRY_VERIFY_WITH_TIMEOUT(
            md::test::consumeAll(dst.bootstrap(), topic).value_or(QList<TestRecord>()).size() == 20, 30000);
        job.stop();
        QVERIFY(job.waitForFinished(60000));
        const auto copied = md::test::consumeAll(dst.bootstrap(), topic, &error);
        QVERIFY2(copied, qPrintable(error));
        QCOMPARE(copied->size(), 20);
        for (const TestRecord &r : *copied)
            QVERIFY(r.partition < 2);
    }

    // An exactly-once job reads its progress on the target when partitions are
    // assigned, and while the target group's coordinator moves it asks again
    // for up to two minutes (a kill -9 of that broker takes tens of seconds).
    // A Stop given meanwhile ends the wait: the job stops within seconds,
    // copies nothing of those partitions and fails nothing.
    void aStopEndsTheWaitForExactlyOnceProgress()
    {
        MockCluster src, dst(1, true);
        const QString topic = QStringLiteral("eos-wait");
        src.createTopic(topic, 2);
        dst.createTopic(topic, 2);
        QString error;
        QVERIFY2(md::test::produce(src.bootstrap(), topic, sampleRecords(20, 2), &error), qPrintable(error));
        MirrorJobSpec spec = mockSpec(src, dst, topic);
        spec.delivery = DeliveryGuarantee::ExactlyOnce;
        spec.stop = StopCondition::RunForever;
        // Every progress read on the target fails, as while a coordinator loads the group.
        std::vector<rd_kafka_resp_err_t> loading(5000, RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS);
        rd_kafka_mock_push_request_errors_array(dst.get(), 9 /* OffsetFetch */, loading.size(), loading.data());

        MirrorJob job(spec);
        QStringList events;
        connect(&job, &MirrorJob::eventRaised, this, [&](const JobEvent &e) { events << e.text; });
        QSignalSpy finished(&job, &MirrorJob::finished);
        job.start();
        const auto waiting = [&] {
            return std::any_of(events.cbegin(), events.cend(),
                               [](const QString &e) { return e.contains(QLatin1String("cannot be read yet")); });
        };
        QTRY_VERIFY2_WITH_TIMEOUT(waiting(), qPrintable(events.join(QLatin1Char('\n'))), 90000);
        QVERIFY(finished.isEmpty());
        QElapsedTimer stopping;
        stopping.start();
        job.stop();
        // The read left asks for up to two minutes more: a stop that waited for it fails here.
        QVERIFY2(finished.wait(20000), qPrintable(events.join(QLatin1Char('\n'))));
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
        qInfo("stopped %lld ms after the stop while the progress read waited", stopping.elapsed());
        const auto copied = md::test::consumeAll(dst.bootstrap(), topic, &error);
        QVERIFY2(copied, qPrintable(error));
        QCOMPARE(copied->size(), 0);
    }

    void badConfigurationFails()
    {
        MirrorJobSpec spec;
        spec.name = QStringLiteral("bad");
        spec.source.bootstrap = QStringLiteral("127.0.0.1:1");
        spec.target.bootstrap = QStringLiteral("127.0.0.1:1");
        spec.source.properties.insert(QStringLiteral("no.such.property"), QStringLiteral("1"));
        spec.include = {QStringLiteral(".*")};
        MirrorJob job(spec);
        bool ok = true;
        QString error;
        QVERIFY(runToEnd(job, 20000, &ok, &error));
        QVERIFY(!ok);
        QVERIFY2(error.contains(QLatin1String("no.such.property")), qPrintable(error));
        QCOMPARE(job.state(), JobState::Failed);
    }

    // Destroying a running job returns at once (a window that closes must not
    // wait on Kafka) and loses nothing: the job's thread stops gracefully and
    // leaves its group afterwards, and its progress holds. The source answers
    // slowly while the job goes, so a destructor that waited would take seconds.
    void destroyWhileRunningReturnsAtOnceAndStillStopsGracefully()
    {
        MockCluster src, dst(1, true);
        const QString topic = QStringLiteral("dtor");
        src.createTopic(topic, 1);
        dst.createTopic(topic, 1);
        QString error;
        QVERIFY2(md::test::produce(src.bootstrap(), topic, sampleRecords(100, 1), &error), qPrintable(error));
        MirrorJobSpec spec = mockSpec(src, dst, topic);
        spec.stop = StopCondition::RunForever;
        auto job = std::make_unique<MirrorJob>(spec);
        qint64 committed = -1;
        connect(job.get(), &MirrorJob::metricsSampled, this, [&](const MetricsSnapshot &m) {
            if (!m.partitions.isEmpty())
                committed = m.partitions.first().committedOffset;
        });
        job->start();
        // Copied and committed (commits wait a few seconds for the offset map's
        // topic, which the mock never creates).
        QTRY_COMPARE_WITH_TIMEOUT(committed, 100, 30000);

        QCOMPARE(rd_kafka_mock_broker_set_rtt(src.get(), 1, 2000), RD_KAFKA_RESP_ERR_NO_ERROR);
        QElapsedTimer t;
        t.start();
        job.reset();
        const qint64 destroyMs = t.elapsed();
        QVERIFY2(destroyMs < 1000, qPrintable(QString::number(destroyMs)));
        QCOMPARE(rd_kafka_mock_broker_set_rtt(src.get(), 1, 0), RD_KAFKA_RESP_ERR_NO_ERROR);

        // Its progress holds: a job from "committed" copies nothing again (it
        // joins the group once the first has left it).
        MirrorJobSpec again = mockSpec(src, dst, topic);
        again.start = StartPosition::Committed;
        MirrorJob second(again);
        bool ok = false;
        QVERIFY2(runToEnd(second, 60000, &ok, &error), "second job did not finish");
        QVERIFY2(ok, qPrintable(error));
        const auto copied = md::test::consumeAll(dst.bootstrap(), topic, &error);
        QVERIFY2(copied, qPrintable(error));
        QCOMPARE(copied->size(), 100);
    }
};

QTEST_GUILESS_MAIN(TstMirrorJobMock)
#include "tst_mirrorjob_mock.moc"
