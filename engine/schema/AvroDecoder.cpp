// Avro C parses the schema (and checks it); the decoding itself is our own
// walker over a compiled node table (AvroJsonWalk.cpp), thread-safe and fast.
#include "engine/schema/AvroDecoder.h"
#include "engine/schema/AvroDecoderDetail.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QSet>

#include <cstring>

#include <avro.h>

namespace md {

bool avroWalk(const std::vector<avro::Node> &nodes, const char *data, size_t size, QByteArray *json, QString *error);

struct AvroDecoder::Impl {
    std::vector<avro::Node> nodes; // nodes[0] is the root
};

namespace {

using Table = QHash<QString, QJsonObject>;

bool isPrimitive(const QString &n)
{
    static const QStringList p = {QStringLiteral("null"),  QStringLiteral("boolean"), QStringLiteral("int"),
                                  QStringLiteral("long"),  QStringLiteral("float"),   QStringLiteral("double"),
                                  QStringLiteral("bytes"), QStringLiteral("string")};
    return p.contains(n);
}

bool isNamedKind(const QString &t)
{
    return t == QLatin1String("record") || t == QLatin1String("error") || t == QLatin1String("enum") ||
           t == QLatin1String("fixed");
}

QString qualify(const QString &name, const QString &ns)
{
    if (name.contains(QLatin1Char('.')) || ns.isEmpty())
        return name;
    return ns + QLatin1Char('.') + name;
}

// Full name and namespace of a named type's definition in namespace `ns`.
void fullName(const QJsonObject &o, const QString &ns, QString *full, QString *childNs)
{
    const QString name = o.value(QLatin1String("name")).toString();
    if (name.contains(QLatin1Char('.'))) {
        *full = name;
        *childNs = name.left(name.lastIndexOf(QLatin1Char('.')));
    } else {
        *childNs = o.contains(QLatin1String("namespace")) ? o.value(QLatin1String("namespace")).toString() : ns;
        *full = qualify(name, *childNs);
    }
}

// Avro C resolves names only inside one schema text: the named types of the
// references are substituted at their first use, later uses stay names.
struct Inliner {
    const Table &table;
    QSet<QString> defined;

    QJsonValue type(const QJsonValue &v, const QString &ns, bool inlined)
    {
        if (v.isString()) {
            const QString name = v.toString();
            if (isPrimitive(name))
                return v;
            for (const QString &full : {qualify(name, ns), name}) {
                if (defined.contains(full))
                    return full;
                const auto it = table.constFind(full);
                if (it != table.constEnd())
                    return type(*it, ns, true);
            }
            return v;
        }
        if (v.isArray()) {
            QJsonArray a;
            for (const QJsonValue &b : v.toArray())
                a.append(type(b, ns, inlined));
            return a;
        }
        if (!v.isObject())
            return v;
        QJsonObject o = v.toObject();
        const QJsonValue t = o.value(QLatin1String("type"));
        if (t.isString() && isNamedKind(t.toString())) {
            QString full, childNs;
            fullName(o, ns, &full, &childNs);
            if (inlined && defined.contains(full))
                return full;
            defined.insert(full);
            if (inlined) { // explicit, so the definition means the same wherever it lands
                o[QLatin1String("name")] = full.mid(full.lastIndexOf(QLatin1Char('.')) + 1);
                o[QLatin1String("namespace")] = childNs;
            }
            if (o.value(QLatin1String("fields")).isArray()) {
                QJsonArray fields;
                for (const QJsonValue &f : o.value(QLatin1String("fields")).toArray()) {
                    QJsonObject fo = f.toObject();
                    fo[QLatin1String("type")] = type(fo.value(QLatin1String("type")), childNs, inlined);
                    fields.append(fo);
                }
                o[QLatin1String("fields")] = fields;
            }
            return o;
        }
        if (t == QLatin1String("array"))
            o[QLatin1String("items")] = type(o.value(QLatin1String("items")), ns, inlined);
        else if (t == QLatin1String("map"))
            o[QLatin1String("values")] = type(o.value(QLatin1String("values")), ns, inlined);
        else if (!t.isString() || !isPrimitive(t.toString()))
            o[QLatin1String("type")] = type(t, ns, inlined);
        return o;
    }
};

// Every named type defined in `v`, its namespace made explicit.
void collect(const QJsonValue &v, const QString &ns, Table *table)
{
    if (v.isArray()) {
        for (const QJsonValue &b : v.toArray())
            collect(b, ns, table);
        return;
    }
    if (!v.isObject())
        return;
    QJsonObject o = v.toObject();
    const QJsonValue t = o.value(QLatin1String("type"));
    if (t.isString() && isNamedKind(t.toString())) {
        QString full, childNs;
        fullName(o, ns, &full, &childNs);
        o[QLatin1String("name")] = full.mid(full.lastIndexOf(QLatin1Char('.')) + 1);
        o[QLatin1String("namespace")] = childNs;
        if (!table->contains(full))
            table->insert(full, o);
        for (const QJsonValue &f : o.value(QLatin1String("fields")).toArray())
            collect(f.toObject().value(QLatin1String("type")), childNs, table);
        return;
    }
    collect(o.value(QLatin1String("items")), ns, table);
    collect(o.value(QLatin1String("values")), ns, table);
    if (!t.isString())
        collect(t, ns, table);
}

// Top-level JSON value of a schema text (wrapped: QJsonDocument takes no scalars).
bool parseJson(const QByteArray &text, QJsonValue *v)
{
    const QJsonDocument doc = QJsonDocument::fromJson('[' + text + ']');
    if (!doc.isArray() || doc.array().size() != 1)
        return false;
    *v = doc.array().at(0);
    return true;
}

QByteArray toText(const QJsonValue &v)
{
    QByteArray t = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return t.mid(1, t.size() - 2);
}

QString topName(const QJsonValue &v)
{
    if (!v.isObject())
        return QStringLiteral("?");
    QString full, ns;
    fullName(v.toObject(), QString(), &full, &ns);
    return full.isEmpty() ? QStringLiteral("?") : full;
}

std::string jsonString(const char *s)
{
    std::string out = "\"";
    avro::appendJsonStringBody(&out, s, std::strlen(s));
    out += '"';
    return out;
}

std::string typeName(avro_schema_t s)
{
    switch (avro_typeof(s)) {
    case AVRO_RECORD:
    case AVRO_ENUM:
    case AVRO_FIXED: {
        const char *ns = avro_schema_namespace(s);
        return ns && *ns ? std::string(ns) + '.' + avro_schema_name(s) : std::string(avro_schema_name(s));
    }
    default: return avro_schema_type_name(s);
    }
}

struct Compiler {
    std::vector<avro::Node> nodes;
    QHash<avro_schema_t, int> named;
    QString error;

    int add(avro_schema_t s)
    {
        if (avro_typeof(s) == AVRO_LINK)
            s = avro_schema_link_target(s);
        if (const auto it = named.constFind(s); it != named.constEnd())
            return *it;
        const int i = int(nodes.size());
        nodes.emplace_back();
        using avro::Kind;
        Kind k = Kind::Null;
        switch (avro_typeof(s)) {
        case AVRO_STRING: k = Kind::String; break;
        case AVRO_BYTES: k = Kind::Bytes; break;
        case AVRO_INT32: k = Kind::Int; break;
        case AVRO_INT64: k = Kind::Long; break;
        case AVRO_FLOAT: k = Kind::Float; break;
        case AVRO_DOUBLE: k = Kind::Double; break;
        case AVRO_BOOLEAN: k = Kind::Boolean; break;
        case AVRO_NULL: k = Kind::Null; break;
        case AVRO_RECORD: {
            k = Kind::Record;
            named.insert(s, i);
            const size_t n = avro_schema_record_size(s);
            for (size_t f = 0; f < n; ++f) {
                const char *name = avro_schema_record_field_name(s, int(f));
                const int c = add(avro_schema_record_field_get_by_index(s, int(f)));
                avro::Node &node = nodes[size_t(i)];
                node.children.push_back(c);
                node.names.emplace_back(name);
                node.labels.push_back((f == 0 ? "{" : ",") + jsonString(name) + ':');
            }
            break;
        }
        case AVRO_ENUM: {
            k = Kind::Enum;
            named.insert(s, i);
            const int n = avro_schema_enum_number_of_symbols(s);
            for (int e = 0; e < n; ++e)
                nodes[size_t(i)].labels.push_back(jsonString(avro_schema_enum_get(s, e)));
            break;
        }
        case AVRO_FIXED:
            k = Kind::Fixed;
            named.insert(s, i);
            nodes[size_t(i)].fixedSize = avro_schema_fixed_size(s);
            if (nodes[size_t(i)].fixedSize < 0)
                error = QStringLiteral("fixed %1 has a negative size").arg(QString::fromStdString(typeName(s)));
            break;
        case AVRO_MAP: {
            k = Kind::Map;
            const int c = add(avro_schema_map_values(s));
            nodes[size_t(i)].children.push_back(c);
            break;
        }
        case AVRO_ARRAY: {
            k = Kind::Array;
            const int c = add(avro_schema_array_items(s));
            nodes[size_t(i)].children.push_back(c);
            break;
        }
        case AVRO_UNION: {
            k = Kind::Union;
            const size_t n = avro_schema_union_size(s);
            for (size_t b = 0; b < n; ++b) {
                avro_schema_t bs = avro_schema_union_branch(s, int(b));
                const std::string label =
                    "{" +
                    jsonString(typeName(avro_typeof(bs) == AVRO_LINK ? avro_schema_link_target(bs) : bs).c_str()) + ':';
                const int c = add(bs);
                nodes[size_t(i)].children.push_back(c);
                nodes[size_t(i)].labels.push_back(label);
            }
            break;
        }
        default: error = QStringLiteral("unsupported type"); break;
        }
        nodes[size_t(i)].kind = k;
        return i;
    }

    // Least fixpoint: a record is zero-size when all its fields are.
    void markZeroSize()
    {
        for (bool changed = true; changed;) {
            changed = false;
            for (avro::Node &n : nodes) {
                if (n.zeroSize)
                    continue;
                bool zero = false;
                size_t len = 0;
                if (n.kind == avro::Kind::Null) {
                    zero = true, len = 4;
                } else if (n.kind == avro::Kind::Fixed && n.fixedSize == 0) {
                    zero = true, len = 2;
                } else if (n.kind == avro::Kind::Record) {
                    zero = true;
                    len = n.children.empty() ? 2 : 1;
                    for (size_t f = 0; f < n.children.size(); ++f) {
                        const avro::Node &c = nodes[size_t(n.children[f])];
                        zero = zero && c.zeroSize;
                        len += n.labels[f].size() + c.zeroJson;
                    }
                }
                if (zero) {
                    n.zeroSize = true;
                    n.zeroJson = len;
                    changed = true;
                }
            }
        }
    }
};

// The first named type (record, error, enum, fixed) that `v` defines a second
// time, by full name; empty when none. The Avro spec forbids it, and Avro C
// 1.11 accepts it and loses the first definition (a leak the fuzzer found).
QString redefinedName(const QJsonValue &v, const QString &ns, QSet<QString> *seen)
{
    if (v.isArray()) {
        for (const QJsonValue &branch : v.toArray())
            if (QString name = redefinedName(branch, ns, seen); !name.isEmpty())
                return name;
        return {};
    }
    if (!v.isObject())
        return {};
    const QJsonObject o = v.toObject();
    const QJsonValue type = o.value(QLatin1String("type"));
    if (type.isObject() || type.isArray())
        return redefinedName(type, ns, seen);
    const QString kind = type.toString();
    if (kind == QLatin1String("array"))
        return redefinedName(o.value(QLatin1String("items")), ns, seen);
    if (kind == QLatin1String("map"))
        return redefinedName(o.value(QLatin1String("values")), ns, seen);
    if (kind != QLatin1String("record") && kind != QLatin1String("error") && kind != QLatin1String("enum") &&
        kind != QLatin1String("fixed"))
        return {};
    const QString name = o.value(QLatin1String("name")).toString();
    QString full = name;
    QString inner = ns;
    if (name.contains(QLatin1Char('.'))) {
        inner = name.left(name.lastIndexOf(QLatin1Char('.')));
    } else {
        if (o.contains(QLatin1String("namespace")))
            inner = o.value(QLatin1String("namespace")).toString();
        full = inner.isEmpty() ? name : inner + QLatin1Char('.') + name;
    }
    if (!name.isEmpty() && seen->contains(full))
        return full;
    seen->insert(full);
    if (kind == QLatin1String("record") || kind == QLatin1String("error"))
        for (const QJsonValue &field : o.value(QLatin1String("fields")).toArray())
            if (QString n = redefinedName(field.toObject().value(QLatin1String("type")), inner, seen); !n.isEmpty())
                return n;
    return {};
}

// Parses `text` with Avro C; false with *error = Avro's reason.
bool avroParse(const QByteArray &text, avro_schema_t *schema, QString *error)
{
    const QJsonDocument doc = QJsonDocument::fromJson(text);
    const QJsonValue root = doc.isArray()    ? QJsonValue(doc.array())
                            : doc.isObject() ? QJsonValue(doc.object())
                                             : QJsonValue();
    QSet<QString> seen;
    if (const QString twice = redefinedName(root, QString(), &seen); !twice.isEmpty()) {
        *error = QStringLiteral("the schema defines the named type %1 twice").arg(twice);
        return false;
    }
    if (avro_schema_from_json_length(text.constData(), size_t(text.size()), schema) != 0) {
        *error = QString::fromUtf8(avro_strerror());
        return false;
    }
    return true;
}

} // namespace

AvroDecoder::AvroDecoder() : d(std::make_unique<Impl>())
{
}
AvroDecoder::~AvroDecoder() = default;

std::unique_ptr<AvroDecoder> AvroDecoder::create(const QByteArray &schema, const QList<QByteArray> &references,
                                                 QString *error)
{
    QString dummy;
    if (!error)
        error = &dummy;
    Table table;
    for (qsizetype i = 0; i < references.size(); ++i) {
        QJsonValue v;
        QByteArray text = references.at(i);
        QString name = QStringLiteral("?");
        if (parseJson(text, &v)) {
            name = topName(v);
            Inliner in{table, {}};
            v = in.type(v, QString(), false);
            text = toText(v);
        }
        avro_schema_t s = nullptr;
        QString why;
        if (!avroParse(text, &s, &why)) {
            *error = QStringLiteral("reference %1 (%2): %3").arg(i + 1).arg(name, why);
            return nullptr;
        }
        avro_schema_decref(s);
        collect(v, QString(), &table);
    }
    QByteArray text = schema;
    if (!table.isEmpty()) {
        QJsonValue v;
        if (parseJson(text, &v)) {
            Inliner in{table, {}};
            text = toText(in.type(v, QString(), false));
        }
    }
    avro_schema_t s = nullptr;
    QString why;
    if (!avroParse(text, &s, &why)) {
        *error = QStringLiteral("schema: ") + why;
        return nullptr;
    }
    Compiler c;
    c.add(s);
    avro_schema_decref(s);
    if (!c.error.isEmpty()) {
        *error = QStringLiteral("schema: ") + c.error;
        return nullptr;
    }
    c.markZeroSize();
    std::unique_ptr<AvroDecoder> dec(new AvroDecoder);
    dec->d->nodes = std::move(c.nodes);
    return dec;
}

bool AvroDecoder::decode(const char *data, size_t size, QByteArray *json, QString *error) const
{
    QString dummy;
    return avroWalk(d->nodes, data, size, json, error ? error : &dummy);
}

} // namespace md
