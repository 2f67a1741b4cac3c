#pragma once

#include <librdkafka/rdkafka.h>

#include <QMetaType>
#include <QString>

namespace md {

// What went wrong, in the terms a user acts on. The UI picks its words from
// this, never from librdkafka's text, which changes between releases.
enum class KafkaErrorKind {
    None,           // no error
    Unreachable,    // no broker answered: refused, closed, host name unknown, every broker down
    Authentication, // SASL refused the user, the password or the mechanism
    Tls,            // the TLS handshake failed, or the client's TLS files could not be used
    Authorization,  // authenticated, but not allowed
    Timeout,        // a broker was reached but did not answer in time
    NotFound,       // no such topic, partition or group
    Invalid,        // a setting or a request the client or broker refuses as malformed
    Other,          // anything else; the code and message say more
};

// What the client was doing when an error came, beyond its code. librdkafka
// reports a failed TLS handshake as _SSL or as _TRANSPORT, whichever failure
// it sees first; the context decides the ambiguous codes.
struct KafkaErrorContext {
    bool tlsConfigured = false;      // security.protocol is SSL or SASL_SSL
    bool tlsHandshakeFailed = false; // a connection failed during its TLS handshake
};

KafkaErrorKind classifyKafkaError(rd_kafka_resp_err_t code, const KafkaErrorContext &context = {});

// Whether librdkafka's reason for a connection error says it happened in the
// TLS handshake. librdkafka ends a broker's connection errors with the broker
// state it failed in ("... (after 12ms in state SSL_HANDSHAKE)"), and a TLS
// alert from the broker with OpenSSL's "SSL alert number N": identifiers, not
// prose. This is the only place the engine reads an error's text, and only
// for the _TRANSPORT code.
bool failedInTlsHandshake(rd_kafka_resp_err_t code, const char *reason);

// librdkafka's reason for a connection error (an error callback's), led by
// what it means in a user's words when a user can act on it:
// "authentication failed: the cluster refused the user name or password ...",
// "TLS failed: the certificate of broker 127.0.0.1:9093 has expired", "... does
// not match the host name ...", "... is not signed by a trusted CA ...". `rk`
// is the client that reported it (for the certificate it refused), or null.
QString describeConnectionError(const rd_kafka_t *rk, int code, const char *reason);

// An error as it leaves the engine: librdkafka's code, its kind, and the full
// text for the expert (bootstrap address and librdkafka's reason).
struct KafkaError {
    rd_kafka_resp_err_t code = RD_KAFKA_RESP_ERR_NO_ERROR;
    KafkaErrorKind kind = KafkaErrorKind::None;
    QString message;

    bool isError() const { return kind != KafkaErrorKind::None; }
    explicit operator bool() const { return isError(); }
    bool operator==(const KafkaError &) const = default;

    static KafkaError from(rd_kafka_resp_err_t code, const QString &message, const KafkaErrorContext &context = {});
    // An error with a known kind and no librdkafka code of its own (a setting
    // refused before any client exists).
    static KafkaError withKind(KafkaErrorKind kind, rd_kafka_resp_err_t code, const QString &message);
};

// "unreachable", "authentication", "TLS", ... for logs and tests.
QString kafkaErrorKindName(KafkaErrorKind kind);

// Whether a delivery report carries the broker's word that the record was
// written. librdkafka also reports records delivered without an offset: a
// batch the broker called a duplicate, and one whose request failed without an
// answer when a later batch of the same producer was taken ("implicitly
// acked"). That inference is wrong when the partition's new leader does not
// know the producer (a replica a reassignment recreated takes any sequence):
// the records are gone while reported delivered. A writer that must not lose
// a record writes it again. The producers here all use acks=all, which always
// reports an offset for a confirmed write.
inline bool writeConfirmed(const rd_kafka_message_t *report)
{
    return report->err == RD_KAFKA_RESP_ERR_NO_ERROR && report->offset >= 0;
}

// Why a delivery report is not a confirmed write, for events and errors.
QString unconfirmedWriteText(const rd_kafka_message_t *report);

} // namespace md

Q_DECLARE_METATYPE(md::KafkaError)
