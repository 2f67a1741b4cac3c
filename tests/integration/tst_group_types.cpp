// Kafka 4's groups as the cluster view lists them (AdminService::consumerGroups)
// on the harness's Kafka 4.1 broker: a KIP-848 consumer-protocol group (a
// librdkafka member with group.protocol=consumer) is typed "consumer", in a
// real state, with its members' assignments and its lag; a classic group
// beside it is "classic"; and a KIP-932 share group, joined by Kafka's own
// ConsoleShareConsumer, is listed as "share" (librdkafka 2.12.1 dropped it:
// installer/librdkafka-patches/0002) and described with its start offsets
// (0003). The harness formats its brokers with share.version=1.
#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "headless_support.h"
#include "metrics_scrape.h"
#include "tst_mirror_support.h"

#include "engine/admin/AdminService.h"

#include <QHostAddress>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

using namespace md;

namespace {

std::optional<ConsumerGroupInfo> listed(AdminService &admin, const QString &group, QString *error)
{
    const auto groups = admin.consumerGroups();
    if (!groups.ok()) {
        *error = groups.error;
        return std::nullopt;
    }
    for (const ConsumerGroupInfo &g : groups.value)
        if (g.groupId == group)
            return g;
    *error = QStringLiteral("group %1 is not listed").arg(group);
    return std::nullopt;
}

// `p0` records in partition 0, then `p1` in partition 1.
QList<test::TestRecord> records(const QString &topic, int p0, int p1)
{
    QList<test::TestRecord> out;
    for (int i = 0; i < p0 + p1; ++i) {
        test::TestRecord r;
        r.value = (topic + QLatin1Char('-') + QString::number(i)).toUtf8();
        r.partition = i < p0 ? 0 : 1;
        out.append(r);
    }
    return out;
}

// Kafka's ConsoleShareConsumer joins `group` (which starts at the partitions'
// ends: share.auto.offset.reset=latest) and reads one record of each of the
// two partitions written once it is a member, so each share partition's state
// is written with a start offset; left running. *g: the group as listed then.
bool startShareReader(QProcess &share, AdminService &admin, const QString &bootstrap, const QString &topic,
                      const QString &group, std::optional<ConsumerGroupInfo> *g, QString *error)
{
    const test::KafkaTools tools = test::kafkaTools();
    share.setProcessChannelMode(QProcess::MergedChannels);
    share.start(tools.java,
                {QStringLiteral("-Xms32m"), QStringLiteral("-Xmx256m"), QStringLiteral("-XX:+UseSerialGC"),
                 QStringLiteral("-XX:TieredStopAtLevel=1"), QStringLiteral("-cp"), tools.libs + QStringLiteral("/*"),
                 QStringLiteral("org.apache.kafka.tools.consumer.ConsoleShareConsumer"),
                 QStringLiteral("--bootstrap-server"), bootstrap, QStringLiteral("--topic"), topic,
                 QStringLiteral("--group"), group});
    if (!share.waitForStarted(10000)) {
        *error = share.errorString();
        return false;
    }
    QString output;
    const auto said = [&] { return QStringLiteral("; ConsoleShareConsumer said: ") + output.right(2000); };
    const bool joined = QTest::qWaitFor(
        [&] {
            *g = listed(admin, group, error);
            return (*g && (*g)->members.size() == 1 && (*g)->members.first().assignment.size() == 2) ||
                   share.state() == QProcess::NotRunning;
        },
        60000);
    output += QString::fromUtf8(share.readAll());
    if (!joined || !*g || (*g)->members.size() != 1) {
        *error = (*g ? QStringLiteral("%1 member(s)").arg((*g)->members.size()) : *error) + said();
        return false;
    }
    const std::optional<ConsumerGroupInfo> asJoined = *g;
    if (!test::produce(bootstrap, topic, records(topic + QStringLiteral("-late"), 1, 1), error))
        return false;
    const QString late = topic + QStringLiteral("-late-");
    if (!QTest::qWaitFor(
            [&] {
                output += QString::fromUtf8(share.readAll());
                return output.count(late) >= 2 || share.state() == QProcess::NotRunning;
            },
            60000) ||
        output.count(late) < 2) {
        *error = QStringLiteral("the share consumer did not read the two new records") + said();
        return false;
    }
    // Acknowledged with its next fetch; the states are written then.
    const bool written = QTest::qWaitFor(
        [&] {
            const auto r = admin.groupOffsets(group);
            return r.ok() && r.value.size() == 2 && r.value[0].committed >= 0 && r.value[1].committed >= 0;
        },
        30000);
    *g = asJoined;
    if (!written)
        *error = QStringLiteral("the share partitions' start offsets were never written");
    return written;
}

// Kafka's kafka-share-groups.sh --describe --offsets: START-OFFSET per partition of `topic`.
QMap<int, qint64> kafkaStartOffsets(const QString &bootstrap, const QString &group, const QString &topic,
                                    QString *error)
{
    QString out;
    QMap<int, qint64> starts;
    if (!test::runKafkaTool(QStringLiteral("org.apache.kafka.tools.consumer.group.ShareGroupCommand"),
                            {QStringLiteral("--bootstrap-server"), bootstrap, QStringLiteral("--describe"),
                             QStringLiteral("--offsets"), QStringLiteral("--group"), group},
                            &out, error))
        return starts;
    for (const QString &line : out.split(QLatin1Char('\n'))) {
        const QStringList f = line.simplified().split(QLatin1Char(' '));
        if (f.size() >= 4 && f[0] == group && f[1] == topic)
            starts.insert(f[2].toInt(), f[3].toLongLong());
    }
    if (starts.isEmpty())
        *error = QStringLiteral("kafka-share-groups.sh showed no start offsets: ") + out.right(2000);
    return starts;
}

} // namespace

class TstGroupTypes final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        MD_REQUIRE_KAFKA_TOOLS();
    }

    void consumerAndClassicGroupsAreTyped()
    {
        const QString bootstrap = test::sourceBootstrap();
        const QString topic = test::uniqueName(QStringLiteral("gt-consumer"));
        const QString modern = test::uniqueName(QStringLiteral("gt-kip848"));
        const QString classic = test::uniqueName(QStringLiteral("gt-classic"));
        QString error;
        QVERIFY2(test::createTopic(bootstrap, topic, 4, {}, &error), qPrintable(error));
        QVERIFY2(test::produce(bootstrap, topic, test::numbered(topic, 40, 4), &error), qPrintable(error));
        QString adminError;
        auto admin = AdminService::create(test::clusterConfig(QStringLiteral("source")), &adminError, 10000);
        QVERIFY2(admin, qPrintable(adminError));

        test::GroupMember member;
        QVERIFY2(member.start(bootstrap, modern, topic, &error, QStringLiteral("kip848-client"),
                              {{QStringLiteral("group.protocol"), QStringLiteral("consumer")}}),
                 qPrintable(error));
        QVERIFY2(member.commit({{0, 3}, {1, 5}}, &error), qPrintable(error));
        test::GroupMember old;
        QVERIFY2(old.start(bootstrap, classic, topic, &error, QStringLiteral("classic-client")), qPrintable(error));

        // Reconciling or Assigning for a moment after the join, then Stable;
        // never Unknown (what librdkafka made of those states before 0002).
        std::optional<ConsumerGroupInfo> g;
        QTRY_VERIFY2_WITH_TIMEOUT((g = listed(*admin, modern, &error)) && g->state == GroupState::Stable,
                                  qPrintable(g ? groupStateName(g->state) : error), 30000);
        QCOMPARE(g->type, GroupType::Consumer);
        QCOMPARE(g->members.size(), 1);
        QCOMPARE(g->members.first().clientId, QStringLiteral("kip848-client"));
        QCOMPARE(g->members.first().assignment.size(), 4);
        // Settled: the target is what the member owns.
        QCOMPARE(g->members.first().targetAssignment, g->members.first().assignment);
        QVERIFY2(!g->protocol.isEmpty(), "the server-side assignor is named"); // "uniform" or "range"

        std::optional<ConsumerGroupInfo> c;
        QTRY_VERIFY2_WITH_TIMEOUT((c = listed(*admin, classic, &error)) && c->state == GroupState::Stable,
                                  qPrintable(c ? groupStateName(c->state) : error), 30000);
        QCOMPARE(c->type, GroupType::Classic);
        QVERIFY(c->members.first().targetAssignment.isEmpty());

        // Lag of a consumer-protocol group: its commits read like any other's.
        const auto offsets = admin->groupOffsets(modern);
        QVERIFY2(offsets.ok(), qPrintable(offsets.error));
        qint64 lag = 0;
        for (const GroupPartitionOffset &o : offsets.value)
            lag += o.lag() > 0 ? o.lag() : 0;
        QCOMPARE(lag, qint64(10 - 3 + 10 - 5));

        // Reset is refused while the consumer-protocol member is there, and
        // the reason names its state.
        const auto refused = admin->resetGroupOffsets(modern, {});
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error.contains(QLatin1String("Stable")), qPrintable(refused.error));
        member.close();
        old.close();
    }

    // A share group joined by Kafka's own ConsoleShareConsumer: listed as
    // share, described (members with their assignment: ShareGroupDescribe,
    // installer/librdkafka-patches/0003), its start offsets and lag read
    // (DescribeShareGroupOffsets) and the same as Kafka's kafka-share-groups.sh
    // says; reset refused with the reason; delete allowed once it is Empty.
    void shareGroupIsDescribedWithStartOffsetsAndLag()
    {
        const QString bootstrap = test::sourceBootstrap();
        const QString topic = test::uniqueName(QStringLiteral("gt-share"));
        const QString group = test::uniqueName(QStringLiteral("gt-share-group"));
        QString error;
        QVERIFY2(test::createTopic(bootstrap, topic, 2, {}, &error), qPrintable(error));
        QVERIFY2(test::produce(bootstrap, topic, records(topic, 7, 4), &error), qPrintable(error));
        QString adminError;
        auto admin = AdminService::create(test::clusterConfig(QStringLiteral("source")), &adminError, 10000);
        QVERIFY2(admin, qPrintable(adminError));

        QProcess share;
        const auto stopShare = qScopeGuard([&] {
            share.kill();
            share.waitForFinished(10000);
        });
        std::optional<ConsumerGroupInfo> g;
        QVERIFY2(startShareReader(share, *admin, bootstrap, topic, group, &g, &error), qPrintable(error));
        // Described with its member and the member's assignment, from the
        // listing (the cluster view) and alone (the group monitor).
        QCOMPARE(g->type, GroupType::Share);
        QCOMPARE(g->state, GroupState::Stable);
        QVERIFY2(g->error.isEmpty(), qPrintable(g->error));
        QCOMPARE(g->members.first().clientId, QStringLiteral("console-share-consumer"));
        const QList<TopicPartitionRef> both{{topic, 0}, {topic, 1}};
        QCOMPARE(g->members.first().assignment, both);
        QVERIFY(g->members.first().targetAssignment.isEmpty());
        const auto alone = admin->describeGroup(group);
        QVERIFY2(alone.ok(), qPrintable(alone.error));
        QCOMPARE(alone.value.type, GroupType::Share);
        QCOMPARE(alone.value.members, g->members);

        // The member leaves; what is written meanwhile is the group's lag.
        share.terminate();
        QVERIFY(share.waitForFinished(30000));
        QTRY_VERIFY2_WITH_TIMEOUT((g = listed(*admin, group, &error)) && g->state == GroupState::Empty,
                                  qPrintable(g ? groupStateName(g->state) : error), 60000);
        QVERIFY2(test::produce(bootstrap, topic, records(topic, 3, 2), &error), qPrintable(error));
        const auto offsets = admin->groupOffsets(group);
        QVERIFY2(offsets.ok(), qPrintable(offsets.error));
        QCOMPARE(offsets.value.size(), 2);
        const GroupPartitionOffset &p0 = offsets.value[0];
        const GroupPartitionOffset &p1 = offsets.value[1];
        // The group started at the ends (7 and 4) and read one record each:
        // Kafka 4.1 writes a start offset with the next change of state, so it
        // is the end it started at or one after the record it acknowledged.
        QVERIFY2(p0.committed == 7 || p0.committed == 8, qPrintable(QString::number(p0.committed)));
        QVERIFY2(p1.committed == 4 || p1.committed == 5, qPrintable(QString::number(p1.committed)));
        QCOMPARE(p0.endOffset, qint64(11));
        QCOMPARE(p1.endOffset, qint64(7));
        QCOMPARE(p0.lag(), 11 - p0.committed);
        QCOMPARE(p1.lag(), 7 - p1.committed);
        // Kafka's own tool reads the same start offsets.
        const QMap<int, qint64> kafkaSays = kafkaStartOffsets(bootstrap, group, topic, &error);
        QCOMPARE(kafkaSays, (QMap<int, qint64>{{0, p0.committed}, {1, p1.committed}}));

        // Moving a share group's start offsets is refused with the reason
        // (Kafka 4.1 answers AlterShareGroupOffsets without moving them).
        const auto reset = admin->resetGroupOffsets(group, {});
        QVERIFY(!reset.ok());
        QVERIFY2(reset.error.contains(QLatin1String("share group")), qPrintable(reset.error));

        // An Empty share group can be deleted.
        const auto deleted = admin->deleteGroup(group);
        QVERIFY2(deleted.ok(), qPrintable(deleted.error));
        QTRY_VERIFY2_WITH_TIMEOUT(!listed(*admin, group, &error), "the deleted share group is still listed", 30000);
    }

    // `mirrordesk lag` watches a classic, a KIP-848 consumer and a share group of
    // the profile's source: once (a line per group) and as Prometheus series,
    // each group's lag equal to what its offsets (set by Kafka's own tools and
    // members) leave behind the end.
    void lagCommandWatchesEveryGroupType()
    {
        const QString bootstrap = test::sourceBootstrap();
        const QString topic = test::uniqueName(QStringLiteral("gt-lag"));
        const QString prefix = test::uniqueName(QStringLiteral("gt-lag-g"));
        const QString classic = prefix + QStringLiteral("-classic");
        const QString modern = prefix + QStringLiteral("-kip848");
        const QString share = prefix + QStringLiteral("-share");
        QString error;
        QVERIFY2(test::createTopic(bootstrap, topic, 2, {}, &error), qPrintable(error));
        QVERIFY2(test::produce(bootstrap, topic, records(topic, 7, 4), &error), qPrintable(error));
        QString adminError;
        auto admin = AdminService::create(test::clusterConfig(QStringLiteral("source")), &adminError, 10000);
        QVERIFY2(admin, qPrintable(adminError));

        // share: Kafka's share consumer joins at the end, reads a record of each
        // partition (ends 8 and 5) and leaves.
        {
            QProcess reader;
            std::optional<ConsumerGroupInfo> g;
            const bool started = startShareReader(reader, *admin, bootstrap, topic, share, &g, &error);
            reader.terminate();
            reader.waitForFinished(30000);
            QVERIFY2(started, qPrintable(error));
        }
        // classic: offsets set by Kafka's ConsumerGroupCommand (3 and 1).
        QString out;
        for (const auto &[partition, offset] : {std::pair{0, 3}, std::pair{1, 1}}) {
            QVERIFY2(
                test::runKafkaTool(QStringLiteral("org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"),
                                   {QStringLiteral("--bootstrap-server"), bootstrap, QStringLiteral("--group"), classic,
                                    QStringLiteral("--topic"), QStringLiteral("%1:%2").arg(topic).arg(partition),
                                    QStringLiteral("--reset-offsets"), QStringLiteral("--to-offset"),
                                    QString::number(offset), QStringLiteral("--execute")},
                                   &out, &error),
                qPrintable(error));
        }
        // consumer protocol: a member that commits 5 and 2 and stays.
        test::GroupMember member;
        QVERIFY2(member.start(bootstrap, modern, topic, &error, QStringLiteral("kip848-client"),
                              {{QStringLiteral("group.protocol"), QStringLiteral("consumer")}}),
                 qPrintable(error));
        QVERIFY2(member.commit({{0, 5}, {1, 2}}, &error), qPrintable(error));
        // Ends 11 and 7: lags classic 8+6, consumer 6+5, share what Kafka's tool says.
        QVERIFY2(test::produce(bootstrap, topic, records(topic, 3, 2), &error), qPrintable(error));
        std::optional<ConsumerGroupInfo> left;
        QTRY_VERIFY2_WITH_TIMEOUT((left = listed(*admin, share, &error)) && left->state == GroupState::Empty,
                                  qPrintable(error), 60000);
        const QMap<int, qint64> starts = kafkaStartOffsets(bootstrap, share, topic, &error);
        QVERIFY2(starts.size() == 2, qPrintable(error));
        const qint64 shareLag = 11 - starts.value(0) + 7 - starts.value(1);

        QTemporaryDir dir;
        test::ProfileSpec spec;
        spec.name = prefix;
        spec.topic = topic;
        const QString profile = test::writeProfile(dir.path(), QStringLiteral("lag.mirrorjob"), spec);
        const QString groups = QRegularExpression::escape(prefix) + QStringLiteral("-.*");
        const test::ExeResult once = test::runMirrordesk(
            {QStringLiteral("lag"), profile, QStringLiteral("--groups"), groups, QStringLiteral("--once")}, 60000);
        QVERIFY2(once.exitCode == 0, qPrintable(once.out + once.err));
        const auto lineOf = [&](const QString &group) {
            for (const QString &line : once.out.split(QLatin1Char('\n')))
                if (line.startsWith(group + QLatin1String(" (")))
                    return line;
            return QString();
        };
        QVERIFY2(lineOf(classic).contains(QLatin1String("(classic, Empty): lag 14 ")), qPrintable(once.out));
        QVERIFY2(lineOf(modern).contains(QLatin1String("(consumer, Stable): lag 11 ")), qPrintable(once.out));
        QVERIFY2(lineOf(share).contains(QStringLiteral("(share, Empty): lag %1 ").arg(shareLag)), qPrintable(once.out));
        QVERIFY2(lineOf(share).contains(QLatin1String("over 2 of 2 partitions")), qPrintable(once.out));

        // Served to Prometheus while it runs.
        const quint16 port = test::freePort();
        QProcess watcher;
        watcher.start(test::mirrordeskExe(),
                      {QStringLiteral("lag"), profile, QStringLiteral("--groups"), groups, QStringLiteral("--interval"),
                       QStringLiteral("1"), QStringLiteral("--metrics-port"), QString::number(port)});
        QVERIFY(watcher.waitForStarted(10000));
        const auto stopWatcher = qScopeGuard([&] {
            watcher.kill();
            watcher.waitForFinished(10000);
        });
        QByteArray metrics;
        const auto has = [&](const QByteArray &series) { return metrics.contains(QByteArray(series + '\n')); };
        const QByteArray g = QStringLiteral("{group=\"%1\"").arg(share).toUtf8();
        const QByteArray lagLine = "mirrordesk_group_lag_records" + g + "} " + QByteArray::number(shareLag);
        const auto of = [](const QString &group) { return QStringLiteral("{group=\"%1\"}").arg(group).toUtf8(); };
        // Each group is polled on its own: wait for all three.
        QTRY_VERIFY2_WITH_TIMEOUT((metrics = test::scrapeMetrics(port),
                                   has(lagLine) && has("mirrordesk_group_lag_records" + of(classic) + " 14") &&
                                       has("mirrordesk_group_lag_records" + of(modern) + " 11")),
                                  metrics.constData(), 60000);
        QVERIFY2(has("mirrordesk_group_up" + g + "} 1"), metrics.constData());
        QVERIFY2(has("mirrordesk_group_info" + g + ",type=\"share\",state=\"Empty\"} 1"), metrics.constData());
        const QByteArray p0 = g + QStringLiteral(",topic=\"%1\",partition=\"0\"}").arg(topic).toUtf8();
        const QByteArray p1 = g + QStringLiteral(",topic=\"%1\",partition=\"1\"}").arg(topic).toUtf8();
        QVERIFY2(has("mirrordesk_group_partition_offset" + p0 + " " + QByteArray::number(starts.value(0))),
                 metrics.constData());
        QVERIFY2(has("mirrordesk_group_partition_offset" + p1 + " " + QByteArray::number(starts.value(1))),
                 metrics.constData());
        QVERIFY2(has("mirrordesk_group_partition_end_offset" + p0 + " 11"), metrics.constData());
        QVERIFY2(has("mirrordesk_group_status" + g + ",status=\"OK\"} 1"), metrics.constData());
        QVERIFY2(has("mirrordesk_group_members" + of(modern) + " 1"), metrics.constData());
        watcher.terminate();
        QVERIFY(watcher.waitForFinished(20000));
        QCOMPARE(watcher.exitCode(), 0);
        member.close();
    }
};

QTEST_GUILESS_MAIN(TstGroupTypes)
#include "tst_group_types.moc"
