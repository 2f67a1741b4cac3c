#pragma once

// Internal helpers of the job profile reader and writer (not a public API).

#include "MirrorJobSpec.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonValue>
#include <QString>
#include <QStringList>

namespace md::profile_detail {

struct TextPosition {
    int line = 1;
    int column = 1; // in characters (code points), 1-based
};

// Line and column of a byte offset in UTF-8 text; an offset past the end gives
// the position just after the last character.
TextPosition textPosition(const QByteArray &utf8, qsizetype offset);
// Byte offset of the first byte that is not valid UTF-8 (overlong forms,
// surrogates and values past U+10FFFF included), or -1.
qsizetype invalidUtf8Offset(const QByteArray &data);
qsizetype firstNonSpace(const QByteArray &data);

QString jsonTypeName(const QJsonValue &v); // "a number", "an array", "null", ...
QString joinPath(const QString &path, const QString &key);
QString indexPath(const QString &path, qsizetype index);      // path[3]
QString mapKeyPath(const QString &path, const QString &key);  // path["client.rack"]
// A known key within edit distance 2 of `key` (for "did you mean"), or empty.
QString closestKey(const QString &key, const QStringList &known);
QStringList topLevelKeys();

// ISO 8601 with an explicit zone ("2026-11-01T00:00:00Z", "...+01:00"); a bare
// local time is refused because a profile moves between machines.
bool parseTimestamp(const QJsonValue &v, QDateTime *out, QString *error);
QString formatTimestamp(const QDateTime &t);

bool parseNamingPolicy(const QString &name, NamingPolicy *out);

// Characters Kafka allows in a topic name.
bool isLegalTopicText(const QString &s);

} // namespace md::profile_detail
