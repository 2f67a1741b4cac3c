// The table that turns librdkafka's error codes into the kinds the UI words
// its answers by: every kind, the codes librdkafka really reports for each,
// and the ambiguous one (a TLS handshake that fails as _TRANSPORT) that only
// the context decides.
#include "engine/admin/GroupDescribeErrors.h"
#include "engine/core/CertificateCheck.h"
#include "engine/core/KafkaError.h"

#include <openssl/x509_vfy.h>

#include <QtTest/QtTest>

using namespace md;

Q_DECLARE_METATYPE(rd_kafka_resp_err_t)
Q_DECLARE_METATYPE(md::KafkaErrorKind)

class TestKafkaError final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A coordinator still loading (a broker just started) answers a group's
    // describe with an error and no message; librdkafka hands it back as is.
    void aLoadingCoordinatorIsAskedAgain()
    {
        const std::unique_ptr<rd_kafka_error_t, decltype(&rd_kafka_error_destroy)> loading(
            rd_kafka_error_new(RD_KAFKA_RESP_ERR_COORDINATOR_LOAD_IN_PROGRESS, "ConsumerGroupDescribe: "),
            &rd_kafka_error_destroy);
        const std::unique_ptr<rd_kafka_error_t, decltype(&rd_kafka_error_destroy)> denied(
            rd_kafka_error_new(RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED, "ConsumerGroupDescribe: %s", "denied"),
            &rd_kafka_error_destroy);
        QVERIFY(isTransientGroupError(loading.get()));
        QVERIFY(!isTransientGroupError(denied.get()));
        QCOMPARE(groupErrorText(loading.get()), QStringLiteral("ConsumerGroupDescribe (COORDINATOR_LOAD_IN_PROGRESS)"));
        QCOMPARE(groupErrorText(denied.get()),
                 QStringLiteral("ConsumerGroupDescribe: denied (GROUP_AUTHORIZATION_FAILED)"));

        int calls = 0;
        QVERIFY(retryTransientGroupErrors(5000, [&](bool *transient) {
            *transient = ++calls < 3;
            return calls >= 3;
        }));
        QCOMPARE(calls, 3);
        calls = 0;
        QVERIFY(!retryTransientGroupErrors(5000, [&](bool *transient) {
            ++calls;
            *transient = false;
            return false;
        }));
        QCOMPARE(calls, 1); // a real refusal is not asked again
        calls = 0;
        QElapsedTimer t;
        t.start();
        QVERIFY(!retryTransientGroupErrors(600, [&](bool *transient) {
            ++calls;
            *transient = true;
            return false;
        }));
        QVERIFY(calls >= 2 && t.elapsed() < 3000); // bounded
    }

    void classify_data()
    {
        QTest::addColumn<rd_kafka_resp_err_t>("code");
        QTest::addColumn<bool>("tlsConfigured");
        QTest::addColumn<bool>("tlsHandshakeFailed");
        QTest::addColumn<KafkaErrorKind>("kind");
        using K = KafkaErrorKind;
        auto row = [](const char *name, rd_kafka_resp_err_t code, K kind, bool tls = false, bool handshake = false) {
            QTest::newRow(name) << code << tls << handshake << kind;
        };
        row("no error", RD_KAFKA_RESP_ERR_NO_ERROR, K::None);
        row("transport", RD_KAFKA_RESP_ERR__TRANSPORT, K::Unreachable);
        row("all brokers down", RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN, K::Unreachable);
        row("resolve", RD_KAFKA_RESP_ERR__RESOLVE, K::Unreachable);
        row("sasl client", RD_KAFKA_RESP_ERR__AUTHENTICATION, K::Authentication);
        row("sasl broker", RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED, K::Authentication);
        row("sasl mechanism", RD_KAFKA_RESP_ERR_UNSUPPORTED_SASL_MECHANISM, K::Authentication);
        row("ssl", RD_KAFKA_RESP_ERR__SSL, K::Tls);
        row("ssl without tls configured", RD_KAFKA_RESP_ERR__SSL, K::Tls, false, false);
        row("topic acl", RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED, K::Authorization);
        row("group acl", RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED, K::Authorization);
        row("cluster acl", RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED, K::Authorization);
        row("transactional acl", RD_KAFKA_RESP_ERR_TRANSACTIONAL_ID_AUTHORIZATION_FAILED, K::Authorization);
        row("client timeout", RD_KAFKA_RESP_ERR__TIMED_OUT, K::Timeout);
        row("broker timeout", RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT, K::Timeout);
        row("unknown topic", RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART, K::NotFound);
        row("unknown topic (client)", RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC, K::NotFound);
        row("unknown partition", RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION, K::NotFound);
        row("no group", RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND, K::NotFound);
        row("invalid arg", RD_KAFKA_RESP_ERR__INVALID_ARG, K::Invalid);
        row("invalid config", RD_KAFKA_RESP_ERR_INVALID_CONFIG, K::Invalid);
        row("invalid partitions", RD_KAFKA_RESP_ERR_INVALID_PARTITIONS, K::Invalid);
        row("invalid replication", RD_KAFKA_RESP_ERR_INVALID_REPLICATION_FACTOR, K::Invalid);
        row("invalid topic", RD_KAFKA_RESP_ERR_TOPIC_EXCEPTION, K::Invalid);
        row("invalid request", RD_KAFKA_RESP_ERR_INVALID_REQUEST, K::Invalid);
        row("other", RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION, K::Other);
        // The ambiguous codes: after a failed handshake on a TLS client the
        // transport error, "all brokers down" and the timeout are TLS ...
        row("transport in tls handshake", RD_KAFKA_RESP_ERR__TRANSPORT, K::Tls, true, true);
        row("all down after tls handshake", RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN, K::Tls, true, true);
        row("timeout after tls handshake", RD_KAFKA_RESP_ERR__TIMED_OUT, K::Tls, true, true);
        // ... but not without a failed handshake, nor on a client without TLS,
        // and a refusal that names its cause keeps its own kind.
        row("transport on tls client", RD_KAFKA_RESP_ERR__TRANSPORT, K::Unreachable, true, false);
        row("transport, handshake, no tls", RD_KAFKA_RESP_ERR__TRANSPORT, K::Unreachable, false, true);
        row("sasl over tls", RD_KAFKA_RESP_ERR__AUTHENTICATION, K::Authentication, true, true);
        row("resolve on tls client", RD_KAFKA_RESP_ERR__RESOLVE, K::Unreachable, true, true);
    }

    void classify()
    {
        QFETCH(rd_kafka_resp_err_t, code);
        QFETCH(bool, tlsConfigured);
        QFETCH(bool, tlsHandshakeFailed);
        QFETCH(KafkaErrorKind, kind);
        const KafkaErrorContext context{tlsConfigured, tlsHandshakeFailed};
        QCOMPARE(classifyKafkaError(code, context), kind);
        const KafkaError e = KafkaError::from(code, QStringLiteral("text"), context);
        QCOMPARE(e.kind, kind);
        QCOMPARE(e.code, code);
        QCOMPARE(e.isError(), kind != KafkaErrorKind::None);
        QVERIFY(!kafkaErrorKindName(kind).isEmpty());
    }

    void everyKindHasItsName()
    {
        using K = KafkaErrorKind;
        QSet<QString> names;
        for (K k : {K::None, K::Unreachable, K::Authentication, K::Tls, K::Authorization, K::Timeout, K::NotFound,
                    K::Invalid, K::Other})
            names.insert(kafkaErrorKindName(k));
        QCOMPARE(names.size(), 9);
    }

    void handshakeState_data()
    {
        QTest::addColumn<rd_kafka_resp_err_t>("code");
        QTest::addColumn<QByteArray>("reason");
        QTest::addColumn<bool>("inHandshake");
        // Reasons as librdkafka 2.x words them for the error callback.
        QTest::newRow("ssl code") << RD_KAFKA_RESP_ERR__SSL
                                  << QByteArray("ssl://127.0.0.1:9093/bootstrap: SSL handshake failed: "
                                                "certificate verify failed (after 3ms in state SSL_HANDSHAKE)")
                                  << true;
        QTest::newRow("transport in handshake")
            << RD_KAFKA_RESP_ERR__TRANSPORT
            << QByteArray("ssl://127.0.0.1:9093/bootstrap: Disconnected while requesting ApiVersion: might be "
                          "caused by incorrect security.protocol configuration (after 5ms in state SSL_HANDSHAKE)")
            << true;
        QTest::newRow("setup timeout in handshake")
            << RD_KAFKA_RESP_ERR__TRANSPORT
            << QByteArray("ssl://h:9093/bootstrap: Connection setup timed out in state SSL_HANDSHAKE (after 7001ms "
                          "in state SSL_HANDSHAKE)")
            << true;
        // TLS 1.3: the broker refuses the client certificate after the
        // client's side of the handshake, on the first request.
        QTest::newRow("client certificate refused")
            << RD_KAFKA_RESP_ERR__TRANSPORT
            << QByteArray("ssl://127.0.0.1:20060/bootstrap: Receive failed: error:0A000412:SSL routines::sslv3 alert "
                          "bad certificate: SSL alert number 42 (after 0ms in state APIVERSION_QUERY, 1 identical "
                          "error(s) suppressed)")
            << true;
        QTest::newRow("refused") << RD_KAFKA_RESP_ERR__TRANSPORT
                                 << QByteArray("ssl://127.0.0.1:1/bootstrap: Connect to ipv4#127.0.0.1:1 failed: "
                                               "Connection refused (after 0ms in state CONNECT)")
                                 << false;
        QTest::newRow("after the handshake")
            << RD_KAFKA_RESP_ERR__TRANSPORT << QByteArray("ssl://h:9093/1: Disconnected (after 60000ms in state UP)")
            << false;
        QTest::newRow("other code, handshake state")
            << RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN << QByteArray("1/1 brokers are down (in state SSL_HANDSHAKE)")
            << false;
        QTest::newRow("no reason") << RD_KAFKA_RESP_ERR__TRANSPORT << QByteArray() << false;
    }

    void handshakeState()
    {
        QFETCH(rd_kafka_resp_err_t, code);
        QFETCH(QByteArray, reason);
        QFETCH(bool, inHandshake);
        QCOMPARE(failedInTlsHandshake(code, reason.isNull() ? nullptr : reason.constData()), inHandshake);
    }

    // The words a user acts on lead librdkafka's reason, which stays for the expert.
    void connectionErrorInWords()
    {
        const char *auth = "sasl_ssl://127.0.0.1:9093/bootstrap: SASL authentication error: Authentication failed "
                           "during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512";
        const QString a = describeConnectionError(nullptr, RD_KAFKA_RESP_ERR__AUTHENTICATION, auth);
        QVERIFY2(a.startsWith(QLatin1String("authentication failed: the cluster refused the user name or password")),
                 qPrintable(a));
        QVERIFY(a.endsWith(QString::fromLatin1(auth)));

        // No verdict recorded for this client: the handshake failure is still called TLS.
        const char *tls = "ssl://127.0.0.1:9093/bootstrap: SSL handshake failed: error:0A000086:SSL routines::"
                          "certificate verify failed: broker certificate could not be verified (after 3ms in state "
                          "SSL_HANDSHAKE)";
        const QString t = describeConnectionError(nullptr, RD_KAFKA_RESP_ERR__SSL, tls);
        QVERIFY2(t.startsWith(QLatin1String("TLS failed: ssl://")), qPrintable(t));

        // Anything else is librdkafka's reason as it is.
        const char *refused = "127.0.0.1:1/bootstrap: Connect to ipv4#127.0.0.1:1 failed: Connection refused";
        QCOMPARE(describeConnectionError(nullptr, RD_KAFKA_RESP_ERR__TRANSPORT, refused), QString::fromLatin1(refused));
    }

    void certificateFailureInWords_data()
    {
        QTest::addColumn<int>("x509Error");
        QTest::addColumn<int>("depth");
        QTest::addColumn<QString>("words");
        QTest::newRow("expired") << int(X509_V_ERR_CERT_HAS_EXPIRED) << 0
                                 << QStringLiteral("the certificate of broker b:1 has expired");
        QTest::newRow("expired CA") << int(X509_V_ERR_CERT_HAS_EXPIRED) << 1
                                    << QStringLiteral("a CA certificate in the chain of broker b:1 has expired");
        QTest::newRow("host") << int(X509_V_ERR_HOSTNAME_MISMATCH) << 0
                              << QStringLiteral("does not match the host name");
        QTest::newRow("address") << int(X509_V_ERR_IP_ADDRESS_MISMATCH) << 0
                                 << QStringLiteral("does not match the host name");
        for (const int e : {X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
                            X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT})
            QTest::addRow("unknown CA %d", e) << e << 0 << QStringLiteral("is not signed by a trusted CA");
        QTest::newRow("not yet valid") << int(X509_V_ERR_CERT_NOT_YET_VALID) << 0 << QStringLiteral("is not valid yet");
        QTest::newRow("other") << int(X509_V_ERR_INVALID_PURPOSE) << 0
                               << QStringLiteral(
                                      "the certificate of broker b:1 was refused: unsuitable certificate purpose");
    }

    void certificateFailureInWords()
    {
        QFETCH(int, x509Error);
        QFETCH(int, depth);
        QFETCH(QString, words);
        const QString text = describeCertificateFailure({x509Error, depth, QStringLiteral("b:1")});
        QVERIFY2(text.contains(words), qPrintable(text));
    }

    // A report without an offset is not a confirmed write (the chaos soak's
    // loss): every writer that must not lose a record writes it again.
    void onlyAnOffsetConfirmsAWrite()
    {
        rd_kafka_message_t report{};
        report.err = RD_KAFKA_RESP_ERR_NO_ERROR;
        report.offset = 42;
        QVERIFY(writeConfirmed(&report));
        report.offset = 0;
        QVERIFY(writeConfirmed(&report));
        report.offset = RD_KAFKA_OFFSET_INVALID; // implicitly acked, or a duplicate sequence
        QVERIFY(!writeConfirmed(&report));
        QVERIFY(unconfirmedWriteText(&report).contains(QLatin1String("without an offset")));
        report.err = RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE;
        report.offset = 7;
        QVERIFY(!writeConfirmed(&report));
        QCOMPARE(unconfirmedWriteText(&report),
                 QString::fromUtf8(rd_kafka_err2str(RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE)));
    }
};

QTEST_GUILESS_MAIN(TestKafkaError)
#include "tst_kafkaerror.moc"
