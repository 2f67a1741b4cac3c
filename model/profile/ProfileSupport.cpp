#include "model/profile/ProfileSupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QVarLengthArray>

#include <algorithm>
#include <cstdlib>

namespace md::profile_detail {

TextPosition textPosition(const QByteArray &utf8, qsizetype offset)
{
    TextPosition pos;
    const qsizetype end = std::clamp<qsizetype>(offset, 0, utf8.size());
    for (qsizetype i = 0; i < end; ++i) {
        const uchar c = uchar(utf8.at(i));
        if (c == '\n') {
            ++pos.line;
            pos.column = 1;
        } else if ((c & 0xC0) != 0x80) {
            // Continuation bytes belong to the character already counted.
            ++pos.column;
        }
    }
    return pos;
}

qsizetype invalidUtf8Offset(const QByteArray &data)
{
    const qsizetype n = data.size();
    qsizetype i = 0;
    while (i < n) {
        const uchar c = uchar(data.at(i));
        if (c < 0x80) {
            ++i;
            continue;
        }
        int len = 0;
        uint cp = 0;
        uint min = 0;
        if ((c & 0xE0) == 0xC0) {
            len = 2;
            cp = c & 0x1F;
            min = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3;
            cp = c & 0x0F;
            min = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4;
            cp = c & 0x07;
            min = 0x10000;
        } else {
            return i;
        }
        if (i + len > n)
            return i;
        for (int k = 1; k < len; ++k) {
            const uchar cc = uchar(data.at(i + k));
            if ((cc & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (cc & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return i;
        i += len;
    }
    return -1;
}

qsizetype firstNonSpace(const QByteArray &data)
{
    for (qsizetype i = 0; i < data.size(); ++i) {
        const char c = data.at(i);
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
            return i;
    }
    return data.size();
}

namespace {

// The keys of one object so far: a short list searched in order (no hash
// table for each of the many small objects), a set once it grows.
class SeenKeys final {
public:
    // True when key was seen before; remembers it.
    bool check(const QString &key)
    {
        if (m_many.isEmpty()) {
            if (std::find(m_few.cbegin(), m_few.cend(), key) != m_few.cend())
                return true;
            if (m_few.size() < 32) {
                m_few.append(key);
                return false;
            }
            for (const QString &k : std::as_const(m_few))
                m_many.insert(k);
        }
        if (m_many.contains(key))
            return true;
        m_many.insert(key);
        return false;
    }

private:
    QVarLengthArray<QString, 16> m_few;
    QSet<QString> m_many;
};

// A small reader over JSON text that Qt accepted; it only tracks positions,
// and stops quietly at anything it does not expect.
class PositionScanner final {
public:
    explicit PositionScanner(const QByteArray &d) : m_d(d) {}

    KeyPositions run()
    {
        skipSpace();
        value(QString(), 0);
        return std::move(m_out);
    }

private:
    bool atEnd() const { return m_i >= m_d.size(); }
    char peek() const { return atEnd() ? '\0' : m_d.at(m_i); }
    void advance()
    {
        const uchar c = uchar(m_d.at(m_i++));
        if (c == '\n') {
            ++m_pos.line;
            m_pos.column = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++m_pos.column;
        }
    }
    void skipSpace()
    {
        while (m_i < m_d.size()) {
            const char c = m_d.at(m_i);
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
                return;
            advance();
        }
    }
    bool string(QString *out)
    {
        if (peek() != '"')
            return false;
        const qsizetype start = m_i;
        advance();
        while (m_i < m_d.size()) {
            const char c = m_d.at(m_i);
            if (c == '"')
                break;
            advance();
            if (c == '\\' && m_i < m_d.size())
                advance(); // the escaped character
        }
        if (atEnd())
            return false;
        advance();
        if (out) {
            // A key of printable ASCII without escapes is its own text (nearly
            // every key); Qt decodes the others' escapes and UTF-8.
            const QByteArrayView inner(m_d.constData() + start + 1, m_i - start - 2);
            const bool plain =
                std::all_of(inner.begin(), inner.end(), [](char c) { return c >= 0x20 && c < 0x7f && c != '\\'; });
            if (plain) {
                *out = QString::fromLatin1(inner);
            } else {
                const QByteArray raw = "[" + m_d.mid(start, m_i - start) + "]";
                *out = QJsonDocument::fromJson(raw).array().at(0).toString();
            }
        }
        return true;
    }
    bool value(const QString &path, int depth)
    {
        if (depth > 200 || atEnd())
            return false;
        m_out.values.insert(path, m_pos); // "" is the top-level object
        const char c = peek();
        if (c == '{') {
            advance();
            SeenKeys seen;
            skipSpace();
            if (peek() == '}') {
                advance();
                return true;
            }
            while (!atEnd()) {
                skipSpace();
                const TextPosition keyPos = m_pos;
                QString key;
                if (!string(&key))
                    return false;
                const QString child = path.isEmpty() ? key : path + QLatin1Char('.') + key;
                if (seen.check(key))
                    m_out.duplicates.append({child, keyPos});
                skipSpace();
                if (peek() != ':')
                    return false;
                advance();
                skipSpace();
                // A repeated key overwrites the position, as Qt keeps the last value.
                if (!value(child, depth + 1))
                    return false;
                skipSpace();
                if (peek() == ',') {
                    advance();
                    continue;
                }
                if (peek() == '}') {
                    advance();
                    return true;
                }
                return false;
            }
            return false;
        }
        if (c == '[') {
            advance();
            skipSpace();
            if (peek() == ']') {
                advance();
                return true;
            }
            for (qsizetype index = 0; !atEnd(); ++index) {
                skipSpace();
                if (!value(path + QLatin1Char('[') + QString::number(index) + QLatin1Char(']'), depth + 1))
                    return false;
                skipSpace();
                if (peek() == ',') {
                    advance();
                    continue;
                }
                if (peek() == ']') {
                    advance();
                    return true;
                }
                return false;
            }
            return false;
        }
        if (c == '"')
            return string(nullptr);
        // A number, true, false or null: up to the next delimiter.
        while (!atEnd() && peek() != ',' && peek() != '}' && peek() != ']' && peek() != ' ' && peek() != '\n' &&
               peek() != '\r' && peek() != '\t')
            advance();
        return true;
    }

    const QByteArray &m_d;
    qsizetype m_i = 0;
    TextPosition m_pos;
    KeyPositions m_out;
};

} // namespace

KeyPositions scanKeyPositions(const QByteArray &utf8)
{
    return PositionScanner(utf8).run();
}

TextPosition KeyPositions::find(const QString &issuePath) const
{
    // path["client.rack"] -> path.client.rack
    static const QRegularExpression mapKey(QStringLiteral("\\[\"((?:[^\"\\\\]|\\\\.)*)\"\\]"));
    QString path = issuePath;
    if (path.contains(QLatin1String("[\""))) // the expression needs one; most paths have none
        path.replace(mapKey, QStringLiteral(".\\1"));
    while (!path.isEmpty()) {
        const auto it = values.constFind(path);
        if (it != values.constEnd())
            return *it;
        const qsizetype cut = std::max(path.lastIndexOf(QLatin1Char('.')), path.lastIndexOf(QLatin1Char('[')));
        if (cut <= 0)
            break;
        path.truncate(cut);
    }
    return values.value(QString(), TextPosition{0, 0});
}

QString jsonTypeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return QStringLiteral("a boolean");
    case QJsonValue::Double: return QStringLiteral("a number");
    case QJsonValue::String: return QStringLiteral("a string");
    case QJsonValue::Array: return QStringLiteral("an array");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::Undefined: break;
    }
    return QStringLiteral("nothing");
}

QString joinPath(const QString &path, const QString &key)
{
    return path.isEmpty() ? key : path + QLatin1Char('.') + key;
}

QString indexPath(const QString &path, qsizetype index)
{
    return path + QLatin1Char('[') + QString::number(index) + QLatin1Char(']');
}

QString mapKeyPath(const QString &path, const QString &key)
{
    return path + QStringLiteral("[\"") + key + QStringLiteral("\"]");
}

namespace {

// Each UTF-16 unit through QChar::toLower, as the distance compares them;
// on the stack for the short keys it is asked about.
using Lowered = QVarLengthArray<char16_t, 72>;

Lowered lowered(const QString &s)
{
    Lowered out(s.size());
    for (qsizetype i = 0; i < s.size(); ++i)
        out[i] = s.at(i).toLower().unicode();
    return out;
}

// The edit distance of a and b (case-insensitive), or `limit` when it is
// `limit` or more: a distance is at least the length difference and at least
// the smallest cell of any row, so such a pair stops early.
int editDistance(const Lowered &a, const Lowered &b, int limit)
{
    if (std::abs(a.size() - b.size()) >= limit)
        return limit;
    QVarLengthArray<int, 72> rows(2 * (b.size() + 1));
    int *prev = rows.data();
    int *cur = prev + b.size() + 1;
    for (qsizetype j = 0; j <= b.size(); ++j)
        prev[j] = int(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        cur[0] = int(i);
        int rowMin = cur[0];
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int subst = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst});
            rowMin = std::min(rowMin, cur[j]);
        }
        if (rowMin >= limit)
            return limit;
        std::swap(prev, cur);
    }
    return std::min(prev[b.size()], limit);
}

} // namespace

QString closestKey(const QString &key, const QStringList &known)
{
    if (key.size() > 64)
        return {};
    const Lowered a = lowered(key);
    QString best;
    int bestDistance = 3;
    for (const QString &k : known) {
        const int d = editDistance(a, lowered(k), bestDistance);
        if (d < bestDistance) {
            bestDistance = d;
            best = k;
        }
    }
    return best;
}

bool parseTimestamp(const QJsonValue &v, QDateTime *out, QString *error)
{
    if (!v.isString()) {
        *error =
            QStringLiteral("expected an ISO 8601 date and time with a time zone (\"2026-11-01T00:00:00Z\"), found %1")
                .arg(jsonTypeName(v));
        return false;
    }
    const QString s = v.toString().trimmed();
    // Qt reads a missing zone as local time; require one (Z or +hh:mm / -hh:mm).
    static const QRegularExpression zone(QStringLiteral("(Z|[+-]\\d\\d(:?\\d\\d)?)$"),
                                         QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression shape(QStringLiteral("^\\d{4}-\\d\\d-\\d\\d[T ]\\d\\d:\\d\\d"));
    const QDateTime t = QDateTime::fromString(s, Qt::ISODateWithMs);
    if (!shape.match(s).hasMatch() || !t.isValid()) {
        *error =
            QStringLiteral("\"%1\" is not an ISO 8601 date and time (expected e.g. \"2026-11-01T00:00:00Z\")").arg(s);
        return false;
    }
    if (!zone.match(s).hasMatch()) {
        *error = QStringLiteral("\"%1\" has no time zone (add Z for UTC or an offset such as +01:00)").arg(s);
        return false;
    }
    *out = t.toUTC();
    return true;
}

QString formatTimestamp(const QDateTime &t)
{
    const QDateTime u = t.toUTC();
    return u.time().msec() ? u.toString(Qt::ISODateWithMs) : u.toString(Qt::ISODate);
}

bool isLegalTopicText(const QString &s)
{
    for (const QChar c : s) {
        const ushort u = c.unicode();
        const bool ok = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '.' ||
                        u == '_' || u == '-';
        if (!ok)
            return false;
    }
    return true;
}

} // namespace md::profile_detail
