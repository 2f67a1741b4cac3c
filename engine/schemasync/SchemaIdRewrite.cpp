#include "engine/schemasync/SchemaIdRewrite.h"

#include "engine/schemasync/SchemaSubjects.h"
#include "engine/schemasync/SchemaSyncRunner.h"

#include <QtEndian>

namespace md {

namespace {

void rewrite(void *data, size_t len, const QHash<int, int> &ids)
{
    auto *bytes = static_cast<unsigned char *>(data);
    if (!bytes || len < 5 || bytes[0] != 0)
        return;
    const auto it = ids.constFind(int(qFromBigEndian<quint32>(bytes + 1)));
    if (it != ids.cend())
        qToBigEndian<quint32>(quint32(*it), bytes + 1);
}

} // namespace

void SchemaIdRewrite::apply(rd_kafka_message_t *m) const
{
    if (!m->rkt)
        return;
    const QString topic = QString::fromUtf8(rd_kafka_topic_name(m->rkt));
    if (keyTopics.contains(topic))
        rewrite(m->key, m->key_len, ids);
    if (valueTopics.contains(topic))
        rewrite(m->payload, m->len, ids);
}

SchemaIdRewrite schemaIdRewriteOf(const MirrorJobSpec &spec, int timeoutMs)
{
    SchemaIdRewrite out;
    SchemaRegistryClient source(spec.source.schemaRegistry, timeoutMs);
    SchemaRegistryClient target(spec.target.schemaRegistry, timeoutMs);
    const SchemaSyncRound r = runSchemaSyncRound(spec, source, target, false);
    if (!r.ok) {
        out.error = r.error;
        return out;
    }
    out.ids = r.ids;
    for (const QString &s : r.subjects) {
        if (const std::optional<TopicSubject> t = topicOfSubject(s))
            (t->key ? out.keyTopics : out.valueTopics).insert(t->topic);
    }
    return out;
}

} // namespace md
