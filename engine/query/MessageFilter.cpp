#include "engine/query/MessageFilter.h"

#include <algorithm>

namespace md {

namespace {

bool isAscii(const QByteArray &s)
{
    return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

char asciiLower(char c)
{
    return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}

// Case-insensitive search of an ASCII needle (already lower case) in UTF-8
// bytes: folding ASCII letters only is exact, as no byte of a multi-byte UTF-8
// sequence is ASCII.
bool containsFolded(std::string_view hay, const QByteArray &needle)
{
    const qsizetype n = needle.size();
    if (n == 0)
        return true;
    if (qsizetype(hay.size()) < n)
        return false;
    const char first = needle.at(0);
    const char firstUpper = first >= 'a' && first <= 'z' ? char(first - 'a' + 'A') : first;
    const char *p = hay.data();
    const char *const last = hay.data() + hay.size() - n;
    for (; p <= last; ++p) {
        if (*p != first && *p != firstUpper)
            continue;
        qsizetype i = 1;
        while (i < n && asciiLower(p[i]) == needle.at(i))
            ++i;
        if (i == n)
            return true;
    }
    return false;
}

QString fieldName(const FilterCondition &c)
{
    switch (c.field) {
    case FilterCondition::Field::Key: return QStringLiteral("key");
    case FilterCondition::Field::Value: return QStringLiteral("value");
    case FilterCondition::Field::Header: return QStringLiteral("header \"%1\"").arg(c.header);
    }
    return {};
}

} // namespace

std::optional<CompiledFilter> CompiledFilter::compile(const MessageFilter &filter, QString *error)
{
    CompiledFilter out;
    out.m_fromMs = filter.fromMs;
    out.m_toMs = filter.toMs;
    if (filter.fromMs >= 0 && filter.toMs >= 0 && filter.toMs < filter.fromMs) {
        *error = QStringLiteral("the time range ends before it starts");
        return std::nullopt;
    }
    int index = 0;
    for (const FilterCondition &c : filter.conditions) {
        ++index;
        const QString where = filter.conditions.size() > 1
                                  ? QStringLiteral("condition %1 (%2)").arg(index).arg(fieldName(c))
                                  : QStringLiteral("the %1 condition").arg(fieldName(c));
        Compiled k;
        k.field = c.field;
        k.match = c.match;
        if (c.field == FilterCondition::Field::Header) {
            if (c.header.isEmpty()) {
                *error = QStringLiteral("condition %1: name the header to search").arg(index);
                return std::nullopt;
            }
            k.header = c.header.toUtf8();
            out.m_needsHeaders = true;
        }
        out.m_usesKey = out.m_usesKey || c.field == FilterCondition::Field::Key;
        out.m_usesValue = out.m_usesValue || c.field == FilterCondition::Field::Value;
        switch (c.match) {
        case FilterCondition::Match::Contains:
            k.needle = c.text.toUtf8();
            if (!c.caseSensitive) {
                if (isAscii(k.needle)) {
                    k.needle = k.needle.toLower();
                    k.asciiFold = true;
                } else {
                    k.textNeedle = c.text;
                }
            }
            break;
        case FilterCondition::Match::Regex:
            k.regex = QRegularExpression(c.text, c.caseSensitive ? QRegularExpression::NoPatternOption
                                                                 : QRegularExpression::CaseInsensitiveOption);
            if (!k.regex.isValid()) {
                *error = QStringLiteral("%1: invalid regular expression: %2 at column %3")
                             .arg(where, k.regex.errorString())
                             .arg(k.regex.patternErrorOffset() + 1);
                return std::nullopt;
            }
            k.regex.optimize();
            break;
        case FilterCondition::Match::JsonPath: {
            QString why;
            k.json = JsonPredicate::parse(c.text, &why);
            if (!k.json) {
                *error = QStringLiteral("%1: JSON path: %2").arg(where, why);
                return std::nullopt;
            }
            break;
        }
        }
        out.m_conditions.append(std::move(k));
    }
    return out;
}

bool CompiledFilter::test(const Compiled &c, std::string_view data, bool *notJson) const
{
    switch (c.match) {
    case FilterCondition::Match::Contains:
        if (!c.textNeedle.isEmpty())
            return QString::fromUtf8(data.data(), qsizetype(data.size())).contains(c.textNeedle, Qt::CaseInsensitive);
        if (c.asciiFold)
            return containsFolded(data, c.needle);
        return data.find(std::string_view(c.needle.constData(), size_t(c.needle.size()))) != std::string_view::npos;
    case FilterCondition::Match::Regex:
        return c.regex.match(QString::fromUtf8(data.data(), qsizetype(data.size()))).hasMatch();
    case FilterCondition::Match::JsonPath:
        switch (c.json->evaluate(data)) {
        case JsonPredicate::Outcome::Match: return true;
        case JsonPredicate::Outcome::NoMatch: return false;
        case JsonPredicate::Outcome::NotJson:
            if (notJson)
                *notJson = true;
            return false;
        }
    }
    return false;
}

bool CompiledFilter::matches(const RecordView &record, bool *notJson) const
{
    if (m_fromMs >= 0 && record.timestampMs < m_fromMs)
        return false;
    if (m_toMs >= 0 && record.timestampMs > m_toMs)
        return false;
    for (const Compiled &c : m_conditions) {
        bool ok = false;
        switch (c.field) {
        case FilterCondition::Field::Key: ok = !record.keyNull && test(c, record.key, notJson); break;
        case FilterCondition::Field::Value: ok = !record.valueNull && test(c, record.value, notJson); break;
        case FilterCondition::Field::Header:
            for (int i = 0; i < record.headerCount && !ok; ++i) {
                const RecordView::Header &h = record.headers[i];
                ok = !h.null && h.name == std::string_view(c.header.constData(), size_t(c.header.size())) &&
                     test(c, h.value, notJson);
            }
            break;
        }
        if (!ok)
            return false;
    }
    return true;
}

} // namespace md
