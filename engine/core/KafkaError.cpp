#include "engine/core/KafkaError.h"

#include "engine/core/CertificateCheck.h"

#include <cstring>

namespace md {

KafkaErrorKind classifyKafkaError(rd_kafka_resp_err_t code, const KafkaErrorContext &context)
{
    switch (code) {
    case RD_KAFKA_RESP_ERR_NO_ERROR: return KafkaErrorKind::None;
    case RD_KAFKA_RESP_ERR__SSL: return KafkaErrorKind::Tls;
    case RD_KAFKA_RESP_ERR__AUTHENTICATION:
    case RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED:
    case RD_KAFKA_RESP_ERR_UNSUPPORTED_SASL_MECHANISM:
    case RD_KAFKA_RESP_ERR_ILLEGAL_SASL_STATE: return KafkaErrorKind::Authentication;
    case RD_KAFKA_RESP_ERR__TRANSPORT:
    case RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN:
    case RD_KAFKA_RESP_ERR__TIMED_OUT:
        // The connection failure that follows a failed handshake (the broker
        // closes the socket; every broker is then down; the request times out)
        // says less than the handshake did.
        if (context.tlsConfigured && context.tlsHandshakeFailed)
            return KafkaErrorKind::Tls;
        return code == RD_KAFKA_RESP_ERR__TIMED_OUT ? KafkaErrorKind::Timeout : KafkaErrorKind::Unreachable;
    case RD_KAFKA_RESP_ERR__RESOLVE: return KafkaErrorKind::Unreachable;
    case RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT:
    case RD_KAFKA_RESP_ERR__TIMED_OUT_QUEUE: return KafkaErrorKind::Timeout;
    case RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED:
    case RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED:
    case RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED:
    case RD_KAFKA_RESP_ERR_TRANSACTIONAL_ID_AUTHORIZATION_FAILED:
    case RD_KAFKA_RESP_ERR_DELEGATION_TOKEN_AUTHORIZATION_FAILED: return KafkaErrorKind::Authorization;
    case RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART:
    case RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC:
    case RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION:
    case RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND:
    case RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_ID:
    case RD_KAFKA_RESP_ERR__NOENT: return KafkaErrorKind::NotFound;
    case RD_KAFKA_RESP_ERR__INVALID_ARG:
    case RD_KAFKA_RESP_ERR__INVALID_TYPE:
    case RD_KAFKA_RESP_ERR_INVALID_MSG:
    case RD_KAFKA_RESP_ERR_TOPIC_EXCEPTION:
    case RD_KAFKA_RESP_ERR_INVALID_REQUIRED_ACKS:
    case RD_KAFKA_RESP_ERR_INVALID_GROUP_ID:
    case RD_KAFKA_RESP_ERR_INVALID_SESSION_TIMEOUT:
    case RD_KAFKA_RESP_ERR_INVALID_COMMIT_OFFSET_SIZE:
    case RD_KAFKA_RESP_ERR_INVALID_TIMESTAMP:
    case RD_KAFKA_RESP_ERR_INVALID_PARTITIONS:
    case RD_KAFKA_RESP_ERR_INVALID_REPLICATION_FACTOR:
    case RD_KAFKA_RESP_ERR_INVALID_REPLICA_ASSIGNMENT:
    case RD_KAFKA_RESP_ERR_INVALID_CONFIG:
    case RD_KAFKA_RESP_ERR_INVALID_REQUEST:
    case RD_KAFKA_RESP_ERR_INVALID_RECORD:
    case RD_KAFKA_RESP_ERR_POLICY_VIOLATION: return KafkaErrorKind::Invalid;
    default: return KafkaErrorKind::Other;
    }
}

bool failedInTlsHandshake(rd_kafka_resp_err_t code, const char *reason)
{
    if (code == RD_KAFKA_RESP_ERR__SSL)
        return true;
    if (code != RD_KAFKA_RESP_ERR__TRANSPORT || !reason)
        return false;
    // With TLS 1.3 the client finishes its side of the handshake before the
    // broker checks the client certificate: a refused (or missing) one comes
    // as the broker's TLS alert on the first request, in OpenSSL's words
    // "... SSL alert number 42", in state APIVERSION_QUERY.
    return std::strstr(reason, "in state SSL_HANDSHAKE") || std::strstr(reason, "SSL alert number");
}

QString describeConnectionError(const rd_kafka_t *rk, int code, const char *reason)
{
    const QString text = QString::fromUtf8(reason ? reason : "");
    const auto err = rd_kafka_resp_err_t(code);
    if (classifyKafkaError(err) == KafkaErrorKind::Authentication)
        return QStringLiteral("authentication failed: the cluster refused the user name or password (or the SASL "
                              "mechanism): ") +
               text;
    if (!failedInTlsHandshake(err, reason) && !text.contains(QLatin1String("verify broker certificate")))
        return text;
    // librdkafka says "certificate verify failed" for every refused
    // certificate; the verification callback kept OpenSSL's reason.
    if (text.contains(QLatin1String("certificate verify failed")) ||
        text.contains(QLatin1String("verify broker certificate"))) {
        if (const std::optional<CertificateFailure> failure = rk ? lastCertificateFailure(rk) : std::nullopt)
            return QStringLiteral("TLS failed: ") + describeCertificateFailure(*failure) + QStringLiteral(": ") + text;
    }
    return QStringLiteral("TLS failed: ") + text;
}

KafkaError KafkaError::from(rd_kafka_resp_err_t code, const QString &message, const KafkaErrorContext &context)
{
    return {code, classifyKafkaError(code, context), message};
}

KafkaError KafkaError::withKind(KafkaErrorKind kind, rd_kafka_resp_err_t code, const QString &message)
{
    return {code, kind, message};
}

QString kafkaErrorKindName(KafkaErrorKind kind)
{
    switch (kind) {
    case KafkaErrorKind::None: return QStringLiteral("none");
    case KafkaErrorKind::Unreachable: return QStringLiteral("unreachable");
    case KafkaErrorKind::Authentication: return QStringLiteral("authentication");
    case KafkaErrorKind::Tls: return QStringLiteral("TLS");
    case KafkaErrorKind::Authorization: return QStringLiteral("authorization");
    case KafkaErrorKind::Timeout: return QStringLiteral("timeout");
    case KafkaErrorKind::NotFound: return QStringLiteral("not found");
    case KafkaErrorKind::Invalid: return QStringLiteral("invalid");
    case KafkaErrorKind::Other: break;
    }
    return QStringLiteral("other");
}

QString unconfirmedWriteText(const rd_kafka_message_t *report)
{
    if (report->err != RD_KAFKA_RESP_ERR_NO_ERROR)
        return QString::fromUtf8(rd_kafka_err2str(report->err));
    return QStringLiteral("acknowledged without an offset, so the write is not confirmed");
}

} // namespace md
