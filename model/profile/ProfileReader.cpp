#include "model/profile/ProfileReader.h"

#include "model/profile/ProfileSchema.h"
#include "model/profile/ProfileSupport.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <initializer_list>

namespace md::profile_detail {

namespace schema = profile_schema;

namespace {

// The read a key gets must be the one its table entry says: a parser that
// reads a key as another type than the table (and the doc) is a bug, found
// by any test that reads the key.
const schema::Field &typed(const QString &path, std::initializer_list<schema::Type> types)
{
    const schema::Field &f = schema::field(path);
    if (std::find(types.begin(), types.end(), f.type) == types.end())
        qFatal("profile key %s is read as another type than its schema entry has", qPrintable(path));
    return f;
}

} // namespace

void ProfileReader::error(const QString &path, const QString &message)
{
    m_errorPaths.insert(path);
    add(ProfileIssue::Severity::Error, path, message);
}

void ProfileReader::warn(const QString &path, const QString &message)
{
    add(ProfileIssue::Severity::Warning, path, message);
}

bool ProfileReader::hadErrorAt(const QString &path) const
{
    // An error at "source" also covers "source.bootstrap": look up every
    // enclosing path (a set lookup each, so thousands of issues stay fast).
    QString p = path;
    while (!p.isEmpty()) {
        if (m_errorPaths.contains(p))
            return true;
        const qsizetype cut = std::max(p.lastIndexOf(QLatin1Char('.')), p.lastIndexOf(QLatin1Char('[')));
        if (cut <= 0)
            break;
        p.truncate(cut);
    }
    return false;
}

void ProfileReader::syntaxError(const QByteArray &data, qsizetype offset, const QString &message)
{
    const TextPosition pos = textPosition(data, offset);
    ProfileIssue i;
    i.severity = ProfileIssue::Severity::Error;
    i.file = m_fileName;
    i.line = pos.line;
    i.column = pos.column;
    i.message = message;
    m_issues->append(i);
}

void ProfileReader::fileError(const QString &message)
{
    ProfileIssue i;
    i.severity = ProfileIssue::Severity::Error;
    i.file = m_fileName;
    i.message = message;
    m_issues->append(i);
}

void ProfileReader::wrongType(const QString &path, const QJsonValue &v)
{
    error(path, QStringLiteral("expected %1, found %2").arg(schema::expectation(schema::field(path)), jsonTypeName(v)));
}

bool ProfileReader::present(const QJsonObject &o, const QString &path)
{
    const QString key = path.mid(path.lastIndexOf(QLatin1Char('.')) + 1);
    if (o.contains(key))
        return true;
    const schema::Field &f = schema::field(path);
    if (f.required)
        error(path, QStringLiteral("missing required key: %1").arg(schema::text(f.help)));
    return false;
}

bool ProfileReader::value(const QJsonObject &o, const QString &path, QJsonValue *out)
{
    if (!present(o, path))
        return false;
    *out = o.value(path.mid(path.lastIndexOf(QLatin1Char('.')) + 1));
    return true;
}

bool ProfileReader::string(const QJsonObject &o, const QString &path, QString *out)
{
    typed(path, {schema::Type::String, schema::Type::Keyword});
    QJsonValue v;
    if (!value(o, path, &v))
        return false;
    if (!v.isString()) {
        wrongType(path, v);
        return false;
    }
    *out = v.toString();
    return true;
}

bool ProfileReader::boolean(const QJsonObject &o, const QString &path, bool *out)
{
    typed(path, {schema::Type::Boolean});
    QJsonValue v;
    if (!value(o, path, &v))
        return false;
    if (!v.isBool()) {
        wrongType(path, v);
        return false;
    }
    *out = v.toBool();
    return true;
}

bool ProfileReader::integer(const QJsonValue &v, const QString &path, qint64 *out)
{
    const schema::Field &f = typed(path, {schema::Type::Integer});
    if (!v.isDouble()) {
        wrongType(path, v);
        return false;
    }
    // JSON numbers are doubles, so 1.5 and 1e300 are refused here.
    const double d = v.toDouble();
    if (!std::isfinite(d) || d != std::floor(d)) {
        error(path, QStringLiteral("expected a whole number, found %1").arg(d));
        return false;
    }
    if (const QString problem = schema::outOfRange(f, d); !problem.isEmpty()) {
        error(path, problem);
        return false;
    }
    *out = qint64(d);
    return true;
}

bool ProfileReader::integer(const QJsonObject &o, const QString &path, qint64 *out)
{
    QJsonValue v;
    return value(o, path, &v) && integer(v, path, out);
}

bool ProfileReader::object(const QJsonObject &o, const QString &path, QJsonObject *out)
{
    typed(path, {schema::Type::Object, schema::Type::PropertyMap});
    QJsonValue v;
    if (!value(o, path, &v))
        return false;
    if (!v.isObject()) {
        wrongType(path, v);
        return false;
    }
    *out = v.toObject();
    return true;
}

bool ProfileReader::stringList(const QJsonObject &o, const QString &path, QStringList *out)
{
    typed(path, {schema::Type::StringList});
    QJsonValue v;
    if (!value(o, path, &v))
        return false;
    QStringList list;
    if (v.isString()) {
        // A single pattern written without brackets is what was meant.
        list.append(v.toString());
    } else if (v.isArray()) {
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (!a.at(i).isString()) {
                error(indexPath(path, i), QStringLiteral("expected a string, found %1").arg(jsonTypeName(a.at(i))));
                list.append(QString()); // keeps later indexes in validate()'s key paths right
                continue;
            }
            list.append(a.at(i).toString());
        }
    } else {
        wrongType(path, v);
        return false;
    }
    *out = list;
    return true;
}

bool ProfileReader::keywordValue(const QString &value, const QString &path, const QString &at)
{
    const schema::Field &f = typed(path, {schema::Type::Keyword, schema::Type::Choice});
    const QStringList allowed = schema::allowedValues(f);
    if (allowed.contains(value, f.anyCase ? Qt::CaseInsensitive : Qt::CaseSensitive))
        return true;
    // A Choice's object forms are alternatives too: { "timestamp": ... }.
    QStringList forms = allowed;
    if (f.type == schema::Type::Choice) {
        for (const QString &k : schema::childKeys(path))
            forms.append(QStringLiteral("{ \"%1\": ... }").arg(k));
    }
    error(at.isEmpty() ? path : at, QStringLiteral("unknown %1 \"%2\" (expected %3)")
                                        .arg(schema::text(f.noun), value, schema::alternatives(forms)));
    return false;
}

bool ProfileReader::keyword(const QJsonObject &o, const QString &path, QString *out)
{
    QString s;
    if (!string(o, path, &s) || !keywordValue(s, path))
        return false;
    *out = s;
    return true;
}

void ProfileReader::propertyMap(const QJsonObject &o, const QString &path, QMap<QString, QString> *out)
{
    QJsonObject m;
    if (!object(o, path, &m))
        return;
    // librdkafka takes every property as a string; numbers and booleans are converted.
    for (auto it = m.begin(); it != m.end(); ++it) {
        const QString p = mapKeyPath(path, it.key());
        if (it.key().trimmed().isEmpty()) {
            error(p, QStringLiteral("empty property name"));
            continue;
        }
        const QJsonValue v = it.value();
        if (v.isString()) {
            out->insert(it.key(), v.toString());
        } else if (v.isBool()) {
            out->insert(it.key(), v.toBool() ? QStringLiteral("true") : QStringLiteral("false"));
        } else if (v.isDouble()) {
            const double d = v.toDouble();
            if (d == std::floor(d) && std::fabs(d) < 9.0e15)
                out->insert(it.key(), QString::number(qint64(d)));
            else
                out->insert(it.key(), QString::number(d, 'g', 17));
        } else {
            error(p, QStringLiteral("expected a string, number or boolean, found %1").arg(jsonTypeName(v)));
        }
    }
}

void ProfileReader::timestamp(const QJsonValue &v, const QString &path, QDateTime *out)
{
    typed(path, {schema::Type::Timestamp});
    QString why;
    if (!parseTimestamp(v, out, &why))
        error(path, why);
}

void ProfileReader::unknownKeys(const QJsonObject &o, const QString &path, QJsonObject *keep)
{
    const QStringList known = schema::childKeys(path);
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (known.contains(it.key()))
            continue;
        QString message = QStringLiteral("unknown key, ignored");
        const QString close = closestKey(it.key(), known);
        if (!close.isEmpty())
            message += QStringLiteral(" (did you mean \"%1\"?)").arg(close);
        warn(joinPath(path, it.key()), message);
        if (keep)
            keep->insert(it.key(), it.value());
    }
}

void ProfileReader::appendValidation(const JobProfile &p)
{
    for (const ProfileIssue &i : p.validate()) {
        if (i.isError() && !i.keyPath.isEmpty() && hadErrorAt(i.keyPath))
            continue;
        // An unreadable naming policy falls back to prefix: do not then ask for prefix's alias.
        if (i.isError() && i.keyPath == QLatin1String("source.alias") && hadErrorAt(QStringLiteral("naming")))
            continue;
        m_issues->append(i);
    }
}

void ProfileReader::add(ProfileIssue::Severity s, const QString &path, const QString &message)
{
    ProfileIssue i;
    i.severity = s;
    i.file = m_fileName;
    i.keyPath = path;
    i.message = message;
    m_issues->append(i);
}

} // namespace md::profile_detail
