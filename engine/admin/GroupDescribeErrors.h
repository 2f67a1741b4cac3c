#pragma once

#include <librdkafka/rdkafka.h>

#include <QString>

#include <chrono>
#include <thread>

namespace md {

// A group's own error in a DescribeConsumerGroups answer. librdkafka (2.12)
// hands the broker's per-group code back as it came, without asking again: a
// coordinator still loading its partition of __consumer_offsets (a broker just
// started or elected) or one that moved answers so for a moment only.
inline bool isTransientGroupError(const rd_kafka_error_t *e)
{
    if (!e)
        return false;
    const rd_kafka_resp_err_t c = rd_kafka_error_code(e);
    return c == RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS || c == RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE ||
           c == RD_KAFKA_RESP_ERR_NOT_COORDINATOR;
}

// Its text, with the code's name: the broker may send no message, which
// leaves librdkafka's "ConsumerGroupDescribe: " with nothing after it.
inline QString groupErrorText(const rd_kafka_error_t *e)
{
    if (!e)
        return {};
    QString text = QString::fromUtf8(rd_kafka_error_string(e)).trimmed();
    if (text.endsWith(QLatin1Char(':')))
        text.chop(1);
    return text + QStringLiteral(" (%1)").arg(QString::fromUtf8(rd_kafka_err2name(rd_kafka_error_code(e))));
}

// Runs attempt(bool *transient) until it succeeds, fails for good, or has
// failed only transiently for `timeoutMs` (then its last failure stands).
template <class Attempt> bool retryTransientGroupErrors(int timeoutMs, Attempt &&attempt)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    for (;;) {
        bool transient = false;
        if (attempt(&transient))
            return true;
        if (!transient || std::chrono::steady_clock::now() >= deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
}

} // namespace md
