// The paths made for big clusters (issue 20), reached on a small real cluster
// by making their limits small: watermarks read in calls of whole topics of
// about ProbeOptions::watermarkChunk partitions, a connection's first answer
// listing the topics before their message counts above
// ClusterClientOptions::listFirstPartitions, and metadata rounds that grow
// after a timeout so a slow broker still answers (latency from Toxiproxy on a
// broker of this test's own). The benchmark (tests/bench/large-cluster.sh)
// measures them at 50,000 partitions; this fails when one breaks.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/admin/ClusterClient.h"
#include "engine/admin/ProbeClient.h"
#include "model/tables/TopicTableModel.h"
#include "network_faults.h"

#include <QElapsedTimer>
#include <QScopeGuard>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

using namespace md;
using namespace md::test;

namespace {

const QString kSlowBroker = QStringLiteral("slowprobe");

// Records per partition: some partitions empty, the rest 1-3 records.
int recordsFor(int topic, int partition)
{
    return (topic * 7 + partition) % 4;
}

// Creates a topic per count, writes recordsFor() records to each partition and
// moves the log start of the partitions with 2+ records of every third topic to
// 1, so low watermarks are not all 0.
bool makeTopics(const QString &prefix, const QList<int> &partitionCounts, QStringList *names, QString *error)
{
    const QString bootstrap = sourceBootstrap();
    for (int i = 0; i < partitionCounts.size(); ++i) {
        const QString name = uniqueName(prefix + QString::number(i));
        if (!createTopic(bootstrap, name, partitionCounts[i], {}, error))
            return false;
        QList<TestRecord> records;
        QMap<int, qint64> trim;
        for (int p = 0; p < partitionCounts[i]; ++p) {
            for (int n = 0; n < recordsFor(i, p); ++n) {
                TestRecord r;
                r.value = QByteArray::number(n);
                r.partition = p;
                records.append(r);
            }
            if (i % 3 == 0 && recordsFor(i, p) >= 2)
                trim.insert(p, 1);
        }
        if (!records.isEmpty() && !produce(bootstrap, name, records, error))
            return false;
        if (!trim.isEmpty() && !deleteRecords(bootstrap, name, trim, error))
            return false;
        names->append(name);
    }
    return true;
}

// Empty when every partition of `topic`, and no other, has the low and high
// watermark an independent reader sees; otherwise what differs.
QString compareWithReader(const TopicInfo &topic)
{
    QString error;
    const std::optional<Watermarks> expected = watermarks(sourceBootstrap(), topic.name, &error);
    if (!expected)
        return error;
    Watermarks seen;
    for (const PartitionInfo &p : topic.partitions) {
        if (seen.contains(p.id))
            return QStringLiteral("%1 [%2] twice").arg(topic.name).arg(p.id);
        seen.insert(p.id, {p.lowWatermark, p.highWatermark});
    }
    if (seen.keys() != expected->keys())
        return QStringLiteral("%1: %2 partitions, the reader sees %3")
            .arg(topic.name)
            .arg(seen.size())
            .arg(expected->size());
    for (auto it = expected->cbegin(); it != expected->cend(); ++it) {
        if (seen.value(it.key()) != it.value())
            return QStringLiteral("%1 [%2]: low/high %3/%4, the reader sees %5/%6")
                .arg(topic.name)
                .arg(it.key())
                .arg(seen.value(it.key()).first)
                .arg(seen.value(it.key()).second)
                .arg(it.value().first)
                .arg(it.value().second);
    }
    return {};
}

QList<TopicInfo> pick(const ClusterMetadata &md, const QStringList &names, QString *missing)
{
    QList<TopicInfo> out;
    for (const QString &name : names) {
        if (const TopicInfo *t = md.topic(name))
            out.append(*t);
        else
            *missing += name + QLatin1Char(' ');
    }
    return out;
}

int partitionTotal(const ClusterMetadata &md)
{
    int n = 0;
    for (const TopicInfo &t : md.topics)
        n += int(t.partitions.size());
    return n;
}

} // namespace

class TstLargeCluster final : public QObject {
    Q_OBJECT

private:
    QStringList m_listTopics; // for the first-answer cases, made once
    bool m_slowStarted = false;

private Q_SLOTS:
    void cleanupTestCase()
    {
        if (!m_slowStarted)
            return;
        runHarness({QStringLiteral("stop"), kSlowBroker});
        runHarness({QStringLiteral("proxy-stop")});
    }

    // Chunks of 7 over topics of 3+4 (a chunk filled exactly), 5+2, 9 (larger
    // than a chunk: alone), 1+6, 4 (the next 4 would cross the border), 4+2
    // (the last chunk, not full): calls "0,1 | 2,3 | 4 | 5,6 | 7 | 8,9".
    void watermarksInChunksOfWholeTopics()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        const QList<int> counts{3, 4, 5, 2, 9, 1, 6, 4, 4, 2};
        QStringList names;
        QString error;
        QVERIFY2(makeTopics(QStringLiteral("wmchunk"), counts, &names, &error), qPrintable(error));

        std::unique_ptr<ProbeClient> probe = ProbeClient::create(clusterConfig(QStringLiteral("source")), &error);
        QVERIFY2(probe, qPrintable(error));
        QList<QStringList> calls;
        ProbeOptions options;
        options.watermarkChunk = 7;
        options.watermarkCallObserved = [&](const QStringList &topics) { calls.append(topics); };
        probe->setOptions(options);

        std::optional<ClusterMetadata> md = probe->fetchMetadata(15000, false, &error);
        QVERIFY2(md, qPrintable(error));
        QString missing;
        QList<TopicInfo> topics = pick(*md, names, &missing);
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("not in the metadata: ") + missing));
        QVERIFY(calls.isEmpty());
        QVERIFY2(probe->fetchWatermarks(topics, 15000, &error), qPrintable(error));

        for (const TopicInfo &t : std::as_const(topics)) {
            const QString difference = compareWithReader(t);
            QVERIFY2(difference.isEmpty(), qPrintable(difference));
        }
        // The calls as asked, by topic index: whole topics, in order, none
        // twice (a batch that failed would be asked again topic by topic and
        // show here; so would a topic split over two calls).
        const auto describe = [&](const QList<QStringList> &callList) {
            QStringList out;
            for (const QStringList &call : callList) {
                QStringList indexes;
                for (const QString &name : call)
                    indexes.append(QString::number(names.indexOf(name)));
                out.append(indexes.join(QLatin1Char(',')));
            }
            return out.join(QStringLiteral(" | "));
        };
        QCOMPARE(describe(calls), QStringLiteral("0,1 | 2,3 | 4 | 5,6 | 7 | 8,9"));

        // The same through a whole refresh, where the cluster's other topics
        // (in name order) set the borders: every topic asked in exactly one call.
        calls.clear();
        md = probe->fetchMetadata(15000, true, &error);
        QVERIFY2(md, qPrintable(error));
        topics = pick(*md, names, &missing);
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("not in the metadata: ") + missing));
        for (const TopicInfo &t : std::as_const(topics)) {
            const QString difference = compareWithReader(t);
            QVERIFY2(difference.isEmpty(), qPrintable(difference));
        }
        // A batch that failed (a topic of another test being deleted) is asked
        // again topic by topic, so here only: no topic left out, no call too big.
        QSet<QString> asked;
        for (const QStringList &call : std::as_const(calls)) {
            int partitions = 0;
            for (const QString &name : call)
                partitions += int(md->topic(name)->partitions.size());
            QVERIFY2(call.size() == 1 || partitions <= 7, qPrintable(call.join(QLatin1Char(' '))));
            asked.unite(QSet<QString>(call.cbegin(), call.cend()));
        }
        for (const TopicInfo &t : std::as_const(md->topics))
            QVERIFY2(asked.contains(t.name), qPrintable(t.name + QStringLiteral(" not asked")));
    }

    void firstAnswer_data()
    {
        QTest::addColumn<bool>("listFirst");
        QTest::newRow("above the threshold: the list, then the counts") << true;
        QTest::newRow("below it: one answer with the counts") << false;
    }

    void firstAnswer()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        QFETCH(bool, listFirst);
        QString error;
        if (m_listTopics.isEmpty()) {
            QStringList names;
            QVERIFY2(makeTopics(QStringLiteral("listfirst"), {5, 8, 10}, &names, &error), qPrintable(error));
            m_listTopics = names;
        }
        // 23 partitions of this test's own; the cluster has more (other tests' topics).
        ClusterClientOptions options;
        if (listFirst) {
            options.listFirstPartitions = 20;
        } else {
            std::unique_ptr<ProbeClient> probe = ProbeClient::create(clusterConfig(QStringLiteral("source")), &error);
            QVERIFY2(probe, qPrintable(error));
            const std::optional<ClusterMetadata> md = probe->fetchMetadata(15000, false, &error);
            QVERIFY2(md, qPrintable(error));
            options.listFirstPartitions = partitionTotal(*md) + 1000;
        }

        // What the browser does with each answer (ClusterPane::onMetadata).
        ClusterClient client(options);
        TopicTableModel model;
        QList<ClusterClient::State> states;
        connect(&client, &ClusterClient::metadataReady, this, [&](const ClusterMetadata &md) {
            states.append(client.state());
            model.setTopics(md.topics);
        });
        QSignalSpy ready(&client, &ClusterClient::metadataReady);
        client.connectTo(clusterConfig(QStringLiteral("source")));
        QVERIFY(ready.wait(20000));
        QCOMPARE(states.first(), ClusterClient::State::Connected);
        const auto first = ready.first().first().value<ClusterMetadata>();
        QString missing;
        const QList<TopicInfo> listed = pick(first, m_listTopics, &missing);
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("not in the first answer: ") + missing));
        const QList<int> expectedPartitions{5, 8, 10};
        for (int i = 0; i < listed.size(); ++i)
            QCOMPARE(listed[i].partitions.size(), expectedPartitions[i]);

        const auto countShown = [&](const QString &name) {
            for (int r = 0; r < model.rowCount(); ++r) {
                if (model.index(r, TopicTableModel::Name).data().toString() == name)
                    return model.index(r, TopicTableModel::Messages).data().toString();
            }
            return QStringLiteral("<no row>");
        };
        QList<TopicInfo> counted = listed;
        if (listFirst) {
            // Listed without counts: every topic of the cluster unknown ("?"), none wrong.
            for (const TopicInfo &t : std::as_const(first.topics)) {
                for (const PartitionInfo &p : t.partitions)
                    QVERIFY2(p.lowWatermark == -1 && p.highWatermark == -1, qPrintable(t.name));
            }
            QCOMPARE(countShown(m_listTopics.first()), QStringLiteral("?"));
            QVERIFY(ready.size() >= 2 || ready.wait(20000));
            QCOMPARE(ready.size(), 2);
            counted = pick(ready.at(1).first().value<ClusterMetadata>(), m_listTopics, &missing);
            QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("not in the second answer: ") + missing));
        }
        for (const TopicInfo &t : std::as_const(counted)) {
            const QString difference = compareWithReader(t);
            QVERIFY2(difference.isEmpty(), qPrintable(difference));
            QCOMPARE(countShown(t.name), QLocale().toString(t.messageCount()));
        }

        // A refresh sends one answer, with counts: nothing falls back to "?".
        QSignalSpy again(&client, &ClusterClient::metadataReady);
        client.refresh();
        QVERIFY(again.wait(20000));
        const auto refreshed = again.first().first().value<ClusterMetadata>();
        for (const TopicInfo &t : pick(refreshed, m_listTopics, &missing)) {
            const QString difference = compareWithReader(t);
            QVERIFY2(difference.isEmpty(), qPrintable(difference));
        }
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("not in the refresh: ") + missing));
    }

    // Every answer 500 ms late, rounds starting at 200 ms: only rounds that
    // grow (200, 400, 800 ms) ever wait long enough for one.
    void roundsGrowUntilASlowBrokerAnswers()
    {
        QString error;
        if (!m_slowStarted) {
            const bool ok = runHarness({QStringLiteral("start"), kSlowBroker, QStringLiteral("--proxied")}, &error);
            MD_REQUIRE_OR_SKIP(ok || !error.contains(QLatin1String("go not found")), error);
            QVERIFY2(ok, qPrintable(error));
            m_slowStarted = true;
        }
        QVERIFY2(toxic(kSlowBroker, {QStringLiteral("clear")}, &error), qPrintable(error));
        QVERIFY2(toxic(kSlowBroker,
                       {QStringLiteral("add"), QStringLiteral("latency"), QStringLiteral("downstream"),
                        QStringLiteral("{\"latency\":500}")},
                       &error),
                 qPrintable(error));
        const auto cleared = qScopeGuard([] { toxic(kSlowBroker, {QStringLiteral("clear")}); });
        const ClusterConfig config = clusterConfig(kSlowBroker);
        constexpr int kBudgetMs = 6000;

        std::unique_ptr<ProbeClient> growing = ProbeClient::create(config, &error);
        QVERIFY2(growing, qPrintable(error));
        ProbeOptions options;
        options.roundMs = 200;
        growing->setOptions(options);
        QElapsedTimer timer;
        timer.start();
        const std::optional<ClusterMetadata> md = growing->fetchMetadata(kBudgetMs, false, &error);
        const qint64 tookMs = timer.elapsed();
        QVERIFY2(md, qPrintable(error));
        QVERIFY(!md->brokers.isEmpty());
        qInfo("growing rounds answered in %lld ms", tookMs);

        // The control: rounds that stay at 200 ms never see an answer, so the
        // latency did bite and the answer above is the rounds' growth.
        std::unique_ptr<ProbeClient> fixed = ProbeClient::create(config, &error);
        QVERIFY2(fixed, qPrintable(error));
        options.maxRoundMs = options.roundMs;
        fixed->setOptions(options);
        QVERIFY(!fixed->fetchMetadata(3000, false, &error));
        QVERIFY2(error.contains(QLatin1String("within 3.0 s")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TstLargeCluster)
#include "tst_largecluster.moc"
