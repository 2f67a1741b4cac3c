// A partition the target refuses (issue #18): a source record larger than the
// target topic's max.message.bytes stops that partition only, with an error
// event naming the partition, the offset and the record; nothing is skipped,
// the other partitions go on, and it copies on by itself once the target topic
// takes the record. A job meant to end when caught up ends with an error that
// names the refused partition instead of waiting for ever. The job's target
// user losing WRITE on one topic mid-run (a broker of this test's own with
// StandardAuthorizer, harness.sh start NAME --acl) stops that topic with an
// event naming it and the permission; the other topic goes on, and it resumes
// by itself once the ACL is back, nothing lost.

#include "acl_support.h"
#include "broker_configs.h"
#include "failover_support.h"
#include "network_faults.h"

#include "tst_mirror_support.h"

#include "engine/mirror/TopicNaming.h"

#include <QScopeGuard>

using namespace md;
using namespace md::test;

namespace {

QList<TestRecord> partitionRecords(const QList<TestRecord> &all, int partition)
{
    QList<TestRecord> out;
    for (const TestRecord &r : all)
        if (r.partition == partition)
            out << r;
    std::sort(out.begin(), out.end(), [](const TestRecord &a, const TestRecord &b) { return a.offset < b.offset; });
    return out;
}

QList<QByteArray> values(const QList<TestRecord> &records)
{
    QList<QByteArray> out;
    for (const TestRecord &r : records)
        out << r.value.value_or(QByteArray());
    return out;
}

// The first event that contains `needle`, or nullptr.
const QString *firstEvent(const QStringList &events, const QString &needle)
{
    const auto it = std::find_if(events.begin(), events.end(), [&](const QString &e) { return e.contains(needle); });
    return it == events.end() ? nullptr : &*it;
}

TestRecord record(int partition, const QByteArray &value)
{
    TestRecord r;
    r.partition = partition;
    r.key = QByteArray("k");
    r.value = value;
    return r;
}

} // namespace

class TstPartitionErrors final : public QObject {
    Q_OBJECT

    // Source topic `big` (2 partitions; partition 0 has a 5,000-byte record
    // at offset 10 among small ones) and `small` (1 partition); the target's
    // copy of `big` exists already and takes at most 2,000 bytes per batch.
    bool prepare(const QString &base, QString *big, QString *small, QString *error)
    {
        *big = base + QStringLiteral("-big");
        *small = base + QStringLiteral("-small");
        QList<TestRecord> bigRecords, smallRecords;
        for (int i = 0; i < 21; ++i)
            bigRecords << record(0, i == 10 ? QByteArray(5000, 'B') : QByteArray("p0-") + QByteArray::number(i));
        for (int i = 0; i < 20; ++i) {
            bigRecords << record(1, QByteArray("p1-") + QByteArray::number(i));
            smallRecords << record(0, QByteArray("s-") + QByteArray::number(i));
        }
        return createTopic(sourceBootstrap(), *big, 2, {}, error) &&
               createTopic(sourceBootstrap(), *small, 1, {}, error) &&
               createTopic(targetBootstrap(), *big, 2, {{QStringLiteral("max.message.bytes"), QStringLiteral("2000")}},
                           error) &&
               produce(sourceBootstrap(), *big, bigRecords, error) &&
               produce(sourceBootstrap(), *small, smallRecords, error);
    }

    bool m_aclBroker = false;

    // The broker with StandardAuthorizer (harness.sh start acltarget --acl), once per run.
    bool startAclBroker(QString *error)
    {
        if (m_aclBroker)
            return true;
        runHarness({QStringLiteral("stop"), QStringLiteral("acltarget")}); // left by a killed run
        if (!runHarness({QStringLiteral("start"), QStringLiteral("acltarget"), QStringLiteral("--acl")}, error))
            return false;
        m_aclBroker = true;
        return true;
    }

    // A spec whose target is the ACL broker, as the SASL user the grants name.
    static MirrorJobSpec aclSpec(const QString &base, const QStringList &include)
    {
        MirrorJobSpec spec = harnessSpec(base, include);
        spec.target.alias = QStringLiteral("acltarget");
        spec.target.bootstrap = bootstrap(QStringLiteral("acltarget"));
        spec.target.security = SecurityProtocol::SaslPlaintext;
        spec.target.saslMechanism = QString::fromLatin1(kSaslMechanism);
        spec.target.saslUsername = saslUser();
        spec.target.saslPassword = saslPassword();
        return spec;
    }

private Q_SLOTS:
    void initTestCase() { MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target")); }

    void cleanupTestCase()
    {
        if (m_aclBroker)
            runHarness({QStringLiteral("stop"), QStringLiteral("acltarget")});
    }

    void lostWritePermissionStopsOnlyThatTopic()
    {
        QString error;
        QVERIFY2(startAclBroker(&error), qPrintable(error));
        const QString admin = directBootstrap(QStringLiteral("acltarget"));
        const QString base = uniqueName(QStringLiteral("acl"));
        const QString denied = base + QStringLiteral("-denied"), other = base + QStringLiteral("-other");
        const QString user = QStringLiteral("User:") + saslUser();
        // What a mirror job's target user needs: its topics and its offset map.
        QList<Acl> grants;
        for (const QString &prefix : {base, QStringLiteral("mirrordesk.")})
            grants << Acl{RD_KAFKA_RESOURCE_TOPIC,
                          prefix,
                          RD_KAFKA_RESOURCE_PATTERN_PREFIXED,
                          user,
                          RD_KAFKA_ACL_OPERATION_ALL,
                          RD_KAFKA_ACL_PERMISSION_TYPE_ALLOW};
        grants << Acl{RD_KAFKA_RESOURCE_BROKER,          QStringLiteral("kafka-cluster"),
                      RD_KAFKA_RESOURCE_PATTERN_LITERAL, user,
                      RD_KAFKA_ACL_OPERATION_DESCRIBE,   RD_KAFKA_ACL_PERMISSION_TYPE_ALLOW};
        grants << Acl{RD_KAFKA_RESOURCE_BROKER,
                      QStringLiteral("kafka-cluster"),
                      RD_KAFKA_RESOURCE_PATTERN_LITERAL,
                      user,
                      RD_KAFKA_ACL_OPERATION_IDEMPOTENT_WRITE,
                      RD_KAFKA_ACL_PERMISSION_TYPE_ALLOW};
        QVERIFY2(createAcls(admin, grants, &error), qPrintable(error));
        for (const QString &topic : {denied, other}) {
            QVERIFY2(createTopic(sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
            QVERIFY2(produce(sourceBootstrap(), topic, numbered(topic + QStringLiteral("-a"), 100, 2), &error),
                     qPrintable(error));
        }

        MirrorJobSpec spec = aclSpec(base, {QRegularExpression::escape(base) + QStringLiteral("-.*")});
        spec.stop = StopCondition::RunForever;
        MirrorJob job(spec);
        QStringList events;
        connect(&job, &MirrorJob::eventRaised, this, [&](const JobEvent &e) { events << e.text; });
        const auto dump = qScopeGuard([&] {
            if (QTest::currentTestFailed())
                qInfo("every event:\n  %s", qPrintable(joined(events)));
        });
        job.start();
        const auto count = [&](const QString &topic) {
            return consumeAll(admin, topic).value_or(QList<TestRecord>()).size();
        };
        QTRY_VERIFY2_WITH_TIMEOUT(count(denied) == 100 && count(other) == 100, qPrintable(joined(events)), 60000);

        // WRITE on one topic taken away (a DENY wins over the prefixed ALLOW).
        const Acl deny{RD_KAFKA_RESOURCE_TOPIC,           denied,
                       RD_KAFKA_RESOURCE_PATTERN_LITERAL, user,
                       RD_KAFKA_ACL_OPERATION_WRITE,      RD_KAFKA_ACL_PERMISSION_TYPE_DENY};
        QVERIFY2(createAcls(admin, {deny}, &error), qPrintable(error));
        QTest::qWait(1000);
        for (const QString &topic : {denied, other})
            QVERIFY2(produce(sourceBootstrap(), topic, numbered(topic + QStringLiteral("-b"), 100, 2), &error),
                     qPrintable(error));
        const auto has = [&](const QString &needle) { return firstEvent(events, needle) != nullptr; };
        QTRY_VERIFY2_WITH_TIMEOUT(has(QStringLiteral("stopped copying %1/").arg(denied)), qPrintable(joined(events)),
                                  90000);
        const QString event = *firstEvent(events, QStringLiteral("stopped copying %1/").arg(denied));
        qInfo("%s", qPrintable(event));
        QVERIFY2(event.contains(QLatin1String("authorization")) && event.contains(QLatin1String("WRITE")),
                 qPrintable(event));
        QTRY_VERIFY2_WITH_TIMEOUT(count(other) == 200, qPrintable(joined(events)), 30000); // the other goes on
        QCOMPARE(count(denied), 100);
        QVERIFY(job.isRunning());

        // WRITE back: it resumes by itself with everything.
        QVERIFY2(deleteAcl(admin, deny, &error), qPrintable(error));
        QTRY_VERIFY2_WITH_TIMEOUT(count(denied) >= 200, qPrintable(joined(events)), 90000);
        const auto source = consumeAll(sourceBootstrap(), denied, &error);
        QVERIFY2(source, qPrintable(error));
        const auto copied = consumeAll(admin, denied, &error);
        QVERIFY2(copied, qPrintable(error));
        QVERIFY(valueSet(*copied).contains(valueSet(*source)));
        qInfo("after WRITE came back: %lld records for %lld on the source", qint64(copied->size()),
              qint64(source->size()));
        QCOMPARE(copied->size(), source->size()); // refused records were never written: no duplicates
        job.stop();
        QVERIFY(job.waitForFinished(60000));
    }

    void anOffsetMapTheTargetRefusesStopsTheJob()
    {
        // The target user may write the job's topics but not create its offset map: a job that
        // keeps a map ("offsetMap": true, the default) must not copy on without it, silently
        // losing exact failover for everything it copies. It stops at once, naming the map,
        // the refusal and the way out, and marks nothing as done.
        QString error;
        QVERIFY2(startAclBroker(&error), qPrintable(error));
        const QString admin = directBootstrap(QStringLiteral("acltarget"));
        const QString base = uniqueName(QStringLiteral("nomap"));
        const QString topic = base + QStringLiteral("-t");
        const QString user = QStringLiteral("User:") + saslUser();
        const QList<Acl> grants{
            {RD_KAFKA_RESOURCE_TOPIC, base, RD_KAFKA_RESOURCE_PATTERN_PREFIXED, user, RD_KAFKA_ACL_OPERATION_ALL,
             RD_KAFKA_ACL_PERMISSION_TYPE_ALLOW},
            {RD_KAFKA_RESOURCE_BROKER, QStringLiteral("kafka-cluster"), RD_KAFKA_RESOURCE_PATTERN_LITERAL, user,
             RD_KAFKA_ACL_OPERATION_DESCRIBE, RD_KAFKA_ACL_PERMISSION_TYPE_ALLOW},
            {RD_KAFKA_RESOURCE_BROKER, QStringLiteral("kafka-cluster"), RD_KAFKA_RESOURCE_PATTERN_LITERAL, user,
             RD_KAFKA_ACL_OPERATION_IDEMPOTENT_WRITE, RD_KAFKA_ACL_PERMISSION_TYPE_ALLOW}};
        QVERIFY2(createAcls(admin, grants, &error), qPrintable(error));
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, numbered(topic, 100, 2), &error), qPrintable(error));

        MirrorJobSpec spec = aclSpec(base, {QRegularExpression::escape(topic)});
        spec.stop = StopCondition::RunForever;
        // Outside every grant of this broker (another test allows "mirrordesk." maps).
        spec.offsetMapTopic = QStringLiteral("refused.") + base + QStringLiteral(".offset-map");
        MirrorJob job(spec);
        QStringList events;
        connect(&job, &MirrorJob::eventRaised, this, [&](const JobEvent &e) { events << e.text; });
        QSignalSpy finished(&job, &MirrorJob::finished);
        job.start();
        QTRY_VERIFY2_WITH_TIMEOUT(!finished.isEmpty(), qPrintable(joined(events)), 60000);
        QCOMPARE(finished.first().at(0).toBool(), false);
        const QString why = finished.first().at(1).toString();
        qInfo("%s", qPrintable(why));
        QVERIFY2(why.contains(spec.offsetMapTopic) && why.contains(QLatin1String("authoriz"), Qt::CaseInsensitive) &&
                     why.contains(QLatin1String("\"offsetMap\": false")),
                 qPrintable(why));
        // Nothing counts as done without the map: the job's group holds no progress past the
        // log start (a commit of the start itself, 0, before the first copy says the same).
        const auto committed = committedOffsets(sourceBootstrap(), consumerGroupId(spec), topic, 2, &error);
        QVERIFY2(committed, qPrintable(error));
        for (const qint64 offset : *committed)
            QVERIFY2(offset <= 0, qPrintable(QStringLiteral("committed %1 without a map").arg(offset)));

        // A plain migration says so, and copies everything.
        spec.offsetMap = false;
        spec.stop = StopCondition::CaughtUp;
        MirrorJob plain(spec);
        QSignalSpy plainFinished(&plain, &MirrorJob::finished);
        plain.start();
        QTRY_VERIFY2_WITH_TIMEOUT(!plainFinished.isEmpty(), qPrintable(joined(events)), 120000);
        QVERIFY2(plainFinished.first().at(0).toBool(), qPrintable(plainFinished.first().at(1).toString()));
        const auto copied = consumeAll(admin, topic, &error);
        QVERIFY2(copied, qPrintable(error));
        QCOMPARE(copied->size(), 100);
    }

    void tooLargeRecordStopsOnlyItsPartition()
    {
        const QString base = uniqueName(QStringLiteral("refused"));
        QString big, small, error;
        QVERIFY2(prepare(base, &big, &small, &error), qPrintable(error));
        MirrorJobSpec spec = harnessSpec(base, {QRegularExpression::escape(base) + QStringLiteral("-.*")});
        spec.stop = StopCondition::RunForever;
        MirrorJob job(spec);
        QStringList events;
        connect(&job, &MirrorJob::eventRaised, this, [&](const JobEvent &e) { events << e.text; });
        job.start();
        const QString stopped = QStringLiteral("stopped copying %1/0").arg(big);
        const auto has = [&](const QString &needle) { return firstEvent(events, needle) != nullptr; };
        QTRY_VERIFY2_WITH_TIMEOUT(has(stopped), qPrintable(joined(events)), 90000);
        const QString event = *firstEvent(events, stopped);
        qInfo("%s", qPrintable(event));
        QVERIFY2(event.contains(QLatin1String("offset 10, has 5001 bytes")), qPrintable(event)); // the culprit
        QVERIFY2(event.contains(QLatin1String("too large")), qPrintable(event));

        // The other partitions go on.
        const auto source = consumeAll(sourceBootstrap(), big, &error);
        QVERIFY2(source, qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(consumeAll(targetBootstrap(), small).value_or(QList<TestRecord>()).size() == 20,
                                 30000);
        QTRY_VERIFY_WITH_TIMEOUT(
            partitionRecords(consumeAll(targetBootstrap(), big).value_or(QList<TestRecord>()), 1).size() == 20, 30000);
        // The refused one holds a prefix of its source partition, in order:
        // nothing after the big record was skipped to.
        const QList<QByteArray> want = values(partitionRecords(*source, 0));
        auto onTarget = consumeAll(targetBootstrap(), big, &error);
        QVERIFY2(onTarget, qPrintable(error));
        QList<QByteArray> got = values(partitionRecords(*onTarget, 0));
        QVERIFY2(got.size() <= 10 && got == want.mid(0, got.size()),
                 qPrintable(QStringLiteral("%1 records").arg(got.size())));
        QVERIFY(job.isRunning());

        // The operator raises the limit: it copies on by itself, exactly once.
        BrokerConfigs admin(targetBootstrap());
        QVERIFY2(admin.alterTopic(big, QStringLiteral("max.message.bytes"), QStringLiteral("1048588"), &error),
                 qPrintable(error));
        QTRY_VERIFY2_WITH_TIMEOUT(
            partitionRecords(consumeAll(targetBootstrap(), big).value_or(QList<TestRecord>()), 0).size() >= 21,
            qPrintable(joined(events)), 90000);
        QTRY_VERIFY2_WITH_TIMEOUT(has(QStringLiteral("takes %1/0 again").arg(big)), qPrintable(joined(events)), 10000);
        onTarget = consumeAll(targetBootstrap(), big, &error);
        QVERIFY2(onTarget, qPrintable(error));
        got = values(partitionRecords(*onTarget, 0));
        QCOMPARE(got, want);
        job.stop();
        QVERIFY(job.waitForFinished(60000));
    }

    void caughtUpJobEndsNamingTheRefusedPartition()
    {
        const QString base = uniqueName(QStringLiteral("refusedend"));
        QString big, small, error;
        QVERIFY2(prepare(base, &big, &small, &error), qPrintable(error));
        MirrorJobSpec spec = harnessSpec(base, {QRegularExpression::escape(base) + QStringLiteral("-.*")});
        MirrorJob job(spec);
        const JobOutcome out = runJob(job, 120000);
        QVERIFY2(out.finished, qPrintable(joined(out.events)));
        QVERIFY(!out.ok);
        qInfo("%s", qPrintable(out.error));
        QVERIFY2(
            out.error.contains(QStringLiteral("caught up except what the target refuses: %1/0 at offset").arg(big)),
            qPrintable(out.error));
        // Everything else was copied before it ended.
        QCOMPARE(consumeAll(targetBootstrap(), small).value_or(QList<TestRecord>()).size(), 20);
        QCOMPARE(partitionRecords(consumeAll(targetBootstrap(), big).value_or(QList<TestRecord>()), 1).size(), 20);
    }
};

QTEST_GUILESS_MAIN(TstPartitionErrors)
#include "tst_partition_errors.moc"
