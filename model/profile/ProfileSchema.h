#pragma once

// Every key of a *.mirrorjob profile in one table: the reader takes its known
// keys, types, ranges and messages from it, the writer its key order, the job
// editor its tooltips and spin-box ranges, and docs/PROFILE.md is tested
// against it (tst_profileschema).

#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>
#include <QtGlobal>

#include <string_view>

namespace md::profile_schema {

enum class Type {
    Version,     // the format version: a whole number
    Integer,     // a whole number from min to max
    Boolean,     // true or false
    String,      // text; may hold ${kind:arg} references
    Keyword,     // one of `allowed`
    Choice,      // one of `allowed`, or an object of the keys below it (start, stop)
    StringList,  // an array of strings (one string alone is taken as a list of one)
    Object,      // the keys below it
    PropertyMap, // free librdkafka properties: string, number or boolean values
    Timestamp,   // ISO 8601 with a time zone
};

struct Field {
    // Dotted path; "*" stands for both "source" and "target" ("*.sasl.password").
    std::string_view path;
    Type type = Type::String;
    // The default as JSON text ("250", "\".\"", "true", "[]"); empty: no
    // default; text in parentheses: derived from other keys, said in words.
    std::string_view defaultValue = {};
    qint64 min = 0; // Integer and Version only
    qint64 max = 0;
    std::string_view allowed = {}; // "a|b|c": Keyword and Choice values, or the values validate() accepts
    std::string_view noun = {};    // Keyword and Choice: "unknown <noun> \"x\""
    std::string_view help = {};    // one line: what the key means
    bool secret = false;           // a password: a reference in the file, a warning in clear
    bool required = false;
    bool anyCase = false; // `allowed` in any letter case ("SASL_SSL")
};

// Largest whole number a JSON double holds exactly.
inline constexpr qint64 MaxJsonInteger = qint64(1) << 53;

// One key with its concrete path ("target.sasl.password"), in file order.
struct Key {
    QString path;
    const Field *field;
};
const QList<Key> &keys();

// The field of a concrete path ("source.bootstrap"), or nullptr. Array
// elements and map entries ("topics.include[2]") are not keys.
const Field *find(const QString &path);
// find() that must succeed: a path the reader, writer or editor asks for is in the table.
const Field &field(const QString &path);
// The keys of the object at `path` ("" is the top level), in table order.
QStringList childKeys(const QString &path);

QString text(std::string_view s);
QStringList allowedValues(const Field &f);
// "a, b or c"
QString alternatives(const QStringList &values);
// What a value of this field looks like, for "expected ..., found ..." messages.
QString expectation(const Field &f);
// "5 is out of range: must be at least 10" for an Integer value outside min..max, else "".
QString outOfRange(const Field &f, double value);
// The default as a JSON value; undefined when there is none or it is said in words.
QJsonValue defaultJson(const Field &f);
// The help line with the range and the default, for tooltips.
QString toolTip(const Field &f);
QString typeName(Type t); // "integer", "string list", ... (docs/PROFILE.md)

} // namespace md::profile_schema
