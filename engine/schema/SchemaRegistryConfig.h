#pragma once

#include <QString>

namespace md {

// The schema registry beside a cluster (the Confluent REST API; Apicurio
// serves it under /apis/ccompat/v7). Secrets already resolved, like the
// cluster's own.
struct SchemaRegistryConfig {
    QString url;      // base URL, may carry a path; empty: no registry
    QString username; // basic authentication when set (with password)
    QString password;
    QString token;  // bearer authentication when set (never with username)
    QString caFile; // TLS CA (PEM) for https; empty: the system's CAs

    bool isSet() const { return !url.isEmpty(); }
    bool operator==(const SchemaRegistryConfig &) const = default;
};

} // namespace md
