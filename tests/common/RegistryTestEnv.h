#pragma once

// Where the integration tests find the schema registry (Apicurio Registry,
// its Confluent-compatible API) that tests/kafka/harness.sh start-all starts
// beside the brokers (see tests/kafka/registry.sh), in this order:
//   1. env MIRRORDESK_REGISTRY_URL, for a registry started by hand or elsewhere;
//   2. $MIRRORDESK_KAFKA_STATE/registry/url, written once the registry answers.

#include "KafkaTestEnv.h"

#include <QString>

namespace md::test {

// The registry's base URL (".../apis/ccompat/v7"), or empty when not known.
QString registryUrl();

// True when registryUrl() is known; otherwise false and *missing says where it was looked for.
bool registryAvailable(QString *missing = nullptr);

} // namespace md::test

// First statement of a test (or initTestCase) that needs the registry: QFAIL
// under CI=true, QSKIP otherwise, like MD_REQUIRE_BROKERS.
#define MD_REQUIRE_REGISTRY()                                                                                          \
    do {                                                                                                               \
        QString md_missing_;                                                                                           \
        if (!::md::test::registryAvailable(&md_missing_)) {                                                            \
            if (::md::test::isCi())                                                                                    \
                QFAIL(qPrintable(md_missing_));                                                                        \
            else                                                                                                       \
                QSKIP(qPrintable(md_missing_));                                                                        \
        }                                                                                                              \
    } while (false)
