// The probe of the source topics' ids (engine/mirror/TopicIdProbe.h) against
// a real broker: one ask at a time; the answer gives each topic's id and
// leaves out a topic that does not exist; the same topic asked again has
// the same id, and a new one once it was deleted and created again (what
// makes a running job copy it from its first record:
// tests/integration/tst_mirror_sync.cpp).
#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"

#include "engine/core/KafkaHandles.h"
#include "engine/mirror/TopicIdProbe.h"

#include <QTest>

#include <optional>

using namespace md;
using namespace md::test;

namespace {

// Asks and waits (up to 20 s) for the answer.
std::optional<QHash<QString, QByteArray>> idsOf(TopicIdProbe &probe, rd_kafka_t *c, const QStringList &names)
{
    if (!probe.ask(c, names, TopicIdProbe::Clock::now()))
        return std::nullopt;
    std::optional<QHash<QString, QByteArray>> ids;
    (void)QTest::qWaitFor(
        [&] { return (ids = probe.poll(TopicIdProbe::Clock::now())).has_value() || !probe.pending(); }, 20000);
    return ids;
}

} // namespace

class TstTopicIdProbe final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source")); }

    void theIdsOfTheTopicsThatExistAndANewOneAfterARecreation()
    {
        const QString bootstrap = sourceBootstrap();
        const QString orders = uniqueName(QStringLiteral("ids-orders")),
                      payments = uniqueName(QStringLiteral("ids-pay"));
        const QString gone = uniqueName(QStringLiteral("ids-gone"));
        QString error;
        QVERIFY2(createTopic(bootstrap, orders, 2, {}, &error), qPrintable(error));
        QVERIFY2(createTopic(bootstrap, payments, 1, {}, &error), qPrintable(error));
        KafkaPtr c = bareClient(bootstrap);
        QVERIFY(c);
        TopicIdProbe probe;

        QVERIFY(probe.ask(c.get(), {orders, payments, gone}, TopicIdProbe::Clock::now()));
        QVERIFY(!probe.ask(c.get(), {orders}, TopicIdProbe::Clock::now())); // one at a time
        std::optional<QHash<QString, QByteArray>> ids;
        // Not QTRY: it would take the answer and then ask poll() again.
        QVERIFY(QTest::qWaitFor([&] { return (ids = probe.poll(TopicIdProbe::Clock::now())).has_value(); }, 20000));
        QVERIFY(!probe.pending());
        QCOMPARE(ids->size(), 2);
        const QByteArray ordersId = ids->value(orders), paymentsId = ids->value(payments);
        QCOMPARE(ordersId.size(), 22); // a UUID in base64, unpadded
        QCOMPARE(paymentsId.size(), 22);
        QVERIFY(ordersId != paymentsId);
        QVERIFY(!ids->contains(gone));

        const auto again = idsOf(probe, c.get(), {orders});
        QVERIFY(again);
        QCOMPARE(again->value(orders), ordersId);

        QVERIFY2(deleteTopic(bootstrap, orders, &error), qPrintable(error));
        QVERIFY2(createTopic(bootstrap, orders, 2, {}, &error), qPrintable(error));
        std::optional<QHash<QString, QByteArray>> recreated;
        // Until the broker's metadata has the new topic, an answer may still leave it out.
        QVERIFY(QTest::qWaitFor(
            [&] { return (recreated = idsOf(probe, c.get(), {orders})) && recreated->contains(orders); }, 30000));
        QCOMPARE(recreated->value(orders).size(), 22);
        QVERIFY(recreated->value(orders) != ordersId);
        QVERIFY(!probe.givenUp());
    }
};

QTEST_GUILESS_MAIN(TstTopicIdProbe)
#include "tst_topicidprobe.moc"
