#pragma once

// Internal to SchemaDecoding.cpp: a schema id's decoder, built from the
// registry with its references resolved (SchemaDecoderBuild.cpp).

#include "engine/schema/AvroDecoder.h"
#include "engine/schema/ProtobufDecoder.h"
#include "engine/schema/SchemaRegistryClient.h"

#include <QString>

#include <memory>

namespace md::schemadecoding {

inline constexpr int kMaxReferenceDepth = 16;
inline constexpr int kMaxReferences = 256; // distinct (subject, version) pairs per build

struct BuiltSchema {
    QString type; // "AVRO", "PROTOBUF", "JSON"
    QString subject;
    int version = 0;
    std::unique_ptr<AvroDecoder> avro;         // AVRO
    std::unique_ptr<ProtobufDecoder> protobuf; // PROTOBUF
};

// Fetches schema `id` and what it references and builds its decoder (blocking,
// on the registry). Null with *error: a sentence naming the id and the cause,
// and *cause: the kind of the registry call that failed (None when the
// registry answered and the schema did not build).
std::shared_ptr<const BuiltSchema> buildSchema(SchemaLookup &lookup, int id, QString *error,
                                               RegistryError::Kind *cause);

// A failed registry call in words: `what` is "schema 17" or a reference's name.
QString registryFailure(const RegistryError &error, const QString &what);

} // namespace md::schemadecoding
