#pragma once

#include "engine/mirror/MirrorJobSpec.h"
#include "engine/schema/SchemaRegistryClient.h"
#include "engine/schemasync/SchemaSubjects.h"

#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

#include <optional>

namespace md {

// One version of a source subject and where it is (or goes) on the target.
struct SchemaCopyStep {
    QString sourceSubject;
    int sourceVersion = 0;
    int sourceId = 0;
    QString targetSubject;
    int targetVersion = 0; // 0: not registered yet (a plan)
    int targetId = 0;      // 0: not registered yet (a plan)
    bool created = false;  // registered (or, in a plan, to be registered) by this copier
    QString compatibility; // set on the new target subject with its first version ("": none)
};

// Copies registry subjects from the source's registry to the target's: every
// version in order, each after the versions it references (their subjects
// copied first, under their target names), the source subject's own
// compatibility level given to a subject the target did not have. A version
// the target subject already holds (same schema, same references) is looked
// up, not registered again, so a copy is idempotent and a restarted job finds
// the same ids. Plan mode (apply false) registers nothing and reports what it
// would register. Blocking registry calls: run it off the record path.
class SchemaCopier {
public:
    SchemaCopier(const MirrorJobSpec &spec, SchemaRegistryClient &source, SchemaRegistryClient &target, bool apply);

    // Every version of a source subject. False: *error says which version and why.
    bool copySubject(const QString &sourceSubject, QString *error);
    // The target id of a source schema id: the versions up to it of the
    // selected subjects that hold it copied first. *subject: the subject
    // named in an error (the first that holds it).
    std::optional<int> copyId(int sourceId, QString *subject, QString *error);

    // Every version this copier dealt with, in the order it did.
    const QList<SchemaCopyStep> &steps() const { return m_steps; }
    // Source id -> target id of everything copied or found (a plan leaves out what it would create).
    const QHash<int, int> &ids() const { return m_ids; }

private:
    const SchemaCopyStep *copyVersion(const QString &subject, int version, QString *error, int depth);
    QString ownCompatibility(const QString &sourceSubject); // "" when it follows the global level

    const MirrorJobSpec &m_spec;
    SchemaSubjectFilter m_filter;
    SchemaRegistryClient &m_source;
    SchemaRegistryClient &m_target;
    bool m_apply;
    QHash<QPair<QString, int>, int> m_done; // (source subject, version) -> index in m_steps
    QHash<QString, bool> m_targetHasSubject;
    std::optional<QString> m_sourceGlobalLevel;
    QList<SchemaCopyStep> m_steps;
    QHash<int, int> m_ids;
};

} // namespace md
