#pragma once

// Internal helpers of the job profile reader and writer (not a public API).
// Text and JSON only: nothing here knows JobProfile, so the profile's files
// include this and never the other way round.

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <utility>

namespace md::profile_detail {

struct TextPosition {
    int line = 1;
    int column = 1; // in characters (code points), 1-based
    bool operator==(const TextPosition &) const = default;
};

// Line and column of a byte offset in UTF-8 text; an offset past the end gives
// the position just after the last character.
TextPosition textPosition(const QByteArray &utf8, qsizetype offset);
// Byte offset of the first byte that is not valid UTF-8 (overlong forms,
// surrogates and values past U+10FFFF included), or -1.
qsizetype invalidUtf8Offset(const QByteArray &data);
qsizetype firstNonSpace(const QByteArray &data);

// Where each key path's value starts in a JSON text that Qt already parsed,
// so meaning issues can carry a line and column too. Paths use dots for object
// keys and [i] for array elements; map entries (path["k"]) are looked up as path.k.
struct KeyPositions {
    QHash<QString, TextPosition> values;
    QList<std::pair<QString, TextPosition>> duplicates; // a key given twice in one object
    // The position of `path`, or of its nearest enclosing key that has one (a
    // missing key points at its parent object, a missing top-level key at the
    // top-level object); line 0 when the text could not be scanned.
    TextPosition find(const QString &path) const;
};
KeyPositions scanKeyPositions(const QByteArray &utf8);

QString jsonTypeName(const QJsonValue &v); // "a number", "an array", "null", ...
QString joinPath(const QString &path, const QString &key);
QString indexPath(const QString &path, qsizetype index);     // path[3]
QString mapKeyPath(const QString &path, const QString &key); // path["client.rack"]
// A known key within edit distance 2 of `key` (for "did you mean"), or empty.
QString closestKey(const QString &key, const QStringList &known);

// ISO 8601 with an explicit zone ("2026-11-01T00:00:00Z", "...+01:00"); a bare
// local time is refused because a profile moves between machines.
bool parseTimestamp(const QJsonValue &v, QDateTime *out, QString *error);
QString formatTimestamp(const QDateTime &t);

// Characters Kafka allows in a topic name.
bool isLegalTopicText(const QString &s);

} // namespace md::profile_detail
