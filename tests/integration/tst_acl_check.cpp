// ACLs against a real broker with Kafka's StandardAuthorizer (harness.sh start
// NAME --acl, SCRAM users): MirrorDesk creates and deletes bindings, reads them
// back, and answers "may P do O on R?" (checkAcl) for 40+ generated cases; each
// answer is compared with what the broker does when the principal tries the
// operation with a plain librdkafka client (acl_probe.h), and with the answer
// Kafka's documented rules give. The `mirrordesk acl` command answers the same.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "acl_probe.h"
#include "headless_support.h"
#include "network_faults.h"

#include "engine/acl/AclCheck.h"
#include "engine/admin/AdminService.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace md;
using namespace md::test;

namespace {

const QString kBroker = QStringLiteral("aclcheck");

struct Case {
    QString resourceType;
    QString name;
    QString operation;
    bool expected; // by Kafka's rules, written down by hand
    QString why;
};

AclEntry binding(const QString &permission, const QString &principal, const QString &operation, const QString &type,
                 const QString &name, const QString &pattern = QStringLiteral("LITERAL"),
                 const QString &host = QStringLiteral("*"))
{
    return AclEntry{type, name, pattern, principal, host, operation, permission};
}

} // namespace

class TstAclCheck : public QObject {
    Q_OBJECT

    QString m_admin;                         // the direct listener: an anonymous super user
    std::unique_ptr<AdminService> m_service; // MirrorDesk's admin calls, as that super user
    AclProbeClient m_user;                   // the principal under test, over SASL
    QString m_principal;
    int m_brokerId = -1;
    bool m_started = false;

    ClusterConfig adminConfig() const
    {
        ClusterConfig c;
        c.alias = QStringLiteral("aclcheck-admin");
        c.bootstrap = m_admin;
        return c;
    }

    // Creates the bindings with MirrorDesk and waits until the broker lists them
    // (its authorizer applies what DescribeAcls shows).
    bool grant(const QList<AclEntry> &bindings, QString *error)
    {
        const AdminResult<Done> done = m_service->createAcls(bindings);
        if (!done.ok()) {
            *error = done.error;
            return false;
        }
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 30000) {
            const AdminResult<QList<AclEntry>> now = m_service->listAcls();
            if (now.ok() && std::all_of(bindings.cbegin(), bindings.cend(),
                                        [&](const AclEntry &b) { return now.value.contains(b); }))
                return true;
            QThread::msleep(200);
        }
        *error = QStringLiteral("the broker did not list the new bindings within 30 s");
        return false;
    }

    // READ with Kafka's own ConsoleConsumer (a partition, no group): librdkafka
    // waits silently on a topic it may not describe, Kafka's client says why.
    ProbeResult kafkaConsoleRead(const QString &topic)
    {
        QString out, error;
        const bool ran = runKafkaTool(
            QStringLiteral("org.apache.kafka.tools.consumer.ConsoleConsumer"),
            {QStringLiteral("--bootstrap-server"), m_user.bootstrap, QStringLiteral("--topic"), topic,
             QStringLiteral("--partition"), QStringLiteral("0"), QStringLiteral("--offset"), QStringLiteral("earliest"),
             QStringLiteral("--max-messages"), QStringLiteral("1"), QStringLiteral("--timeout-ms"),
             QStringLiteral("20000"), QStringLiteral("--consumer-property"),
             QStringLiteral("security.protocol=SASL_PLAINTEXT"), QStringLiteral("--consumer-property"),
             QStringLiteral("sasl.mechanism=") + QString::fromLatin1(kSaslMechanism),
             QStringLiteral("--consumer-property"),
             QStringLiteral("sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required "
                            "username=\"%1\" password=\"%2\";")
                 .arg(saslUser(), saslPassword())},
            &out, &error, 120000);
        const QString all = out + error;
        if (all.contains(QLatin1String("TopicAuthorizationException")))
            return {Probed::Denied, QStringLiteral("TopicAuthorizationException")};
        if (ran && out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).contains(QLatin1String("v")))
            return {Probed::Allowed, {}};
        return {Probed::Unknown, all.right(1500)};
    }

    ProbeResult probe(const Case &c, const QString &readableTopic)
    {
        const QString &op = c.operation;
        if (c.resourceType == QLatin1String("TOPIC")) {
            if (op == QLatin1String("READ"))
                return kafkaConsoleRead(c.name);
            if (op == QLatin1String("WRITE"))
                return probeTopicWrite(m_user, c.name);
            if (op == QLatin1String("DESCRIBE"))
                return probeTopicDescribe(m_user, c.name);
            if (op == QLatin1String("DESCRIBE_CONFIGS"))
                return probeDescribeConfigs(m_user, RD_KAFKA_RESOURCE_TOPIC, c.name);
            if (op == QLatin1String("ALTER_CONFIGS"))
                return probeAlterConfigs(m_user, RD_KAFKA_RESOURCE_TOPIC, c.name);
            if (op == QLatin1String("CREATE"))
                return probeTopicCreateOrDelete(m_user, c.name, true);
            if (op == QLatin1String("DELETE"))
                return probeTopicCreateOrDelete(m_user, c.name, false);
        } else if (c.resourceType == QLatin1String("GROUP")) {
            if (op == QLatin1String("DESCRIBE"))
                return probeGroupDescribe(m_user, c.name);
            if (op == QLatin1String("READ"))
                return probeGroupRead(m_user, c.name, readableTopic);
            if (op == QLatin1String("DELETE"))
                return probeGroupDelete(m_user, c.name);
        } else if (c.resourceType == QLatin1String("BROKER")) {
            if (op == QLatin1String("DESCRIBE_CONFIGS"))
                return probeDescribeConfigs(m_user, RD_KAFKA_RESOURCE_BROKER, QString::number(m_brokerId));
            if (op == QLatin1String("ALTER_CONFIGS"))
                return probeAlterConfigs(m_user, RD_KAFKA_RESOURCE_BROKER, QString::number(m_brokerId));
            if (op == QLatin1String("ALTER"))
                return probeClusterAlter(m_user, readableTopic);
        } else if (c.resourceType == QLatin1String("TRANSACTIONAL_ID")) {
            if (op == QLatin1String("WRITE"))
                return probeTransactionalWrite(m_user, c.name);
        }
        return {Probed::Unknown, QStringLiteral("no probe for %1 on %2").arg(op, c.resourceType)};
    }

    // Every case three ways: Kafka's rules by hand, checkAcl on the bindings
    // MirrorDesk read back, and the broker itself. Returns how many were run.
    int runCases(const QList<Case> &cases, const QString &readableTopic)
    {
        const AdminResult<QList<AclEntry>> bindings = m_service->listAcls();
        if (!bindings.ok()) {
            QTest::qFail(qPrintable(bindings.error), __FILE__, __LINE__);
            return 0;
        }
        const AdminResult<AclRules> rules = m_service->aclRules();
        if (!rules.ok()) {
            QTest::qFail(qPrintable(rules.error), __FILE__, __LINE__);
            return 0;
        }
        int run = 0;
        for (const Case &c : cases) {
            const AclAnswer answer =
                checkAcl(bindings.value,
                         {m_principal, QStringLiteral("127.0.0.1"), c.operation, c.resourceType, c.name}, rules.value);
            const ProbeResult broker = probe(c, readableTopic);
            const QString label = QStringLiteral("%1 %2 %3 (%4)").arg(c.operation, c.resourceType, c.name, c.why);
            qInfo("%-70s expected %-7s checkAcl %-7s broker %-7s %s", qPrintable(label),
                  c.expected ? "allowed" : "denied", answer.allowed ? "allowed" : "denied",
                  broker.outcome == Probed::Allowed  ? "allowed"
                  : broker.outcome == Probed::Denied ? "denied"
                                                     : "unknown",
                  qPrintable(answer.explanation));
            if (broker.outcome == Probed::Unknown) {
                QTest::qFail(qPrintable(label + QStringLiteral(": the broker's answer is unclear: ") + broker.detail),
                             __FILE__, __LINE__);
                return run;
            }
            const bool brokerAllowed = broker.outcome == Probed::Allowed;
            if (brokerAllowed != c.expected) {
                QTest::qFail(
                    qPrintable(label + QStringLiteral(": the broker says %1 (%2), Kafka's rules say %3")
                                           .arg(brokerAllowed ? QStringLiteral("allowed") : QStringLiteral("denied"),
                                                broker.detail,
                                                c.expected ? QStringLiteral("allowed") : QStringLiteral("denied"))),
                    __FILE__, __LINE__);
                return run;
            }
            if (answer.allowed != brokerAllowed) {
                QTest::qFail(
                    qPrintable(label + QStringLiteral(": checkAcl says %1 (%2), the broker %3")
                                           .arg(answer.allowed ? QStringLiteral("allowed") : QStringLiteral("denied"),
                                                answer.explanation,
                                                brokerAllowed ? QStringLiteral("allowed") : QStringLiteral("denied"))),
                    __FILE__, __LINE__);
                return run;
            }
            ++run;
        }
        return run;
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        QString error;
        runHarness({QStringLiteral("stop"), kBroker}); // left by a killed run
        QVERIFY2(runHarness({QStringLiteral("start"), kBroker, QStringLiteral("--acl")}, &error), qPrintable(error));
        m_started = true;
        m_admin = directBootstrap(kBroker);
        QVERIFY(!m_admin.isEmpty());
        m_service = AdminService::create(adminConfig(), &error, 20000);
        QVERIFY2(m_service, qPrintable(error));
        const AdminResult<ClusterMetadata> md = m_service->metadata();
        QVERIFY2(md.ok() && !md.value.brokers.isEmpty(), qPrintable(md.error));
        m_brokerId = md.value.brokers.first().id;
        // A fresh broker creates its group coordinator's topic on first use; until
        // then group requests answer NOT_COORDINATOR. Ready it as the super user, so
        // the probes meet a broker that answers every group request.
        const AclProbeClient superUser{m_admin, {}};
        QElapsedTimer ready;
        ready.start();
        ProbeResult warm;
        while ((warm = probeGroupDescribe(superUser, QStringLiteral("aclcheck-warmup"))).outcome != Probed::Allowed &&
               ready.elapsed() < 60000)
            QThread::msleep(500);
        QVERIFY2(warm.outcome == Probed::Allowed,
                 qPrintable(QStringLiteral("group coordinator not ready: ") + warm.detail));
        m_principal = QStringLiteral("User:") + saslUser();
        m_user.bootstrap = bootstrap(kBroker);
        m_user.properties = {{QStringLiteral("security.protocol"), QStringLiteral("SASL_PLAINTEXT")},
                             {QStringLiteral("sasl.mechanism"), QString::fromLatin1(kSaslMechanism)},
                             {QStringLiteral("sasl.username"), saslUser()},
                             {QStringLiteral("sasl.password"), saslPassword()}};
    }

    void cleanupTestCase()
    {
        m_service.reset();
        if (m_started)
            runHarness({QStringLiteral("stop"), kBroker});
    }

    void theBrokersRulesAreRead()
    {
        const AdminResult<AclRules> rules = m_service->aclRules();
        QVERIFY2(rules.ok(), qPrintable(rules.error));
        // Set in server.properties (super.users=User:ANONYMOUS, allow.everyone... false), but
        // Kafka reports the authorizer's settings as sensitive: known to be set, not what to.
        QVERIFY(rules.value.superUsers.isEmpty());
        QVERIFY(rules.value.superUsersHidden);
        QVERIFY(rules.value.allowEveryoneHidden);
        QCOMPARE(rules.value.allowEveryoneIfNoAclFound, false);
    }

    void answersMatchTheBroker()
    {
        const QString b = uniqueName(QStringLiteral("acl"));
        const QString me = m_principal;
        const QString T = QStringLiteral("TOPIC"), G = QStringLiteral("GROUP"), C = QStringLiteral("BROKER"),
                      X = QStringLiteral("TRANSACTIONAL_ID"), P = QStringLiteral("PREFIXED");
        const QString ALLOW = QStringLiteral("ALLOW"), DENY = QStringLiteral("DENY");
        const auto n = [&](const char *suffix) -> QString { return b + QLatin1String(suffix); };

        // Topics, each holding one record (a READ must find something to read).
        const QStringList topics{n("-s1-open"), n("-s1-secret"), n("-s2-shared"), n("-s3-bobs"),
                                 n("-s3-none"), n("-s4-cfg"),    n("-s4-gone"),   n("-s5-host"),
                                 n("-s6-t"),    n("-s9-abc"),    n("-s9-a"),      n("-s9-xab")};
        QString error;
        for (const QString &t : topics) {
            QVERIFY2(createTopic(m_admin, t, 1, {}, &error), qPrintable(error));
            QVERIFY2(produce(m_admin, t, {TestRecord{QByteArray("k"), QByteArray("v"), {}, -1, 0, -1}}, &error),
                     qPrintable(error));
        }

        const QList<AclEntry> bindings{
            // s1: a prefixed ALLOW and a literal DENY under it.
            binding(ALLOW, me, QStringLiteral("READ"), T, n("-s1-"), P),
            binding(DENY, me, QStringLiteral("READ"), T, n("-s1-secret")),
            // s2: everyone may do everything, but this principal may not write, and nobody delete.
            binding(ALLOW, QStringLiteral("User:*"), QStringLiteral("ALL"), T, n("-s2-shared")),
            binding(DENY, me, QStringLiteral("WRITE"), T, n("-s2-shared")),
            binding(DENY, QStringLiteral("User:*"), QStringLiteral("DELETE"), T, n("-s2-shared")),
            // s3: a topic only someone else may use (s3-none has no binding at all).
            binding(ALLOW, QStringLiteral("User:bob"), QStringLiteral("ALL"), T, n("-s3-bobs")),
            // s4: implied operations; a DELETE that goes through.
            binding(ALLOW, me, QStringLiteral("ALTER_CONFIGS"), T, n("-s4-"), P),
            binding(ALLOW, me, QStringLiteral("WRITE"), T, n("-s4-"), P),
            binding(ALLOW, me, QStringLiteral("CREATE"), T, n("-s4-"), P),
            binding(ALLOW, me, QStringLiteral("DELETE"), T, n("-s4-gone")),
            // s5: hosts: READ only from another address, DESCRIBE from this one.
            binding(ALLOW, me, QStringLiteral("READ"), T, n("-s5-host"), QStringLiteral("LITERAL"),
                    QStringLiteral("10.9.9.9")),
            binding(ALLOW, me, QStringLiteral("DESCRIBE"), T, n("-s5-host"), QStringLiteral("LITERAL"),
                    QStringLiteral("127.0.0.1")),
            // s6: groups.
            binding(ALLOW, me, QStringLiteral("READ"), T, n("-s6-"), P),
            binding(ALLOW, me, QStringLiteral("READ"), G, n("-s6-g"), P),
            binding(DENY, me, QStringLiteral("DELETE"), G, n("-s6-gx")),
            // s7: the cluster.
            binding(ALLOW, me, QStringLiteral("DESCRIBE_CONFIGS"), C, QStringLiteral("kafka-cluster")),
            // s8: transactional ids.
            binding(ALLOW, me, QStringLiteral("WRITE"), X, n("-s8-tx"), P),
            // s9: where a prefix ends.
            binding(ALLOW, me, QStringLiteral("READ"), T, n("-s9-ab"), P),
        };
        QVERIFY2(grant(bindings, &error), qPrintable(error));

        const QList<Case> cases{
            {T, n("-s1-open"), QStringLiteral("READ"), true, QStringLiteral("prefixed allow")},
            {T, n("-s1-open"), QStringLiteral("DESCRIBE"), true, QStringLiteral("READ implies DESCRIBE")},
            {T, n("-s1-open"), QStringLiteral("WRITE"), false, QStringLiteral("only READ allowed")},
            {T, n("-s1-open"), QStringLiteral("DESCRIBE_CONFIGS"), false, QStringLiteral("READ does not imply it")},
            {T, n("-s1-open"), QStringLiteral("ALTER_CONFIGS"), false, QStringLiteral("not granted")},
            {T, n("-s1-new"), QStringLiteral("CREATE"), false, QStringLiteral("READ does not imply CREATE")},
            {T, n("-s1-secret"), QStringLiteral("READ"), false, QStringLiteral("literal deny wins")},
            {T, n("-s1-secret"), QStringLiteral("DESCRIBE"), true, QStringLiteral("DENY READ leaves DESCRIBE")},
            {T, n("-s2-shared"), QStringLiteral("READ"), true, QStringLiteral("User:* ALL")},
            {T, n("-s2-shared"), QStringLiteral("WRITE"), false, QStringLiteral("deny wins over User:* ALL")},
            {T, n("-s2-shared"), QStringLiteral("DESCRIBE"), true, QStringLiteral("User:* ALL")},
            {T, n("-s2-shared"), QStringLiteral("DESCRIBE_CONFIGS"), true, QStringLiteral("User:* ALL")},
            {T, n("-s2-shared"), QStringLiteral("ALTER_CONFIGS"), true, QStringLiteral("User:* ALL")},
            {T, n("-s3-bobs"), QStringLiteral("READ"), false, QStringLiteral("only bob")},
            {T, n("-s3-bobs"), QStringLiteral("WRITE"), false, QStringLiteral("only bob")},
            {T, n("-s3-bobs"), QStringLiteral("DESCRIBE"), false, QStringLiteral("only bob")},
            {T, n("-s3-bobs"), QStringLiteral("DESCRIBE_CONFIGS"), false, QStringLiteral("only bob")},
            {T, n("-s3-none"), QStringLiteral("READ"), false, QStringLiteral("no binding, allow.everyone false")},
            {T, n("-s3-none"), QStringLiteral("DESCRIBE"), false, QStringLiteral("no binding")},
            {T, n("-s4-cfg"), QStringLiteral("DESCRIBE_CONFIGS"), true, QStringLiteral("ALTER_CONFIGS implies it")},
            {T, n("-s4-cfg"), QStringLiteral("ALTER_CONFIGS"), true, QStringLiteral("prefixed allow")},
            {T, n("-s4-cfg"), QStringLiteral("WRITE"), true, QStringLiteral("prefixed allow")},
            {T, n("-s4-cfg"), QStringLiteral("DESCRIBE"), true, QStringLiteral("WRITE implies DESCRIBE")},
            {T, n("-s4-cfg"), QStringLiteral("READ"), false, QStringLiteral("not granted")},
            {T, n("-s4-cfg"), QStringLiteral("DELETE"), false, QStringLiteral("DELETE only on s4-gone")},
            {T, n("-s4-new"), QStringLiteral("CREATE"), true, QStringLiteral("prefixed CREATE")},
            {T, n("-s5-host"), QStringLiteral("READ"), false, QStringLiteral("READ only from 10.9.9.9")},
            {T, n("-s5-host"), QStringLiteral("DESCRIBE"), true, QStringLiteral("DESCRIBE from 127.0.0.1")},
            {T, n("-s5-host"), QStringLiteral("WRITE"), false, QStringLiteral("not granted")},
            {G, n("-s6-g1"), QStringLiteral("DESCRIBE"), true, QStringLiteral("group READ implies DESCRIBE")},
            {G, n("-s6-g1"), QStringLiteral("READ"), true, QStringLiteral("prefixed group READ")},
            {G, n("-s6-g1"), QStringLiteral("DELETE"), false, QStringLiteral("not granted")},
            {G, n("-s6-gx"), QStringLiteral("DELETE"), false, QStringLiteral("denied")},
            {G, n("-s6-other"), QStringLiteral("DESCRIBE"), false, QStringLiteral("no binding")},
            {C, QStringLiteral("kafka-cluster"), QStringLiteral("DESCRIBE_CONFIGS"), true,
             QStringLiteral("cluster DESCRIBE_CONFIGS")},
            {C, QStringLiteral("kafka-cluster"), QStringLiteral("ALTER_CONFIGS"), false, QStringLiteral("not granted")},
            {C, QStringLiteral("kafka-cluster"), QStringLiteral("ALTER"), false, QStringLiteral("not granted")},
            {X, n("-s8-tx1"), QStringLiteral("WRITE"), true, QStringLiteral("prefixed transactional id")},
            {X, n("-s9-tx"), QStringLiteral("WRITE"), false, QStringLiteral("no binding")},
            {T, n("-s9-abc"), QStringLiteral("READ"), true, QStringLiteral("prefix ab of abc")},
            {T, n("-s9-abc"), QStringLiteral("DESCRIBE"), true, QStringLiteral("READ implies DESCRIBE")},
            {T, n("-s9-a"), QStringLiteral("READ"), false, QStringLiteral("shorter than the prefix")},
            {T, n("-s9-xab"), QStringLiteral("READ"), false, QStringLiteral("prefix is not a substring")},
            // Destructive last: the topic goes.
            {T, n("-s2-shared"), QStringLiteral("DELETE"), false, QStringLiteral("User:* DENY DELETE")},
            {T, n("-s4-gone"), QStringLiteral("DELETE"), true, QStringLiteral("literal DELETE")},
        };
        const int run = runCases(cases, n("-s6-t"));
        QCOMPARE(run, int(cases.size()));
        QVERIFY(run >= 40);

        // Deleting a binding with MirrorDesk takes the right away, on the broker and in the answer.
        const AdminResult<int> deleted = m_service->deleteAcls({bindings.last()});
        QVERIFY2(deleted.ok(), qPrintable(deleted.error));
        QCOMPARE(deleted.value, 1);
        QTRY_VERIFY_WITH_TIMEOUT(!m_service->listAcls().value.contains(bindings.last()), 30000);
        QCOMPARE(runCases({{T, n("-s9-abc"), QStringLiteral("READ"), false, QStringLiteral("its binding deleted")}},
                          n("-s6-t")),
                 1);
        // A binding that is not there deletes nothing, and says so.
        const AdminResult<int> again = m_service->deleteAcls({bindings.last()});
        QVERIFY2(again.ok(), qPrintable(again.error));
        QCOMPARE(again.value, 0);
    }

    void aUserWithoutAlterIsRefusedWithTheReason()
    {
        ClusterConfig user;
        user.alias = QStringLiteral("aclcheck-user");
        user.bootstrap = bootstrap(kBroker);
        user.security = SecurityProtocol::SaslPlaintext;
        user.saslMechanism = QString::fromLatin1(kSaslMechanism);
        user.saslUsername = saslUser();
        user.saslPassword = saslPassword();
        QString error;
        std::unique_ptr<AdminService> service = AdminService::create(user, &error, 20000);
        QVERIFY2(service, qPrintable(error));
        const AdminResult<Done> done =
            service->createAcls({binding(QStringLiteral("ALLOW"), QStringLiteral("User:eve"), QStringLiteral("READ"),
                                         QStringLiteral("TOPIC"), uniqueName(QStringLiteral("eve")))});
        QVERIFY(!done.ok());
        qInfo("%s", qPrintable(done.error));
        QVERIFY2(done.error.contains(QLatin1String("ALTER on the cluster")), qPrintable(done.error));
    }

    void theCommandAnswersTheSame()
    {
        // A profile whose clusters are the broker's super-user listener (no secret in the file).
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString profile = dir.filePath(QStringLiteral("acl.mirrorjob"));
        {
            QFile f(profile);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QStringLiteral("{\"mirrordesk\": 1, \"name\": \"acl-cli\",\n"
                                   " \"source\": {\"alias\": \"src\", \"bootstrap\": \"%1\"},\n"
                                   " \"target\": {\"alias\": \"dst\", \"bootstrap\": \"%2\"},\n"
                                   " \"topics\": {\"include\": [\"x\"]}}\n")
                        .arg(sourceBootstrap(), m_admin)
                        .toUtf8());
        }
        const QString topic = uniqueName(QStringLiteral("acl-cli"));
        const QStringList who{QStringLiteral("--principal"), m_principal, QStringLiteral("--topic"), topic};

        // Dry run: nothing changes.
        ExeResult r = runMirrordesk(QStringList{QStringLiteral("acl"), QStringLiteral("create"), profile,
                                                QStringLiteral("--operation"), QStringLiteral("read"),
                                                QStringLiteral("--dry-run")} +
                                        who,
                                    60000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String("dry run")), qPrintable(r.out));
        r = runMirrordesk(QStringList{QStringLiteral("acl"), QStringLiteral("check"), profile,
                                      QStringLiteral("--operation"), QStringLiteral("READ")} +
                              who,
                          60000);
        QVERIFY2(r.exitCode == 1, qPrintable(r.out + r.err));
        QVERIFY2(r.out.startsWith(QLatin1String("DENIED")), qPrintable(r.out));

        // Created for real: listed, and the check allows READ (and DESCRIBE, which it implies).
        r = runMirrordesk(QStringList{QStringLiteral("acl"), QStringLiteral("create"), profile,
                                      QStringLiteral("--operation"), QStringLiteral("READ")} +
                              who,
                          60000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QTRY_VERIFY_WITH_TIMEOUT(
            (r = runMirrordesk({QStringLiteral("acl"), QStringLiteral("list"), profile, QStringLiteral("--principal"),
                                m_principal, QStringLiteral("--topic"), topic},
                               60000))
                .out.contains(topic),
            30000);
        r = runMirrordesk(QStringList{QStringLiteral("acl"), QStringLiteral("check"), profile,
                                      QStringLiteral("--operation"), QStringLiteral("DESCRIBE")} +
                              who,
                          60000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.startsWith(QLatin1String("ALLOWED")) && r.out.contains(QLatin1String("READ on TOPIC")),
                 qPrintable(r.out));
        // The super user is allowed whatever the bindings say.
        // The brokers hide super.users: a "no" says it may be wrong for one; given, a super user may do anything.
        r = runMirrordesk({QStringLiteral("acl"), QStringLiteral("check"), profile, QStringLiteral("--principal"),
                           QStringLiteral("User:ANONYMOUS"), QStringLiteral("--operation"), QStringLiteral("DELETE"),
                           QStringLiteral("--topic"), topic},
                          60000);
        QVERIFY2(r.exitCode == 1 && r.out.contains(QLatin1String("do not reveal")), qPrintable(r.out + r.err));
        r = runMirrordesk({QStringLiteral("acl"), QStringLiteral("check"), profile, QStringLiteral("--principal"),
                           QStringLiteral("User:ANONYMOUS"), QStringLiteral("--operation"), QStringLiteral("DELETE"),
                           QStringLiteral("--topic"), topic, QStringLiteral("--super-user"),
                           QStringLiteral("User:ANONYMOUS")},
                          60000);
        QVERIFY2(r.exitCode == 0 && r.out.contains(QLatin1String("super user")), qPrintable(r.out + r.err));

        // Deleted: gone; deleting again says there was nothing.
        r = runMirrordesk(QStringList{QStringLiteral("acl"), QStringLiteral("delete"), profile,
                                      QStringLiteral("--operation"), QStringLiteral("READ")} +
                              who,
                          60000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        r = runMirrordesk(QStringList{QStringLiteral("acl"), QStringLiteral("delete"), profile,
                                      QStringLiteral("--operation"), QStringLiteral("READ")} +
                              who,
                          60000);
        QVERIFY2(r.exitCode == 1 && r.err.contains(QLatin1String("nothing deleted")), qPrintable(r.out + r.err));

        // Bad input names the problem.
        r = runMirrordesk({QStringLiteral("acl"), QStringLiteral("check"), profile, QStringLiteral("--principal"),
                           QStringLiteral("alice"), QStringLiteral("--operation"), QStringLiteral("READ"),
                           QStringLiteral("--topic"), topic},
                          60000);
        QVERIFY2(r.exitCode == 2 && r.err.contains(QLatin1String("Type:name")), qPrintable(r.err));
        r = runMirrordesk({QStringLiteral("acl"), QStringLiteral("check"), profile, QStringLiteral("--principal"),
                           m_principal, QStringLiteral("--operation"), QStringLiteral("READ")},
                          60000);
        QVERIFY2(r.exitCode == 2 && r.err.contains(QLatin1String("no resource given")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TstAclCheck)
#include "tst_acl_check.moc"
