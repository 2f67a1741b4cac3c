#pragma once

// What a broker with an authorizer actually lets a principal do: each probe
// tries one operation on one resource as that principal, with plain librdkafka
// (none of MirrorDesk's clients), and reports allowed, denied (an
// authorization error) or could-not-tell (any other failure, with why).
// READ is probed with Kafka's own ConsoleConsumer (tst_acl_check.cpp):
// librdkafka waits silently on a topic the principal may not describe.

#include "engine/core/KafkaHandles.h"

#include <QMap>
#include <QString>

#include <chrono>
#include <functional>
#include <optional>

namespace md::test {

struct AclProbeClient {
    QString bootstrap;
    QMap<QString, QString> properties; // security.protocol, sasl.* for the principal under test
};

enum class Probed { Allowed, Denied, Unknown };

struct ProbeResult {
    Probed outcome = Probed::Unknown;
    QString detail; // the error seen (or why nothing could be told)
};

namespace detail {

inline bool isAuthorizationError(rd_kafka_resp_err_t e)
{
    return e == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED || e == RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED ||
           e == RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED ||
           e == RD_KAFKA_RESP_ERR_TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
}

inline ProbeResult fromError(rd_kafka_resp_err_t e, const QString &text = {})
{
    const QString detail = QString::fromUtf8(rd_kafka_err2name(e)) + QStringLiteral(": ") +
                           (text.isEmpty() ? QString::fromUtf8(rd_kafka_err2str(e)) : text);
    if (!e)
        return {Probed::Allowed, {}};
    if (isAuthorizationError(e))
        return {Probed::Denied, detail};
    return {Probed::Unknown, detail};
}

inline KafkaPtr makeClient(const AclProbeClient &c, rd_kafka_type_t type, const QMap<QString, QString> &extra,
                           QString *error, const std::function<void(rd_kafka_conf_t *)> &more = {})
{
    char errstr[512];
    KafkaConfPtr conf(rd_kafka_conf_new());
    QMap<QString, QString> all = c.properties;
    all.insert(QStringLiteral("bootstrap.servers"), c.bootstrap);
    for (auto it = extra.cbegin(); it != extra.cend(); ++it)
        all.insert(it.key(), it.value());
    for (auto it = all.cbegin(); it != all.cend(); ++it) {
        if (rd_kafka_conf_set(conf.get(), it.key().toUtf8().constData(), it.value().toUtf8().constData(), errstr,
                              sizeof errstr) != RD_KAFKA_CONF_OK) {
            *error = QString::fromUtf8(errstr);
            return {};
        }
    }
    rd_kafka_conf_set_log_cb(conf.get(), [](const rd_kafka_t *, int, const char *, const char *) {});
    if (more)
        more(conf.get());
    KafkaPtr rk(rd_kafka_new(type, conf.get(), errstr, sizeof errstr));
    if (!rk) {
        *error = QString::fromUtf8(errstr);
        return {};
    }
    (void)conf.release();
    return rk;
}

// One admin request; the event (null with *error on a top-level failure).
inline EventPtr adminCall(rd_kafka_t *rk, rd_kafka_admin_op_t op, bool validateOnly,
                          const std::function<void(rd_kafka_AdminOptions_t *, rd_kafka_queue_t *)> &call,
                          rd_kafka_resp_err_t *code, QString *error)
{
    QueuePtr q(rd_kafka_queue_new(rk));
    AdminOptionsPtr o(rd_kafka_AdminOptions_new(rk, op));
    char errstr[256];
    rd_kafka_AdminOptions_set_request_timeout(o.get(), 20000, errstr, sizeof errstr);
    if (validateOnly)
        rd_kafka_AdminOptions_set_validate_only(o.get(), 1, errstr, sizeof errstr);
    call(o.get(), q.get());
    EventPtr ev(rd_kafka_queue_poll(q.get(), 30000));
    if (!ev) {
        *error = QStringLiteral("no answer within 30 s");
        return {};
    }
    if ((*code = rd_kafka_event_error(ev.get()))) {
        *error = QString::fromUtf8(rd_kafka_event_error_string(ev.get()));
        return {};
    }
    return ev;
}

} // namespace detail

// WRITE on a topic: one record, not idempotent (that asks more than WRITE of older brokers).
inline ProbeResult probeTopicWrite(const AclProbeClient &c, const QString &topic)
{
    QString error;
    KafkaPtr rk =
        detail::makeClient(c, RD_KAFKA_PRODUCER,
                           {{QStringLiteral("enable.idempotence"), QStringLiteral("false")},
                            {QStringLiteral("message.timeout.ms"), QStringLiteral("20000")}},
                           &error, [](rd_kafka_conf_t *conf) {
                               rd_kafka_conf_set_dr_msg_cb(conf, [](rd_kafka_t *, const rd_kafka_message_t *m, void *) {
                                   *static_cast<rd_kafka_resp_err_t *>(m->_private) = m->err;
                               });
                           });
    if (!rk)
        return {Probed::Unknown, error};
    rd_kafka_resp_err_t delivered = RD_KAFKA_RESP_ERR__IN_PROGRESS;
    const QByteArray name = topic.toUtf8();
    if (const rd_kafka_resp_err_t e = rd_kafka_producev(
            rk.get(), RD_KAFKA_V_TOPIC(name.constData()), RD_KAFKA_V_PARTITION(0),
            RD_KAFKA_V_VALUE(const_cast<char *>("probe"), size_t(5)), RD_KAFKA_V_OPAQUE(&delivered), RD_KAFKA_V_END))
        return detail::fromError(e);
    rd_kafka_flush(rk.get(), 30000);
    if (delivered == RD_KAFKA_RESP_ERR__IN_PROGRESS)
        return {Probed::Unknown, QStringLiteral("no delivery report within 30 s")};
    return detail::fromError(delivered);
}

// DESCRIBE on a topic: metadata asked for that topic alone.
inline ProbeResult probeTopicDescribe(const AclProbeClient &c, const QString &topic)
{
    QString error;
    KafkaPtr rk = detail::makeClient(c, RD_KAFKA_PRODUCER, {}, &error);
    if (!rk)
        return {Probed::Unknown, error};
    TopicPtr rkt(rd_kafka_topic_new(rk.get(), topic.toUtf8().constData(), nullptr));
    const rd_kafka_metadata_t *md = nullptr;
    if (const rd_kafka_resp_err_t e = rd_kafka_metadata(rk.get(), 0, rkt.get(), &md, 20000))
        return detail::fromError(e);
    const rd_kafka_resp_err_t e = md->topic_cnt > 0 ? md->topics[0].err : RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC;
    rd_kafka_metadata_destroy(md);
    return detail::fromError(e);
}

// The first per-resource error of a (Describe|IncrementalAlter)Configs answer.
inline ProbeResult configsResult(const rd_kafka_ConfigResource_t **res, size_t n)
{
    if (n < 1)
        return {Probed::Unknown, QStringLiteral("empty answer")};
    const rd_kafka_resp_err_t e = rd_kafka_ConfigResource_error(res[0]);
    const char *text = rd_kafka_ConfigResource_error_string(res[0]);
    return detail::fromError(e, text ? QString::fromUtf8(text) : QString());
}

// DESCRIBE_CONFIGS of a topic or (type BROKER, name a broker id) the cluster.
inline ProbeResult probeDescribeConfigs(const AclProbeClient &c, rd_kafka_ResourceType_t type, const QString &name)
{
    QString error;
    KafkaPtr rk = detail::makeClient(c, RD_KAFKA_PRODUCER, {}, &error);
    if (!rk)
        return {Probed::Unknown, error};
    std::unique_ptr<rd_kafka_ConfigResource_t, KafkaDeleter> r(
        rd_kafka_ConfigResource_new(type, name.toUtf8().constData()));
    rd_kafka_resp_err_t code = RD_KAFKA_RESP_ERR_NO_ERROR;
    EventPtr ev = detail::adminCall(
        rk.get(), RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS, false,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            rd_kafka_ConfigResource_t *arr[] = {r.get()};
            rd_kafka_DescribeConfigs(rk.get(), arr, 1, o, q);
        },
        &code, &error);
    if (!ev)
        return detail::fromError(code ? code : RD_KAFKA_RESP_ERR__FAIL, error);
    size_t n = 0;
    const rd_kafka_ConfigResource_t **res =
        rd_kafka_DescribeConfigs_result_resources(rd_kafka_event_DescribeConfigs_result(ev.get()), &n);
    return configsResult(res, n);
}

// ALTER_CONFIGS, validated only (nothing changes): a topic's retention.ms, or
// the cluster's (broker id) log.cleaner.threads.
inline ProbeResult probeAlterConfigs(const AclProbeClient &c, rd_kafka_ResourceType_t type, const QString &name)
{
    QString error;
    KafkaPtr rk = detail::makeClient(c, RD_KAFKA_PRODUCER, {}, &error);
    if (!rk)
        return {Probed::Unknown, error};
    std::unique_ptr<rd_kafka_ConfigResource_t, KafkaDeleter> r(
        rd_kafka_ConfigResource_new(type, name.toUtf8().constData()));
    rd_kafka_error_t *bad = rd_kafka_ConfigResource_add_incremental_config(
        r.get(), type == RD_KAFKA_RESOURCE_TOPIC ? "retention.ms" : "log.cleaner.threads",
        RD_KAFKA_ALTER_CONFIG_OP_TYPE_SET, type == RD_KAFKA_RESOURCE_TOPIC ? "86400000" : "1");
    if (bad) {
        const QString why = QString::fromUtf8(rd_kafka_error_string(bad));
        rd_kafka_error_destroy(bad);
        return {Probed::Unknown, why};
    }
    rd_kafka_resp_err_t code = RD_KAFKA_RESP_ERR_NO_ERROR;
    EventPtr ev = detail::adminCall(
        rk.get(), RD_KAFKA_ADMIN_OP_INCREMENTALALTERCONFIGS, true,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            rd_kafka_ConfigResource_t *arr[] = {r.get()};
            rd_kafka_IncrementalAlterConfigs(rk.get(), arr, 1, o, q);
        },
        &code, &error);
    if (!ev)
        return detail::fromError(code ? code : RD_KAFKA_RESP_ERR__FAIL, error);
    size_t n = 0;
    const rd_kafka_ConfigResource_t **res =
        rd_kafka_IncrementalAlterConfigs_result_resources(rd_kafka_event_IncrementalAlterConfigs_result(ev.get()), &n);
    return configsResult(res, n);
}

// CREATE of a topic, validated only; DELETE of a topic (it goes when allowed).
inline ProbeResult probeTopicCreateOrDelete(const AclProbeClient &c, const QString &topic, bool create)
{
    QString error;
    KafkaPtr rk = detail::makeClient(c, RD_KAFKA_PRODUCER, {}, &error);
    if (!rk)
        return {Probed::Unknown, error};
    char errstr[256];
    NewTopicPtr nt(rd_kafka_NewTopic_new(topic.toUtf8().constData(), 1, -1, errstr, sizeof errstr));
    DeleteTopicPtr dt(rd_kafka_DeleteTopic_new(topic.toUtf8().constData()));
    rd_kafka_resp_err_t code = RD_KAFKA_RESP_ERR_NO_ERROR;
    EventPtr ev = detail::adminCall(
        rk.get(), create ? RD_KAFKA_ADMIN_OP_CREATETOPICS : RD_KAFKA_ADMIN_OP_DELETETOPICS, create,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            if (create) {
                rd_kafka_NewTopic_t *arr[] = {nt.get()};
                rd_kafka_CreateTopics(rk.get(), arr, 1, o, q);
            } else {
                rd_kafka_DeleteTopic_t *arr[] = {dt.get()};
                rd_kafka_DeleteTopics(rk.get(), arr, 1, o, q);
            }
        },
        &code, &error);
    if (!ev)
        return detail::fromError(code ? code : RD_KAFKA_RESP_ERR__FAIL, error);
    size_t n = 0;
    const rd_kafka_topic_result_t **res =
        create ? rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev.get()), &n)
               : rd_kafka_DeleteTopics_result_topics(rd_kafka_event_DeleteTopics_result(ev.get()), &n);
    if (n < 1)
        return {Probed::Unknown, QStringLiteral("empty answer")};
    const char *text = rd_kafka_topic_result_error_string(res[0]);
    return detail::fromError(rd_kafka_topic_result_error(res[0]), text ? QString::fromUtf8(text) : QString());
}

// DESCRIBE of a group: DescribeConsumerGroups (a group nobody uses is Dead, not an error).
inline ProbeResult probeGroupDescribe(const AclProbeClient &c, const QString &group)
{
    QString error;
    KafkaPtr rk = detail::makeClient(c, RD_KAFKA_PRODUCER, {}, &error);
    if (!rk)
        return {Probed::Unknown, error};
    const QByteArray name = group.toUtf8();
    const char *groups[] = {name.constData()};
    rd_kafka_resp_err_t code = RD_KAFKA_RESP_ERR_NO_ERROR;
    EventPtr ev = detail::adminCall(
        rk.get(), RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS, false,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            rd_kafka_DescribeConsumerGroups(rk.get(), groups, 1, o, q);
        },
        &code, &error);
    if (!ev)
        return detail::fromError(code ? code : RD_KAFKA_RESP_ERR__FAIL, error);
    size_t n = 0;
    const rd_kafka_ConsumerGroupDescription_t **d =
        rd_kafka_DescribeConsumerGroups_result_groups(rd_kafka_event_DescribeConsumerGroups_result(ev.get()), &n);
    if (n < 1)
        return {Probed::Unknown, QStringLiteral("empty answer")};
    // A group nobody has used: Kafka 4's ConsumerGroupDescribe says GROUP_ID_NOT_FOUND
    // after the authorization check, which an unauthorized caller never passes.
    const rd_kafka_error_t *e = rd_kafka_ConsumerGroupDescription_error(d[0]);
    if (!e || rd_kafka_error_code(e) == RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND)
        return {Probed::Allowed, {}};
    return detail::fromError(rd_kafka_error_code(e),
                             QStringLiteral("%1: %2").arg(QString::fromUtf8(rd_kafka_err2name(rd_kafka_error_code(e))),
                                                          QString::fromUtf8(rd_kafka_error_string(e))));
}

// READ of a group: commit an offset for it (the principal must READ the topic too).
inline ProbeResult probeGroupRead(const AclProbeClient &c, const QString &group, const QString &topic)
{
    QString error;
    KafkaPtr rk = detail::makeClient(c, RD_KAFKA_PRODUCER, {}, &error);
    if (!rk)
        return {Probed::Unknown, error};
    PartitionListPtr list(rd_kafka_topic_partition_list_new(1));
    rd_kafka_topic_partition_list_add(list.get(), topic.toUtf8().constData(), 0)->offset = 0;
    std::unique_ptr<rd_kafka_AlterConsumerGroupOffsets_t, KafkaDeleter> alter(
        rd_kafka_AlterConsumerGroupOffsets_new(group.toUtf8().constData(), list.get()));
    rd_kafka_resp_err_t code = RD_KAFKA_RESP_ERR_NO_ERROR;
    EventPtr ev = detail::adminCall(
        rk.get(), RD_KAFKA_ADMIN_OP_ALTERCONSUMERGROUPOFFSETS, false,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            rd_kafka_AlterConsumerGroupOffsets_t *arr[] = {alter.get()};
            rd_kafka_AlterConsumerGroupOffsets(rk.get(), arr, 1, o, q);
        },
        &code, &error);
    if (!ev)
        return detail::fromError(code ? code : RD_KAFKA_RESP_ERR__FAIL, error);
    size_t n = 0;
    const rd_kafka_group_result_t **g =
        rd_kafka_AlterConsumerGroupOffsets_result_groups(rd_kafka_event_AlterConsumerGroupOffsets_result(ev.get()), &n);
    if (n < 1)
        return {Probed::Unknown, QStringLiteral("empty answer")};
    if (const rd_kafka_error_t *e = rd_kafka_group_result_error(g[0]))
        return detail::fromError(rd_kafka_error_code(e), QString::fromUtf8(rd_kafka_error_string(e)));
    const rd_kafka_topic_partition_list_t *parts = rd_kafka_group_result_partitions(g[0]);
    return detail::fromError(parts && parts->cnt > 0 ? parts->elems[0].err : RD_KAFKA_RESP_ERR_NO_ERROR);
}

// DELETE of a group: a group that is not there answers GROUP_ID_NOT_FOUND, which means allowed.
inline ProbeResult probeGroupDelete(const AclProbeClient &c, const QString &group)
{
    QString error;
    KafkaPtr rk = detail::makeClient(c, RD_KAFKA_PRODUCER, {}, &error);
    if (!rk)
        return {Probed::Unknown, error};
    DeleteGroupPtr dg(rd_kafka_DeleteGroup_new(group.toUtf8().constData()));
    rd_kafka_resp_err_t code = RD_KAFKA_RESP_ERR_NO_ERROR;
    EventPtr ev = detail::adminCall(
        rk.get(), RD_KAFKA_ADMIN_OP_DELETEGROUPS, false,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            rd_kafka_DeleteGroup_t *arr[] = {dg.get()};
            rd_kafka_DeleteGroups(rk.get(), arr, 1, o, q);
        },
        &code, &error);
    if (!ev)
        return detail::fromError(code ? code : RD_KAFKA_RESP_ERR__FAIL, error);
    size_t n = 0;
    const rd_kafka_group_result_t **g =
        rd_kafka_DeleteGroups_result_groups(rd_kafka_event_DeleteGroups_result(ev.get()), &n);
    if (n < 1)
        return {Probed::Unknown, QStringLiteral("empty answer")};
    const rd_kafka_error_t *e = rd_kafka_group_result_error(g[0]);
    if (!e || rd_kafka_error_code(e) == RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND)
        return {Probed::Allowed, {}};
    return detail::fromError(rd_kafka_error_code(e), QString::fromUtf8(rd_kafka_error_string(e)));
}

// ALTER of the cluster: create a binding (for a principal nobody has).
inline ProbeResult probeClusterAlter(const AclProbeClient &c, const QString &topic)
{
    QString error;
    KafkaPtr rk = detail::makeClient(c, RD_KAFKA_PRODUCER, {}, &error);
    if (!rk)
        return {Probed::Unknown, error};
    char errstr[256];
    std::unique_ptr<rd_kafka_AclBinding_t, KafkaDeleter> b(rd_kafka_AclBinding_new(
        RD_KAFKA_RESOURCE_TOPIC, topic.toUtf8().constData(), RD_KAFKA_RESOURCE_PATTERN_LITERAL, "User:nobody", "*",
        RD_KAFKA_ACL_OPERATION_READ, RD_KAFKA_ACL_PERMISSION_TYPE_ALLOW, errstr, sizeof errstr));
    rd_kafka_resp_err_t code = RD_KAFKA_RESP_ERR_NO_ERROR;
    EventPtr ev = detail::adminCall(
        rk.get(), RD_KAFKA_ADMIN_OP_CREATEACLS, false,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            rd_kafka_AclBinding_t *arr[] = {b.get()};
            rd_kafka_CreateAcls(rk.get(), arr, 1, o, q);
        },
        &code, &error);
    if (!ev)
        return detail::fromError(code ? code : RD_KAFKA_RESP_ERR__FAIL, error);
    size_t n = 0;
    const rd_kafka_acl_result_t **res = rd_kafka_CreateAcls_result_acls(rd_kafka_event_CreateAcls_result(ev.get()), &n);
    if (n < 1)
        return {Probed::Unknown, QStringLiteral("empty answer")};
    const rd_kafka_error_t *e = rd_kafka_acl_result_error(res[0]);
    return e ? detail::fromError(rd_kafka_error_code(e), QString::fromUtf8(rd_kafka_error_string(e)))
             : ProbeResult{Probed::Allowed, {}};
}

// WRITE of a transactional id: InitProducerId for it.
inline ProbeResult probeTransactionalWrite(const AclProbeClient &c, const QString &transactionalId)
{
    QString error;
    KafkaPtr rk = detail::makeClient(c, RD_KAFKA_PRODUCER,
                                     {{QStringLiteral("transactional.id"), transactionalId},
                                      {QStringLiteral("transaction.timeout.ms"), QStringLiteral("30000")}},
                                     &error);
    if (!rk)
        return {Probed::Unknown, error};
    rd_kafka_error_t *e = rd_kafka_init_transactions(rk.get(), 30000);
    if (!e)
        return {Probed::Allowed, {}};
    ProbeResult r = detail::fromError(rd_kafka_error_code(e), QString::fromUtf8(rd_kafka_error_string(e)));
    rd_kafka_error_destroy(e);
    return r;
}

} // namespace md::test
