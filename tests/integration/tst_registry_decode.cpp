// Browsing records written in the schema registry's wire format, against the
// real "source" broker and a real registry (Apicurio's Confluent API, which
// harness.sh start-all starts; or env MIRRORDESK_REGISTRY_URL): schemas
// registered by the test (an Avro record using a type from another subject,
// a JSON schema), records produced by the test's own producer with the wire
// prefix written by hand. readMessages decodes them with subject, version and
// type; plain bytes stay Plain; an id the registry does not have fails with
// that reason; a JSON path search matches on the decoded values.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "RegistryTestEnv.h"
#include "engine/admin/AdminService.h"
#include "engine/query/MessageSearch.h"
#include "engine/schema/SchemaRegistryClient.h"

#include <QTest>

using namespace md;
using namespace md::test;

namespace {

QByteArray wire(int id, const QByteArray &payload)
{
    QByteArray b(5, '\0');
    for (int i = 0; i < 4; ++i)
        b[4 - i] = char((id >> (8 * i)) & 0xff);
    return b + payload;
}

QByteArray avroLong(qint64 v)
{
    QByteArray b;
    quint64 z = (quint64(v) << 1) ^ quint64(v >> 63);
    for (; z >= 0x80; z >>= 7)
        b += char((z & 0x7f) | 0x80);
    b += char(z);
    return b;
}

// Pay{id, amount: Money{cents, cur: Currency}}
QByteArray pay(const QByteArray &id, qint64 cents, int currency)
{
    return avroLong(id.size()) + id + avroLong(cents) + avroLong(currency);
}

} // namespace

class TstRegistryDecode final : public QObject {
    Q_OBJECT

    QString m_url;

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        MD_REQUIRE_REGISTRY();
        m_url = registryUrl();
    }

    void readAndSearchDecoded()
    {
        SchemaRegistryConfig registry;
        registry.url = m_url;
        SchemaRegistryClient client(registry);
        const QString tag = uniqueName(QStringLiteral("regdecode"));
        const QString currencySubject = tag + QStringLiteral("-currency");
        const QString paySubject = tag + QStringLiteral("-value");
        RegistryError error;
        const std::optional<int> currencyId = client.registerSchema(
            currencySubject, QStringLiteral("AVRO"),
            "{\"type\":\"enum\",\"name\":\"Currency\",\"namespace\":\"com.acme\",\"symbols\":[\"EUR\",\"USD\"]}", {},
            &error);
        QVERIFY2(currencyId, qPrintable(error.message));
        const std::optional<int> payId = client.registerSchema(
            paySubject, QStringLiteral("AVRO"),
            "{\"type\":\"record\",\"name\":\"Pay\",\"namespace\":\"x\",\"fields\":[{\"name\":\"id\",\"type\":"
            "\"string\"},{\"name\":\"amount\",\"type\":{\"type\":\"record\",\"name\":\"Money\",\"fields\":["
            "{\"name\":\"cents\",\"type\":\"long\"},{\"name\":\"cur\",\"type\":\"com.acme.Currency\"}]}}]}",
            {{QStringLiteral("com.acme.Currency"), currencySubject, 1}}, &error);
        QVERIFY2(payId, qPrintable(error.message));
        const std::optional<int> jsonId = client.registerSchema(
            tag + QStringLiteral("-json"), QStringLiteral("JSON"),
            "{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\"}", {}, &error);
        QVERIFY2(jsonId, qPrintable(error.message));
        const int unknownId = 0x7ffffff0;

        const ClusterConfig source = clusterConfig(QStringLiteral("source"));
        const QString topic = tag;
        QString problem;
        QVERIFY2(createTopic(source.bootstrap, topic, 1, {}, &problem), qPrintable(problem));
        QList<TestRecord> records;
        auto add = [&](const QByteArray &key, const QByteArray &value) {
            TestRecord r;
            r.key = key;
            r.value = value;
            r.partition = 0;
            records.append(r);
        };
        add("k0", wire(*payId, pay("p-0", 1250, 1)));
        add("k1", wire(*payId, pay("p-1", 5, 0)));
        add("k2", "plain text");
        add("k3", wire(unknownId, "x"));
        add("k4", wire(*jsonId, " { \"a\" : [1, 9007199254740993] } "));
        add("k5", wire(*payId, pay("p-5", 990, 1).left(5))); // cut short
        QVERIFY2(produce(source.bootstrap, topic, records, &problem), qPrintable(problem));

        ClusterConfig cluster = source;
        cluster.schemaRegistry = registry;
        QString createError;
        auto admin = AdminService::create(cluster, &createError);
        QVERIFY2(admin, qPrintable(createError));
        MessageQuery q;
        q.topic = topic;
        q.partition = 0;
        q.mode = MessageQuery::Mode::FromOffset;
        q.offset = 0;
        q.maxMessages = 10;
        const auto read = admin->readMessages(q);
        QVERIFY2(read.ok(), qPrintable(read.error));
        QCOMPARE(read.value.size(), records.size());
        const QList<KafkaMessage> &m = read.value;
        using S = DecodedPart::Status;
        QCOMPARE(m[0].valueDecoded.error, QString());
        QCOMPARE(m[0].valueDecoded.status, S::Decoded);
        QCOMPARE(m[0].valueDecoded.json, QByteArray("{\"id\":\"p-0\",\"amount\":{\"cents\":1250,\"cur\":\"USD\"}}"));
        QCOMPARE(m[0].valueDecoded.schemaId, *payId);
        QCOMPARE(m[0].valueDecoded.subject, paySubject);
        QCOMPARE(m[0].valueDecoded.version, 1);
        QCOMPARE(m[0].valueDecoded.type, QStringLiteral("AVRO"));
        QCOMPARE(m[0].keyDecoded.status, S::Plain);
        QCOMPARE(m[1].valueDecoded.json, QByteArray("{\"id\":\"p-1\",\"amount\":{\"cents\":5,\"cur\":\"EUR\"}}"));
        QCOMPARE(m[2].valueDecoded, DecodedPart{});
        QCOMPARE(m[3].valueDecoded.status, S::Failed);
        QCOMPARE(m[3].valueDecoded.error, QStringLiteral("schema %1 is not in the registry").arg(unknownId));
        QCOMPARE(m[4].valueDecoded.status, S::Decoded);
        QCOMPARE(m[4].valueDecoded.json, QByteArray("{\"a\":[1,9007199254740993]}"));
        QCOMPARE(m[4].valueDecoded.type, QStringLiteral("JSON"));
        QCOMPARE(m[5].valueDecoded.status, S::Failed);
        QVERIFY2(
            m[5].valueDecoded.error.startsWith(
                QStringLiteral("schema %1 (AVRO) does not match the payload after the 5-byte prefix: ").arg(*payId)),
            qPrintable(m[5].valueDecoded.error));
        QCOMPARE(*m[5].value, records[5].value.value()); // the bytes are still there

        // A JSON path on the value sees the decoded JSON; the search shares the service's decoders.
        SearchSpec spec;
        spec.cluster = cluster;
        spec.topic = topic;
        spec.start = SearchSpec::Start::Beginning;
        spec.decoders = admin->registryDecoders();
        FilterCondition c;
        c.field = FilterCondition::Field::Value;
        c.match = FilterCondition::Match::JsonPath;
        c.text = QStringLiteral("$.amount.cents >= 1000");
        spec.filter.conditions = {c};
        QList<KafkaMessage> found;
        const SearchResult result =
            searchMessages(spec, nullptr, [&](const QList<KafkaMessage> &batch, auto) { found += batch; });
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(found.size(), 1);
        QCOMPARE(found[0].key, std::optional<QByteArray>("k0"));
        QCOMPARE(found[0].valueDecoded.json, m[0].valueDecoded.json);
        QCOMPARE(found[0].valueDecoded.subject, paySubject);

        QVERIFY2(deleteTopic(source.bootstrap, topic, &problem), qPrintable(problem));
    }
};

QTEST_GUILESS_MAIN(TstRegistryDecode)
#include "tst_registry_decode.moc"
