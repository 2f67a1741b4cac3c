#include "model/cluster/ClusterDiff.h"
#include "model/tables/ClusterDiffModel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace md;

namespace {

MirrorJobSpec baseSpec(NamingPolicy naming)
{
    MirrorJobSpec s;
    s.name = QStringLiteral("t");
    s.source.alias = QStringLiteral("eu");
    s.source.bootstrap = QStringLiteral("kafka-eu:9092");
    s.target.alias = QStringLiteral("dr");
    s.target.bootstrap = QStringLiteral("kafka-dr:9092");
    s.include = {QStringLiteral(".*")};
    s.naming = naming;
    return s;
}

// A topic from a compact description: one (low, high) pair per partition.
TopicInfo topic(const QString &name, const QList<QPair<qint64, qint64>> &marks)
{
    TopicInfo t;
    t.name = name;
    for (int i = 0; i < marks.size(); ++i) {
        PartitionInfo p;
        p.id = i;
        p.leader = 1;
        p.replicas = {1};
        p.isr = {1};
        p.lowWatermark = marks[i].first;
        p.highWatermark = marks[i].second;
        t.partitions.append(p);
    }
    return t;
}

ClusterMetadata cluster(QList<TopicInfo> topics)
{
    ClusterMetadata m;
    std::sort(topics.begin(), topics.end(), [](const TopicInfo &a, const TopicInfo &b) { return a.name < b.name; });
    m.topics = topics;
    return m;
}

ConfigEntry entry(const QString &name, const QString &value, ConfigSource source)
{
    ConfigEntry e;
    e.name = name;
    e.value = value;
    e.source = source;
    e.isDefault = source == ConfigSource::Default;
    return e;
}

using Marks = QList<QPair<qint64, qint64>>;

} // namespace

class TstClusterDiff final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // One topic on each side (or none), under both namings: the verdict and the figures.
    void topicVerdict_data()
    {
        QTest::addColumn<int>("naming");
        QTest::addColumn<bool>("onSource");
        QTest::addColumn<Marks>("source");
        QTest::addColumn<bool>("onTarget");
        QTest::addColumn<Marks>("target");
        QTest::addColumn<int>("status");
        QTest::addColumn<qint64>("behind");
        QTest::addColumn<qint64>("ahead");
        QTest::addColumn<QList<int>>("partitionStatus");

        using P = PartitionDiff::Status;
        using S = TopicDiff::Status;
        for (const NamingPolicy naming : {NamingPolicy::Identity, NamingPolicy::Prefix}) {
            const QByteArray n = naming == NamingPolicy::Identity ? "identity " : "prefix ";
            QTest::newRow(QByteArray(n + "in sync").constData())
                << int(naming) << true << Marks{{0, 10}, {5, 20}} << true << Marks{{0, 10}, {0, 20}} << int(S::InSync)
                << qint64(0) << qint64(0) << QList<int>{int(P::InSync), int(P::InSync)};
            QTest::newRow(QByteArray(n + "missing on target").constData())
                << int(naming) << true << Marks{{0, 10}} << false << Marks{} << int(S::MissingOnTarget) << qint64(0)
                << qint64(0) << QList<int>{int(P::MissingOnTarget)};
            QTest::newRow(QByteArray(n + "missing on source").constData())
                << int(naming) << false << Marks{} << true << Marks{{0, 4}, {0, 0}} << int(S::MissingOnSource)
                << qint64(0) << qint64(0) << QList<int>{int(P::MissingOnSource), int(P::MissingOnSource)};
            QTest::newRow(QByteArray(n + "fewer target partitions").constData())
                << int(naming) << true << Marks{{0, 1}, {0, 2}, {0, 3}} << true << Marks{{0, 1}, {0, 2}}
                << int(S::PartitionCount) << qint64(0) << qint64(0)
                << QList<int>{int(P::InSync), int(P::InSync), int(P::MissingOnTarget)};
            QTest::newRow(QByteArray(n + "more target partitions").constData())
                << int(naming) << true << Marks{{0, 1}} << true << Marks{{0, 1}, {0, 0}} << int(S::PartitionCount)
                << qint64(0) << qint64(0) << QList<int>{int(P::InSync), int(P::MissingOnSource)};
            QTest::newRow(QByteArray(n + "behind").constData())
                << int(naming) << true << Marks{{0, 500}, {0, 100}} << true << Marks{{0, 200}, {0, 100}}
                << int(S::Behind) << qint64(300) << qint64(0) << QList<int>{int(P::Behind), int(P::InSync)};
            QTest::newRow(QByteArray(n + "ahead").constData())
                << int(naming) << true << Marks{{0, 10}} << true << Marks{{0, 13}} << int(S::Ahead) << qint64(0)
                << qint64(3) << QList<int>{int(P::Ahead)};
            QTest::newRow(QByteArray(n + "behind wins over ahead").constData())
                << int(naming) << true << Marks{{0, 10}, {0, 10}} << true << Marks{{0, 5}, {0, 12}} << int(S::Behind)
                << qint64(5) << qint64(2) << QList<int>{int(P::Behind), int(P::Ahead)};
            QTest::newRow(QByteArray(n + "watermarks unknown").constData())
                << int(naming) << true << Marks{{-1, -1}} << true << Marks{{0, 3}} << int(S::Error) << qint64(0)
                << qint64(0) << QList<int>{int(P::Unknown)};
        }
    }
    void topicVerdict()
    {
        QFETCH(int, naming);
        QFETCH(bool, onSource);
        QFETCH(Marks, source);
        QFETCH(bool, onTarget);
        QFETCH(Marks, target);
        QFETCH(int, status);
        QFETCH(qint64, behind);
        QFETCH(qint64, ahead);
        QFETCH(QList<int>, partitionStatus);

        const MirrorJobSpec spec = baseSpec(NamingPolicy(naming));
        const QString targetName =
            naming == int(NamingPolicy::Prefix) ? QStringLiteral("eu.orders") : QStringLiteral("orders");
        // An unrelated target topic never shows under prefix naming; under identity it is an orphan.
        const ClusterMetadata s =
            cluster(onSource ? QList<TopicInfo>{topic(QStringLiteral("orders"), source)} : QList<TopicInfo>{});
        QList<TopicInfo> t;
        if (onTarget)
            t.append(topic(targetName, target));
        if (naming == int(NamingPolicy::Prefix))
            t.append(topic(QStringLiteral("local-only"), {{0, 1}}));
        const ClusterDiff diff = diffClusters(spec, s, cluster(t));

        QCOMPARE(diff.topics.size(), 1);
        const TopicDiff &d = diff.topics.first();
        QCOMPARE(d.sourceTopic, QStringLiteral("orders"));
        QCOMPARE(d.targetTopic, targetName);
        QCOMPARE(int(d.status), status);
        QCOMPARE(d.recordsBehind, behind);
        QCOMPARE(d.recordsAhead, ahead);
        QList<int> actual;
        for (const PartitionDiff &p : d.partitions)
            actual << int(p.status);
        QCOMPARE(actual, partitionStatus);
        QCOMPARE(d.sourcePartitions, onSource ? int(source.size()) : -1);
        QCOMPARE(d.targetPartitions, onTarget ? int(target.size()) : -1);
        QCOMPARE(d.details().isEmpty(), status == int(TopicDiff::Status::InSync));
    }

    void countsSideBySide()
    {
        const MirrorJobSpec spec = baseSpec(NamingPolicy::Prefix);
        // Retention deleted the source's oldest records: the counts differ, the ends agree.
        const ClusterDiff d = diffClusters(spec, cluster({topic(QStringLiteral("a"), {{40, 100}, {0, 7}})}),
                                           cluster({topic(QStringLiteral("eu.a"), {{0, 100}, {0, 7}})}));
        QCOMPARE(d.topics.size(), 1);
        const TopicDiff &t = d.topics.first();
        QCOMPARE(t.status, TopicDiff::Status::InSync);
        QCOMPARE(t.sourceCount(), 67);
        QCOMPARE(t.targetCount(), 107);
        QCOMPARE(t.partitions[0].sourceCount(), 60);
        QCOMPARE(t.partitions[0].targetCount(), 100);
        QCOMPARE(t.partitions[0].sourceHigh, 100);
        QCOMPARE(t.partitions[0].targetHigh, 100);
    }

    void selectionAndNaming()
    {
        MirrorJobSpec spec = baseSpec(NamingPolicy::Prefix);
        spec.include = {QStringLiteral("orders.*"), QStringLiteral("gone")};
        spec.exclude = {QStringLiteral("orders-tmp")};
        const ClusterMetadata s = cluster(
            {topic(QStringLiteral("orders"), {{0, 1}}), topic(QStringLiteral("orders-tmp"), {{0, 1}}),
             topic(QStringLiteral("payments"), {{0, 1}}), topic(QStringLiteral("__consumer_offsets"), {{0, 1}})});
        // eu.gone: its source is gone; eu.payments and eu.orders-tmp are not this job's; dr.x is the target's own.
        const ClusterMetadata t =
            cluster({topic(QStringLiteral("eu.orders"), {{0, 1}}), topic(QStringLiteral("eu.gone"), {{0, 9}}),
                     topic(QStringLiteral("eu.payments"), {{0, 1}}), topic(QStringLiteral("eu.orders-tmp"), {{0, 1}}),
                     topic(QStringLiteral("orders"), {{0, 1}})});
        const ClusterDiff d = diffClusters(spec, s, t);
        QCOMPARE(d.topics.size(), 2);
        QCOMPARE(d.topics[0].targetTopic, QStringLiteral("eu.orders"));
        QCOMPARE(d.topics[0].status, TopicDiff::Status::InSync);
        QCOMPARE(d.topics[1].targetTopic, QStringLiteral("eu.gone"));
        QCOMPARE(d.topics[1].sourceTopic, QStringLiteral("gone"));
        QCOMPARE(d.topics[1].status, TopicDiff::Status::MissingOnSource);
        QCOMPARE(d.summary(), QStringLiteral("2 topics: 1 in sync, 1 missing on source"));

        const QList<QPair<QString, QString>> pairs = selectedTopicPairs(spec, s);
        QCOMPARE(pairs, (QList<QPair<QString, QString>>{{QStringLiteral("orders"), QStringLiteral("eu.orders")}}));
    }

    void templateInverse_data()
    {
        QTest::addColumn<QString>("tmpl");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("expected"); // empty: not produced by the naming
        QTest::newRow("suffix") << "${topic}.copy"
                                << "orders.copy"
                                << "orders";
        QTest::newRow("suffix no match") << "${topic}.copy"
                                         << "orders"
                                         << "";
        QTest::newRow("aliases") << "${source}-to-${target}.${topic}"
                                 << "eu-to-dr.o"
                                 << "o";
        QTest::newRow("empty middle") << "x-${topic}"
                                      << "x-"
                                      << "";
        QTest::newRow("topic twice") << "${topic}.${topic}"
                                     << "a.a"
                                     << "";
    }
    void templateInverse()
    {
        QFETCH(QString, tmpl);
        QFETCH(QString, target);
        QFETCH(QString, expected);
        MirrorJobSpec spec = baseSpec(NamingPolicy::Template);
        spec.nameTemplate = tmpl;
        const std::optional<QString> name = sourceNameFor(spec, target);
        QCOMPARE(name.value_or(QString()), expected);
    }

    void configs_data()
    {
        QTest::addColumn<QList<ConfigEntry>>("source");
        QTest::addColumn<QList<ConfigEntry>>("target");
        QTest::addColumn<QStringList>("configExclude");
        QTest::addColumn<QStringList>("different"); // "name=source|target", "-" for not set
        const auto dyn = [](const char *n, const char *v) {
            return entry(QLatin1String(n), QLatin1String(v), ConfigSource::Dynamic);
        };
        const auto def = [](const char *n, const char *v) {
            return entry(QLatin1String(n), QLatin1String(v), ConfigSource::Default);
        };
        QTest::newRow("same override") << QList<ConfigEntry>{dyn("retention.ms", "1000")}
                                       << QList<ConfigEntry>{dyn("retention.ms", "1000")} << QStringList{}
                                       << QStringList{};
        QTest::newRow("different override")
            << QList<ConfigEntry>{dyn("retention.ms", "1000"), def("cleanup.policy", "delete")}
            << QList<ConfigEntry>{dyn("retention.ms", "2000"), def("cleanup.policy", "delete")} << QStringList{}
            << QStringList{QStringLiteral("retention.ms=1000|2000")};
        QTest::newRow("override missing on target")
            << QList<ConfigEntry>{dyn("cleanup.policy", "compact")}
            << QList<ConfigEntry>{def("cleanup.policy", "delete")} << QStringList{}
            << QStringList{QStringLiteral("cleanup.policy=compact|delete")};
        QTest::newRow("target default equals the source override")
            << QList<ConfigEntry>{dyn("cleanup.policy", "delete")}
            << QList<ConfigEntry>{def("cleanup.policy", "delete")} << QStringList{} << QStringList{};
        QTest::newRow("override only on target")
            << QList<ConfigEntry>{def("retention.ms", "604800000")} << QList<ConfigEntry>{dyn("retention.ms", "1")}
            << QStringList{} << QStringList{QStringLiteral("retention.ms=604800000|1")};
        QTest::newRow("defaults differ: the clusters', not the topic's")
            << QList<ConfigEntry>{def("segment.bytes", "1")} << QList<ConfigEntry>{def("segment.bytes", "2")}
            << QStringList{} << QStringList{};
        QTest::newRow("MM2 does not copy min.insync.replicas")
            << QList<ConfigEntry>{dyn("min.insync.replicas", "2")}
            << QList<ConfigEntry>{def("min.insync.replicas", "1")} << QStringList{} << QStringList{};
        QTest::newRow("job's own exclude")
            << QList<ConfigEntry>{dyn("retention.ms", "5"), dyn("min.insync.replicas", "2")}
            << QList<ConfigEntry>{def("retention.ms", "6"), def("min.insync.replicas", "1")}
            << QStringList{QStringLiteral("retention\\..*")} << QStringList{QStringLiteral("min.insync.replicas=2|1")};
        ConfigEntry secret = dyn("sasl.jaas.config", "x");
        secret.sensitive = true;
        QTest::newRow("sensitive skipped")
            << QList<ConfigEntry>{secret} << QList<ConfigEntry>{} << QStringList{} << QStringList{};
    }
    void configs()
    {
        QFETCH(QList<ConfigEntry>, source);
        QFETCH(QList<ConfigEntry>, target);
        QFETCH(QStringList, configExclude);
        QFETCH(QStringList, different);
        MirrorJobSpec spec = baseSpec(NamingPolicy::Identity);
        spec.configExclude = configExclude;
        const ClusterMetadata s = cluster({topic(QStringLiteral("a"), {{0, 3}})});
        const ClusterMetadata t = cluster({topic(QStringLiteral("a"), {{0, 3}})});
        const ClusterDiff d =
            diffClusters(spec, s, t, {{QStringLiteral("a"), source}}, {{QStringLiteral("a"), target}});
        QCOMPARE(d.topics.size(), 1);
        QVERIFY(d.topics[0].configsCompared);
        QStringList actual;
        for (const ConfigDiff &c : d.topics[0].configs)
            actual << c.name + QLatin1Char('=') + c.source.value_or(QStringLiteral("-")) + QLatin1Char('|') +
                          c.target.value_or(QStringLiteral("-"));
        QCOMPARE(actual, different);
        QCOMPARE(d.topics[0].status, different.isEmpty() ? TopicDiff::Status::InSync : TopicDiff::Status::Configs);

        // Without the target's configs nothing is compared (and nothing claimed).
        const ClusterDiff partial = diffClusters(spec, s, t, {{QStringLiteral("a"), source}}, {});
        QVERIFY(!partial.topics[0].configsCompared);
        QCOMPARE(partial.topics[0].status, TopicDiff::Status::InSync);
    }

    void summary()
    {
        const MirrorJobSpec spec = baseSpec(NamingPolicy::Prefix);
        QList<TopicInfo> s;
        QList<TopicInfo> t;
        for (int i = 0; i < 10; ++i) {
            const QString name = QStringLiteral("t%1").arg(i);
            s << topic(name, {{0, 5}});
            t << topic(QStringLiteral("eu.") + name, {{0, 5}});
        }
        s << topic(QStringLiteral("missing"), {{0, 5}});
        s << topic(QStringLiteral("slow"), {{0, 400}, {0, 100}});
        t << topic(QStringLiteral("eu.slow"), {{0, 100}, {0, 100}});
        const ClusterDiff d = diffClusters(spec, cluster(s), cluster(t));
        QCOMPARE(d.summary(), QStringLiteral("12 topics: 10 in sync, 1 missing on target, 1 behind by 300 records"));
    }

    void model()
    {
        const MirrorJobSpec spec = baseSpec(NamingPolicy::Prefix);
        const ClusterMetadata s = cluster({topic(QStringLiteral("a"), {{0, 5}, {0, 6}}),
                                           topic(QStringLiteral("b"), {{0, 9}}), topic(QStringLiteral("c"), {{0, 1}})});
        const ClusterMetadata t =
            cluster({topic(QStringLiteral("eu.a"), {{0, 5}, {0, 6}}), topic(QStringLiteral("eu.b"), {{0, 4}})});
        ClusterDiffModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setDiff(diffClusters(spec, s, t));
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(m.rowCount(m.index(0, 0)), 2);
        QCOMPARE(m.rowCount(m.index(0, 1)), 0);
        QCOMPARE(m.data(m.index(1, ClusterDiffModel::StatusColumn)).toString(), QStringLiteral("behind"));
        QCOMPARE(m.data(m.index(1, ClusterDiffModel::DifferenceColumn)).toLongLong(), 5);
        const QModelIndex bPart = m.index(0, ClusterDiffModel::SourceEndColumn, m.index(1, 0));
        QCOMPARE(bPart.parent(), m.index(1, 0));
        QCOMPARE(m.data(bPart).toLongLong(), 9);
        QCOMPARE(m.data(bPart.siblingAtColumn(ClusterDiffModel::TargetEndColumn)).toLongLong(), 4);
        QCOMPARE(m.data(m.index(2, ClusterDiffModel::StatusColumn)).toString(), QStringLiteral("missing on target"));
        QCOMPARE(m.data(m.index(2, ClusterDiffModel::TargetPartitionsColumn)).toString(), QStringLiteral("\u2014"));

        m.setDifferencesOnly(true);
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.data(m.index(0, 0)).toString(), QStringLiteral("b"));
        QCOMPARE(m.data(m.index(1, 0)).toString(), QStringLiteral("c"));
        m.setDifferencesOnly(false);
        QCOMPARE(m.rowCount(), 3);
        m.setDiff({});
        QCOMPARE(m.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TstClusterDiff)
#include "tst_clusterdiff.moc"
