#pragma once

#include "engine/mirror/MirrorJobSpec.h"
#include "engine/schemasync/SchemaCopier.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace md {

// What a job's schema sync would register on the target's registry now, or
// (applied) what one round just registered: the round `mirrordesk check`
// prints (runSchemaSyncRound, engine/schemasync/SchemaSyncRunner.h) as a value
// for the job editor's plan and the Compare tab's "Sync Schemas Now".
struct SchemaSyncPreview {
    enum class State {
        Off,     // the profile does not sync schemas: nothing was asked
        Ready,   // the round's steps
        Refused, // the job could not run with these settings (preserve without IMPORT)
        Failed   // a registry refused or did not answer: not checked
    };
    State state = State::Off;
    bool applied = false; // registered, not only planned
    QString error;        // Refused, Failed
    MirrorJobSpec::SchemaIds ids = MirrorJobSpec::SchemaIds::Translate;
    int intervalMs = 0;
    QStringList subjects;        // the topic subjects that follow
    QList<SchemaCopyStep> steps; // every version dealt with (what they reference first)
    QStringList failures;        // subjects that cannot be copied now, with why

    int toRegister() const; // planned (or, applied, registered) versions
    // One sentence: the mode, the interval and the counts, or why there are none.
    QString summary() const;
    struct Line {
        enum class Kind { Register, Present, Failure };
        Kind kind;
        QString text;
    };
    // Registrations first, then failures, then what the target already has.
    QList<Line> lines() const;
};

// Blocking (a task, never the UI thread). Off at once, with no request, when
// spec.syncSchemas is false. apply: registers what is missing, as the running
// job's round does.
SchemaSyncPreview readSchemaSyncPreview(const MirrorJobSpec &spec, int timeoutMs, bool apply = false);

} // namespace md
