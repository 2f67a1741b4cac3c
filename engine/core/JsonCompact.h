#pragma once

#include <QByteArray>
#include <QString>

#include <cstddef>

namespace md {

// Checks that data is one JSON value (RFC 8259, nesting bounded) and writes it
// to *out without the whitespace between tokens, every token as written: a
// 64-bit number keeps its digits, which a round trip through doubles would not.
// False with *error naming the byte where it stops being JSON.
bool compactJson(const char *data, size_t size, QByteArray *out, QString *error);

} // namespace md
