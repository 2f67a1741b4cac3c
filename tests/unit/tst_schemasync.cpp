// Schema sync's pure parts: which subjects follow a job and under which names
// (SchemaSubjects.h), and the questions and answers the engine thread and
// the sync thread share (SchemaIdMap.h). The registries themselves:
// tests/integration/tst_schema_sync.cpp.

#include "engine/schemasync/SchemaIdMap.h"
#include "engine/schemasync/SchemaSubjects.h"

#include <QTest>

#include <thread>

using namespace md;

class TstSchemaSync final : public QObject {
    Q_OBJECT

    static MirrorJobSpec prefixSpec()
    {
        MirrorJobSpec s;
        s.source.alias = QStringLiteral("eu");
        s.naming = NamingPolicy::Prefix;
        s.include = {QStringLiteral("orders.*")};
        return s;
    }

private Q_SLOTS:
    void topicSubjects()
    {
        QCOMPARE(topicOfSubject(QStringLiteral("orders-value"))->topic, QStringLiteral("orders"));
        QVERIFY(!topicOfSubject(QStringLiteral("orders-value"))->key);
        QCOMPARE(topicOfSubject(QStringLiteral("a-b-key"))->topic, QStringLiteral("a-b"));
        QVERIFY(topicOfSubject(QStringLiteral("a-b-key"))->key);
        QVERIFY(!topicOfSubject(QStringLiteral("-key")));
        QVERIFY(!topicOfSubject(QStringLiteral("com.acme.Address")));
        QCOMPARE(subjectOfTopic(QStringLiteral("t"), true), QStringLiteral("t-key"));
    }

    void targetNamesFollowTheTopics()
    {
        const MirrorJobSpec s = prefixSpec();
        QCOMPARE(targetSubjectName(s, QStringLiteral("orders-value")), QStringLiteral("eu.orders-value"));
        QCOMPARE(targetSubjectName(s, QStringLiteral("orders.v2-key")), QStringLiteral("eu.orders.v2-key"));
        // Not a mirrored topic's subject, or not a topic subject at all: the same name.
        QCOMPARE(targetSubjectName(s, QStringLiteral("payments-value")), QStringLiteral("payments-value"));
        QCOMPARE(targetSubjectName(s, QStringLiteral("com.acme.Address")), QStringLiteral("com.acme.Address"));
    }

    void subjectsToSyncHonourTheFilter()
    {
        MirrorJobSpec s = prefixSpec();
        const QStringList all{QStringLiteral("orders-value"), QStringLiteral("orders-key"),
                              QStringLiteral("payments-value"), QStringLiteral("com.acme.Address"),
                              QStringLiteral("orders.eu-value")};
        QCOMPARE(topicSubjectsToSync(s, all), (QStringList{QStringLiteral("orders-key"), QStringLiteral("orders-value"),
                                                           QStringLiteral("orders.eu-value")}));
        s.schemaSubjectsExclude = {QStringLiteral(".*-key")};
        QCOMPARE(topicSubjectsToSync(s, all),
                 (QStringList{QStringLiteral("orders-value"), QStringLiteral("orders.eu-value")}));
        s.schemaSubjectsInclude = {QStringLiteral("orders-.*")};
        QCOMPARE(topicSubjectsToSync(s, all), QStringList{QStringLiteral("orders-value")});
        const SchemaSubjectFilter filter(s);
        QVERIFY(!filter.selects(QStringLiteral("orders-key")));
        QVERIFY(filter.selects(QStringLiteral("orders-value")));
    }

    void idsAskedAnsweredAndRetried()
    {
        SchemaIdMap map;
        int target = 0;
        QString why;
        QCOMPARE(map.targetId(7, &target, &why), SchemaIdMap::Answer::Pending);
        QCOMPARE(map.targetId(7, &target, &why), SchemaIdMap::Answer::Pending); // asked once
        QSet<int> ids;
        QSet<QString> topics;
        map.waitForQuestions(1000, &ids, &topics);
        QCOMPARE(ids, QSet<int>{7});
        QVERIFY(topics.isEmpty());

        const quint64 before = map.generation();
        map.setFailed(7, QStringLiteral("incompatible"));
        QVERIFY(map.generation() > before);
        QCOMPARE(map.targetId(7, &target, &why), SchemaIdMap::Answer::Failed);
        QCOMPARE(why, QStringLiteral("incompatible"));
        map.retry(7);
        map.waitForQuestions(1000, &ids, &topics);
        QCOMPARE(ids, QSet<int>{7});
        map.setMapped(7, 42);
        QCOMPARE(map.targetId(7, &target, &why), SchemaIdMap::Answer::Mapped);
        QCOMPARE(target, 42);
    }

    void topicsAskedOnce()
    {
        SchemaIdMap map;
        QVERIFY(!map.topicUse(QStringLiteral("orders")).known);
        QSet<int> ids;
        QSet<QString> topics;
        map.waitForQuestions(1000, &ids, &topics);
        QCOMPARE(topics, QSet<QString>{QStringLiteral("orders")});
        map.setTopicUse(QStringLiteral("orders"), false, true);
        const SchemaIdMap::TopicUse use = map.topicUse(QStringLiteral("orders"));
        QVERIFY(use.known && use.value && !use.key);
        // Nothing asked: the wait ends at its timeout with no question.
        map.waitForQuestions(50, &ids, &topics);
        QVERIFY(ids.isEmpty() && topics.isEmpty());
    }

    void stopWakesTheSyncThread()
    {
        SchemaIdMap map;
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            map.stop();
        });
        QElapsedTimer t;
        t.start();
        QSet<int> ids;
        QSet<QString> topics;
        map.waitForQuestions(60000, &ids, &topics);
        stopper.join();
        QVERIFY(map.stopped());
        QVERIFY(t.elapsed() < 30000);
    }
};

QTEST_GUILESS_MAIN(TstSchemaSync)
#include "tst_schemasync.moc"
