#pragma once

// Internal to the job profile (not a public API): ${kind:arg} references in
// profile strings, and which values are secrets written in clear.

#include "model/profile/JobProfile.h"

#include <QString>

#include <functional>

namespace md::profile_detail {

// Walks `text`, calling onLiteral for plain text and onRef for each reference.
// Returns an error text for a malformed reference, else empty.
QString scanReferences(const QString &text, const std::function<void(const QString &)> &onLiteral,
                       const std::function<void(const SecretRef &)> &onRef);
// A free property whose name holds "password" or "secret".
bool isSecretPropertyName(const QString &key);
// Clear text: a non-empty value without any reference in it.
bool isClearText(const QString &value);

} // namespace md::profile_detail
