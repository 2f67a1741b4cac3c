// The ACL evaluator of engine/acl (checkAcl, after Kafka's StandardAuthorizer)
// and the binding checks it relies on (normalizedAcl, normalizedQuestion),
// without a cluster: one table of questions against bindings, one of typed
// bindings and what they normalise to or why they are refused.
#include "engine/acl/Acl.h"
#include "engine/acl/AclCheck.h"

#include <QtTest/QtTest>

using namespace md;

namespace {

// "ALLOW User:alice READ TOPIC orders [LITERAL|PREFIXED] [host]": a binding in one line.
AclEntry binding(const char *spec)
{
    const QStringList f = QString::fromUtf8(spec).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    Q_ASSERT(f.size() >= 5);
    return AclEntry{f.at(3), f.at(4), f.value(5, QStringLiteral("LITERAL")), f.at(1), f.value(6, QStringLiteral("*")),
                    f.at(2), f.at(0)};
}

QList<AclEntry> bindings(std::initializer_list<const char *> specs)
{
    QList<AclEntry> out;
    for (const char *s : specs)
        out.append(binding(s));
    return out;
}

QStringList strings(std::initializer_list<const char *> texts)
{
    QStringList out;
    for (const char *t : texts)
        out.append(QString::fromUtf8(t));
    return out;
}

QString str(const char *text)
{
    return text ? QString::fromUtf8(text) : QString();
}

using Reason = AclAnswer::Reason;

} // namespace

class TestAclCheck final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void check_data()
    {
        QTest::addColumn<QStringList>("specs");
        QTest::addColumn<QString>("principal");
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("operation");
        QTest::addColumn<QString>("resourceType");
        QTest::addColumn<QString>("resourceName");
        QTest::addColumn<QStringList>("superUsers");
        QTest::addColumn<bool>("allowEveryone");
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<int>("reason");
        QTest::addColumn<int>("deciding"); // how many bindings decided

        const char *alice = "User:alice";
        const char *bob = "User:bob";
        const char *topic = "TOPIC";
        const char *orders = "orders";
        const char *read = "READ";
        const char *describe = "DESCRIBE";
        const auto row = [](const char *name, std::initializer_list<const char *> specs, const char *principal,
                            const char *host, const char *op, const char *type, const char *resource, bool allowed,
                            Reason reason, int deciding, std::initializer_list<const char *> supers = {},
                            bool allowEveryone = false) {
            QTest::newRow(name) << strings(specs) << str(principal) << str(host) << str(op) << str(type)
                                << str(resource) << strings(supers) << allowEveryone << allowed << int(reason)
                                << deciding;
        };

        // Which bindings cover the resource.
        row("literal match", {"ALLOW User:alice READ TOPIC orders"}, alice, {}, read, topic, orders, true,
            Reason::Allowed, 1);
        row("literal other name", {"ALLOW User:alice READ TOPIC orders"}, alice, {}, read, topic, "orders2", false,
            Reason::NoAcls, 0);
        row("literal name is no prefix", {"ALLOW User:alice READ TOPIC ord LITERAL"}, alice, {}, read, topic, orders,
            false, Reason::NoAcls, 0);
        row("literal * covers every topic", {"ALLOW User:alice READ TOPIC *"}, alice, {}, read, topic, orders, true,
            Reason::Allowed, 1);
        row("prefixed match", {"ALLOW User:alice READ TOPIC ord PREFIXED"}, alice, {}, read, topic, orders, true,
            Reason::Allowed, 1);
        row("prefixed equal to the name", {"ALLOW User:alice READ TOPIC orders PREFIXED"}, alice, {}, read, topic,
            orders, true, Reason::Allowed, 1);
        row("prefixed non-match", {"ALLOW User:alice READ TOPIC pay PREFIXED"}, alice, {}, read, topic, orders, false,
            Reason::NoAcls, 0);
        row("prefixed is case-sensitive", {"ALLOW User:alice READ TOPIC Ord PREFIXED"}, alice, {}, read, topic, orders,
            false, Reason::NoAcls, 0);
        row("another resource type", {"ALLOW User:alice READ GROUP orders"}, alice, {}, read, topic, orders, false,
            Reason::NoAcls, 0);

        // Principals and hosts.
        row("User:* is everyone", {"ALLOW User:* READ TOPIC orders"}, bob, {}, read, topic, orders, true,
            Reason::Allowed, 1);
        row("host binding, that host", {"ALLOW User:alice READ TOPIC orders LITERAL 10.0.0.1"}, alice, "10.0.0.1", read,
            topic, orders, true, Reason::Allowed, 1);
        row("host binding, other host", {"ALLOW User:alice READ TOPIC orders LITERAL 10.0.0.1"}, alice, "10.0.0.2",
            read, topic, orders, false, Reason::NoAllow, 1);
        row("host binding, host unknown", {"ALLOW User:alice READ TOPIC orders LITERAL 10.0.0.1"}, alice, {}, read,
            topic, orders, false, Reason::NoAllow, 1);
        row("* host binding, any host", {"ALLOW User:alice READ TOPIC orders LITERAL *"}, alice, "10.0.0.2", read,
            topic, orders, true, Reason::Allowed, 1);
        row("another principal's binding: no allow", {"ALLOW User:bob READ TOPIC orders"}, alice, {}, read, topic,
            orders, false, Reason::NoAllow, 1);
        row("another principal's binding beats allow.everyone", {"ALLOW User:bob READ TOPIC orders"}, alice, {}, read,
            topic, orders, false, Reason::NoAllow, 1, {}, true);

        // Deny wins.
        row("DENY READ + ALLOW ALL", {"DENY User:alice READ TOPIC orders", "ALLOW User:alice ALL TOPIC orders"}, alice,
            {}, read, topic, orders, false, Reason::Denied, 1);
        row("ALLOW ALL + DENY READ (order)", {"ALLOW User:alice ALL TOPIC orders", "DENY User:alice READ TOPIC orders"},
            alice, {}, read, topic, orders, false, Reason::Denied, 1);
        row("DENY User:* over ALLOW alice", {"ALLOW User:alice WRITE TOPIC orders", "DENY User:* WRITE TOPIC *"}, alice,
            {}, "WRITE", topic, orders, false, Reason::Denied, 1);
        row("prefixed DENY over literal ALLOW",
            {"ALLOW User:alice READ TOPIC orders", "DENY User:alice READ TOPIC ord PREFIXED"}, alice, {}, read, topic,
            orders, false, Reason::Denied, 1);
        row("DENY READ does not deny DESCRIBE",
            {"DENY User:alice READ TOPIC orders", "ALLOW User:alice ALL TOPIC orders"}, alice, {}, describe, topic,
            orders, true, Reason::Allowed, 1);
        row("DENY ALL denies DESCRIBE", {"DENY User:alice ALL TOPIC orders", "ALLOW User:alice READ TOPIC orders"},
            alice, {}, describe, topic, orders, false, Reason::Denied, 1);
        row("DENY from another host",
            {"DENY User:alice READ TOPIC orders LITERAL 10.0.0.9", "ALLOW User:alice READ TOPIC orders"}, alice,
            "10.0.0.1", read, topic, orders, true, Reason::Allowed, 1);

        // Implied operations (ALLOW only).
        row("DESCRIBE implied by READ", {"ALLOW User:alice READ TOPIC orders"}, alice, {}, describe, topic, orders,
            true, Reason::Allowed, 1);
        row("DESCRIBE implied by WRITE", {"ALLOW User:alice WRITE TOPIC orders"}, alice, {}, describe, topic, orders,
            true, Reason::Allowed, 1);
        row("DESCRIBE implied by DELETE", {"ALLOW User:alice DELETE TOPIC orders"}, alice, {}, describe, topic, orders,
            true, Reason::Allowed, 1);
        row("DESCRIBE implied by ALTER", {"ALLOW User:alice ALTER TOPIC orders"}, alice, {}, describe, topic, orders,
            true, Reason::Allowed, 1);
        row("DESCRIBE not implied by CREATE", {"ALLOW User:alice CREATE TOPIC orders"}, alice, {}, describe, topic,
            orders, false, Reason::NoAllow, 1);
        row("DESCRIBE_CONFIGS implied by ALTER_CONFIGS", {"ALLOW User:alice ALTER_CONFIGS TOPIC orders"}, alice, {},
            "DESCRIBE_CONFIGS", topic, orders, true, Reason::Allowed, 1);
        row("ALTER_CONFIGS not implied by DESCRIBE_CONFIGS", {"ALLOW User:alice DESCRIBE_CONFIGS TOPIC orders"}, alice,
            {}, "ALTER_CONFIGS", topic, orders, false, Reason::NoAllow, 1);
        row("DESCRIBE_CONFIGS not implied by DESCRIBE", {"ALLOW User:alice DESCRIBE TOPIC orders"}, alice, {},
            "DESCRIBE_CONFIGS", topic, orders, false, Reason::NoAllow, 1);
        row("READ does not imply WRITE", {"ALLOW User:alice READ TOPIC orders"}, alice, {}, "WRITE", topic, orders,
            false, Reason::NoAllow, 1);
        row("ALL allows ALTER_CONFIGS", {"ALLOW User:alice ALL TOPIC orders"}, alice, {}, "ALTER_CONFIGS", topic,
            orders, true, Reason::Allowed, 1);
        row("ALL allows DESCRIBE", {"ALLOW User:alice ALL TOPIC orders"}, alice, {}, describe, topic, orders, true,
            Reason::Allowed, 1);
        row("ALL on the cluster", {"ALLOW User:alice ALL BROKER kafka-cluster"}, alice, {}, "IDEMPOTENT_WRITE",
            "CLUSTER", {}, true, Reason::Allowed, 1);
        row("two allows decide together", {"ALLOW User:alice READ TOPIC orders", "ALLOW User:* READ TOPIC *"}, alice,
            {}, read, topic, orders, true, Reason::Allowed, 2);

        // No binding on the resource, and super users.
        row("no binding, allow.everyone false", {"ALLOW User:alice READ TOPIC payments"}, alice, {}, read, topic,
            orders, false, Reason::NoAcls, 0);
        row("no binding, allow.everyone true", {"ALLOW User:alice READ TOPIC payments"}, alice, {}, read, topic, orders,
            true, Reason::NoAcls, 0, {}, true);
        row("no bindings at all", {}, alice, {}, read, topic, orders, false, Reason::NoAcls, 0);
        row("super user despite DENY ALL", {"DENY User:admin ALL TOPIC *"}, "User:admin", {}, read, topic, orders, true,
            Reason::SuperUser, 0, {"User:admin", "User:ops"});
        row("super users do not cover others", {"DENY User:alice ALL TOPIC *"}, alice, {}, read, topic, orders, false,
            Reason::Denied, 1, {"User:admin"});
    }

    void check()
    {
        QFETCH(QStringList, specs);
        QFETCH(QString, principal);
        QFETCH(QString, host);
        QFETCH(QString, operation);
        QFETCH(QString, resourceType);
        QFETCH(QString, resourceName);
        QFETCH(QStringList, superUsers);
        QFETCH(bool, allowEveryone);
        QFETCH(bool, allowed);
        QFETCH(int, reason);
        QFETCH(int, deciding);

        // Every binding of the table is one a broker could hold.
        QList<AclEntry> all;
        for (const QString &spec : std::as_const(specs))
            all.append(binding(spec.toUtf8().constData()));
        for (const AclEntry &b : all) {
            QString error;
            const std::optional<AclEntry> n = normalizedAcl(b, &error);
            QVERIFY2(n, qPrintable(error));
            QCOMPARE(*n, b);
        }
        QString error;
        const std::optional<AclQuestion> q =
            normalizedQuestion({principal, host, operation, resourceType, resourceName}, &error);
        QVERIFY2(q, qPrintable(error));
        const AclAnswer a = checkAcl(all, *q, AclRules{superUsers, allowEveryone});
        QCOMPARE(a.allowed, allowed);
        QCOMPARE(int(a.reason), reason);
        QCOMPARE(int(a.deciding.size()), deciding);
        QVERIFY(!a.explanation.isEmpty());
        for (const AclEntry &d : a.deciding)
            QVERIFY(all.contains(d));
    }

    void explanationsNameWhatDecided()
    {
        const QList<AclEntry> all =
            bindings({"DENY User:alice READ TOPIC orders", "ALLOW User:alice ALL TOPIC orders"});
        const AclQuestion q{QStringLiteral("User:alice"),
                            {},
                            QStringLiteral("READ"),
                            QStringLiteral("TOPIC"),
                            QStringLiteral("orders")};
        AclAnswer a = checkAcl(all, q);
        QCOMPARE(a.deciding, QList<AclEntry>{all.first()});
        QVERIFY2(a.explanation.contains(QLatin1String("DENY User:alice READ on TOPIC orders")),
                 qPrintable(a.explanation));

        a = checkAcl({}, q, AclRules{{}, true});
        QVERIFY2(a.explanation.contains(QLatin1String("allow.everyone.if.no.acl.found (true)")),
                 qPrintable(a.explanation));

        a = checkAcl(bindings({"ALLOW User:bob READ TOPIC orders"}),
                     AclQuestion{q.principal, QStringLiteral("10.0.0.1"), q.operation, q.resourceType, q.resourceName});
        QVERIFY2(a.explanation.contains(QLatin1String("none allows User:alice READ from 10.0.0.1")),
                 qPrintable(a.explanation));

        a = checkAcl({}, q, AclRules{{QStringLiteral("User:alice")}, false});
        QVERIFY2(a.explanation.contains(QLatin1String("super user")), qPrintable(a.explanation));
    }

    void coversResource()
    {
        QVERIFY(aclCoversResource(binding("ALLOW User:bob READ TOPIC ord PREFIXED"), QStringLiteral("TOPIC"),
                                  QStringLiteral("orders")));
        QVERIFY(!aclCoversResource(binding("ALLOW User:bob READ TOPIC ord PREFIXED"), QStringLiteral("GROUP"),
                                   QStringLiteral("orders")));
        QVERIFY(aclCoversResource(binding("ALLOW User:bob READ GROUP *"), QStringLiteral("GROUP"),
                                  QStringLiteral("anything")));
        QVERIFY(!aclCoversResource(binding("ALLOW User:bob READ GROUP orders"), QStringLiteral("GROUP"),
                                   QStringLiteral("orders-eu")));
    }

    void normalizeBindings_data()
    {
        QTest::addColumn<AclEntry>("typed");
        QTest::addColumn<QString>("error"); // a phrase the refusal contains; empty: accepted
        QTest::addColumn<AclEntry>("expected");

        const auto e = [](const char *type, const char *name, const char *pattern, const char *principal,
                          const char *host, const char *op, const char *permission) {
            return AclEntry{QString::fromUtf8(type),      QString::fromUtf8(name), QString::fromUtf8(pattern),
                            QString::fromUtf8(principal), QString::fromUtf8(host), QString::fromUtf8(op),
                            QString::fromUtf8(permission)};
        };
        const AclEntry ok = e("TOPIC", "orders", "LITERAL", "User:alice", "*", "READ", "ALLOW");

        QTest::newRow("bad principal") << e("TOPIC", "orders", "LITERAL", "alice", "*", "READ", "ALLOW")
                                       << "principal \"alice\"" << AclEntry{};
        QTest::newRow("principal without name")
            << e("TOPIC", "orders", "LITERAL", "User:", "*", "READ", "ALLOW") << "principal" << AclEntry{};
        QTest::newRow("principal without type")
            << e("TOPIC", "orders", "LITERAL", ":alice", "*", "READ", "ALLOW") << "principal" << AclEntry{};
        QTest::newRow("unknown operation") << e("TOPIC", "orders", "LITERAL", "User:alice", "*", "READS", "ALLOW")
                                           << "unknown operation \"READS\"" << AclEntry{};
        QTest::newRow("ANY is no operation")
            << e("TOPIC", "orders", "LITERAL", "User:alice", "*", "ANY", "ALLOW") << "unknown operation" << AclEntry{};
        QTest::newRow("unknown resource type") << e("QUEUE", "orders", "LITERAL", "User:alice", "*", "READ", "ALLOW")
                                               << "unknown resource type" << AclEntry{};
        QTest::newRow("unknown pattern") << e("TOPIC", "orders", "MATCH", "User:alice", "*", "READ", "ALLOW")
                                         << "unknown pattern type" << AclEntry{};
        QTest::newRow("unknown permission") << e("TOPIC", "orders", "LITERAL", "User:alice", "*", "READ", "MAYBE")
                                            << "unknown permission" << AclEntry{};
        QTest::newRow("no resource name")
            << e("TOPIC", "", "LITERAL", "User:alice", "*", "READ", "ALLOW") << "no resource name" << AclEntry{};
        QTest::newRow("cluster resource name")
            << e("BROKER", "my-cluster", "LITERAL", "User:alice", "*", "ALTER", "ALLOW") << "named kafka-cluster"
            << AclEntry{};
        QTest::newRow("CLUSTER resource name")
            << e("CLUSTER", "*", "LITERAL", "User:alice", "*", "ALTER", "ALLOW") << "named kafka-cluster" << AclEntry{};
        QTest::newRow("PREFIXED *") << e("TOPIC", "*", "PREFIXED", "User:alice", "*", "READ", "ALLOW")
                                    << "PREFIXED pattern cannot be \"*\"" << AclEntry{};

        QTest::newRow("valid as it is") << ok << QString() << ok;
        QTest::newRow("lowercase normalised")
            << e("topic", " orders ", "prefixed", " User:alice ", "", "read", "deny") << QString()
            << e("TOPIC", "orders", "PREFIXED", "User:alice", "*", "READ", "DENY");
        QTest::newRow("pattern and permission default")
            << e("GROUP", "etl", "", "User:alice", "10.0.0.1", "Read", "") << QString()
            << e("GROUP", "etl", "LITERAL", "User:alice", "10.0.0.1", "READ", "ALLOW");
        QTest::newRow("CLUSTER becomes BROKER")
            << e("CLUSTER", "", "LITERAL", "User:alice", "*", "alter", "ALLOW") << QString()
            << e("BROKER", "kafka-cluster", "LITERAL", "User:alice", "*", "ALTER", "ALLOW");
        QTest::newRow("CLUSTER named kafka-cluster")
            << e("cluster", "kafka-cluster", "LITERAL", "User:alice", "*", "ClusterAction", "ALLOW") << QString()
            << e("BROKER", "kafka-cluster", "LITERAL", "User:alice", "*", "CLUSTER_ACTION", "ALLOW");
        // The same resource by its listed name: an empty name means the cluster too.
        QTest::newRow("BROKER without a name")
            << e("BROKER", "", "LITERAL", "User:alice", "*", "IDEMPOTENT_WRITE", "ALLOW") << QString()
            << e("BROKER", "kafka-cluster", "LITERAL", "User:alice", "*", "IDEMPOTENT_WRITE", "ALLOW");
        QTest::newRow("transactional id")
            << e("transactional_id", "tx-", "PREFIXED", "User:*", "*", "write", "allow") << QString()
            << e("TRANSACTIONAL_ID", "tx-", "PREFIXED", "User:*", "*", "WRITE", "ALLOW");
    }

    void normalizeBindings()
    {
        QFETCH(AclEntry, typed);
        QFETCH(QString, error);
        QFETCH(AclEntry, expected);
        QString why;
        const std::optional<AclEntry> n = md::normalizedAcl(typed, &why);
        if (error.isEmpty()) {
            QVERIFY2(n, qPrintable(why));
            QCOMPARE(*n, expected);
            // Normalising is idempotent.
            QCOMPARE(*md::normalizedAcl(*n, &why), expected);
        } else {
            QVERIFY(!n);
            QVERIFY2(why.contains(error), qPrintable(why));
        }
    }

    void normalizeQuestions()
    {
        QString error;
        std::optional<AclQuestion> q = md::normalizedQuestion(
            {QStringLiteral("alice"), {}, QStringLiteral("READ"), QStringLiteral("TOPIC"), QStringLiteral("orders")},
            &error);
        QVERIFY(!q);
        QVERIFY2(error.contains(QLatin1String("principal")), qPrintable(error));
        q = md::normalizedQuestion({QStringLiteral("User:alice"),
                                    {},
                                    QStringLiteral("ALL"),
                                    QStringLiteral("TOPIC"),
                                    QStringLiteral("orders")},
                                   &error);
        QVERIFY(!q);
        QVERIFY2(error.contains(QLatin1String("not ALL")), qPrintable(error));
        q = md::normalizedQuestion({QStringLiteral(" User:alice "),
                                    QStringLiteral(" 10.0.0.1 "),
                                    QStringLiteral("describe"),
                                    QStringLiteral("cluster"),
                                    {}},
                                   &error);
        QVERIFY2(q, qPrintable(error));
        QCOMPARE(q->principal, QStringLiteral("User:alice"));
        QCOMPARE(q->host, QStringLiteral("10.0.0.1"));
        QCOMPARE(q->operation, QStringLiteral("DESCRIBE"));
        QCOMPARE(q->resourceType, QStringLiteral("BROKER"));
        QCOMPARE(q->resourceName, QStringLiteral("kafka-cluster"));
    }

    void describeAndKey()
    {
        const AclEntry b = binding("ALLOW User:alice READ TOPIC orders PREFIXED");
        QCOMPARE(describeAcl(b), QStringLiteral("ALLOW User:alice READ on TOPIC orders (PREFIXED)"));
        QCOMPARE(describeAcl(binding("DENY User:bob WRITE TOPIC orders LITERAL 10.0.0.1")),
                 QStringLiteral("DENY User:bob WRITE on TOPIC orders from 10.0.0.1"));
        AclEntry other = b;
        other.permission = QStringLiteral("DENY");
        QVERIFY(aclKey(b) != aclKey(other));
        QCOMPARE(qHash(b), qHash(binding("ALLOW User:alice READ TOPIC orders PREFIXED")));
        QVERIFY(!aclOperationNames().contains(QLatin1String("CLUSTERACTION")));
        QCOMPARE(aclOperationNames().last(), QStringLiteral("ALL"));
    }
};

QTEST_GUILESS_MAIN(TestAclCheck)
#include "tst_aclcheck.moc"
