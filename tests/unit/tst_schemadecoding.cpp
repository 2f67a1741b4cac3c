#include "engine/schema/SchemaDecoding.h"
#include "engine/schema/SchemaRegistryClient.h"

#include <QElapsedTimer>
#include <QHash>
#include <QTest>
#include <QThread>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

using namespace md;

namespace {

// A registry in memory that counts what it is asked. Filled before use, then
// read from several threads; `unreachable` and `delayMs` may change meanwhile.
class FakeLookup final : public SchemaLookup {
public:
    QHash<int, RegistrySchema> byId;
    QHash<QPair<QString, int>, RegistrySchema> byVersion;
    QHash<int, QList<SubjectVersion>> where;
    std::atomic<int> idCalls{0}, versionCalls{0}, whereCalls{0};
    std::atomic<bool> unreachable{false};
    std::atomic<int> delayMs{0};

    void add(int id, const QString &type, const QByteArray &text, const QString &subject = {}, int version = 0,
             const QList<SchemaReference> &refs = {})
    {
        RegistrySchema s{id, {}, 0, type, text, refs};
        byId.insert(id, s);
        if (!subject.isEmpty()) {
            where.insert(id, {{subject, version}});
            s.subject = subject;
            s.version = version;
            byVersion.insert({subject, version}, s);
        }
    }

    std::optional<RegistrySchema> schemaById(int id, RegistryError *error) override
    {
        ++idCalls;
        if (delayMs > 0)
            QThread::msleep(ulong(delayMs.load()));
        if (unreachable) {
            *error = {RegistryError::Kind::Unreachable, 0, QStringLiteral("connection refused")};
            return std::nullopt;
        }
        if (!byId.contains(id)) {
            *error = {RegistryError::Kind::NotFound, 404, QStringLiteral("Schema not found")};
            return std::nullopt;
        }
        return byId.value(id);
    }
    std::optional<RegistrySchema> schemaByVersion(const QString &subject, int version, RegistryError *error) override
    {
        ++versionCalls;
        const auto it = byVersion.constFind({subject, version});
        if (it == byVersion.cend()) {
            *error = {RegistryError::Kind::NotFound, 404, QStringLiteral("Subject not found")};
            return std::nullopt;
        }
        return *it;
    }
    std::optional<QList<SubjectVersion>> versionsOfId(int id, RegistryError *error) override
    {
        ++whereCalls;
        if (!where.contains(id)) {
            *error = {RegistryError::Kind::NotFound, 404, QStringLiteral("Schema not found")};
            return std::nullopt;
        }
        return where.value(id);
    }
};

QByteArray prefix(int id)
{
    QByteArray b(5, '\0');
    b[1] = char((id >> 24) & 0xff);
    b[2] = char((id >> 16) & 0xff);
    b[3] = char((id >> 8) & 0xff);
    b[4] = char(id & 0xff);
    return b;
}

// Avro binary by hand: zig-zag varints and length-prefixed strings.
QByteArray avroLong(qint64 v)
{
    QByteArray b;
    quint64 z = (quint64(v) << 1) ^ quint64(v >> 63);
    while (z >= 0x80) {
        b += char((z & 0x7f) | 0x80);
        z >>= 7;
    }
    b += char(z);
    return b;
}
QByteArray avroString(const QByteArray &s)
{
    return avroLong(s.size()) + s;
}

// Avro: Pay uses Money (which uses Currency) and Currency directly, so the
// references are two levels deep and Currency is reached twice.
const QByteArray kCurrency =
    "{\"type\":\"enum\",\"name\":\"Currency\",\"namespace\":\"com.acme\",\"symbols\":[\"EUR\",\"USD\"]}";
const QByteArray kMoney = "{\"type\":\"record\",\"name\":\"Money\",\"namespace\":\"com.acme\",\"fields\":["
                          "{\"name\":\"cents\",\"type\":\"long\"},{\"name\":\"cur\",\"type\":\"Currency\"}]}";
const QByteArray kPay = "{\"type\":\"record\",\"name\":\"Pay\",\"namespace\":\"x\",\"fields\":["
                        "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"amount\",\"type\":\"com.acme.Money\"},"
                        "{\"name\":\"home\",\"type\":\"com.acme.Currency\"}]}";
QByteArray payRecord()
{
    return avroString("p-1") + avroLong(1250) + avroLong(1) + avroLong(0);
}
const QByteArray kPayJson = "{\"id\":\"p-1\",\"amount\":{\"cents\":1250,\"cur\":\"USD\"},\"home\":\"EUR\"}";

// Protobuf: order.proto imports common.proto, which imports shop/money.proto.
const QByteArray kProtoMoney =
    "syntax = \"proto3\"; package shop.money; message Money { string currency = 1; int64 units = 2; }";
const QByteArray kProtoCommon = "syntax = \"proto3\"; package shop.common; import \"shop/money.proto\";"
                                "message Price { shop.money.Money amount = 1; }";
const QByteArray kProtoOrder = "syntax = \"proto3\"; package shop; import \"common.proto\";"
                               "message Order { string id = 1; message Line { int64 qty = 1; "
                               "shop.common.Price price = 2; } }";
// shop.Order.Line{qty: 3, price: {amount: {currency: "EUR", units: 12}}}, index path [0, 0].
QByteArray lineRecord()
{
    const QByteArray money = QByteArray("\x0a\x03"
                                        "EUR\x10\x0c",
                                        7);
    const QByteArray price = QByteArray("\x0a\x07", 2) + money;
    const QByteArray line = QByteArray("\x08\x03\x12\x09", 4) + price;
    return QByteArray("\x04\x00\x00", 3) + line;
}
const QByteArray kLineJson = "{\"qty\":3,\"price\":{\"amount\":{\"currency\":\"EUR\",\"units\":12}}}";

// Message indexes and map fields. Confluent's serializers number a message
// by its place in the FileDescriptorProto's message_type and each
// DescriptorProto's nested_type, and protoc puts a map field's synthetic
// XxxEntry message in nested_type where the field is declared: Item below is
// [0, 1] (CountsEntry is [0, 0]) and Note is [0, 3] (after IndexEntry), not
// [0, 0] and [0, 1] as a count that skips map entries would have it.
const QByteArray kProtoMaps = "syntax = \"proto3\"; package maps;\n"
                              "message Cart {\n"
                              "  map<string, int64> counts = 1;\n"
                              "  message Item { string sku = 1; int32 qty = 2; }\n"
                              "  repeated Item items = 2;\n"
                              "  map<int32, Item> index = 3;\n"
                              "  message Note { string text = 1; }\n"
                              "}\n"
                              "message Other { int32 x = 1; }\n";
// The same Cart as Confluent's Java serializer registers a compiled class's
// schema: the map entry written out as a nested message with map_entry set.
const QByteArray kProtoMapsExplicit = "syntax = \"proto3\"; package mapsx;\n"
                                      "message Cart {\n"
                                      "  repeated CountsEntry counts = 1;\n"
                                      "  repeated Item items = 2;\n"
                                      "  message CountsEntry {\n"
                                      "    option map_entry = true;\n"
                                      "    string key = 1;\n"
                                      "    int64 value = 2;\n"
                                      "  }\n"
                                      "  message Item { string sku = 1; int32 qty = 2; }\n"
                                      "}\n";
// Cart.Item{sku: "a-1", qty: 2}, Cart.Note{text: "hi"}, Cart{counts: {"k": 5}}.
const QByteArray kItemBytes("\x0a\x03"
                            "a-1\x10\x02",
                            7);
const QByteArray kNoteBytes("\x0a\x02"
                            "hi",
                            4);
const QByteArray kCartBytes("\x0a\x05\x0a\x01k\x10\x05", 7);

std::shared_ptr<FakeLookup> registry()
{
    auto r = std::make_shared<FakeLookup>();
    r->add(10, QStringLiteral("AVRO"), kCurrency, QStringLiteral("currency"), 1);
    r->add(11, QStringLiteral("AVRO"), kMoney, QStringLiteral("money"), 3,
           {{QStringLiteral("com.acme.Currency"), QStringLiteral("currency"), 1}});
    r->add(1, QStringLiteral("AVRO"), kPay, QStringLiteral("pay-value"), 2,
           {{QStringLiteral("com.acme.Money"), QStringLiteral("money"), 3},
            {QStringLiteral("com.acme.Currency"), QStringLiteral("currency"), 1}});
    r->add(20, QStringLiteral("PROTOBUF"), kProtoMoney, QStringLiteral("shop/money.proto"), 1);
    r->add(21, QStringLiteral("PROTOBUF"), kProtoCommon, QStringLiteral("common.proto"), 1,
           {{QStringLiteral("shop/money.proto"), QStringLiteral("shop/money.proto"), 1}});
    r->add(2, QStringLiteral("PROTOBUF"), kProtoOrder, QStringLiteral("orders-value"), 7,
           {{QStringLiteral("common.proto"), QStringLiteral("common.proto"), 1}});
    r->add(3, QStringLiteral("JSON"), "{\"type\":\"object\"}", QStringLiteral("events-value"), 1);
    r->add(30, QStringLiteral("PROTOBUF"), kProtoMaps, QStringLiteral("maps-value"), 1);
    r->add(31, QStringLiteral("PROTOBUF"), kProtoMapsExplicit, QStringLiteral("mapsx-value"), 1);
    return r;
}

} // namespace

class TstSchemaDecoding final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void wirePrefix()
    {
        const QByteArray ok = prefix(17) + "x";
        const auto p = parseWirePrefix(ok.constData(), size_t(ok.size()));
        QVERIFY(p);
        QCOMPARE(p->schemaId, 17);
        QCOMPARE(p->payloadOffset, qsizetype(5));
        QVERIFY(parseWirePrefix(prefix(17).constData(), 5));
        QVERIFY(!parseWirePrefix(prefix(17).constData(), 4));
        const QByteArray magic1 = QByteArray("\x01", 1) + prefix(17).mid(1);
        QVERIFY(!parseWirePrefix(magic1.constData(), 5));
        // An 8-byte big-endian long key below 2^32 reads as id 0: not a record of a registry.
        QVERIFY(!parseWirePrefix(QByteArray(8, '\0').constData(), 8));
        QVERIFY(!parseWirePrefix("\x00\x80\x00\x00\x01", 5));
    }

    void messageIndexes_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QList<int>>("expected"); // empty: an error
        QTest::addColumn<int>("end");             // where the list ends, or the byte an error names (after the prefix)
        QTest::newRow("count 0 is [0]") << QByteArray("\x00", 1) << QList<int>{0} << 1;
        QTest::newRow("[1]") << QByteArray("\x02\x02", 2) << QList<int>{1} << 2;
        QTest::newRow("[1, 0]") << QByteArray("\x04\x02\x00", 3) << QList<int>{1, 0} << 3;
        QTest::newRow("[70]") << QByteArray("\x02\x8c\x01", 3) << QList<int>{70} << 3;
        QTest::newRow("truncated list") << QByteArray("\x04\x02", 2) << QList<int>{} << 2;
        QTest::newRow("truncated varint") << QByteArray("\x02\x80", 2) << QList<int>{} << 1;
        QTest::newRow("empty") << QByteArray() << QList<int>{} << 0;
        QTest::newRow("negative count") << QByteArray("\x01", 1) << QList<int>{} << 0;
        QTest::newRow("count 101") << QByteArray("\xca\x01", 2) << QList<int>{} << 0;
        QTest::newRow("negative index") << QByteArray("\x02\x01", 2) << QList<int>{} << 1;
        QTest::newRow("endless varint") << QByteArray(11, '\xff') << QList<int>{} << 0;
    }
    void messageIndexes()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QList<int>, expected);
        QFETCH(int, end);
        const QByteArray data = prefix(1) + bytes;
        qsizetype offset = 5;
        std::vector<int> indexes;
        QString error;
        const bool ok = parseMessageIndexes(data.constData(), size_t(data.size()), &offset, &indexes, &error);
        QCOMPARE(ok, !expected.isEmpty());
        if (ok) {
            QCOMPARE(QList<int>(indexes.begin(), indexes.end()), expected);
            QCOMPARE(offset, qsizetype(5 + end));
        } else {
            QVERIFY2(error.contains(QStringLiteral("at byte %1").arg(5 + end)), qPrintable(error));
        }
    }

    void avroWithReferences()
    {
        auto r = registry();
        SchemaDecoderCache cache(r);
        const DecodedPart part = cache.decode(prefix(1) + payRecord());
        QCOMPARE(part.error, QString());
        QCOMPARE(part.status, DecodedPart::Status::Decoded);
        QCOMPARE(part.json, kPayJson);
        QCOMPARE(part.schemaId, 1);
        QCOMPARE(part.type, QStringLiteral("AVRO"));
        QCOMPARE(part.subject, QStringLiteral("pay-value"));
        QCOMPARE(part.version, 2);
        QCOMPARE(r->idCalls.load(), 1);
        QCOMPARE(r->versionCalls.load(), 2); // money and currency, each once
        QCOMPARE(r->whereCalls.load(), 1);
    }

    void protobufWithImports()
    {
        auto r = registry();
        SchemaDecoderCache cache(r);
        const DecodedPart part = cache.decode(prefix(2) + lineRecord());
        QCOMPARE(part.error, QString());
        QCOMPARE(part.status, DecodedPart::Status::Decoded);
        QCOMPARE(part.json, kLineJson);
        QCOMPARE(part.type, QStringLiteral("PROTOBUF"));
        QCOMPARE(part.message, QStringLiteral("shop.Order.Line"));
        QCOMPARE(part.subject, QStringLiteral("orders-value"));
        QCOMPARE(part.version, 7);
        QCOMPARE(r->versionCalls.load(), 2);

        // Count 0: the file's first message.
        const DecodedPart order = cache.decode(prefix(2) + QByteArray("\x00\x0a\x03o-1", 6));
        QCOMPARE(order.status, DecodedPart::Status::Decoded);
        QCOMPARE(order.message, QStringLiteral("shop.Order"));
        QCOMPARE(order.json, QByteArray("{\"id\":\"o-1\"}"));

        const DecodedPart none = cache.decode(prefix(2) + QByteArray("\x04\x00\x04", 3));
        QCOMPARE(none.status, DecodedPart::Status::Failed);
        QCOMPARE(none.error, QStringLiteral("schema 2 (PROTOBUF) has no message type at index path [0, 2]"));
        const DecodedPart bad = cache.decode(prefix(2) + QByteArray("\x04\x02", 2));
        QCOMPARE(bad.status, DecodedPart::Status::Failed);
        QCOMPARE(bad.error, QStringLiteral("schema 2 (PROTOBUF): the message index list at byte 7 is truncated"));
        QCOMPARE(r->idCalls.load(), 1);
    }

    void protobufIndexesCountMapEntries_data()
    {
        QTest::addColumn<int>("id");
        QTest::addColumn<QByteArray>("indexes"); // the wire's zig-zag list: count, then each index
        QTest::addColumn<QByteArray>("payload");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("[0, 1]: the message after a map field")
            << 30 << QByteArray("\x04\x00\x02", 3) << kItemBytes << QStringLiteral("maps.Cart.Item")
            << QByteArray("{\"sku\":\"a-1\",\"qty\":2}");
        QTest::newRow("[0, 3]: after two map fields")
            << 30 << QByteArray("\x04\x00\x06", 3) << kNoteBytes << QStringLiteral("maps.Cart.Note")
            << QByteArray("{\"text\":\"hi\"}");
        QTest::newRow("[0]: the parent, its map as a map")
            << 30 << QByteArray("\x00", 1) << kCartBytes << QStringLiteral("maps.Cart")
            << QByteArray("{\"counts\":{\"k\":5},\"items\":[],\"index\":{}}");
        QTest::newRow("[1]: the next top-level message") << 30 << QByteArray("\x02\x02", 2) << QByteArray("\x08\x07", 2)
                                                         << QStringLiteral("maps.Other") << QByteArray("{\"x\":7}");
        QTest::newRow("explicit map entry, [0, 1]")
            << 31 << QByteArray("\x04\x00\x02", 3) << kItemBytes << QStringLiteral("mapsx.Cart.Item")
            << QByteArray("{\"sku\":\"a-1\",\"qty\":2}");
        QTest::newRow("explicit map entry, [0]: still a map")
            << 31 << QByteArray("\x00", 1) << kCartBytes << QStringLiteral("mapsx.Cart")
            << QByteArray("{\"counts\":{\"k\":5},\"items\":[]}");
    }
    void protobufIndexesCountMapEntries()
    {
        QFETCH(int, id);
        QFETCH(QByteArray, indexes);
        QFETCH(QByteArray, payload);
        QFETCH(QString, message);
        QFETCH(QByteArray, json);
        SchemaDecoderCache cache(registry());
        const DecodedPart part = cache.decode(prefix(id) + indexes + payload);
        QCOMPARE(part.error, QString());
        QCOMPARE(part.status, DecodedPart::Status::Decoded);
        QCOMPARE(part.message, message);
        QCOMPARE(part.json, json);
    }

    void jsonPassThrough()
    {
        auto r = registry();
        SchemaDecoderCache cache(r);
        const DecodedPart part =
            cache.decode(prefix(3) + " {\n \"a\" : [1, 2.5e3, 9007199254740993] ,\t\"b\":\"x y \\\" z\" } ");
        QCOMPARE(part.error, QString());
        QCOMPARE(part.status, DecodedPart::Status::Decoded);
        QCOMPARE(part.json, QByteArray("{\"a\":[1,2.5e3,9007199254740993],\"b\":\"x y \\\" z\"}"));
        QCOMPARE(part.type, QStringLiteral("JSON"));
        QCOMPARE(cache.decode(prefix(3) + "\"s\"").json, QByteArray("\"s\""));

        const DecodedPart bad = cache.decode(prefix(3) + "{\"a\": tru}");
        QCOMPARE(bad.status, DecodedPart::Status::Failed);
        QCOMPARE(
            bad.error,
            QStringLiteral("schema 3 (JSON) does not match the payload after the 5-byte prefix: not JSON at byte 9"));
        // UTF-8 in strings passes as it is; bytes that are not UTF-8 are not JSON (found by fuzz_jsonschema).
        QCOMPARE(cache.decode(prefix(3) + "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"").json,
                 QByteArray("\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\""));
        for (const char *text :
             {"", "{", "[1,]", "{\"a\"}", "01", "1.", "\"\x01\"", "{} x", "-", "\"caf\xc3\xff\"", "\"\xc0\xaf\"",
              "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"", "\"\xe2\x82\"", "\"\x80\""}) {
            const DecodedPart p = cache.decode(prefix(3) + text);
            QVERIFY2(p.status == DecodedPart::Status::Failed, text);
            QVERIFY2(p.error.contains(QStringLiteral("at byte")), qPrintable(p.error));
        }
        QCOMPARE(r->idCalls.load(), 1);
    }

    void plain()
    {
        auto r = registry();
        SchemaDecoderCache cache(r);
        QCOMPARE(cache.decode(QByteArray("hello")), DecodedPart{});
        QCOMPARE(cache.decode(QByteArray()), DecodedPart{});
        QCOMPARE(cache.decode(nullptr, 0), DecodedPart{});
        // Magic 0 but shorter than the prefix: Plain, not Failed. Such bytes
        // cannot be a record of a registry, and short binary keys (a
        // big-endian int below 2^24) look just like this.
        QCOMPARE(cache.decode(QByteArray("\x00\x00\x00\x01", 4)).status, DecodedPart::Status::Plain);
        QCOMPARE(r->idCalls.load(), 0);
    }

    void unknownIdIsCachedForAWhile()
    {
        auto r = registry();
        SchemaDecoderCache cache(r, 1000);
        const DecodedPart part = cache.decode(prefix(99) + "x");
        QCOMPARE(part.status, DecodedPart::Status::Failed);
        QCOMPARE(part.schemaId, 99);
        QCOMPARE(part.error, QStringLiteral("schema 99 is not in the registry"));
        QCOMPARE(r->idCalls.load(), 1);
        QElapsedTimer clock;
        clock.start();
        for (int i = 0; i < 100; ++i)
            QCOMPARE(cache.decode(prefix(99) + "y").error, part.error);
        QVERIFY(clock.elapsed() < 1000); // else the window may have passed: the count below would not prove it
        QCOMPARE(r->idCalls.load(), 1);
        QThread::msleep(1100);
        QCOMPARE(cache.decode(prefix(99) + "x").status, DecodedPart::Status::Failed);
        QCOMPARE(r->idCalls.load(), 2);
    }

    void unreachable()
    {
        auto r = registry();
        r->unreachable = true;
        SchemaDecoderCache cache(r, 0);
        const DecodedPart part = cache.decode(prefix(1) + payRecord());
        QCOMPARE(part.status, DecodedPart::Status::Failed);
        QCOMPARE(part.error, QStringLiteral("the schema registry did not answer: connection refused"));
        r->unreachable = false; // with no negative window, the next record asks again
        QCOMPARE(cache.decode(prefix(1) + payRecord()).json, kPayJson);
        QCOMPARE(r->idCalls.load(), 2);
    }

    void unreachableRegistryFailsFast()
    {
        auto r = registry();
        r->unreachable = true;
        SchemaDecoderCache cache(r, 1000);
        const QString reason = QStringLiteral("the schema registry did not answer: connection refused");
        QCOMPARE(cache.decode(prefix(1) + payRecord()).error, reason);
        QCOMPARE(r->idCalls.load(), 1);
        // Another id meanwhile: not asked (each would wait out the client's timeout).
        QElapsedTimer clock;
        clock.start();
        QCOMPARE(cache.decode(prefix(2) + lineRecord()).error, reason);
        QCOMPARE(cache.decode(prefix(3) + "1").error, reason);
        QVERIFY(clock.elapsed() < 1000);
        QCOMPARE(r->idCalls.load(), 1);
        r->unreachable = false;
        QThread::msleep(1100);
        QCOMPARE(cache.decode(prefix(2) + lineRecord()).json, kLineJson);
        QCOMPARE(cache.decode(prefix(1) + payRecord()).json, kPayJson);
        QCOMPARE(r->idCalls.load(), 3);
    }

    void manyUnknownIdsStopBeingAsked()
    {
        auto r = registry();
        SchemaDecoderCache cache(r, 60000);
        QCOMPARE(cache.decode(prefix(1) + payRecord()).json, kPayJson);
        // Binary values that begin with 0 read as random ids.
        for (int id = 1000; id < 1100; ++id)
            QCOMPARE(cache.decode(prefix(id) + "x").status, DecodedPart::Status::Failed);
        QCOMPARE(r->idCalls.load(), 1 + 32);
        QCOMPARE(cache.decode(prefix(1000) + "x").error, QStringLiteral("schema 1000 is not in the registry"));
        QVERIFY2(cache.decode(prefix(1099) + "x").error.startsWith(QStringLiteral("schema 1099 was not looked up: ")),
                 qPrintable(cache.decode(prefix(1099) + "x").error));
        // Ids already built still decode.
        QCOMPARE(cache.decode(prefix(1) + payRecord()).json, kPayJson);
        QCOMPARE(r->idCalls.load(), 1 + 32);
    }

    void corruptPayload()
    {
        auto r = registry();
        SchemaDecoderCache cache(r);
        const QByteArray good = payRecord();
        // The enum index of `home` is out of range: the decoder names its byte.
        QByteArray wrong = good;
        wrong[wrong.size() - 1] = char(4); // zig-zag 2: no third symbol
        const DecodedPart part = cache.decode(prefix(1) + wrong);
        QCOMPARE(part.status, DecodedPart::Status::Failed);
        QVERIFY2(part.error.startsWith(QStringLiteral(
                     "schema 1 (AVRO) does not match the payload after the 5-byte prefix: bad enum index 2 "
                     "at byte 7")),
                 qPrintable(part.error));
        QVERIFY(part.json.isEmpty());
        QCOMPARE(part.subject, QStringLiteral("pay-value")); // what the record claims to be is still shown
        for (qsizetype n = 0; n < good.size(); ++n) {
            const DecodedPart cut = cache.decode(prefix(1) + good.left(n));
            QCOMPARE(cut.status, DecodedPart::Status::Failed);
            QVERIFY2(cut.error.contains(QStringLiteral("at byte")), qPrintable(cut.error));
        }
        const DecodedPart proto = cache.decode(prefix(2) + QByteArray("\x00\xff\xff\xff", 4));
        QCOMPARE(proto.status, DecodedPart::Status::Failed);
        QVERIFY2(proto.error.startsWith(
                     QStringLiteral("schema 2 (PROTOBUF) does not match the payload after the 6-byte prefix: ")),
                 qPrintable(proto.error));
        QCOMPARE(r->idCalls.load(), 2);
    }

    void badSchemasAndReferences()
    {
        auto r = std::make_shared<FakeLookup>();
        r->add(1, QStringLiteral("AVRO"), "{\"type\":\"nope\"}");
        r->add(2, QStringLiteral("AVRO"), kMoney); // Currency not referenced
        r->add(3, QStringLiteral("AVRO"), kPay, {}, 0,
               {{QStringLiteral("com.acme.Money"), QStringLiteral("money"), 9}});
        // a -> b -> a
        r->add(40, QStringLiteral("PROTOBUF"), "syntax = \"proto3\";", QStringLiteral("a"), 1,
               {{QStringLiteral("b.proto"), QStringLiteral("b"), 1}});
        r->add(41, QStringLiteral("PROTOBUF"), "syntax = \"proto3\";", QStringLiteral("b"), 1,
               {{QStringLiteral("a.proto"), QStringLiteral("a"), 1}});
        r->add(4, QStringLiteral("PROTOBUF"), "syntax = \"proto3\";", {}, 0,
               {{QStringLiteral("a.proto"), QStringLiteral("a"), 1}});
        // A chain deeper than the limit: 5 -> c0 -> c1 -> ... -> c19.
        for (int i = 0; i < 20; ++i)
            r->add(100 + i, QStringLiteral("AVRO"), kCurrency, QStringLiteral("c%1").arg(i), 1,
                   i == 19 ? QList<SchemaReference>{}
                           : QList<SchemaReference>{
                                 {QStringLiteral("n%1").arg(i + 1), QStringLiteral("c%1").arg(i + 1), 1}});
        r->add(5, QStringLiteral("AVRO"), kCurrency, {}, 0, {{QStringLiteral("n0"), QStringLiteral("c0"), 1}});
        r->add(6, QStringLiteral("XML"), "<a/>");

        SchemaDecoderCache cache(r);
        auto error = [&](int id) { return cache.decode(prefix(id) + "\x02").error; };
        QVERIFY2(error(1).startsWith(QStringLiteral("schema 1 (AVRO) does not build: schema: ")), qPrintable(error(1)));
        QVERIFY2(error(2).startsWith(QStringLiteral("schema 2 (AVRO) does not build: ")), qPrintable(error(2)));
        QCOMPARE(error(3), QStringLiteral("schema 3 (AVRO): reference \"com.acme.Money\" (subject money, version 9): "
                                          "it is not in the registry"));
        QCOMPARE(error(4),
                 QStringLiteral("schema 4 (PROTOBUF): the references form a cycle: a.proto -> b.proto -> a.proto"));
        QVERIFY2(error(5).startsWith(QStringLiteral("schema 5 (AVRO): references nested more than 16 deep at n0 -> ")),
                 qPrintable(error(5)));
        QCOMPARE(error(6), QStringLiteral("schema 6 (XML) is of a type MirrorDesk cannot decode"));
        const int calls = r->idCalls + r->versionCalls;
        for (int id : {1, 2, 3, 4, 5, 6})
            QCOMPARE(cache.decode(prefix(id) + "\x02").status, DecodedPart::Status::Failed);
        QCOMPARE(r->idCalls + r->versionCalls, calls); // failed builds are cached too
    }

    void fetchesOncePerId()
    {
        auto r = registry();
        SchemaDecoderCache cache(r);
        const QByteArray avro = prefix(1) + payRecord();
        const QByteArray proto = prefix(2) + lineRecord();
        for (int i = 0; i < 1000; ++i) {
            QCOMPARE(cache.decode(avro).json, kPayJson);
            QCOMPARE(cache.decode(proto).json, kLineJson);
        }
        QCOMPARE(r->idCalls.load(), 2);
        QCOMPARE(r->versionCalls.load(), 4);
        QCOMPARE(r->whereCalls.load(), 2);
    }

    void concurrent()
    {
        auto r = registry();
        r->delayMs = 50; // every thread meets the first build of each id
        SchemaDecoderCache cache(r);
        const QList<QPair<QByteArray, QByteArray>> records = {{prefix(1) + payRecord(), kPayJson},
                                                              {prefix(2) + lineRecord(), kLineJson},
                                                              {prefix(3) + "[1, 2]", "[1,2]"}};
        std::atomic<int> wrong{0};
        std::atomic<int> failed{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                for (int i = 0; i < 3000; ++i) {
                    const auto &rec = records[(i + t) % records.size()];
                    const DecodedPart p = cache.decode(rec.first);
                    if (p.status != DecodedPart::Status::Decoded)
                        ++failed;
                    else if (p.json != rec.second)
                        ++wrong;
                }
                // An id nobody registered, asked by every thread at once.
                if (cache.decode(prefix(77) + "x").error != QStringLiteral("schema 77 is not in the registry"))
                    ++wrong;
            });
        for (auto &t : threads)
            t.join();
        QCOMPARE(failed.load(), 0);
        QCOMPARE(wrong.load(), 0);
        QCOMPARE(r->idCalls.load(), 4); // 1, 2, 3 and 77, each built once
    }
};

QTEST_GUILESS_MAIN(TstSchemaDecoding)
#include "tst_schemadecoding.moc"
