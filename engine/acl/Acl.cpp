#include "engine/acl/Acl.h"

#include <QHash>

#include <array>
#include <utility>

namespace md {

namespace {

template <typename T, size_t N>
std::optional<T> lookup(const std::array<std::pair<const char *, T>, N> &table, const QString &name)
{
    const QString upper = name.trimmed().toUpper();
    for (const auto &[n, v] : table) {
        if (upper == QLatin1String(n))
            return v;
    }
    return std::nullopt;
}

// What librdkafka can send (Kafka's DELEGATION_TOKEN and USER bindings it cannot).
const std::array<std::pair<const char *, rd_kafka_ResourceType_t>, 5> kResourceTypes{{
    {"TOPIC", RD_KAFKA_RESOURCE_TOPIC},
    {"GROUP", RD_KAFKA_RESOURCE_GROUP},
    {"BROKER", RD_KAFKA_RESOURCE_BROKER},
    {"CLUSTER", RD_KAFKA_RESOURCE_BROKER},
    {"TRANSACTIONAL_ID", RD_KAFKA_RESOURCE_TRANSACTIONAL_ID},
}};

const std::array<std::pair<const char *, rd_kafka_ResourcePatternType_t>, 2> kPatternTypes{{
    {"LITERAL", RD_KAFKA_RESOURCE_PATTERN_LITERAL},
    {"PREFIXED", RD_KAFKA_RESOURCE_PATTERN_PREFIXED},
}};

const std::array<std::pair<const char *, rd_kafka_AclOperation_t>, 12> kOperations{{
    {"READ", RD_KAFKA_ACL_OPERATION_READ},
    {"WRITE", RD_KAFKA_ACL_OPERATION_WRITE},
    {"CREATE", RD_KAFKA_ACL_OPERATION_CREATE},
    {"DELETE", RD_KAFKA_ACL_OPERATION_DELETE},
    {"ALTER", RD_KAFKA_ACL_OPERATION_ALTER},
    {"DESCRIBE", RD_KAFKA_ACL_OPERATION_DESCRIBE},
    {"CLUSTER_ACTION", RD_KAFKA_ACL_OPERATION_CLUSTER_ACTION},
    {"DESCRIBE_CONFIGS", RD_KAFKA_ACL_OPERATION_DESCRIBE_CONFIGS},
    {"ALTER_CONFIGS", RD_KAFKA_ACL_OPERATION_ALTER_CONFIGS},
    {"IDEMPOTENT_WRITE", RD_KAFKA_ACL_OPERATION_IDEMPOTENT_WRITE},
    {"ALL", RD_KAFKA_ACL_OPERATION_ALL},
    // kafka-acls.sh spells it with a space in its help; the wire name has none.
    {"CLUSTERACTION", RD_KAFKA_ACL_OPERATION_CLUSTER_ACTION},
}};

const std::array<std::pair<const char *, rd_kafka_AclPermissionType_t>, 2> kPermissions{{
    {"ALLOW", RD_KAFKA_ACL_PERMISSION_TYPE_ALLOW},
    {"DENY", RD_KAFKA_ACL_PERMISSION_TYPE_DENY},
}};

} // namespace

QString describeAcl(const AclEntry &acl)
{
    QString text = QStringLiteral("%1 %2 %3 on %4 %5")
                       .arg(acl.permission, acl.principal, acl.operation, acl.resourceType, acl.resourceName);
    if (acl.patternType != QLatin1String("LITERAL"))
        text += QStringLiteral(" (%1)").arg(acl.patternType);
    if (acl.host != QLatin1String("*"))
        text += QStringLiteral(" from ") + acl.host;
    return text;
}

QString aclKey(const AclEntry &acl)
{
    return QStringList{acl.resourceType, acl.patternType, acl.resourceName, acl.principal,
                       acl.host,         acl.operation,   acl.permission}
        .join(QChar(0x1f));
}

size_t qHash(const AclEntry &acl, size_t seed) noexcept
{
    return ::qHash(aclKey(acl), seed);
}

std::optional<rd_kafka_ResourceType_t> aclResourceType(const QString &name)
{
    return lookup(kResourceTypes, name);
}

std::optional<rd_kafka_ResourcePatternType_t> aclPatternType(const QString &name)
{
    return lookup(kPatternTypes, name);
}

std::optional<rd_kafka_AclOperation_t> aclOperation(const QString &name)
{
    return lookup(kOperations, name);
}

std::optional<rd_kafka_AclPermissionType_t> aclPermission(const QString &name)
{
    return lookup(kPermissions, name);
}

QStringList aclResourceTypeNames()
{
    return {QStringLiteral("TOPIC"), QStringLiteral("GROUP"), QStringLiteral("BROKER"),
            QStringLiteral("TRANSACTIONAL_ID")};
}

QStringList aclOperationNames()
{
    QStringList names;
    for (const auto &[n, v] : kOperations) {
        if (qstrcmp(n, "CLUSTERACTION") != 0)
            names.append(QLatin1String(n));
    }
    return names;
}

std::optional<AclEntry> normalizedAcl(const AclEntry &acl, QString *error)
{
    const auto fail = [&](const QString &why) -> std::optional<AclEntry> {
        *error = why;
        return std::nullopt;
    };
    AclEntry n;
    const auto type = aclResourceType(acl.resourceType);
    if (!type)
        return fail(QStringLiteral("unknown resource type \"%1\" (one of %2)")
                        .arg(acl.resourceType, aclResourceTypeNames().join(QStringLiteral(", "))));
    n.resourceType = QString::fromUtf8(rd_kafka_ResourceType_name(*type));
    const auto pattern = aclPatternType(acl.patternType.isEmpty() ? QStringLiteral("LITERAL") : acl.patternType);
    if (!pattern)
        return fail(QStringLiteral("unknown pattern type \"%1\" (LITERAL or PREFIXED)").arg(acl.patternType));
    n.patternType = QString::fromUtf8(rd_kafka_ResourcePatternType_name(*pattern));
    const auto op = aclOperation(acl.operation);
    if (!op)
        return fail(QStringLiteral("unknown operation \"%1\" (one of %2)")
                        .arg(acl.operation, aclOperationNames().join(QStringLiteral(", "))));
    n.operation = QString::fromUtf8(rd_kafka_AclOperation_name(*op));
    const auto permission = aclPermission(acl.permission.isEmpty() ? QStringLiteral("ALLOW") : acl.permission);
    if (!permission)
        return fail(QStringLiteral("unknown permission \"%1\" (ALLOW or DENY)").arg(acl.permission));
    n.permission = QString::fromUtf8(rd_kafka_AclPermissionType_name(*permission));

    n.principal = acl.principal.trimmed();
    const qsizetype colon = n.principal.indexOf(QLatin1Char(':'));
    if (colon <= 0 || colon == n.principal.size() - 1)
        return fail(QStringLiteral("principal \"%1\" is not of the form Type:name (for example User:alice, or "
                                   "User:* for everyone)")
                        .arg(acl.principal));
    n.host = acl.host.trimmed().isEmpty() ? QStringLiteral("*") : acl.host.trimmed();
    // The cluster has one name, whichever way its type is spelled ("BROKER" as
    // listed, "CLUSTER" as kafka-acls.sh says): an empty name means it.
    n.resourceName = *type == RD_KAFKA_RESOURCE_BROKER && acl.resourceName.trimmed().isEmpty()
                         ? QStringLiteral("kafka-cluster")
                         : acl.resourceName.trimmed();
    if (n.resourceName.isEmpty())
        return fail(QStringLiteral("no resource name (\"*\" names every %1)").arg(n.resourceType.toLower()));
    if (*type == RD_KAFKA_RESOURCE_BROKER && n.resourceName != QLatin1String("kafka-cluster"))
        return fail(QStringLiteral("the cluster resource is named kafka-cluster, not \"%1\"").arg(n.resourceName));
    if (*pattern == RD_KAFKA_RESOURCE_PATTERN_PREFIXED && n.resourceName == QLatin1String("*"))
        return fail(QStringLiteral("a PREFIXED pattern cannot be \"*\": use LITERAL \"*\" for every %1")
                        .arg(n.resourceType.toLower()));
    return n;
}

} // namespace md
