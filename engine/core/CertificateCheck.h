#pragma once

#include <librdkafka/rdkafka.h>

#include <QString>

#include <optional>

namespace md {

// librdkafka reports every refused broker certificate alike ("certificate
// verify failed: broker certificate could not be verified ..."), whether it
// expired, names another host or comes from an unknown CA. OpenSSL knows
// which: this verification callback keeps its verdict per client handle so
// that the error can say it. It accepts exactly what OpenSSL accepts.
void installCertificateCheck(rd_kafka_conf_t *conf);

struct CertificateFailure {
    int x509Error = 0; // OpenSSL's X509_V_ERR_* of the refused certificate
    int depth = 0;     // 0: the broker's own certificate, 1 and up: its issuers
    QString broker;    // librdkafka's name of the broker ("127.0.0.1:9093")
};

// The last certificate client `rk` refused, if any.
std::optional<CertificateFailure> lastCertificateFailure(const rd_kafka_t *rk);
// Called when a client handle is destroyed (KafkaDeleter).
void forgetCertificateFailure(const rd_kafka_t *rk);

// What a refused certificate means, in a user's words: "the certificate of
// broker 127.0.0.1:9093 has expired".
QString describeCertificateFailure(const CertificateFailure &failure);

} // namespace md
