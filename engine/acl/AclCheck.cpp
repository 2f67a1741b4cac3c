#include "engine/acl/AclCheck.h"

namespace md {

namespace {

bool is(const QString &value, const char *name)
{
    return value == QLatin1String(name);
}

bool operationAllows(const QString &granted, const QString &asked)
{
    if (is(granted, "ALL") || granted == asked)
        return true;
    if (is(asked, "DESCRIBE"))
        return is(granted, "READ") || is(granted, "WRITE") || is(granted, "DELETE") || is(granted, "ALTER");
    if (is(asked, "DESCRIBE_CONFIGS"))
        return is(granted, "ALTER_CONFIGS");
    return false;
}

} // namespace

std::optional<AclQuestion> normalizedQuestion(const AclQuestion &q, QString *error)
{
    // The same checks as a binding's, with a literal resource and an allowing permission.
    const std::optional<AclEntry> asBinding =
        normalizedAcl({q.resourceType, q.resourceName, QStringLiteral("LITERAL"), q.principal,
                       q.host.isEmpty() ? QStringLiteral("*") : q.host, q.operation, QStringLiteral("ALLOW")},
                      error);
    if (!asBinding)
        return std::nullopt;
    if (is(asBinding->operation, "ALL")) {
        *error = QStringLiteral("ask about one operation, not ALL");
        return std::nullopt;
    }
    return AclQuestion{asBinding->principal, q.host.trimmed(), asBinding->operation, asBinding->resourceType,
                       asBinding->resourceName};
}

bool aclCoversResource(const AclEntry &b, const QString &resourceType, const QString &resourceName)
{
    if (b.resourceType != resourceType)
        return false;
    if (is(b.patternType, "PREFIXED"))
        return resourceName.startsWith(b.resourceName);
    return b.resourceName == resourceName || is(b.resourceName, "*");
}

AclAnswer checkAcl(const QList<AclEntry> &bindings, const AclQuestion &q, const AclRules &rules)
{
    AclAnswer a;
    if (rules.superUsers.contains(q.principal)) {
        a.allowed = true;
        a.reason = AclAnswer::Reason::SuperUser;
        a.explanation = QStringLiteral("%1 is a super user: every operation is allowed").arg(q.principal);
        return a;
    }
    // A "no" for someone who may be a super user is a "no" only if they are not.
    const QString unlessSuper =
        rules.superUsersHidden
            ? QStringLiteral(" (unless %1 is one of the brokers' super.users, which they do not reveal)")
                  .arg(q.principal)
            : QString();
    const QString wildcardPrincipal = QStringLiteral("User:*");
    QList<AclEntry> onResource, allows;
    for (const AclEntry &b : bindings) {
        if (!aclCoversResource(b, q.resourceType, q.resourceName))
            continue;
        onResource.append(b);
        const bool forPrincipal = b.principal == q.principal || b.principal == wildcardPrincipal;
        const bool fromHost = is(b.host, "*") || (!q.host.isEmpty() && b.host == q.host);
        if (!forPrincipal || !fromHost)
            continue;
        if (is(b.permission, "DENY")) {
            // Only the operation itself or ALL: denying READ does not deny DESCRIBE.
            if (is(b.operation, "ALL") || b.operation == q.operation) {
                a.reason = AclAnswer::Reason::Denied;
                a.deciding = {b};
                a.explanation =
                    QStringLiteral("denied by %1 (a DENY wins over every ALLOW)").arg(describeAcl(b)) + unlessSuper;
                return a;
            }
        } else if (operationAllows(b.operation, q.operation)) {
            allows.append(b);
        }
    }
    if (!allows.isEmpty()) {
        a.allowed = true;
        a.reason = AclAnswer::Reason::Allowed;
        a.deciding = allows;
        a.explanation = QStringLiteral("allowed by %1").arg(describeAcl(allows.first())) +
                        (allows.size() > 1 ? QStringLiteral(" (and %1 more)").arg(allows.size() - 1) : QString());
        return a;
    }
    if (!onResource.isEmpty()) {
        a.reason = AclAnswer::Reason::NoAllow;
        a.deciding = onResource;
        a.explanation = QStringLiteral("denied: %1 binding(s) name %2 %3, none allows %4 %5%6")
                            .arg(onResource.size())
                            .arg(q.resourceType, q.resourceName, q.principal, q.operation,
                                 q.host.isEmpty() ? QString() : QStringLiteral(" from ") + q.host) +
                        unlessSuper;
        return a;
    }
    a.reason = AclAnswer::Reason::NoAcls;
    a.allowed = rules.allowEveryoneIfNoAclFound;
    a.explanation = QStringLiteral("no binding names %1 %2: the brokers' allow.everyone.if.no.acl.found (%3) decides")
                        .arg(q.resourceType, q.resourceName,
                             rules.allowEveryoneHidden         ? QStringLiteral("set but not revealed, taken as false")
                             : rules.allowEveryoneIfNoAclFound ? QStringLiteral("true")
                                                               : QStringLiteral("false")) +
                    (a.allowed ? QString() : unlessSuper);
    return a;
}

} // namespace md
