#include "model/acl/AclBindingInput.h"

#include <QCoreApplication>

namespace md {

QStringList aclResourceTypeChoices()
{
    return aclResourceTypeNames();
}

QStringList aclPatternTypeChoices()
{
    return {QStringLiteral("LITERAL"), QStringLiteral("PREFIXED")};
}

QStringList aclOperationChoices()
{
    return aclOperationNames();
}

QStringList aclPermissionChoices()
{
    return {QStringLiteral("ALLOW"), QStringLiteral("DENY")};
}

QString aclClusterResourceName()
{
    return QStringLiteral("kafka-cluster");
}

bool isAclClusterResourceType(const QString &resourceType)
{
    // aclResourceType knows "CLUSTER" as the same resource.
    const auto type = aclResourceType(resourceType);
    return type && *type == RD_KAFKA_RESOURCE_BROKER;
}

AclBindingCheck checkAclBinding(const AclEntry &typed)
{
    AclBindingCheck check;
    check.binding = normalizedAcl(typed, &check.error);
    if (check.binding)
        check.error.clear();
    return check;
}

QString aclBindingText(const AclEntry &binding)
{
    return describeAcl(binding);
}

QString aclCreatePreview(const AclEntry &binding, const QString &cluster)
{
    return QCoreApplication::translate("AclBindingInput", "Create on %1: %2")
        .arg(cluster.isEmpty() ? QCoreApplication::translate("AclBindingInput", "this cluster") : cluster,
             describeAcl(binding));
}

QStringList aclBindingLines(const QList<AclEntry> &bindings)
{
    QStringList lines;
    lines.reserve(bindings.size());
    for (const AclEntry &b : bindings)
        lines.append(describeAcl(b));
    return lines;
}

} // namespace md
