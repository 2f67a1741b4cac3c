#include "engine/schema/ProtobufDecoder.h"

#include "engine/schema/ProtobufJson.h"

#include <google/protobuf/arena.h>
#include <google/protobuf/compiler/parser.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <climits>
#include <set>

namespace md {

namespace gp = google::protobuf;

namespace {

// The name the registry's own schema goes by in error messages and the pool.
constexpr const char *kSchemaFile = "schema.proto";

class ParseErrors : public gp::io::ErrorCollector {
public:
    explicit ParseErrors(std::string file) : m_file(std::move(file)) {}
    void AddError(int line, gp::io::ColumnNumber column, const std::string &message) override
    {
        if (m_text.isEmpty()) // the first error; later ones usually follow from it
            m_text = QStringLiteral("%1:%2:%3: %4")
                         .arg(QString::fromStdString(m_file))
                         .arg(line + 1)
                         .arg(column + 1)
                         .arg(QString::fromStdString(message));
    }
    QString m_text;

private:
    std::string m_file;
};

class BuildErrors : public gp::DescriptorPool::ErrorCollector {
public:
    void AddError(const std::string &filename, const std::string &element, const gp::Message *, ErrorLocation,
                  const std::string &message) override
    {
        if (m_text.isEmpty())
            m_text = QStringLiteral("%1: %2: %3")
                         .arg(QString::fromStdString(filename), QString::fromStdString(element),
                              QString::fromStdString(message));
    }
    QString m_text;
};

} // namespace

struct ProtobufDecoder::Impl {
    gp::DescriptorPool pool;
    // Declared after the pool: it refers to the pool's descriptors.
    std::unique_ptr<gp::DynamicMessageFactory> factory;
    const gp::FileDescriptor *file = nullptr;
    QMap<QString, QByteArray> imports;
    std::set<std::string> building; // an import cycle would recurse forever

    const gp::Descriptor *find(const std::vector<int> &indexes) const;
    bool buildText(const std::string &name, const QByteArray &text, QString *error);
    bool buildImport(const std::string &importer, const std::string &name, QString *error);
    bool buildGenerated(const gp::FileDescriptor *generated, QString *error);
};

bool ProtobufDecoder::Impl::buildGenerated(const gp::FileDescriptor *generated, QString *error)
{
    if (pool.FindFileByName(generated->name()))
        return true;
    for (int i = 0; i < generated->dependency_count(); ++i)
        if (!buildGenerated(generated->dependency(i), error))
            return false;
    gp::FileDescriptorProto proto;
    generated->CopyTo(&proto);
    BuildErrors errors;
    if (!pool.BuildFileCollectingErrors(proto, &errors)) {
        *error = errors.m_text;
        return false;
    }
    return true;
}

bool ProtobufDecoder::Impl::buildImport(const std::string &importer, const std::string &name, QString *error)
{
    if (pool.FindFileByName(name))
        return true;
    // A registry may list a well-known type itself; the generated copy is the same file.
    if (name.rfind("google/protobuf/", 0) == 0) {
        if (const gp::FileDescriptor *g = gp::DescriptorPool::generated_pool()->FindFileByName(name))
            return buildGenerated(g, error);
    }
    const auto it = imports.constFind(QString::fromStdString(name));
    if (it == imports.constEnd()) {
        *error = QStringLiteral("%1 imports \"%2\", which the registry did not give")
                     .arg(QString::fromStdString(importer), QString::fromStdString(name));
        return false;
    }
    return buildText(name, it.value(), error);
}

bool ProtobufDecoder::Impl::buildText(const std::string &name, const QByteArray &text, QString *error)
{
    if (!building.insert(name).second) {
        *error = QStringLiteral("%1: import cycle").arg(QString::fromStdString(name));
        return false;
    }
    gp::io::ArrayInputStream input(text.constData(), int(text.size()));
    ParseErrors parseErrors(name);
    gp::io::Tokenizer tokenizer(&input, &parseErrors);
    gp::compiler::Parser parser;
    parser.RecordErrorsTo(&parseErrors);
    gp::FileDescriptorProto proto;
    if (!parser.Parse(&tokenizer, &proto) || !parseErrors.m_text.isEmpty()) {
        *error = parseErrors.m_text.isEmpty() ? QStringLiteral("%1: does not parse").arg(QString::fromStdString(name))
                                              : parseErrors.m_text;
        return false;
    }
    proto.set_name(name);
    for (int i = 0; i < proto.dependency_size(); ++i)
        if (!buildImport(name, proto.dependency(i), error))
            return false;
    BuildErrors buildErrors;
    const gp::FileDescriptor *built = pool.BuildFileCollectingErrors(proto, &buildErrors);
    if (!built) {
        *error = buildErrors.m_text;
        return false;
    }
    building.erase(name);
    if (name == kSchemaFile)
        file = built;
    return true;
}

const gp::Descriptor *ProtobufDecoder::Impl::find(const std::vector<int> &indexes) const
{
    if (indexes.empty() || indexes[0] < 0 || indexes[0] >= file->message_type_count())
        return nullptr;
    const gp::Descriptor *d = file->message_type(indexes[0]);
    for (size_t i = 1; i < indexes.size(); ++i) {
        if (indexes[i] < 0 || indexes[i] >= d->nested_type_count())
            return nullptr;
        d = d->nested_type(indexes[i]);
    }
    return d;
}

ProtobufDecoder::ProtobufDecoder() : d(std::make_unique<Impl>())
{
}
ProtobufDecoder::~ProtobufDecoder() = default;

std::unique_ptr<ProtobufDecoder> ProtobufDecoder::create(const QByteArray &schema,
                                                         const QMap<QString, QByteArray> &imports, QString *error)
{
    std::unique_ptr<ProtobufDecoder> decoder(new ProtobufDecoder);
    Impl &impl = *decoder->d;
    impl.imports = imports;
    QString message;
    if (!impl.buildText(kSchemaFile, schema, &message)) {
        if (error)
            *error = message;
        return nullptr;
    }
    impl.imports.clear(); // built into the pool; the text is no longer needed
    impl.factory = std::make_unique<gp::DynamicMessageFactory>(&impl.pool);
    return decoder;
}

QString ProtobufDecoder::messageName(const std::vector<int> &messageIndexes) const
{
    const gp::Descriptor *type = d->find(messageIndexes);
    return type ? QString::fromStdString(type->full_name()) : QString();
}

static QString pathText(const std::vector<int> &indexes)
{
    QStringList parts;
    for (const int i : indexes)
        parts << QString::number(i);
    return QLatin1Char('[') + parts.join(QLatin1Char(',')) + QLatin1Char(']');
}

bool ProtobufDecoder::decode(const std::vector<int> &messageIndexes, const char *data, size_t size, QByteArray *json,
                             QString *error) const
{
    const gp::Descriptor *type = d->find(messageIndexes);
    if (!type) {
        if (error)
            *error = QStringLiteral("the schema has no message type at index path %1").arg(pathText(messageIndexes));
        return false;
    }
    // A fresh message per call keeps decode() free of shared mutable state;
    // GetPrototype is thread-safe and cheap after the first call per type.
    // The message lives on this thread's arena: one reset a call instead of
    // a malloc and free per field, string and nested message; the arena's
    // first block is the thread's own buffer, which a reset keeps.
    struct ThreadArena {
        alignas(8) char block[64 * 1024];
        gp::Arena arena;
        ThreadArena() : arena(options(block)) {}
        static gp::ArenaOptions options(char *block)
        {
            gp::ArenaOptions o;
            o.initial_block = block;
            o.initial_block_size = sizeof ThreadArena::block;
            return o;
        }
    };
    thread_local ThreadArena local;
    struct ResetOnExit {
        gp::Arena &arena;
        ~ResetOnExit() { arena.Reset(); }
    } reset{local.arena};
    const gp::Message *prototype = d->factory->GetPrototype(type);
    gp::Message *message = prototype->New(&local.arena);
    if (size > size_t(INT_MAX) || !message->ParseFromArray(data, int(size))) {
        if (error)
            *error = QStringLiteral("not a valid %1 message").arg(QString::fromStdString(type->full_name()));
        return false;
    }
    std::string out;
    out.reserve(size * 3 + 64);
    protobufjson::appendMessage(*message, &out);
    *json = QByteArray(out.data(), qsizetype(out.size()));
    return true;
}

} // namespace md
