#include "engine/schema/ProtobufDecoder.h"

#include <google/protobuf/compiler/parser.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <QTest>

#include <atomic>
#include <thread>

using namespace md;
namespace gp = google::protobuf;
// Plain string literals only: moc (6.4) loses track of some raw strings.

namespace {

const char kShop[] = "syntax = \"proto3\";\n"
                     "package shop;\n"
                     "import \"google/protobuf/timestamp.proto\";\n"
                     "import \"google/protobuf/duration.proto\";\n"
                     "import \"google/protobuf/wrappers.proto\";\n"
                     "enum Tier { NONE = 0; GOLD = 1; }\n"
                     "message All {\n"
                     "  int32 i32 = 1; int64 i64 = 2; uint32 u32 = 3; uint64 u64 = 4;\n"
                     "  sint32 s32 = 5; sint64 s64 = 6; fixed64 f64 = 7; sfixed32 sf32 = 8;\n"
                     "  float fl = 9; double db = 10; bool b = 11; string s = 12; bytes by = 13;\n"
                     "  Tier tier = 14; repeated int32 nums = 15; map<string, int64> counts = 16;\n"
                     "  Inner inner = 17; repeated Inner inners = 18; map<int32, string> names = 19;\n"
                     "  google.protobuf.Timestamp at = 20; google.protobuf.Duration took = 21;\n"
                     "  google.protobuf.Int64Value wrapped = 22;\n"
                     "  oneof choice { string text = 23; int32 number = 24; }\n"
                     "  optional int32 maybe = 25;\n"
                     "  message Inner { string name = 1; }\n"
                     "}\n"
                     "message Second { message Deep { int64 id = 1; } int32 x = 1; }\n";

// The test's own pool over the generated one, so the well-known imports resolve.
struct TestPool {
    gp::DescriptorPool pool{gp::DescriptorPool::generated_pool()};
    gp::DynamicMessageFactory factory{&pool};

    void add(const char *name, const char *text)
    {
        gp::io::ArrayInputStream input(text, int(strlen(text)));
        gp::io::Tokenizer tokenizer(&input, nullptr);
        gp::compiler::Parser parser;
        gp::FileDescriptorProto proto;
        QVERIFY(parser.Parse(&tokenizer, &proto));
        proto.set_name(name);
        QVERIFY(pool.BuildFile(proto));
    }
    std::unique_ptr<gp::Message> make(const char *type)
    {
        const gp::Descriptor *d = pool.FindMessageTypeByName(type);
        return std::unique_ptr<gp::Message>(d ? factory.GetPrototype(d)->New() : nullptr);
    }
};

QByteArray decodeOk(const ProtobufDecoder &decoder, const std::vector<int> &path, const std::string &bytes)
{
    QByteArray json;
    QString error;
    if (!decoder.decode(path, bytes.data(), bytes.size(), &json, &error))
        return "ERROR " + error.toUtf8();
    return json;
}

std::unique_ptr<ProtobufDecoder> shopDecoder()
{
    QString error;
    auto decoder = ProtobufDecoder::create(kShop, {}, &error);
    if (!decoder)
        qWarning() << error;
    return decoder;
}

// A fully set shop.All, serialized.
std::string fullAll(TestPool &tp)
{
    auto m = tp.make("shop.All");
    const gp::Descriptor *d = m->GetDescriptor();
    const gp::Reflection *r = m->GetReflection();
    auto f = [&](const char *n) { return d->FindFieldByName(n); };
    r->SetInt32(m.get(), f("i32"), -7);
    r->SetInt64(m.get(), f("i64"), 9007199254740993LL); // not exact as a double
    r->SetUInt32(m.get(), f("u32"), 4000000000u);
    r->SetUInt64(m.get(), f("u64"), 18446744073709551615ULL);
    r->SetInt32(m.get(), f("s32"), -1);
    r->SetInt64(m.get(), f("s64"), -9223372036854775807LL - 1);
    r->SetUInt64(m.get(), f("f64"), 1);
    r->SetInt32(m.get(), f("sf32"), -2);
    r->SetFloat(m.get(), f("fl"), 0.1f);
    r->SetDouble(m.get(), f("db"), 2.5);
    r->SetBool(m.get(), f("b"), true);
    r->SetString(m.get(), f("s"), "a\"b\\c\n\x01");
    r->SetString(m.get(), f("by"), std::string("\x00\xff\x10", 3));
    r->SetEnumValue(m.get(), f("tier"), 1);
    r->AddInt32(m.get(), f("nums"), 1);
    r->AddInt32(m.get(), f("nums"), 2);
    gp::Message *entry = r->AddMessage(m.get(), f("counts"));
    entry->GetReflection()->SetString(entry, entry->GetDescriptor()->field(0), "k");
    entry->GetReflection()->SetInt64(entry, entry->GetDescriptor()->field(1), 5);
    entry = r->AddMessage(m.get(), f("names"));
    entry->GetReflection()->SetInt32(entry, entry->GetDescriptor()->field(0), 3);
    entry->GetReflection()->SetString(entry, entry->GetDescriptor()->field(1), "three");
    gp::Message *inner = r->MutableMessage(m.get(), f("inner"));
    inner->GetReflection()->SetString(inner, inner->GetDescriptor()->field(0), "in");
    inner = r->AddMessage(m.get(), f("inners"));
    inner->GetReflection()->SetString(inner, inner->GetDescriptor()->field(0), "x");
    gp::Message *at = r->MutableMessage(m.get(), f("at"));
    at->GetReflection()->SetInt64(at, at->GetDescriptor()->field(0), 1700000000);
    at->GetReflection()->SetInt32(at, at->GetDescriptor()->field(1), 5000000);
    gp::Message *took = r->MutableMessage(m.get(), f("took"));
    took->GetReflection()->SetInt64(took, took->GetDescriptor()->field(0), 1);
    took->GetReflection()->SetInt32(took, took->GetDescriptor()->field(1), 500000000);
    gp::Message *w = r->MutableMessage(m.get(), f("wrapped"));
    w->GetReflection()->SetInt64(w, w->GetDescriptor()->field(0), 42);
    r->SetInt32(m.get(), f("number"), 8);
    r->SetInt32(m.get(), f("maybe"), 0);
    return m->SerializeAsString();
}

const char kFullJson[] =
    "{\"i32\":-7,\"i64\":9007199254740993,\"u32\":4000000000,\"u64\":18446744073709551615,"
    "\"s32\":-1,\"s64\":-9223372036854775808,\"f64\":1,\"sf32\":-2,\"fl\":0.1,\"db\":2.5,\"b\":true,"
    "\"s\":\"a\\\"b\\\\c\\n\\u0001\",\"by\":\"AP8Q\",\"tier\":\"GOLD\",\"nums\":[1,2],\"counts\":{\"k\":5},"
    "\"inner\":{\"name\":\"in\"},\"inners\":[{\"name\":\"x\"}],\"names\":{\"3\":\"three\"},"
    "\"at\":\"2023-11-14T22:13:20.005Z\",\"took\":\"1.500s\",\"wrapped\":42,\"number\":8,\"maybe\":0}";

} // namespace

class TestProtobufDecoder : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyFieldKind()
    {
        TestPool tp;
        tp.add("shop.proto", kShop);
        auto decoder = shopDecoder();
        QVERIFY(decoder);
        QCOMPARE(decoder->messageName({0}), QStringLiteral("shop.All"));
        QCOMPARE(decodeOk(*decoder, {0}, fullAll(tp)), QByteArray(kFullJson));
    }

    void defaultsAndPresence()
    {
        auto decoder = shopDecoder();
        QVERIFY(decoder);
        // Scalars at their default; unset messages, oneof and optional omitted.
        QCOMPARE(decodeOk(*decoder, {0}, std::string()),
                 QByteArray("{\"i32\":0,\"i64\":0,\"u32\":0,\"u64\":0,\"s32\":0,\"s64\":0,\"f64\":0,\"sf32\":0,"
                            "\"fl\":0,\"db\":0,\"b\":false,\"s\":\"\",\"by\":\"\",\"tier\":\"NONE\",\"nums\":[],"
                            "\"counts\":{},\"inners\":[],\"names\":{}}"));
    }

    void unknownEnumNumberAndNonFinite()
    {
        TestPool tp;
        tp.add("shop.proto", kShop);
        auto m = tp.make("shop.All");
        const gp::Reflection *r = m->GetReflection();
        r->SetEnumValue(m.get(), m->GetDescriptor()->FindFieldByName("tier"), 77);
        r->SetDouble(m.get(), m->GetDescriptor()->FindFieldByName("db"), std::numeric_limits<double>::quiet_NaN());
        r->SetFloat(m.get(), m->GetDescriptor()->FindFieldByName("fl"), -std::numeric_limits<float>::infinity());
        auto decoder = shopDecoder();
        const QByteArray json = decodeOk(*decoder, {0}, m->SerializeAsString());
        QVERIFY2(json.contains("\"tier\":77"), json);
        QVERIFY2(json.contains("\"db\":\"NaN\""), json);
        QVERIFY2(json.contains("\"fl\":\"-Infinity\""), json);
    }

    void nestedIndexPath()
    {
        TestPool tp;
        tp.add("shop.proto", kShop);
        auto m = tp.make("shop.Second.Deep");
        m->GetReflection()->SetInt64(m.get(), m->GetDescriptor()->field(0), 42);
        auto decoder = shopDecoder();
        QCOMPARE(decoder->messageName({1, 0}), QStringLiteral("shop.Second.Deep"));
        // Map entries are nested types of the descriptor and count, as in Confluent's serializers.
        QCOMPARE(decoder->messageName({0, 0}), QStringLiteral("shop.All.CountsEntry"));
        QCOMPARE(decoder->messageName({0, 2}), QStringLiteral("shop.All.Inner"));
        QCOMPARE(decodeOk(*decoder, {1, 0}, m->SerializeAsString()), QByteArray("{\"id\":42}"));
        QCOMPARE(decoder->messageName({1, 1}), QString());
        QCOMPARE(decoder->messageName({}), QString());
        QByteArray json;
        QString error;
        QVERIFY(!decoder->decode({2}, "", 0, &json, &error));
        QVERIFY2(error.contains(QLatin1String("[2]")), qPrintable(error));
    }

    void importsTwoLevels()
    {
        const char money[] =
            "syntax = \"proto3\"; package shop.money; message Money { string currency = 1; int64 units = 2; }";
        const char common[] = "syntax = \"proto3\"; package shop.common; import \"shop/money.proto\";"
                              "message Price { shop.money.Money amount = 1; }";
        const char order[] = "syntax = \"proto3\"; package shop; import \"common.proto\";"
                             "message Order { string id = 1; shop.common.Price price = 2; }";
        TestPool tp;
        tp.add("shop/money.proto", money);
        tp.add("common.proto", common);
        tp.add("schema.proto", order);
        auto m = tp.make("shop.Order");
        const gp::Reflection *r = m->GetReflection();
        r->SetString(m.get(), m->GetDescriptor()->field(0), "o-1");
        gp::Message *price = r->MutableMessage(m.get(), m->GetDescriptor()->field(1));
        gp::Message *amount = price->GetReflection()->MutableMessage(price, price->GetDescriptor()->field(0));
        amount->GetReflection()->SetString(amount, amount->GetDescriptor()->field(0), "EUR");
        amount->GetReflection()->SetInt64(amount, amount->GetDescriptor()->field(1), 12);
        QString error;
        auto decoder = ProtobufDecoder::create(
            order, {{QStringLiteral("common.proto"), common}, {QStringLiteral("shop/money.proto"), money}}, &error);
        QVERIFY2(decoder, qPrintable(error));
        QCOMPARE(decoder->messageName({0}), QStringLiteral("shop.Order"));
        QCOMPARE(decodeOk(*decoder, {0}, m->SerializeAsString()),
                 QByteArray("{\"id\":\"o-1\",\"price\":{\"amount\":{\"currency\":\"EUR\",\"units\":12}}}"));

        QVERIFY(!ProtobufDecoder::create(order, {{QStringLiteral("common.proto"), common}}, &error));
        QCOMPARE(error, QStringLiteral("common.proto imports \"shop/money.proto\", which the registry did not give"));
    }

    void proto2()
    {
        const char text[] =
            "syntax = \"proto2\"; message P { required int32 a = 1; optional string b = 2 [default = \"x\"]; }";
        QString error;
        auto decoder = ProtobufDecoder::create(text, {}, &error);
        QVERIFY2(decoder, qPrintable(error));
        const std::string bytes("\x08\x05", 2);
        QCOMPARE(decodeOk(*decoder, {0}, bytes), QByteArray("{\"a\":5,\"b\":\"x\"}"));
        // A missing required field does not parse.
        QCOMPARE(decodeOk(*decoder, {0}, std::string()), QByteArray("ERROR not a valid P message"));
    }

    void proto2StringsThatAreNotUtf8()
    {
        // Proto2 checks no string's UTF-8, not even a default's in the schema
        // text: such bytes become U+FFFD, so the value stays JSON (found by fuzz_protobuf).
        const char text[] = "syntax = \"proto2\"; message P { required int32 a = 1; optional string b = 2 "
                            "[default = \"\351\"]; optional string c = 3; }";
        QString error;
        auto decoder = ProtobufDecoder::create(text, {}, &error);
        QVERIFY2(decoder, qPrintable(error));
        QCOMPARE(decodeOk(*decoder, {0}, std::string("\x08\x05\x1a\x04\xff\xc3\xa9z", 8)),
                 QByteArray("{\"a\":5,\"b\":\"\\ufffd\",\"c\":\"\\ufffd\xc3\xa9z\"}"));
    }

    void syntaxError()
    {
        QString error;
        QVERIFY(!ProtobufDecoder::create("syntax = \"proto3\";\nmessage A {\n  int32 a = 1\n}\n", {}, &error));
        QCOMPARE(error, QStringLiteral("schema.proto:4:1: Expected \";\"."));
        QVERIFY(!ProtobufDecoder::create(
            "syntax = \"proto3\"; import \"c.proto\"; message A { int32 a = 1; }",
            {{QStringLiteral("c.proto"), "syntax = \"proto3\";\nmessage C { int32 a = 1 }"}}, &error));
        QCOMPARE(error, QStringLiteral("c.proto:2:25: Expected \";\"."));
        QVERIFY(!ProtobufDecoder::create("syntax = \"proto3\"; message A { Missing a = 1; }", {}, &error));
        QVERIFY2(error.contains(QLatin1String("Missing")), qPrintable(error));
        QVERIFY(!ProtobufDecoder::create("syntax = \"proto3\"; import \"a.proto\"; message A {}",
                                         {{QStringLiteral("a.proto"), "syntax = \"proto3\"; import \"a.proto\";"}},
                                         &error));
        QVERIFY2(error.contains(QLatin1String("cycle")), qPrintable(error));
    }

    void hostileBytes()
    {
        TestPool tp;
        tp.add("shop.proto", kShop);
        auto decoder = shopDecoder();
        QCOMPARE(decodeOk(*decoder, {0}, std::string("\xff\xff\xff\xff\xff", 5)),
                 QByteArray("ERROR not a valid shop.All message"));
        const std::string full = fullAll(tp);
        int failed = 0;
        for (size_t n = 0; n < full.size(); ++n) {
            QByteArray json;
            QString error;
            if (!decoder->decode({0}, full.data(), n, &json, &error)) {
                ++failed;
                QCOMPARE(error, QStringLiteral("not a valid shop.All message"));
            }
        }
        QVERIFY(failed > 0); // a cut inside a field must be noticed
        // Unknown fields are ignored: field 99 appended.
        QCOMPARE(decodeOk(*decoder, {1, 0}, std::string("\x08\x01\x98\x06\x01", 5)), QByteArray("{\"id\":1}"));
    }

    void fourThreads()
    {
        TestPool tp;
        tp.add("shop.proto", kShop);
        auto decoder = shopDecoder();
        const std::string full = fullAll(tp);
        std::atomic<int> wrong{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&] {
                for (int i = 0; i < 10000; ++i) {
                    QByteArray json;
                    QString error;
                    if (!decoder->decode({0}, full.data(), full.size(), &json, &error) || json != kFullJson)
                        ++wrong;
                }
            });
        for (auto &t : threads)
            t.join();
        QCOMPARE(wrong.load(), 0);
    }
};

QTEST_GUILESS_MAIN(TestProtobufDecoder)
#include "tst_protobufdecoder.moc"
