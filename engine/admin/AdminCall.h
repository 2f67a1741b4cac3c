#pragma once

// One admin request on a private queue, waited for: the shared plumbing of the
// engine's own blocking admin calls (TopicSync, ConfigEntry). AdminService has
// its richer variant that names the cluster in its errors.

#include "engine/core/KafkaHandles.h"

#include <QString>

namespace md {

// `code`, when given, gets the request's error code (a timeout when nothing answered).
template <typename Call>
EventPtr adminCall(rd_kafka_t *rk, rd_kafka_admin_op_t op, int timeoutMs, Call &&call, QString *error,
                   rd_kafka_resp_err_t *code = nullptr)
{
    QueuePtr queue(rd_kafka_queue_new(rk));
    AdminOptionsPtr options(rd_kafka_AdminOptions_new(rk, op));
    char errstr[256];
    rd_kafka_AdminOptions_set_request_timeout(options.get(), timeoutMs, errstr, sizeof errstr);
    if (op == RD_KAFKA_ADMIN_OP_CREATETOPICS || op == RD_KAFKA_ADMIN_OP_CREATEPARTITIONS)
        rd_kafka_AdminOptions_set_operation_timeout(options.get(), timeoutMs, errstr, sizeof errstr);
    call(options.get(), queue.get());
    EventPtr ev(rd_kafka_queue_poll(queue.get(), timeoutMs + 2000));
    if (!ev) {
        *error = QStringLiteral("no answer within %1 ms").arg(timeoutMs + 2000);
        if (code)
            *code = RD_KAFKA_RESP_ERR__TIMED_OUT;
        return nullptr;
    }
    if (code)
        *code = rd_kafka_event_error(ev.get());
    if (rd_kafka_event_error(ev.get())) {
        *error = QString::fromUtf8(rd_kafka_event_error_string(ev.get()));
        return nullptr;
    }
    return ev;
}

} // namespace md
