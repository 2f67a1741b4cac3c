#include "engine/mirror/MirrorWorker.h"

#include "engine/schemasync/SchemaSubjects.h"

#include <QtEndian>

#include <cstring>

namespace md {

// ---------------------------------------------------------------- schema sync (docs/ARCHITECTURE.md)
//
// With schemas.sync a record goes to the target only once the target
// registry holds its schema: each key and value in the registry's wire format
// (magic byte 0, a 4-byte big-endian id, the payload) of a topic whose
// <topic>-key / <topic>-value subject follows the job is looked up in the map
// the schema sync thread fills (SchemaSyncRunner). An id it has not answered
// yet holds the record's partition where it is (paused, sought back: nothing
// skipped, nothing copied with a wrong id) while the others go on; the
// partition goes on by itself once the answer comes. Translate rewrites the id
// in place in the consumed record, which the produced record points into;
// everything else stays byte for byte (a Protobuf payload's message indexes
// follow the id unchanged).

namespace {

constexpr auto kSchemaRetry = std::chrono::seconds(10); // a failed id (incompatible, registry away) asked again

bool wireFormat(const void *data, size_t len)
{
    return data && len >= 5 && static_cast<const unsigned char *>(data)[0] == 0;
}

int idOf(const void *data)
{
    return int(qFromBigEndian<quint32>(static_cast<const unsigned char *>(data) + 1));
}

} // namespace

void MirrorWorker::startSchemaSync()
{
    if (!SchemaSyncRunner::wanted(m_spec))
        return;
    m_schemaSync = std::make_unique<SchemaSyncRunner>(m_spec, [sink = m_sink](const JobEvent &e) { sink->onEvent(e); });
    m_schemaSync->start();
    event(JobEvent::Severity::Info,
          QStringLiteral("schema sync: the subjects of the mirrored topics follow to the target registry (ids %1); a "
                         "record goes once its schema is there")
              .arg(m_spec.schemaIds == MirrorJobSpec::SchemaIds::Preserve ? QStringLiteral("preserved")
                                                                          : QStringLiteral("translated")));
}

bool MirrorWorker::schemaIdsReady(PartState *p, rd_kafka_message_t *m, SchemaUndo *undo)
{
    TopicState *t = p->topic;
    SchemaIdMap &map = m_schemaSync->map();
    const auto wait = [&](int id) {
        p->schemaWaiting = true;
        p->schemaWaitId = id;
        p->schemaFailureShown = false;
        p->resumeFrom = m->offset;
        undoSchemaIds(m, *undo);
        applyPauses();
        return false;
    };
    if (t->schemaUse < 0) {
        const SchemaIdMap::TopicUse use = map.topicUse(t->name);
        if (!use.known)
            return wait(-1);
        t->schemaUse = (use.key ? kSchemaKey : 0) | (use.value ? kSchemaValue : 0);
    }
    const bool translate = m_spec.schemaIds == MirrorJobSpec::SchemaIds::Translate;
    const auto part = [&](bool key) {
        void *data = key ? m->key : m->payload;
        const size_t len = key ? m->key_len : m->len;
        if (!(t->schemaUse & (key ? kSchemaKey : kSchemaValue)) || !wireFormat(data, len))
            return true; // not a registry record: copied as it is
        const int source = idOf(data);
        int target = 0;
        if (auto it = m_schemaIds.constFind(source); it != m_schemaIds.cend()) {
            target = *it;
        } else {
            QString why;
            if (map.targetId(source, &target, &why) != SchemaIdMap::Answer::Mapped)
                return wait(source);
            m_schemaIds.insert(source, target);
        }
        if (translate && target != source) {
            unsigned char *bytes = static_cast<unsigned char *>(data) + 1;
            std::memcpy(key ? undo->key : undo->value, bytes, 4);
            (key ? undo->keyDone : undo->valueDone) = true;
            qToBigEndian<quint32>(quint32(target), bytes);
        }
        return true;
    };
    return part(true) && part(false);
}

void MirrorWorker::undoSchemaIds(rd_kafka_message_t *m, const SchemaUndo &undo)
{
    if (undo.keyDone)
        std::memcpy(static_cast<unsigned char *>(m->key) + 1, undo.key, 4);
    if (undo.valueDone)
        std::memcpy(static_cast<unsigned char *>(m->payload) + 1, undo.value, 4);
}

void MirrorWorker::serviceSchemaWaits(Clock::time_point now)
{
    SchemaIdMap &map = m_schemaSync->map();
    const quint64 generation = map.generation();
    const bool changed = generation != m_schemaGeneration;
    const bool retryDue = now >= m_nextSchemaRetry;
    if (!changed && !retryDue)
        return;
    m_schemaGeneration = generation;
    if (retryDue)
        m_nextSchemaRetry = now + kSchemaRetry;
    if (const QString fatal = map.fatal(); !fatal.isEmpty()) {
        fail(fatal);
        return;
    }
    if (changed)
        for (auto &[name, t] : m_topics)
            t->schemaUse = -1; // a subject may have come or gone: asked again with the next record
    bool resumed = false;
    for (auto &[name, t] : m_topics) {
        for (auto &p : t->parts) {
            if (!p || !p->schemaWaiting)
                continue;
            if (p->schemaWaitId < 0) {
                if (!map.topicUse(t->name).known)
                    continue;
            } else {
                int target = 0;
                QString why;
                const SchemaIdMap::Answer a = map.targetId(p->schemaWaitId, &target, &why);
                if (a == SchemaIdMap::Answer::Failed) {
                    if (!p->schemaFailureShown) {
                        p->schemaFailureShown = true;
                        event(JobEvent::Severity::Error,
                              QStringLiteral("stopped copying %1/%2 at offset %3: schema id %4 cannot be copied to the "
                                             "target registry: %5. Nothing of it is skipped or copied with a wrong id: "
                                             "it is tried again every %6 s and goes on once the cause is gone; the "
                                             "other partitions go on")
                                  .arg(t->name)
                                  .arg(p->partition)
                                  .arg(p->resumeFrom)
                                  .arg(p->schemaWaitId)
                                  .arg(why)
                                  .arg(qint64(std::chrono::seconds(kSchemaRetry).count())));
                    }
                    if (retryDue)
                        map.retry(p->schemaWaitId);
                    continue;
                }
                if (a != SchemaIdMap::Answer::Mapped)
                    continue;
                if (p->schemaFailureShown)
                    event(JobEvent::Severity::Info,
                          QStringLiteral("schema id %1 is on the target registry now (id %2): %3/%4 copies on from "
                                         "offset %5")
                              .arg(p->schemaWaitId)
                              .arg(target)
                              .arg(t->name)
                              .arg(p->partition)
                              .arg(p->resumeFrom));
            }
            p->schemaWaiting = false;
            p->schemaWaitId = -1;
            p->schemaFailureShown = false;
            resumed = true;
        }
    }
    if (resumed)
        applyPauses(); // the seeks back to where each waited
}

} // namespace md
