#include "engine/core/CertificateCheck.h"

#include <openssl/x509_vfy.h>

#include <QHash>
#include <QMutex>

#include <cstring>

namespace md {

namespace {

// Handles are created and destroyed on many threads; the callback runs on
// librdkafka's broker threads.
QMutex &failuresMutex()
{
    static QMutex mutex;
    return mutex;
}

QHash<const rd_kafka_t *, CertificateFailure> &failures()
{
    static QHash<const rd_kafka_t *, CertificateFailure> map;
    return map;
}

int verifyCertificate(rd_kafka_t *rk, const char *brokerName, int32_t, int *x509Error, int depth, const char *, size_t,
                      char *errstr, size_t errstrSize, void *)
{
    // OpenSSL calls this with its verdict already in *x509Error (0: valid);
    // returning 0 for every error and 1 otherwise keeps its decision.
    if (*x509Error == X509_V_OK)
        return 1;
    {
        QMutexLocker lock(&failuresMutex());
        failures().insert(rk, {*x509Error, depth, QString::fromUtf8(brokerName ? brokerName : "")});
    }
    if (errstrSize > 0) {
        std::strncpy(errstr, X509_verify_cert_error_string(*x509Error), errstrSize - 1);
        errstr[errstrSize - 1] = '\0';
    }
    return 0;
}

} // namespace

void installCertificateCheck(rd_kafka_conf_t *conf)
{
    rd_kafka_conf_set_ssl_cert_verify_cb(conf, &verifyCertificate);
}

std::optional<CertificateFailure> lastCertificateFailure(const rd_kafka_t *rk)
{
    QMutexLocker lock(&failuresMutex());
    const auto it = failures().constFind(rk);
    if (it == failures().cend())
        return std::nullopt;
    return *it;
}

void forgetCertificateFailure(const rd_kafka_t *rk)
{
    QMutexLocker lock(&failuresMutex());
    failures().remove(rk);
}

QString describeCertificateFailure(const CertificateFailure &failure)
{
    const QString whose = failure.depth == 0
                              ? QStringLiteral("the certificate of broker %1").arg(failure.broker)
                              : QStringLiteral("a CA certificate in the chain of broker %1").arg(failure.broker);
    switch (failure.x509Error) {
    case X509_V_ERR_CERT_HAS_EXPIRED: return whose + QStringLiteral(" has expired");
    case X509_V_ERR_CERT_NOT_YET_VALID:
        return whose + QStringLiteral(" is not valid yet (or this machine's clock is wrong)");
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH:
        return QStringLiteral("the certificate of broker %1 does not match the host name (or address) it was "
                              "reached at")
            .arg(failure.broker);
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
        return QStringLiteral("the certificate of broker %1 is not signed by a trusted CA (check the CA file, "
                              "ssl.ca)")
            .arg(failure.broker);
    case X509_V_ERR_CERT_REVOKED: return whose + QStringLiteral(" has been revoked");
    default: break;
    }
    return whose + QStringLiteral(" was refused: ") +
           QString::fromUtf8(X509_verify_cert_error_string(failure.x509Error));
}

} // namespace md
