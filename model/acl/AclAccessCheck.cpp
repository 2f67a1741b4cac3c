#include "model/acl/AclAccessCheck.h"

#include <QCoreApplication>

namespace md {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("AclAccessCheck", text);
}

QString boolText(bool b)
{
    return b ? QStringLiteral("true") : QStringLiteral("false");
}
} // namespace

std::optional<QStringList> parseSuperUsers(const QString &text, QString *error)
{
    QStringList out;
    for (const QString &entry : text.split(QLatin1Char(';'))) {
        const QString principal = entry.trimmed();
        if (principal.isEmpty())
            continue;
        // The principal check of a binding's (normalizedAcl), on a binding that is otherwise fine.
        QString why;
        const std::optional<AclEntry> checked =
            normalizedAcl({QStringLiteral("TOPIC"), QStringLiteral("t"), QStringLiteral("LITERAL"), principal,
                           QStringLiteral("*"), QStringLiteral("READ"), QStringLiteral("ALLOW")},
                          &why);
        if (!checked) {
            *error = tr("super users: %1").arg(why);
            return std::nullopt;
        }
        if (!out.contains(checked->principal))
            out.append(checked->principal);
    }
    return out;
}

bool AclAccessCheck::setGivenSuperUsers(const QString &text)
{
    m_givenSupersError.clear();
    const std::optional<QStringList> supers = parseSuperUsers(text, &m_givenSupersError);
    // Nothing typed (or only separators): not given.
    m_givenSupers = supers && !supers->isEmpty() ? supers : std::nullopt;
    return m_givenSupersError.isEmpty();
}

void AclAccessCheck::setGivenAllowEveryone(std::optional<bool> allow)
{
    m_givenEveryone = allow;
}

AclRules AclAccessCheck::effectiveRules() const
{
    AclRules r = m_rules;
    if (m_givenSupers) {
        r.superUsers = *m_givenSupers;
        r.superUsersHidden = false;
    }
    if (m_givenEveryone) {
        r.allowEveryoneIfNoAclFound = *m_givenEveryone;
        r.allowEveryoneHidden = false;
    }
    return r;
}

// Without the brokers' word: what was given here, and the defaults for the rest.
QString AclAccessCheck::givenOrAssumed() const
{
    QStringList given, assumed;
    if (m_givenSupers)
        given << tr("super.users %1").arg(m_givenSupers->join(QStringLiteral(", ")));
    else
        assumed << tr("no super users");
    if (m_givenEveryone)
        given << QStringLiteral("allow.everyone.if.no.acl.found=") + boolText(*m_givenEveryone);
    else
        assumed << QStringLiteral("allow.everyone.if.no.acl.found=false");
    QStringList parts;
    if (!given.isEmpty())
        parts << tr("given here: %1").arg(given.join(QStringLiteral(", ")));
    if (!assumed.isEmpty())
        parts << tr("assumed: %1 (%2)")
                     .arg(assumed.join(QStringLiteral(", ")),
                          assumed.size() == 2 ? tr("Kafka's defaults") : tr("Kafka's default"));
    return parts.join(QStringLiteral("; "));
}

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
        QString supers = m_rules.superUsersHidden       ? tr("set but not revealed by the brokers")
                         : m_rules.superUsers.isEmpty() ? tr("none")
                                                        : m_rules.superUsers.join(QStringLiteral(", "));
        if (m_givenSupers) {
            const QString given = m_givenSupers->join(QStringLiteral(", "));
            supers = m_rules.superUsersHidden ? tr("%1 (given here: the brokers do not reveal theirs)").arg(given)
                                              : tr("%1 (given here, instead of the brokers' %2)").arg(given, supers);
        }
        QString everyone = m_rules.allowEveryoneHidden ? tr("set but not revealed, taken as false")
                                                       : boolText(m_rules.allowEveryoneIfNoAclFound);
        if (m_givenEveryone) {
            const QString given = boolText(*m_givenEveryone);
            everyone = m_rules.allowEveryoneHidden
                           ? tr("%1 (given here: the brokers do not reveal it)").arg(given)
                           : tr("%1 (given here, instead of the brokers' %2)").arg(given, everyone);
        }
        return tr("Broker settings: super.users %1; allow.everyone.if.no.acl.found=%2.").arg(supers, everyone);
    }
    case RulesState::Refused:
        return tr("The brokers' super.users and allow.everyone.if.no.acl.found could not be read (%1): %2.")
            .arg(m_refusal, givenOrAssumed());
    case RulesState::Reading:
        return tr("Still reading the brokers' super.users and allow.everyone.if.no.acl.found: %1.")
            .arg(givenOrAssumed());
    case RulesState::Unknown: break;
    }
    return tr("The brokers' super.users and allow.everyone.if.no.acl.found are not read: %1.").arg(givenOrAssumed());
}

AclAccessAnswer AclAccessCheck::answer(const QList<AclEntry> &bindings, const AclQuestion &typed) const
{
    AclAccessAnswer a;
    const std::optional<AclQuestion> q = normalizedQuestion(typed, &a.error);
    if (!q)
        return a;
    // Rules given here that cannot be read: no answer on guessed ones.
    if (!m_givenSupersError.isEmpty()) {
        a.error = m_givenSupersError;
        return a;
    }
    a.valid = true;
    // Only Known rules are the brokers'; otherwise m_rules holds the defaults. Given ones win.
    const AclAnswer checked = checkAcl(bindings, *q, effectiveRules());
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
