// Kafka 4's groups as the cluster view lists them (AdminService::consumerGroups)
// on the harness's Kafka 4.1 broker: a KIP-848 consumer-protocol group (a
// librdkafka member with group.protocol=consumer) is typed "consumer", in a
// real state, with its members' assignments and its lag; a classic group
// beside it is "classic"; and a KIP-932 share group, joined by Kafka's own
// ConsoleShareConsumer, is listed as "share" (librdkafka 2.12.1 dropped it:
// installer/librdkafka-patches/0002). The harness formats its brokers with
// share.version=1.
#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "headless_support.h"
#include "tst_mirror_support.h"

#include "engine/admin/AdminService.h"

#include <QProcess>
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

    void shareGroupIsListed()
    {
        const QString bootstrap = test::sourceBootstrap();
        const QString topic = test::uniqueName(QStringLiteral("gt-share"));
        const QString group = test::uniqueName(QStringLiteral("gt-share-group"));
        QString error;
        QVERIFY2(test::createTopic(bootstrap, topic, 2, {}, &error), qPrintable(error));
        QVERIFY2(test::produce(bootstrap, topic, test::numbered(topic, 10, 2), &error), qPrintable(error));
        QString adminError;
        auto admin = AdminService::create(test::clusterConfig(QStringLiteral("source")), &adminError, 10000);
        QVERIFY2(admin, qPrintable(adminError));

        // Kafka's own share consumer joins the share group and reads.
        const test::KafkaTools tools = test::kafkaTools();
        QProcess share;
        share.setProcessChannelMode(QProcess::MergedChannels);
        share.start(tools.java, {QStringLiteral("-Xms32m"), QStringLiteral("-Xmx256m"),
                                 QStringLiteral("-XX:+UseSerialGC"), QStringLiteral("-XX:TieredStopAtLevel=1"),
                                 QStringLiteral("-cp"), tools.libs + QStringLiteral("/*"),
                                 QStringLiteral("org.apache.kafka.tools.consumer.ConsoleShareConsumer"),
                                 QStringLiteral("--bootstrap-server"), bootstrap, QStringLiteral("--topic"), topic,
                                 QStringLiteral("--group"), group});
        QVERIFY2(share.waitForStarted(10000), qPrintable(share.errorString()));
        std::optional<ConsumerGroupInfo> g;
        const bool seen = QTest::qWaitFor(
            [&] {
                g = listed(*admin, group, &error);
                return g.has_value() || share.state() == QProcess::NotRunning;
            },
            60000);
        const QString output = QString::fromUtf8(share.readAll());
        share.kill();
        share.waitForFinished(10000);
        QVERIFY2(seen && g,
                 qPrintable(QStringLiteral("%1; ConsoleShareConsumer said: %2").arg(error, output.right(2000))));
        QCOMPARE(g->type, GroupType::Share);
        QVERIFY2(g->state == GroupState::Stable || g->state == GroupState::Empty, qPrintable(groupStateName(g->state)));
        QVERIFY(g->error.isEmpty()); // listed, not described (no ShareGroupDescribe in librdkafka)
    }
};

QTEST_GUILESS_MAIN(TstGroupTypes)
#include "tst_group_types.moc"
