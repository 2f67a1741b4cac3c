#include "engine/acl/AclSyncRecords.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace md {

namespace {

QByteArray toJson(const AclEntry &b)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("resourceType"), b.resourceType},
                                     {QStringLiteral("resourceName"), b.resourceName},
                                     {QStringLiteral("patternType"), b.patternType},
                                     {QStringLiteral("principal"), b.principal},
                                     {QStringLiteral("host"), b.host},
                                     {QStringLiteral("operation"), b.operation},
                                     {QStringLiteral("permission"), b.permission}})
        .toJson(QJsonDocument::Compact);
}

std::optional<AclEntry> fromJson(const QByteArray &value)
{
    const QJsonObject o = QJsonDocument::fromJson(value).object();
    if (o.isEmpty())
        return std::nullopt;
    const auto s = [&](const char *key) { return o.value(QLatin1String(key)).toString(); };
    QString ignored;
    return normalizedAcl({s("resourceType"), s("resourceName"), s("patternType"), s("principal"), s("host"),
                          s("operation"), s("permission")},
                         &ignored);
}

} // namespace

AclSyncRecords::AclSyncRecords(ClusterConfig target, QString topic) : m_records(std::move(target), std::move(topic))
{
}

AclSyncRecords::~AclSyncRecords() = default;

bool AclSyncRecords::load(AdminService &target, QList<AclEntry> *made, QString *error)
{
    made->clear();
    QList<KeyedRecords::Record> records;
    if (!m_records.load(target, &records, error))
        return false;
    for (const KeyedRecords::Record &r : std::as_const(records)) {
        if (const std::optional<AclEntry> b = fromJson(*r.value))
            made->append(*b);
    }
    return true;
}

bool AclSyncRecords::write(AdminService &target, const QList<AclEntry> &bindings, bool made, QString *error)
{
    QList<KeyedRecords::Record> records;
    records.reserve(bindings.size());
    for (const AclEntry &b : bindings)
        records.append({aclKey(b).toUtf8(), made ? std::optional<QByteArray>(toJson(b)) : std::nullopt});
    return m_records.write(target, records, error);
}

} // namespace md
