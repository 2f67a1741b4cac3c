#include "engine/mirror/TopicNaming.h"

#include <QRegularExpression>
#include <QTest>

using namespace md;

namespace {

MirrorJobSpec baseSpec()
{
    MirrorJobSpec s;
    s.name = QStringLiteral("t");
    s.source.alias = QStringLiteral("eu");
    s.source.bootstrap = QStringLiteral("kafka-eu:9092");
    s.target.alias = QStringLiteral("dr");
    s.target.bootstrap = QStringLiteral("kafka-dr:9092");
    s.include = {QStringLiteral(".*")};
    return s;
}

} // namespace

class TstTopicNaming final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void targetName_data()
    {
        QTest::addColumn<int>("policy");
        QTest::addColumn<QString>("separator");
        QTest::addColumn<QString>("tmpl");
        QTest::addColumn<QString>("topic");
        QTest::addColumn<QString>("expected");
        const int id = int(NamingPolicy::Identity), pre = int(NamingPolicy::Prefix), tp = int(NamingPolicy::Template);
        QTest::newRow("identity") << id << "."
                                  << ""
                                  << "orders"
                                  << "orders";
        QTest::newRow("prefix dot") << pre << "."
                                    << ""
                                    << "orders"
                                    << "eu.orders";
        QTest::newRow("prefix custom sep") << pre << "_"
                                           << ""
                                           << "orders.v1"
                                           << "eu_orders.v1";
        QTest::newRow("prefix chained") << pre << "."
                                        << ""
                                        << "us.orders"
                                        << "eu.us.orders";
        QTest::newRow("template prefix") << tp << "."
                                         << "dr-${topic}"
                                         << "orders"
                                         << "dr-orders";
        QTest::newRow("template suffix") << tp << "."
                                         << "${topic}.copy"
                                         << "orders"
                                         << "orders.copy";
        QTest::newRow("template aliases") << tp << "."
                                          << "${source}-to-${target}.${topic}"
                                          << "o"
                                          << "eu-to-dr.o";
        QTest::newRow("template plain") << tp << "."
                                        << "${topic}"
                                        << "orders"
                                        << "orders";
    }
    void targetName()
    {
        QFETCH(int, policy);
        QFETCH(QString, separator);
        QFETCH(QString, tmpl);
        QFETCH(QString, topic);
        QFETCH(QString, expected);
        MirrorJobSpec s = baseSpec();
        s.naming = NamingPolicy(policy);
        s.separator = separator;
        s.nameTemplate = tmpl;
        QCOMPARE(targetTopicName(s, topic), expected);
    }

    void internal_data()
    {
        QTest::addColumn<QString>("topic");
        QTest::addColumn<bool>("internal");
        QTest::newRow("consumer offsets") << "__consumer_offsets" << true;
        QTest::newRow("txn state") << "__transaction_state" << true;
        QTest::newRow("share state") << "__share_group_state" << true;
        QTest::newRow("dot") << ".hidden" << true;
        QTest::newRow("heartbeats") << "heartbeats" << true;
        QTest::newRow("mirrored heartbeats") << "eu.heartbeats" << true;
        QTest::newRow("checkpoints") << "eu.checkpoints.internal" << true;
        QTest::newRow("offset syncs") << "mm2-offset-syncs.dr.internal" << true;
        QTest::newRow("mm2 configs") << "mm2-configs.eu.internal" << true;
        QTest::newRow("mm2 status") << "mm2-status.eu.internal" << true;
        QTest::newRow("mm2 offsets") << "mm2-offsets.eu.internal" << true;
        QTest::newRow("connect configs") << "connect-configs" << true;
        QTest::newRow("connect offsets") << "connect-offsets" << true;
        QTest::newRow("connect status") << "connect-status" << true;
        QTest::newRow("dash internal") << "app-changelog-internal" << true;
        QTest::newRow("replica") << "orders.replica" << true;
        QTest::newRow("schemas") << "_schemas" << true;
        QTest::newRow("confluent") << "_confluent-metrics" << true;
        QTest::newRow("offset map") << "mirrordesk.mirrordesk-orders.offset-map" << true;
        QTest::newRow("other offset map") << "eu.mirrordesk.x.offset-map" << true;
        QTest::newRow("user") << "orders" << false;
        QTest::newRow("user single underscore") << "_orders" << false;
        QTest::newRow("user connect prefix") << "connect-events" << false;
        QTest::newRow("user heartbeat-ish") << "heartbeats-app" << false;
        QTest::newRow("user internal in middle") << "internal.orders" << false;
        QTest::newRow("user offset map in middle") << "orders.offset-map.v1" << false;
    }
    void internal()
    {
        QFETCH(QString, topic);
        QFETCH(bool, internal);
        QCOMPARE(isInternalTopic(topic), internal);
    }

    void selected_data()
    {
        QTest::addColumn<QStringList>("include");
        QTest::addColumn<QStringList>("exclude");
        QTest::addColumn<bool>("excludeInternal");
        QTest::addColumn<int>("policy");
        QTest::addColumn<QString>("targetBootstrap");
        QTest::addColumn<QString>("topic");
        QTest::addColumn<bool>("selected");
        const QStringList all{QStringLiteral(".*")};
        const QStringList orders{QStringLiteral("orders\\..*")};
        const int id = int(NamingPolicy::Identity), pre = int(NamingPolicy::Prefix), tp = int(NamingPolicy::Template);
        const QString other = QStringLiteral("kafka-dr:9092");
        const QString same = QStringLiteral("KAFKA-EU:9092");
        QTest::newRow("whole-name include") << orders << QStringList() << true << pre << other << "orders.eu" << true;
        QTest::newRow("include is anchored start")
            << orders << QStringList() << true << pre << other << "x.orders.eu" << false;
        QTest::newRow("include is anchored end")
            << QStringList{QStringLiteral("orders")} << QStringList() << true << pre << other << "orders2" << false;
        QTest::newRow("second include") << QStringList{QStringLiteral("a"), QStringLiteral("b.*")} << QStringList()
                                        << true << pre << other << "b1" << true;
        QTest::newRow("exclude") << orders << QStringList{QStringLiteral(".*\\.tmp")} << true << pre << other
                                 << "orders.x.tmp" << false;
        QTest::newRow("exclude is anchored")
            << orders << QStringList{QStringLiteral("tmp")} << true << pre << other << "orders.tmp" << true;
        QTest::newRow("internal excluded")
            << all << QStringList() << true << id << other << "__consumer_offsets" << false;
        QTest::newRow("mm2 internal excluded")
            << all << QStringList() << true << id << other << "mm2-offset-syncs.dr.internal" << false;
        QTest::newRow("internal kept when asked") << all << QStringList() << false << id << other << "_schemas" << true;
        // A copied map would be read as the target's own: never, whatever excludeInternal says.
        QTest::newRow("offset map never mirrored")
            << all << QStringList() << false << id << other << "mirrordesk.back.offset-map" << false;
        QTest::newRow("offset map never mirrored, prefix")
            << all << QStringList() << false << pre << other << "mirrordesk.orders-dr.offset-map" << false;
        QTest::newRow("from target, prefix") << all << QStringList() << true << pre << other << "dr.orders" << false;
        QTest::newRow("from target needs separator")
            << all << QStringList() << true << pre << other << "drorders" << true;
        QTest::newRow("identity keeps dr. names") << all << QStringList() << true << id << other << "dr.orders" << true;
        QTest::newRow("chained source prefix ok")
            << all << QStringList() << true << pre << other << "us.orders" << true;
        QTest::newRow("same cluster identity loops") << all << QStringList() << true << id << same << "orders" << false;
        QTest::newRow("same cluster prefix own output")
            << all << QStringList() << true << pre << same << "eu.orders" << false;
        QTest::newRow("same cluster prefix original")
            << all << QStringList() << true << pre << same << "orders" << true;
        QTest::newRow("same cluster template own output")
            << all << QStringList() << true << tp << same << "copy-orders" << false;
        QTest::newRow("same cluster template original")
            << all << QStringList() << true << tp << same << "orders" << true;
        QTest::newRow("invalid include") << QStringList{QStringLiteral("(")} << QStringList() << true << id << other
                                         << "(" << false;
        QTest::newRow("invalid target name")
            << all << QStringList() << true << tp << other << QString(250, QLatin1Char('x')) << false;
    }
    void selected()
    {
        QFETCH(QStringList, include);
        QFETCH(QStringList, exclude);
        QFETCH(bool, excludeInternal);
        QFETCH(int, policy);
        QFETCH(QString, targetBootstrap);
        QFETCH(QString, topic);
        QFETCH(bool, selected);
        MirrorJobSpec s = baseSpec();
        s.include = include;
        s.exclude = exclude;
        s.excludeInternalTopics = excludeInternal;
        s.naming = NamingPolicy(policy);
        s.nameTemplate = QStringLiteral("copy-${topic}");
        s.target.bootstrap = targetBootstrap;
        QCOMPARE(topicSelected(s, topic), selected);
        QCOMPARE(topicExclusionReason(s, topic).isEmpty(), selected);
    }

    void anOffsetMapSaysWhy()
    {
        MirrorJobSpec s = baseSpec();
        s.include = {QStringLiteral(".*")};
        s.excludeInternalTopics = false;
        QVERIFY2(topicExclusionReason(s, QStringLiteral("x.offset-map")).contains(QLatin1String("offset map")),
                 qPrintable(topicExclusionReason(s, QStringLiteral("x.offset-map"))));
        QVERIFY(topicSelected(s, QStringLiteral("orders.offset-map.v1"))); // a user's topic of a like name
    }

    void templateWithoutPlaceholder()
    {
        MirrorJobSpec s = baseSpec();
        s.naming = NamingPolicy::Template;
        s.nameTemplate = QStringLiteral("all-in-one");
        QVERIFY(!topicSelected(s, QStringLiteral("orders")));
        QVERIFY(topicExclusionReason(s, QStringLiteral("orders")).contains(QLatin1String("${topic}")));
    }

    void subscription_data()
    {
        QTest::addColumn<QStringList>("include");
        QTest::addColumn<QString>("expected");
        QTest::newRow("one") << QStringList{QStringLiteral("orders\\..*")} << "^((orders\\..*))$";
        QTest::newRow("two") << QStringList{QStringLiteral("a"), QStringLiteral("b[0-9]+")} << "^((a)|(b[0-9]+))$";
        QTest::newRow("pcre group") << QStringList{QStringLiteral("(?:a|b)")} << "^.*";
        QTest::newRow("pcre class") << QStringList{QStringLiteral("a\\d+")} << "^.*";
        QTest::newRow("lazy") << QStringList{QStringLiteral("a.*?b")} << "^.*";
        QTest::newRow("escaped dot ok") << QStringList{QStringLiteral("a\\.b")} << "^((a\\.b))$";
        QTest::newRow("none") << QStringList() << "^$";
    }
    void subscription()
    {
        QFETCH(QStringList, include);
        QFETCH(QString, expected);
        MirrorJobSpec s = baseSpec();
        s.include = include;
        const QString re = subscriptionRegex(s);
        QCOMPARE(re, expected);
        QVERIFY(re.startsWith(QLatin1Char('^')));
        // Coarse pre-filter: it must accept every topic the job selects.
        for (const QString &topic : {QStringLiteral("orders.x"), QStringLiteral("a"), QStringLiteral("b12"),
                                     QStringLiteral("a17"), QStringLiteral("axxb")}) {
            if (topicSelected(s, topic))
                QVERIFY2(QRegularExpression(re).match(topic).hasMatch(), qPrintable(topic));
        }
    }

    void sameClusterDetection()
    {
        MirrorJobSpec s = baseSpec();
        QVERIFY(!sameCluster(s));
        s.target.bootstrap = QStringLiteral(" kafka-eu:9092 ");
        QVERIFY(sameCluster(s));
        s.source.bootstrap = QStringLiteral("a:1,b:2");
        s.target.bootstrap = QStringLiteral("B:2, a:1");
        QVERIFY(sameCluster(s));
        s.target.bootstrap = QStringLiteral("a:1");
        QVERIFY(!sameCluster(s));
    }
};

QTEST_GUILESS_MAIN(TstTopicNaming)
#include "tst_topicnaming.moc"
