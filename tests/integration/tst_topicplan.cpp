// The plan against the real brokers says which configs a created target topic
// gets (the engine's own rule, TargetTopicRule), and the job then creates the
// topic with exactly those: planned == created, read back with DescribeConfigs.
// `mirrordesk check` lists the same configs.

#include "engine/admin/AdminService.h"
#include "engine/mirror/MirrorPlan.h"
#include "tst_mirror_support.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

using namespace md;
using namespace md::test;

namespace {

const QString kExe = QStringLiteral(MIRRORDESK_BINARY_DIR "/app/mirrordesk");

using Configs = QMap<QString, QString>;

const Configs kSourceConfigs = {
    {QStringLiteral("cleanup.policy"), QStringLiteral("compact")},
    {QStringLiteral("retention.ms"), QStringLiteral("3600000")},
    {QStringLiteral("max.message.bytes"), QStringLiteral("2000000")},
    // In MM2's default exclusions: never follows the topic.
    {QStringLiteral("min.insync.replicas"), QStringLiteral("1")},
};

Configs withoutExcluded()
{
    Configs c = kSourceConfigs;
    c.remove(QStringLiteral("min.insync.replicas"));
    return c;
}

// The configs set on the topic itself, polled: DescribeConfigs may trail the
// creation on KRaft brokers for a moment.
Configs dynamicConfigsOf(AdminService &admin, const QString &topic, const Configs &expected, QString *error)
{
    Configs seen;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 20000) {
        const AdminResult<QList<ConfigEntry>> r = admin.describeTopicConfigs(topic);
        if (r.ok()) {
            seen.clear();
            for (const ConfigEntry &e : r.value) {
                if (e.source == ConfigSource::Dynamic && e.value)
                    seen.insert(e.name, *e.value);
            }
            if (seen == expected)
                return seen;
        } else {
            *error = r.error;
        }
        QThread::msleep(250);
    }
    return seen;
}

QString text(const Configs &c)
{
    QStringList parts;
    for (auto it = c.cbegin(); it != c.cend(); ++it)
        parts << it.key() + QLatin1Char('=') + it.value();
    return parts.join(QStringLiteral(", "));
}

const TopicPlanEntry *entryFor(const MirrorPlan &plan, const QString &sourceTopic)
{
    for (const TopicPlanEntry &e : plan.topics) {
        if (e.sourceTopic == sourceTopic)
            return &e;
    }
    return nullptr;
}

} // namespace

class TstTopicPlan final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    MirrorJobSpec spec(const QString &topic) const
    {
        MirrorJobSpec s = harnessSpec(topic, {QRegularExpression::escape(topic)});
        s.naming = NamingPolicy::Prefix;
        s.source.alias = QStringLiteral("eu");
        s.separator = QStringLiteral(".");
        return s;
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        QVERIFY(m_dir.isValid());
    }

    void plannedConfigsAreTheCreatedOnes()
    {
        const QString topic = uniqueName(QStringLiteral("plancfg"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 2, kSourceConfigs, &error), qPrintable(error));
        const MirrorJobSpec s = spec(topic);
        const QString targetName = QStringLiteral("eu.") + topic;

        // Before anything runs: the plan names the configs the new topic gets.
        const ProbedPlan probed = probeAndPlan(s, 15000);
        QVERIFY2(probed.source.reachable && probed.target.reachable,
                 qPrintable(probed.source.error + probed.target.error));
        const TopicPlanEntry *e = entryFor(probed.plan, topic);
        QVERIFY(e);
        QCOMPARE(e->action, TopicPlanEntry::Action::Create);
        QCOMPARE(e->targetTopic, targetName);
        QCOMPARE(e->sourcePartitions, 2);
        QCOMPARE(e->replicationFactor, 1); // min(source RF 1, target brokers)
        QVERIFY2(e->note.contains(QStringLiteral("will be created with 2 partitions, replication factor 1")),
                 qPrintable(e->note));
        QCOMPARE(e->configs, withoutExcluded());
        QVERIFY2(!e->configs.contains(QStringLiteral("min.insync.replicas")), "an excluded config is planned");
        QVERIFY2(e->configsNote.isEmpty(), qPrintable(e->configsNote));

        // The profile's exclusions replace MM2's defaults, in the plan as in the engine.
        MirrorJobSpec ownExcludes = s;
        ownExcludes.configExclude = {QStringLiteral("retention\\..*")};
        const ProbedPlan own = probeAndPlan(ownExcludes, 15000);
        QVERIFY(entryFor(own.plan, topic));
        Configs expectedOwn = kSourceConfigs;
        expectedOwn.remove(QStringLiteral("retention.ms"));
        QCOMPARE(entryFor(own.plan, topic)->configs, expectedOwn);

        // No config sync: nothing is set, and the plan says why.
        MirrorJobSpec noSync = s;
        noSync.syncTopicConfigs = false;
        const ProbedPlan none = probeAndPlan(noSync, 15000);
        QVERIFY(entryFor(none.plan, topic));
        QVERIFY(entryFor(none.plan, topic)->configs.isEmpty());
        QVERIFY2(entryFor(none.plan, topic)->configsNote.contains(QStringLiteral("syncTopicConfigs is off")),
                 qPrintable(entryFor(none.plan, topic)->configsNote));

        // Now the job really runs and creates the topic.
        QVERIFY2(produce(sourceBootstrap(), topic, numbered(QStringLiteral("p"), 20, 2), &error), qPrintable(error));
        MirrorJob job(s);
        const JobOutcome out = runJob(job, 90000);
        QVERIFY2(out.finished && out.ok, qPrintable(out.error + QStringLiteral("\n  ") + joined(out.events)));

        // What was created is what was planned: the same configs set on the
        // topic (and nothing else), the same partitions and replication factor.
        std::unique_ptr<AdminService> admin = AdminService::create(clusterConfig(QStringLiteral("target")), &error);
        QVERIFY2(admin, qPrintable(error));
        const Configs created = dynamicConfigsOf(*admin, targetName, e->configs, &error);
        QVERIFY2(created == e->configs,
                 qPrintable(QStringLiteral("planned: %1\ncreated: %2 %3").arg(text(e->configs), text(created), error)));
        const AdminResult<ClusterMetadata> md = admin->metadata();
        QVERIFY2(md.ok(), qPrintable(md.error));
        const auto created_topic = std::find_if(md.value.topics.cbegin(), md.value.topics.cend(),
                                                [&](const TopicInfo &t) { return t.name == targetName; });
        QVERIFY(created_topic != md.value.topics.cend());
        QCOMPARE(int(created_topic->partitions.size()), e->sourcePartitions);
        QCOMPARE(created_topic->replicationFactor(), e->replicationFactor);

        // And the plan now mirrors into it.
        const ProbedPlan after = probeAndPlan(s, 15000);
        QVERIFY(entryFor(after.plan, topic));
        QCOMPARE(entryFor(after.plan, topic)->action, TopicPlanEntry::Action::Mirror);
        QVERIFY(entryFor(after.plan, topic)->configs.isEmpty());
    }

    void unreadableSourceConfigsAreSaid()
    {
        // A source topic the plan cannot describe (deleted between listing and
        // describing) is still created, with the target's defaults: the plan says so.
        const QString topic = uniqueName(QStringLiteral("plangone"));
        MirrorJobSpec s = spec(topic);
        QList<ProbedTopic> source = {{topic, 1, {}, 1}};
        TopicConfigsByName configs;
        configs[topic].error = QStringLiteral("Broker: Unknown topic or partition");
        const MirrorPlan plan = planMirror(s, source, {}, 1, &configs);
        QCOMPARE(plan.topics.size(), 1);
        QCOMPARE(plan.topics[0].action, TopicPlanEntry::Action::Create);
        QVERIFY(plan.topics[0].configs.isEmpty());
        QVERIFY2(plan.topics[0].configsNote.contains(QStringLiteral("Unknown topic")),
                 qPrintable(plan.topics[0].configsNote));
        QVERIFY(plan.topics[0].configsNote.contains(QStringLiteral("target's defaults")));
    }

    void checkCommandListsTheConfigs()
    {
        QVERIFY2(QFile::exists(kExe), qPrintable(kExe + QStringLiteral(" was not built")));
        const QString topic = uniqueName(QStringLiteral("plancheck"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 3, kSourceConfigs, &error), qPrintable(error));
        const QString path = m_dir.filePath(QStringLiteral("plan.mirrorjob"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral(R"({"mirrordesk": 1, "name": "plan configs",
            "source": {"alias": "eu", "bootstrap": "%1"},
            "target": {"bootstrap": "%2"},
            "topics": {"include": ["%3"]},
            "naming": {"policy": "prefix", "separator": "."}})")
                    .arg(sourceBootstrap(), targetBootstrap(), topic)
                    .toUtf8());
        f.close();
        QProcess p;
        p.start(kExe, {QStringLiteral("check"), path});
        QVERIFY(p.waitForFinished(60000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        QCOMPARE(p.exitCode(), 0);
        const QString line = QStringLiteral("  ") + topic + QStringLiteral(" (3 partitions) -> eu.") + topic +
                             QStringLiteral(": missing, will be created with 3 partitions, replication factor 1\n"
                                            "      configs: ") +
                             text(withoutExcluded()) + QLatin1Char('\n');
        QVERIFY2(out.contains(line), qPrintable(out));
        QVERIFY2(!out.contains(QStringLiteral("min.insync.replicas")), qPrintable(out));
    }
};

QTEST_GUILESS_MAIN(TstTopicPlan)
#include "tst_topicplan.moc"
