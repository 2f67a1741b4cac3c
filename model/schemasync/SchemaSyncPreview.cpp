#include "model/schemasync/SchemaSyncPreview.h"

#include "engine/schemasync/SchemaSyncRunner.h"

#include <QCoreApplication>

#include <algorithm>

namespace md {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("SchemaSyncPreview", text);
}
} // namespace

int SchemaSyncPreview::toRegister() const
{
    return int(std::count_if(steps.cbegin(), steps.cend(), [](const SchemaCopyStep &s) { return s.created; }));
}

QString SchemaSyncPreview::summary() const
{
    const QString how = tr("Schema sync (ids %1, every %2 s)")
                            .arg(ids == MirrorJobSpec::SchemaIds::Preserve ? tr("preserved") : tr("translated"))
                            .arg(intervalMs / 1000.0);
    switch (state) {
    case State::Off:
        return tr("Schema sync is off: records are copied with the source registry's schema ids (Topics tab, \"Copy "
                  "the topics' schemas\").");
    case State::Refused: return how + tr(": the job would stop: %1").arg(error);
    case State::Failed: return how + tr(": not checked: %1").arg(error);
    case State::Ready: break;
    }
    const int n = toRegister();
    const QString counts = applied ? tr("%1 version(s) registered now").arg(n) : tr("%1 version(s) to register").arg(n);
    return how + tr(": %1 subject(s) follow the job, %2, %3 already on the target%4")
                     .arg(subjects.size())
                     .arg(counts)
                     .arg(steps.size() - n)
                     .arg(failures.isEmpty() ? QString() : tr("; %1 cannot be copied now").arg(failures.size()));
}

QList<SchemaSyncPreview::Line> SchemaSyncPreview::lines() const
{
    QList<Line> out;
    if (state != State::Ready)
        return out;
    for (const SchemaCopyStep &s : steps) {
        if (!s.created)
            continue;
        QString text = applied ? tr("registered %1 version %2 (id %3) from %4 version %5 (id %6)")
                                     .arg(s.targetSubject)
                                     .arg(s.targetVersion)
                                     .arg(s.targetId)
                                     .arg(s.sourceSubject)
                                     .arg(s.sourceVersion)
                                     .arg(s.sourceId)
                               : tr("register %1 from %2 version %3 (source id %4)")
                                     .arg(s.targetSubject, s.sourceSubject)
                                     .arg(s.sourceVersion)
                                     .arg(s.sourceId);
        if (!s.compatibility.isEmpty())
            text += tr(", compatibility %1").arg(s.compatibility);
        out.append({Line::Kind::Register, text});
    }
    for (const QString &f : failures)
        out.append({Line::Kind::Failure, f});
    for (const SchemaCopyStep &s : steps) {
        if (s.created)
            continue;
        out.append({Line::Kind::Present, tr("%1 version %2: id %3 on the target (source %4 version %5, id %6)")
                                             .arg(s.targetSubject)
                                             .arg(s.targetVersion)
                                             .arg(s.targetId)
                                             .arg(s.sourceSubject)
                                             .arg(s.sourceVersion)
                                             .arg(s.sourceId)});
    }
    return out;
}

SchemaSyncPreview readSchemaSyncPreview(const MirrorJobSpec &spec, int timeoutMs, bool apply)
{
    SchemaSyncPreview p;
    p.ids = spec.schemaIds;
    p.intervalMs = spec.schemaSyncIntervalMs;
    if (!spec.syncSchemas)
        return p;
    SchemaRegistryClient source(spec.source.schemaRegistry, timeoutMs);
    SchemaRegistryClient target(spec.target.schemaRegistry, timeoutMs);
    const SchemaSyncRound r = runSchemaSyncRound(spec, source, target, apply);
    if (!r.ok) {
        p.state = r.fatal ? SchemaSyncPreview::State::Refused : SchemaSyncPreview::State::Failed;
        p.error = r.error;
        return p;
    }
    p.state = SchemaSyncPreview::State::Ready;
    p.applied = apply;
    p.subjects = r.subjects;
    p.steps = r.steps;
    p.failures = r.failures;
    return p;
}

} // namespace md
