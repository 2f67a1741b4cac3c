#pragma once

#include <QByteArray>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace md {

class SchemaLookup;

// The Confluent wire format's prefix: magic byte 0, a 4-byte big-endian
// schema id; a Protobuf payload then carries its message-index list (a
// zig-zag varint count, then that many zig-zag varints; a count of 0 means
// [0], the file's first message).
struct WirePrefix {
    int schemaId = 0;
    qsizetype payloadOffset = 5; // where the schema's payload starts (after the prefix)
};
// Null when the bytes are not in the wire format (too short, magic not 0, or
// an id below 1: registries number from 1, and a big-endian long key below
// 2^32 would otherwise read as schema 0).
std::optional<WirePrefix> parseWirePrefix(const char *data, size_t size);
// Reads the message-index list at data[*offset], moving *offset past it.
// False with *error (naming the byte) when it is truncated or implausible.
bool parseMessageIndexes(const char *data, size_t size, qsizetype *offset, std::vector<int> *indexes, QString *error);

// A record's key or value as decoding saw it.
struct DecodedPart {
    enum class Status {
        Plain,   // not in the wire format: shown as the bytes are
        Decoded, // json holds the decoded value
        Failed   // in the wire format but not decodable: error says why
    };
    Status status = Status::Plain;
    QByteArray json; // one line of JSON (Decoded)
    int schemaId = 0;
    QString subject; // empty when the registry did not say
    int version = 0;
    QString type;    // "AVRO", "PROTOBUF", "JSON"
    QString message; // Protobuf: the full message type name
    QString error;   // Failed: the reason, a sentence ("schema 17 is not in the registry")
    bool operator==(const DecodedPart &) const = default;
};

// Decoders built from a registry's schemas, cached by schema id (and a failed
// lookup for negativeCacheMs, so a topic full of an unknown id costs one
// request, not one per record). While the registry does not answer, and once
// it has known none of 32 new ids in a window (bytes that only look like the
// wire format), new ids fail without a request until the window ends.
// References are resolved through the lookup, recursively, with a depth limit.
// decode() is thread-safe; it blocks on the registry the first time an id is
// seen (other threads wanting that id wait for the same build), so call it
// off the UI thread.
class SchemaDecoderCache {
public:
    explicit SchemaDecoderCache(std::shared_ptr<SchemaLookup> lookup, int negativeCacheMs = 10000);
    ~SchemaDecoderCache();
    SchemaDecoderCache(const SchemaDecoderCache &) = delete;
    SchemaDecoderCache &operator=(const SchemaDecoderCache &) = delete;

    DecodedPart decode(const char *data, size_t size);
    DecodedPart decode(const QByteArray &bytes) { return decode(bytes.constData(), size_t(bytes.size())); }

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace md
