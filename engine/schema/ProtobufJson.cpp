#include "engine/schema/ProtobufJson.h"

#include "engine/schema/AvroDecoderDetail.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace md::protobufjson {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

namespace {

// A string field as JSON. Proto2 never checks a string's UTF-8 (nor does a
// proto2 default in the schema text), so bytes that are not UTF-8 become
// \ufffd, as Avro's strings do: the fuzzer found them making the decoded
// value something no JSON reader takes.
void appendString(std::string_view s, std::string *out)
{
    out->push_back('"');
    avro::appendJsonStringBody(out, s.data(), s.size());
    out->push_back('"');
}

void appendBase64(std::string_view s, std::string *out)
{
    static const char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    out->push_back('"');
    size_t i = 0;
    for (; i + 2 < s.size(); i += 3) {
        const uint32_t v = (uint32_t(uint8_t(s[i])) << 16) | (uint32_t(uint8_t(s[i + 1])) << 8) | uint8_t(s[i + 2]);
        out->push_back(table[v >> 18]);
        out->push_back(table[(v >> 12) & 63]);
        out->push_back(table[(v >> 6) & 63]);
        out->push_back(table[v & 63]);
    }
    if (i < s.size()) {
        uint32_t v = uint32_t(uint8_t(s[i])) << 16;
        if (i + 1 < s.size())
            v |= uint32_t(uint8_t(s[i + 1])) << 8;
        out->push_back(table[v >> 18]);
        out->push_back(table[(v >> 12) & 63]);
        out->push_back(i + 1 < s.size() ? table[(v >> 6) & 63] : '=');
        out->push_back('=');
    }
    out->push_back('"');
}

template <typename T> void appendInteger(T v, std::string *out)
{
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out->append(buf, r.ptr);
}

// Shortest text that reads back as the same value; JSON has no NaN or
// infinity, so those become strings.
template <typename T> void appendFloating(T v, std::string *out)
{
    if (std::isnan(v)) {
        out->append("\"NaN\"");
    } else if (std::isinf(v)) {
        out->append(v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
    } else {
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        out->append(buf, r.ptr);
    }
}

// Days since 1970-01-01 -> civil date (proleptic Gregorian).
void civilFromDays(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = static_cast<int64_t>(yoe) + era * 400 + (*m <= 2);
}

// 0, 3, 6 or 9 fraction digits, as proto3's JSON mapping prints them.
void appendNanos(int32_t nanos, std::string *out)
{
    if (nanos == 0)
        return;
    char buf[16];
    if (nanos % 1000000 == 0)
        std::snprintf(buf, sizeof buf, ".%03d", nanos / 1000000);
    else if (nanos % 1000 == 0)
        std::snprintf(buf, sizeof buf, ".%06d", nanos / 1000);
    else
        std::snprintf(buf, sizeof buf, ".%09d", nanos);
    out->append(buf);
}

void appendTimestamp(const Message &m, std::string *out)
{
    const Descriptor *d = m.GetDescriptor();
    const Reflection *r = m.GetReflection();
    const int64_t seconds = r->GetInt64(m, d->FindFieldByNumber(1));
    int32_t nanos = r->GetInt32(m, d->FindFieldByNumber(2));
    if (nanos < 0 || nanos > 999999999)
        nanos = 0; // out of range on the wire: the seconds still say when
    int64_t days = seconds / 86400;
    int64_t rest = seconds % 86400;
    if (rest < 0) {
        rest += 86400;
        --days;
    }
    int64_t y;
    unsigned mo, da;
    civilFromDays(days, &y, &mo, &da);
    char buf[64];
    std::snprintf(buf, sizeof buf, "\"%04lld-%02u-%02uT%02d:%02d:%02d", static_cast<long long>(y), mo, da,
                  int(rest / 3600), int(rest / 60 % 60), int(rest % 60));
    out->append(buf);
    appendNanos(nanos, out);
    out->append("Z\"");
}

void appendDuration(const Message &m, std::string *out)
{
    const Descriptor *d = m.GetDescriptor();
    const Reflection *r = m.GetReflection();
    const int64_t seconds = r->GetInt64(m, d->FindFieldByNumber(1));
    const int32_t nanos = r->GetInt32(m, d->FindFieldByNumber(2));
    out->push_back('"');
    if ((seconds < 0 || nanos < 0) && !(seconds > 0 || nanos > 0))
        out->push_back('-');
    // Unsigned magnitude: -INT64_MIN does not fit in int64.
    const uint64_t s = seconds < 0 ? 0 - static_cast<uint64_t>(seconds) : static_cast<uint64_t>(seconds);
    appendInteger(s, out);
    if (nanos > -1000000000 && nanos < 1000000000)
        appendNanos(nanos < 0 ? -nanos : nanos, out);
    out->append("s\"");
}

void appendValue(const Message &m, const FieldDescriptor *f, int index, std::string *out);

// google.protobuf.Value: whichever kind is set, as plain JSON; none set is null.
void appendStructValue(const Message &m, std::string *out)
{
    const Descriptor *d = m.GetDescriptor();
    const Reflection *r = m.GetReflection();
    for (int i = 0; i < d->field_count(); ++i) {
        const FieldDescriptor *f = d->field(i);
        if (!r->HasField(m, f))
            continue;
        if (f->name() == "null_value")
            out->append("null");
        else
            appendValue(m, f, -1, out);
        return;
    }
    out->append("null");
}

void appendFields(const Message &m, std::string *out);

// True when `m` is a well-known type with its own JSON form, written to *out.
bool appendWellKnown(const Message &m, std::string *out)
{
    const Descriptor *d = m.GetDescriptor();
    if (d->file()->package() != "google.protobuf")
        return false;
    const std::string &name = d->name();
    const Reflection *r = m.GetReflection();
    if (name == "Timestamp") {
        appendTimestamp(m, out);
    } else if (name == "Duration") {
        appendDuration(m, out);
    } else if (name.size() > 5 && name.compare(name.size() - 5, 5, "Value") == 0 && name != "Value" &&
               d->field_count() == 1) {
        appendValue(m, d->field(0), -1, out); // the wrappers: Int64Value, StringValue, ...
    } else if (name == "Value") {
        appendStructValue(m, out);
    } else if (name == "ListValue") {
        appendValue(m, d->field(0), -2, out);
    } else if (name == "Struct") {
        appendValue(m, d->field(0), -2, out);
    } else if (name == "FieldMask") {
        const FieldDescriptor *paths = d->field(0);
        std::string joined;
        for (int i = 0; i < r->FieldSize(m, paths); ++i) {
            if (i)
                joined.push_back(',');
            joined += r->GetRepeatedString(m, paths, i);
        }
        appendString(joined, out);
    } else if (name == "Any") {
        // The packed type may be in no pool we have: its URL and raw bytes.
        out->append("{\"@type\":");
        appendString(r->GetString(m, d->FindFieldByNumber(1)), out);
        out->append(",\"value\":");
        appendBase64(r->GetString(m, d->FindFieldByNumber(2)), out);
        out->push_back('}');
    } else {
        return false; // Empty and the descriptor types: ordinary messages
    }
    return true;
}

void appendMessageValue(const Message &m, std::string *out)
{
    if (!appendWellKnown(m, out))
        appendFields(m, out);
}

// A map key as a JSON object key: always a string.
void appendMapKey(const Message &entry, const FieldDescriptor *f, std::string *out)
{
    const Reflection *r = entry.GetReflection();
    switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING: appendString(r->GetString(entry, f), out); return;
    case FieldDescriptor::CPPTYPE_BOOL: out->append(r->GetBool(entry, f) ? "\"true\"" : "\"false\""); return;
    default: break;
    }
    out->push_back('"');
    appendValue(entry, f, -1, out);
    out->push_back('"');
}

// index -1: the singular field; >= 0: element of a repeated field; -2: the
// whole repeated field (array, or object for a map).
void appendValue(const Message &m, const FieldDescriptor *f, int index, std::string *out)
{
    const Reflection *r = m.GetReflection();
    if (index == -2) {
        const int n = r->FieldSize(m, f);
        if (f->is_map()) {
            const FieldDescriptor *key = f->message_type()->map_key();
            const FieldDescriptor *value = f->message_type()->map_value();
            out->push_back('{');
            for (int i = 0; i < n; ++i) {
                if (i)
                    out->push_back(',');
                const Message &entry = r->GetRepeatedMessage(m, f, i);
                appendMapKey(entry, key, out);
                out->push_back(':');
                appendValue(entry, value, -1, out);
            }
            out->push_back('}');
        } else {
            out->push_back('[');
            for (int i = 0; i < n; ++i) {
                if (i)
                    out->push_back(',');
                appendValue(m, f, i, out);
            }
            out->push_back(']');
        }
        return;
    }
    const bool rep = index >= 0;
    switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
        appendInteger(rep ? r->GetRepeatedInt32(m, f, index) : r->GetInt32(m, f), out);
        break;
    case FieldDescriptor::CPPTYPE_INT64:
        appendInteger(rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f), out);
        break;
    case FieldDescriptor::CPPTYPE_UINT32:
        appendInteger(rep ? r->GetRepeatedUInt32(m, f, index) : r->GetUInt32(m, f), out);
        break;
    case FieldDescriptor::CPPTYPE_UINT64:
        appendInteger(rep ? r->GetRepeatedUInt64(m, f, index) : r->GetUInt64(m, f), out);
        break;
    case FieldDescriptor::CPPTYPE_DOUBLE:
        appendFloating(rep ? r->GetRepeatedDouble(m, f, index) : r->GetDouble(m, f), out);
        break;
    case FieldDescriptor::CPPTYPE_FLOAT:
        appendFloating(rep ? r->GetRepeatedFloat(m, f, index) : r->GetFloat(m, f), out);
        break;
    case FieldDescriptor::CPPTYPE_BOOL:
        out->append((rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f)) ? "true" : "false");
        break;
    case FieldDescriptor::CPPTYPE_ENUM: {
        const int number = rep ? r->GetRepeatedEnumValue(m, f, index) : r->GetEnumValue(m, f);
        if (const auto *v = f->enum_type()->FindValueByNumber(number))
            appendString(v->name(), out);
        else
            appendInteger(number, out); // open enum: a number this schema does not name
        break;
    }
    case FieldDescriptor::CPPTYPE_STRING: {
        std::string scratch;
        const std::string &s =
            rep ? r->GetRepeatedStringReference(m, f, index, &scratch) : r->GetStringReference(m, f, &scratch);
        if (f->type() == FieldDescriptor::TYPE_BYTES)
            appendBase64(s, out);
        else
            appendString(s, out);
        break;
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
        appendMessageValue(rep ? r->GetRepeatedMessage(m, f, index) : r->GetMessage(m, f), out);
        break;
    }
}

void appendFields(const Message &m, std::string *out)
{
    const Descriptor *d = m.GetDescriptor();
    const Reflection *r = m.GetReflection();
    out->push_back('{');
    bool first = true;
    for (int i = 0; i < d->field_count(); ++i) {
        const FieldDescriptor *f = d->field(i);
        if (!f->is_repeated()) {
            // An unset message, oneof member or proto3 `optional` says "absent";
            // printing a default would invent a value the producer never chose.
            const bool presence = f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE || f->containing_oneof();
            if (presence && !r->HasField(m, f))
                continue;
        }
        if (!first)
            out->push_back(',');
        first = false;
        appendString(f->name(), out);
        out->push_back(':');
        appendValue(m, f, f->is_repeated() ? -2 : -1, out);
    }
    out->push_back('}');
}

} // namespace

void appendMessage(const Message &message, std::string *out)
{
    appendMessageValue(message, out);
}

} // namespace md::protobufjson
