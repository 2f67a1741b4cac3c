#include "model/profile/ProfileReferences.h"

namespace md {

namespace profile_detail {

namespace {

bool isKindChar(QChar c, bool first)
{
    const ushort u = c.unicode();
    if (u >= 'a' && u <= 'z')
        return true;
    return !first && ((u >= '0' && u <= '9') || u == '_' || u == '-');
}

} // namespace

QString scanReferences(const QString &text, const std::function<void(const QString &)> &onLiteral,
                       const std::function<void(const SecretRef &)> &onRef)
{
    qsizetype i = 0;
    const qsizetype n = text.size();
    qsizetype literalStart = 0;
    while (i < n) {
        if (text.at(i) == QLatin1Char('$') && i + 2 < n && text.at(i + 1) == QLatin1Char('$') &&
            text.at(i + 2) == QLatin1Char('{')) {
            onLiteral(text.mid(literalStart, i - literalStart));
            onLiteral(QStringLiteral("${"));
            i += 3;
            literalStart = i;
            continue;
        }
        if (text.at(i) == QLatin1Char('$') && i + 1 < n && text.at(i + 1) == QLatin1Char('{')) {
            const qsizetype close = text.indexOf(QLatin1Char('}'), i + 2);
            if (close < 0)
                return QStringLiteral("unterminated reference at character %1 (expected ${kind:argument}; write $${ "
                                      "for a literal ${)")
                    .arg(i + 1);
            const QString body = text.mid(i + 2, close - i - 2);
            const qsizetype colon = body.indexOf(QLatin1Char(':'));
            const QString kind = body.left(colon);
            bool kindOk = colon > 0;
            for (qsizetype k = 0; kindOk && k < kind.size(); ++k)
                kindOk = isKindChar(kind.at(k), k == 0);
            if (!kindOk || colon == body.size() - 1)
                return QStringLiteral("malformed reference \"${%1}\" (expected ${kind:argument}, e.g. ${env:NAME}; "
                                      "write $${ for a literal ${)")
                    .arg(body);
            onLiteral(text.mid(literalStart, i - literalStart));
            onRef(SecretRef{kind, body.mid(colon + 1)});
            i = close + 1;
            literalStart = i;
            continue;
        }
        ++i;
    }
    onLiteral(text.mid(literalStart));
    return {};
}

bool isSecretPropertyName(const QString &key)
{
    const QString k = key.toLower();
    return k.contains(QLatin1String("password")) || k.contains(QLatin1String("secret"));
}

bool isClearText(const QString &value)
{
    if (value.isEmpty())
        return false;
    QString error;
    return SecretRef::findAll(value, &error).isEmpty() && error.isEmpty();
}

} // namespace profile_detail

using profile_detail::scanReferences;

QString SecretRef::toString() const
{
    return QStringLiteral("${") + kind + QLatin1Char(':') + arg + QLatin1Char('}');
}

QList<SecretRef> SecretRef::findAll(const QString &text, QString *error)
{
    QList<SecretRef> refs;
    const QString e = scanReferences(
        text, [](const QString &) {}, [&](const SecretRef &r) { refs.append(r); });
    if (error)
        *error = e;
    return refs;
}

std::optional<SecretRef> SecretRef::whole(const QString &text)
{
    QString error;
    const QList<SecretRef> refs = findAll(text, &error);
    if (!error.isEmpty() || refs.size() != 1 || refs.first().toString() != text)
        return std::nullopt;
    return refs.first();
}

} // namespace md
