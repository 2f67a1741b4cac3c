#include "engine/verify/VerifierDetail.h"

namespace md::verify_detail {

namespace {

constexpr quint64 kNullMarker = 0x6e756c6c2d6d6172ULL; // a null key/value/header value, distinct from empty

} // namespace

quint64 mix(quint64 h, quint64 v)
{
    // splitmix64 finaliser over the running value: order-sensitive combination.
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 31;
    return h;
}

namespace {

quint64 hashBytes(const void *data, size_t size, quint64 seed)
{
    if (!data)
        return mix(seed, kNullMarker);
    static const char empty = 0;
    return mix(qHashBits(size ? data : &empty, size, size_t(seed)), size + 1);
}

template <typename F> void forEachHeader(const rd_kafka_message_t *m, F &&f)
{
    rd_kafka_headers_t *headers = nullptr; // owned by the message
    if (rd_kafka_message_headers(m, &headers) != RD_KAFKA_RESP_ERR_NO_ERROR || !headers)
        return;
    const char *name = nullptr;
    const void *value = nullptr;
    size_t size = 0;
    for (size_t i = 0; rd_kafka_header_get_all(headers, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++i)
        f(name, value, size);
}

void addField(QCryptographicHash &sha, const void *data, size_t size)
{
    // Tag and length first, so null, empty and adjacent fields cannot be confused.
    const char tag = data ? 'b' : 'n';
    sha.addData(QByteArrayView(&tag, 1));
    const quint64 len = data ? quint64(size) : 0;
    sha.addData(QByteArrayView(reinterpret_cast<const char *>(&len), sizeof len));
    if (data && size)
        sha.addData(QByteArrayView(static_cast<const char *>(data), qsizetype(size)));
}

} // namespace

Fingerprint fingerprint(const rd_kafka_message_t *m, const QByteArray &ignoredHeader)
{
    Fingerprint fp;
    fp.key = hashBytes(m->key, m->key_len, 1);
    fp.value = hashBytes(m->payload, m->len, 2);
    quint64 h = 3;
    quint64 count = 0;
    forEachHeader(m, [&](const char *name, const void *value, size_t size) {
        if (!ignoredHeader.isEmpty() && ignoredHeader == name)
            return;
        h = hashBytes(name, qstrlen(name), h);
        h = hashBytes(value, size, h);
        ++count;
    });
    fp.headers = mix(h, count);
    rd_kafka_timestamp_type_t type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
    fp.timestamp = rd_kafka_message_timestamp(m, &type);
    return fp;
}

void addToDigest(QCryptographicHash &sha, const rd_kafka_message_t *m, const QByteArray &ignoredHeader)
{
    addField(sha, m->key, m->key_len);
    addField(sha, m->payload, m->len);
    const auto kept = [&](const char *name) { return ignoredHeader.isEmpty() || ignoredHeader != name; };
    quint64 count = 0;
    forEachHeader(m, [&](const char *name, const void *, size_t) { count += kept(name) ? 1 : 0; });
    sha.addData(QByteArrayView(reinterpret_cast<const char *>(&count), sizeof count));
    forEachHeader(m, [&](const char *name, const void *value, size_t size) {
        if (!kept(name))
            return;
        addField(sha, name, qstrlen(name));
        addField(sha, value, size);
    });
    rd_kafka_timestamp_type_t type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
    const qint64 ts = rd_kafka_message_timestamp(m, &type);
    sha.addData(QByteArrayView(reinterpret_cast<const char *>(&ts), sizeof ts));
}

QString describeDifference(const Fingerprint &source, const Fingerprint &target)
{
    QStringList what;
    if (source.key != target.key)
        what << QStringLiteral("key");
    if (source.value != target.value)
        what << QStringLiteral("value");
    if (source.headers != target.headers)
        what << QStringLiteral("headers");
    if (source.timestamp != target.timestamp)
        what << QStringLiteral("timestamp (source %1, target %2)").arg(source.timestamp).arg(target.timestamp);
    return what.join(QStringLiteral(", ")) +
           (what.size() == 1 ? QStringLiteral(" differs") : QStringLiteral(" differ"));
}

QString topicPartition(const QString &topic, int partition)
{
    return topic + QLatin1Char('[') + QString::number(partition) + QLatin1Char(']');
}

} // namespace md::verify_detail
