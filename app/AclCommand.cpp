#include "app/Commands.h"

#include "app/CommandLine.h"
#include "app/ProfileLoader.h"
#include "engine/acl/AclCheck.h"
#include "engine/admin/AdminService.h"

namespace md {

namespace {

constexpr int kAclTimeoutMs = 20000;

const char kAclUsage[] =
    "usage: mirrordesk acl list   FILE [--side source|target] [RESOURCE] [--principal P]\n"
    "       mirrordesk acl check  FILE [--side source|target] RESOURCE --principal P --operation OP [--host ADDR]\n"
    "       mirrordesk acl create FILE [--side source|target] RESOURCE --principal P --operation OP\n"
    "                             [--deny] [--resource-pattern-type literal|prefixed] [--host ADDR] [--dry-run]\n"
    "       mirrordesk acl delete FILE [--side ...] (the same options as create: the exact binding)\n"
    "\n"
    "Lists, checks, creates and deletes ACL bindings on the source or target cluster of a job\n"
    "profile (its connection and credentials). `check` answers \"may P do OP on RESOURCE?\" from the\n"
    "cluster's bindings by Kafka's rules (super users, deny wins, literal, \"*\" and prefixed patterns,\n"
    "DESCRIBE implied by READ, WRITE, DELETE and ALTER, DESCRIBE_CONFIGS by ALTER_CONFIGS, the\n"
    "brokers' allow.everyone.if.no.acl.found), naming the bindings that decide.\n"
    "\n"
    "  --side source|target             which of the profile's clusters (default: target)\n"
    "  --topic NAME                     RESOURCE: a topic (\"*\": every topic)\n"
    "  --group NAME                     RESOURCE: a consumer group\n"
    "  --transactional-id NAME          RESOURCE: a transactional id\n"
    "  --cluster                        RESOURCE: the cluster (kafka-cluster)\n"
    "  --resource-pattern-type TYPE     literal (default) or prefixed\n"
    "  --principal P                    Type:name, e.g. User:alice (User:* for everyone)\n"
    "  --operation OP                   READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, CLUSTER_ACTION,\n"
    "                                   DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE, ALL\n"
    "  --host ADDR                      the client's address (default *: every host)\n"
    "  --deny                           a DENY binding (default ALLOW)\n"
    "  --super-user P                   check: a super user of the brokers (repeatable); brokers report\n"
    "                                   super.users as sensitive, so without it they are unknown\n"
    "  --allow-everyone-if-no-acl-found true|false\n"
    "                                   check: the brokers' setting of that name (hidden too; default false)\n"
    "  --dry-run                        create/delete: show the binding, change nothing\n"
    "  -h, --help                       this text\n"
    "\n"
    "exit codes: 0 done (check: allowed), 1 check: denied; create/delete: refused by the broker,\n"
    "2 usage or profile error, cluster unreachable\n";

struct Options {
    QCommandLineOption side{QStringLiteral("side"), QStringLiteral("source or target"), QStringLiteral("side")};
    QCommandLineOption topic{QStringLiteral("topic"), QStringLiteral("a topic"), QStringLiteral("name")};
    QCommandLineOption group{QStringLiteral("group"), QStringLiteral("a group"), QStringLiteral("name")};
    QCommandLineOption txn{QStringLiteral("transactional-id"), QStringLiteral("a transactional id"),
                           QStringLiteral("name")};
    QCommandLineOption cluster{QStringLiteral("cluster"), QStringLiteral("the cluster")};
    QCommandLineOption pattern{QStringLiteral("resource-pattern-type"), QStringLiteral("literal or prefixed"),
                               QStringLiteral("type")};
    QCommandLineOption principal{QStringLiteral("principal"), QStringLiteral("Type:name"), QStringLiteral("p")};
    QCommandLineOption operation{QStringLiteral("operation"), QStringLiteral("an operation"), QStringLiteral("op")};
    QCommandLineOption host{QStringLiteral("host"), QStringLiteral("an address"), QStringLiteral("addr")};
    QCommandLineOption deny{QStringLiteral("deny"), QStringLiteral("DENY")};
    QCommandLineOption dryRun{QStringLiteral("dry-run"), QStringLiteral("change nothing")};
    QCommandLineOption superUser{QStringLiteral("super-user"), QStringLiteral("a super user"), QStringLiteral("p")};
    QCommandLineOption allowEveryone{QStringLiteral("allow-everyone-if-no-acl-found"), QStringLiteral("true or false"),
                                     QStringLiteral("bool")};
};

// The resource named by the options: nullopt when none (or more than one) is given.
std::optional<std::pair<QString, QString>> resourceOf(const QCommandLineParser &p, const Options &o, QString *error)
{
    QList<std::pair<QString, QString>> given;
    if (p.isSet(o.topic))
        given.append({QStringLiteral("TOPIC"), p.value(o.topic)});
    if (p.isSet(o.group))
        given.append({QStringLiteral("GROUP"), p.value(o.group)});
    if (p.isSet(o.txn))
        given.append({QStringLiteral("TRANSACTIONAL_ID"), p.value(o.txn)});
    if (p.isSet(o.cluster))
        given.append({QStringLiteral("BROKER"), QStringLiteral("kafka-cluster")});
    if (given.size() != 1) {
        *error = given.isEmpty()
                     ? QStringLiteral("no resource given (--topic, --group, --transactional-id or --cluster)")
                     : QStringLiteral("more than one resource given: one of --topic, --group, "
                                      "--transactional-id, --cluster");
        return std::nullopt;
    }
    return given.first();
}

void printBindings(const QList<AclEntry> &acls, QTextStream &out)
{
    QList<QStringList> rows{{QStringLiteral("PERMISSION"), QStringLiteral("PRINCIPAL"), QStringLiteral("OPERATION"),
                             QStringLiteral("RESOURCE"), QStringLiteral("NAME"), QStringLiteral("PATTERN"),
                             QStringLiteral("HOST")}};
    for (const AclEntry &a : acls)
        rows.append({a.permission, a.principal, a.operation, a.resourceType, a.resourceName, a.patternType, a.host});
    // Every column is text: left-aligned by passing them as the "first" column's kind.
    QList<qsizetype> width(rows.first().size(), 0);
    for (const QStringList &r : std::as_const(rows))
        for (qsizetype i = 0; i < r.size(); ++i)
            width[i] = std::max(width[i], r.at(i).size());
    for (const QStringList &r : std::as_const(rows)) {
        QString line;
        for (qsizetype i = 0; i < r.size(); ++i)
            line += (i + 1 < r.size() ? r.at(i).leftJustified(width[i] + 2) : r.at(i));
        out << line << '\n';
    }
}

int fail(QTextStream &err, const QString &what, int code)
{
    err << "mirrordesk acl: " << what << '\n';
    err.flush();
    return code;
}

} // namespace

int runAclCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    const QString action = args.value(0);
    const QStringList actions{QStringLiteral("list"), QStringLiteral("check"), QStringLiteral("create"),
                              QStringLiteral("delete")};
    if (action == QLatin1String("-h") || action == QLatin1String("--help")) {
        out << kAclUsage;
        out.flush();
        return 0;
    }
    if (!actions.contains(action)) {
        err << "mirrordesk acl: "
            << (action.isEmpty() ? QStringLiteral("no action given")
                                 : QStringLiteral("unknown action \"%1\"").arg(action))
            << " (list, check, create or delete)\n"
            << kAclUsage;
        err.flush();
        return 2;
    }
    CommandLine cli(QStringLiteral("acl ") + action, QString());
    cli.setHelpText(QString::fromLatin1(kAclUsage));
    const Options o;
    cli.addOptions({o.side, o.topic, o.group, o.txn, o.cluster, o.pattern, o.principal, o.operation, o.host, o.deny,
                    o.dryRun, o.superUser, o.allowEveryone});
    cli.setArguments(QStringLiteral("profile"), 1, 1);
    if (const std::optional<int> exitCode = cli.parse(args.mid(1), out, err))
        return *exitCode;
    const QCommandLineParser &p = cli.parser();
    const QString side = p.isSet(o.side) ? p.value(o.side).trimmed().toLower() : QStringLiteral("target");
    if (side != QLatin1String("source") && side != QLatin1String("target"))
        return cli.usageError(err, QStringLiteral("--side: \"%1\" is neither source nor target").arg(side));

    // What the action needs, checked before any cluster is asked.
    QString problem;
    std::optional<std::pair<QString, QString>> resource;
    if (action != QLatin1String("list") || p.isSet(o.topic) || p.isSet(o.group) || p.isSet(o.txn) ||
        p.isSet(o.cluster)) {
        resource = resourceOf(p, o, &problem);
        if (!resource)
            return cli.usageError(err, problem);
    }
    std::optional<bool> allowEveryone;
    if (p.isSet(o.allowEveryone)) {
        const QString v = p.value(o.allowEveryone).trimmed().toLower();
        if (v != QLatin1String("true") && v != QLatin1String("false"))
            return cli.usageError(err,
                                  QStringLiteral("--allow-everyone-if-no-acl-found: \"%1\" is neither true nor false")
                                      .arg(p.value(o.allowEveryone)));
        allowEveryone = v == QLatin1String("true");
    }
    QStringList superUsers;
    for (const QString &u : p.values(o.superUser)) {
        if (!normalizedAcl({QStringLiteral("TOPIC"), QStringLiteral("x"), {}, u, {}, QStringLiteral("READ"), {}},
                           &problem))
            return cli.usageError(err, QStringLiteral("--super-user: ") + problem);
        superUsers.append(u.trimmed());
    }
    std::optional<AclQuestion> question;
    std::optional<AclEntry> binding;
    if (action == QLatin1String("check")) {
        if (!p.isSet(o.principal) || !p.isSet(o.operation))
            return cli.usageError(err, QStringLiteral("check needs --principal and --operation"));
        question = normalizedQuestion(
            {p.value(o.principal), p.value(o.host), p.value(o.operation), resource->first, resource->second}, &problem);
        if (!question)
            return cli.usageError(err, problem);
    } else if (action == QLatin1String("create") || action == QLatin1String("delete")) {
        if (!p.isSet(o.principal) || !p.isSet(o.operation))
            return cli.usageError(err, QStringLiteral("%1 needs --principal and --operation").arg(action));
        binding = normalizedAcl({resource->first, resource->second,
                                 p.isSet(o.pattern) ? p.value(o.pattern) : QStringLiteral("LITERAL"),
                                 p.value(o.principal), p.value(o.host), p.value(o.operation),
                                 p.isSet(o.deny) ? QStringLiteral("DENY") : QStringLiteral("ALLOW")},
                                &problem);
        if (!binding)
            return cli.usageError(err, problem);
    }

    const QString path = p.positionalArguments().first();
    const std::optional<MirrorJobSpec> spec = loadJobSpec(path, nullptr, err);
    if (!spec)
        return fail(err, path + QStringLiteral(" has errors"), 2);
    const ClusterConfig &config = side == QLatin1String("source") ? spec->source : spec->target;
    const QString where = QStringLiteral("%1 cluster %2").arg(side, config.alias);
    if (binding && p.isSet(o.dryRun)) {
        out << "dry run: would " << action << " on " << where << ": " << describeAcl(*binding) << '\n';
        out.flush();
        return 0;
    }
    std::unique_ptr<AdminService> admin = AdminService::create(config, &problem, kAclTimeoutMs);
    if (!admin)
        return fail(err, QStringLiteral("%1: %2").arg(where, problem), 2);

    if (binding) {
        if (action == QLatin1String("create")) {
            const AdminResult<Done> done = admin->createAcls({*binding});
            if (!done.ok())
                return fail(err, QStringLiteral("%1: %2").arg(where, done.error), 1);
            out << "created on " << where << ": " << describeAcl(*binding) << '\n';
        } else {
            const AdminResult<int> done = admin->deleteAcls({*binding});
            if (!done.ok())
                return fail(err, QStringLiteral("%1: %2").arg(where, done.error), 1);
            if (done.value == 0)
                return fail(err,
                            QStringLiteral("%1 holds no binding %2: nothing deleted").arg(where, describeAcl(*binding)),
                            1);
            out << "deleted on " << where << ": " << describeAcl(*binding) << '\n';
        }
        out.flush();
        return 0;
    }

    const AdminResult<QList<AclEntry>> acls = admin->listAcls();
    if (!acls.ok())
        return fail(err, QStringLiteral("%1: %2").arg(where, acls.error), 2);
    if (action == QLatin1String("list")) {
        QList<AclEntry> shown;
        const QString who = p.value(o.principal).trimmed();
        for (const AclEntry &a : acls.value) {
            if (!who.isEmpty() && a.principal != who)
                continue;
            if (resource && !aclCoversResource(a, resource->first, resource->second))
                continue;
            shown.append(a);
        }
        printBindings(shown, out);
        out << shown.size() << " of " << acls.value.size() << " binding(s) on " << where << '\n';
        out.flush();
        return 0;
    }
    const AdminResult<AclRules> rules = admin->aclRules();
    AclRules used;
    if (rules.ok())
        used = rules.value;
    else
        err << "warning: " << where << ": " << rules.error
            << "; answering without super users and with allow.everyone.if.no.acl.found=false\n";
    if (!superUsers.isEmpty()) {
        used.superUsers = superUsers;
        used.superUsersHidden = false;
    }
    if (allowEveryone) {
        used.allowEveryoneIfNoAclFound = *allowEveryone;
        used.allowEveryoneHidden = false;
    }
    const AclAnswer answer = checkAcl(acls.value, *question, used);
    out << (answer.allowed ? "ALLOWED" : "DENIED") << ": " << answer.explanation << '\n';
    if (!answer.deciding.isEmpty()) {
        out << "deciding binding(s):\n";
        for (const AclEntry &a : answer.deciding)
            out << "  " << describeAcl(a) << '\n';
    }
    out.flush();
    err.flush();
    return answer.allowed ? 0 : 1;
}

} // namespace md
