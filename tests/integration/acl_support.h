#pragma once

// ACLs on a test broker started with `harness.sh start NAME --acl`, granted
// and taken away through its direct listener (an anonymous super user).

#include "engine/core/KafkaHandles.h"

#include <QList>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

namespace md::test {

struct Acl {
    rd_kafka_ResourceType_t resource = RD_KAFKA_RESOURCE_TOPIC;
    QString name;
    rd_kafka_ResourcePatternType_t pattern = RD_KAFKA_RESOURCE_PATTERN_LITERAL;
    QString principal; // "User:mirrordesk"
    rd_kafka_AclOperation_t operation = RD_KAFKA_ACL_OPERATION_ALL;
    rd_kafka_AclPermissionType_t permission = RD_KAFKA_ACL_PERMISSION_TYPE_ALLOW;
};

namespace detail {

inline rd_kafka_event_t *aclCall(const QString &bootstrap, QString *error,
                                 const std::function<void(rd_kafka_t *, rd_kafka_queue_t *)> &request)
{
    char errstr[512];
    KafkaConfPtr conf(rd_kafka_conf_new());
    rd_kafka_conf_set(conf.get(), "bootstrap.servers", bootstrap.toUtf8().constData(), errstr, sizeof errstr);
    KafkaPtr rk(rd_kafka_new(RD_KAFKA_PRODUCER, conf.get(), errstr, sizeof errstr));
    if (!rk) {
        *error = QString::fromUtf8(errstr);
        return nullptr;
    }
    (void)conf.release();
    QueuePtr q(rd_kafka_queue_new(rk.get()));
    request(rk.get(), q.get());
    rd_kafka_event_t *ev = rd_kafka_queue_poll(q.get(), 30000);
    if (!ev) {
        *error = QStringLiteral("no answer within 30 s");
    } else if (rd_kafka_event_error(ev)) {
        *error = QString::fromUtf8(rd_kafka_event_error_string(ev));
        rd_kafka_event_destroy(ev);
        ev = nullptr;
    }
    return ev;
}

} // namespace detail

// Creates every ACL; false with *error when any was refused.
inline bool createAcls(const QString &bootstrap, const QList<Acl> &acls, QString *error)
{
    char errstr[512];
    std::vector<std::unique_ptr<rd_kafka_AclBinding_t, KafkaDeleter>> owned;
    std::vector<rd_kafka_AclBinding_t *> raw;
    for (const Acl &a : acls) {
        rd_kafka_AclBinding_t *b = rd_kafka_AclBinding_new(a.resource, a.name.toUtf8().constData(), a.pattern,
                                                           a.principal.toUtf8().constData(), "*", a.operation,
                                                           a.permission, errstr, sizeof errstr);
        if (!b) {
            *error = QString::fromUtf8(errstr);
            return false;
        }
        owned.emplace_back(b);
        raw.push_back(b);
    }
    EventPtr ev(detail::aclCall(bootstrap, error, [&](rd_kafka_t *rk, rd_kafka_queue_t *q) {
        rd_kafka_CreateAcls(rk, raw.data(), raw.size(), nullptr, q);
    }));
    if (!ev)
        return false;
    size_t n = 0;
    const rd_kafka_acl_result_t **results =
        rd_kafka_CreateAcls_result_acls(rd_kafka_event_CreateAcls_result(ev.get()), &n);
    for (size_t i = 0; i < n; ++i) {
        if (const rd_kafka_error_t *e = rd_kafka_acl_result_error(results[i])) {
            *error = QString::fromUtf8(rd_kafka_error_string(e));
            return false;
        }
    }
    return true;
}

// Deletes the ACLs that match `acl` exactly.
inline bool deleteAcl(const QString &bootstrap, const Acl &a, QString *error)
{
    char errstr[512];
    std::unique_ptr<rd_kafka_AclBindingFilter_t, KafkaDeleter> filter(rd_kafka_AclBindingFilter_new(
        a.resource, a.name.toUtf8().constData(), a.pattern, a.principal.toUtf8().constData(), "*", a.operation,
        a.permission, errstr, sizeof errstr));
    if (!filter) {
        *error = QString::fromUtf8(errstr);
        return false;
    }
    rd_kafka_AclBindingFilter_t *raw = filter.get();
    EventPtr ev(detail::aclCall(
        bootstrap, error, [&](rd_kafka_t *rk, rd_kafka_queue_t *q) { rd_kafka_DeleteAcls(rk, &raw, 1, nullptr, q); }));
    if (!ev)
        return false;
    size_t n = 0;
    const rd_kafka_DeleteAcls_result_response_t **responses =
        rd_kafka_DeleteAcls_result_responses(rd_kafka_event_DeleteAcls_result(ev.get()), &n);
    for (size_t i = 0; i < n; ++i) {
        if (const rd_kafka_error_t *e = rd_kafka_DeleteAcls_result_response_error(responses[i])) {
            *error = QString::fromUtf8(rd_kafka_error_string(e));
            return false;
        }
    }
    return true;
}

} // namespace md::test
