#pragma once

#include <QList>
#include <QMetaType>
#include <QString>

#include <librdkafka/rdkafka.h>

#include <optional>

namespace md {

// One ACL binding as a broker holds it, in the names librdkafka and
// kafka-acls.sh print: resourceType "TOPIC", "GROUP", "BROKER" (the cluster),
// "TRANSACTIONAL_ID", ...; patternType "LITERAL" or "PREFIXED"; operation
// "READ", "ALL", ...; permission "ALLOW" or "DENY". Strings, not enums, so a
// binding read from a newer broker (a type this build does not know) is still
// shown and compared as it is.
struct AclEntry {
    QString resourceType;
    QString resourceName;
    QString patternType;
    QString principal; // "User:alice", "User:*"
    QString host;      // "*" or an address
    QString operation;
    QString permission;

    bool operator==(const AclEntry &) const = default;
};

// One line, the way an operator reads it: "ALLOW User:alice READ on TOPIC orders (PREFIXED) from *".
QString describeAcl(const AclEntry &acl);
// A stable text key (sorting, sets, the records of what a sync created).
QString aclKey(const AclEntry &acl);
size_t qHash(const AclEntry &acl, size_t seed = 0) noexcept;

// Names to librdkafka's values; nullopt for a name it does not know. The
// cluster resource is accepted as "CLUSTER" too (kafka-acls.sh's --cluster).
std::optional<rd_kafka_ResourceType_t> aclResourceType(const QString &name);
std::optional<rd_kafka_ResourcePatternType_t> aclPatternType(const QString &name);
std::optional<rd_kafka_AclOperation_t> aclOperation(const QString &name);
std::optional<rd_kafka_AclPermissionType_t> aclPermission(const QString &name);

// The names an operator may use, upper case, in Kafka's order (for combo boxes and help).
QStringList aclResourceTypeNames(); // TOPIC, GROUP, BROKER, TRANSACTIONAL_ID
QStringList aclOperationNames();    // READ ... ALL (not ANY/UNKNOWN)

// Upper-cases the enum fields, "CLUSTER" becomes "BROKER", an empty host "*",
// and checks the binding is one a broker can hold: every field known, a
// principal "Type:name", the cluster resource named "kafka-cluster", no
// PREFIXED "*". nullopt with *error naming the field otherwise.
std::optional<AclEntry> normalizedAcl(const AclEntry &acl, QString *error);

} // namespace md

Q_DECLARE_METATYPE(md::AclEntry)
