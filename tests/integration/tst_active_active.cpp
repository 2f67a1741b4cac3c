// Active/active under identity naming: jobs both ways (and a ring of three
// clusters) with originHeader. Records written on every cluster reach every
// other exactly once and never come back: each cluster ends with each value
// once, and stays so while the jobs run on. Copies carry the first source's
// cluster id; originals carry nothing. Without the header the records would
// circle for ever, which the exact counts catch.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "ProcessTestUtil.h"
#include "tst_mirror_support.h"

#include "engine/admin/AdminService.h"
#include "engine/mirror/MirrorJob.h"
#include "engine/verify/Verifier.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <memory>

using namespace md;
using namespace md::test;

namespace {

const QByteArray kHeader("mirrordesk.origin");

QString clusterId(const QString &bootstrapServers)
{
    ClusterConfig c;
    c.alias = QStringLiteral("probe");
    c.bootstrap = bootstrapServers;
    QString error;
    std::unique_ptr<AdminService> s = AdminService::create(c, &error, 20000);
    if (!s)
        return {};
    const AdminResult<ClusterMetadata> md = s->metadata();
    return md.ok() ? md.value.clusterId : QString();
}

// The origin header of a record, or empty.
QByteArray originOf(const TestRecord &r)
{
    for (const auto &[name, value] : r.headers)
        if (name == QLatin1String(kHeader))
            return value.value_or(QByteArray());
    return {};
}

} // namespace

class TstActiveActive : public QObject {
    Q_OBJECT

    bool m_chainStarted = false;

    MirrorJobSpec job(const QString &name, const QString &from, const QString &to, const QString &topic) const
    {
        MirrorJobSpec s = harnessSpec(name, {QRegularExpression::escape(topic)});
        s.source.alias = name + QStringLiteral("-from");
        s.source.bootstrap = from;
        s.target.alias = name + QStringLiteral("-to");
        s.target.bootstrap = to;
        s.stop = StopCondition::RunForever;
        s.topicRefreshIntervalMs = 2000;
        s.originHeader = QString::fromLatin1(kHeader);
        return s;
    }

    // Every cluster holds each expected value exactly once, now and after the jobs ran on.
    void expectExactlyOnce(const QStringList &clusters, const QString &topic, const QSet<QByteArray> &expected)
    {
        bool over = false; // more than expected can never settle: fails at once
        const auto settled = [&](QString *state) {
            for (const QString &c : clusters) {
                QString error;
                // Counted first: records that circle make the topic grow for ever, which a
                // reader chasing its end would never finish reading.
                const auto marks = watermarks(c, topic, &error);
                if (!marks) {
                    *state = error;
                    return false;
                }
                if (totalMessages(*marks) > expected.size()) {
                    *state = QStringLiteral("%1 holds %2 records for %3 expected: records came back")
                                 .arg(c)
                                 .arg(totalMessages(*marks))
                                 .arg(expected.size());
                    over = true;
                    return false;
                }
                const auto records = consumeAll(c, topic, &error);
                if (!records) {
                    *state = error;
                    return false;
                }
                if (records->size() != expected.size() || valueSet(*records) != expected) {
                    *state = QStringLiteral("%1 holds %2 records (%3 distinct values) for %4 expected")
                                 .arg(c)
                                 .arg(records->size())
                                 .arg(valueSet(*records).size())
                                 .arg(expected.size());
                    return false;
                }
            }
            return true;
        };
        QString state;
        QTRY_VERIFY2_WITH_TIMEOUT(settled(&state) || over, qPrintable(state), 120000);
        QVERIFY2(!over, qPrintable(state));
        QTest::qWait(6000); // three refreshes: anything that would come back has had time to
        QVERIFY2(settled(&state), qPrintable(QStringLiteral("after the jobs ran on: ") + state));
    }

private Q_SLOTS:
    void initTestCase() { MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target")); }

    void cleanupTestCase()
    {
        if (m_chainStarted)
            runHarness({QStringLiteral("stop"), QStringLiteral("aachain")});
    }

    void bothWaysEachRecordOnceOnEachCluster()
    {
        const QString topic = uniqueName(QStringLiteral("aa"));
        QString error;
        for (const QString &c : {sourceBootstrap(), targetBootstrap()})
            QVERIFY2(createTopic(c, topic, 2, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, numbered(QStringLiteral("a"), 100, 2), &error), qPrintable(error));
        QVERIFY2(produce(targetBootstrap(), topic, numbered(QStringLiteral("b"), 100, 2), &error), qPrintable(error));
        MirrorJob ab(job(topic + QStringLiteral("-ab"), sourceBootstrap(), targetBootstrap(), topic));
        MirrorJob ba(job(topic + QStringLiteral("-ba"), targetBootstrap(), sourceBootstrap(), topic));
        ab.start();
        ba.start();
        QSet<QByteArray> expected = valueSet(numbered(QStringLiteral("a"), 100, 2));
        expected.unite(valueSet(numbered(QStringLiteral("b"), 100, 2)));
        expectExactlyOnce({sourceBootstrap(), targetBootstrap()}, topic, expected);
        if (QTest::currentTestFailed())
            return;

        // Originals carry no header; a copy carries the id of the cluster it was first written to.
        const QString a = clusterId(sourceBootstrap()), b = clusterId(targetBootstrap());
        QVERIFY(!a.isEmpty() && !b.isEmpty() && a != b);
        for (const auto &[cluster, own, other] :
             {std::tuple{sourceBootstrap(), QByteArray("a-"), b}, std::tuple{targetBootstrap(), QByteArray("b-"), a}}) {
            const auto records = consumeAll(cluster, topic, &error);
            QVERIFY2(records, qPrintable(error));
            for (const TestRecord &r : *records) {
                const bool original = r.value->startsWith(own);
                QCOMPARE(originOf(r), original ? QByteArray() : other.toUtf8());
            }
        }
        ab.stop();
        ba.stop();
        QVERIFY(ab.waitForFinished(60000));
        QVERIFY(ba.waitForFinished(60000));
    }

    void prefixNamingBothWaysNeedsNoHeader()
    {
        // MM2's rule: a job never copies "<its target's alias>.*" back.
        const QString topic = uniqueName(QStringLiteral("aap"));
        QString error;
        for (const QString &c : {sourceBootstrap(), targetBootstrap()})
            QVERIFY2(createTopic(c, topic, 1, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, numbered(QStringLiteral("a"), 40, 1), &error), qPrintable(error));
        QVERIFY2(produce(targetBootstrap(), topic, numbered(QStringLiteral("b"), 40, 1), &error), qPrintable(error));
        const auto prefixed = [&](const QString &name, const QString &from, const QString &fromAlias, const QString &to,
                                  const QString &toAlias) {
            MirrorJobSpec s = job(name, from, to, topic);
            s.include = {QStringLiteral(".*") + QRegularExpression::escape(topic)};
            s.naming = NamingPolicy::Prefix;
            s.separator = QStringLiteral(".");
            s.source.alias = fromAlias;
            s.target.alias = toAlias;
            s.originHeader.clear();
            return s;
        };
        MirrorJob ab(prefixed(topic + QStringLiteral("-ab"), sourceBootstrap(), QStringLiteral("east"),
                              targetBootstrap(), QStringLiteral("west")));
        MirrorJob ba(prefixed(topic + QStringLiteral("-ba"), targetBootstrap(), QStringLiteral("west"),
                              sourceBootstrap(), QStringLiteral("east")));
        ab.start();
        ba.start();
        // Each side: its own 40, the other's 40 under "<other alias>.<topic>", and nothing deeper.
        expectExactlyOnce({targetBootstrap()}, QStringLiteral("east.") + topic,
                          valueSet(numbered(QStringLiteral("a"), 40, 1)));
        if (QTest::currentTestFailed())
            return;
        expectExactlyOnce({sourceBootstrap()}, QStringLiteral("west.") + topic,
                          valueSet(numbered(QStringLiteral("b"), 40, 1)));
        if (QTest::currentTestFailed())
            return;
        for (const QString &c : {sourceBootstrap(), targetBootstrap()}) {
            ClusterConfig cc;
            cc.alias = QStringLiteral("probe");
            cc.bootstrap = c;
            std::unique_ptr<AdminService> s = AdminService::create(cc, &error, 20000);
            QVERIFY2(s, qPrintable(error));
            const AdminResult<ClusterMetadata> md = s->metadata();
            QVERIFY2(md.ok(), qPrintable(md.error));
            for (const TopicInfo &t : md.value.topics)
                QVERIFY2(!t.name.endsWith(QStringLiteral("east.") + topic) || t.name == QStringLiteral("east.") + topic,
                         qPrintable(t.name));
            QVERIFY(!md.value.topic(QStringLiteral("west.east.") + topic));
            QVERIFY(!md.value.topic(QStringLiteral("east.west.") + topic));
        }
        ab.stop();
        ba.stop();
        QVERIFY(ab.waitForFinished(60000));
        QVERIFY(ba.waitForFinished(60000));
    }

    void verifyComparesCopiesWithoutTheirOriginHeader()
    {
        // The header is the only thing a copy adds: verify leaves it out on both sides.
        const QString topic = uniqueName(QStringLiteral("aaverify"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, numbered(QStringLiteral("v"), 60, 2), &error), qPrintable(error));
        MirrorJobSpec spec = job(topic, sourceBootstrap(), targetBootstrap(), topic);
        spec.stop = StopCondition::CaughtUp;
        MirrorJob copy(spec);
        QSignalSpy finished(&copy, &MirrorJob::finished);
        copy.start();
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 120000);
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
        const auto copied = consumeAll(targetBootstrap(), topic, &error);
        QVERIFY2(copied && copied->size() == 60, qPrintable(error));
        QVERIFY(
            std::all_of(copied->cbegin(), copied->cend(), [](const TestRecord &r) { return !originOf(r).isEmpty(); }));
        const VerifyReport report = Verifier(spec).run();
        QVERIFY2(report.exitCode() == 0, qPrintable(report.summary()));
    }

    void checkRefusesIdentityBothWaysWithoutTheHeader()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString topic = uniqueName(QStringLiteral("aacheck"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 1, {}, &error), qPrintable(error));
        const auto write = [&](const QString &file, const QString &from, const QString &to, const QString &header) {
            QFile f(dir.filePath(file));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QStringLiteral("{\"mirrordesk\": 1, \"name\": \"%1\",\n"
                                   " \"source\": {\"alias\": \"a\", \"bootstrap\": \"%2\"},\n"
                                   " \"target\": {\"alias\": \"b\", \"bootstrap\": \"%3\"},\n"
                                   " \"topics\": {\"include\": [\"%4\"]},\n"
                                   " \"naming\": {\"policy\": \"identity\"}%5}\n")
                        .arg(file, from, to, topic,
                             header.isEmpty() ? QString() : QStringLiteral(", \"originHeader\": \"%1\"").arg(header))
                        .toUtf8());
        };
        write(QStringLiteral("ab.mirrorjob"), sourceBootstrap(), targetBootstrap(), QString::fromLatin1(kHeader));
        write(QStringLiteral("ba.mirrorjob"), targetBootstrap(), sourceBootstrap(), QString());
        ExeResult r = runMirrordesk({QStringLiteral("check"), dir.filePath(QStringLiteral("ab.mirrorjob"))}, 120000);
        QVERIFY2(r.exitCode == 1 && r.out.contains(QLatin1String("ERROR: active/active: ba.mirrorjob mirrors the "
                                                                 "other way")),
                 qPrintable(r.out + r.err));
        // Both stamp the same header: no loop, no error.
        write(QStringLiteral("ba.mirrorjob"), targetBootstrap(), sourceBootstrap(), QString::fromLatin1(kHeader));
        r = runMirrordesk({QStringLiteral("check"), dir.filePath(QStringLiteral("ab.mirrorjob"))}, 120000);
        QVERIFY2(!r.out.contains(QLatin1String("active/active")), qPrintable(r.out + r.err));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    }

    void aRingOfThreeClusters()
    {
        QString error;
        runHarness({QStringLiteral("stop"), QStringLiteral("aachain")});
        QVERIFY2(runHarness({QStringLiteral("start"), QStringLiteral("aachain")}, &error), qPrintable(error));
        m_chainStarted = true;
        const QString c = bootstrap(QStringLiteral("aachain"));
        const QString topic = uniqueName(QStringLiteral("ring"));
        for (const QString &cluster : {sourceBootstrap(), targetBootstrap(), c})
            QVERIFY2(createTopic(cluster, topic, 1, {}, &error), qPrintable(error));
        QVERIFY2(produce(sourceBootstrap(), topic, numbered(QStringLiteral("a"), 50, 1), &error), qPrintable(error));
        QVERIFY2(produce(c, topic, numbered(QStringLiteral("c"), 50, 1), &error), qPrintable(error));
        // a -> b -> c -> a
        MirrorJob ab(job(topic + QStringLiteral("-ab"), sourceBootstrap(), targetBootstrap(), topic));
        MirrorJob bc(job(topic + QStringLiteral("-bc"), targetBootstrap(), c, topic));
        MirrorJob ca(job(topic + QStringLiteral("-ca"), c, sourceBootstrap(), topic));
        for (MirrorJob *j : {&ab, &bc, &ca})
            j->start();
        QSet<QByteArray> expected = valueSet(numbered(QStringLiteral("a"), 50, 1));
        expected.unite(valueSet(numbered(QStringLiteral("c"), 50, 1)));
        expectExactlyOnce({sourceBootstrap(), targetBootstrap(), c}, topic, expected);
        if (QTest::currentTestFailed())
            return;
        for (MirrorJob *j : {&ab, &bc, &ca})
            j->stop();
        for (MirrorJob *j : {&ab, &bc, &ca})
            QVERIFY(j->waitForFinished(60000));
    }
};

QTEST_GUILESS_MAIN(TstActiveActive)
#include "tst_active_active.moc"
