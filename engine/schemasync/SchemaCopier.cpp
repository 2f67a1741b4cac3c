#include "engine/schemasync/SchemaCopier.h"

#include <algorithm>

namespace md {

namespace {

constexpr int kMaxReferenceDepth = 32; // deeper is a cycle or a mistake, never a real schema

QString schemaTypeName(const QString &type)
{
    return type.isEmpty() ? QStringLiteral("AVRO") : type;
}

} // namespace

SchemaCopier::SchemaCopier(const MirrorJobSpec &spec, SchemaRegistryClient &source, SchemaRegistryClient &target,
                           bool apply)
    : m_spec(spec), m_filter(spec), m_source(source), m_target(target), m_apply(apply)
{
}

bool SchemaCopier::copySubject(const QString &sourceSubject, QString *error)
{
    RegistryError e;
    const std::optional<QList<int>> versions = m_source.versions(sourceSubject, &e);
    if (!versions) {
        *error = QStringLiteral("cannot list the versions of subject %1 on the source registry: %2")
                     .arg(sourceSubject, e.message);
        return false;
    }
    for (int v : *versions)
        if (!copyVersion(sourceSubject, v, error, 0))
            return false;
    return true;
}

std::optional<int> SchemaCopier::copyId(int sourceId, QString *subject, QString *error)
{
    if (auto it = m_ids.constFind(sourceId); it != m_ids.cend())
        return *it;
    RegistryError e;
    const std::optional<QList<SubjectVersion>> holders = m_source.versionsOfId(sourceId, &e);
    if (!holders) {
        *error =
            e.kind == RegistryError::Kind::NotFound
                ? QStringLiteral("schema id %1 is unknown to the source registry").arg(sourceId)
                : QStringLiteral("cannot look schema id %1 up on the source registry: %2").arg(sourceId).arg(e.message);
        return std::nullopt;
    }
    QStringList skipped;
    std::optional<int> target;
    for (const SubjectVersion &h : *holders) {
        if (subject->isEmpty())
            *subject = h.subject;
        if (!m_filter.selects(h.subject)) {
            skipped << h.subject;
            continue;
        }
        // The versions before it too: the target subject's versions line up with the source's.
        const std::optional<QList<int>> versions = m_source.versions(h.subject, &e);
        if (!versions) {
            *error = QStringLiteral("cannot list the versions of subject %1 on the source registry: %2")
                         .arg(h.subject, e.message);
            return std::nullopt;
        }
        *subject = h.subject;
        for (int v : *versions) {
            if (v > h.version)
                break;
            const SchemaCopyStep *step = copyVersion(h.subject, v, error, 0);
            if (!step)
                return std::nullopt;
            if (v == h.version && !target && step->targetId > 0)
                target = step->targetId;
        }
    }
    if (!target) {
        if (!skipped.isEmpty())
            *error = QStringLiteral("schema id %1 is registered only under subjects schemas.subjects leaves out (%2)")
                         .arg(sourceId)
                         .arg(skipped.join(QStringLiteral(", ")));
        else if (error->isEmpty())
            *error =
                QStringLiteral("schema id %1 is not registered under any subject of the source registry").arg(sourceId);
        return std::nullopt;
    }
    m_ids.insert(sourceId, *target);
    return target;
}

QString SchemaCopier::ownCompatibility(const QString &sourceSubject)
{
    // A registry may answer its global level for a subject without one of
    // its own (Apicurio does): only a level that differs from it is the
    // subject's. The target subject otherwise follows the target's global.
    RegistryError e;
    if (!m_sourceGlobalLevel) {
        const std::optional<QString> global = m_source.compatibility(QString(), &e);
        m_sourceGlobalLevel = global.value_or(QString());
    }
    const std::optional<QString> level = m_source.subjectCompatibility(sourceSubject, &e);
    return level && *level != *m_sourceGlobalLevel ? *level : QString();
}

const SchemaCopyStep *SchemaCopier::copyVersion(const QString &subject, int version, QString *error, int depth)
{
    if (auto it = m_done.constFind({subject, version}); it != m_done.cend())
        return &m_steps.at(*it);
    if (depth > kMaxReferenceDepth) {
        *error = QStringLiteral("subject %1 version %2: references nested deeper than %3 (a cycle?)")
                     .arg(subject)
                     .arg(version)
                     .arg(kMaxReferenceDepth);
        return nullptr;
    }
    RegistryError e;
    const std::optional<RegistrySchema> schema = m_source.schemaByVersion(subject, version, &e);
    if (!schema) {
        *error = QStringLiteral("cannot read subject %1 version %2 from the source registry: %3")
                     .arg(subject)
                     .arg(version)
                     .arg(e.message);
        return nullptr;
    }
    // What it references first, under the names they get on the target.
    QList<SchemaReference> references;
    for (const SchemaReference &r : schema->references) {
        const SchemaCopyStep *ref = copyVersion(r.subject, r.version, error, depth + 1);
        if (!ref)
            return nullptr;
        if (ref->targetVersion <= 0) { // a plan: the referenced version is not there yet
            references.append({r.name, ref->targetSubject, -1});
            continue;
        }
        references.append({r.name, ref->targetSubject, ref->targetVersion});
    }

    SchemaCopyStep step;
    step.sourceSubject = subject;
    step.sourceVersion = version;
    step.sourceId = schema->id;
    step.targetSubject = targetSubjectName(m_spec, subject);
    const QString type = schemaTypeName(schema->type);
    const bool referencesPlanned =
        std::any_of(references.cbegin(), references.cend(), [](const SchemaReference &r) { return r.version < 0; });
    if (!referencesPlanned) {
        const std::optional<RegistrySchema> there =
            m_target.lookupSchema(step.targetSubject, type, schema->text, references, &e);
        if (there) {
            step.targetVersion = there->version;
            step.targetId = there->id;
        } else if (e.kind != RegistryError::Kind::NotFound) {
            *error = QStringLiteral("cannot look subject %1 up on the target registry: %2")
                         .arg(step.targetSubject, e.message);
            return nullptr;
        }
    }
    if (step.targetId <= 0) {
        step.created = true;
        // A subject new to the target gets the source subject's own level first.
        auto known = m_targetHasSubject.find(step.targetSubject);
        if (known == m_targetHasSubject.end()) {
            const std::optional<QList<int>> versions = m_target.versions(step.targetSubject, &e);
            if (!versions && e.kind != RegistryError::Kind::NotFound) {
                *error = QStringLiteral("cannot read subject %1 on the target registry: %2")
                             .arg(step.targetSubject, e.message);
                return nullptr;
            }
            known = m_targetHasSubject.insert(step.targetSubject, versions && !versions->isEmpty());
            if (!*known)
                step.compatibility = ownCompatibility(subject);
        }
        if (m_apply) {
            const bool preserve = m_spec.schemaIds == MirrorJobSpec::SchemaIds::Preserve;
            const std::optional<int> id = m_target.registerSchema(step.targetSubject, type, schema->text, references,
                                                                  &e, preserve ? schema->id : 0);
            if (!id) {
                *error = QStringLiteral("the target registry refused subject %1 (source %2 version %3, id %4): %5")
                             .arg(step.targetSubject, subject)
                             .arg(version)
                             .arg(schema->id)
                             .arg(e.message);
                if (e.httpStatus == 409) {
                    RegistryError ignored;
                    const std::optional<QString> level = m_target.compatibility(step.targetSubject, &ignored);
                    if (level)
                        *error += QStringLiteral(" (the target subject's compatibility level is %1)").arg(*level);
                }
                return nullptr;
            }
            if (preserve && *id != schema->id) {
                *error = QStringLiteral("the target registry gave subject %1 id %2 instead of the source's %3: "
                                        "schemas.ids preserve needs the target registry in IMPORT mode")
                             .arg(step.targetSubject)
                             .arg(*id)
                             .arg(schema->id);
                return nullptr;
            }
            *known = true;
            step.targetId = *id;
            // After its first version: some registries (Apicurio) know no
            // subject before it, and the first version is never checked.
            if (!step.compatibility.isEmpty() &&
                !m_target.setCompatibility(step.targetSubject, step.compatibility, &e)) {
                *error = QStringLiteral("cannot set compatibility %1 on subject %2 of the target registry: %3")
                             .arg(step.compatibility, step.targetSubject, e.message);
                return nullptr;
            }
            const std::optional<RegistrySchema> registered =
                m_target.lookupSchema(step.targetSubject, type, schema->text, references, &e);
            if (!registered) {
                *error = QStringLiteral("subject %1 on the target registry: the version just registered (id %2) is "
                                        "not found: %3")
                             .arg(step.targetSubject)
                             .arg(*id)
                             .arg(e.message);
                return nullptr;
            }
            step.targetVersion = registered->version;
        }
    }
    if (step.targetId > 0 && !m_ids.contains(step.sourceId))
        m_ids.insert(step.sourceId, step.targetId);
    m_steps.append(step);
    m_done.insert({subject, version}, int(m_steps.size() - 1));
    return &m_steps.last();
}

} // namespace md
