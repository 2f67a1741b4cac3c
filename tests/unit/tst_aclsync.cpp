// planAclSync: which source bindings follow a job to the target, renamed as
// its topics are, in safe and exact mode, and that only what the job created
// is ever deleted.

#include "engine/acl/AclSync.h"
#include "engine/mirror/TopicNaming.h"

#include <QtTest/QtTest>

using namespace md;

namespace {

AclEntry acl(const QString &permission, const QString &principal, const QString &operation, const QString &type,
             const QString &name, const QString &pattern = QStringLiteral("LITERAL"))
{
    return AclEntry{type, name, pattern, principal, QStringLiteral("*"), operation, permission};
}

MirrorJobSpec spec()
{
    MirrorJobSpec s;
    s.name = QStringLiteral("acl-job");
    s.source.alias = QStringLiteral("src");
    s.source.bootstrap = QStringLiteral("a:9092");
    s.target.alias = QStringLiteral("dst");
    s.target.bootstrap = QStringLiteral("b:9092");
    s.include = {QStringLiteral("orders.*"), QStringLiteral("payments")};
    s.exclude = {QStringLiteral("orders-private")};
    s.naming = NamingPolicy::Prefix;
    s.separator = QStringLiteral(".");
    s.groupsInclude = {QStringLiteral("app-.*")};
    s.syncAcls = true;
    return s;
}

const QStringList kTopics{QStringLiteral("orders"), QStringLiteral("orders-eu"), QStringLiteral("orders-private"),
                          QStringLiteral("payments"), QStringLiteral("audit")};

QStringList described(const QList<AclEntry> &list)
{
    QStringList out;
    for (const AclEntry &b : list)
        out.append(describeAcl(b));
    out.sort();
    return out;
}

} // namespace

class TstAclSync : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void whatFollowsInSafeMode()
    {
        const QString A = QStringLiteral("ALLOW"), D = QStringLiteral("DENY"), T = QStringLiteral("TOPIC"),
                      G = QStringLiteral("GROUP"), P = QStringLiteral("PREFIXED");
        const QString alice = QStringLiteral("User:alice"), bob = QStringLiteral("User:bob");
        AclSyncInput in;
        in.sourceTopics = kTopics;
        in.source = {
            acl(A, alice, QStringLiteral("READ"), T, QStringLiteral("orders")),         // follows, renamed
            acl(A, alice, QStringLiteral("WRITE"), T, QStringLiteral("orders")),        // safe: not copied
            acl(A, bob, QStringLiteral("ALL"), T, QStringLiteral("payments")),          // safe: READ
            acl(D, bob, QStringLiteral("READ"), T, QStringLiteral("orders-"), P),       // prefix of mirrored topics
            acl(A, bob, QStringLiteral("READ"), T, QStringLiteral("aud"), P),           // prefix of nothing mirrored
            acl(A, alice, QStringLiteral("READ"), T, QStringLiteral("orders-private")), // excluded topic
            acl(A, alice, QStringLiteral("READ"), T, QStringLiteral("audit")),          // not selected
            acl(A, alice, QStringLiteral("READ"), T, QStringLiteral("*")),              // every topic: stays
            acl(A, alice, QStringLiteral("READ"), G, QStringLiteral("app-billing")),    // selected group
            acl(A, alice, QStringLiteral("READ"), G, QStringLiteral("batch")),          // not selected
            acl(A, alice, QStringLiteral("READ"), G, QStringLiteral("app-"), P),        // prefix selected
            acl(A, alice, QStringLiteral("ALTER"), QStringLiteral("BROKER"), QStringLiteral("kafka-cluster")),
            acl(A, alice, QStringLiteral("WRITE"), QStringLiteral("TRANSACTIONAL_ID"), QStringLiteral("tx")),
        };
        const AclSyncPlan plan = planAclSync(spec(), in);
        QCOMPARE(described(plan.wanted),
                 (QStringList{QStringLiteral("ALLOW User:alice READ on GROUP app- (PREFIXED)"),
                              QStringLiteral("ALLOW User:alice READ on GROUP app-billing"),
                              QStringLiteral("ALLOW User:alice READ on TOPIC src.orders"),
                              QStringLiteral("ALLOW User:bob READ on TOPIC src.payments"),
                              QStringLiteral("DENY User:bob READ on TOPIC src.orders- (PREFIXED)")}));
        QCOMPARE(plan.create.size(), plan.wanted.size());
        QVERIFY(plan.remove.isEmpty());
        QCOMPARE(plan.notes.size(), 1);
        QVERIFY2(plan.notes.first().contains(QLatin1String("WRITE")) &&
                     plan.notes.first().contains(QLatin1String("safe mode")),
                 qPrintable(plan.notes.first()));
    }

    void exactModeCopiesAsTheyAre()
    {
        MirrorJobSpec s = spec();
        s.aclSyncMode = MirrorJobSpec::AclSyncMode::Exact;
        AclSyncInput in;
        in.sourceTopics = kTopics;
        in.source = {acl(QStringLiteral("ALLOW"), QStringLiteral("User:alice"), QStringLiteral("WRITE"),
                         QStringLiteral("TOPIC"), QStringLiteral("orders")),
                     acl(QStringLiteral("ALLOW"), QStringLiteral("User:bob"), QStringLiteral("ALL"),
                         QStringLiteral("TOPIC"), QStringLiteral("payments"))};
        const AclSyncPlan plan = planAclSync(s, in);
        QCOMPARE(described(plan.wanted), (QStringList{QStringLiteral("ALLOW User:alice WRITE on TOPIC src.orders"),
                                                      QStringLiteral("ALLOW User:bob ALL on TOPIC src.payments")}));
        QVERIFY(plan.notes.isEmpty());
    }

    void identityNamingKeepsNamesAndTemplatesCannotRenamePrefixes()
    {
        MirrorJobSpec s = spec();
        s.naming = NamingPolicy::Identity;
        AclSyncInput in;
        in.sourceTopics = kTopics;
        const AclEntry prefixed = acl(QStringLiteral("ALLOW"), QStringLiteral("User:bob"), QStringLiteral("READ"),
                                      QStringLiteral("TOPIC"), QStringLiteral("orders"), QStringLiteral("PREFIXED"));
        in.source = {prefixed};
        QCOMPARE(planAclSync(s, in).wanted, QList<AclEntry>{prefixed});
        s.naming = NamingPolicy::Template;
        s.nameTemplate = QStringLiteral("${topic}.copy");
        const AclSyncPlan plan = planAclSync(s, in);
        QVERIFY(plan.wanted.isEmpty());
        QCOMPARE(plan.notes.size(), 1);
        QVERIFY2(plan.notes.first().contains(QLatin1String("template")), qPrintable(plan.notes.first()));
    }

    void onlyWhatTheJobMadeIsDeleted()
    {
        const AclEntry kept = acl(QStringLiteral("ALLOW"), QStringLiteral("User:alice"), QStringLiteral("READ"),
                                  QStringLiteral("TOPIC"), QStringLiteral("orders"));
        const AclEntry keptOnTarget = acl(QStringLiteral("ALLOW"), QStringLiteral("User:alice"), QStringLiteral("READ"),
                                          QStringLiteral("TOPIC"), QStringLiteral("src.orders"));
        const AclEntry madeGone = acl(QStringLiteral("ALLOW"), QStringLiteral("User:bob"), QStringLiteral("READ"),
                                      QStringLiteral("TOPIC"), QStringLiteral("src.payments"));
        const AclEntry madeAlreadyDeleted =
            acl(QStringLiteral("ALLOW"), QStringLiteral("User:eve"), QStringLiteral("READ"), QStringLiteral("TOPIC"),
                QStringLiteral("src.orders"));
        const AclEntry operators = acl(QStringLiteral("ALLOW"), QStringLiteral("User:carol"), QStringLiteral("READ"),
                                       QStringLiteral("TOPIC"), QStringLiteral("src.payments"));
        AclSyncInput in;
        in.sourceTopics = kTopics;
        in.source = {kept};
        in.target = {keptOnTarget, madeGone, operators};
        in.made = {keptOnTarget, madeGone, madeAlreadyDeleted};
        const AclSyncPlan plan = planAclSync(spec(), in);
        QVERIFY(plan.create.isEmpty()); // already there
        QCOMPARE(plan.remove, QList<AclEntry>{madeGone});
        QCOMPARE(plan.forget, QList<AclEntry>{madeAlreadyDeleted});
        // The operator's binding is neither wanted nor made: untouched.
        QVERIFY(!plan.remove.contains(operators));

        // A binding the operator made that the source also has is wanted but not the job's:
        // when the source loses it, it stays.
        in.source.clear();
        in.made = {};
        const AclSyncPlan later = planAclSync(spec(), in);
        QVERIFY(later.remove.isEmpty());
        QVERIFY(later.forget.isEmpty());
    }

    void theRecordsTopicIsNeverMirrored()
    {
        MirrorJobSpec s = spec();
        s.include = {QStringLiteral(".*")};
        const QString records = aclSyncRecordsTopicOf(s);
        QVERIFY2(records.endsWith(QLatin1String(".acl-sync")), qPrintable(records));
        QVERIFY(!records.contains(QLatin1String("offset-map")));
        QVERIFY(!topicSelected(s, records));
    }
};

QTEST_GUILESS_MAIN(TstAclSync)
#include "tst_aclsync.moc"
