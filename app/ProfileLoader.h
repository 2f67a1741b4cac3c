#pragma once

#include "engine/mirror/MirrorJobSpec.h"
#include "model/profile/JobProfile.h"

#include <QTextStream>

#include <optional>

namespace md {

class SandboxClusters;

// Loads a profile, prints its warnings and errors, and resolves its references:
// ${env:NAME}, ${keychain:ID} (the system keychain) and, with a sandbox,
// ${sandbox:source|target}. nullopt after printing why.
std::optional<MirrorJobSpec> loadJobSpec(const QString &path, const SandboxClusters *sandbox, QTextStream &err);
std::optional<MirrorJobSpec> loadJobSpecFromData(const QByteArray &data, const QString &name,
                                                 const SandboxClusters *sandbox, QTextStream &err);

// The sandbox's demo job (a profile in the resources), resolved against the
// running sandbox, whose target is then prepared for it. nullopt after printing why.
std::optional<MirrorJobSpec> loadSandboxDemoJob(SandboxClusters &sandbox, QTextStream &err);

// The resolver the commands share; the sandbox may be null.
ReferenceResolver makeResolver(const SandboxClusters *sandbox);

// Reads a secret stored by MirrorDesk in the system keychain (blocking, with a timeout).
std::optional<QString> readKeychainSecret(const QString &id, QString *error);

} // namespace md
