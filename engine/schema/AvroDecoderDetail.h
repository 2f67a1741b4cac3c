#pragma once

#include <cstdint>
#include <string>
#include <vector>

// The writer schema compiled from Avro C's avro_schema_t into a plain,
// immutable node table: decode() walks it with no Avro C call, so several
// threads may decode at once without relying on Avro C's refcounts.
namespace md::avro {

enum class Kind : std::uint8_t {
    Null,
    Boolean,
    Int,
    Long,
    Float,
    Double,
    Bytes,
    String,
    Record,
    Enum,
    Fixed,
    Array,
    Map,
    Union
};

struct Node {
    Kind kind = Kind::Null;
    // Encodes in 0 bytes (null, fixed[0], records of such): an array of them
    // costs no input, so its count is bounded by an output budget instead.
    bool zeroSize = false;
    std::int64_t fixedSize = 0;
    std::size_t zeroJson = 0;        // JSON length of a zero-size value
    std::vector<int> children;       // record fields, union branches, array items / map values (one)
    std::vector<std::string> labels; // record: {"a": / ,"b":   union: {"T":   enum: "SYM"
    std::vector<std::string> names;  // record field names, for error paths
};

// Appends `s` as the body of a JSON string (no quotes): valid UTF-8 as is,
// control characters escaped, each invalid byte as \ufffd.
void appendJsonStringBody(std::string *out, const char *s, std::size_t n);

} // namespace md::avro
