#pragma once

#include "engine/schema/SchemaDecoding.h"
#include "engine/schema/SchemaRegistryConfig.h"

#include <memory>
#include <mutex>

namespace md {

struct KafkaMessage;

class SchemaRegistryClient;

// One registry's SchemaDecoderCache and client, made on first use: the one
// place where a cluster's registry gets its SchemaRegistryClient. A cluster's
// AdminService, the searches started beside it and its Schemas tab share one,
// so each schema id is fetched once per registry. Thread-safe; neither
// cache() nor client() touches the network.
class RegistryDecoders final {
public:
    explicit RegistryDecoders(SchemaRegistryConfig config) : m_config(std::move(config)) {}
    RegistryDecoders(const RegistryDecoders &) = delete;
    RegistryDecoders &operator=(const RegistryDecoders &) = delete;

    const SchemaRegistryConfig &config() const { return m_config; }
    // Null when the cluster has no registry.
    std::shared_ptr<SchemaDecoderCache> cache();
    // The client the cache asks (calls serialised: one at a time). Null when
    // the cluster has no registry.
    std::shared_ptr<SchemaRegistryClient> client();

private:
    const SchemaRegistryConfig m_config;
    std::mutex m_mutex;
    std::shared_ptr<SchemaRegistryClient> m_client;
    std::shared_ptr<SchemaDecoderCache> m_cache;
};

// Decodes the message's key and value (a null one stays Plain). Blocks on the
// registry the first time an id is seen: background threads only.
void decodeMessage(SchemaDecoderCache &cache, KafkaMessage *message);

} // namespace md
