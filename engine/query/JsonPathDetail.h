#pragma once

// Internals of JsonPredicate shared by its parser (JsonPathParse.cpp) and its
// evaluator (JsonPath.cpp). Not for other callers.

#include <QRegularExpression>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace md::jsonpath {

struct Segment {
    enum class Kind { Key, Wildcard, Index };
    Kind kind = Kind::Key;
    std::string key;   // Kind::Key: UTF-8, unescaped
    int64_t index = 0; // Kind::Index: negative counts from the end
};

// A JSON number: an integer that fits int64 keeps its exact value.
struct Number {
    bool isInt = false;
    int64_t i = 0;
    double d = 0;
};

// text must already follow JSON's number grammar. Out of double's range: +-inf or +-0.
Number toNumber(std::string_view text, bool integerSyntax);
// <0, 0, >0; exact between int64 and double as well.
int compareNumbers(const Number &a, const Number &b);

struct Literal {
    enum class Type { Null, Bool, Number, String };
    Type type = Type::Null;
    bool boolean = false;
    Number number;
    std::string string; // UTF-8, unescaped
};

enum class Op { Exists, Eq, Ne, Lt, Le, Gt, Ge, Match };

struct Comparison {
    std::vector<Segment> path;
    Op op = Op::Exists;
    Literal literal;
    QRegularExpression regex; // Op::Match, compiled at parse time
};

struct Node {
    enum class Kind { Or, And, Not, Compare };
    Kind kind = Kind::Compare;
    int comparison = -1;       // Kind::Compare
    std::vector<int> children; // indexes into Program::nodes
};

struct Program {
    std::vector<Node> nodes;
    int root = -1;
    std::vector<Comparison> comparisons;
};

// Parses text into program; false with *error set (message with its column).
bool parseProgram(QStringView text, Program &program, QString *error);

} // namespace md::jsonpath
