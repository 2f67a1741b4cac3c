// The topic administration models (configs with sources, partition details,
// ACLs) under QAbstractItemModelTester in Fatal mode, their merge-by-key
// behaviour (no resets, unchanged refresh emits nothing), and the input checks
// of the topic dialogs (Kafka's topic name rules, key=value config rows).
#include "model/cluster/TopicAdminInput.h"
#include "model/tables/AclTableModel.h"
#include "model/tables/PartitionDetailModel.h"
#include "model/tables/TopicConfigModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace md;

namespace {
ConfigEntry config(const QString &name, const QString &value, ConfigSource source, bool sensitive = false,
                   bool readOnly = false)
{
    ConfigEntry e;
    e.name = name;
    e.value = sensitive ? std::optional<QString>() : std::optional<QString>(value);
    e.source = source;
    e.sensitive = sensitive;
    e.readOnly = readOnly;
    e.isDefault = source == ConfigSource::Default;
    return e;
}

PartitionInfo partition(int id, int leader, QList<int> replicas, QList<int> isr, qint64 low = -1, qint64 high = -1)
{
    PartitionInfo p;
    p.id = id;
    p.leader = leader;
    p.replicas = std::move(replicas);
    p.isr = std::move(isr);
    p.lowWatermark = low;
    p.highWatermark = high;
    return p;
}

AclEntry acl(const QString &name, const QString &principal, const QString &op,
             const QString &perm = QStringLiteral("ALLOW"))
{
    return AclEntry{QStringLiteral("TOPIC"), name, QStringLiteral("LITERAL"), principal, QStringLiteral("*"), op, perm};
}

QStringList column(const QAbstractItemModel &m, int col, int role = Qt::DisplayRole)
{
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r)
        out.append(m.index(r, col).data(role).toString());
    return out;
}
} // namespace

class TestTopicModels final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void configModelShowsSourcesAndMasksSecrets()
    {
        TopicConfigModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(TopicConfigModel::SortRole);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);

        // Out of order on purpose: the model sorts by name.
        model.setConfigs(
            {config(QStringLiteral("retention.ms"), QStringLiteral("1000"), ConfigSource::Dynamic),
             config(QStringLiteral("cleanup.policy"), QStringLiteral("delete"), ConfigSource::Default),
             config(QStringLiteral("sasl.jaas.config"), {}, ConfigSource::Static, true),
             config(QStringLiteral("min.insync.replicas"), QStringLiteral("2"), ConfigSource::DynamicBroker),
             config(QStringLiteral("segment.bytes"), QStringLiteral("1073741824"), ConfigSource::Static, false, true)});
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(column(model, TopicConfigModel::Name),
                 (QStringList{QStringLiteral("cleanup.policy"), QStringLiteral("min.insync.replicas"),
                              QStringLiteral("retention.ms"), QStringLiteral("sasl.jaas.config"),
                              QStringLiteral("segment.bytes")}));
        QCOMPARE(column(model, TopicConfigModel::Source),
                 (QStringList{QStringLiteral("default"), QStringLiteral("dynamic broker"), QStringLiteral("dynamic"),
                              QStringLiteral("static"), QStringLiteral("static")}));
        const int secret = model.rowOf(QStringLiteral("sasl.jaas.config"));
        QCOMPARE(model.index(secret, TopicConfigModel::Value).data().toString(), QStringLiteral("******"));
        QVERIFY(model.index(secret, 0).data(TopicConfigModel::SensitiveRole).toBool());
        // Even a sensitive value the broker did send is never shown.
        ConfigEntry leaked = config(QStringLiteral("ssl.key.password"), {}, ConfigSource::Dynamic, true);
        leaked.value = QStringLiteral("hunter2");
        QCOMPARE(TopicConfigModel::maskedValue(leaked), QStringLiteral("******"));
        QCOMPARE(
            model.index(model.rowOf(QStringLiteral("segment.bytes")), TopicConfigModel::ReadOnly).data().toString(),
            QStringLiteral("read-only"));
        QCOMPARE(model.index(model.rowOf(QStringLiteral("retention.ms")), 0).data(TopicConfigModel::SourceRole).toInt(),
                 int(ConfigSource::Dynamic));
        QCOMPARE(model.rowOf(QStringLiteral("nope")), -1);
        QVERIFY(!model.entry(QStringLiteral("nope")));
    }

    void configModelMergesWithoutReset()
    {
        TopicConfigModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        const QList<ConfigEntry> first{config(QStringLiteral("a"), QStringLiteral("1"), ConfigSource::Default),
                                       config(QStringLiteral("b"), QStringLiteral("2"), ConfigSource::Default),
                                       config(QStringLiteral("c"), QStringLiteral("3"), ConfigSource::Default)};
        model.setConfigs(first);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        model.setConfigs(first);
        QCOMPARE(changed.size() + inserted.size() + removed.size(), 0); // unchanged refresh: silent

        // b becomes dynamic (an AlterConfigs), c goes, d arrives.
        model.setConfigs({config(QStringLiteral("a"), QStringLiteral("1"), ConfigSource::Default),
                          config(QStringLiteral("b"), QStringLiteral("20"), ConfigSource::Dynamic),
                          config(QStringLiteral("d"), QStringLiteral("4"), ConfigSource::Default)});
        QCOMPARE(reset.size(), 0);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex().row(), 1);
        QCOMPARE(removed.size(), 1);
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(column(model, TopicConfigModel::Value),
                 (QStringList{QStringLiteral("1"), QStringLiteral("20"), QStringLiteral("4")}));
        // Duplicate names keep one row (the merge needs unique keys).
        model.setConfigs({config(QStringLiteral("x"), QStringLiteral("1"), ConfigSource::Default),
                          config(QStringLiteral("x"), QStringLiteral("2"), ConfigSource::Default)});
        QCOMPARE(model.rowCount(), 1);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(reset.size(), 0);
    }

    void partitionModelMarksUnderReplicated()
    {
        PartitionDetailModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(PartitionDetailModel::SortRole);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);

        model.setPartitions({partition(2, -1, {1, 2}, {}, -1, -1), partition(0, 1, {1, 2, 3}, {1, 2, 3}, 5, 15),
                             partition(1, 2, {2, 3, 1}, {2}, 0, 7)});
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(column(model, PartitionDetailModel::Partition),
                 (QStringList{QStringLiteral("0"), QStringLiteral("1"), QStringLiteral("2")}));
        QCOMPARE(model.index(0, PartitionDetailModel::Replicas).data().toString(), QStringLiteral("1, 2, 3"));
        QCOMPARE(model.index(1, PartitionDetailModel::Isr).data().toString(), QStringLiteral("2"));
        QCOMPARE(model.index(0, PartitionDetailModel::Messages).data(PartitionDetailModel::SortRole).toLongLong(), 10);
        QCOMPARE(model.index(2, PartitionDetailModel::Messages).data().toString(), QStringLiteral("?"));
        QCOMPARE(model.index(2, PartitionDetailModel::Leader).data().toString(), QStringLiteral("none"));

        QVERIFY(!model.index(0, 0).data(PartitionDetailModel::UnderReplicatedRole).toBool());
        QVERIFY(model.index(1, 0).data(PartitionDetailModel::UnderReplicatedRole).toBool());
        QVERIFY(
            model.index(1, PartitionDetailModel::Status).data().toString().contains(QLatin1String("under-replicated")));
        QVERIFY(model.index(1, PartitionDetailModel::Status).data().toString().contains(QLatin1String("1 of 3")));
        QVERIFY(model.index(1, 0).data(Qt::BackgroundRole).isValid());
        QVERIFY(!model.index(0, 0).data(Qt::BackgroundRole).isValid());
        QVERIFY(model.index(2, 0).data(PartitionDetailModel::OfflineRole).toBool());
        QCOMPARE(model.index(2, PartitionDetailModel::Status).data().toString(), QStringLiteral("offline"));
        QCOMPARE(model.underReplicatedCount(), 2);
        QVERIFY(model.index(1, 0).data(Qt::ToolTipRole).toString().contains(QLatin1String("3, 1")));

        // Sorting by status puts the worst first (offline, under-replicated, ok).
        proxy.sort(PartitionDetailModel::Status, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, PartitionDetailModel::Partition).data().toInt(), 2);
        QCOMPARE(proxy.index(2, PartitionDetailModel::Partition).data().toInt(), 0);
        // Watermarks sort as numbers, not text (10 after 9).
        model.setPartitions({partition(0, 1, {1}, {1}, 0, 9), partition(1, 1, {1}, {1}, 0, 10)});
        proxy.sort(PartitionDetailModel::HighWatermark, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, PartitionDetailModel::Partition).data().toInt(), 0);
        QCOMPARE(proxy.index(1, PartitionDetailModel::Partition).data().toInt(), 1);
    }

    void partitionModelMergesByIdSoSelectionSurvives()
    {
        PartitionDetailModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setPartitions({partition(0, 1, {1}, {1}, 0, 5), partition(1, 1, {1}, {1}, 0, 5)});
        const QPersistentModelIndex second = model.index(1, PartitionDetailModel::HighWatermark);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.setPartitions({partition(0, 1, {1}, {1}, 0, 5), partition(1, 1, {1}, {1}, 0, 9),
                             partition(2, 1, {1}, {1}, 0, 0)}); // messages on 1, a partition added
        QCOMPARE(reset.size(), 0);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(inserted.size(), 1);
        QVERIFY(second.isValid());
        QCOMPARE(second.row(), 1);
        QCOMPARE(second.data(PartitionDetailModel::SortRole).toLongLong(), 9);
        model.setPartitions(
            {partition(0, 1, {1}, {1}, 0, 5), partition(1, 1, {1}, {1}, 0, 9), partition(2, 1, {1}, {1}, 0, 0)});
        QCOMPARE(changed.size(), 1); // nothing changed: nothing emitted
    }

    void aclModel()
    {
        AclTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(AclTableModel::SortRole);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setAcls({acl(QStringLiteral("orders"), QStringLiteral("User:bob"), QStringLiteral("READ")),
                       acl(QStringLiteral("audit"), QStringLiteral("User:alice"), QStringLiteral("WRITE"),
                           QStringLiteral("DENY")),
                       acl(QStringLiteral("orders"), QStringLiteral("User:bob"), QStringLiteral("READ"))});
        QCOMPARE(model.rowCount(), 2); // the exact duplicate collapses
        QCOMPARE(column(model, AclTableModel::ResourceName),
                 (QStringList{QStringLiteral("audit"), QStringLiteral("orders")}));
        QCOMPARE(model.index(0, AclTableModel::Permission).data().toString(), QStringLiteral("DENY"));
        QVERIFY(model.index(0, AclTableModel::Permission).data(Qt::ForegroundRole).isValid());
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        // A binding differing only in permission is another binding.
        model.setAcls({acl(QStringLiteral("orders"), QStringLiteral("User:bob"), QStringLiteral("READ")),
                       acl(QStringLiteral("orders"), QStringLiteral("User:bob"), QStringLiteral("READ"),
                           QStringLiteral("DENY"))});
        QCOMPARE(reset.size(), 0);
        QCOMPARE(removed.size(), 1);
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(model.rowCount(), 2);
        proxy.setFilterKeyColumn(-1);
        proxy.setFilterFixedString(QStringLiteral("deny"));
        proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
        QCOMPARE(proxy.rowCount(), 1);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void topicNameRules_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("problem"); // a word the reason must contain; empty = legal
        QTest::newRow("plain") << QStringLiteral("orders") << QString();
        QTest::newRow("all legal chars") << QStringLiteral("a-Z_0.9") << QString();
        QTest::newRow("249 chars") << QString(249, QLatin1Char('x')) << QString();
        QTest::newRow("250 chars") << QString(250, QLatin1Char('x')) << QStringLiteral("249");
        QTest::newRow("empty") << QString() << QStringLiteral("empty");
        QTest::newRow("dot") << QStringLiteral(".") << QStringLiteral("\".\"");
        QTest::newRow("dotdot") << QStringLiteral("..") << QStringLiteral("\"..\"");
        QTest::newRow("three dots are legal") << QStringLiteral("...") << QString();
        QTest::newRow("space") << QStringLiteral("my topic") << QStringLiteral("a space at position 3");
        QTest::newRow("slash") << QStringLiteral("a/b") << QStringLiteral("'/' at position 2");
        QTest::newRow("non-ascii") << QStringLiteral("caf\u00e9") << QStringLiteral("position 4");
    }

    void topicNameRules()
    {
        QFETCH(QString, name);
        QFETCH(QString, problem);
        const QString got = topicNameProblem(name);
        if (problem.isEmpty())
            QVERIFY2(got.isEmpty(), qPrintable(got));
        else
            QVERIFY2(got.contains(problem), qPrintable(got));
    }

    void metricCollisionWarning()
    {
        QVERIFY(topicNameHasMetricCollisionRisk(QStringLiteral("a.b_c")));
        QVERIFY(!topicNameHasMetricCollisionRisk(QStringLiteral("a.b.c")));
    }

    void configLines()
    {
        const ParsedConfigs ok = parseConfigLines(QStringLiteral(
            "# retention\n retention.ms = 1000 \n\ncleanup.policy=compact,delete\nmessage.format=a=b\n"));
        QVERIFY2(ok.problems.isEmpty(), qPrintable(ok.problems.join(QLatin1Char('\n'))));
        QCOMPARE(ok.configs.size(), 3);
        QCOMPARE(ok.configs.value(QStringLiteral("retention.ms")), QStringLiteral("1000"));
        QCOMPARE(ok.configs.value(QStringLiteral("cleanup.policy")), QStringLiteral("compact,delete"));
        QCOMPARE(ok.configs.value(QStringLiteral("message.format")), QStringLiteral("a=b"));

        const ParsedConfigs bad =
            parseConfigLines(QStringLiteral("retention.ms=1\nno equals here\n=value\nretention.ms=2\nbad key=1"));
        QCOMPARE(bad.problems.size(), 4);
        QVERIFY(bad.problems.at(0).startsWith(QLatin1String("line 2")));
        QVERIFY(bad.problems.at(1).startsWith(QLatin1String("line 3")));
        QVERIFY(bad.problems.at(2).startsWith(QLatin1String("line 4")));
        QVERIFY(bad.problems.at(2).contains(QLatin1String("twice")));
        QVERIFY(bad.problems.at(3).startsWith(QLatin1String("line 5")));
        QCOMPARE(bad.configs.value(QStringLiteral("retention.ms")), QStringLiteral("1"));
    }
};

QTEST_GUILESS_MAIN(TestTopicModels)
#include "tst_topicmodels.moc"
