// The pure parts of the cutover: its recorded state, the principals it
// fences, the translation of empty partitions, the report it prints.

#include "engine/cutover/CutoverPreflight.h"
#include "engine/cutover/CutoverReport.h"
#include "engine/cutover/CutoverState.h"
#include "engine/groupsync/GroupOffsetSync.h"
#include "engine/mirror/TopicNaming.h"

#include <QJsonDocument>
#include <QTest>

using namespace md;

class TstCutover : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void stateRoundTrips()
    {
        CutoverState s;
        s.job = QStringLiteral("orders to DR");
        s.group = QStringLiteral("mirrordesk-orders");
        s.next = CutoverStep::Groups;
        s.started = QDateTime::fromMSecsSinceEpoch(1796600000123, Qt::UTC);
        s.updated = s.started.addSecs(30);
        s.fencePrincipals = {QStringLiteral("User:alice"), QStringLiteral("User:*")};
        s.fence = {{QStringLiteral("TOPIC"), QStringLiteral("orders"), QStringLiteral("LITERAL"),
                    QStringLiteral("User:alice"), QStringLiteral("*"), QStringLiteral("WRITE"),
                    QStringLiteral("DENY")}};
        s.stoppedBecause = QStringLiteral("interrupted during step \"groups\"");
        s.report.insert(QStringLiteral("groups"), QJsonArray{QStringLiteral("g")});
        QString error;
        const std::optional<CutoverState> back = CutoverState::fromJson(s.toJson(), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->job, s.job);
        QCOMPARE(back->group, s.group);
        QCOMPARE(back->next, CutoverStep::Groups);
        QCOMPARE(back->started, s.started);
        QCOMPARE(back->updated, s.updated);
        QCOMPARE(back->fencePrincipals, s.fencePrincipals);
        QCOMPARE(back->fence, s.fence);
        QCOMPARE(back->stoppedBecause, s.stoppedBecause);
        QCOMPARE(back->report, s.report);
        QVERIFY(!back->finished());
        s.next = CutoverStep::Done;
        QVERIFY(CutoverState::fromJson(s.toJson(), &error)->finished());
    }

    void badStateIsRefusedWithTheReason_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("reason");
        QTest::newRow("not json") << QByteArray("{") << QStringLiteral("not a JSON object");
        QTest::newRow("newer version") << QByteArray(R"({"version":2,"next":"fence"})") << QStringLiteral("version 2");
        QTest::newRow("unknown step") << QByteArray(R"({"version":1,"next":"teleport"})")
                                      << QStringLiteral("unknown step \"teleport\"");
        QTest::newRow("bad binding")
            << QByteArray(R"({"version":1,"next":"drain","fence":[{"resourceType":"TOPIC","resourceName":"t",)"
                          R"("patternType":"LITERAL","principal":"alice","host":"*","operation":"WRITE",)"
                          R"("permission":"DENY"}]})")
            << QStringLiteral("binding");
    }

    void badStateIsRefusedWithTheReason()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, reason);
        QString error;
        QVERIFY(!CutoverState::fromJson(json, &error));
        QVERIFY2(error.contains(reason), qPrintable(error));
    }

    void stepNamesRoundTrip()
    {
        for (const CutoverStep s : {CutoverStep::Preflight, CutoverStep::Fence, CutoverStep::Drain, CutoverStep::Groups,
                                    CutoverStep::Stop, CutoverStep::Done}) {
            QVERIFY(!cutoverStepTitle(s).isEmpty());
            QCOMPARE(cutoverStepFromName(cutoverStepName(s)), std::optional<CutoverStep>(s));
        }
        QVERIFY(!cutoverStepFromName(QStringLiteral("Fence"))); // names are exact
    }

    void recordsTopicIsNeverMirrored()
    {
        MirrorJobSpec spec;
        spec.name = QStringLiteral("orders");
        spec.offsetMapTopic = QStringLiteral("dr.orders.offset-map");
        QCOMPARE(cutoverRecordsTopicOf(spec), QStringLiteral("dr.orders.cutover"));
        QVERIFY(isCutoverRecordsTopic(cutoverRecordsTopicOf(spec)));
        QVERIFY(isInternalTopic(cutoverRecordsTopicOf(spec)));
        QVERIFY(!isInternalTopic(QStringLiteral("orders.cut")));
    }

    void principals_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("principal"); // empty: refused
        QTest::newRow("bare user") << QStringLiteral("alice") << QStringLiteral("User:alice");
        QTest::newRow("typed") << QStringLiteral("User:bob") << QStringLiteral("User:bob");
        QTest::newRow("everyone") << QStringLiteral("*") << QStringLiteral("User:*");
        QTest::newRow("spaces") << QStringLiteral(" carol ") << QStringLiteral("User:carol");
        QTest::newRow("empty") << QString() << QString();
        QTest::newRow("no name") << QStringLiteral("User:") << QString();
        QTest::newRow("no type") << QStringLiteral(":alice") << QString();
    }

    void principals()
    {
        QFETCH(QString, name);
        QFETCH(QString, principal);
        QString error;
        const std::optional<QString> p = normalizedPrincipal(name, &error);
        if (principal.isEmpty()) {
            QVERIFY(!p);
            QVERIFY(!error.isEmpty());
        } else {
            QCOMPARE(p, std::optional<QString>(principal));
        }
    }

    void emptyPartitionResumesAtTheTargetEnd()
    {
        GroupPartitionSync p;
        p.topic = QStringLiteral("orders");
        p.partition = 1;
        p.sourceCommitted = 0;
        p.sourceEnd = 0;
        decideEmptyPartition(&p, QStringLiteral("dr.orders"), 7, false, false);
        QCOMPARE(p.action, GroupSyncAction::Write);
        QCOMPARE(p.syncedOffset(), 7);
        QCOMPARE(p.targetTopic, QStringLiteral("dr.orders"));

        p.targetCurrent = 7;
        decideEmptyPartition(&p, QStringLiteral("dr.orders"), 7, false, false);
        QCOMPARE(p.action, GroupSyncAction::AlreadyThere);

        p.targetCurrent = 9; // ahead: never moved back unless asked
        decideEmptyPartition(&p, QStringLiteral("dr.orders"), 7, false, false);
        QCOMPARE(p.action, GroupSyncAction::SkipWouldRewind);
        decideEmptyPartition(&p, QStringLiteral("dr.orders"), 7, false, true);
        QCOMPARE(p.action, GroupSyncAction::Write);

        p.targetCurrent = 3;
        decideEmptyPartition(&p, QStringLiteral("dr.orders"), 7, true, false);
        QCOMPARE(p.action, GroupSyncAction::SkipActiveMembers);
    }

    void switchSettingsHoldNoSecret()
    {
        ClusterConfig target;
        target.bootstrap = QStringLiteral("dr-1:9093,dr-2:9093");
        target.security = SecurityProtocol::SaslSsl;
        target.saslMechanism = QStringLiteral("SCRAM-SHA-512");
        target.saslUsername = QStringLiteral("mirror");
        target.saslPassword = QStringLiteral("very-secret-42");
        target.sslKeyPassword = QStringLiteral("key-secret-43");
        target.schemaRegistry.url = QStringLiteral("https://registry-dr:8081");
        const QJsonObject sw = cutoverSwitchJson(target);
        QCOMPARE(sw.value(QLatin1String("bootstrap.servers")).toString(), target.bootstrap);
        QCOMPARE(sw.value(QLatin1String("security.protocol")).toString(), QStringLiteral("SASL_SSL"));
        QCOMPARE(sw.value(QLatin1String("sasl.mechanism")).toString(), target.saslMechanism);
        QCOMPARE(sw.value(QLatin1String("schema.registry.url")).toString(), target.schemaRegistry.url);
        const QByteArray all = QJsonDocument(sw).toJson();
        QVERIFY(!all.contains("secret"));
        QVERIFY(!all.contains("mirror")); // the applications use their own users
    }

    void reportTextSaysWhatMoved()
    {
        QJsonObject r;
        r.insert(QStringLiteral("job"), QStringLiteral("orders to DR"));
        r.insert(QStringLiteral("finished"), QStringLiteral("2026-12-07T06:00:00.000Z"));
        CopyLag lag;
        lag.partitions = {{QStringLiteral("orders"), 0, 0, 120, 120, 0}, {QStringLiteral("orders"), 1, 20, 80, 80, 0}};
        MirrorJobSpec spec;
        spec.naming = NamingPolicy::Prefix;
        spec.source.alias = QStringLiteral("eu");
        r.insert(QStringLiteral("topics"), cutoverTopicsJson(spec, lag));
        GroupSyncEntry g;
        g.group = QStringLiteral("billing");
        GroupPartitionSync p;
        p.topic = QStringLiteral("orders");
        p.partition = 1;
        p.sourceCommitted = 60;
        decideEmptyPartition(&p, QStringLiteral("eu.orders"), 40, false, false);
        g.partitions = {p};
        r.insert(QStringLiteral("groups"), cutoverGroupsJson({g}));
        r.insert(QStringLiteral("notCopied"), 0);
        r.insert(QStringLiteral("switchTo"),
                 QJsonObject{{QStringLiteral("bootstrap.servers"), QStringLiteral("dr:9092")}});
        const QString text = cutoverReportText(r);
        QVERIFY2(text.contains(QLatin1String("orders -> eu.orders: 2 partitions, 180 records, 0 not copied")),
                 qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("billing: eu.orders[1]=40")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("records never copied: 0")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("bootstrap.servers=dr:9092")), qPrintable(text));
    }
};

QTEST_GUILESS_MAIN(TstCutover)
#include "tst_cutover.moc"
