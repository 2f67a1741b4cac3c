#include "engine/admin/AdminService.h"

#include "engine/admin/AdminServiceDetail.h"

#include <algorithm>

namespace md {

using admin_detail::utf8;

namespace {

QString noAuthorizer()
{
    return QStringLiteral("ACLs are not available: security is disabled on this cluster "
                          "(no authorizer is configured on the brokers)");
}

// A broker's refusal in words an operator acts on.
QString aclRefusal(rd_kafka_resp_err_t code, const QString &text)
{
    if (code == RD_KAFKA_RESP_ERR_SECURITY_DISABLED)
        return noAuthorizer();
    if (code == RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED)
        return QStringLiteral("the broker refused: this connection's user may not change ACLs (it needs ALTER on "
                              "the cluster resource kafka-cluster, or to be a super user)");
    return text.isEmpty() ? QString::fromUtf8(rd_kafka_err2str(code)) : text;
}

using BindingPtr = std::unique_ptr<rd_kafka_AclBinding_t, KafkaDeleter>;

} // namespace

// --- ACLs ------------------------------------------------------------------------

AdminResult<QList<AclEntry>> AdminService::listAcls()
{
    using R = AdminResult<QList<AclEntry>>;
    const QString what = QStringLiteral("cannot list ACLs");
    char errstr[512];
    std::unique_ptr<rd_kafka_AclBindingFilter_t, KafkaDeleter> filter(rd_kafka_AclBindingFilter_new(
        RD_KAFKA_RESOURCE_ANY, nullptr, RD_KAFKA_RESOURCE_PATTERN_ANY, nullptr, nullptr, RD_KAFKA_ACL_OPERATION_ANY,
        RD_KAFKA_ACL_PERMISSION_TYPE_ANY, errstr, sizeof errstr));
    if (!filter)
        return R::failure(what + QStringLiteral(": ") + utf8(errstr));
    QString error;
    rd_kafka_resp_err_t code = RD_KAFKA_RESP_ERR_NO_ERROR;
    EventPtr ev = runAdmin(
        RD_KAFKA_ADMIN_OP_DESCRIBEACLS, what,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) { rd_kafka_DescribeAcls(rk(), filter.get(), o, q); },
        &error, &code);
    if (!ev) {
        // A broker without an authorizer answers SECURITY_DISABLED: not a fault, a fact.
        if (code == RD_KAFKA_RESP_ERR_SECURITY_DISABLED || error.contains(QLatin1String("SECURITY_DISABLED")) ||
            error.contains(QLatin1String("Security features are disabled"), Qt::CaseInsensitive) ||
            error.contains(QLatin1String("no authorizer"), Qt::CaseInsensitive))
            return R::failure(KafkaError::from(RD_KAFKA_RESP_ERR_SECURITY_DISABLED, noAuthorizer()));
        return R::failure(KafkaError::from(code, error));
    }
    size_t n = 0;
    const rd_kafka_AclBinding_t **acls =
        rd_kafka_DescribeAcls_result_acls(rd_kafka_event_DescribeAcls_result(ev.get()), &n);
    QList<AclEntry> out;
    for (size_t i = 0; i < n; ++i) {
        const rd_kafka_AclBinding_t *a = acls[i];
        out.append({utf8(rd_kafka_ResourceType_name(rd_kafka_AclBinding_restype(a))), utf8(rd_kafka_AclBinding_name(a)),
                    utf8(rd_kafka_ResourcePatternType_name(rd_kafka_AclBinding_resource_pattern_type(a))),
                    utf8(rd_kafka_AclBinding_principal(a)), utf8(rd_kafka_AclBinding_host(a)),
                    utf8(rd_kafka_AclOperation_name(rd_kafka_AclBinding_operation(a))),
                    utf8(rd_kafka_AclPermissionType_name(rd_kafka_AclBinding_permission_type(a)))});
    }
    ev.reset();
    // librdkafka (2.0.2, and later releases too) drops DescribeAcls' top-level
    // error code: a broker without an authorizer (SECURITY_DISABLED) answers
    // like a cluster with no ACLs. Tell them apart by the broker's own
    // authorizer.class.name, read with DescribeConfigs (which reports errors).
    if (out.isEmpty()) {
        const AdminResult<QList<ConfigEntry>> configs = brokerConfigs(what);
        if (configs.ok()) {
            const auto it = std::find_if(configs.value.cbegin(), configs.value.cend(), [](const ConfigEntry &e) {
                return e.name == QLatin1String("authorizer.class.name");
            });
            if (it == configs.value.cend() || !it->value || it->value->isEmpty())
                return R::failure(KafkaError::from(RD_KAFKA_RESP_ERR_SECURITY_DISABLED, noAuthorizer()));
        }
    }
    return {out, {}};
}

AdminResult<QList<ConfigEntry>> AdminService::brokerConfigs(const QString &what)
{
    using R = AdminResult<QList<ConfigEntry>>;
    const AdminResult<ClusterMetadata> md = metadata();
    if (!md.ok())
        return R::failure(md.kafkaError);
    if (md.value.brokers.isEmpty())
        return R::failure(what + QStringLiteral(": the cluster lists no broker"));
    // Every broker should hold the same; the controller's (or the first's) answers.
    const int brokerId = md.value.controllerId >= 0 ? md.value.controllerId : md.value.brokers.first().id;
    return describeConfigs(RD_KAFKA_RESOURCE_BROKER, QString::number(brokerId), what);
}

AdminResult<AclRules> AdminService::aclRules()
{
    using R = AdminResult<AclRules>;
    const QString what = QStringLiteral("cannot read the brokers' authorizer settings");
    const AdminResult<QList<ConfigEntry>> configs = brokerConfigs(what);
    if (!configs.ok())
        return R::failure(configs.kafkaError);
    AclRules rules;
    // Kafka reports both as sensitive (they are the authorizer's, not the
    // broker's own configs): set, with no value. Then they are hidden, not empty.
    for (const ConfigEntry &e : std::as_const(configs.value)) {
        const bool hidden = !e.value && (e.sensitive || e.source != ConfigSource::Default);
        if (e.name == QLatin1String("super.users")) {
            rules.superUsersHidden = hidden;
            if (e.value) {
                for (const QString &u : e.value->split(QLatin1Char(';'), Qt::SkipEmptyParts))
                    rules.superUsers.append(u.trimmed());
            }
        } else if (e.name == QLatin1String("allow.everyone.if.no.acl.found")) {
            rules.allowEveryoneHidden = hidden;
            rules.allowEveryoneIfNoAclFound =
                e.value && e.value->trimmed().compare(QLatin1String("true"), Qt::CaseInsensitive) == 0;
        }
    }
    return {rules, {}, {}};
}

AdminResult<Done> AdminService::createAcls(const QList<AclEntry> &bindings)
{
    using R = AdminResult<Done>;
    const QString what = QStringLiteral("cannot create ACLs");
    if (bindings.isEmpty())
        return {};
    std::vector<BindingPtr> owned;
    std::vector<rd_kafka_AclBinding_t *> arr;
    for (const AclEntry &b : bindings) {
        QString problem;
        const std::optional<AclEntry> n = normalizedAcl(b, &problem);
        if (!n)
            return R::failure(QStringLiteral("%1: %2: %3").arg(what, describeAcl(b), problem));
        char errstr[512];
        BindingPtr binding(rd_kafka_AclBinding_new(
            *aclResourceType(n->resourceType), n->resourceName.toUtf8().constData(), *aclPatternType(n->patternType),
            n->principal.toUtf8().constData(), n->host.toUtf8().constData(), *aclOperation(n->operation),
            *aclPermission(n->permission), errstr, sizeof errstr));
        if (!binding)
            return R::failure(QStringLiteral("%1: %2: %3").arg(what, describeAcl(*n), utf8(errstr)));
        arr.push_back(binding.get());
        owned.push_back(std::move(binding));
    }
    QString error;
    rd_kafka_resp_err_t code = RD_KAFKA_RESP_ERR_NO_ERROR;
    EventPtr ev = runAdmin(
        RD_KAFKA_ADMIN_OP_CREATEACLS, what,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            rd_kafka_CreateAcls(rk(), arr.data(), arr.size(), o, q);
        },
        &error, &code);
    if (!ev)
        return R::failure(KafkaError::from(code, code ? what + QStringLiteral(": ") + aclRefusal(code, error) : error));
    size_t n = 0;
    const rd_kafka_acl_result_t **results =
        rd_kafka_CreateAcls_result_acls(rd_kafka_event_CreateAcls_result(ev.get()), &n);
    QStringList refused;
    rd_kafka_resp_err_t first = RD_KAFKA_RESP_ERR_NO_ERROR;
    for (size_t i = 0; i < n && i < size_t(bindings.size()); ++i) {
        const rd_kafka_error_t *e = rd_kafka_acl_result_error(results[i]);
        if (!e || !rd_kafka_error_code(e))
            continue;
        if (!first)
            first = rd_kafka_error_code(e);
        refused.append(
            QStringLiteral("%1: %2").arg(describeAcl(bindings.at(qsizetype(i))),
                                         aclRefusal(rd_kafka_error_code(e), utf8(rd_kafka_error_string(e)))));
    }
    if (!refused.isEmpty())
        return R::failure(KafkaError::from(first, what + QStringLiteral(": ") + refused.join(QStringLiteral("; "))));
    return {};
}

AdminResult<int> AdminService::deleteAcls(const QList<AclEntry> &bindings)
{
    using R = AdminResult<int>;
    const QString what = QStringLiteral("cannot delete ACLs");
    if (bindings.isEmpty())
        return {0, {}, {}};
    using FilterPtr = std::unique_ptr<rd_kafka_AclBindingFilter_t, KafkaDeleter>;
    std::vector<FilterPtr> owned;
    std::vector<rd_kafka_AclBindingFilter_t *> arr;
    for (const AclEntry &b : bindings) {
        QString problem;
        const std::optional<AclEntry> n = normalizedAcl(b, &problem);
        if (!n)
            return R::failure(QStringLiteral("%1: %2: %3").arg(what, describeAcl(b), problem));
        // Every field exact: a filter deletes only the binding it names.
        char errstr[512];
        FilterPtr filter(rd_kafka_AclBindingFilter_new(
            *aclResourceType(n->resourceType), n->resourceName.toUtf8().constData(), *aclPatternType(n->patternType),
            n->principal.toUtf8().constData(), n->host.toUtf8().constData(), *aclOperation(n->operation),
            *aclPermission(n->permission), errstr, sizeof errstr));
        if (!filter)
            return R::failure(QStringLiteral("%1: %2: %3").arg(what, describeAcl(*n), utf8(errstr)));
        arr.push_back(filter.get());
        owned.push_back(std::move(filter));
    }
    QString error;
    rd_kafka_resp_err_t code = RD_KAFKA_RESP_ERR_NO_ERROR;
    EventPtr ev = runAdmin(
        RD_KAFKA_ADMIN_OP_DELETEACLS, what,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            rd_kafka_DeleteAcls(rk(), arr.data(), arr.size(), o, q);
        },
        &error, &code);
    if (!ev)
        return R::failure(KafkaError::from(code, code ? what + QStringLiteral(": ") + aclRefusal(code, error) : error));
    size_t n = 0;
    const rd_kafka_DeleteAcls_result_response_t **responses =
        rd_kafka_DeleteAcls_result_responses(rd_kafka_event_DeleteAcls_result(ev.get()), &n);
    int deleted = 0;
    QStringList refused;
    rd_kafka_resp_err_t first = RD_KAFKA_RESP_ERR_NO_ERROR;
    for (size_t i = 0; i < n && i < size_t(bindings.size()); ++i) {
        const rd_kafka_error_t *e = rd_kafka_DeleteAcls_result_response_error(responses[i]);
        if (e && rd_kafka_error_code(e)) {
            if (!first)
                first = rd_kafka_error_code(e);
            refused.append(
                QStringLiteral("%1: %2").arg(describeAcl(bindings.at(qsizetype(i))),
                                             aclRefusal(rd_kafka_error_code(e), utf8(rd_kafka_error_string(e)))));
            continue;
        }
        size_t matching = 0;
        rd_kafka_DeleteAcls_result_response_matching_acls(responses[i], &matching);
        deleted += int(matching);
    }
    if (!refused.isEmpty())
        return R::failure(KafkaError::from(first, what + QStringLiteral(": ") + refused.join(QStringLiteral("; "))));
    return {deleted, {}, {}};
}

} // namespace md
