// ACL sync with a running job, between two brokers with Kafka's StandardAuthorizer
// (harness.sh start NAME --acl): the bindings of the mirrored topics and the
// selected groups reach the target renamed (safe mode: no ALLOW WRITE, ALL
// becomes READ), deletions follow, the target's own bindings are never touched
// (also one equal to a source binding), the record of what the job made
// survives a restart, and a target user without ALTER is reported while the
// job runs on. What the target allows is also asked of the broker itself: the
// SASL user tries the operation (acl_probe.h).

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "ProcessTestUtil.h"
#include "acl_probe.h"
#include "network_faults.h"
#include "tst_mirror_support.h"

#include "engine/acl/AclSync.h"
#include "engine/admin/AdminService.h"
#include "engine/mirror/MirrorJob.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace md;
using namespace md::test;

namespace {

const QString kSource = QStringLiteral("aclsyncsrc");
const QString kTarget = QStringLiteral("aclsyncdst");

AclEntry acl(const QString &permission, const QString &principal, const QString &operation, const QString &type,
             const QString &name, const QString &pattern = QStringLiteral("LITERAL"))
{
    return AclEntry{type, name, pattern, principal, QStringLiteral("*"), operation, permission};
}

ClusterConfig direct(const QString &broker)
{
    ClusterConfig c;
    c.alias = broker == kSource ? QStringLiteral("src") : QStringLiteral("dst");
    c.bootstrap = directBootstrap(broker);
    return c;
}

} // namespace

class TstAclSync : public QObject {
    Q_OBJECT

    std::unique_ptr<AdminService> m_src, m_dst;
    AclProbeClient m_targetUser;
    QString m_user;
    bool m_started = false;

    QList<AclEntry> targetAcls()
    {
        const AdminResult<QList<AclEntry>> r = m_dst->listAcls();
        return r.ok() ? r.value : QList<AclEntry>{};
    }

    MirrorJobSpec jobSpec(const QString &base) const
    {
        MirrorJobSpec s;
        s.name = base;
        s.groupId = base + QStringLiteral("-job");
        s.source = direct(kSource);
        s.target = direct(kTarget);
        s.include = {QRegularExpression::escape(base) + QStringLiteral("-.*")};
        s.exclude = {QRegularExpression::escape(base) + QStringLiteral("-private")};
        s.naming = NamingPolicy::Prefix;
        s.start = StartPosition::Earliest;
        s.stop = StopCondition::RunForever;
        s.topicRefreshIntervalMs = 2000;
        s.groupsInclude = {QRegularExpression::escape(base) + QStringLiteral("-app.*")};
        s.syncGroupOffsets = false;
        s.syncAcls = true;
        s.aclSyncIntervalMs = 1500;
        return s;
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        QString error;
        for (const QString &b : {kSource, kTarget}) {
            runHarness({QStringLiteral("stop"), b});
            QVERIFY2(runHarness({QStringLiteral("start"), b, QStringLiteral("--acl")}, &error), qPrintable(error));
        }
        m_started = true;
        m_src = AdminService::create(direct(kSource), &error, 20000);
        QVERIFY2(m_src, qPrintable(error));
        m_dst = AdminService::create(direct(kTarget), &error, 20000);
        QVERIFY2(m_dst, qPrintable(error));
        m_user = QStringLiteral("User:") + saslUser();
        m_targetUser.bootstrap = bootstrap(kTarget);
        m_targetUser.properties = {{QStringLiteral("security.protocol"), QStringLiteral("SASL_PLAINTEXT")},
                                   {QStringLiteral("sasl.mechanism"), QString::fromLatin1(kSaslMechanism)},
                                   {QStringLiteral("sasl.username"), saslUser()},
                                   {QStringLiteral("sasl.password"), saslPassword()}};
    }

    void cleanupTestCase()
    {
        m_src.reset();
        m_dst.reset();
        if (m_started) {
            runHarness({QStringLiteral("stop"), kSource});
            runHarness({QStringLiteral("stop"), kTarget});
        }
    }

    void bindingsFollowAndOnlyTheJobsOwnGo()
    {
        const QString b = uniqueName(QStringLiteral("as"));
        const QString orders = b + QStringLiteral("-orders"), payments = b + QStringLiteral("-payments"),
                      priv = b + QStringLiteral("-private");
        QString error;
        for (const QString &t : {orders, payments, priv}) {
            QVERIFY2(createTopic(direct(kSource).bootstrap, t, 1, {}, &error), qPrintable(error));
            QVERIFY2(produce(direct(kSource).bootstrap, t,
                             {TestRecord{QByteArray("k"), QByteArray("v"), {}, -1, 0, -1}}, &error),
                     qPrintable(error));
        }
        const QString T = QStringLiteral("TOPIC"), A = QStringLiteral("ALLOW"), D = QStringLiteral("DENY");
        const AclEntry readOrders = acl(A, m_user, QStringLiteral("READ"), T, orders);
        const AclEntry writeOrders = acl(A, m_user, QStringLiteral("WRITE"), T, orders);
        const AclEntry bobAll = acl(A, QStringLiteral("User:bob"), QStringLiteral("ALL"), T, payments);
        const AclEntry evePrefix = acl(D, QStringLiteral("User:eve"), QStringLiteral("READ"), T,
                                       b + QStringLiteral("-"), QStringLiteral("PREFIXED"));
        const AclEntry readPrivate = acl(A, m_user, QStringLiteral("READ"), T, priv);
        const AclEntry dave = acl(A, QStringLiteral("User:dave"), QStringLiteral("READ"), T, payments);
        const AclEntry group =
            acl(A, m_user, QStringLiteral("READ"), QStringLiteral("GROUP"), b + QStringLiteral("-app1"));
        const AclEntry otherGroup =
            acl(A, m_user, QStringLiteral("READ"), QStringLiteral("GROUP"), b + QStringLiteral("-batch"));
        const AdminResult<Done> made =
            m_src->createAcls({readOrders, writeOrders, bobAll, evePrefix, readPrivate, dave, group, otherGroup});
        QVERIFY2(made.ok(), qPrintable(made.error));
        // The target's own: one for another principal, one equal to what dave's would become.
        const QString srcOrders = QStringLiteral("src.") + orders, srcPayments = QStringLiteral("src.") + payments;
        const AclEntry carolOwn = acl(A, QStringLiteral("User:carol"), QStringLiteral("READ"), T, srcOrders);
        const AclEntry daveOwn = acl(A, QStringLiteral("User:dave"), QStringLiteral("READ"), T, srcPayments);
        QVERIFY2(m_dst->createAcls({carolOwn, daveOwn}).ok(), "target bindings");

        const QList<AclEntry> expected{
            acl(A, m_user, QStringLiteral("READ"), T, srcOrders),
            acl(A, QStringLiteral("User:bob"), QStringLiteral("READ"), T, srcPayments), // safe: ALL -> READ
            acl(D, QStringLiteral("User:eve"), QStringLiteral("READ"), T,
                QStringLiteral("src.") + b + QStringLiteral("-"), QStringLiteral("PREFIXED")),
            group,
        };
        MirrorJobSpec spec = jobSpec(b);
        QStringList events;
        {
            MirrorJob job(spec);
            connect(&job, &MirrorJob::eventRaised, this, [&](const JobEvent &e) { events << e.text; });
            job.start();
            QTRY_VERIFY2_WITH_TIMEOUT(
                std::all_of(expected.cbegin(), expected.cend(),
                            [&, now = targetAcls()](const AclEntry &e) { return now.contains(e); }),
                qPrintable(events.join(QLatin1Char('\n'))), 60000);
            const QList<AclEntry> now = targetAcls();
            // Safe mode, the selection: none of these follow.
            QVERIFY(!now.contains(acl(A, m_user, QStringLiteral("WRITE"), T, srcOrders)));
            QVERIFY(!now.contains(acl(A, QStringLiteral("User:bob"), QStringLiteral("ALL"), T, srcPayments)));
            QVERIFY(std::none_of(now.cbegin(), now.cend(), [&](const AclEntry &e) {
                return e.resourceName.endsWith(QLatin1String("-private")) ||
                       e.resourceName.endsWith(QLatin1String("-batch"));
            }));
            const auto created = [&] { return events.filter(QStringLiteral("ACL sync: created")).size(); };
            // Events come through the job's thread, after the bindings: waited for. dave's was
            // there already: not created, not the job's.
            QTRY_COMPARE_WITH_TIMEOUT(created(), int(expected.size()), 10000);
            // The broker agrees: the user may describe the mirrored topic (READ implies it), not write it.
            QTRY_VERIFY_WITH_TIMEOUT(m_dst->metadata().value.topic(srcOrders), 30000);
            ProbeResult probe = probeTopicDescribe(m_targetUser, srcOrders);
            QVERIFY2(probe.outcome == Probed::Allowed, qPrintable(probe.detail));
            probe = probeTopicWrite(m_targetUser, srcOrders);
            QVERIFY2(probe.outcome == Probed::Denied, qPrintable(probe.detail));

            // Gone from the source: the job's own goes from the target, dave's stays (not the job's).
            QCOMPARE(m_src->deleteAcls({readOrders, dave}).value, 2);
            QTRY_VERIFY2_WITH_TIMEOUT(!targetAcls().contains(expected.first()),
                                      qPrintable(events.join(QLatin1Char('\n'))), 60000);
            QTest::qWait(2 * spec.aclSyncIntervalMs + 500); // two more rounds
            const QList<AclEntry> after = targetAcls();
            QVERIFY(after.contains(daveOwn));
            QVERIFY(after.contains(carolOwn));
            QCOMPARE(events.filter(QStringLiteral("ACL sync: deleted")).size(), 1);
            probe = probeTopicDescribe(m_targetUser, srcOrders);
            QVERIFY2(probe.outcome == Probed::Denied, qPrintable(probe.detail));
            job.stop();
            QVERIFY(job.waitForFinished(60000));
        }

        // Restarted: what the first run made is still known as the job's, and goes when its source goes.
        QCOMPARE(m_src->deleteAcls({evePrefix}).value, 1);
        events.clear();
        MirrorJob again(spec);
        connect(&again, &MirrorJob::eventRaised, this, [&](const JobEvent &e) { events << e.text; });
        again.start();
        QTRY_VERIFY2_WITH_TIMEOUT(!targetAcls().contains(expected.at(2)), qPrintable(events.join(QLatin1Char('\n'))),
                                  60000);
        QTest::qWait(spec.aclSyncIntervalMs + 500);
        QCOMPARE(events.filter(QStringLiteral("ACL sync: created")).size(), 0); // nothing twice
        QVERIFY(targetAcls().contains(expected.at(1)));
        QVERIFY(targetAcls().contains(daveOwn));
        again.stop();
        QVERIFY(again.waitForFinished(60000));
    }

    void exactModeCopiesWriteAndAllAsTheyAre()
    {
        const QString b = uniqueName(QStringLiteral("ase"));
        const QString topic = b + QStringLiteral("-t");
        QString error;
        QVERIFY2(createTopic(direct(kSource).bootstrap, topic, 1, {}, &error), qPrintable(error));
        const AclEntry write =
            acl(QStringLiteral("ALLOW"), m_user, QStringLiteral("WRITE"), QStringLiteral("TOPIC"), topic);
        const AclEntry all = acl(QStringLiteral("ALLOW"), QStringLiteral("User:bob"), QStringLiteral("ALL"),
                                 QStringLiteral("TOPIC"), topic);
        QVERIFY2(m_src->createAcls({write, all}).ok(), "source bindings");
        MirrorJobSpec spec = jobSpec(b);
        spec.aclSyncMode = MirrorJobSpec::AclSyncMode::Exact;
        MirrorJob job(spec);
        QStringList events;
        connect(&job, &MirrorJob::eventRaised, this, [&](const JobEvent &e) { events << e.text; });
        job.start();
        AclEntry writeThere = write, allThere = all;
        writeThere.resourceName = allThere.resourceName = QStringLiteral("src.") + topic;
        QTRY_VERIFY2_WITH_TIMEOUT(targetAcls().contains(writeThere) && targetAcls().contains(allThere),
                                  qPrintable(events.join(QLatin1Char('\n'))), 60000);
        // The broker agrees: the user may write the mirrored topic on the target (in safe mode it may not).
        QTRY_VERIFY_WITH_TIMEOUT(m_dst->metadata().value.topic(writeThere.resourceName), 30000);
        const ProbeResult probe = probeTopicWrite(m_targetUser, writeThere.resourceName);
        QVERIFY2(probe.outcome == Probed::Allowed, qPrintable(probe.detail));
        job.stop();
        QVERIFY(job.waitForFinished(60000));
    }

    void aTargetWithoutAnAuthorizerIsReportedAndTheJobRunsOn()
    {
        // The harness's plain "target" broker has no authorizer.
        const QString b = uniqueName(QStringLiteral("asz"));
        QString error;
        QVERIFY2(createTopic(direct(kSource).bootstrap, b + QStringLiteral("-t"), 1, {}, &error), qPrintable(error));
        MirrorJobSpec spec = jobSpec(b);
        spec.groupsInclude.clear();
        spec.target = clusterConfig(QStringLiteral("target"));
        MirrorJob job(spec);
        QStringList events;
        connect(&job, &MirrorJob::eventRaised, this, [&](const JobEvent &e) { events << e.text; });
        job.start();
        QTRY_VERIFY2_WITH_TIMEOUT(!events.filter(QStringLiteral("ACL sync is off for this run")).isEmpty(),
                                  qPrintable(events.join(QLatin1Char('\n'))), 60000);
        const QString said = events.filter(QStringLiteral("ACL sync is off for this run")).first();
        qInfo("%s", qPrintable(said));
        QVERIFY2(said.contains(QLatin1String("no authorizer")), qPrintable(said));
        QVERIFY(job.isRunning());
        job.stop();
        QVERIFY(job.waitForFinished(60000));
    }

    void checkListsWhatWouldChangeAndChangesNothing()
    {
        const QString b = uniqueName(QStringLiteral("asc"));
        const QString topic = b + QStringLiteral("-t");
        QString error;
        QVERIFY2(createTopic(direct(kSource).bootstrap, topic, 1, {}, &error), qPrintable(error));
        const AclEntry write = acl(QStringLiteral("ALLOW"), QStringLiteral("User:bob"), QStringLiteral("WRITE"),
                                   QStringLiteral("TOPIC"), topic);
        const AclEntry all = acl(QStringLiteral("ALLOW"), QStringLiteral("User:bob"), QStringLiteral("ALL"),
                                 QStringLiteral("TOPIC"), topic);
        QVERIFY2(m_src->createAcls({write, all}).ok(), "source bindings");
        QTemporaryDir dir;
        const QString profile = dir.filePath(QStringLiteral("acl.mirrorjob"));
        QFile f(profile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("{\"mirrordesk\": 1, \"name\": \"%1\",\n"
                               " \"source\": {\"alias\": \"src\", \"bootstrap\": \"%2\"},\n"
                               " \"target\": {\"alias\": \"dst\", \"bootstrap\": \"%3\"},\n"
                               " \"topics\": {\"include\": [\"%4\"]},\n"
                               " \"naming\": {\"policy\": \"prefix\", \"separator\": \".\"},\n"
                               " \"acls\": {\"sync\": true, \"intervalMs\": 5000}}\n")
                    .arg(b, direct(kSource).bootstrap, direct(kTarget).bootstrap, topic)
                    .toUtf8());
        f.close();
        const ExeResult r = runMirrordesk({QStringLiteral("check"), profile}, 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const QString wanted = QStringLiteral("create ALLOW User:bob READ on TOPIC src.") + topic;
        QVERIFY2(r.out.contains(QLatin1String("ACL sync (safe mode")) && r.out.contains(wanted) &&
                     r.out.contains(QLatin1String("not copied in safe mode")),
                 qPrintable(r.out));
        QVERIFY(!targetAcls().contains(acl(QStringLiteral("ALLOW"), QStringLiteral("User:bob"), QStringLiteral("READ"),
                                           QStringLiteral("TOPIC"), QStringLiteral("src.") + topic)));
    }

    void aTargetUserWithoutAlterIsReportedAndTheJobRunsOn()
    {
        const QString b = uniqueName(QStringLiteral("asn"));
        QString error;
        QVERIFY2(createTopic(direct(kSource).bootstrap, b + QStringLiteral("-t"), 1, {}, &error), qPrintable(error));
        QVERIFY2(m_src
                     ->createAcls({acl(QStringLiteral("ALLOW"), QStringLiteral("User:bob"), QStringLiteral("READ"),
                                       QStringLiteral("TOPIC"), b + QStringLiteral("-t"))})
                     .ok(),
                 "source binding");
        // What a mirror's target user needs, and no ALTER on the cluster.
        const QString T = QStringLiteral("TOPIC"), A = QStringLiteral("ALLOW");
        QVERIFY2(m_dst
                     ->createAcls({acl(A, m_user, QStringLiteral("ALL"), T, QStringLiteral("src.") + b,
                                       QStringLiteral("PREFIXED")),
                                   acl(A, m_user, QStringLiteral("ALL"), T, QStringLiteral("mirrordesk."),
                                       QStringLiteral("PREFIXED")),
                                   acl(A, m_user, QStringLiteral("DESCRIBE"), QStringLiteral("BROKER"),
                                       QStringLiteral("kafka-cluster")),
                                   acl(A, m_user, QStringLiteral("IDEMPOTENT_WRITE"), QStringLiteral("BROKER"),
                                       QStringLiteral("kafka-cluster"))})
                     .ok(),
                 "target grants");
        MirrorJobSpec spec = jobSpec(b);
        spec.groupsInclude.clear();
        spec.target.bootstrap = bootstrap(kTarget);
        spec.target.security = SecurityProtocol::SaslPlaintext;
        spec.target.saslMechanism = QString::fromLatin1(kSaslMechanism);
        spec.target.saslUsername = saslUser();
        spec.target.saslPassword = saslPassword();
        MirrorJob job(spec);
        QStringList events;
        connect(&job, &MirrorJob::eventRaised, this, [&](const JobEvent &e) { events << e.text; });
        job.start();
        QTRY_VERIFY2_WITH_TIMEOUT(!events.filter(QStringLiteral("ACL sync is off for this run")).isEmpty(),
                                  qPrintable(events.join(QLatin1Char('\n'))), 60000);
        const QString said = events.filter(QStringLiteral("ACL sync is off for this run")).first();
        qInfo("%s", qPrintable(said));
        QVERIFY2(said.contains(QLatin1String("may not change ACLs")), qPrintable(said));
        QVERIFY(job.isRunning()); // the copy goes on
        job.stop();
        QVERIFY(job.waitForFinished(60000));
    }
};

QTEST_GUILESS_MAIN(TstAclSync)
#include "tst_acl_sync.moc"
