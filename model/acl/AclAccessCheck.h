#pragma once

#include "engine/acl/AclCheck.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace md {

// What the access checker shows for one question.
struct AclAccessAnswer {
    bool valid = false; // false: the question is malformed, `error` names the field
    QString error;
    bool allowed = false;
    QString verdict;     // "Allowed" or "Denied"
    QString explanation; // checkAcl's sentence
    QString rulesNote;   // which super.users / allow.everyone.if.no.acl.found the answer assumed
    QList<AclEntry> deciding;
    QStringList decidingLines; // one line per deciding binding
};

// The ACLs tab's access checker without its widgets: the brokers' rules as far
// as they are known, and answers from the bindings the tab has loaded.
// The rules are read once per connection (AdminClient::aclRules); until they
// are known, or when they cannot be read, an answer assumes Kafka's defaults
// (no super users, allow.everyone.if.no.acl.found=false) and says so.
class AclAccessCheck {
public:
    enum class RulesState { Unknown, Reading, Known, Refused };

    void forgetRules(); // a new connection
    void setRulesReading();
    void setRules(const AclRules &rules);
    void setRulesRefused(const QString &reason);

    RulesState rulesState() const { return m_state; }
    bool needsRules() const { return m_state == RulesState::Unknown; }
    AclRules rules() const { return m_rules; } // the defaults unless Known
    QString rulesNote() const;

    AclAccessAnswer answer(const QList<AclEntry> &bindings, const AclQuestion &typed) const;

private:
    RulesState m_state = RulesState::Unknown;
    AclRules m_rules;
    QString m_refusal;
};

} // namespace md
