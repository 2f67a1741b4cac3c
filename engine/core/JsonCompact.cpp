#include "engine/core/JsonCompact.h"

#include <cctype>

namespace md {

namespace {

constexpr int kMaxDepth = 512; // deeper documents are refused rather than risk the stack

class Compactor {
public:
    Compactor(const char *data, size_t size, QByteArray *out) : m_begin(data), m_p(data), m_end(data + size), m_out(out)
    {
    }

    bool run(QString *error)
    {
        m_out->clear();
        m_out->reserve(qsizetype(m_end - m_begin));
        skipSpace();
        if (!value(0)) {
            *error = m_error;
            return false;
        }
        skipSpace();
        if (m_p != m_end) {
            *error = QStringLiteral("text after the JSON value at byte %1").arg(offset());
            return false;
        }
        return true;
    }

private:
    qint64 offset() const { return qint64(m_p - m_begin); }
    bool fail(const char *what)
    {
        m_error = m_p == m_end ? QStringLiteral("truncated JSON at byte %1").arg(offset())
                               : QStringLiteral("%1 at byte %2").arg(QLatin1String(what)).arg(offset());
        return false;
    }
    void skipSpace()
    {
        while (m_p != m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }
    bool value(int depth)
    {
        if (m_p == m_end)
            return fail("");
        switch (*m_p) {
        case '{': return container(depth, '}', true);
        case '[': return container(depth, ']', false);
        case '"': return string();
        case 't': return literal("true");
        case 'f': return literal("false");
        case 'n': return literal("null");
        default: return number();
        }
    }
    bool container(int depth, char close, bool object)
    {
        if (depth >= kMaxDepth)
            return fail("JSON nested too deeply");
        m_out->append(*m_p++);
        skipSpace();
        if (m_p != m_end && *m_p == close) {
            m_out->append(*m_p++);
            return true;
        }
        for (;;) {
            if (object) {
                if (m_p == m_end || *m_p != '"')
                    return fail("expected a member name");
                if (!string())
                    return false;
                skipSpace();
                if (m_p == m_end || *m_p != ':')
                    return fail("expected ':'");
                m_out->append(*m_p++);
                skipSpace();
            }
            if (!value(depth + 1))
                return false;
            skipSpace();
            if (m_p == m_end)
                return fail("");
            if (*m_p == ',') {
                m_out->append(*m_p++);
                skipSpace();
                continue;
            }
            if (*m_p == close) {
                m_out->append(*m_p++);
                return true;
            }
            return fail(object ? "expected ',' or '}'" : "expected ',' or ']'");
        }
    }
    bool string()
    {
        const char *start = m_p++;
        while (m_p != m_end) {
            const unsigned char c = static_cast<unsigned char>(*m_p);
            if (c == '"') {
                ++m_p;
                m_out->append(start, qsizetype(m_p - start));
                return true;
            }
            if (c < 0x20)
                return fail("control character in a string");
            if (c >= 0x80) {
                if (!utf8Sequence())
                    return fail("invalid UTF-8 in a string");
                continue;
            }
            if (c == '\\') {
                if (++m_p == m_end)
                    return fail("");
                const char e = *m_p;
                if (e == 'u') {
                    for (int k = 0; k < 4; ++k) {
                        if (++m_p == m_end)
                            return fail("");
                        if (!isxdigit(static_cast<unsigned char>(*m_p)))
                            return fail("bad \\u escape");
                    }
                } else if (!(e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' ||
                             e == 't')) {
                    return fail("bad escape");
                }
            }
            ++m_p;
        }
        return fail("");
    }
    // One UTF-8 sequence at m_p, moving past it. JSON text is UTF-8 (RFC 8259),
    // and what decoded must read back as JSON everywhere (the fuzzer found
    // bytes like 0xff passed through): no overlong forms, no surrogates,
    // nothing past U+10FFFF (RFC 3629).
    bool utf8Sequence()
    {
        const auto *p = reinterpret_cast<const unsigned char *>(m_p);
        const unsigned char c = *p;
        int n = 0;
        unsigned char lo = 0x80, hi = 0xbf; // the second byte's range
        if (c >= 0xc2 && c <= 0xdf) {
            n = 1;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 2;
            lo = c == 0xe0 ? 0xa0 : 0x80;
            hi = c == 0xed ? 0x9f : 0xbf;
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 3;
            lo = c == 0xf0 ? 0x90 : 0x80;
            hi = c == 0xf4 ? 0x8f : 0xbf;
        } else {
            return false;
        }
        if (m_end - m_p <= n || p[1] < lo || p[1] > hi)
            return false;
        for (int k = 2; k <= n; ++k) {
            if ((p[k] & 0xc0) != 0x80)
                return false;
        }
        m_p += n + 1;
        return true;
    }
    bool literal(const char *word)
    {
        for (const char *w = word; *w; ++w, ++m_p) {
            if (m_p == m_end || *m_p != *w)
                return fail("not JSON");
        }
        m_out->append(word);
        return true;
    }
    bool digits()
    {
        if (m_p == m_end || !isdigit(static_cast<unsigned char>(*m_p)))
            return fail("expected a digit");
        while (m_p != m_end && isdigit(static_cast<unsigned char>(*m_p)))
            ++m_p;
        return true;
    }
    bool number()
    {
        const char *start = m_p;
        if (*m_p == '-')
            ++m_p;
        if (m_p == m_end)
            return fail("");
        if (*m_p == '0')
            ++m_p;
        else if (!isdigit(static_cast<unsigned char>(*m_p)))
            return fail("not JSON");
        else if (!digits())
            return false;
        if (m_p != m_end && *m_p == '.') {
            ++m_p;
            if (!digits())
                return false;
        }
        if (m_p != m_end && (*m_p == 'e' || *m_p == 'E')) {
            ++m_p;
            if (m_p != m_end && (*m_p == '+' || *m_p == '-'))
                ++m_p;
            if (!digits())
                return false;
        }
        m_out->append(start, qsizetype(m_p - start));
        return true;
    }

    const char *m_begin;
    const char *m_p;
    const char *m_end;
    QByteArray *m_out;
    QString m_error;
};

} // namespace

bool compactJson(const char *data, size_t size, QByteArray *out, QString *error)
{
    Compactor c(data, size, out);
    return c.run(error);
}

} // namespace md
