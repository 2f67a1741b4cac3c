// libFuzzer target: the message table's decoders (text, JSON, hex), the
// clipboard text and the JSON export of one record. The input is split into
// a timestamp, key, header value and value, so every field sees fuzzed bytes.
#include "model/tables/MessageTableModel.h"

#include <QByteArray>
#include <QJsonDocument>

#include <cstdint>
#include <cstring>

using namespace md;

namespace {

// Takes a length byte and that many bytes (fewer at the end); nullopt for 0xff.
std::optional<QByteArray> take(const uint8_t *&data, size_t &size)
{
    if (size == 0)
        return std::nullopt;
    const uint8_t n = *data++;
    --size;
    if (n == 0xff)
        return std::nullopt;
    const size_t len = std::min<size_t>(n, size);
    QByteArray out(reinterpret_cast<const char *>(data), qsizetype(len));
    data += len;
    size -= len;
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using Mode = MessageTableModel::DisplayMode;
    const QByteArray whole(reinterpret_cast<const char *>(data), qsizetype(size));
    for (Mode mode : {Mode::Text, Mode::Json, Mode::Hex, Mode::Decoded})
        (void)MessageTableModel::render(whole, mode);

    KafkaMessage m;
    m.topic = QStringLiteral("fuzz");
    if (size >= 8) {
        std::memcpy(&m.timestampMs, data, 8);
        data += 8;
        size -= 8;
    }
    m.key = take(data, size);
    m.headers.append({QStringLiteral("h"), take(data, size)});
    if (size > 0)
        m.value = QByteArray(reinterpret_cast<const char *>(data), qsizetype(size));
    for (Mode mode : {Mode::Text, Mode::Json, Mode::Hex, Mode::Decoded})
        (void)MessageTableModel::describe(m, mode);
    (void)QJsonDocument(MessageTableModel::toJson(m)).toJson();
    return 0;
}
