// Records/s through SchemaDecoderCache (wire prefix, cache lookup, decode) on
// the ~200-byte Avro order of bench_schema_decode, against the decoder alone,
// on 1..N threads. The registry is an in-memory lookup: this measures the
// cache's cost per record, not HTTP.
//   build-ci/tests/bench/bench_schema_decode_cache [seconds, default 2] [max threads, default 2]
#include "engine/schema/AvroDecoder.h"
#include "engine/schema/SchemaDecoding.h"
#include "engine/schema/SchemaRegistryClient.h"

#include <QElapsedTimer>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

const char kSchema[] =
    "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"com.acme\",\"fields\":["
    "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"ts\",\"type\":\"long\"},"
    "{\"name\":\"customer\",\"type\":{\"type\":\"record\",\"name\":\"Customer\",\"fields\":["
    "{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"name\",\"type\":\"string\"},{\"name\":\"email\",\"type\":"
    "\"string\"},"
    "{\"name\":\"tier\",\"type\":{\"type\":\"enum\",\"name\":\"Tier\",\"symbols\":[\"SILVER\",\"GOLD\"]}}]}},"
    "{\"name\":\"total\",\"type\":\"double\"},{\"name\":\"note\",\"type\":[\"null\",\"string\"]},"
    "{\"name\":\"skus\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
    "{\"name\":\"attrs\",\"type\":{\"type\":\"map\",\"values\":\"string\"}}]}";

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

QByteArray order()
{
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
    return rec;
}

class MemoryLookup final : public md::SchemaLookup {
public:
    std::atomic<int> calls{0};
    std::optional<md::RegistrySchema> schemaById(int id, md::RegistryError *error) override
    {
        ++calls;
        if (id != 1) {
            error->kind = md::RegistryError::Kind::NotFound;
            return std::nullopt;
        }
        return md::RegistrySchema{1, {}, 0, QStringLiteral("AVRO"), QByteArray(kSchema), {}};
    }
    std::optional<md::RegistrySchema> schemaByVersion(const QString &, int, md::RegistryError *error) override
    {
        error->kind = md::RegistryError::Kind::NotFound;
        return std::nullopt;
    }
    std::optional<QList<md::SubjectVersion>> versionsOfId(int, md::RegistryError *) override
    {
        return QList<md::SubjectVersion>{{QStringLiteral("orders-value"), 1}};
    }
};

// Runs `work` on `threads` threads for `seconds`: records/s over all of them.
template <typename Work> double rate(int threads, double seconds, Work work)
{
    std::atomic<long long> total{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&] {
            QElapsedTimer timer;
            timer.start();
            long long n = 0;
            while (timer.nsecsElapsed() < qint64(seconds * 1e9)) {
                for (int i = 0; i < 5000; ++i)
                    work();
                n += 5000;
            }
            total += n;
        });
    for (auto &t : pool)
        t.join();
    return double(total.load()) / seconds;
}

} // namespace

int main(int argc, char **argv)
{
    const double seconds = argc > 1 ? std::atof(argv[1]) : 2.0;
    const int maxThreads = argc > 2 ? std::atoi(argv[2]) : 2;
    const QByteArray payload = order();
    QByteArray wire(5, '\0');
    wire[4] = 1;
    wire += payload;
    QByteArray unknown = wire;
    unknown[4] = 2; // an id the registry does not have: the negative cache's path

    QString error;
    const auto direct = md::AvroDecoder::create(QByteArray(kSchema), {}, &error);
    auto lookup = std::make_shared<MemoryLookup>();
    md::SchemaDecoderCache cache(lookup, 60000);
    const md::DecodedPart first = cache.decode(wire);
    if (!direct || first.status != md::DecodedPart::Status::Decoded) {
        std::fprintf(stderr, "setup failed: %s%s\n", qPrintable(error), qPrintable(first.error));
        return 1;
    }
    std::printf("record: %lld bytes on the wire, JSON %lld bytes\n", qint64(wire.size()), qint64(first.json.size()));
    for (int threads = 1; threads <= maxThreads; threads *= 2) {
        const double alone = rate(threads, seconds, [&] {
            QByteArray json;
            QString e;
            direct->decode(payload.constData(), size_t(payload.size()), &json, &e);
        });
        const double cached = rate(threads, seconds, [&] { (void)cache.decode(wire); });
        const double failing = rate(threads, seconds, [&] { (void)cache.decode(unknown); });
        std::printf("threads %d: decoder alone %.0f records/s; through the cache %.0f records/s (%.0f%%, %.1f MB/s "
                    "in); unknown id (cached failure) %.0f records/s\n",
                    threads, alone, cached, 100.0 * cached / alone, cached * double(wire.size()) / 1e6, failing);
    }
    std::printf("registry lookups: %d\n", lookup->calls.load());
    return 0;
}
