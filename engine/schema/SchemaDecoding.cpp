#include "engine/schema/SchemaDecoding.h"

#include "engine/core/JsonCompact.h"
#include "engine/schema/SchemaDecodingDetail.h"
#include "engine/schema/SchemaRegistryClient.h"

#include <QHash>
#include <QStringList>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace md {

using namespace schemadecoding;

namespace {

constexpr int kMaxMessageIndexes = 100;   // nesting a .proto would never reach
constexpr int kMaxMessageIndex = 1 << 20; // messages declared at one level
constexpr int kMaxUnknownIds = 32;        // distinct unknown ids asked for per negative window

// A zig-zag varint (what Confluent's serializer writes for the index list).
bool readZigZag(const char *data, size_t size, qsizetype *offset, qint64 *value)
{
    quint64 raw = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (size_t(*offset) >= size)
            return false;
        const auto byte = static_cast<unsigned char>(data[(*offset)++]);
        raw |= quint64(byte & 0x7f) << shift;
        if (!(byte & 0x80)) {
            *value = qint64(raw >> 1) ^ -qint64(raw & 1);
            return true;
        }
    }
    return false;
}

QString indexPath(const std::vector<int> &indexes)
{
    QStringList parts;
    for (int i : indexes)
        parts.append(QString::number(i));
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

} // namespace

std::optional<WirePrefix> parseWirePrefix(const char *data, size_t size)
{
    if (!data || size < 5 || data[0] != 0)
        return std::nullopt;
    const auto *u = reinterpret_cast<const unsigned char *>(data);
    const qint64 id = (qint64(u[1]) << 24) | (qint64(u[2]) << 16) | (qint64(u[3]) << 8) | qint64(u[4]);
    // Registries number schemas from 1; an id of 0 or with the top bit set is
    // far likelier a binary key (a big-endian long below 2^32) than a record.
    if (id <= 0 || id > 0x7fffffff)
        return std::nullopt;
    return WirePrefix{int(id), 5};
}

bool parseMessageIndexes(const char *data, size_t size, qsizetype *offset, std::vector<int> *indexes, QString *error)
{
    indexes->clear();
    const qsizetype start = *offset;
    qint64 count = 0;
    if (!readZigZag(data, size, offset, &count)) {
        *error = QStringLiteral("the message index list at byte %1 is truncated").arg(start);
        return false;
    }
    if (count == 0) {
        indexes->push_back(0);
        return true;
    }
    if (count < 0 || count > kMaxMessageIndexes) {
        *error = QStringLiteral("the message index count %1 at byte %2 is implausible").arg(count).arg(start);
        return false;
    }
    for (qint64 i = 0; i < count; ++i) {
        const qsizetype at = *offset;
        qint64 index = 0;
        if (!readZigZag(data, size, offset, &index)) {
            *error = QStringLiteral("the message index list at byte %1 is truncated").arg(at);
            return false;
        }
        if (index < 0 || index > kMaxMessageIndex) {
            *error = QStringLiteral("the message index %1 at byte %2 is implausible").arg(index).arg(at);
            return false;
        }
        indexes->push_back(int(index));
    }
    return true;
}

struct SchemaDecoderCache::Impl {
    using Clock = std::chrono::steady_clock;
    // One schema id: being built (ready false), built, or failed until `expires`.
    struct Slot {
        bool ready = false;
        std::shared_ptr<const BuiltSchema> schema; // null when the build failed
        QString error;
        Clock::time_point expires;
    };

    quint64 serial = 0; // this cache among all (t_recent)
    std::shared_ptr<SchemaLookup> lookup;
    Clock::duration negativeFor;
    std::mutex mutex;
    std::condition_variable built; // a slot became ready
    QHash<int, Slot> slots;
    // The registry did not answer: until then no new id is asked for (each
    // would wait out the client's timeout), every one fails with this reason.
    Clock::time_point downUntil;
    QString downReason;
    // Ids the registry did not know, in the window that began at unknownSince.
    // Bytes that only look like the wire format (binary data beginning with 0)
    // carry random ids: past a few, they are not asked for any more.
    Clock::time_point unknownSince;
    int unknownCount = 0;

    static Slot failure(const QString &error)
    {
        Slot s;
        s.ready = true;
        s.error = error;
        return s;
    }

    // The decoder of `id`, built on first use. One thread builds an id while
    // others wanting it wait, so a burst of one new id makes one request; the
    // mutex is not held during the registry calls.
    Slot get(int id)
    {
        std::unique_lock lock(mutex);
        Clock::time_point now;
        for (;;) {
            const auto it = slots.constFind(id);
            now = Clock::now();
            if (it == slots.cend())
                break;
            if (!it->ready) {
                built.wait(lock);
                continue;
            }
            if (it->schema || now < it->expires)
                return *it;
            break; // a failure whose time is up: ask again
        }
        if (now < downUntil)
            return failure(downReason);
        if (unknownCount >= kMaxUnknownIds && now < unknownSince + negativeFor)
            return failure(QStringLiteral("schema %1 was not looked up: the registry knew none of the last %2 ids "
                                          "asked for, so these bytes are likely not in its wire format")
                               .arg(id)
                               .arg(unknownCount));
        slots.insert(id, Slot{});
        lock.unlock();
        Slot result;
        result.ready = true;
        RegistryError::Kind cause = RegistryError::Kind::None;
        if (lookup)
            result.schema = buildSchema(*lookup, id, &result.error, &cause);
        else
            result.error = QStringLiteral("no schema registry is configured");
        lock.lock();
        now = Clock::now();
        result.expires = now + negativeFor;
        // A registry that cannot be trusted (TLS) is as good as down until the window ends.
        if (cause == RegistryError::Kind::Unreachable || cause == RegistryError::Kind::Tls) {
            downUntil = result.expires;
            downReason = result.error;
        } else if (cause == RegistryError::Kind::NotFound) {
            if (now >= unknownSince + negativeFor) {
                unknownSince = now;
                unknownCount = 0;
            }
            ++unknownCount;
        } else if (result.schema) {
            unknownCount = 0; // the ids seen are real after all
        }
        slots.insert(id, result);
        built.notify_all();
        return result;
    }
};

namespace {

// The schemas a thread used last, so that decoding a record of a known id
// takes neither the cache's mutex nor a shared reference count (each thread
// has its own copy of the subject): several threads then decode at the
// decoder's own rate. A built schema lives as long as its cache (only failures
// are ever replaced), and `owner` is the cache's serial, never reused.
struct RecentSchema {
    quint64 owner = 0;
    int id = 0;
    const BuiltSchema *schema = nullptr;
    QString subject;
};
thread_local std::array<RecentSchema, 4> t_recent;
thread_local unsigned t_nextRecent = 0;
std::atomic<quint64> g_nextSerial{1};

} // namespace

SchemaDecoderCache::SchemaDecoderCache(std::shared_ptr<SchemaLookup> lookup, int negativeCacheMs) : d(new Impl)
{
    d->serial = g_nextSerial++;
    d->lookup = std::move(lookup);
    d->negativeFor = std::chrono::milliseconds(qMax(0, negativeCacheMs));
}

SchemaDecoderCache::~SchemaDecoderCache() = default;

DecodedPart SchemaDecoderCache::decode(const char *data, size_t size)
{
    DecodedPart part;
    const std::optional<WirePrefix> prefix = parseWirePrefix(data, size);
    if (!prefix)
        return part;
    const int id = prefix->schemaId;
    part.schemaId = id;
    const RecentSchema *recent = nullptr;
    for (const RecentSchema &r : t_recent) {
        if (r.owner == d->serial && r.id == id) {
            recent = &r;
            break;
        }
    }
    if (!recent) {
        const Impl::Slot slot = d->get(id);
        if (!slot.schema) {
            part.status = DecodedPart::Status::Failed;
            part.error = slot.error;
            return part;
        }
        RecentSchema &r = t_recent[t_nextRecent++ % t_recent.size()];
        r = {d->serial, id, slot.schema.get(), QString(slot.schema->subject.constData(), slot.schema->subject.size())};
        recent = &r;
    }
    const BuiltSchema &schema = *recent->schema;
    part.type = schema.type;
    part.subject = recent->subject;
    part.version = schema.version;
    auto fail = [&](const QString &why) {
        part.status = DecodedPart::Status::Failed;
        part.json.clear();
        part.error = QStringLiteral("schema %1 (%2)").arg(id).arg(schema.type) + why;
        return part;
    };
    qsizetype offset = prefix->payloadOffset;
    QString why;
    bool ok = false;
    if (schema.avro) {
        ok = schema.avro->decode(data + offset, size - size_t(offset), &part.json, &why);
    } else if (schema.protobuf) {
        std::vector<int> indexes;
        if (!parseMessageIndexes(data, size, &offset, &indexes, &why))
            return fail(QStringLiteral(": ") + why);
        part.message = schema.protobuf->messageName(indexes);
        if (part.message.isEmpty())
            return fail(QStringLiteral(" has no message type at index path ") + indexPath(indexes));
        ok = schema.protobuf->decode(indexes, data + offset, size - size_t(offset), &part.json, &why);
    } else {
        ok = compactJson(data + offset, size - size_t(offset), &part.json, &why);
    }
    // The decoders count bytes from the payload's first; the text says where that is in the record.
    if (!ok)
        return fail(QStringLiteral(" does not match the payload after the %1-byte prefix: ").arg(offset) + why);
    part.status = DecodedPart::Status::Decoded;
    return part;
}

} // namespace md
