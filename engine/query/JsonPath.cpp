// JsonPredicate's evaluator: a streaming walk over the raw bytes along each
// comparison's path. Values off the path are skipped by an iterative,
// validating scanner with a fixed-size stack, so neither hostile nesting nor
// a large document allocates or recurses.
#include "engine/query/JsonPath.h"
#include "engine/query/JsonPathDetail.h"
#include "engine/query/JsonPathScanner.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace md {

namespace jsonpath {

Number toNumber(std::string_view text, bool integerSyntax)
{
    Number n;
    const char *first = text.data();
    const char *last = text.data() + text.size();
    if (integerSyntax) {
        const auto r = std::from_chars(first, last, n.i);
        if (r.ec == std::errc()) {
            n.isInt = true;
            n.d = double(n.i);
            return n;
        }
    }
    const auto r = std::from_chars(first, last, n.d);
    if (r.ec == std::errc::result_out_of_range) {
        // Overflow or underflow? The decimal magnitude says: digits before the
        // point (or minus the zeros after "0.") plus the exponent.
        const bool negative = text.front() == '-';
        size_t k = negative ? 1 : 0;
        long long magnitude = 0;
        if (text[k] == '0') {
            ++k;
            if (k < text.size() && text[k] == '.') {
                for (++k; k < text.size() && text[k] == '0'; ++k)
                    --magnitude;
            }
        } else {
            for (; k < text.size() && text[k] >= '0' && text[k] <= '9'; ++k)
                ++magnitude;
        }
        const size_t e = text.find_first_of("eE");
        if (e != std::string_view::npos) {
            long long exponent = 0;
            const bool minus = text[e + 1] == '-';
            for (size_t j = e + 1; j < text.size(); ++j) {
                if (text[j] >= '0' && text[j] <= '9')
                    exponent = std::min<long long>(exponent * 10 + (text[j] - '0'), 1'000'000'000LL);
            }
            magnitude += minus ? -exponent : exponent;
        }
        n.d = magnitude > 0 ? std::numeric_limits<double>::infinity() : 0.0;
        if (negative)
            n.d = -n.d;
    }
    return n;
}

namespace {

int sign(bool less, bool greater)
{
    return less ? -1 : (greater ? 1 : 0);
}

// i <=> d without rounding i to a double.
int compareIntDouble(int64_t i, double d)
{
    constexpr double kTwo63 = 9223372036854775808.0;
    if (d >= kTwo63)
        return -1;
    if (d < -kTwo63)
        return 1;
    const double t = std::trunc(d);
    const auto ti = int64_t(t);
    if (i != ti)
        return sign(i<ti, i> ti);
    const double frac = d - t;
    return sign(frac > 0, frac < 0);
}

} // namespace

int compareNumbers(const Number &a, const Number &b)
{
    if (a.isInt && b.isInt)
        return sign(a.i<b.i, a.i> b.i);
    if (a.isInt)
        return compareIntDouble(a.i, b.d);
    if (b.isInt)
        return -compareIntDouble(b.i, a.d);
    return sign(a.d<b.d, a.d> b.d);
}

namespace {

// One comparison over one document.
class Walker {
public:
    enum class Result { Found, NotFound, Bad };

    Walker(const Comparison &cmp, const char *end) : m_cmp(cmp), m_scan(end) {}

    // p at a value (space allowed), `depth` containers deep; on NotFound p is
    // left after the value, so the caller's scan goes on.
    Result walk(const char *&p, size_t seg, int depth) const
    {
        m_scan.skipSpace(p);
        if (p >= m_scan.end())
            return Result::Bad;
        if (seg == m_cmp.path.size())
            return leaf(p, depth);
        const Segment &s = m_cmp.path[seg];
        const bool object = *p == '{';
        const bool takesIt = (object && s.kind != Segment::Kind::Index) || (*p == '[' && s.kind != Segment::Kind::Key);
        if (!takesIt)
            return m_scan.skipValue(p, depth) ? Result::NotFound : Result::Bad;
        if (depth >= JsonPredicate::kMaxDepth)
            return Result::Bad;
        int64_t wanted = s.index;
        if (s.kind == Segment::Kind::Index && wanted < 0) {
            const char *q = p;
            int64_t count = 0;
            if (!countElements(q, depth, count))
                return Result::Bad;
            wanted += count;
            if (wanted < 0) {
                p = q;
                return Result::NotFound;
            }
        }
        const char close = object ? '}' : ']';
        ++p;
        m_scan.skipSpace(p);
        if (p < m_scan.end() && *p == close) {
            ++p;
            return Result::NotFound;
        }
        for (int64_t i = 0;; ++i) {
            bool selected = s.kind == Segment::Kind::Wildcard;
            if (object) {
                RawString key;
                if (!m_scan.readKey(p, key))
                    return Result::Bad;
                selected = selected || keyEquals(key, s.key);
            } else {
                selected = selected || i == wanted;
            }
            if (selected) {
                const Result r = walk(p, seg + 1, depth + 1);
                if (r != Result::NotFound)
                    return r;
            } else if (!m_scan.skipValue(p, depth + 1)) {
                return Result::Bad;
            }
            m_scan.skipSpace(p);
            if (p >= m_scan.end())
                return Result::Bad;
            if (*p == close) {
                ++p;
                return Result::NotFound;
            }
            if (*p != ',')
                return Result::Bad;
            ++p;
        }
    }

private:
    static bool keyEquals(const RawString &key, const std::string &name)
    {
        if (!key.escaped)
            return key.raw.size() == name.size() && std::memcmp(key.raw.data(), name.data(), name.size()) == 0;
        return compareString(key, name) == 0;
    }

    bool countElements(const char *&p, int depth, int64_t &count) const
    {
        ++p; // '['
        m_scan.skipSpace(p);
        count = 0;
        if (p < m_scan.end() && *p == ']') {
            ++p;
            return true;
        }
        for (;;) {
            if (!m_scan.skipValue(p, depth + 1))
                return false;
            ++count;
            m_scan.skipSpace(p);
            if (p >= m_scan.end())
                return false;
            if (*p == ']') {
                ++p;
                return true;
            }
            if (*p++ != ',')
                return false;
        }
    }

    // The selected value itself: read it whole (so it is checked), then test it.
    Result leaf(const char *&p, int depth) const
    {
        const Literal &lit = m_cmp.literal;
        const Op op = m_cmp.op;
        int order = 0; // value <=> literal, when comparable
        bool comparable = false;
        switch (*p) {
        case '"': {
            RawString s;
            if (!m_scan.scanString(p, s))
                return Result::Bad;
            if (op == Op::Match)
                return m_cmp.regex.match(toQString(s)).hasMatch() ? Result::Found : Result::NotFound;
            if (lit.type == Literal::Type::String) {
                comparable = true;
                order = compareString(s, lit.string);
            }
            break;
        }
        case 't':
        case 'f': {
            const bool value = *p == 't';
            if (!m_scan.scanWord(p, value ? "true" : "false"))
                return Result::Bad;
            if (lit.type == Literal::Type::Bool) {
                comparable = true;
                order = value == lit.boolean ? 0 : 1;
            }
            break;
        }
        case 'n':
            if (!m_scan.scanWord(p, "null"))
                return Result::Bad;
            comparable = lit.type == Literal::Type::Null;
            break;
        case '{':
        case '[':
            if (!m_scan.skipValue(p, depth))
                return Result::Bad;
            break;
        default: {
            std::string_view text;
            bool integer = false;
            if (!m_scan.scanNumber(p, text, integer))
                return Result::Bad;
            if (lit.type == Literal::Type::Number) {
                comparable = true;
                order = compareNumbers(toNumber(text, integer), lit.number);
            }
        }
        }
        // Ordering is defined on numbers and strings only.
        const bool ordered = comparable && (lit.type == Literal::Type::Number || lit.type == Literal::Type::String);
        bool holds = false;
        switch (op) {
        case Op::Exists: holds = true; break;
        case Op::Eq: holds = comparable && order == 0; break;
        case Op::Ne: holds = !(comparable && order == 0); break;
        case Op::Lt: holds = ordered && order < 0; break;
        case Op::Le: holds = ordered && order <= 0; break;
        case Op::Gt: holds = ordered && order > 0; break;
        case Op::Ge: holds = ordered && order >= 0; break;
        case Op::Match: holds = false; break; // not a string
        }
        return holds ? Result::Found : Result::NotFound;
    }

    const Comparison &m_cmp;
    Scanner m_scan;
};

using Outcome = JsonPredicate::Outcome;

Outcome compare(const Comparison &cmp, std::string_view json)
{
    const char *p = json.data();
    const char *end = p + json.size();
    const Walker walker(cmp, end);
    switch (walker.walk(p, 0, 0)) {
    case Walker::Result::Found: return Outcome::Match;
    case Walker::Result::Bad: return Outcome::NotJson;
    case Walker::Result::NotFound: break;
    }
    // The whole document was read: only space may follow it.
    while (p < end && isSpace(*p))
        ++p;
    return p == end ? Outcome::NoMatch : Outcome::NotJson;
}

Outcome evaluateNode(const Program &program, int index, std::string_view json)
{
    const Node &node = program.nodes[size_t(index)];
    switch (node.kind) {
    case Node::Kind::Compare: return compare(program.comparisons[size_t(node.comparison)], json);
    case Node::Kind::Not: {
        const Outcome r = evaluateNode(program, node.children.front(), json);
        return r == Outcome::NotJson ? r : (r == Outcome::Match ? Outcome::NoMatch : Outcome::Match);
    }
    case Node::Kind::And:
    case Node::Kind::Or: {
        // The first child that decides (or is not JSON) is the answer.
        const Outcome decides = node.kind == Node::Kind::And ? Outcome::NoMatch : Outcome::Match;
        for (const int child : node.children) {
            const Outcome r = evaluateNode(program, child, json);
            if (r == decides || r == Outcome::NotJson)
                return r;
        }
        return node.kind == Node::Kind::And ? Outcome::Match : Outcome::NoMatch;
    }
    }
    return Outcome::NotJson;
}

} // namespace

} // namespace jsonpath

JsonPredicate::JsonPredicate(std::shared_ptr<const jsonpath::Program> program) : m_program(std::move(program))
{
}

std::optional<JsonPredicate> JsonPredicate::parse(QStringView text, QString *error)
{
    auto program = std::make_shared<jsonpath::Program>();
    if (!jsonpath::parseProgram(text, *program, error))
        return std::nullopt;
    return JsonPredicate(std::move(program));
}

JsonPredicate::Outcome JsonPredicate::evaluate(std::string_view json) const
{
    return jsonpath::evaluateNode(*m_program, m_program->root, json);
}

} // namespace md
