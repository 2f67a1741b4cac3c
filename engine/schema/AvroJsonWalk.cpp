// The binary walker: Avro binary -> Avro's JSON encoding, over the compiled
// node table. Every length is checked against the bytes left before it is
// used, nothing is allocated from a length, and nesting is bounded.
#include "engine/schema/AvroDecoderDetail.h"

#include <QByteArray>
#include <QString>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

namespace md {

namespace avro {

void appendJsonStringBody(std::string *out, const char *s, std::size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const auto *p = reinterpret_cast<const unsigned char *>(s);
    const auto *end = p + n;
    while (p < end) {
        const unsigned char *run = p;
        while (p < end && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
            ++p;
        out->append(reinterpret_cast<const char *>(run), size_t(p - run));
        if (p == end)
            break;
        const unsigned char c = *p;
        if (c < 0x80) {
            switch (c) {
            case '"': *out += "\\\""; break;
            case '\\': *out += "\\\\"; break;
            case '\n': *out += "\\n"; break;
            case '\t': *out += "\\t"; break;
            case '\r': *out += "\\r"; break;
            case '\b': *out += "\\b"; break;
            case '\f': *out += "\\f"; break;
            default:
                *out += "\\u00";
                *out += hex[c >> 4];
                *out += hex[c & 15];
            }
            ++p;
            continue;
        }
        // UTF-8: length from the lead byte, then the ranges RFC 3629 allows.
        size_t len = 0;
        unsigned char lo = 0x80, hi = 0xbf;
        if (c >= 0xc2 && c <= 0xdf)
            len = 2;
        else if (c >= 0xe0 && c <= 0xef)
            len = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
        else if (c >= 0xf0 && c <= 0xf4)
            len = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
        bool ok = len > 0 && size_t(end - p) >= len && p[1] >= lo && p[1] <= hi;
        for (size_t i = 2; ok && i < len; ++i)
            ok = p[i] >= 0x80 && p[i] <= 0xbf;
        if (ok) {
            out->append(reinterpret_cast<const char *>(p), len);
            p += len;
        } else {
            *out += "\\ufffd";
            ++p;
        }
    }
}

} // namespace avro

namespace {

using avro::Kind;
using avro::Node;

constexpr int kMaxDepth = 500;
// Output allowed for items that take no input (arrays of null ...).
constexpr size_t kZeroSizeBudget = size_t(4) << 20;

struct Walk {
    const std::vector<Node> &nodes;
    const unsigned char *begin;
    const unsigned char *p;
    const unsigned char *end;
    std::string out;
    int depth = 0;
    size_t zeroBudget = kZeroSizeBudget;
    QString error;
    std::vector<std::string> path; // innermost first, filled while unwinding

    size_t left() const { return size_t(end - p); }
    qint64 offset() const { return qint64(p - begin); }

    bool fail(const QString &why)
    {
        error = why;
        return false;
    }
    bool truncated() { return fail(QStringLiteral("truncated at byte %1").arg(offset())); }

    bool readLong(std::int64_t *v)
    {
        std::uint64_t r = 0;
        const unsigned char *q = p;
        for (int i = 0; i < 10; ++i) {
            if (q == end)
                return truncated();
            const unsigned char b = *q++;
            if (i == 9 && b > 1)
                return fail(QStringLiteral("varint out of range at byte %1").arg(offset()));
            r |= std::uint64_t(b & 0x7f) << (7 * i);
            if (!(b & 0x80)) {
                p = q;
                *v = std::int64_t(r >> 1) ^ -std::int64_t(r & 1);
                return true;
            }
        }
        return fail(QStringLiteral("varint longer than 10 bytes at byte %1").arg(offset()));
    }

    void putInt(std::int64_t v)
    {
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        out.append(buf, size_t(r.ptr - buf));
    }

    template <typename F> void putFloat(F v)
    {
        if (std::isnan(v)) {
            out += "\"NaN\"";
        } else if (std::isinf(v)) {
            out += v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
        } else {
            char buf[40];
            const auto r = std::to_chars(buf, buf + sizeof buf, v);
            out.append(buf, size_t(r.ptr - buf));
            // 39 -> 39.0, as Avro's Java encoder prints a double.
            if (std::find_if(buf, r.ptr, [](char c) { return c == '.' || c == 'e'; }) == r.ptr)
                out += ".0";
        }
    }

    // A length (bytes, string) that fits in what is left.
    bool readLength(std::int64_t *n)
    {
        const qint64 at = offset();
        if (!readLong(n))
            return false;
        if (*n < 0)
            return fail(QStringLiteral("negative length %1 at byte %2").arg(*n).arg(at));
        if (std::uint64_t(*n) > left())
            return fail(
                QStringLiteral("length %1 at byte %2 is more than the %3 bytes left").arg(*n).arg(at).arg(left()));
        return true;
    }

    void putBytes(const unsigned char *s, size_t n)
    {
        static const char hex[] = "0123456789abcdef";
        out += '"';
        for (size_t i = 0; i < n; ++i) {
            const unsigned char c = s[i];
            if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
                out += char(c);
            } else {
                const char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
                out.append(e, 6);
            }
        }
        out += '"';
    }

    // The count of the next block of an array or map (0: the end).
    bool readBlock(std::int64_t *count, const Node &item, bool map)
    {
        const qint64 at = offset();
        if (!readLong(count))
            return false;
        if (*count < 0) {
            if (*count == INT64_MIN)
                return fail(QStringLiteral("bad block count at byte %1").arg(at));
            *count = -*count;
            std::int64_t bytes = 0; // the block's size in bytes, not needed
            if (!readLength(&bytes))
                return false;
        }
        if (!map && item.zeroSize) {
            const std::uint64_t cost = std::uint64_t(*count) * (item.zeroJson + 1);
            if (std::uint64_t(*count) > zeroBudget || cost > zeroBudget)
                return fail(QStringLiteral("%1 items of size 0 at byte %2 are too many").arg(*count).arg(at));
            zeroBudget -= size_t(cost);
        } else if (std::uint64_t(*count) > left()) {
            return fail(QStringLiteral("block count %1 at byte %2 is more than the %3 bytes left")
                            .arg(*count)
                            .arg(at)
                            .arg(left()));
        }
        return true;
    }

    bool value(int index)
    {
        const Node &n = nodes[size_t(index)];
        switch (n.kind) {
        case Kind::Null: out += "null"; return true;
        case Kind::Boolean:
            if (p == end)
                return truncated();
            if (*p > 1)
                return fail(QStringLiteral("bad boolean %1 at byte %2").arg(int(*p)).arg(offset()));
            out += *p++ ? "true" : "false";
            return true;
        case Kind::Int:
        case Kind::Long: {
            const qint64 at = offset();
            std::int64_t v = 0;
            if (!readLong(&v))
                return false;
            if (n.kind == Kind::Int && (v < INT32_MIN || v > INT32_MAX))
                return fail(QStringLiteral("int out of range at byte %1").arg(at));
            putInt(v);
            return true;
        }
        case Kind::Float: {
            if (left() < 4)
                return truncated();
            std::uint32_t u =
                std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
            p += 4;
            float f;
            std::memcpy(&f, &u, 4);
            putFloat(f);
            return true;
        }
        case Kind::Double: {
            if (left() < 8)
                return truncated();
            std::uint64_t u = 0;
            for (int i = 7; i >= 0; --i)
                u = u << 8 | p[i];
            p += 8;
            double dv;
            std::memcpy(&dv, &u, 8);
            putFloat(dv);
            return true;
        }
        case Kind::Bytes:
        case Kind::String: {
            std::int64_t len = 0;
            if (!readLength(&len))
                return false;
            if (n.kind == Kind::Bytes) {
                putBytes(p, size_t(len));
            } else {
                out += '"';
                avro::appendJsonStringBody(&out, reinterpret_cast<const char *>(p), size_t(len));
                out += '"';
            }
            p += len;
            return true;
        }
        case Kind::Fixed:
            if (std::uint64_t(n.fixedSize) > left())
                return truncated();
            putBytes(p, size_t(n.fixedSize));
            p += n.fixedSize;
            return true;
        case Kind::Enum: {
            const qint64 at = offset();
            std::int64_t v = 0;
            if (!readLong(&v))
                return false;
            if (v < 0 || std::uint64_t(v) >= n.labels.size())
                return fail(
                    QStringLiteral("bad enum index %1 at byte %2 (%3 symbols)").arg(v).arg(at).arg(n.labels.size()));
            out += n.labels[size_t(v)];
            return true;
        }
        default: break;
        }
        if (++depth > kMaxDepth)
            return fail(QStringLiteral("nested deeper than %1 levels").arg(kMaxDepth));
        const bool ok = nested(n);
        --depth;
        return ok;
    }

    bool nested(const Node &n)
    {
        switch (n.kind) {
        case Kind::Record:
            if (n.children.empty()) {
                out += "{}";
                return true;
            }
            for (size_t f = 0; f < n.children.size(); ++f) {
                out += n.labels[f];
                if (!value(n.children[f])) {
                    path.push_back(n.names[f]);
                    return false;
                }
            }
            out += '}';
            return true;
        case Kind::Union: {
            const qint64 at = offset();
            std::int64_t b = 0;
            if (!readLong(&b))
                return false;
            if (b < 0 || std::uint64_t(b) >= n.children.size())
                return fail(QStringLiteral("bad union index %1 at byte %2 (%3 branches)")
                                .arg(b)
                                .arg(at)
                                .arg(n.children.size()));
            const int c = n.children[size_t(b)];
            if (nodes[size_t(c)].kind == Kind::Null) {
                out += "null";
                return true;
            }
            out += n.labels[size_t(b)];
            if (!value(c))
                return false;
            out += '}';
            return true;
        }
        case Kind::Array:
        case Kind::Map: {
            const bool map = n.kind == Kind::Map;
            const Node &item = nodes[size_t(n.children[0])];
            out += map ? '{' : '[';
            std::int64_t i = 0;
            for (;;) {
                std::int64_t count = 0;
                if (!readBlock(&count, item, map))
                    return false;
                if (count == 0)
                    break;
                for (std::int64_t k = 0; k < count; ++k, ++i) {
                    if (i > 0)
                        out += ',';
                    if (map) {
                        std::int64_t len = 0;
                        if (!readLength(&len))
                            return false;
                        out += '"';
                        avro::appendJsonStringBody(&out, reinterpret_cast<const char *>(p), size_t(len));
                        out += "\":";
                        p += len;
                    }
                    if (!value(n.children[0])) {
                        path.push_back('[' + std::to_string(i) + ']');
                        return false;
                    }
                }
            }
            out += map ? '}' : ']';
            return true;
        }
        default: return false;
        }
    }
};

} // namespace

bool avroWalk(const std::vector<Node> &nodes, const char *data, size_t size, QByteArray *json, QString *error)
{
    const auto *b = reinterpret_cast<const unsigned char *>(data);
    Walk w{nodes, b, b, b + size, {}, 0, kZeroSizeBudget, {}, {}};
    w.out.reserve(size * 2 + 64);
    bool ok = w.value(0);
    if (ok && w.p != w.end) {
        ok = false;
        w.error = QStringLiteral("%1 bytes left after the record").arg(qint64(w.end - w.p));
    }
    if (!ok) {
        json->clear();
        QString where;
        for (auto it = w.path.rbegin(); it != w.path.rend(); ++it) {
            if (!where.isEmpty() && (*it)[0] != '[')
                where += QLatin1Char('.');
            where += QString::fromStdString(*it);
        }
        *error = where.isEmpty() ? w.error : w.error + QStringLiteral(" (in ") + where + QLatin1Char(')');
        return false;
    }
    *json = QByteArray(w.out.data(), qsizetype(w.out.size()));
    return true;
}

} // namespace md
