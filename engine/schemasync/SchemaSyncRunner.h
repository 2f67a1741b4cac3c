#pragma once

#include "engine/core/WorkerThread.h"
#include "engine/mirror/MetricsSnapshot.h"
#include "engine/mirror/MirrorJobSpec.h"
#include "engine/schemasync/SchemaCopier.h"
#include "engine/schemasync/SchemaIdMap.h"

#include <functional>
#include <memory>

namespace md {

// One pass over the job's subjects (SchemaSubjects.h): what `check` shows
// (apply false) and what the running job does each schemas.intervalMs.
struct SchemaSyncRound {
    bool ok = false;
    QString error;               // the round could not run (a registry away, preserve without IMPORT)
    bool fatal = false;          // the job cannot run with this error (preserve without IMPORT)
    QStringList subjects;        // the topic subjects that follow
    QList<SchemaCopyStep> steps; // every version dealt with
    QStringList failures;        // subjects that could not be copied, with why
    QHash<int, int> ids;         // source id -> target id, as far as known
    QString targetMode;          // the target registry's mode (preserve)
};
SchemaSyncRound runSchemaSyncRound(const MirrorJobSpec &spec, SchemaRegistryClient &source,
                                   SchemaRegistryClient &target, bool apply);

// The running job's schema sync, on its own thread: a round at once and every
// schemas.intervalMs, and in between the engine's questions (SchemaIdMap)
// answered as they come: a topic's subjects, an id's target id (its subject
// copied first). A job event for every version registered on the target.
class SchemaSyncRunner final {
public:
    using EventSink = std::function<void(const JobEvent &)>;

    SchemaSyncRunner(MirrorJobSpec spec, EventSink events);
    ~SchemaSyncRunner(); // stop() + finish(1000)
    SchemaSyncRunner(const SchemaSyncRunner &) = delete;
    SchemaSyncRunner &operator=(const SchemaSyncRunner &) = delete;

    static bool wanted(const MirrorJobSpec &spec) { return spec.syncSchemas; }

    SchemaIdMap &map() { return *m_map; }
    void start();
    void stop(); // asks; returns at once (any thread)
    void finish(int timeoutMs);

private:
    struct Shared;
    std::shared_ptr<Shared> m_shared;
    std::shared_ptr<SchemaIdMap> m_map;
    WorkerThread m_thread{QStringLiteral("schema-sync")};
};

} // namespace md
