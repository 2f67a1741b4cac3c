#include "engine/schema/SchemaDecodingDetail.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QPair>
#include <QStringList>

namespace md::schemadecoding {

namespace {

QString refLabel(const SchemaReference &r)
{
    return QStringLiteral("reference \"%1\" (subject %2, version %3)")
        .arg(r.name, r.subject, r.version < 0 ? QStringLiteral("latest") : QString::number(r.version));
}

// Walks a schema's references depth first, fetching each (subject, version)
// once, and lists them so that a schema comes after those it uses (what Avro
// needs) and by import name (what Protobuf needs).
class ReferenceResolver {
public:
    explicit ReferenceResolver(SchemaLookup &lookup) : m_lookup(lookup) {}

    RegistryError::Kind cause = RegistryError::Kind::None; // of the registry call that failed

    QList<QByteArray> ordered;        // dependencies first
    QMap<QString, QByteArray> byName; // import name -> text, transitively

    bool resolve(const QList<SchemaReference> &refs, int depth, QString *error)
    {
        for (const SchemaReference &ref : refs) {
            const Key key{ref.subject, ref.version};
            m_path.append(ref.name);
            const auto state = m_state.constFind(key);
            if (state != m_state.cend() && *state == State::Visiting) {
                *error = QStringLiteral("the references form a cycle: ") + m_path.join(QStringLiteral(" -> "));
                return false;
            }
            if (state == m_state.cend() && !visit(ref, key, depth, error))
                return false;
            byName.insert(ref.name, m_text.value(key));
            m_path.removeLast();
        }
        return true;
    }

private:
    enum class State { Visiting, Done };
    using Key = QPair<QString, int>;

    bool visit(const SchemaReference &ref, const Key &key, int depth, QString *error)
    {
        if (depth >= kMaxReferenceDepth) {
            *error = QStringLiteral("references nested more than %1 deep at ").arg(kMaxReferenceDepth) +
                     m_path.join(QStringLiteral(" -> "));
            return false;
        }
        if (m_state.size() >= kMaxReferences) {
            *error = QStringLiteral("more than %1 schemas referenced").arg(kMaxReferences);
            return false;
        }
        RegistryError failure;
        const std::optional<RegistrySchema> schema = m_lookup.schemaByVersion(ref.subject, ref.version, &failure);
        if (!schema) {
            cause = failure.kind;
            *error = refLabel(ref) + QStringLiteral(": ") + registryFailure(failure, QStringLiteral("it"));
            return false;
        }
        m_state.insert(key, State::Visiting);
        if (!resolve(schema->references, depth + 1, error))
            return false;
        m_state.insert(key, State::Done);
        m_text.insert(key, schema->text);
        ordered.append(schema->text);
        return true;
    }

    SchemaLookup &m_lookup;
    QHash<Key, State> m_state;
    QHash<Key, QByteArray> m_text;
    QStringList m_path; // the names from the root to the reference being resolved
};

} // namespace

QString registryFailure(const RegistryError &error, const QString &what)
{
    const QString detail = error.message.isEmpty() ? QString() : QStringLiteral(": ") + error.message;
    switch (error.kind) {
    case RegistryError::Kind::NotFound: return what + QStringLiteral(" is not in the registry");
    case RegistryError::Kind::Unreachable: return QStringLiteral("the schema registry did not answer") + detail;
    case RegistryError::Kind::Tls: return QStringLiteral("the schema registry could not be trusted") + detail;
    case RegistryError::Kind::Unauthorized:
        return QStringLiteral("the schema registry refused access to ") + what + detail;
    case RegistryError::Kind::BadResponse:
        return QStringLiteral("the schema registry's answer for ") + what + QStringLiteral(" was not understood") +
               detail;
    case RegistryError::Kind::None:
    case RegistryError::Kind::Other: break;
    }
    return QStringLiteral("the schema registry failed to give ") + what + detail;
}

std::shared_ptr<const BuiltSchema> buildSchema(SchemaLookup &lookup, int id, QString *error, RegistryError::Kind *cause)
{
    *cause = RegistryError::Kind::None;
    const QString name = QStringLiteral("schema %1").arg(id);
    RegistryError failure;
    const std::optional<RegistrySchema> schema = lookup.schemaById(id, &failure);
    if (!schema) {
        *cause = failure.kind;
        *error = registryFailure(failure, name);
        return {};
    }
    auto built = std::make_shared<BuiltSchema>();
    // Literals for the known types: a DecodedPart copies them without touching a shared reference count.
    const QString type = schema->type.isEmpty() ? QStringLiteral("AVRO") : schema->type.toUpper();
    if (type == QLatin1String("AVRO"))
        built->type = QStringLiteral("AVRO");
    else if (type == QLatin1String("PROTOBUF"))
        built->type = QStringLiteral("PROTOBUF");
    else if (type == QLatin1String("JSON"))
        built->type = QStringLiteral("JSON");
    else
        built->type = type;
    built->subject = schema->subject;
    built->version = schema->version;
    const QString label = QStringLiteral("%1 (%2)").arg(name, built->type);
    const bool avro = built->type == QLatin1String("AVRO");
    const bool protobuf = built->type == QLatin1String("PROTOBUF");
    if (!avro && !protobuf && built->type != QLatin1String("JSON")) {
        *error = label + QStringLiteral(" is of a type MirrorDesk cannot decode");
        return {};
    }
    if (built->subject.isEmpty()) {
        // Where it is registered only labels the value: without it the record still decodes.
        RegistryError ignored;
        const std::optional<QList<SubjectVersion>> where = lookup.versionsOfId(id, &ignored);
        if (where && !where->isEmpty()) {
            built->subject = where->first().subject;
            built->version = where->first().version;
        }
    }
    if (avro || protobuf) {
        // A JSON schema is not checked against, so its references are not needed.
        ReferenceResolver refs(lookup);
        QString why;
        if (!refs.resolve(schema->references, 0, &why)) {
            *cause = refs.cause;
            *error = label + QStringLiteral(": ") + why;
            return {};
        }
        if (avro)
            built->avro = AvroDecoder::create(schema->text, refs.ordered, &why);
        else
            built->protobuf = ProtobufDecoder::create(schema->text, refs.byName, &why);
        if (!built->avro && !built->protobuf) {
            *error = label + QStringLiteral(" does not build: ") + why;
            return {};
        }
    }
    return built;
}

} // namespace md::schemadecoding
