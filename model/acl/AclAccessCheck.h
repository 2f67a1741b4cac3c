#pragma once

#include "engine/acl/AclCheck.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace md {

// What the access checker shows for one question.
struct AclAccessAnswer {
    bool valid = false; // false: the question is malformed, `error` names the field
    QString error;
    bool allowed = false;
    QString verdict;     // "Allowed" or "Denied"
    QString explanation; // checkAcl's sentence
    QString rulesNote;   // which super.users / allow.everyone.if.no.acl.found the answer read, was given or assumed
    QList<AclEntry> deciding;
    QStringList decidingLines; // one line per deciding binding
};

// The ACLs tab's access checker without its widgets: the brokers' rules as far
// as they are known, and answers from the bindings the tab has loaded.
// The rules are read once per connection (AdminClient::aclRules); until they
// are known, or when they cannot be read, an answer assumes Kafka's defaults
// (no super users, allow.everyone.if.no.acl.found=false) and says so.
// Brokers often withhold both (sensitive configs): what the operator gives
// (setGivenSuperUsers, setGivenAllowEveryone) replaces what the brokers said
// or the default, and the note says which rule came from where.
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

    // super.users as server.properties has it ("User:admin;User:ops"); empty:
    // not given. False when a principal is not Type:name: superUsersError()
    // says which, and every answer is refused until it is put right.
    bool setGivenSuperUsers(const QString &text);
    QString superUsersError() const { return m_givenSupersError; }
    // nullopt: as the brokers say (or the default when they do not).
    void setGivenAllowEveryone(std::optional<bool> allow);
    // The rules answers use: the brokers' (or the defaults) with what was given.
    AclRules effectiveRules() const;

    AclAccessAnswer answer(const QList<AclEntry> &bindings, const AclQuestion &typed) const;

private:
    QString givenOrAssumed() const;

    RulesState m_state = RulesState::Unknown;
    AclRules m_rules;
    QString m_refusal;
    std::optional<QStringList> m_givenSupers;
    QString m_givenSupersError;
    std::optional<bool> m_givenEveryone;
};

// The principals of a super.users value ("User:admin; User:ops", blanks and
// empty entries ignored), each checked as a binding's principal; nullopt with
// *error naming the one that is not Type:name.
std::optional<QStringList> parseSuperUsers(const QString &text, QString *error);

} // namespace md
