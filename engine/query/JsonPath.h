#pragma once

#include <QString>
#include <QStringView>

#include <memory>
#include <optional>
#include <string_view>

namespace md {

namespace jsonpath {
struct Program;
} // namespace jsonpath

// A predicate on a record's raw JSON value for message search, e.g.
// `$.customer.id == 42` or `$.items[*].sku == "A1" && !$.deleted`.
//
// Built for scanning a topic: evaluate() reads the bytes as they are, with no
// DOM and no heap allocation in the common case (an escaped string compared
// with a literal is decoded on the fly; only `=~` builds a QString). Each
// comparison walks the document along its path and skips everything else.
//
// Grammar (whitespace allowed between tokens):
//   expr       := orExpr
//   orExpr     := andExpr ('||' andExpr)*
//   andExpr    := unary ('&&' unary)*
//   unary      := '!' unary | '(' expr ')' | comparison
//   comparison := path [op literal]      a bare path: true when the path exists (null included)
//   path       := '$' segment*
//   segment    := '.' name | '.' '*' | '[' integer ']' | '[' '*' ']' | '[' string ']'
//   name       := [A-Za-z_][A-Za-z0-9_-]*
//   op         := '==' | '!=' | '<' | '<=' | '>' | '>=' | '=~'
//   literal    := number | "string" | 'string' (JSON escapes, and \' ) | true | false | null
//
// Semantics:
// - A path with wildcards (both `.*` and `[*]` select every member of an
//   object and every element of an array) or duplicate keys selects several
//   nodes; a comparison holds when ANY of them satisfies it, so a path that
//   selects nothing is false with every operator, `!=` included (`!($.a == 1)`
//   is true then). A negative index counts from the end of the array.
// - Numbers compare by value: exactly as int64 when both are integers that fit
//   (ids above 2^53), and exactly between an int64 and a double too.
// - Strings compare after JSON unescaping, ordered by their UTF-8 bytes. A
//   lone surrogate escape in a document decodes as U+FFFD.
// - Different types: == is false, != is true, ordering is false; ordering is
//   defined for numbers and strings only. `=~` is QRegularExpression's
//   unanchored match on a string value (anchor with ^...$), false otherwise.
// - NotJson: the document is not JSON where the evaluation read it. Every
//   value a comparison passes over is checked as it is skipped, but evaluation
//   stops as soon as the answer is known: a malformed tail after a match is
//   not detected (`$.a == 1` on `{"a":1,}` is a Match, on `{"a":2,}` NotJson).
//   More nested containers than kMaxDepth are NotJson. Empty input is NotJson.
//   Bytes inside strings are not checked for valid UTF-8.
// - '&&' and '||' stop at the first operand that decides; a NotJson operand
//   they reach makes the whole expression NotJson, and so does one under '!'.
class JsonPredicate {
public:
    enum class Outcome { Match, NoMatch, NotJson };
    // More nested containers than this in a document are NotJson. Skipping is
    // iterative; only following a path recurses, at most this deep.
    static constexpr int kMaxDepth = 255;

    // Parses an expression; on failure returns nullopt and *error (when not
    // null) says what is wrong and where, e.g. "expected ']' at column 12"
    // (1-based column of the expression text, in UTF-16 code units).
    static std::optional<JsonPredicate> parse(QStringView text, QString *error);

    // Thread-safe: the compiled program is immutable and shared by copies (a
    // regex is compiled at parse time; QRegularExpression matches concurrently).
    Outcome evaluate(std::string_view json) const;

private:
    explicit JsonPredicate(std::shared_ptr<const jsonpath::Program> program);
    std::shared_ptr<const jsonpath::Program> m_program;
};

} // namespace md
