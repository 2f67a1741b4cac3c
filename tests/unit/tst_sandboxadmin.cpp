// The sandbox's mock clusters and the admin requests they do not serve
// (CreateTopics, DescribeConfigs). A new user used to see "Failed while
// waiting for controller" after whole timeouts, because the mock's metadata
// names broker 0 as the controller and the mock had none. Now: DescribeConfigs
// is refused at once as unsupported, the demo job's comparison has no error or
// warning (only a plain note that configs are not compared), and the demo job
// runs with its offset map (the sandbox makes the topic) and config sync
// without a warning.
#include "engine/admin/ConfigEntry.h"
#include "engine/admin/ProbeClient.h"
#include "engine/groupsync/GroupOffsetSync.h"
#include "engine/mirror/MirrorJob.h"
#include "engine/mirror/TopicNaming.h"
#include "engine/offsetmap/OffsetMap.h"
#include "engine/sandbox/Sandbox.h"
#include "model/cluster/ClusterSnapshot.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

using namespace md;

namespace {

// The demo job of resources/examples/sandbox-demo.mirrorjob.
MirrorJobSpec demoSpec(const SandboxClusters &sandbox)
{
    MirrorJobSpec spec;
    spec.name = QStringLiteral("sandbox demo");
    spec.source.alias = QStringLiteral("src");
    spec.source.bootstrap = sandbox.sourceBootstrap();
    spec.target.alias = QStringLiteral("dst");
    spec.target.bootstrap = sandbox.targetBootstrap();
    spec.include = {QStringLiteral("demo\\..*")};
    spec.naming = NamingPolicy::Prefix;
    spec.start = StartPosition::Earliest;
    spec.createTopics = true;
    spec.syncTopicConfigs = true;
    return spec;
}

} // namespace

class TestSandboxAdmin final : public QObject {
    Q_OBJECT

    std::unique_ptr<SandboxClusters> m_sandbox;

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        m_sandbox = SandboxClusters::start(&error);
        QVERIFY2(m_sandbox, qPrintable(error));
    }

    void describeConfigsIsRefusedAtOnce()
    {
        for (const QString &bootstrap : {m_sandbox->sourceBootstrap(), m_sandbox->targetBootstrap()}) {
            ClusterConfig cluster;
            cluster.bootstrap = bootstrap;
            QString error;
            std::unique_ptr<ProbeClient> probe = ProbeClient::create(cluster, &error);
            QVERIFY2(probe, qPrintable(error));
            QVERIFY2(probe->fetchMetadata(10000, false, &error), qPrintable(error));
            QElapsedTimer clock;
            clock.start();
            const DescribedTopicConfigs d =
                describeTopicConfigEntries(probe->handle(), {QStringLiteral("demo.orders")}, 5000)
                    .value(QStringLiteral("demo.orders"));
            const qint64 took = clock.elapsed();
            qInfo("%s: DescribeConfigs answered in %lld ms: %s", qPrintable(bootstrap), took, qPrintable(d.error));
            QVERIFY(!d.ok());
            QVERIFY2(d.unsupported, qPrintable(d.error));
            QVERIFY2(took < 2000, qPrintable(QStringLiteral("%1 ms").arg(took)));
        }
    }

    void theDemoComparisonHasNoError()
    {
        const MirrorJobSpec spec = demoSpec(*m_sandbox);
        m_sandbox->prepareTarget(spec);
        QElapsedTimer clock;
        clock.start();
        const ClusterSnapshot snapshot = readClusterSnapshot(spec);
        qInfo("comparison read in %lld ms", clock.elapsed());
        QVERIFY2(snapshot.error.isEmpty(), qPrintable(snapshot.error));
        QVERIFY2(snapshot.warnings.isEmpty(), qPrintable(snapshot.warnings.join(QLatin1Char('\n'))));
        QCOMPARE(snapshot.notes.size(), 2); // one per cluster
        for (const QString &note : snapshot.notes)
            QVERIFY2(note.contains(QStringLiteral("does not serve topic configs")), qPrintable(note));
        QVERIFY(snapshot.target.topic(targetTopicName(spec, QStringLiteral("demo.orders"))));
        QVERIFY2(clock.elapsed() < 8000, qPrintable(QString::number(clock.elapsed())));
    }

    void theDemoJobRunsWithoutAWarning()
    {
        MirrorJobSpec spec = demoSpec(*m_sandbox);
        spec.name = QStringLiteral("sandbox demo job");
        const QStringList prepared = m_sandbox->prepareTarget(spec);
        QVERIFY2(prepared.contains(offsetMapTopicOf(spec)), qPrintable(prepared.join(QLatin1Char(','))));

        MirrorJob job(spec);
        QList<JobEvent> events;
        connect(&job, &MirrorJob::eventRaised, this, [&](const JobEvent &e) { events.append(e); });
        qint64 produced = 0;
        connect(&job, &MirrorJob::metricsSampled, this,
                [&](const MetricsSnapshot &s) { produced = s.recordsProduced; });
        job.start();
        // The map topic's answer comes at once (it used to wait 15 s for a controller).
        auto mapEvent = [&] {
            for (const JobEvent &e : std::as_const(events)) {
                if (e.text.contains(QStringLiteral("offset map")))
                    return e.text;
            }
            return QString();
        };
        QTRY_VERIFY_WITH_TIMEOUT(!mapEvent().isEmpty(), 8000);
        QTRY_VERIFY_WITH_TIMEOUT(produced > 0, 30000);
        QTest::qWait(3000); // a few commits, with the map written before each
        for (const JobEvent &e : std::as_const(events)) {
            qInfo("event: %s", qPrintable(e.text));
            QVERIFY2(e.severity == JobEvent::Severity::Info, qPrintable(e.text));
        }
        job.stop();
        QVERIFY(job.waitForFinished(20000));
        // The map holds the copy: "show on the other cluster" works in the sandbox.
        OffsetMap map;
        QString error;
        QVERIFY2(readOffsetMap(spec.target, offsetMapTopicOf(spec), 10000, &map, &error), qPrintable(error));
        QVERIFY(!map.isEmpty());
    }
};

QTEST_MAIN(TestSandboxAdmin)
#include "tst_sandboxadmin.moc"
