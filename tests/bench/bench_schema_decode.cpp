// Records/s and MB/s of the schema registry decoders on a ~200-byte record.
//   build-ci/tests/bench/bench_schema_decode avro [seconds, default 2]
// One function per mode; the protobuf mode is added beside avro.
#include "engine/schema/AvroDecoder.h"

#include <QElapsedTimer>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

void varint(QByteArray *b, qint64 v)
{
    quint64 z = (quint64(v) << 1) ^ quint64(v >> 63);
    for (; z >= 0x80; z >>= 7)
        *b += char((z & 0x7f) | 0x80);
    *b += char(z);
}
void str(QByteArray *b, const char *s)
{
    varint(b, qint64(std::strlen(s)));
    *b += s;
}

int benchAvro(double seconds)
{
    const char schema[] =
        "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"com.acme\",\"fields\":["
        "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"ts\",\"type\":\"long\"},"
        "{\"name\":\"customer\",\"type\":{\"type\":\"record\",\"name\":\"Customer\",\"fields\":["
        "{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"name\",\"type\":\"string\"},{\"name\":\"email\",\"type\":"
        "\"string\"},"
        "{\"name\":\"tier\",\"type\":{\"type\":\"enum\",\"name\":\"Tier\",\"symbols\":[\"SILVER\",\"GOLD\"]}}]}},"
        "{\"name\":\"total\",\"type\":\"double\"},{\"name\":\"note\",\"type\":[\"null\",\"string\"]},"
        "{\"name\":\"skus\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
        "{\"name\":\"attrs\",\"type\":{\"type\":\"map\",\"values\":\"string\"}}]}";
    QString error;
    const auto d = md::AvroDecoder::create(QByteArray(schema), {}, &error);
    if (!d) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    QByteArray rec;
    str(&rec, "o-88213-2026-12-03");
    varint(&rec, 1733212800123LL);
    varint(&rec, 4242);
    str(&rec, "Ann Lee");
    str(&rec, "ann.lee@example.com");
    varint(&rec, 1);
    const double total = 139.75;
    rec.append(reinterpret_cast<const char *>(&total), 8);
    varint(&rec, 1);
    str(&rec, "leave at the door, ring twice");
    varint(&rec, 3);
    for (const char *s : {"SKU-B7-0001", "SKU-A1-0042", "SKU-C3-0100"})
        str(&rec, s);
    varint(&rec, 0);
    varint(&rec, 2);
    str(&rec, "channel");
    str(&rec, "web-checkout");
    str(&rec, "campaign");
    str(&rec, "winter-sale-2026");
    varint(&rec, 0);
    QByteArray json;
    if (!d->decode(rec.constData(), size_t(rec.size()), &json, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    std::printf("record: %lld bytes, JSON %lld bytes\n%s\n", qint64(rec.size()), qint64(json.size()), json.constData());
    QElapsedTimer timer;
    timer.start();
    long long n = 0;
    while (timer.nsecsElapsed() < qint64(seconds * 1e9)) {
        for (int i = 0; i < 10000; ++i)
            d->decode(rec.constData(), size_t(rec.size()), &json, &error);
        n += 10000;
    }
    const double s = double(timer.nsecsElapsed()) / 1e9;
    std::printf("avro: %.0f records/s, %.1f MB/s in\n", double(n) / s, double(n) * double(rec.size()) / s / 1e6);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "avro";
    const double seconds = argc > 2 ? std::atof(argv[2]) : 2.0;
    if (std::strcmp(mode, "avro") == 0)
        return benchAvro(seconds);
    std::fprintf(stderr, "modes: avro\n");
    return 2;
}
