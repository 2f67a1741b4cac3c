#pragma once

// What a message search keeps: conditions on a record's key, value or headers
// (contains, regular expression, JSON path predicate) and a timestamp range.
// Compiled once, then evaluated on the raw bytes of every record scanned, so
// records that do not match are never copied into a KafkaMessage.

#include "engine/query/JsonPath.h"

#include <QList>
#include <QRegularExpression>
#include <QString>

#include <optional>
#include <string_view>

namespace md {

struct FilterCondition {
    enum class Field { Key, Value, Header };
    enum class Match { Contains, Regex, JsonPath };

    Field field = Field::Value;
    QString header; // Field::Header: the header's name (each header of that name is tried)
    Match match = Match::Contains;
    QString text;               // the text, the pattern or the predicate
    bool caseSensitive = false; // Contains and Regex

    bool operator==(const FilterCondition &) const = default;
};

struct MessageFilter {
    QList<FilterCondition> conditions; // all must hold
    qint64 fromMs = -1;                // timestamp range, both ends inclusive; -1: open
    qint64 toMs = -1;

    bool isEmpty() const { return conditions.isEmpty() && fromMs < 0 && toMs < 0; }
    bool operator==(const MessageFilter &) const = default;
};

// One record as the scanner sees it: views into the consumed message.
struct RecordView {
    struct Header {
        std::string_view name;
        std::string_view value;
        bool null = false;
    };
    std::string_view key;
    bool keyNull = true;
    std::string_view value;
    bool valueNull = true;
    qint64 timestampMs = -1;
    const Header *headers = nullptr; // only filled when the filter needsHeaders()
    int headerCount = 0;
};

class CompiledFilter {
public:
    // Null with *error naming the condition (1-based) and the problem.
    static std::optional<CompiledFilter> compile(const MessageFilter &filter, QString *error);

    bool needsHeaders() const { return m_needsHeaders; }
    // Whether a condition reads the key / the value (which a search then decodes first).
    bool usesKey() const { return m_usesKey; }
    bool usesValue() const { return m_usesValue; }
    // Thread-safe (const). *notJson, when given, is set when a JSON path
    // condition met a field that is not JSON (the record then does not match).
    bool matches(const RecordView &record, bool *notJson = nullptr) const;

private:
    struct Compiled {
        FilterCondition::Field field;
        QByteArray header;
        FilterCondition::Match match;
        QByteArray needle; // Contains: UTF-8 (lower case when case-insensitive and ASCII)
        bool asciiFold = false;
        QString textNeedle; // Contains, case-insensitive and not ASCII: compared as text
        QRegularExpression regex;
        std::optional<JsonPredicate> json;
    };
    bool test(const Compiled &c, std::string_view data, bool *notJson) const;

    QList<Compiled> m_conditions;
    qint64 m_fromMs = -1;
    qint64 m_toMs = -1;
    bool m_needsHeaders = false;
    bool m_usesKey = false;
    bool m_usesValue = false;
};

} // namespace md
