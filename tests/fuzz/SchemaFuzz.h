#pragma once

// Shared by the schema decoder targets (fuzz_avro, fuzz_protobuf,
// fuzz_jsonschema): an input is a 2-byte big-endian schema length, the schema
// text, then the record's bytes after the 5-byte wire prefix (a Protobuf
// record's message-index list included). The schema goes through the same
// builder the registry's schemas do (SchemaDecoderCache over a fake lookup),
// so both the schema text -> decoder step and decoding are fuzzed. A decoder
// is kept while the schema text stays the same, so mutations of the payload
// alone run at the decoder's speed.
#include "engine/schema/SchemaDecoding.h"
#include "engine/schema/SchemaRegistryClient.h"

#include <QByteArray>
#include <QJsonDocument>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace md::fuzz {

class OneSchema final : public SchemaLookup {
public:
    OneSchema(QString type, QByteArray text) : m_type(std::move(type)), m_text(std::move(text)) {}
    std::optional<RegistrySchema> schemaById(int id, RegistryError *) override
    {
        RegistrySchema s;
        s.id = id;
        s.type = m_type;
        s.text = m_text;
        return s;
    }
    std::optional<RegistrySchema> schemaByVersion(const QString &, int, RegistryError *error) override
    {
        error->kind = RegistryError::Kind::NotFound;
        error->message = QStringLiteral("no references in fuzzing");
        return std::nullopt;
    }
    std::optional<QList<SubjectVersion>> versionsOfId(int, RegistryError *) override
    {
        return QList<SubjectVersion>{{QStringLiteral("fuzz-value"), 1}};
    }

private:
    QString m_type;
    QByteArray m_text;
};

inline int decodeSchemaInput(const char *type, const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const size_t schemaSize = std::min<size_t>((size_t(data[0]) << 8) | data[1], size - 2);
    const QByteArray schema(reinterpret_cast<const char *>(data + 2), qsizetype(schemaSize));
    static QByteArray s_schema;
    static std::unique_ptr<SchemaDecoderCache> s_cache;
    if (!s_cache || schema != s_schema) {
        s_schema = schema;
        s_cache = std::make_unique<SchemaDecoderCache>(std::make_shared<OneSchema>(QString::fromLatin1(type), schema));
    }
    QByteArray record("\0\0\0\0\1", 5);
    record.append(reinterpret_cast<const char *>(data + 2 + schemaSize), qsizetype(size - 2 - schemaSize));
    const DecodedPart part = s_cache->decode(record);
    if (part.status == DecodedPart::Status::Decoded) {
        // What the table, the search and the export take as JSON must be JSON
        // (in an array: QJsonDocument reads no bare scalars).
        QJsonParseError error;
        (void)QJsonDocument::fromJson('[' + part.json + ']', &error);
        // Qt refuses what it cannot hold (numbers beyond a double, deep nesting): JSON all the same.
        if (error.error != QJsonParseError::NoError && error.error != QJsonParseError::DeepNesting &&
            error.error != QJsonParseError::IllegalNumber) {
            std::fprintf(stderr, "decoded value is not JSON (%s): %s\n", qPrintable(error.errorString()),
                         part.json.left(400).constData());
            std::abort();
        }
    } else if (part.status == DecodedPart::Status::Failed && part.error.isEmpty()) {
        std::fprintf(stderr, "a failed decode without a reason\n");
        std::abort();
    }
    return 0;
}

} // namespace md::fuzz
