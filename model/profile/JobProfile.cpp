// JobProfile's small parts: issues, keyword spellings, the default group id.
// Reading is in ProfileParser.cpp, writing in JobProfileWriter.cpp, checks in
// ProfileValidation.cpp, references in ProfileReferences.cpp and resolving
// in ProfileResolve.cpp; every key is in ProfileSchema.cpp.

#include "model/profile/JobProfile.h"

#include <algorithm>

namespace md {

// ---------------------------------------------------------------- issues

QString ProfileIssue::toString() const
{
    QString s = file.isEmpty() ? QStringLiteral("<profile>") : file;
    if (line > 0)
        s += QLatin1Char(':') + QString::number(line) + QLatin1Char(':') + QString::number(column);
    s += severity == Severity::Error ? QStringLiteral(": error: ") : QStringLiteral(": warning: ");
    if (!keyPath.isEmpty())
        s += keyPath + QStringLiteral(": ");
    return s + message;
}

bool hasErrors(const QList<ProfileIssue> &issues)
{
    return std::any_of(issues.begin(), issues.end(), [](const ProfileIssue &i) { return i.isError(); });
}

QString namingPolicyName(NamingPolicy p)
{
    switch (p) {
    case NamingPolicy::Identity: return QStringLiteral("identity");
    case NamingPolicy::Prefix: return QStringLiteral("prefix");
    case NamingPolicy::Template: return QStringLiteral("template");
    }
    return QStringLiteral("prefix");
}

QString startPositionName(StartPosition p)
{
    switch (p) {
    case StartPosition::Committed: return QStringLiteral("committed");
    case StartPosition::Earliest: return QStringLiteral("earliest");
    case StartPosition::Latest: return QStringLiteral("latest");
    case StartPosition::Timestamp: return QStringLiteral("timestamp");
    }
    return QStringLiteral("committed");
}

QString deliveryName(DeliveryGuarantee d)
{
    return d == DeliveryGuarantee::ExactlyOnce ? QStringLiteral("exactly-once") : QStringLiteral("at-least-once");
}

QString aclSyncModeName(MirrorJobSpec::AclSyncMode m)
{
    return m == MirrorJobSpec::AclSyncMode::Exact ? QStringLiteral("exact") : QStringLiteral("safe");
}

QString schemaIdsName(MirrorJobSpec::SchemaIds m)
{
    return m == MirrorJobSpec::SchemaIds::Preserve ? QStringLiteral("preserve") : QStringLiteral("translate");
}

bool parseNamingPolicy(const QString &name, NamingPolicy *out)
{
    for (auto p : {NamingPolicy::Identity, NamingPolicy::Prefix, NamingPolicy::Template}) {
        if (namingPolicyName(p) == name) {
            *out = p;
            return true;
        }
    }
    return false;
}

QString JobProfile::groupIdForName(const QString &name)
{
    QString slug;
    bool dash = false;
    for (const QChar c : name.toLower()) {
        const ushort u = c.unicode();
        const bool keep = (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || u == '.' || u == '_';
        if (keep) {
            if (dash && !slug.isEmpty())
                slug += QLatin1Char('-');
            slug += c;
            dash = false;
        } else {
            dash = true;
        }
    }
    return QStringLiteral("mirrordesk-") + (slug.isEmpty() ? QStringLiteral("job") : slug);
}
} // namespace md
