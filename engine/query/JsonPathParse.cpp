// The expression parser of JsonPredicate: recursive descent over the grammar
// in JsonPath.h, into a flat Program. Every error names a 1-based column.
#include "engine/query/JsonPath.h"
#include "engine/query/JsonPathDetail.h"

#include <charconv>

namespace md::jsonpath {

namespace {

// Deeper '(' / '!' nesting than this is refused, so parsing (and evaluating)
// a hostile expression cannot exhaust the stack.
constexpr int kMaxExpressionDepth = 256;

bool isNameStart(char16_t c)
{
    return (c >= u'A' && c <= u'Z') || (c >= u'a' && c <= u'z') || c == u'_';
}

bool isNameChar(char16_t c)
{
    return isNameStart(c) || (c >= u'0' && c <= u'9') || c == u'-';
}

bool isDigit(char16_t c)
{
    return c >= u'0' && c <= u'9';
}

int hexValue(char16_t c)
{
    if (c >= u'0' && c <= u'9')
        return c - u'0';
    if (c >= u'a' && c <= u'f')
        return c - u'a' + 10;
    if (c >= u'A' && c <= u'F')
        return c - u'A' + 10;
    return -1;
}

QString opText(Op op)
{
    switch (op) {
    case Op::Exists: break;
    case Op::Eq: return QStringLiteral("==");
    case Op::Ne: return QStringLiteral("!=");
    case Op::Lt: return QStringLiteral("<");
    case Op::Le: return QStringLiteral("<=");
    case Op::Gt: return QStringLiteral(">");
    case Op::Ge: return QStringLiteral(">=");
    case Op::Match: return QStringLiteral("=~");
    }
    return QString();
}

class Parser {
public:
    Parser(QStringView text, Program &program) : m_s(text), m_p(program) {}

    bool run()
    {
        const int root = parseOr(0);
        if (root < 0)
            return false;
        skipSpace();
        if (!atEnd())
            return fail(QStringLiteral("unexpected '%1': trailing input").arg(tokenAt(m_i)), m_i);
        m_p.root = root;
        return true;
    }

    QString error() const { return m_error; }

private:
    bool atEnd() const { return m_i >= m_s.size(); }
    char16_t peek(qsizetype ahead = 0) const
    {
        return m_i + ahead < m_s.size() ? m_s[m_i + ahead].unicode() : char16_t(0);
    }
    void skipSpace()
    {
        while (!atEnd() && (peek() == u' ' || peek() == u'\t' || peek() == u'\n' || peek() == u'\r'))
            ++m_i;
    }
    bool fail(const QString &what, qsizetype at)
    {
        if (m_error.isEmpty())
            m_error = what + QStringLiteral(" at column ") + QString::number(at + 1);
        return false;
    }
    // A short quote of the text at `at` for error messages.
    QString tokenAt(qsizetype at) const
    {
        qsizetype end = at;
        while (end < m_s.size() && end - at < 12 && m_s[end] != u' ')
            ++end;
        return m_s.mid(at, std::max<qsizetype>(end - at, 1)).toString();
    }

    int addNode(Node node)
    {
        m_p.nodes.push_back(std::move(node));
        return int(m_p.nodes.size()) - 1;
    }

    // orExpr / andExpr: n-ary nodes, so a long chain of '&&' stays flat.
    int parseOr(int depth) { return parseChain(depth, u'|', Node::Kind::Or); }
    int parseChain(int depth, char16_t opChar, Node::Kind kind)
    {
        Node node;
        node.kind = kind;
        for (;;) {
            const int child = kind == Node::Kind::Or ? parseChain(depth, u'&', Node::Kind::And) : parseUnary(depth);
            if (child < 0)
                return -1;
            node.children.push_back(child);
            skipSpace();
            if (peek() != opChar || peek(1) != opChar)
                break;
            m_i += 2;
        }
        if (node.children.size() == 1)
            return node.children.front();
        return addNode(std::move(node));
    }

    int parseUnary(int depth)
    {
        skipSpace();
        if (depth >= kMaxExpressionDepth) {
            fail(QStringLiteral("expression nested too deeply"), m_i);
            return -1;
        }
        if (peek() == u'!' && peek(1) != u'=') {
            ++m_i;
            const int child = parseUnary(depth + 1);
            if (child < 0)
                return -1;
            Node node;
            node.kind = Node::Kind::Not;
            node.children.push_back(child);
            return addNode(std::move(node));
        }
        if (peek() == u'(') {
            ++m_i;
            const int inner = parseOr(depth + 1);
            if (inner < 0)
                return -1;
            skipSpace();
            if (peek() != u')') {
                fail(QStringLiteral("expected ')'"), m_i);
                return -1;
            }
            ++m_i;
            return inner;
        }
        return parseComparison();
    }

    int parseComparison()
    {
        Comparison cmp;
        if (!parsePath(cmp.path) || !parseOperator(cmp))
            return -1;
        m_p.comparisons.push_back(std::move(cmp));
        Node node;
        node.kind = Node::Kind::Compare;
        node.comparison = int(m_p.comparisons.size()) - 1;
        return addNode(std::move(node));
    }

    bool parsePath(std::vector<Segment> &path)
    {
        if (peek() != u'$')
            return fail(atEnd() ? QStringLiteral("expected a path starting with '$', found the end")
                                : QStringLiteral("expected a path starting with '$'"),
                        m_i);
        ++m_i;
        for (;;) {
            const qsizetype before = m_i;
            skipSpace();
            Segment seg;
            if (peek() == u'.') {
                ++m_i;
                skipSpace();
                if (peek() == u'*') {
                    ++m_i;
                    seg.kind = Segment::Kind::Wildcard;
                } else if (isNameStart(peek())) {
                    const qsizetype start = m_i;
                    while (isNameChar(peek()))
                        ++m_i;
                    seg.key = m_s.mid(start, m_i - start).toString().toStdString();
                } else {
                    return fail(QStringLiteral("expected a name or '*' after '.'"), m_i);
                }
            } else if (peek() == u'[') {
                ++m_i;
                skipSpace();
                if (!parseBracket(seg))
                    return false;
                skipSpace();
                if (peek() != u']')
                    return fail(QStringLiteral("expected ']'"), m_i);
                ++m_i;
            } else {
                m_i = before; // the space belongs to what follows the path
                return true;
            }
            path.push_back(std::move(seg));
        }
    }

    bool parseBracket(Segment &seg)
    {
        const char16_t c = peek();
        if (c == u'*') {
            ++m_i;
            seg.kind = Segment::Kind::Wildcard;
            return true;
        }
        if (c == u'"' || c == u'\'') {
            seg.kind = Segment::Kind::Key;
            return parseString(seg.key);
        }
        if (isDigit(c) || (c == u'-' && isDigit(peek(1)))) {
            const qsizetype start = m_i;
            ++m_i;
            while (isDigit(peek()))
                ++m_i;
            const std::string digits = m_s.mid(start, m_i - start).toString().toStdString();
            seg.kind = Segment::Kind::Index;
            const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), seg.index);
            if (r.ec != std::errc())
                return fail(QStringLiteral("index out of range"), start);
            return true;
        }
        return fail(QStringLiteral("expected an index, '*' or a quoted key after '['"), m_i);
    }

    bool parseOperator(Comparison &cmp)
    {
        skipSpace();
        const char16_t c = peek();
        const auto isOpChar = [](char16_t ch) {
            return ch == u'=' || ch == u'!' || ch == u'<' || ch == u'>' || ch == u'~';
        };
        if (atEnd() || c == u')' || (c == u'&' && peek(1) == u'&') || (c == u'|' && peek(1) == u'|')) {
            cmp.op = Op::Exists;
            return true;
        }
        const qsizetype start = m_i;
        if (c == u'&' || c == u'|')
            return fail(QStringLiteral("unknown operator '%1'").arg(QChar(c)), start);
        if (!isOpChar(c))
            return true; // not an operator: the caller reports what follows
        while (isOpChar(peek()))
            ++m_i;
        const QStringView op = m_s.mid(start, m_i - start);
        static const std::pair<const char16_t *, Op> ops[] = {{u"==", Op::Eq},   {u"!=", Op::Ne}, {u"<", Op::Lt},
                                                              {u"<=", Op::Le},   {u">", Op::Gt},  {u">=", Op::Ge},
                                                              {u"=~", Op::Match}};
        bool known = false;
        for (const auto &[spelling, value] : ops) {
            if (op == QStringView(spelling)) {
                cmp.op = value;
                known = true;
            }
        }
        if (!known)
            return fail(QStringLiteral("unknown operator '%1'").arg(op.toString()), start);
        skipSpace();
        const qsizetype literalAt = m_i;
        if (!parseLiteral(cmp.literal, opText(cmp.op)))
            return false;
        if (cmp.op != Op::Match)
            return true;
        if (cmp.literal.type != Literal::Type::String)
            return fail(QStringLiteral("'=~' needs a string literal (a regular expression)"), literalAt);
        cmp.regex = QRegularExpression(QString::fromStdString(cmp.literal.string));
        if (!cmp.regex.isValid())
            return fail(QStringLiteral("invalid regular expression (%1, at offset %2 of the pattern)")
                            .arg(cmp.regex.errorString())
                            .arg(cmp.regex.patternErrorOffset()),
                        literalAt);
        cmp.regex.optimize(); // compiles now, not on the first (concurrent) match
        return true;
    }

    bool parseLiteral(Literal &lit, const QString &op)
    {
        const char16_t c = peek();
        const qsizetype start = m_i;
        if (c == u'"' || c == u'\'') {
            lit.type = Literal::Type::String;
            return parseString(lit.string);
        }
        if (c == u'-' || isDigit(c))
            return parseNumber(lit);
        if (isNameStart(c)) {
            while (isNameChar(peek()))
                ++m_i;
            const QStringView word = m_s.mid(start, m_i - start);
            if (word == u"true" || word == u"false") {
                lit.type = Literal::Type::Bool;
                lit.boolean = word == u"true";
                return true;
            }
            if (word == u"null") {
                lit.type = Literal::Type::Null;
                return true;
            }
            return fail(QStringLiteral("expected a literal after '%1', found '%2'").arg(op, word.toString()), start);
        }
        return fail(atEnd() ? QStringLiteral("expected a literal after '%1', found the end").arg(op)
                            : QStringLiteral("expected a literal after '%1'").arg(op),
                    start);
    }

    // JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    bool parseNumber(Literal &lit)
    {
        const qsizetype start = m_i;
        bool integer = true;
        if (peek() == u'-')
            ++m_i;
        if (peek() == u'0') {
            ++m_i;
        } else if (isDigit(peek())) {
            while (isDigit(peek()))
                ++m_i;
        } else {
            return fail(QStringLiteral("invalid number"), start);
        }
        if (peek() == u'.') {
            integer = false;
            ++m_i;
            if (!isDigit(peek()))
                return fail(QStringLiteral("invalid number"), start);
            while (isDigit(peek()))
                ++m_i;
        }
        if (peek() == u'e' || peek() == u'E') {
            integer = false;
            ++m_i;
            if (peek() == u'+' || peek() == u'-')
                ++m_i;
            if (!isDigit(peek()))
                return fail(QStringLiteral("invalid number"), start);
            while (isDigit(peek()))
                ++m_i;
        }
        if (isNameChar(peek()) || peek() == u'.')
            return fail(QStringLiteral("invalid number"), start);
        lit.type = Literal::Type::Number;
        lit.number = toNumber(m_s.mid(start, m_i - start).toString().toStdString(), integer);
        return true;
    }

    // A quoted string with JSON's escapes (and \' ), into UTF-8.
    bool parseString(std::string &out)
    {
        const qsizetype start = m_i;
        const char16_t quote = peek();
        ++m_i;
        QString text;
        for (;;) {
            if (atEnd())
                return fail(QStringLiteral("unterminated string starting"), start);
            const char16_t c = peek();
            if (c == quote) {
                ++m_i;
                break;
            }
            if (c != u'\\') {
                text.append(QChar(c));
                ++m_i;
                continue;
            }
            const qsizetype escapeAt = m_i;
            ++m_i;
            if (atEnd())
                return fail(QStringLiteral("unterminated string starting"), start);
            const char16_t e = peek();
            ++m_i;
            switch (e) {
            case u'"': text.append(u'"'); continue;
            case u'\'': text.append(u'\''); continue;
            case u'\\': text.append(u'\\'); continue;
            case u'/': text.append(u'/'); continue;
            case u'b': text.append(u'\b'); continue;
            case u'f': text.append(u'\f'); continue;
            case u'n': text.append(u'\n'); continue;
            case u'r': text.append(u'\r'); continue;
            case u't': text.append(u'\t'); continue;
            case u'u': break;
            default: return fail(QStringLiteral("bad escape '\\%1'").arg(QChar(e)), escapeAt);
            }
            const int unit = readHex4();
            if (unit < 0)
                return fail(QStringLiteral("bad escape: '\\u' needs four hex digits"), escapeAt);
            if (unit >= 0xDC00 && unit <= 0xDFFF)
                return fail(QStringLiteral("bad escape: unpaired surrogate"), escapeAt);
            if (unit >= 0xD800 && unit <= 0xDBFF) {
                int low = -1;
                if (peek() == u'\\' && peek(1) == u'u') {
                    m_i += 2;
                    low = readHex4();
                }
                if (low < 0xDC00 || low > 0xDFFF)
                    return fail(QStringLiteral("bad escape: unpaired surrogate"), escapeAt);
                text.append(QChar(char16_t(unit)));
                text.append(QChar(char16_t(low)));
                continue;
            }
            text.append(QChar(char16_t(unit)));
        }
        out = text.toStdString(); // UTF-8
        return true;
    }

    int readHex4()
    {
        int value = 0;
        for (int k = 0; k < 4; ++k) {
            const int h = hexValue(peek());
            if (h < 0)
                return -1;
            value = value * 16 + h;
            ++m_i;
        }
        return value;
    }

    QStringView m_s;
    Program &m_p;
    qsizetype m_i = 0;
    QString m_error;
};

} // namespace

bool parseProgram(QStringView text, Program &program, QString *error)
{
    Parser parser(text, program);
    if (parser.run())
        return true;
    if (error)
        *error = parser.error();
    return false;
}

} // namespace md::jsonpath
