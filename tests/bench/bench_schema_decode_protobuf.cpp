// Protobuf records to JSON, one core: records/s and MB/s for a ~200 B order
// (nested message, string, int64, double, enum, repeated, map, Timestamp).
#include "engine/schema/ProtobufDecoder.h"

#include <chrono>
#include <cstdio>
#include <string>

namespace {

const char kSchema[] = "syntax = \"proto3\"; package shop; import \"google/protobuf/timestamp.proto\";\n"
                       "enum Status { NEW = 0; PAID = 1; }\n"
                       "message Order { int64 id = 1; string customer = 2; double total = 3; Status status = 4;\n"
                       "  repeated Item items = 5; map<string, string> tags = 6; google.protobuf.Timestamp at = 7;\n"
                       "  Address ship = 8; }\n"
                       "message Item { string sku = 1; int32 qty = 2; double price = 3; }\n"
                       "message Address { string city = 1; string street = 2; }\n";

void varint(std::string *s, uint64_t v)
{
    while (v >= 0x80) {
        s->push_back(char(v | 0x80));
        v >>= 7;
    }
    s->push_back(char(v));
}
void tag(std::string *s, int field, int wire)
{
    varint(s, uint64_t(field) << 3 | uint64_t(wire));
}
void bytes(std::string *s, int field, const std::string &v)
{
    tag(s, field, 2);
    varint(s, v.size());
    s->append(v);
}
void dbl(std::string *s, int field, double v)
{
    tag(s, field, 1);
    s->append(reinterpret_cast<const char *>(&v), 8);
}

// Hand-written wire bytes: the bench needs no pool of its own.
std::string order()
{
    std::string s;
    tag(&s, 1, 0);
    varint(&s, 9007199254740993ULL);
    bytes(&s, 2, "customer-000123@example.com");
    dbl(&s, 3, 129.95);
    tag(&s, 4, 0);
    varint(&s, 1);
    for (int i = 0; i < 3; ++i) {
        std::string item;
        bytes(&item, 1, "SKU-" + std::to_string(1000 + i));
        tag(&item, 2, 0);
        varint(&item, uint64_t(i + 1));
        dbl(&item, 3, 19.99 + i);
        bytes(&s, 5, item);
    }
    for (const char *k : {"channel", "region"}) {
        std::string entry;
        bytes(&entry, 1, k);
        bytes(&entry, 2, "web-eu-west");
        bytes(&s, 6, entry);
    }
    std::string ts;
    tag(&ts, 1, 0);
    varint(&ts, 1700000000);
    tag(&ts, 2, 0);
    varint(&ts, 123000000);
    bytes(&s, 7, ts);
    std::string addr;
    bytes(&addr, 1, "Amsterdam");
    bytes(&addr, 2, "Damrak 1");
    bytes(&s, 8, addr);
    return s;
}

} // namespace

int main()
{
    QString error;
    auto decoder = md::ProtobufDecoder::create(kSchema, {}, &error);
    if (!decoder) {
        std::fprintf(stderr, "schema: %s\n", qPrintable(error));
        return 1;
    }
    const std::string record = order();
    QByteArray json;
    if (!decoder->decode({0}, record.data(), record.size(), &json, &error)) {
        std::fprintf(stderr, "decode: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("record: %zu bytes, JSON %lld bytes\n%s\n", record.size(), static_cast<long long>(json.size()),
                json.constData());
    const int n = 300000;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i)
        decoder->decode({0}, record.data(), record.size(), &json, &error);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("protobuf: %.0f records/s, %.1f MB/s\n", n / s, n * double(record.size()) / s / 1e6);
    return 0;
}
