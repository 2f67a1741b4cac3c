#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>

#include <memory>
#include <vector>

namespace md {

// Protobuf binary, the payload of a record in the Confluent wire format (after
// its prefix and message-index list), as JSON text. The schema is .proto text
// parsed at run time. One decoder per schema, built once and cached by schema
// id; decode() may run on several threads at once.
class ProtobufDecoder {
public:
    // `schema`: the .proto file as the registry holds it. `imports`: import
    // name ("common.proto") -> .proto text of every file it imports,
    // transitively. google/protobuf/*.proto (well-known types) resolve without
    // being listed. Null with *error naming the file, line and column.
    static std::unique_ptr<ProtobufDecoder> create(const QByteArray &schema, const QMap<QString, QByteArray> &imports,
                                                   QString *error);
    ~ProtobufDecoder();
    ProtobufDecoder(const ProtobufDecoder &) = delete;
    ProtobufDecoder &operator=(const ProtobufDecoder &) = delete;

    // The message type a wire-format index path names: {0} is the file's first
    // message, {1, 0} the first type nested in its second. Empty when none.
    QString messageName(const std::vector<int> &messageIndexes) const;

    // *json: the message as one line of JSON: field names as in the .proto,
    // every field of the message (scalars at their default too), 64-bit
    // integers as exact JSON numbers, enums by name, bytes as base64,
    // well-known types as their JSON mapping (Timestamp as RFC 3339 ...).
    // False with *error when no type has that index path or the bytes do not
    // parse as it.
    bool decode(const std::vector<int> &messageIndexes, const char *data, size_t size, QByteArray *json,
                QString *error) const;

private:
    ProtobufDecoder();
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace md
