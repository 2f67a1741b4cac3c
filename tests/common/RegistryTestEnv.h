#pragma once

// Where the integration tests find the schema registry (Apicurio Registry,
// its Confluent-compatible API) that tests/kafka/harness.sh start-all starts
// beside the brokers (see tests/kafka/registry.sh), in this order:
//   1. env MIRRORDESK_REGISTRY_URL, for a registry started by hand or elsewhere;
//   2. $MIRRORDESK_KAFKA_STATE/registry/url, written once the registry answers.
// The same registry serves https too (registry/https-url, or env
// MIRRORDESK_REGISTRY_HTTPS_URL), with a certificate for 127.0.0.1 and
// localhost signed by registryTlsFile("ca.pem"); registryTlsFile("other-ca.pem")
// is a CA that signed nothing of it.
// A second, independent registry (harness.sh start-all starts it as "second",
// http only) serves the tests that compare two registries: env
// MIRRORDESK_SECOND_REGISTRY_URL, else $MIRRORDESK_KAFKA_STATE/registry-second/url.

#include "KafkaTestEnv.h"

#include <QString>

namespace md::test {

// The registry's base URL (".../apis/ccompat/v7"), or empty when not known.
QString registryUrl();

// True when registryUrl() is known; otherwise false and *missing says where it was looked for.
bool registryAvailable(QString *missing = nullptr);

// The registry's https base URL, or empty when not known.
QString registryHttpsUrl();
// A file of the registry's test certificates (tls.sh's names: ca.pem, other-ca.pem, ...).
QString registryTlsFile(const QString &fileName);
// True when registryHttpsUrl() is known; otherwise false and *missing says where it was looked for.
bool registryHttpsAvailable(QString *missing = nullptr);

// The second registry's base URL, or empty when not known.
QString secondRegistryUrl();
// True when secondRegistryUrl() is known; otherwise false and *missing says where it was looked for.
bool secondRegistryAvailable(QString *missing = nullptr);

} // namespace md::test

// First statement of a test (or initTestCase) that needs the registry: QFAIL
// under CI=true, QSKIP otherwise, like MD_REQUIRE_BROKERS.
#define MD_REQUIRE_REGISTRY()                                                                                          \
    do {                                                                                                               \
        QString md_missing_;                                                                                           \
        MD_REQUIRE_OR_SKIP(::md::test::registryAvailable(&md_missing_), md_missing_);                                  \
    } while (false)

// The same for the second registry.
#define MD_REQUIRE_SECOND_REGISTRY()                                                                                   \
    do {                                                                                                               \
        QString md_missing_;                                                                                           \
        MD_REQUIRE_OR_SKIP(::md::test::secondRegistryAvailable(&md_missing_), md_missing_);                            \
    } while (false)

// The same for the registry's https endpoint.
#define MD_REQUIRE_REGISTRY_HTTPS()                                                                                    \
    do {                                                                                                               \
        QString md_missing_;                                                                                           \
        MD_REQUIRE_OR_SKIP(::md::test::registryHttpsAvailable(&md_missing_), md_missing_);                             \
    } while (false)
