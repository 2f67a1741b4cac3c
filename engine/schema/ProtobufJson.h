#pragma once

#include <string>

namespace google::protobuf {
class Message;
}

namespace md::protobufjson {

// Appends `message` as one line of JSON to *out, MirrorDesk's mapping (not
// proto3's canonical one): field names as in the .proto, 64-bit integers as
// exact numbers so `$.id == 42` matches, every field except an unset message
// field or an unset member of a oneof / proto3 `optional`.
void appendMessage(const google::protobuf::Message &message, std::string *out);

} // namespace md::protobufjson
