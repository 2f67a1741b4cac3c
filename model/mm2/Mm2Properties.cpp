#include "model/mm2/Mm2Properties.h"

#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QRegularExpression>
#include <QSet>
#include <QStringDecoder>

#include <algorithm>
#include <optional>

namespace md {

// ------------------------------------------------------------ properties text

namespace {

bool isPropSpace(QChar c)
{
    return c == QLatin1Char(' ') || c == QLatin1Char('\t') || c == QLatin1Char('\f');
}

QString decodeText(const QByteArray &data)
{
    QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QString text = utf8.decode(data);
    if (!utf8.hasError())
        return text;
    // Not UTF-8: Properties.load(InputStream), which Kafka uses, reads ISO 8859-1.
    return QString::fromLatin1(data);
}

struct LogicalLine {
    QString text;
    int line = 0;
};

// Natural lines joined into logical lines: a line ending in an odd number of
// backslashes continues on the next one, whose leading white space is dropped.
// Comment and blank lines are dropped (a comment never continues).
QList<LogicalLine> logicalLines(const QString &text)
{
    QList<LogicalLine> out;
    // Views into text: the lines are only read, and copied once joined.
    QList<QStringView> natural;
    {
        qsizetype start = 0;
        for (qsizetype i = 0; i < text.size(); ++i) {
            const QChar c = text.at(i);
            if (c == QLatin1Char('\n') || c == QLatin1Char('\r')) {
                natural << QStringView(text).mid(start, i - start);
                if (c == QLatin1Char('\r') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('\n'))
                    ++i;
                start = i + 1;
            }
        }
        if (start < text.size())
            natural << QStringView(text).mid(start);
    }
    for (qsizetype i = 0; i < natural.size(); ++i) {
        const QStringView line = natural.at(i);
        qsizetype first = 0;
        while (first < line.size() && isPropSpace(line.at(first)))
            ++first;
        if (first == line.size())
            continue;
        if (line.at(first) == QLatin1Char('#') || line.at(first) == QLatin1Char('!'))
            continue;
        LogicalLine l;
        l.line = int(i) + 1;
        QString current = line.mid(first).toString();
        for (;;) {
            qsizetype backslashes = 0;
            for (qsizetype j = current.size() - 1; j >= 0 && current.at(j) == QLatin1Char('\\'); --j)
                ++backslashes;
            if (backslashes % 2 == 0 || i + 1 >= natural.size()) {
                if (backslashes % 2 == 1)
                    current.chop(1); // a continuation at the end of the file continues into nothing
                break;
            }
            current.chop(1);
            ++i;
            const QStringView next = natural.at(i);
            qsizetype s = 0;
            while (s < next.size() && isPropSpace(next.at(s)))
                ++s;
            current += next.mid(s);
        }
        l.text = current;
        out << l;
    }
    return out;
}

// Resolves escapes in [from, to) of `s`; false with *error on a malformed \u.
bool unescape(const QString &s, qsizetype from, qsizetype to, QString *out, QString *error)
{
    out->clear();
    const QStringView part = QStringView(s).mid(from, to - from);
    if (!part.contains(QLatin1Char('\\'))) {
        if (!part.isEmpty())
            *out = part.toString(); // nothing to resolve (most keys and values)
        return true;
    }
    out->reserve(to - from);
    for (qsizetype i = from; i < to; ++i) {
        const QChar c = s.at(i);
        if (c != QLatin1Char('\\')) {
            out->append(c);
            continue;
        }
        if (++i >= to)
            break; // a lone trailing backslash is dropped, as Java does
        const QChar e = s.at(i);
        switch (e.unicode()) {
        case 't': out->append(QLatin1Char('\t')); break;
        case 'n': out->append(QLatin1Char('\n')); break;
        case 'r': out->append(QLatin1Char('\r')); break;
        case 'f': out->append(QLatin1Char('\f')); break;
        case 'u': {
            if (to - (i + 1) < 4) {
                *error = QStringLiteral("malformed \\uXXXX escape (needs four hexadecimal digits)");
                return false;
            }
            bool ok = false;
            const uint code = s.mid(i + 1, 4).toUInt(&ok, 16);
            if (!ok || s.mid(i + 1, 4).contains(QLatin1Char('+')) || s.mid(i + 1, 4).contains(QLatin1Char('-'))) {
                *error = QStringLiteral("malformed \\uXXXX escape \"\\u%1\"").arg(s.mid(i + 1, 4));
                return false;
            }
            out->append(QChar(char16_t(code)));
            i += 4;
            break;
        }
        default: out->append(e); break;
        }
    }
    return true;
}

} // namespace

QList<JavaProperty> parseJavaProperties(const QByteArray &data, QList<JavaPropertiesError> *errors)
{
    QList<JavaProperty> out;
    const QString text = decodeText(data);
    for (const LogicalLine &l : logicalLines(text)) {
        const QString &s = l.text;
        // The key ends at the first unescaped '=', ':' or white space.
        qsizetype keyEnd = 0;
        bool escaped = false;
        for (; keyEnd < s.size(); ++keyEnd) {
            const QChar c = s.at(keyEnd);
            if (escaped) {
                escaped = false;
                continue;
            }
            if (c == QLatin1Char('\\')) {
                escaped = true;
                continue;
            }
            if (c == QLatin1Char('=') || c == QLatin1Char(':') || isPropSpace(c))
                break;
        }
        qsizetype valueStart = keyEnd;
        while (valueStart < s.size() && isPropSpace(s.at(valueStart)))
            ++valueStart;
        if (valueStart < s.size() && (s.at(valueStart) == QLatin1Char('=') || s.at(valueStart) == QLatin1Char(':'))) {
            ++valueStart;
            while (valueStart < s.size() && isPropSpace(s.at(valueStart)))
                ++valueStart;
        }
        JavaProperty p;
        p.line = l.line;
        QString error;
        if (!unescape(s, 0, keyEnd, &p.key, &error) || !unescape(s, valueStart, s.size(), &p.value, &error)) {
            if (errors)
                errors->append({l.line, error});
            continue;
        }
        out << p;
    }
    return out;
}

namespace {

QString escapeJava(const QString &s, bool isKey)
{
    QString out;
    out.reserve(s.size() + 8);
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s.at(i);
        switch (c.unicode()) {
        case '\\': out += QStringLiteral("\\\\"); break;
        case '\t': out += QStringLiteral("\\t"); break;
        case '\n': out += QStringLiteral("\\n"); break;
        case '\r': out += QStringLiteral("\\r"); break;
        case '\f': out += QStringLiteral("\\f"); break;
        case '=':
        case ':':
            if (isKey)
                out += QLatin1Char('\\');
            out += c;
            break;
        case '#':
        case '!':
            if (i == 0)
                out += QLatin1Char('\\');
            out += c;
            break;
        case ' ':
            if (isKey || i == 0)
                out += QLatin1Char('\\');
            out += c;
            break;
        default:
            if (c.unicode() < 0x20 || c.unicode() > 0x7e)
                out += QStringLiteral("\\u%1").arg(uint(c.unicode()), 4, 16, QLatin1Char('0'));
            else
                out += c;
        }
    }
    return out;
}

} // namespace

QString escapeJavaPropertyKey(const QString &key)
{
    return escapeJava(key, true);
}

QString escapeJavaPropertyValue(const QString &value)
{
    return escapeJava(value, false);
}

QString Mm2Unmapped::toString() const
{
    return QStringLiteral("line %1: %2: %3").arg(line).arg(key, reason);
}

QString Mm2Flow::fileName() const
{
    // Aliases may hold characters a file name should not.
    auto safe = [](const QString &s) {
        QString r;
        for (const QChar c : s)
            r += (c.isLetterOrNumber() || c == QLatin1Char('.') || c == QLatin1Char('_') || c == QLatin1Char('-'))
                     ? c
                     : QLatin1Char('_');
        return r.isEmpty() ? QStringLiteral("_") : r;
    };
    return safe(sourceAlias) + QStringLiteral("-to-") + safe(targetAlias) + QStringLiteral(".mirrorjob");
}

} // namespace md
