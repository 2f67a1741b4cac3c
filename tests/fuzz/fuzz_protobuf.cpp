// libFuzzer target: the PROTOBUF schema decoder (engine/schema/SchemaDecoding*.cpp), from
// the schema text to the decoded record; the input layout is in SchemaFuzz.h.
#include "SchemaFuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return md::fuzz::decodeSchemaInput("PROTOBUF", data, size);
}
