#pragma once

#include "SchemaDecoding.h"
#include "SchemaRegistryConfig.h"

#include <memory>
#include <mutex>

namespace md {

struct KafkaMessage;

// One registry's SchemaDecoderCache, made on first use: the one place where
// decoding gets its SchemaRegistryClient. A cluster's AdminService and the
// searches started beside it share one, so each schema id is fetched once per
// registry. Thread-safe; cache() does not touch the network.
class RegistryDecoders final {
public:
    explicit RegistryDecoders(SchemaRegistryConfig config) : m_config(std::move(config)) {}
    RegistryDecoders(const RegistryDecoders &) = delete;
    RegistryDecoders &operator=(const RegistryDecoders &) = delete;

    const SchemaRegistryConfig &config() const { return m_config; }
    // Null when the cluster has no registry.
    std::shared_ptr<SchemaDecoderCache> cache();

private:
    const SchemaRegistryConfig m_config;
    std::mutex m_mutex;
    std::shared_ptr<SchemaDecoderCache> m_cache;
};

// Decodes the message's key and value (a null one stays Plain). Blocks on the
// registry the first time an id is seen: background threads only.
void decodeMessage(SchemaDecoderCache &cache, KafkaMessage *message);

} // namespace md
