// AdminService and AdminClient against the real brokers: topic administration
// with config sources, a real consumer group's committed offsets and lag,
// offset resets (refused while the group has a member), group deletion,
// message reads by offset / timestamp / latest N with nulls and headers,
// ACL listing on a broker without an authorizer, and SASL with a wrong password.
#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/admin/AdminClient.h"
#include "engine/admin/AdminService.h"

#include <QDateTime>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <functional>

using namespace md;

namespace {

std::unique_ptr<AdminService> service(const QString &broker)
{
    QString error;
    auto s = AdminService::create(test::clusterConfig(broker), &error, 10000);
    if (!s)
        qWarning("%s", qPrintable(error));
    return s;
}

const ConfigEntry *findConfig(const QList<ConfigEntry> &list, const QString &name)
{
    for (const ConfigEntry &e : list) {
        if (e.name == name)
            return &e;
    }
    return nullptr;
}

const GroupPartitionOffset *findOffset(const QList<GroupPartitionOffset> &list, int partition)
{
    for (const GroupPartitionOffset &o : list) {
        if (o.partition == partition)
            return &o;
    }
    return nullptr;
}

test::TestRecord record(std::optional<QByteArray> key, std::optional<QByteArray> value, int partition, qint64 ts,
                        QList<QPair<QString, std::optional<QByteArray>>> headers = {})
{
    test::TestRecord r;
    r.key = std::move(key);
    r.value = std::move(value);
    r.partition = partition;
    r.timestamp = ts;
    r.headers = std::move(headers);
    return r;
}

} // namespace

class TestAdmin final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void topicLifecycle()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        auto admin = service(QStringLiteral("source"));
        QVERIFY(admin);
        const QString topic = test::uniqueName(QStringLiteral("admin-topic"));
        NewTopicSpec spec{topic, 2, 1, {{QStringLiteral("retention.ms"), QStringLiteral("3600000")}}};
        AdminResult<Done> created = admin->createTopic(spec);
        QVERIFY2(created.ok(), qPrintable(created.error));

        // Creating it again: the broker's reason, in words.
        AdminResult<Done> again = admin->createTopic(spec);
        QVERIFY(!again.ok());
        QVERIFY2(again.error.contains(QLatin1String("already exists"), Qt::CaseInsensitive), qPrintable(again.error));
        QVERIFY(!admin->createTopic({topic + QStringLiteral("-x"), 0, 1, {}}).ok());

        // CreateTopics answers once the controller has the topic; the broker
        // that answers DescribeConfigs may list it a moment later (seen once in
        // CI right after the brokers started: "Unknown topic or partition").
        QTRY_COMPARE_WITH_TIMEOUT(test::partitionCount(test::sourceBootstrap(), topic), 2, 15000);
        auto configs = admin->describeTopicConfigs(topic);
        QVERIFY2(configs.ok(), qPrintable(configs.error));
        const ConfigEntry *retention = findConfig(configs.value, QStringLiteral("retention.ms"));
        QVERIFY(retention);
        QCOMPARE(retention->value.value_or(QString()), QStringLiteral("3600000"));
        QCOMPARE(retention->source, ConfigSource::Dynamic);
        const ConfigEntry *cleanup = findConfig(configs.value, QStringLiteral("cleanup.policy"));
        QVERIFY(cleanup);
        QVERIFY(cleanup->source != ConfigSource::Dynamic);
        QCOMPARE(cleanup->value.value_or(QString()), QStringLiteral("delete"));

        // Altering one config keeps the other dynamic one (an incremental update).
        auto altered =
            admin->alterTopicConfigs(topic, {{QStringLiteral("max.message.bytes"), QStringLiteral("200000")}});
        QVERIFY2(altered.ok(), qPrintable(altered.error));
        // A KRaft broker answers DescribeConfigs from its metadata image, which
        // trails the accepted AlterConfigs by a moment: wait for it to show.
        const auto describeWhen = [&](const std::function<bool(const QList<ConfigEntry> &)> &ready) {
            QElapsedTimer waited;
            waited.start();
            auto result = admin->describeTopicConfigs(topic);
            while (result.ok() && !ready(result.value) && waited.elapsed() < 15000) {
                QTest::qWait(200);
                result = admin->describeTopicConfigs(topic);
            }
            return result;
        };
        configs = describeWhen([](const QList<ConfigEntry> &list) {
            const ConfigEntry *e = findConfig(list, QStringLiteral("max.message.bytes"));
            return e && e->value == QStringLiteral("200000");
        });
        QVERIFY2(configs.ok(), qPrintable(configs.error));
        QCOMPARE(findConfig(configs.value, QStringLiteral("max.message.bytes"))->value.value_or(QString()),
                 QStringLiteral("200000"));
        QCOMPARE(findConfig(configs.value, QStringLiteral("max.message.bytes"))->source, ConfigSource::Dynamic);
        QCOMPARE(findConfig(configs.value, QStringLiteral("retention.ms"))->value.value_or(QString()),
                 QStringLiteral("3600000"));
        // Removing one returns it to its default.
        altered = admin->alterTopicConfigs(topic, {{QStringLiteral("retention.ms"), std::nullopt}});
        QVERIFY2(altered.ok(), qPrintable(altered.error));
        configs = describeWhen([](const QList<ConfigEntry> &list) {
            const ConfigEntry *e = findConfig(list, QStringLiteral("retention.ms"));
            return e && e->source != ConfigSource::Dynamic;
        });
        QVERIFY(configs.ok());
        QVERIFY(findConfig(configs.value, QStringLiteral("retention.ms"))->source != ConfigSource::Dynamic);
        QCOMPARE(findConfig(configs.value, QStringLiteral("max.message.bytes"))->source, ConfigSource::Dynamic);
        // A bad value: the broker's refusal.
        altered = admin->alterTopicConfigs(topic, {{QStringLiteral("retention.ms"), QStringLiteral("soon")}});
        QVERIFY(!altered.ok());
        QVERIFY2(altered.error.contains(topic), qPrintable(altered.error));

        auto grown = admin->addPartitions(topic, 5);
        QVERIFY2(grown.ok(), qPrintable(grown.error));
        QTRY_COMPARE_WITH_TIMEOUT(test::partitionCount(test::sourceBootstrap(), topic), 5, 20000);
        QVERIFY(!admin->addPartitions(topic, 3).ok()); // shrinking is not a thing

        auto deleted = admin->deleteTopic(topic);
        QVERIFY2(deleted.ok(), qPrintable(deleted.error));
        QTRY_VERIFY_WITH_TIMEOUT(!admin->metadata().value.topic(topic), 20000);
        auto missing = admin->describeTopicConfigs(topic);
        QVERIFY(!missing.ok());
        QVERIFY(!admin->deleteTopic(topic).ok());
    }

    void consumerGroupLagResetDelete()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        const QString bootstrap = test::sourceBootstrap();
        const QString topic = test::uniqueName(QStringLiteral("admin-group"));
        const QString group = test::uniqueName(QStringLiteral("admin-g"));
        QString error;
        QVERIFY2(test::createTopic(bootstrap, topic, 3, {}, &error), qPrintable(error));
        const qint64 base = QDateTime::currentMSecsSinceEpoch() - 3600000;
        QList<test::TestRecord> records;
        for (int i = 0; i < 10; ++i)
            records.append(record(QByteArray("k"), QByteArray::number(i), 0, base + i * 1000));
        for (int i = 0; i < 5; ++i)
            records.append(record(QByteArray("k"), QByteArray::number(i), 1, base + i * 1000));
        for (int i = 0; i < 3; ++i)
            records.append(record(QByteArray("k"), QByteArray::number(i), 2, base + i * 1000));
        QVERIFY2(test::produce(bootstrap, topic, records, &error), qPrintable(error));

        auto admin = service(QStringLiteral("source"));
        QVERIFY(admin);
        {
            test::GroupMember consumer;
            QVERIFY2(consumer.start(bootstrap, group, topic, &error, QStringLiteral("lag-test-client")),
                     qPrintable(error));
            QVERIFY2(consumer.commit({{0, 4}, {1, 5}}, &error), qPrintable(error));

            // With an active member: described with its assignment, and reset refused.
            auto groups = admin->consumerGroups();
            QVERIFY2(groups.ok(), qPrintable(groups.error));
            const ConsumerGroupInfo *g = nullptr;
            for (const ConsumerGroupInfo &c : groups.value) {
                if (c.groupId == group)
                    g = &c;
            }
            QVERIFY(g);
            QCOMPARE(g->state, GroupState::Stable);
            QVERIFY(!g->protocol.isEmpty());
            QCOMPARE(g->members.size(), 1);
            QCOMPARE(g->members.first().clientId, QStringLiteral("lag-test-client"));
            QVERIFY(!g->members.first().host.isEmpty());
            QCOMPARE(g->members.first().assignment.size(), 3);

            auto refused = admin->resetGroupOffsets(group, {});
            QVERIFY(!refused.ok());
            QVERIFY2(refused.error.contains(QLatin1String("Stable")) && refused.error.contains(QLatin1String("member")),
                     qPrintable(refused.error));
            consumer.close();
        }
        QTRY_COMPARE_WITH_TIMEOUT(admin->describeGroup(group).value.state, GroupState::Empty, 20000);

        auto offsets = admin->groupOffsets(group);
        QVERIFY2(offsets.ok(), qPrintable(offsets.error));
        QCOMPARE(offsets.value.size(), 3);
        QCOMPARE(findOffset(offsets.value, 0)->committed, 4);
        QCOMPARE(findOffset(offsets.value, 0)->endOffset, 10);
        QCOMPARE(findOffset(offsets.value, 0)->lag(), 6);
        QCOMPARE(findOffset(offsets.value, 1)->lag(), 0);
        QCOMPARE(findOffset(offsets.value, 2)->committed, -1); // never committed: none, not 0
        QCOMPARE(findOffset(offsets.value, 2)->lag(), -1);
        QCOMPARE(findOffset(offsets.value, 2)->endOffset, 3);

        // Earliest (every partition the group knows, including the uncommitted one).
        auto reset = admin->resetGroupOffsets(group, {});
        QVERIFY2(reset.ok(), qPrintable(reset.error));
        offsets = admin->groupOffsets(group);
        QVERIFY(offsets.ok());
        for (const GroupPartitionOffset &o : offsets.value)
            QCOMPARE(o.committed, 0);

        OffsetReset latest;
        latest.mode = OffsetReset::Mode::Latest;
        QVERIFY(admin->resetGroupOffsets(group, latest).ok());
        offsets = admin->groupOffsets(group);
        QCOMPARE(findOffset(offsets.value, 0)->committed, 10);
        QCOMPARE(findOffset(offsets.value, 2)->lag(), 0);

        OffsetReset byTime;
        byTime.mode = OffsetReset::Mode::Timestamp;
        byTime.timestampMs = base + 3500; // p0: offset 4; p1: 4; p2: past its end -> 3
        QVERIFY(admin->resetGroupOffsets(group, byTime).ok());
        offsets = admin->groupOffsets(group);
        QCOMPARE(findOffset(offsets.value, 0)->committed, 4);
        QCOMPARE(findOffset(offsets.value, 1)->committed, 4);
        QCOMPARE(findOffset(offsets.value, 2)->committed, 3);

        OffsetReset exact;
        exact.mode = OffsetReset::Mode::Explicit;
        exact.explicitOffsets.insert({topic, 0}, 7);
        QVERIFY(admin->resetGroupOffsets(group, exact).ok());
        offsets = admin->groupOffsets(group);
        QCOMPARE(findOffset(offsets.value, 0)->committed, 7);
        QCOMPARE(findOffset(offsets.value, 1)->committed, 4); // untouched
        exact.explicitOffsets.insert({topic, 0}, 99);
        auto outOfRange = admin->resetGroupOffsets(group, exact);
        QVERIFY(!outOfRange.ok());
        QVERIFY2(outOfRange.error.contains(QLatin1String("outside")), qPrintable(outOfRange.error));

        auto deleted = admin->deleteGroup(group);
        QVERIFY2(deleted.ok(), qPrintable(deleted.error));
        auto groups = admin->consumerGroups();
        QVERIFY(groups.ok());
        for (const ConsumerGroupInfo &c : groups.value)
            QVERIFY(c.groupId != group);
        QVERIFY(!admin->deleteGroup(group).ok());
        test::deleteTopic(bootstrap, topic);
    }

    void readMessages()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        const QString bootstrap = test::sourceBootstrap();
        const QString topic = test::uniqueName(QStringLiteral("admin-msgs"));
        QString error;
        QVERIFY2(test::createTopic(bootstrap, topic, 2, {}, &error), qPrintable(error));
        const qint64 base = QDateTime::currentMSecsSinceEpoch() - 600000;
        QList<test::TestRecord> records;
        records.append(record(std::nullopt, QByteArray(""), 0, base,
                              {{QStringLiteral("h1"), QByteArray("v")},
                               {QStringLiteral("h2"), std::nullopt},
                               {QStringLiteral("h1"), QByteArray("")}}));
        records.append(record(QByteArray(""), std::nullopt, 0, base + 1000));
        for (int i = 2; i < 6; ++i)
            records.append(record(QByteArray("k") + QByteArray::number(i),
                                  QByteArray("{\"n\":") + QByteArray::number(i) + "}", 0, base + i * 1000));
        records.append(record(QByteArray("p1a"), QByteArray("\x00\xff", 2), 1, base + 10000));
        records.append(record(QByteArray("p1b"), QByteArray("x"), 1, base + 11000));
        QVERIFY2(test::produce(bootstrap, topic, records, &error), qPrintable(error));

        auto admin = service(QStringLiteral("source"));
        QVERIFY(admin);
        MessageQuery q;
        q.topic = topic;
        q.partition = 0;
        q.mode = MessageQuery::Mode::FromOffset;
        q.offset = 0;
        q.maxMessages = 2;
        auto first = admin->readMessages(q);
        QVERIFY2(first.ok(), qPrintable(first.error));
        QCOMPARE(first.value.size(), 2);
        const KafkaMessage &m0 = first.value.at(0);
        QCOMPARE(m0.offset, 0);
        QCOMPARE(m0.partition, 0);
        QCOMPARE(m0.timestampMs, base);
        QVERIFY(!m0.key.has_value());
        QVERIFY(m0.value.has_value() && m0.value->isEmpty());
        QCOMPARE(m0.headers.size(), 3);
        QCOMPARE(m0.headers.at(0).first, QStringLiteral("h1"));
        QCOMPARE(m0.headers.at(0).second.value_or(QByteArray("?")), QByteArray("v"));
        QVERIFY(!m0.headers.at(1).second.has_value());
        QVERIFY(m0.headers.at(2).second.has_value() && m0.headers.at(2).second->isEmpty());
        const KafkaMessage &m1 = first.value.at(1);
        QVERIFY(m1.key.has_value() && m1.key->isEmpty());
        QVERIFY(!m1.value.has_value());

        q.offset = 3;
        q.maxMessages = 10;
        auto tail = admin->readMessages(q);
        QVERIFY(tail.ok());
        QCOMPARE(tail.value.size(), 3);
        QCOMPARE(tail.value.first().offset, 3);
        QCOMPARE(tail.value.last().offset, 5);

        MessageQuery t;
        t.topic = topic;
        t.mode = MessageQuery::Mode::FromTimestamp;
        t.timestampMs = base + 4000;
        t.maxMessages = 100;
        auto fromTime = admin->readMessages(t);
        QVERIFY2(fromTime.ok(), qPrintable(fromTime.error));
        QCOMPARE(fromTime.value.size(), 4); // p0 offsets 4, 5 and both of p1, by time
        QCOMPARE(fromTime.value.at(0).offset, 4);
        QCOMPARE(fromTime.value.at(2).partition, 1);
        QCOMPARE(fromTime.value.at(2).value.value_or(QByteArray()), QByteArray("\x00\xff", 2));

        MessageQuery latest;
        latest.topic = topic;
        latest.mode = MessageQuery::Mode::LatestN;
        latest.maxMessages = 3;
        auto newest = admin->readMessages(latest);
        QVERIFY2(newest.ok(), qPrintable(newest.error));
        QCOMPARE(newest.value.size(), 3);
        QCOMPARE(newest.value.at(0).partition, 0);
        QCOMPARE(newest.value.at(0).offset, 5);
        QCOMPARE(newest.value.at(2).key.value_or(QByteArray()), QByteArray("p1b"));

        MessageQuery bad = latest;
        bad.topic = topic + QStringLiteral("-nope");
        auto nope = admin->readMessages(bad);
        QVERIFY(!nope.ok());
        QVERIFY2(nope.error.contains(QLatin1String("does not exist")), qPrintable(nope.error));
        test::deleteTopic(bootstrap, topic);
    }

    void aclsWithoutAuthorizer()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        auto admin = service(QStringLiteral("source"));
        QVERIFY(admin);
        auto acls = admin->listAcls();
        QVERIFY(!acls.ok());
        QVERIFY2(acls.error.contains(QLatin1String("security is disabled")), qPrintable(acls.error));
    }

    void saslWrongPassword()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("sasl"));
        ClusterConfig good = test::clusterConfig(QStringLiteral("sasl"));
        QString error;
        auto ok = AdminService::create(good, &error, 8000);
        QVERIFY(ok);
        auto md = ok->metadata();
        QVERIFY2(md.ok(), qPrintable(md.error));

        ClusterConfig bad = good;
        bad.saslPassword = QStringLiteral("not-the-password");
        auto wrong = AdminService::create(bad, &error, 8000);
        QVERIFY(wrong);
        QElapsedTimer t;
        t.start();
        auto denied = wrong->metadata();
        QVERIFY(!denied.ok());
        QVERIFY(t.elapsed() < 12000);
        QVERIFY2(denied.error.contains(QLatin1String("authentication failed"), Qt::CaseInsensitive),
                 qPrintable(denied.error));
        QVERIFY2(!denied.error.contains(bad.saslPassword), "the password must not appear in errors");
    }

    void asyncClient()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        AdminClient client;
        QSignalSpy connected(&client, &AdminClient::connected);
        QSignalSpy failed(&client, &AdminClient::requestFailed);
        QSignalSpy done(&client, &AdminClient::operationDone);
        QSignalSpy configs(&client, &AdminClient::topicConfigsReady);

        // Before connecting: refused in words, not a crash.
        const quint64 early = client.listAcls();
        QVERIFY(failed.wait(5000));
        QCOMPARE(failed.first().at(0).toULongLong(), early);
        failed.clear();

        const quint64 c = client.connectTo(test::clusterConfig(QStringLiteral("source")));
        QVERIFY(connected.wait(15000));
        QCOMPARE(connected.first().at(0).toULongLong(), c);

        const QString topic = test::uniqueName(QStringLiteral("admin-async"));
        const quint64 create =
            client.createTopic({topic, 1, 1, {{QStringLiteral("retention.ms"), QStringLiteral("7200000")}}});
        const quint64 describe = client.describeTopicConfigs(topic); // runs after the create, in order
        QTRY_COMPARE_WITH_TIMEOUT(configs.size(), 1, 20000);
        QCOMPARE(done.size(), 1);
        QCOMPARE(done.first().at(0).toULongLong(), create);
        QCOMPARE(configs.first().at(0).toULongLong(), describe);
        const auto list = configs.first().at(2).value<QList<ConfigEntry>>();
        QCOMPARE(findConfig(list, QStringLiteral("retention.ms"))->value.value_or(QString()),
                 QStringLiteral("7200000"));

        const quint64 missing = client.describeTopicConfigs(topic + QStringLiteral("-missing"));
        QVERIFY(failed.wait(15000));
        QCOMPARE(failed.first().at(0).toULongLong(), missing);
        QCOMPARE(failed.first().at(1).value<AdminClient::Operation>(), AdminClient::Operation::DescribeConfigs);
        QVERIFY(!failed.first().at(2).toString().isEmpty());
        test::deleteTopic(test::sourceBootstrap(), topic);
    }
};

QTEST_GUILESS_MAIN(TestAdmin)
#include "tst_admin.moc"
