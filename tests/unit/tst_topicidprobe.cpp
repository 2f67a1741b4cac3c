// The limits of the probe of the source topics' ids (engine/mirror/TopicIdProbe.h),
// on a clock the test moves: a cluster that does not answer in time counts a
// failure, and after two in a row the probe asks no more, so a cluster that
// never answers costs the engine nothing; closing forgets a pending ask.
// Its answers from a real broker: tests/integration/tst_topicidprobe.cpp.
#include "KafkaTestUtil.h"
#include "LocalPorts.h"
#include "engine/core/KafkaHandles.h"
#include "engine/mirror/TopicIdProbe.h"

#include <QTest>

using namespace md;
using md::test::bareClient;
using namespace std::chrono_literals;

class TstTopicIdProbe final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aClusterThatDoesNotAnswerIsAskedTwiceThenNoMore()
    {
        // A port nobody listens on: no answer before the probe's limit.
        KafkaPtr c = bareClient(md::test::closedPort());
        QVERIFY(c);
        TopicIdProbe probe;
        auto now = TopicIdProbe::Clock::now();
        for (int failure = 1; failure <= TopicIdProbe::kMaxFailures; ++failure) {
            QVERIFY(!probe.givenUp());
            QVERIFY(probe.ask(c.get(), {QStringLiteral("orders")}, now));
            QVERIFY(!probe.poll(now + TopicIdProbe::kAnswerTimeout).has_value()); // not past the limit yet
            QVERIFY(probe.pending());
            now += TopicIdProbe::kAnswerTimeout + 1s;
            QVERIFY(!probe.poll(now).has_value());
            QVERIFY(!probe.pending());
        }
        QVERIFY(probe.givenUp());
        QVERIFY(!probe.ask(c.get(), {QStringLiteral("orders")}, now));
        QVERIFY(!probe.pending());
    }

    void closingForgetsAPendingAsk()
    {
        KafkaPtr c = bareClient(md::test::closedPort());
        TopicIdProbe probe;
        const auto now = TopicIdProbe::Clock::now();
        QVERIFY(probe.ask(c.get(), {QStringLiteral("orders")}, now));
        probe.close(); // before its client goes
        QVERIFY(!probe.pending());
        QVERIFY(!probe.givenUp()); // not a failure
        c.reset();
        KafkaPtr next = bareClient(md::test::closedPort());
        QVERIFY(probe.ask(next.get(), {QStringLiteral("orders")}, now)); // a new client, a new queue
        probe.close();
    }
};

QTEST_GUILESS_MAIN(TstTopicIdProbe)
#include "tst_topicidprobe.moc"
