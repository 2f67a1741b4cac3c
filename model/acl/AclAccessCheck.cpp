#include "model/acl/AclAccessCheck.h"

#include <QCoreApplication>

namespace md {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("AclAccessCheck", text);
}

QString defaultsAssumed()
{
    return tr("assumed: no super users, allow.everyone.if.no.acl.found=false (Kafka's defaults)");
}
} // namespace

void AclAccessCheck::forgetRules()
{
    m_state = RulesState::Unknown;
    m_rules = {};
    m_refusal.clear();
}

void AclAccessCheck::setRulesReading()
{
    m_state = RulesState::Reading;
}

void AclAccessCheck::setRules(const AclRules &rules)
{
    m_state = RulesState::Known;
    m_rules = rules;
    m_refusal.clear();
}

void AclAccessCheck::setRulesRefused(const QString &reason)
{
    m_state = RulesState::Refused;
    m_rules = {};
    m_refusal = reason;
}

QString AclAccessCheck::rulesNote() const
{
    switch (m_state) {
    case RulesState::Known: {
        // Kafka may report both as sensitive: set, value withheld.
        const QString supers = m_rules.superUsersHidden       ? tr("set but not revealed by the brokers")
                               : m_rules.superUsers.isEmpty() ? tr("none")
                                                              : m_rules.superUsers.join(QStringLiteral(", "));
        const QString everyone = m_rules.allowEveryoneHidden         ? tr("set but not revealed, taken as false")
                                 : m_rules.allowEveryoneIfNoAclFound ? QStringLiteral("true")
                                                                     : QStringLiteral("false");
        return tr("Broker settings: super.users %1; allow.everyone.if.no.acl.found=%2.").arg(supers, everyone);
    }
    case RulesState::Refused:
        return tr("The brokers' super.users and allow.everyone.if.no.acl.found could not be read (%1): %2.")
            .arg(m_refusal, defaultsAssumed());
    case RulesState::Reading:
        return tr("Still reading the brokers' super.users and allow.everyone.if.no.acl.found: %1.")
            .arg(defaultsAssumed());
    case RulesState::Unknown: break;
    }
    return tr("The brokers' super.users and allow.everyone.if.no.acl.found are not read: %1.").arg(defaultsAssumed());
}

AclAccessAnswer AclAccessCheck::answer(const QList<AclEntry> &bindings, const AclQuestion &typed) const
{
    AclAccessAnswer a;
    const std::optional<AclQuestion> q = normalizedQuestion(typed, &a.error);
    if (!q)
        return a;
    a.valid = true;
    // Only Known rules are the brokers'; otherwise m_rules holds the defaults.
    const AclAnswer checked = checkAcl(bindings, *q, m_rules);
    a.allowed = checked.allowed;
    a.verdict = checked.allowed ? tr("Allowed") : tr("Denied");
    a.explanation = checked.explanation;
    a.rulesNote = rulesNote();
    a.deciding = checked.deciding;
    for (const AclEntry &b : checked.deciding)
        a.decidingLines.append(describeAcl(b));
    return a;
}

} // namespace md
