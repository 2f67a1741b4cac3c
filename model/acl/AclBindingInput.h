#pragma once

#include "engine/acl/Acl.h"

#include <QStringList>

#include <optional>

namespace md {

// What the ACLs tab's forms need of engine/acl, so the widgets reach it
// through model/ (tests/check-layers.sh): the names for their combo boxes,
// the check of a typed binding and the sentences a confirmation shows.

// Combo box entries, upper case, in Kafka's order.
QStringList aclResourceTypeChoices(); // TOPIC, GROUP, BROKER, TRANSACTIONAL_ID
QStringList aclPatternTypeChoices();  // LITERAL, PREFIXED
QStringList aclOperationChoices();    // READ ... ALL
QStringList aclPermissionChoices();   // ALLOW, DENY
// The name of the one cluster resource (resource type BROKER).
QString aclClusterResourceName();
bool isAclClusterResourceType(const QString &resourceType);

// A binding as typed in a form, checked by normalizedAcl: the normalised
// binding, or the problem in words that name the field.
struct AclBindingCheck {
    std::optional<AclEntry> binding;
    QString error;
    bool ok() const { return binding.has_value(); }
};
AclBindingCheck checkAclBinding(const AclEntry &typed);

// "ALLOW User:alice READ on TOPIC orders (PREFIXED)" (and " from <host>").
QString aclBindingText(const AclEntry &binding);
// "Create on <cluster>: ALLOW User:alice READ on TOPIC orders (PREFIXED)".
QString aclCreatePreview(const AclEntry &binding, const QString &cluster);
// One line per binding, in the order given: what a delete confirmation lists.
QStringList aclBindingLines(const QList<AclEntry> &bindings);

} // namespace md
