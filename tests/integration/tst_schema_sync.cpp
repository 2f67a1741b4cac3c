// Schemas follow the mirror (schemas.sync), between two real Apicurio
// registries of the harness: the source cluster's (registryUrl) and the
// target's (secondRegistryUrl). Records are written in the Confluent wire
// format by a client of the test's own (not the engine), read back from the
// target by another, and decoded against the TARGET registry: each must give
// the value its source record gives against the source registry, with the id
// the target registry gave the copied schema (the target's ids are pushed
// past the source's first, so an id left untranslated cannot pass for a
// translated one). Avro with a reference, Protobuf with an import, JSON
// Schema; keys and values; a version registered while the job runs; a version
// the target's compatibility refuses (the partition waits, named, and goes on
// once the level is relaxed; the other topics go on); the target registry
// away mid-copy (nothing lost, nothing copied with a wrong id); preserve
// refused by a registry that cannot take given ids.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "ProcessTestUtil.h"
#include "RegistryTestEnv.h"
#include "registry_fake_support.h"
#include "tst_mirror_support.h"

#include "engine/mirror/MirrorJob.h"
#include "engine/mirror/TopicNaming.h"
#include "engine/schema/SchemaDecoding.h"
#include "engine/schema/SchemaRegistryClient.h"
#include "engine/schemasync/SchemaSubjects.h"
#include "engine/schemasync/SchemaSyncRunner.h"
#include "engine/verify/Verifier.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest/QtTest>

using namespace md;
using namespace md::test;

namespace {

QByteArray zigzag(qint64 n)
{
    quint64 z = (quint64(n) << 1) ^ quint64(n >> 63);
    QByteArray out;
    while (z >= 0x80) {
        out.append(char((z & 0x7f) | 0x80));
        z >>= 7;
    }
    out.append(char(z));
    return out;
}

QByteArray varint(quint64 z)
{
    QByteArray out;
    while (z >= 0x80) {
        out.append(char((z & 0x7f) | 0x80));
        z >>= 7;
    }
    out.append(char(z));
    return out;
}

QByteArray avroString(const QByteArray &s)
{
    return zigzag(s.size()) + s;
}

QByteArray wire(int id, const QByteArray &payload)
{
    QByteArray out(5, '\0');
    qToBigEndian<quint32>(quint32(id), reinterpret_cast<uchar *>(out.data()) + 1);
    return out + payload;
}

int idIn(const std::optional<QByteArray> &bytes)
{
    if (!bytes || bytes->size() < 5 || bytes->at(0) != 0)
        return -1;
    return int(qFromBigEndian<quint32>(reinterpret_cast<const uchar *>(bytes->constData()) + 1));
}

// A TCP hop to a registry that the test can cut: down, nothing answers on its
// port (connections refused, open ones closed); up, it forwards again.
class RegistryHop final : public QObject {
public:
    RegistryHop(const QString &url) : m_url(QUrl(url))
    {
        up();
        m_port = m_server.serverPort();
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *in = m_server.nextPendingConnection()) {
                auto *out = new QTcpSocket(in);
                connect(in, &QTcpSocket::readyRead, out, [in, out] { out->write(in->readAll()); });
                connect(out, &QTcpSocket::readyRead, in, [in, out] { in->write(out->readAll()); });
                connect(out, &QTcpSocket::disconnected, in, &QTcpSocket::disconnectFromHost);
                connect(in, &QTcpSocket::disconnected, in, &QObject::deleteLater);
                out->connectToHost(m_url.host(), quint16(m_url.port()));
            }
        });
    }
    QString url() const
    {
        QUrl u = m_url;
        u.setPort(m_port);
        return u.toString();
    }
    void down()
    {
        m_server.close();
        for (QTcpSocket *s : m_server.findChildren<QTcpSocket *>(Qt::FindDirectChildrenOnly))
            s->abort();
    }
    void up() { QVERIFY(m_server.listen(QHostAddress::LocalHost, quint16(m_port))); }

private:
    QUrl m_url;
    int m_port = 0;
    QTcpServer m_server;
};

// A registry in IMPORT mode, as Confluent's serves a migration: it takes a
// schema under the id it is given. No registry the harness can run does
// (Apicurio 3 ignores a given id and has no mode API), so this one stands in
// for the target of a preserve job: it keeps what is registered, answers
// lookups and versions from that, and GET /mode with IMPORT.
class ImportModeRegistry {
public:
    struct Entry {
        QString subject;
        int version = 0;
        int id = 0;
        QJsonObject request;
    };
    ImportModeRegistry()
    {
        m_fake.handler = [this](const FakeRequest &r) { return serve(r); };
    }
    QString url() const { return m_fake.url(); }
    const QList<Entry> &entries() const { return m_entries; }

private:
    static FakeAnswer json(int status, const QJsonObject &o)
    {
        return FakeAnswer{status, QJsonDocument(o).toJson(QJsonDocument::Compact)};
    }
    static FakeAnswer error(int status, int code)
    {
        return json(status,
                    {{QStringLiteral("error_code"), code}, {QStringLiteral("message"), QStringLiteral("fake")}});
    }
    std::optional<FakeAnswer> serve(const FakeRequest &r)
    {
        const QString path = QUrl::fromPercentEncoding(r.path).section(QLatin1Char('?'), 0, 0);
        const QString base = QStringLiteral("/apis/ccompat/v7");
        if (!path.startsWith(base))
            return std::nullopt;
        const QStringList parts = path.mid(base.size()).split(QLatin1Char('/'), Qt::SkipEmptyParts);
        const QJsonObject body = QJsonDocument::fromJson(r.body).object();
        if (parts == QStringList{QStringLiteral("mode")})
            return json(200, {{QStringLiteral("mode"), QStringLiteral("IMPORT")}});
        if (parts.size() == 2 && parts[0] == QLatin1String("config"))
            return r.method == "PUT" ? json(200, body) : error(404, 40408);
        if (parts.value(0) != QLatin1String("subjects") || parts.size() < 2)
            return std::nullopt;
        const QString subject = parts[1];
        QList<Entry> mine;
        for (const Entry &e : std::as_const(m_entries))
            if (e.subject == subject)
                mine << e;
        const auto same = [&](const Entry &e) {
            return e.request.value(QStringLiteral("schema")) == body.value(QStringLiteral("schema")) &&
                   e.request.value(QStringLiteral("references")) == body.value(QStringLiteral("references"));
        };
        if (parts.size() == 2 && r.method == "POST") { // lookup
            for (const Entry &e : mine)
                if (same(e))
                    return json(200, {{QStringLiteral("subject"), subject},
                                      {QStringLiteral("version"), e.version},
                                      {QStringLiteral("id"), e.id},
                                      {QStringLiteral("schema"), e.request.value(QStringLiteral("schema"))}});
            return error(404, mine.isEmpty() ? 40401 : 40403);
        }
        if (parts.size() == 3 && parts[2] == QLatin1String("versions") && r.method == "GET") {
            if (mine.isEmpty())
                return error(404, 40401);
            QJsonArray versions;
            for (const Entry &e : mine)
                versions.append(e.version);
            return FakeAnswer{200, QJsonDocument(versions).toJson(QJsonDocument::Compact)};
        }
        if (parts.size() == 3 && parts[2] == QLatin1String("versions") && r.method == "POST") {
            for (const Entry &e : mine)
                if (same(e))
                    return json(200, {{QStringLiteral("id"), e.id}});
            const int id = body.value(QStringLiteral("id")).toInt();
            if (id <= 0)
                return error(422, 42201); // IMPORT mode takes only given ids
            m_entries.append({subject, int(mine.size()) + 1, id, body});
            return json(200, {{QStringLiteral("id"), id}});
        }
        return std::nullopt;
    }

    FakeRegistry m_fake;
    QList<Entry> m_entries;
};

} // namespace

class TstSchemaSync : public QObject {
    Q_OBJECT

    std::shared_ptr<SchemaRegistryClient> m_src, m_dst;
    QString m_ns; // an Avro namespace and Protobuf package unique to the run

    SchemaRegistryConfig registry(const QString &url)
    {
        SchemaRegistryConfig c;
        c.url = url;
        return c;
    }

    int registered(SchemaRegistryClient &client, const QString &subject, const QString &type, const QByteArray &text,
                   const QList<SchemaReference> &refs = {})
    {
        RegistryError e;
        const std::optional<int> id = client.registerSchema(subject, type, text, refs, &e);
        if (!id)
            qWarning("register %s: %s", qPrintable(subject), qPrintable(e.message));
        return id.value_or(-1);
    }

    // The target registry's next ids past `sourceId`: a copy can then never
    // get the id its source had by chance.
    bool pushTargetIdsPast(int sourceId)
    {
        for (int i = 0; i < 10000; ++i) {
            const int id =
                registered(*m_dst, QStringLiteral("%1-filler").arg(m_ns), QStringLiteral("AVRO"),
                           QStringLiteral(R"({"type":"string","doc":"filler %1 %2"})").arg(m_ns).arg(i).toUtf8());
            if (id < 0)
                return false;
            if (id > sourceId)
                return true;
        }
        return false;
    }

    MirrorJobSpec spec(const QString &name, const QStringList &topics, const QString &targetRegistry = {})
    {
        MirrorJobSpec s = harnessSpec(name, {});
        for (const QString &t : topics)
            s.include << QRegularExpression::escape(t);
        s.naming = NamingPolicy::Prefix;
        s.source.schemaRegistry = registry(registryUrl());
        s.target.schemaRegistry = registry(targetRegistry.isEmpty() ? secondRegistryUrl() : targetRegistry);
        s.syncSchemas = true;
        s.schemaSyncIntervalMs = 2000;
        return s;
    }

    // Each target record decodes against the target registry to what its
    // source record decodes to against the source registry, with the id the
    // target registry has for that schema. Returns the target records.
    QList<TestRecord> checkDecodesAlike(const MirrorJobSpec &s, const QString &topic, int expected)
    {
        ConsumeOptions targetRead;
        targetRead.readCommitted = s.delivery == DeliveryGuarantee::ExactlyOnce;
        QString error;
        const auto source = consumeAll(sourceBootstrap(), topic, &error);
        [&] { QVERIFY2(source && source->size() == expected, qPrintable(error)); }();
        const QString targetTopic = targetTopicName(s, topic);
        std::optional<QList<TestRecord>> target;
        [&] {
            QTRY_VERIFY_WITH_TIMEOUT((target = consumeAll(targetBootstrap(), targetTopic, &error, targetRead)) &&
                                         target->size() == expected,
                                     60000);
        }();
        if (QTest::currentTestFailed() || !source || !target)
            return {};
        SchemaDecoderCache fromSource(m_src), fromTarget(m_dst);
        for (qsizetype i = 0; i < source->size(); ++i) {
            const TestRecord &a = source->at(i);
            const TestRecord &b = target->at(i);
            for (const bool key : {true, false}) {
                const std::optional<QByteArray> &x = key ? a.key : a.value;
                const std::optional<QByteArray> &y = key ? b.key : b.value;
                const QString where = QStringLiteral("%1 record %2 %3")
                                          .arg(topic)
                                          .arg(i)
                                          .arg(key ? QStringLiteral("key") : QStringLiteral("value"));
                if (idIn(x) < 0) { // not in the wire format: byte for byte
                    [&] { QVERIFY2(x == y, qPrintable(where)); }();
                    continue;
                }
                const DecodedPart da = fromSource.decode(*x);
                const DecodedPart db = fromTarget.decode(*y);
                [&] {
                    QVERIFY2(da.status == DecodedPart::Status::Decoded,
                             qPrintable(where + QStringLiteral(": ") + da.error));
                    QVERIFY2(db.status == DecodedPart::Status::Decoded,
                             qPrintable(where + QStringLiteral(" on the target: ") + db.error));
                    QCOMPARE(db.json, da.json);
                    QVERIFY2(idIn(y) != idIn(x), qPrintable(where + QStringLiteral(": the id was not translated")));
                    // The payload after the id is the source's, byte for byte.
                    QCOMPARE(y->mid(5), x->mid(5));
                    // The target's id is what the target registry gave that schema under the target subject.
                    RegistryError e;
                    const auto versions = m_dst->versionsOfId(idIn(y), &e);
                    QVERIFY2(versions, qPrintable(e.message));
                    const QString subject = subjectOfTopic(targetTopic, key);
                    QVERIFY2(
                        std::any_of(versions->cbegin(), versions->cend(),
                                    [&](const SubjectVersion &v) { return v.subject == subject; }),
                        qPrintable(where + QStringLiteral(": target id %1 is not under %2").arg(idIn(y)).arg(subject)));
                }();
                if (QTest::currentTestFailed())
                    return {};
            }
        }
        return *target;
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        MD_REQUIRE_REGISTRY();
        MD_REQUIRE_SECOND_REGISTRY();
        m_src = std::make_shared<SchemaRegistryClient>(registry(registryUrl()));
        m_dst = std::make_shared<SchemaRegistryClient>(registry(secondRegistryUrl()));
        m_ns = QStringLiteral("n%1").arg(QRandomGenerator::global()->generate());
    }

    // Avro (a value with a referenced type, a key), Protobuf with an import
    // and a nested message (records of the outer and of the nested type),
    // JSON Schema; prefix naming renames the topic subjects; the referenced
    // subjects keep their names; the source subject's compatibility goes with
    // it. At-least-once and exactly-once (read back read_committed).
    void idsTranslatedForEveryFormat_data()
    {
        QTest::addColumn<bool>("exactlyOnce");
        QTest::newRow("at-least-once") << false;
        QTest::newRow("exactly-once") << true;
    }
    void idsTranslatedForEveryFormat()
    {
        QFETCH(bool, exactlyOnce);
        const QString avro = uniqueName(QStringLiteral("ss-avro")), proto = uniqueName(QStringLiteral("ss-proto")),
                      json = uniqueName(QStringLiteral("ss-json"));
        QString error;
        for (const QString &t : {avro, proto, json})
            QVERIFY2(createTopic(sourceBootstrap(), t, 2, {}, &error), qPrintable(error));

        const QString address = QStringLiteral("%1.Address-%2").arg(m_ns, avro);
        const int addressId = registered(
            *m_src, address, QStringLiteral("AVRO"),
            QStringLiteral(
                R"({"type":"record","name":"Address","namespace":"%1","fields":[{"name":"street","type":"string"}]})")
                .arg(m_ns)
                .toUtf8());
        const int orderId = registered(
            *m_src, avro + QStringLiteral("-value"), QStringLiteral("AVRO"),
            QStringLiteral(
                R"({"type":"record","name":"Order","namespace":"%1","fields":[{"name":"id","type":"int"},{"name":"ship","type":"%1.Address"}]})")
                .arg(m_ns)
                .toUtf8(),
            {{m_ns + QStringLiteral(".Address"), address, 1}});
        const int keyId = registered(*m_src, avro + QStringLiteral("-key"), QStringLiteral("AVRO"),
                                     QStringLiteral(R"({"type":"string","doc":"%1"})").arg(avro).toUtf8());
        RegistryError e;
        QVERIFY2(m_src->setCompatibility(avro + QStringLiteral("-value"), QStringLiteral("FORWARD"), &e),
                 qPrintable(e.message));
        const QString money = QStringLiteral("%1/money-%2.proto").arg(m_ns, proto);
        const int moneyId =
            registered(*m_src, money, QStringLiteral("PROTOBUF"),
                       QStringLiteral("syntax = \"proto3\";\npackage %1.common;\nmessage Money { int64 cents = 1; }\n")
                           .arg(m_ns)
                           .toUtf8());
        const int paymentId = registered(
            *m_src, proto + QStringLiteral("-value"), QStringLiteral("PROTOBUF"),
            QStringLiteral("syntax = \"proto3\";\npackage %1.pay;\nimport \"%2\";\nmessage Payment {\n  message Line { "
                           "string sku = 1; int32 qty = 2; }\n  %1.common.Money amount = 1;\n  string note = 2;\n  "
                           "repeated Line lines = 3;\n}\n")
                .arg(m_ns, money)
                .toUtf8(),
            {{money, money, 1}});
        const int jsonId =
            registered(*m_src, json + QStringLiteral("-value"), QStringLiteral("JSON"),
                       QStringLiteral(R"({"title":"%1","type":"object","properties":{"n":{"type":"integer"}}})")
                           .arg(json)
                           .toUtf8());
        for (int id : {addressId, orderId, keyId, moneyId, paymentId, jsonId})
            QVERIFY(id > 0);
        QVERIFY(pushTargetIdsPast(std::max({addressId, orderId, keyId, moneyId, paymentId, jsonId})));

        QList<TestRecord> avroRecords, protoRecords, jsonRecords;
        for (int i = 0; i < 20; ++i) {
            TestRecord r;
            r.partition = i % 2;
            r.key = wire(keyId, avroString(QByteArray("order-") + QByteArray::number(i)));
            r.value = wire(orderId, zigzag(i) + avroString(QByteArray("street ") + QByteArray::number(i)));
            avroRecords << r;
            TestRecord p;
            p.partition = i % 2;
            const QByteArray moneyBytes = QByteArray("\x08", 1) + varint(quint64(100 * i + 1));
            const QByteArray note = QByteArray("note ") + QByteArray::number(i);
            const QByteArray sku = QByteArray("sku-") + QByteArray::number(i);
            const QByteArray line = QByteArray("\x0a", 1) + varint(quint64(sku.size())) + sku + QByteArray("\x10", 1) +
                                    varint(quint64(i + 1));
            if (i % 2 == 0) {
                // Message indexes [0] (one zero byte): Payment{amount, note, lines}.
                p.value =
                    wire(paymentId, QByteArray(1, '\0') + QByteArray("\x0a", 1) + varint(quint64(moneyBytes.size())) +
                                        moneyBytes + QByteArray("\x12", 1) + varint(quint64(note.size())) + note +
                                        QByteArray("\x1a", 1) + varint(quint64(line.size())) + line);
            } else {
                // Message indexes [0, 0] (count 2, zig-zag: 4 0 0): the nested Payment.Line.
                p.value = wire(paymentId, QByteArray("\x04\x00\x00", 3) + line);
            }
            protoRecords << p;
            TestRecord j;
            j.partition = i % 2;
            j.key = QByteArray("plain-key-") + QByteArray::number(i); // no key subject: left as it is
            j.value = wire(jsonId, QStringLiteral(R"({"n":%1})").arg(i).toUtf8());
            jsonRecords << j;
        }
        // Not in the wire format although the topic has a value subject: copied as it is.
        TestRecord plain;
        plain.partition = 0;
        plain.value = QByteArray("plain text");
        avroRecords << plain;
        QVERIFY2(produce(sourceBootstrap(), {{avro, avroRecords}, {proto, protoRecords}, {json, jsonRecords}}, &error),
                 qPrintable(error));

        MirrorJobSpec s = spec(QStringLiteral("schemas-every-format"), {avro, proto, json});
        if (exactlyOnce)
            s.delivery = DeliveryGuarantee::ExactlyOnce;
        MirrorJob job(s);
        const JobOutcome out = runJob(job, 120000);
        QVERIFY2(out.finished && out.ok, qPrintable(out.error + QStringLiteral("\n  ") + joined(out.events)));

        checkDecodesAlike(s, avro, int(avroRecords.size()));
        QVERIFY(!QTest::currentTestFailed());
        checkDecodesAlike(s, proto, int(protoRecords.size()));
        QVERIFY(!QTest::currentTestFailed());
        checkDecodesAlike(s, json, int(jsonRecords.size()));
        QVERIFY(!QTest::currentTestFailed());

        // The target subjects: renamed with their topics; what they reference keeps its name.
        const QString avroValue = targetTopicName(s, avro) + QStringLiteral("-value");
        const auto order = m_dst->schemaByVersion(avroValue, 1, &e);
        QVERIFY2(order, qPrintable(e.message));
        QCOMPARE(order->references, (QList<SchemaReference>{{m_ns + QStringLiteral(".Address"), address, 1}}));
        QVERIFY2(m_dst->schemaByVersion(address, 1, &e), qPrintable(e.message));
        QVERIFY2(m_dst->schemaByVersion(money, 1, &e), qPrintable(e.message));
        const auto level = m_dst->subjectCompatibility(avroValue, &e);
        QVERIFY2(level, qPrintable(e.message));
        QCOMPARE(*level, QStringLiteral("FORWARD"));
        QVERIFY2(out.events.filter(QStringLiteral("schema sync: registered ") + avroValue).size() == 1,
                 qPrintable(joined(out.events)));

        // Copying again finds every version there (same schema, same references):
        // nothing to register, and the same ids the records carry.
        SchemaRegistryClient src(registry(registryUrl())), dst(registry(secondRegistryUrl()));
        const SchemaSyncRound again = runSchemaSyncRound(s, src, dst, false);
        QVERIFY2(again.ok, qPrintable(again.error));
        QVERIFY2(again.failures.isEmpty(), qPrintable(again.failures.join(QLatin1Char('\n'))));
        QVERIFY(again.subjects.contains(avro + QStringLiteral("-value")));
        for (const SchemaCopyStep &step : again.steps)
            QVERIFY2(!step.created, qPrintable(step.sourceSubject));
        QVERIFY(again.ids.value(orderId) > orderId);
        QVERIFY(again.ids.value(paymentId) > paymentId);

        // verify compares the copies as the job made them: the source's ids mapped, every partition alike.
        if (exactlyOnce)
            return; // verify and check: as for at-least-once
        const VerifyReport verified = Verifier(s).run();
        QVERIFY2(verified.error.isEmpty(), qPrintable(verified.error));
        QVERIFY2(verified.exitCode() == 0, qPrintable(verified.summary()));
        QCOMPARE(verified.partitions.size(), 6);

        // check, from the command line: the subjects follow, nothing left to register, the id map.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("schemas.mirrorjob"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral(R"({"mirrordesk": 1, "name": "schemas check",
            "source": {"alias": "%1", "bootstrap": "%2", "schemaRegistry": {"url": "%3"}},
            "target": {"alias": "dr", "bootstrap": "%4", "schemaRegistry": {"url": "%5"}},
            "topics": {"include": ["%6", "%7", "%8"]}, "naming": "prefix", "start": "earliest",
            "schemas": {"sync": true}})")
                       .arg(s.source.alias, sourceBootstrap(), registryUrl(), targetBootstrap(), secondRegistryUrl(),
                            avro, proto, json)
                       .toUtf8());
        file.close();
        const ExeResult checked = runMirrordesk({QStringLiteral("check"), path}, 120000);
        QVERIFY2(checked.exitCode == 0, qPrintable(checked.out + checked.err));
        QVERIFY2(checked.out.contains(QStringLiteral("schema sync (ids translated, every 60 s):")),
                 qPrintable(checked.out));
        QVERIFY2(checked.out.contains(QStringLiteral("0 version(s) to register")), qPrintable(checked.out));
        QVERIFY2(checked.out.contains(QStringLiteral("%1 -> %2").arg(orderId).arg(again.ids.value(orderId))),
                 qPrintable(checked.out));
    }

    // A version registered on the source while the job runs reaches the target
    // with the first record that uses it; one the target's compatibility
    // refuses holds its partition (named) while another topic goes on, and
    // goes on once the target subject is relaxed.
    void newVersionsWhileRunning()
    {
        const QString topic = uniqueName(QStringLiteral("ss-live")), other = uniqueName(QStringLiteral("ss-other"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 1, {}, &error), qPrintable(error));
        QVERIFY2(createTopic(sourceBootstrap(), other, 1, {}, &error), qPrintable(error));
        const QString subject = topic + QStringLiteral("-value");
        RegistryError e;
        const auto record = [&](const QString &field, const QString &type) {
            return QStringLiteral(
                       R"({"type":"record","name":"Live","namespace":"%1","fields":[{"name":"%2","type":"%3"}]})")
                .arg(m_ns, field, type)
                .toUtf8();
        };
        const int v1 =
            registered(*m_src, subject, QStringLiteral("AVRO"), record(QStringLiteral("a"), QStringLiteral("int")));
        QVERIFY(v1 > 0);
        QVERIFY(m_src->setCompatibility(subject, QStringLiteral("NONE"), &e));
        const int otherId = registered(*m_src, other + QStringLiteral("-value"), QStringLiteral("AVRO"),
                                       QStringLiteral(R"({"type":"long","doc":"%1"})").arg(other).toUtf8());
        QVERIFY(otherId > 0);
        QVERIFY(pushTargetIdsPast(std::max(v1, otherId) + 10));
        QVERIFY2(produce(sourceBootstrap(), topic, {TestRecord{{}, wire(v1, zigzag(1)), {}, -1, 0, -1}}, &error),
                 qPrintable(error));

        MirrorJobSpec s = spec(QStringLiteral("schemas-live"), {topic, other});
        s.stop = StopCondition::RunForever;
        MirrorJob job(s);
        QStringList events;
        connect(&job, &MirrorJob::eventRaised, this, [&](const JobEvent &ev) { events << ev.text; });
        QSignalSpy finished(&job, &MirrorJob::finished);
        job.start();
        const QString targetTopic = targetTopicName(s, topic), targetSubject = targetTopic + QStringLiteral("-value");
        const auto targetCount = [&](const QString &t) {
            QString ignored;
            const auto m = watermarks(targetBootstrap(), t, &ignored);
            return m ? totalMessages(*m) : -1;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(targetCount(targetTopic) == 1 || !finished.isEmpty(), qPrintable(joined(events)),
                                  60000);
        QVERIFY2(finished.isEmpty(), qPrintable(joined(events)));

        // v2, compatible: registered on the source now, used at once.
        const int v2 = registered(
            *m_src, subject, QStringLiteral("AVRO"),
            QStringLiteral(
                R"({"type":"record","name":"Live","namespace":"%1","fields":[{"name":"a","type":"int"},{"name":"b","type":"string","default":""}]})")
                .arg(m_ns)
                .toUtf8());
        QVERIFY(v2 > 0);
        QVERIFY2(produce(sourceBootstrap(), topic,
                         {TestRecord{{}, wire(v2, zigzag(2) + avroString("two")), {}, -1, 0, -1}}, &error),
                 qPrintable(error));
        QTRY_VERIFY2_WITH_TIMEOUT(targetCount(targetTopic) == 2, qPrintable(joined(events)), 60000);
        const auto onTarget = m_dst->schemaByVersion(targetSubject, 2, &e);
        QVERIFY2(onTarget, qPrintable(e.message));

        // v3 changes a's type: the source (NONE) takes it; the operator made the target BACKWARD.
        QVERIFY(m_dst->setCompatibility(targetSubject, QStringLiteral("BACKWARD"), &e));
        const int v3 =
            registered(*m_src, subject, QStringLiteral("AVRO"), record(QStringLiteral("a"), QStringLiteral("string")));
        QVERIFY(v3 > 0);
        QVERIFY2(
            produce(sourceBootstrap(), topic, {TestRecord{{}, wire(v3, avroString("three")), {}, -1, 0, -1}}, &error),
            qPrintable(error));
        const QString stopped = QStringLiteral("stopped copying %1/0 at offset 2: schema id %2").arg(topic).arg(v3);
        QTRY_VERIFY2_WITH_TIMEOUT(!events.filter(stopped).isEmpty(), qPrintable(joined(events)), 60000);
        const QString named = events.filter(stopped).constFirst();
        QVERIFY2(named.contains(QStringLiteral("the target subject's compatibility level is BACKWARD")),
                 qPrintable(named));
        QVERIFY2(named.contains(targetSubject), qPrintable(named));
        // The other topic goes on meanwhile; the held record is not on the target, nor anything after it.
        QVERIFY2(produce(sourceBootstrap(), other, {TestRecord{{}, wire(otherId, zigzag(7)), {}, -1, 0, -1}}, &error),
                 qPrintable(error));
        QTRY_VERIFY2_WITH_TIMEOUT(targetCount(targetTopicName(s, other)) == 1, qPrintable(joined(events)), 60000);
        QCOMPARE(targetCount(targetTopic), 2);

        QVERIFY(m_dst->setCompatibility(targetSubject, QStringLiteral("NONE"), &e));
        QTRY_VERIFY2_WITH_TIMEOUT(targetCount(targetTopic) == 3, qPrintable(joined(events)), 60000);
        QVERIFY2(!events.filter(QStringLiteral("schema id %1 is on the target registry now").arg(v3)).isEmpty(),
                 qPrintable(joined(events)));
        job.stop();
        QVERIFY(job.waitForFinished(60000));
        checkDecodesAlike(s, topic, 3);
    }

    // The target registry away while records with a new schema arrive: their
    // partition waits (nothing copied, nothing with the source's id), and
    // copies everything once the registry is back.
    void targetRegistryAwayMidCopy()
    {
        const QString topic = uniqueName(QStringLiteral("ss-away"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 1, {}, &error), qPrintable(error));
        const QString subject = topic + QStringLiteral("-value");
        const int v1 = registered(*m_src, subject, QStringLiteral("AVRO"),
                                  QStringLiteral(R"({"type":"string","doc":"%1 v1"})").arg(topic).toUtf8());
        QVERIFY(v1 > 0);
        QVERIFY(pushTargetIdsPast(v1 + 10));
        RegistryHop hop(secondRegistryUrl());
        MirrorJobSpec s = spec(QStringLiteral("schemas-away"), {topic}, hop.url());
        s.stop = StopCondition::RunForever;
        QList<TestRecord> first;
        for (int i = 0; i < 10; ++i)
            first << TestRecord{{}, wire(v1, avroString(QByteArray::number(i))), {}, -1, 0, -1};
        QVERIFY2(produce(sourceBootstrap(), topic, first, &error), qPrintable(error));
        MirrorJob job(s);
        QStringList events;
        connect(&job, &MirrorJob::eventRaised, this, [&](const JobEvent &ev) { events << ev.text; });
        job.start();
        const QString targetTopic = targetTopicName(s, topic);
        const auto targetCount = [&] {
            QString ignored;
            const auto m = watermarks(targetBootstrap(), targetTopic, &ignored);
            return m ? totalMessages(*m) : -1;
        };
        QTRY_VERIFY2_WITH_TIMEOUT(targetCount() == 10, qPrintable(joined(events)), 60000);

        hop.down();
        const int v2 = registered(*m_src, subject, QStringLiteral("AVRO"),
                                  QStringLiteral(R"({"type":"string","doc":"%1 v2"})").arg(topic).toUtf8());
        QVERIFY(v2 > 0);
        QList<TestRecord> second;
        for (int i = 10; i < 20; ++i)
            second << TestRecord{{}, wire(i % 2 ? v2 : v1, avroString(QByteArray::number(i))), {}, -1, 0, -1};
        QVERIFY2(produce(sourceBootstrap(), topic, second, &error), qPrintable(error));
        // The v1 record at offset 10 goes (its id is known); the v2 one at 11 waits.
        const QString stopped = QStringLiteral("stopped copying %1/0 at offset 11: schema id %2").arg(topic).arg(v2);
        QTRY_VERIFY2_WITH_TIMEOUT(!events.filter(stopped).isEmpty(), qPrintable(joined(events)), 60000);
        QCOMPARE(targetCount(), 11);
        QTest::qWait(3000);
        QCOMPARE(targetCount(), 11);

        hop.up();
        QTRY_VERIFY2_WITH_TIMEOUT(targetCount() == 20, qPrintable(joined(events)), 60000);
        job.stop();
        QVERIFY(job.waitForFinished(60000));
        checkDecodesAlike(s, topic, 20);
    }

    // preserve against a registry in IMPORT mode: every subject version is
    // registered under the source's own id, and the records go byte for byte.
    void preserveKeepsTheSourcesIds()
    {
        const QString topic = uniqueName(QStringLiteral("ss-same"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 1, {}, &error), qPrintable(error));
        const QString address = QStringLiteral("%1.Address-%2").arg(m_ns, topic);
        const int addressId = registered(
            *m_src, address, QStringLiteral("AVRO"),
            QStringLiteral(
                R"({"type":"record","name":"Address","namespace":"%1","fields":[{"name":"street","type":"string"}]})")
                .arg(m_ns)
                .toUtf8());
        const int v1 = registered(
            *m_src, topic + QStringLiteral("-value"), QStringLiteral("AVRO"),
            QStringLiteral(
                R"({"type":"record","name":"Parcel","namespace":"%1","fields":[{"name":"to","type":"%1.Address"}]})")
                .arg(m_ns)
                .toUtf8(),
            {{m_ns + QStringLiteral(".Address"), address, 1}});
        QVERIFY(addressId > 0 && v1 > 0);
        QList<TestRecord> records;
        for (int i = 0; i < 10; ++i)
            records << TestRecord{{}, wire(v1, avroString(QByteArray("street ") + QByteArray::number(i))), {}, -1, 0,
                                  -1};
        QVERIFY2(produce(sourceBootstrap(), topic, records, &error), qPrintable(error));

        ImportModeRegistry target;
        MirrorJobSpec s = spec(QStringLiteral("schemas-preserve-import"), {topic}, target.url());
        s.schemaIds = MirrorJobSpec::SchemaIds::Preserve;
        MirrorJob job(s);
        const JobOutcome out = runJob(job, 120000);
        QVERIFY2(out.finished && out.ok, qPrintable(out.error + QStringLiteral("\n  ") + joined(out.events)));
        // The referenced subject first, then the topic's, each under the source's id.
        QCOMPARE(target.entries().size(), 2);
        QCOMPARE(target.entries().at(0).subject, address);
        QCOMPARE(target.entries().at(0).id, addressId);
        QCOMPARE(target.entries().at(1).subject, targetTopicName(s, topic) + QStringLiteral("-value"));
        QCOMPARE(target.entries().at(1).id, v1);
        QCOMPARE(target.entries().at(1).request.value(QStringLiteral("id")).toInt(), v1);
        const auto copied = consumeAll(targetBootstrap(), targetTopicName(s, topic), &error);
        QVERIFY2(copied && copied->size() == records.size(), qPrintable(error));
        for (qsizetype i = 0; i < records.size(); ++i)
            QCOMPARE(copied->at(i).value, records.at(i).value);
    }

    // preserve needs a registry that takes given ids; Apicurio has no mode
    // API: the job stops at once, saying so, and copies nothing.
    void preserveRefusedWithTheReason()
    {
        const QString topic = uniqueName(QStringLiteral("ss-keep"));
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 1, {}, &error), qPrintable(error));
        const int id = registered(*m_src, topic + QStringLiteral("-value"), QStringLiteral("AVRO"),
                                  QStringLiteral(R"({"type":"string","doc":"%1"})").arg(topic).toUtf8());
        QVERIFY(id > 0);
        QVERIFY2(produce(sourceBootstrap(), topic, {TestRecord{{}, wire(id, avroString("x")), {}, -1, 0, -1}}, &error),
                 qPrintable(error));
        MirrorJobSpec s = spec(QStringLiteral("schemas-preserve"), {topic});
        s.schemaIds = MirrorJobSpec::SchemaIds::Preserve;
        MirrorJob job(s);
        const JobOutcome out = runJob(job, 60000);
        QVERIFY(out.finished);
        QVERIFY2(!out.ok, "a preserve job ran against a registry that cannot take given ids");
        QVERIFY2(out.error.contains(QStringLiteral("schemas.ids preserve needs")), qPrintable(out.error));
        const auto m = watermarks(targetBootstrap(), targetTopicName(s, topic), &error);
        QVERIFY2(!m || totalMessages(*m) == 0, "a record went to the target with an id the target registry lacks");

        // check refuses the profile, with the same reason.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("preserve.mirrorjob"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral(R"({"mirrordesk": 1, "name": "preserve check",
            "source": {"alias": "eu", "bootstrap": "%1", "schemaRegistry": {"url": "%2"}},
            "target": {"alias": "dr", "bootstrap": "%3", "schemaRegistry": {"url": "%4"}},
            "topics": {"include": ["%5"]}, "naming": "prefix", "schemas": {"sync": true, "ids": "preserve"}})")
                       .arg(sourceBootstrap(), registryUrl(), targetBootstrap(), secondRegistryUrl(), topic)
                       .toUtf8());
        file.close();
        const ExeResult checked = runMirrordesk({QStringLiteral("check"), path}, 120000);
        QCOMPARE(checked.exitCode, 1);
        QVERIFY2(checked.out.contains(QStringLiteral("ERROR: schemas.ids preserve needs")), qPrintable(checked.out));
    }
};

QTEST_GUILESS_MAIN(TstSchemaSync)
#include "tst_schema_sync.moc"
