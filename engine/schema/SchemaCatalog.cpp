#include "engine/schema/SchemaCatalog.h"

#include "engine/core/JsonCompact.h"

#include <algorithm>

namespace md {

namespace {

// The registry as a whole is gone or refuses us: asking about the next subject is pointless.
bool endsBatch(const RegistryError &error)
{
    return error.kind == RegistryError::Kind::Unreachable || error.kind == RegistryError::Kind::Tls ||
           error.kind == RegistryError::Kind::Unauthorized;
}

void newline(QByteArray *out, int depth)
{
    out->append('\n');
    out->append(QByteArray(2 * depth, ' '));
}

// `compact` is one JSON value without whitespace between tokens (compactJson's output).
QByteArray indented(const QByteArray &compact)
{
    QByteArray out;
    out.reserve(compact.size() * 2);
    int depth = 0;
    const qsizetype n = compact.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char c = compact[i];
        switch (c) {
        case '"': {
            // Copy the string whole: its braces and commas are text.
            const qsizetype start = i++;
            while (i < n && compact[i] != '"')
                i += compact[i] == '\\' ? 2 : 1;
            out.append(compact.mid(start, i - start + 1));
            break;
        }
        case '{':
        case '[': {
            const char close = c == '{' ? '}' : ']';
            out.append(c);
            if (i + 1 < n && compact[i + 1] == close) {
                out.append(close);
                ++i;
            } else {
                newline(&out, ++depth);
            }
            break;
        }
        case '}':
        case ']':
            newline(&out, --depth);
            out.append(c);
            break;
        case ',':
            out.append(c);
            newline(&out, depth);
            break;
        case ':': out.append(": "); break;
        default: out.append(c);
        }
    }
    return out;
}

} // namespace

SubjectList readSubjectList(SchemaRegistryClient &client)
{
    SubjectList list;
    std::optional<QStringList> subjects = client.subjects(&list.error);
    if (!subjects)
        return list;
    list.subjects = std::move(*subjects);
    std::sort(list.subjects.begin(), list.subjects.end());
    RegistryError ignored; // the list stands without the level; each subject may still have its own
    list.globalCompatibility = client.compatibility(QString(), &ignored).value_or(QString());
    return list;
}

SummaryBatch readSubjectSummaries(SchemaRegistryClient &client, const QStringList &subjects,
                                  const QString &globalCompatibility, const std::atomic<bool> *cancel)
{
    SummaryBatch batch;
    for (const QString &subject : subjects) {
        if (cancel && cancel->load())
            break;
        SubjectSummary s;
        s.subject = subject;
        RegistryError error;
        if (std::optional<QList<int>> versions = client.versions(subject, &error))
            s.versionCount = int(versions->size());
        std::optional<RegistrySchema> latest;
        if (error.ok())
            latest = client.schemaByVersion(subject, -1, &error);
        if (latest) {
            s.latestVersion = latest->version;
            s.latestId = latest->id;
            s.type = latest->type;
        }
        std::optional<QString> own;
        if (error.ok())
            own = client.subjectCompatibility(subject, &error);
        if (own) {
            s.ownCompatibility = !own->isEmpty();
            s.compatibility = s.ownCompatibility ? *own : globalCompatibility;
        }
        if (endsBatch(error)) {
            batch.error = error;
            break;
        }
        s.error = error.message;
        batch.summaries.append(std::move(s));
    }
    return batch;
}

SubjectVersionDetail readSubjectVersion(SchemaRegistryClient &client, const QString &subject, int version,
                                        const std::atomic<bool> *cancel)
{
    SubjectVersionDetail d;
    d.subject = subject;
    d.askedVersion = version;
    const auto cancelled = [&] {
        if (!cancel || !cancel->load())
            return false;
        d.error = {RegistryError::Kind::Other, 0, QStringLiteral("Cancelled.")};
        return true;
    };
    if (cancelled())
        return d;
    std::optional<QList<int>> versions = client.versions(subject, &d.error);
    if (!versions || cancelled())
        return d;
    d.versions = std::move(*versions);
    std::optional<RegistrySchema> schema = client.schemaByVersion(subject, version, &d.error);
    if (!schema || cancelled())
        return d;
    d.schema = std::move(*schema);
    std::optional<QString> own = client.subjectCompatibility(subject, &d.error);
    if (!own)
        return d;
    d.ownCompatibility = !own->isEmpty();
    if (d.ownCompatibility) {
        d.compatibility = *own;
    } else {
        RegistryError ignored; // the schema stands without the level
        d.compatibility = client.compatibility(QString(), &ignored).value_or(QString());
    }
    return d;
}

QString prettySchemaText(const QString &type, const QByteArray &text)
{
    if (type == QLatin1String("PROTOBUF"))
        return QString::fromUtf8(text);
    QByteArray compact;
    QString error;
    if (!compactJson(text.constData(), size_t(text.size()), &compact, &error))
        return QString::fromUtf8(text);
    return QString::fromUtf8(indented(compact));
}

} // namespace md
