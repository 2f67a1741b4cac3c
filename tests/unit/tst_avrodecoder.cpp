#include "engine/schema/AvroDecoder.h"

#include <QTest>

#include <thread>
#include <vector>

using namespace md;

namespace {

// A tiny Avro binary encoder, independent of the decoder under test.
struct Enc {
    QByteArray b;
    Enc &l(qint64 v)
    {
        quint64 z = (quint64(v) << 1) ^ quint64(v >> 63);
        while (z >= 0x80) {
            b += char((z & 0x7f) | 0x80);
            z >>= 7;
        }
        b += char(z);
        return *this;
    }
    Enc &s(const QByteArray &t)
    {
        l(t.size());
        b += t;
        return *this;
    }
    Enc &d(double v)
    {
        char c[8];
        std::memcpy(c, &v, 8);
        b.append(c, 8);
        return *this;
    }
    Enc &raw(const QByteArray &t)
    {
        b += t;
        return *this;
    }
};

std::unique_ptr<AvroDecoder> make(const char *schema, const QList<QByteArray> &refs = {})
{
    QString error;
    auto d = AvroDecoder::create(QByteArray(schema), refs, &error);
    if (!d)
        qWarning("create: %s", qPrintable(error));
    return d;
}

QByteArray dec(const AvroDecoder &d, const QByteArray &bytes, QString *error = nullptr)
{
    QByteArray json;
    QString e;
    if (!d.decode(bytes.constData(), size_t(bytes.size()), &json, &e)) {
        if (error)
            *error = e;
        return "ERROR: " + e.toUtf8();
    }
    return json;
}

const char kOrder[] =
    "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"com.acme\",\"fields\":["
    "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"ts\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-"
    "millis\"}},"
    "{\"name\":\"customer\",\"type\":{\"type\":\"record\",\"name\":\"Customer\",\"fields\":["
    "{\"name\":\"id\",\"type\":\"int\"},{\"name\":\"tier\",\"type\":{\"type\":\"enum\",\"name\":\"Tier\",\"symbols\":["
    "\"SILVER\",\"GOLD\"]}}]}},"
    "{\"name\":\"total\",\"type\":\"double\"},{\"name\":\"note\",\"type\":[\"null\",\"string\"]},"
    "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
    "{\"name\":\"attrs\",\"type\":{\"type\":\"map\",\"values\":\"long\"}},"
    "{\"name\":\"raw\",\"type\":\"bytes\"},{\"name\":\"h\",\"type\":{\"type\":\"fixed\",\"name\":\"H\",\"size\":2}},"
    "{\"name\":\"ok\",\"type\":\"boolean\"}]}";

QByteArray orderBytes()
{
    Enc e;
    e.s("o-1").l(1733212800123LL).l(42).l(1).d(39.0).l(1).s("caf\xc3\xa9 \"q\"\n");
    e.l(2).s("x").s("y").l(0);
    e.l(1).s("k").l(-9007199254740993LL).l(0);
    e.s(QByteArray("\x00\xff"
                   "A",
                   3))
        .raw(QByteArray("\x01\x7f", 2))
        .raw(QByteArray("\x01", 1));
    return e.b;
}

} // namespace

class TstAvroDecoder final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyType()
    {
        const auto d = make(kOrder);
        QVERIFY(d);
        QCOMPARE(dec(*d, orderBytes()),
                 QByteArray("{\"id\":\"o-1\",\"ts\":1733212800123,\"customer\":{\"id\":42,\"tier\":\"GOLD\"},"
                            "\"total\":39.0,\"note\":{\"string\":\"caf\xc3\xa9 \\\"q\\\"\\n\"},\"tags\":[\"x\",\"y\"],"
                            "\"attrs\":{\"k\":-9007199254740993},\"raw\":\"\\u0000\\u00ffA\",\"h\":\"\\u0001\\u007f\","
                            "\"ok\":true}"));
    }
    void primitives()
    {
        const auto l = make("\"long\"");
        QCOMPARE(dec(*l, Enc().l(INT64_MIN).b), QByteArray("-9223372036854775808"));
        QCOMPARE(dec(*l, Enc().l(INT64_MAX).b), QByteArray("9223372036854775807"));
        const auto a = make("{\"type\":\"array\",\"items\":\"double\"}");
        QCOMPARE(dec(*a, Enc().l(0).b), QByteArray("[]"));
        QCOMPARE(dec(*a, Enc().l(3).d(0.1).d(qQNaN()).d(-qInf()).l(0).b), QByteArray("[0.1,\"NaN\",\"-Infinity\"]"));
        const auto s = make("\"string\"");
        QCOMPARE(dec(*s, Enc().s("\x01\xff").b), QByteArray("\"\\u0001\\ufffd\""));
    }
    void references()
    {
        const QByteArray cur =
            "{\"type\":\"enum\",\"name\":\"Currency\",\"namespace\":\"com.acme\",\"symbols\":[\"EUR\",\"USD\"]}";
        const QByteArray money = "{\"type\":\"record\",\"name\":\"Money\",\"namespace\":\"com.acme\",\"fields\":["
                                 "{\"name\":\"cents\",\"type\":\"long\"},{\"name\":\"cur\",\"type\":\"Currency\"}]}";
        const auto d = make(
            "{\"type\":\"record\",\"name\":\"Pay\",\"namespace\":\"x\",\"fields\":["
            "{\"name\":\"a\",\"type\":\"com.acme.Money\"},{\"name\":\"b\",\"type\":[\"null\",\"com.acme.Money\"]}]}",
            {cur, money});
        QVERIFY(d);
        QCOMPARE(dec(*d, Enc().l(5).l(1).l(1).l(7).l(0).b),
                 QByteArray(
                     "{\"a\":{\"cents\":5,\"cur\":\"USD\"},\"b\":{\"com.acme.Money\":{\"cents\":7,\"cur\":\"EUR\"}}}"));
        QString error;
        QVERIFY(!AvroDecoder::create(
            "{\"type\":\"record\",\"name\":\"P\",\"fields\":[{\"name\":\"a\",\"type\":\"com.acme.Money\"}]}", {},
            &error));
        QVERIFY2(error.startsWith(QStringLiteral("schema: ")), qPrintable(error));
        QVERIFY(!AvroDecoder::create("\"string\"", {money}, &error));
        QVERIFY2(error.startsWith(QStringLiteral("reference 1 (com.acme.Money): ")), qPrintable(error));
    }
    void errors()
    {
        const auto d = make(kOrder);
        const QByteArray good = orderBytes();
        for (int n = 0; n < good.size(); ++n) {
            QString e;
            QVERIFY(dec(*d, good.left(n), &e).startsWith("ERROR"));
            QVERIFY(!e.isEmpty());
        }
        QString e;
        dec(*d, good + "abc", &e);
        QCOMPARE(e, QStringLiteral("3 bytes left after the record"));
        const auto u = make("[\"null\",\"string\"]");
        QVERIFY(dec(*u, Enc().l(2).b).startsWith("ERROR: bad union index 2"));
        const auto s = make("\"string\"");
        QVERIFY(dec(*s, Enc().l(-1).b).startsWith("ERROR: negative length"));
        QVERIFY(dec(*s, Enc().l(1LL << 60).b).contains("more than the 0 bytes left"));
        const auto a = make("{\"type\":\"array\",\"items\":\"null\"}");
        QVERIFY(dec(*a, Enc().l(1LL << 40).l(0).b).startsWith("ERROR"));
    }

    void namedTypeDefinedTwiceIsRefused()
    {
        // Avro C accepts a second definition and leaks the first (found by fuzz_avro).
        for (const char *kind : {"{\"type\":\"fixed\",\"name\":\"F\",\"size\":1}",
                                 "{\"type\":\"enum\",\"name\":\"F\",\"symbols\":[\"A\"]}",
                                 "{\"type\":\"record\",\"name\":\"F\",\"fields\":[]}"}) {
            const QByteArray twice =
                QByteArray("{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"n\",\"fields\":[") +
                "{\"name\":\"a\",\"type\":" + kind + "},{\"name\":\"b\",\"type\":[\"null\"," + kind + "]}]}";
            QString error;
            QVERIFY2(!AvroDecoder::create(twice, {}, &error), twice.constData());
            QCOMPARE(error, QStringLiteral("schema: the schema defines the named type n.F twice"));
        }
        // The same short name in two namespaces is two types, and a reference is no definition.
        const QByteArray distinct =
            "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":{\"type\":\"fixed\","
            "\"name\":\"x.F\",\"size\":1}},{\"name\":\"b\",\"type\":{\"type\":\"fixed\",\"name\":\"F\","
            "\"namespace\":\"y\",\"size\":1}},{\"name\":\"c\",\"type\":\"x.F\"}]}";
        QString error;
        QVERIFY2(AvroDecoder::create(distinct, {}, &error), qPrintable(error));
    }
    void concurrent()
    {
        const auto d = make(kOrder);
        const QByteArray bytes = orderBytes();
        const QByteArray expected = dec(*d, bytes);
        std::atomic<int> bad{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&] {
                QByteArray json;
                QString e;
                for (int i = 0; i < 10000; ++i)
                    if (!d->decode(bytes.constData(), size_t(bytes.size()), &json, &e) || json != expected)
                        ++bad;
            });
        for (auto &t : threads)
            t.join();
        QCOMPARE(bad.load(), 0);
    }
};

QTEST_GUILESS_MAIN(TstAvroDecoder)
#include "tst_avrodecoder.moc"
