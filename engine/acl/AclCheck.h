#pragma once

#include "engine/acl/Acl.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace md {

// "Can principal P do operation O on resource R from host H?", answered from a
// cluster's bindings by the rules of Kafka's StandardAuthorizer (KRaft):
// - a super user may do everything;
// - a binding applies when its resource type is R's, its pattern is R's name
//   (LITERAL), "*" (LITERAL) or a prefix of it (PREFIXED), its principal is P
//   or User:*, and its host is H or "*";
// - a DENY for O or ALL decides at once (deny wins);
// - else an ALLOW for O or ALL allows; DESCRIBE is also allowed by READ, WRITE,
//   DELETE or ALTER, DESCRIBE_CONFIGS by ALTER_CONFIGS;
// - else, when no binding at all names R (whatever its principal), the
//   broker's allow.everyone.if.no.acl.found decides (false by default), and
//   when some do, the answer is no.
// This is the single-ACL question. A request may need several (producing
// idempotently needs WRITE on the topic; Kafka 3.2+ no longer asks for
// IDEMPOTENT_WRITE on the cluster when the principal may WRITE any topic).
struct AclQuestion {
    QString principal; // "User:alice"
    QString host;      // the client's address; empty: unknown, only "*" bindings match
    QString operation; // "READ", ...
    QString resourceType;
    QString resourceName;
};

// The brokers' settings the answer depends on. Kafka treats super.users and
// allow.everyone.if.no.acl.found as sensitive (DescribeConfigs shows them set
// but not their values), so they are often known only from the operator.
struct AclRules {
    QStringList superUsers; // "User:admin"
    bool allowEveryoneIfNoAclFound = false;
    bool superUsersHidden = false;    // set on the brokers, value not shown
    bool allowEveryoneHidden = false; // the same; false is assumed
};

struct AclAnswer {
    enum class Reason { SuperUser, Denied, Allowed, NoAllow, NoAcls };
    bool allowed = false;
    Reason reason = Reason::NoAcls;
    // What decided: the DENY (Denied), the ALLOWs (Allowed), every binding that
    // names the resource for someone else or something else (NoAllow).
    QList<AclEntry> deciding;
    QString explanation; // one sentence
};

// nullopt with *error naming the field when the question is malformed.
std::optional<AclQuestion> normalizedQuestion(const AclQuestion &q, QString *error);
AclAnswer checkAcl(const QList<AclEntry> &bindings, const AclQuestion &question, const AclRules &rules = {});
// Whether `binding`'s pattern covers the resource (type and name), whoever it is for.
bool aclCoversResource(const AclEntry &binding, const QString &resourceType, const QString &resourceName);

} // namespace md

Q_DECLARE_METATYPE(md::AclRules)
