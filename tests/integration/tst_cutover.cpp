// `mirrordesk cutover` on real three-node clusters (CTest fixture `kafka3`),
// judged by Kafka's own clients: VerifiableProducer writes the source as an
// application's user ("alice") while the cutover runs, ConsoleConsumer reads
// as the applications' consumer group before (on the source) and after (on
// the target) the switch. After the cutover:
//  - every record the producer was told was written is on the target;
//  - the fence stopped the producer (its sends fail with an authorization
//    error), and --rollback lets it write again;
//  - the group's first record on the target, in every partition, is the one
//    it would have read next on the source;
//  - the report says what moved and that nothing was left behind.
// A cutover interrupted at each step (SIGINT, or killed -9) and run again
// goes on from where it was and ends the same way. Nothing is retried: each
// run either does what it should or the test fails.

#include "RowWatchdog.h"
#include "acl_support.h"
#include "background_producer.h"
#include "failover_support.h"

#include <QJsonArray>
#include <QTemporaryDir>

#include <csignal>

using namespace md;
using namespace md::test;

namespace {

constexpr int kPartitions = 3;
const char kAdminPasswordEnv[] = "MD_CUTOVER_TEST_ADMIN_PASSWORD";

QString diag(const ExeResult &r)
{
    return QStringLiteral("exit %1\n--- stdout:\n%2\n--- stderr:\n%3")
        .arg(r.exitCode)
        .arg(r.out.right(6000), r.err.right(4000));
}

QProcessEnvironment cutoverEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QString::fromLatin1(kAdminPasswordEnv), cluster3Password(QString::fromLatin1(kCluster3Admin)));
    return env;
}

// The job: source3 as the (super) user "admin" on SASL, target3 as it is; the
// topic under its own name on the target (applications switch without renaming).
QString writeCutoverProfile(const QString &dir, const QString &base, const QString &topic, const QString &group,
                            qint64 throttle = 0)
{
    QString json =
        QStringLiteral(
            "{\n \"mirrordesk\": 1,\n \"name\": \"%1\",\n"
            " \"source\": {\"alias\": \"src\", \"bootstrap\": \"%2\", \"security\": \"sasl_plaintext\",\n"
            "   \"sasl\": {\"mechanism\": \"SCRAM-SHA-512\", \"username\": \"%3\", \"password\": \"${env:%4}\"}},\n"
            " \"target\": {\"alias\": \"dst\", \"bootstrap\": \"%5\"},\n"
            " \"topics\": {\"include\": [\"%6\"]},\n"
            " \"naming\": {\"policy\": \"identity\"},\n"
            " \"groups\": {\"include\": [\"%7\"]},\n"
            " \"start\": \"earliest\"")
            .arg(jsonEscaped(base), cluster3SaslBootstrap(QString::fromLatin1(kSource3)),
                 QString::fromLatin1(kCluster3Admin), QString::fromLatin1(kAdminPasswordEnv),
                 bootstrap(QString::fromLatin1(kTarget3)), jsonEscaped(QRegularExpression::escape(topic)),
                 jsonEscaped(QRegularExpression::escape(group)));
    if (throttle > 0)
        json += QStringLiteral(",\n \"throttleBytesPerSecond\": %1").arg(throttle);
    json += QStringLiteral("\n}\n");
    const QString path = QDir(dir).filePath(base + QStringLiteral(".mirrorjob"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    f.write(json.toUtf8());
    return path;
}

ExeResult cutover(const QStringList &args, int timeoutMs = 300000)
{
    QProcess p;
    p.setProcessEnvironment(cutoverEnvironment());
    p.start(mirrordeskExe(), QStringList{QStringLiteral("cutover")} + args);
    return finishProcess(p, timeoutMs);
}

// Starts a cutover and signals it once its output shows `marker` (a step's start).
ExeResult interruptedCutover(const QStringList &args, const QString &marker, int signal)
{
    QProcess p;
    p.setProcessEnvironment(cutoverEnvironment());
    p.start(mirrordeskExe(), QStringList{QStringLiteral("cutover")} + args);
    QString seen;
    QDeadlineTimer deadline(240000);
    bool signalled = false;
    while (p.state() != QProcess::NotRunning && !deadline.hasExpired()) {
        p.waitForReadyRead(100);
        seen += QString::fromUtf8(p.readAllStandardOutput());
        if (seen.contains(marker)) {
            ::kill(pid_t(p.processId()), signal);
            signalled = true;
            break;
        }
    }
    ExeResult r = finishProcess(p, 240000);
    r.out.prepend(seen);
    if (!signalled)
        r.err.prepend(QStringLiteral("[test] never saw \"%1\"\n").arg(marker));
    return r;
}

// Grants on source3 (through its PLAINTEXT listener, a super user): alice
// writes the test's topics. (The test's consumers read as a super user.)
bool grantApplications(const QString &base, QString *error)
{
    const auto topic = [&](const char *user, rd_kafka_AclOperation_t op) {
        return Acl{RD_KAFKA_RESOURCE_TOPIC,
                   base,
                   RD_KAFKA_RESOURCE_PATTERN_PREFIXED,
                   QStringLiteral("User:") + QString::fromLatin1(user),
                   op,
                   RD_KAFKA_ACL_PERMISSION_TYPE_ALLOW};
    };
    return createAcls(
        bootstrap(QString::fromLatin1(kSource3)),
        {topic("alice", RD_KAFKA_ACL_OPERATION_WRITE),
         topic("alice", RD_KAFKA_ACL_OPERATION_DESCRIBE),
         {RD_KAFKA_RESOURCE_BROKER, QStringLiteral("kafka-cluster"), RD_KAFKA_RESOURCE_PATTERN_LITERAL,
          QStringLiteral("User:alice"), RD_KAFKA_ACL_OPERATION_IDEMPOTENT_WRITE, RD_KAFKA_ACL_PERMISSION_TYPE_ALLOW}},
        error);
}

// Java client settings (Kafka's tools) for `user` on source3's SASL listener.
QMap<QString, QString> userProperties(const QString &user)
{
    return {{QStringLiteral("security.protocol"), QStringLiteral("SASL_PLAINTEXT")},
            {QStringLiteral("sasl.mechanism"), QStringLiteral("SCRAM-SHA-512")},
            {QStringLiteral("sasl.jaas.config"),
             QStringLiteral("org.apache.kafka.common.security.scram.ScramLoginModule required username=\"%1\" "
                            "password=\"%2\";")
                 .arg(user, cluster3Password(user))}};
}

} // namespace

class TstCutover final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    RowWatchdog m_watchdog; // each row's limit (env MIRRORDESK_TEST_ROW_TIMEOUT)

    // A topic of three partitions (replication 3) with `records` records and
    // the application group having read `read` of them on the source.
    void prepare(const QString &base, int records, int read, QString *topic, QString *group)
    {
        *topic = base + QStringLiteral("-orders");
        *group = base + QStringLiteral("-app");
        QString error;
        QVERIFY2(grantApplications(base, &error), qPrintable(error));
        QVERIFY2(createTopic(bootstrap(QString::fromLatin1(kSource3)), *topic, kPartitions,
                             {{QStringLiteral("min.insync.replicas"), QStringLiteral("2")}}, &error),
                 qPrintable(error));
        if (records > 0) {
            BackgroundProducer producer;
            QVERIFY2(producer.start(cluster3SaslBootstrap(QString::fromLatin1(kSource3)), *topic, records, 5000, &error,
                                    userProperties(QStringLiteral("alice")), 7),
                     qPrintable(error));
            QVERIFY2(producer.waitForExit(120000), "VerifiableProducer did not finish in 120 s");
            QVERIFY2(producer.ackedCount() == records, qPrintable(producer.errorLines() + producer.errorOutput()));
        }
        if (read > 0)
            readOnSource(*topic, *group, read);
    }

    // The application group reads `count` records on the source as bob (Kafka's ConsoleConsumer).
    void readOnSource(const QString &topic, const QString &group, int count)
    {
        QString error;
        const auto read = consumeAsGroup(bootstrap(QString::fromLatin1(kSource3)), topic, group, count, &error, true);
        QVERIFY2(read, qPrintable(error));
        QCOMPARE(read->size(), count);
    }

    // After a cutover: every source record is on the target, and the group
    // reads first on the target what it would have read next on the source.
    // `exact`: the job never crashed, so the target holds each record once and
    // the group reads exactly the source's remaining records; after a kill -9
    // (at-least-once) records may be there twice, and the group reads on the
    // target to its end.
    void judge(const QString &topic, const QString &group, bool exact, const QSet<QString> &acknowledged = {})
    {
        QString error;
        const QString source = bootstrap(QString::fromLatin1(kSource3));
        const QString target = bootstrap(QString::fromLatin1(kTarget3));
        const auto sourceRecords = consumeAll(source, topic, &error);
        QVERIFY2(sourceRecords, qPrintable(error));
        const auto targetRecords = consumeAll(target, topic, &error);
        QVERIFY2(targetRecords, qPrintable(error));
        QSet<QString> onTarget, onSource;
        for (const TestRecord &r : *targetRecords)
            onTarget.insert(QString::fromUtf8(r.value.value_or(QByteArray())));
        for (const TestRecord &r : *sourceRecords)
            onSource.insert(QString::fromUtf8(r.value.value_or(QByteArray())));
        for (const QString &v : acknowledged)
            QVERIFY2(onTarget.contains(v), qPrintable(QStringLiteral("acknowledged %1 is not on the target").arg(v)));
        for (const QString &v : std::as_const(onSource))
            QVERIFY2(onTarget.contains(v), qPrintable(QStringLiteral("source record %1 is not on the target").arg(v)));
        QVERIFY2(onTarget.size() == onSource.size(), "the target holds records the source does not");
        if (targetRecords->size() != sourceRecords->size())
            qInfo("%lld records on the target for %lld on the source", qint64(targetRecords->size()),
                  qint64(sourceRecords->size()));
        if (exact)
            QCOMPARE(targetRecords->size(), sourceRecords->size());

        const auto committed = committedOffsets(source, group, topic, kPartitions, &error);
        QVERIFY2(committed, qPrintable(error));
        const auto ends = watermarks(source, topic, &error);
        QVERIFY2(ends, qPrintable(error));
        // A partition the group never committed (the consumer on the source happened
        // to read only others) has no position to move: on both clusters the
        // consumer's auto.offset.reset decides, so the target must hold none for it.
        const auto targetCommitted = committedOffsets(target, group, topic, kPartitions, &error);
        QVERIFY2(targetCommitted, qPrintable(error));
        qint64 remaining = 0;
        QMap<int, qint64> readable;
        QSet<QString> unread; // on the source, at or after the group's position
        for (auto it = committed->cbegin(); it != committed->cend(); ++it) {
            if (it.value() < 0) {
                QVERIFY2(
                    targetCommitted->value(it.key()) < 0,
                    qPrintable(
                        QStringLiteral("partition %1: a position on the target the source never had").arg(it.key())));
                continue;
            }
            const qint64 high = ends->value(it.key()).second;
            remaining += high - it.value();
            if (it.value() < high)
                readable.insert(it.key(), it.value());
        }
        for (const TestRecord &r : *sourceRecords)
            if (committed->value(r.partition) >= 0 && r.offset >= committed->value(r.partition))
                unread.insert(QString::fromUtf8(r.value.value_or(QByteArray())));
        if (!exact) {
            // To the target's end from where the group stands there.
            const auto targetEnds = watermarks(target, topic, &error);
            QVERIFY2(targetEnds, qPrintable(error));
            remaining = 0;
            for (auto it = targetCommitted->cbegin(); it != targetCommitted->cend(); ++it)
                if (it.value() >= 0)
                    remaining += targetEnds->value(it.key()).second - it.value();
        }
        const auto expected = nextOnSource(topic, readable, &error, source);
        QVERIFY2(expected, qPrintable(error));
        const auto read = consumeAsGroup(target, topic, group, remaining, &error);
        QVERIFY2(read, qPrintable(error));
        const QMap<int, QStringList> byPartition = valuesByPartition(*read);
        QStringList counts; // for the failure message: what the group read where
        for (auto it = committed->cbegin(); it != committed->cend(); ++it)
            counts << QStringLiteral("p%1: source committed %2 end %3, read %4")
                          .arg(it.key())
                          .arg(it.value())
                          .arg(ends->value(it.key()).second)
                          .arg(byPartition.value(it.key()).size());
        for (auto it = expected->cbegin(); it != expected->cend(); ++it) {
            QVERIFY2(!byPartition.value(it.key()).isEmpty(),
                     qPrintable(QStringLiteral("the group read nothing in partition %1 on the target (%2; target %3 "
                                               "records, source %4)")
                                    .arg(it.key())
                                    .arg(counts.join(QStringLiteral("; ")))
                                    .arg(targetRecords->size())
                                    .arg(sourceRecords->size())));
            QCOMPARE(byPartition.value(it.key()).first(), it.value());
        }
        QCOMPARE(qint64(read->size()), remaining);
        QSet<QString> seen;
        for (const ReadRecord &r : *read)
            seen.insert(r.value);
        QVERIFY2(seen == unread, "the group on the target skips records it had not read on the source, or reads "
                                 "records it had");
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_CLUSTERS3();
        MD_REQUIRE_KAFKA_TOOLS();
        QVERIFY2(QFile::exists(mirrordeskExe()), qPrintable(mirrordeskExe() + QStringLiteral(" was not built")));
        QVERIFY(m_dir.isValid());
    }

    void init() { m_watchdog.begin(); }
    void cleanup() { m_watchdog.end(); }

    void cutoverWhileTheApplicationWrites()
    {
        const QString base = uniqueName(QStringLiteral("cutlive"));
        QString topic, group, error;
        prepare(base, 0, 0, &topic, &group);
        // alice writes all along: 200 records a second, far more than the test lasts.
        BackgroundProducer producer;
        QVERIFY2(producer.start(cluster3SaslBootstrap(QString::fromLatin1(kSource3)), topic, 1000000, 200, &error,
                                userProperties(QStringLiteral("alice"))),
                 qPrintable(error));
        QTRY_VERIFY2_WITH_TIMEOUT(producer.ackedCount() >= 1000, qPrintable(producer.errorOutput()), 60000);
        readOnSource(topic, group, 700);
        if (QTest::currentTestFailed())
            return;

        const QString profile = writeCutoverProfile(m_dir.path(), base, topic, group);
        const QString reportPath = m_dir.filePath(base + QStringLiteral("-report.json"));
        const ExeResult dry = cutover(
            {profile, QStringLiteral("--dry-run"), QStringLiteral("--fence-principals"), QStringLiteral("alice")});
        QVERIFY2(dry.exitCode == 0, qPrintable(diag(dry)));
        QVERIFY2(dry.out.contains(QLatin1String("never fenced")), qPrintable(diag(dry)));

        const ExeResult r =
            cutover({profile, QStringLiteral("--fence-principals"), QStringLiteral("alice"), QStringLiteral("--settle"),
                     QStringLiteral("3"), QStringLiteral("--report"), reportPath});
        QVERIFY2(r.exitCode == 0, qPrintable(diag(r)));
        qInfo("%s", qPrintable(r.out.right(1500)));

        // The fence: alice's sends fail with an authorization error from then on.
        QTRY_VERIFY2_WITH_TIMEOUT(
            producer.sendErrors() > 0,
            qPrintable(QStringLiteral("the producer was never refused; it said:\n%1").arg(producer.errorOutput())),
            30000);
        QVERIFY2(producer.errorLines().contains(QLatin1String("Authorization"), Qt::CaseInsensitive),
                 qPrintable(producer.errorLines()));
        const qint64 acked = producer.ackedCount();
        QTest::qWait(2000);
        QCOMPARE(producer.ackedCount(), acked); // nothing gets through any more
        QSet<QString> acknowledged;
        for (const BackgroundProducer::Acked &a : producer.acked())
            acknowledged.insert(a.value);
        qInfo("alice: %lld records acknowledged before the fence, %d refused after", acked, producer.sendErrors());
        judge(topic, group, true, acknowledged);
        if (QTest::currentTestFailed())
            return;

        QFile reportFile(reportPath);
        QVERIFY(reportFile.open(QIODevice::ReadOnly));
        const QJsonObject report = QJsonDocument::fromJson(reportFile.readAll()).object();
        QCOMPARE(report.value(QLatin1String("exitCode")).toInt(-1), 0);
        QCOMPARE(report.value(QLatin1String("notCopied")).toInt(-1), 0);
        const QJsonArray groups = report.value(QLatin1String("groups")).toArray();
        QCOMPARE(groups.size(), 1);
        QCOMPARE(groups.first().toObject().value(QLatin1String("group")).toString(), group);
        const QJsonArray fence = report.value(QLatin1String("fence")).toArray();
        QCOMPARE(fence.size(), 1);
        QVERIFY2(fence.first().toString().contains(QLatin1String("DENY User:alice WRITE")),
                 qPrintable(fence.first().toString()));
        QCOMPARE(
            report.value(QLatin1String("switchTo")).toObject().value(QLatin1String("bootstrap.servers")).toString(),
            bootstrap(QString::fromLatin1(kTarget3)));

        // Run again: it says it is done, and changes nothing.
        const ExeResult again = cutover({profile});
        QVERIFY2(again.exitCode == 0 && again.out.contains(QLatin1String("was done before")), qPrintable(diag(again)));

        // Rolled back, alice writes again.
        const ExeResult back = cutover({profile, QStringLiteral("--rollback"), QStringLiteral("--no-restart")});
        QVERIFY2(back.exitCode == 0, qPrintable(diag(back)));
        BackgroundProducer after;
        QVERIFY2(after.start(cluster3SaslBootstrap(QString::fromLatin1(kSource3)), topic, 100, 1000, &error,
                             userProperties(QStringLiteral("alice")), 2),
                 qPrintable(error));
        QVERIFY2(after.waitForExit(120000), "VerifiableProducer did not finish in 120 s");
        QVERIFY2(after.ackedCount() == 100 && after.sendErrors() == 0,
                 qPrintable(after.errorLines() + after.errorOutput()));
        const ExeResult gone = cutover({profile, QStringLiteral("--rollback"), QStringLiteral("--no-restart")});
        QVERIFY2(gone.exitCode == 1 && gone.err.contains(QLatin1String("no cutover is recorded")),
                 qPrintable(diag(gone)));
    }

    void interruptedCutoverResumes_data()
    {
        QTest::addColumn<QString>("step");
        QTest::addColumn<int>("signal");
        QTest::addColumn<QString>("recorded"); // the step the first run must say it stopped at; empty: any
        QTest::newRow("SIGINT in the fence's quiet wait")
            << QStringLiteral("fence") << int(SIGINT) << QStringLiteral("fence");
        QTest::newRow("SIGINT while draining") << QStringLiteral("drain") << int(SIGINT) << QStringLiteral("drain");
        QTest::newRow("killed -9 moving the groups") << QStringLiteral("groups") << int(SIGKILL) << QString();
        QTest::newRow("killed -9 stopping the job") << QStringLiteral("stop") << int(SIGKILL) << QString();
    }

    void interruptedCutoverResumes()
    {
        QFETCH(QString, step);
        QFETCH(int, signal);
        QFETCH(QString, recorded);
        const QString base = uniqueName(QStringLiteral("cutint"));
        QString topic, group;
        prepare(base, 3000, 1000, &topic, &group);
        if (QTest::currentTestFailed())
            return;
        // Throttled (about 12 s for the 3,000 records), so the drain is still running when signalled.
        const QString profile =
            writeCutoverProfile(m_dir.path(), base, topic, group, step == QLatin1String("drain") ? 8000 : 0);
        const QStringList args{profile, QStringLiteral("--fence-principals"), QStringLiteral("alice"),
                               QStringLiteral("--settle"),
                               step == QLatin1String("fence") ? QStringLiteral("30") : QStringLiteral("2")};
        const ExeResult first = interruptedCutover(args, QStringLiteral("[%1] ").arg(step), signal);
        if (signal == SIGINT) {
            QVERIFY2(first.exitCode == 1, qPrintable(diag(first)));
            QVERIFY2(first.err.contains(QStringLiteral("stopped at step \"%1\"").arg(recorded)),
                     qPrintable(diag(first)));
        } else {
            QVERIFY2(first.exitCode == -1, qPrintable(diag(first))); // killed
        }
        QStringList again = args;
        again[4] = QStringLiteral("2");
        const ExeResult second = cutover(again);
        QVERIFY2(second.exitCode == 0, qPrintable(diag(second)));
        QVERIFY2(second.out.contains(QLatin1String("resuming the cutover")), qPrintable(diag(second)));
        if (!recorded.isEmpty())
            QVERIFY2(second.out.contains(QStringLiteral("at step \"%1\"").arg(recorded)), qPrintable(diag(second)));
        judge(topic, group, signal == SIGINT);
        const ExeResult back = cutover({profile, QStringLiteral("--rollback"), QStringLiteral("--no-restart")});
        QVERIFY2(back.exitCode == 0, qPrintable(diag(back)));
    }
};

QTEST_GUILESS_MAIN(TstCutover)
#include "tst_cutover.moc"
