#include "engine/mirror/MirrorWorker.h"

namespace md {

// ---------------------------------------------------------------- active/active (originHeader)
// Two jobs A->B and B->A under identity naming would copy each record back and
// forth for ever. With originHeader, a copy carries the id of the cluster it
// was first written to, and a job never copies a record whose origin is its own
// target. Cluster ids, not aliases: two profiles may name a cluster differently.

bool MirrorWorker::originIdsKnown()
{
    const auto id = [](rd_kafka_t *rk, QByteArray *out) {
        if (!out->isEmpty() || !rk)
            return;
        if (char *cid = rd_kafka_clusterid(rk, 0)) { // from metadata already fetched: never waits
            *out = QByteArray(cid);
            rd_kafka_mem_free(rk, cid);
        }
    };
    id(m_consumer.get(), &m_sourceClusterId);
    id(m_producer.get(), &m_targetClusterId);
    return !m_sourceClusterId.isEmpty() && !m_targetClusterId.isEmpty();
}

bool MirrorWorker::cameFromTarget(const rd_kafka_message_t *m) const
{
    rd_kafka_headers_t *hdrs = nullptr; // owned by the message; parsed once, then cached
    if (rd_kafka_message_headers(m, &hdrs) != RD_KAFKA_RESP_ERR_NO_ERROR || !hdrs)
        return false;
    const void *value = nullptr;
    size_t size = 0;
    if (rd_kafka_header_get_last(hdrs, m_originHeader.constData(), &value, &size) != RD_KAFKA_RESP_ERR_NO_ERROR ||
        !value)
        return false;
    return QByteArrayView(static_cast<const char *>(value), qsizetype(size)) == m_targetClusterId;
}

void MirrorWorker::stampOrigin(rd_kafka_headers_t **hdrs) const
{
    if (*hdrs) {
        const void *value = nullptr;
        size_t size = 0;
        if (rd_kafka_header_get_last(*hdrs, m_originHeader.constData(), &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR)
            return; // a copy of a copy: the first source stays its origin
    } else {
        *hdrs = rd_kafka_headers_new(1);
    }
    rd_kafka_header_add(*hdrs, m_originHeader.constData(), m_originHeader.size(), m_sourceClusterId.constData(),
                        m_sourceClusterId.size());
}

} // namespace md
