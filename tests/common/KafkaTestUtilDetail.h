#pragma once

// The librdkafka plumbing behind KafkaTestUtil.h, shared by its three sources
// (KafkaTestUtil.cpp: clients, records, probe; KafkaTestAdmin.cpp: topics,
// watermarks, DeleteRecords; KafkaTestProduceConsume.cpp: producing,
// consuming, group members). Not for tests: they use KafkaTestUtil.h.

#include "KafkaTestUtil.h"
#include "engine/core/KafkaHandles.h"

#include <QDeadlineTimer>
#include <QMap>
#include <QMutex>
#include <QMutexLocker>
#include <QString>
#include <QStringList>

namespace md::test::detail {

// Collects what librdkafka reports from its own threads (error_cb, dr_msg_cb):
// the helpers fold it into their error messages, so a failure says *why*
// (authentication, unknown topic, timeout) instead of just "timed out".
struct ClientState {
    QMutex mutex;
    int firstErrorCode = 0;
    QString lastError;
    QStringList errors; // distinct, in order: which one comes first is up to librdkafka's threads
    qint64 delivered = 0;
    qint64 failed = 0;
    QString firstDeliveryError;

    void clientError(int code, const QString &reason)
    {
        QMutexLocker lock(&mutex);
        if (firstErrorCode == 0)
            firstErrorCode = code;
        lastError = reason;
        if (errors.size() < 10 && !errors.contains(reason))
            errors << reason;
    }
    QString allErrorsText()
    {
        QMutexLocker lock(&mutex);
        return errors.join(QStringLiteral(" | "));
    }
    QString lastErrorText()
    {
        QMutexLocker lock(&mutex);
        return lastError;
    }
};

void setError(QString *error, const QString &text);

QString errText(rd_kafka_resp_err_t err);

// Appends the client's last reported error, when there is one.
QString withClientError(const QString &text, ClientState &state);

int remainingMs(const QDeadlineTimer &deadline);

// A client of type `type` for `bootstrap` with `client` properties and then
// `extra` (the helper's own, which win). `state` must outlive the handle.
KafkaPtr makeClient(rd_kafka_type_t type, const QString &bootstrap, const ClientProperties &client,
                    const QMap<QString, QString> &extra, ClientState *state, QString *error);

// Partition count of `topic` from a fresh metadata request: >= 0 when the topic
// exists with every partition led, -1 when it is unknown, -2 on a request
// failure (*error set), -3 when it exists but some partition has no leader yet.
int topicState(rd_kafka_t *rk, const QString &topic, int timeoutMs, QString *error);

// Waits for one admin result event on `queue`; checks the request-level error.
EventPtr waitAdminResult(rd_kafka_queue_t *queue, const QDeadlineTimer &deadline, const QString &what,
                         ClientState &state, QString *error);

AdminOptionsPtr adminOptions(rd_kafka_t *rk, rd_kafka_admin_op_t op, const QDeadlineTimer &deadline);

} // namespace md::test::detail
