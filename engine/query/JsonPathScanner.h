#pragma once

// JsonPredicate's JSON scanner (internal to JsonPath.cpp): string, number and
// literal tokens, string unescaping and comparison, and the skipping of whole
// values. Inline: the evaluator's hot loop.

#include "engine/query/JsonPath.h"

#include <QString>

#include <array>
#include <bitset>
#include <cstring>
#include <string>
#include <string_view>

namespace md::jsonpath {

// Bytes that end the fast run through a string: the quote, a backslash, and
// the control characters JSON forbids unescaped.
inline constexpr std::array<bool, 256> kStringStop = [] {
    std::array<bool, 256> t{};
    for (int c = 0; c < 0x20; ++c)
        t[c] = true;
    t['"'] = true;
    t['\\'] = true;
    return t;
}();

inline bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

inline int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

inline int readHex4(const char *s)
{
    int v = 0;
    for (int k = 0; k < 4; ++k)
        v = v * 16 + hexValue(s[k]);
    return v;
}

inline int encodeUtf8(char32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = char(cp);
        return 1;
    }
    if (cp < 0x800) {
        out[0] = char(0xC0 | (cp >> 6));
        out[1] = char(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = char(0xE0 | (cp >> 12));
        out[1] = char(0x80 | ((cp >> 6) & 0x3F));
        out[2] = char(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = char(0xF0 | (cp >> 18));
    out[1] = char(0x80 | ((cp >> 12) & 0x3F));
    out[2] = char(0x80 | ((cp >> 6) & 0x3F));
    out[3] = char(0x80 | (cp & 0x3F));
    return 4;
}

// Decodes the escape after a backslash at s (already validated by scanString)
// into out (up to 4 bytes), advancing s past it. Surrogate pairs combine; a
// lone surrogate becomes U+FFFD.
inline int decodeEscape(const char *&s, const char *end, char *out)
{
    const char e = *s++;
    switch (e) {
    case 'b': out[0] = '\b'; return 1;
    case 'f': out[0] = '\f'; return 1;
    case 'n': out[0] = '\n'; return 1;
    case 'r': out[0] = '\r'; return 1;
    case 't': out[0] = '\t'; return 1;
    case 'u': break;
    default: out[0] = e; return 1; // " \ /
    }
    char32_t cp = char32_t(readHex4(s));
    s += 4;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        if (end - s >= 6 && s[0] == '\\' && s[1] == 'u') {
            const int low = readHex4(s + 2);
            if (low >= 0xDC00 && low <= 0xDFFF) {
                s += 6;
                return encodeUtf8(0x10000 + ((cp - 0xD800) << 10) + (char32_t(low) - 0xDC00), out);
            }
        }
        cp = 0xFFFD;
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
        cp = 0xFFFD;
    }
    return encodeUtf8(cp, out);
}

// The raw text between a string's quotes.
struct RawString {
    std::string_view raw;
    bool escaped = false;
};

inline int compareBytes(const char *a, size_t na, const char *b, size_t nb)
{
    const int c = std::memcmp(a, b, std::min(na, nb));
    return c != 0 ? c : (na < nb ? -1 : (na > nb ? 1 : 0));
}

// Unescaped value of s <=> lit, byte by byte, without building the value.
inline int compareString(const RawString &s, std::string_view lit)
{
    if (!s.escaped)
        return compareBytes(s.raw.data(), s.raw.size(), lit.data(), lit.size());
    const char *p = s.raw.data();
    const char *end = p + s.raw.size();
    size_t li = 0;
    const auto step = [&](const char *chunk, size_t n) {
        const size_t m = std::min(n, lit.size() - li);
        const int c = std::memcmp(chunk, lit.data() + li, m);
        li += m;
        return c != 0 ? c : (m < n ? 1 : 0);
    };
    while (p < end) {
        const auto *slash = static_cast<const char *>(std::memchr(p, '\\', size_t(end - p)));
        const char *stop = slash ? slash : end;
        if (const int c = step(p, size_t(stop - p)))
            return c;
        p = stop;
        if (p < end) {
            ++p;
            char buf[4];
            const int n = decodeEscape(p, end, buf);
            if (const int c = step(buf, size_t(n)))
                return c;
        }
    }
    return li < lit.size() ? -1 : 0;
}

inline QString toQString(const RawString &s)
{
    if (!s.escaped)
        return QString::fromUtf8(s.raw.data(), qsizetype(s.raw.size()));
    std::string out;
    out.reserve(s.raw.size());
    const char *p = s.raw.data();
    const char *end = p + s.raw.size();
    while (p < end) {
        if (*p != '\\') {
            out.push_back(*p++);
            continue;
        }
        ++p;
        char buf[4];
        out.append(buf, size_t(decodeEscape(p, end, buf)));
    }
    return QString::fromStdString(out);
}

// The JSON scanner: every function takes p at the first byte of its token and
// leaves it after the token; false means not JSON.
class Scanner {
public:
    explicit Scanner(const char *end) : m_end(end) {}

    void skipSpace(const char *&p) const
    {
        while (p < m_end && isSpace(*p))
            ++p;
    }

    bool scanString(const char *&p, RawString &out) const
    {
        const char *start = ++p; // past the opening quote
        bool escaped = false;
        for (;;) {
            while (p < m_end && !kStringStop[static_cast<unsigned char>(*p)])
                ++p;
            if (p >= m_end || static_cast<unsigned char>(*p) < 0x20)
                return false;
            if (*p == '"')
                break;
            // A backslash: one of JSON's escapes.
            escaped = true;
            if (++p >= m_end)
                return false;
            switch (*p) {
            case '"':
            case '\\':
            case '/':
            case 'b':
            case 'f':
            case 'n':
            case 'r':
            case 't': ++p; break;
            case 'u':
                if (m_end - p < 5)
                    return false;
                for (int k = 1; k <= 4; ++k) {
                    if (hexValue(p[k]) < 0)
                        return false;
                }
                p += 5;
                break;
            default: return false;
            }
        }
        out.raw = std::string_view(start, size_t(p - start));
        out.escaped = escaped;
        ++p; // the closing quote
        return true;
    }

    // -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    bool scanNumber(const char *&p, std::string_view &text, bool &integer) const
    {
        const char *start = p;
        integer = true;
        if (p < m_end && *p == '-')
            ++p;
        if (p < m_end && *p == '0')
            ++p;
        else if (!digits(p))
            return false;
        if (p < m_end && *p == '.') {
            integer = false;
            ++p;
            if (!digits(p))
                return false;
        }
        if (p < m_end && (*p == 'e' || *p == 'E')) {
            integer = false;
            ++p;
            if (p < m_end && (*p == '+' || *p == '-'))
                ++p;
            if (!digits(p))
                return false;
        }
        text = std::string_view(start, size_t(p - start));
        return true;
    }

    bool scanWord(const char *&p, std::string_view word) const
    {
        if (size_t(m_end - p) < word.size() || std::memcmp(p, word.data(), word.size()) != 0)
            return false;
        p += word.size();
        return true;
    }

    // Skips one value (p after leading space) nested `depth` containers deep,
    // checking it is JSON. Iterative: the open containers live in a bitset.
    bool skipValue(const char *&p, int depth) const
    {
        std::bitset<JsonPredicate::kMaxDepth> isObject;
        int top = 0; // open containers
        for (;;) {
            // A value.
            skipSpace(p);
            if (p >= m_end)
                return false;
            switch (*p) {
            case '{':
            case '[': {
                if (depth + top >= JsonPredicate::kMaxDepth)
                    return false;
                const bool object = *p == '{';
                ++p;
                skipSpace(p);
                if (p < m_end && *p == (object ? '}' : ']')) {
                    ++p;
                    break; // an empty container is a whole value
                }
                isObject[size_t(top++)] = object;
                if (object && !skipKey(p))
                    return false;
                continue; // its first value
            }
            case '"': {
                RawString s;
                if (!scanString(p, s))
                    return false;
                break;
            }
            case 't':
                if (!scanWord(p, "true"))
                    return false;
                break;
            case 'f':
                if (!scanWord(p, "false"))
                    return false;
                break;
            case 'n':
                if (!scanWord(p, "null"))
                    return false;
                break;
            default: {
                std::string_view text;
                bool integer = false;
                if (!scanNumber(p, text, integer))
                    return false;
            }
            }
            // After a value: a separator or the end of containers.
            for (;;) {
                if (top == 0)
                    return true;
                skipSpace(p);
                if (p >= m_end)
                    return false;
                const bool object = isObject[size_t(top - 1)];
                if (*p == ',') {
                    ++p;
                    if (object && !skipKey(p))
                        return false;
                    break; // the next value
                }
                if (*p != (object ? '}' : ']'))
                    return false;
                ++p;
                --top;
            }
        }
    }

    // `"key" :` with p before the key.
    bool skipKey(const char *&p) const
    {
        RawString key;
        return readKey(p, key);
    }
    bool readKey(const char *&p, RawString &key) const
    {
        skipSpace(p);
        if (p >= m_end || *p != '"' || !scanString(p, key))
            return false;
        skipSpace(p);
        if (p >= m_end || *p != ':')
            return false;
        ++p;
        return true;
    }

    const char *end() const { return m_end; }

private:
    bool digits(const char *&p) const
    {
        const char *start = p;
        while (p < m_end && *p >= '0' && *p <= '9')
            ++p;
        return p > start;
    }

    const char *m_end;
};

} // namespace md::jsonpath
