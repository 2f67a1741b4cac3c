#include "engine/schema/RegistryDecoders.h"

#include "engine/admin/AdminService.h"
#include "engine/schema/SchemaRegistryClient.h"

namespace md {

std::shared_ptr<SchemaRegistryClient> RegistryDecoders::client()
{
    if (!m_config.isSet())
        return {};
    std::lock_guard lock(m_mutex);
    if (!m_client)
        m_client = std::make_shared<SchemaRegistryClient>(m_config);
    return m_client;
}

std::shared_ptr<SchemaDecoderCache> RegistryDecoders::cache()
{
    std::shared_ptr<SchemaRegistryClient> lookup = client();
    if (!lookup)
        return {};
    std::lock_guard lock(m_mutex);
    if (!m_cache)
        m_cache = std::make_shared<SchemaDecoderCache>(std::move(lookup));
    return m_cache;
}

void decodeMessage(SchemaDecoderCache &cache, KafkaMessage *message)
{
    if (message->key)
        message->keyDecoded = cache.decode(*message->key);
    if (message->value)
        message->valueDecoded = cache.decode(*message->value);
}

} // namespace md
