// SchemaRegistryClient against a real Apicurio Registry 3 (its Confluent-
// compatible API, started by the harness beside the brokers): Avro, Protobuf
// with a reference and JSON Schema registered and read back by id, subject
// and version. What the real registry cannot be made to do (refuse
// credentials, answer garbage) is played by a fake HTTP server, which also
// sees the headers and paths the client sends.

#include "registry_fake_support.h"

#include "KafkaTestEnv.h"
#include "RegistryTestEnv.h"
#include "engine/schema/SchemaRegistryClient.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QUrl>
#include <QtTest/QtTest>

#include <atomic>
#include <thread>
#include <vector>

using namespace md;
using namespace md::test;

namespace {

// A refused connection on loopback is immediate; the bound is the timeout plus slack.
constexpr int kTimeoutMs = 2000;
constexpr int kBoundMs = kTimeoutMs + 1500;

SchemaRegistryConfig configFor(const QString &url)
{
    SchemaRegistryConfig config;
    config.url = url;
    return config;
}

QByteArray avroSchema(const QString &name, bool withExtraField = false)
{
    QJsonArray fields{
        QJsonObject{{QStringLiteral("name"), QStringLiteral("id")}, {QStringLiteral("type"), QStringLiteral("long")}}};
    if (withExtraField)
        fields.append(
            QJsonObject{{QStringLiteral("name"), QStringLiteral("note")},
                        {QStringLiteral("type"), QJsonArray{QStringLiteral("null"), QStringLiteral("string")}},
                        {QStringLiteral("default"), QJsonValue::Null}});
    const QJsonObject record{{QStringLiteral("type"), QStringLiteral("record")},
                             {QStringLiteral("name"), name},
                             {QStringLiteral("namespace"), QStringLiteral("md.test")},
                             {QStringLiteral("fields"), fields}};
    return QJsonDocument(record).toJson(QJsonDocument::Compact);
}

// A port nothing listens on: bound once, then released.
quint16 closedPort()
{
    QTcpServer server;
    server.listen(QHostAddress::LocalHost, 0);
    const quint16 port = server.serverPort();
    server.close();
    return port;
}

QByteArray basicHeader(const QByteArray &user, const QByteArray &password)
{
    return "Basic " + QByteArray(user + ':' + password).toBase64();
}

} // namespace

class TestSchemaRegistryClient final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void avroByIdSubjectAndVersion();
    void protobufWithReference();
    void jsonSchema();
    void compatibilityOfSubjectAndGlobal();
    void unknownIdSubjectVersionAreNotFound();
    void baseUrlWithTrailingSlash();
    void oneClientSharedByThreads();
    void probe();
    void closedPortIsUnreachableInBoundedTime();
    void silentServerTimesOut();
    void refusedCredentialsAreUnauthorized_data();
    void refusedCredentialsAreUnauthorized();
    void authorizationHeaders();
    void userinfoNeverShown();
    void requestShape();
    void badAnswers_data();
    void badAnswers();
    void confluentSubjectWithoutLevelFallsBackToGlobal();
    void redactedUrl_data();
    void redactedUrl();

private:
    std::unique_ptr<SchemaRegistryClient> m_client;
};

void TestSchemaRegistryClient::initTestCase()
{
    MD_REQUIRE_REGISTRY();
    m_client = std::make_unique<SchemaRegistryClient>(configFor(registryUrl()), 10000);
}

void TestSchemaRegistryClient::avroByIdSubjectAndVersion()
{
    const QString subject = uniqueName(QStringLiteral("md-avro")) + QStringLiteral("-value");
    RegistryError error;
    const std::optional<int> id =
        m_client->registerSchema(subject, QStringLiteral("AVRO"), avroSchema(QStringLiteral("Order")), {}, &error);
    QVERIFY2(id, qPrintable(error.message));
    QVERIFY(*id > 0);

    const std::optional<RegistrySchema> byId = m_client->schemaById(*id, &error);
    QVERIFY2(byId, qPrintable(error.message));
    QCOMPARE(byId->id, *id);
    QCOMPARE(byId->type, QStringLiteral("AVRO"));
    QCOMPARE(QJsonDocument::fromJson(byId->text), QJsonDocument::fromJson(avroSchema(QStringLiteral("Order"))));
    QVERIFY(byId->references.isEmpty());

    const std::optional<QList<SubjectVersion>> where = m_client->versionsOfId(*id, &error);
    QVERIFY2(where, qPrintable(error.message));
    QVERIFY(where->contains(SubjectVersion{subject, 1}));

    // The same text under another subject is the same schema: its id, and both subjects listed for it.
    const QString twin = subject + QStringLiteral("-twin");
    QCOMPARE(m_client->registerSchema(twin, QStringLiteral("AVRO"), avroSchema(QStringLiteral("Order")), {}, &error)
                 .value_or(-1),
             *id);
    const std::optional<QList<SubjectVersion>> both = m_client->versionsOfId(*id, &error);
    QVERIFY2(both, qPrintable(error.message));
    QVERIFY(both->contains(SubjectVersion{subject, 1}) && both->contains(SubjectVersion{twin, 1}));

    const std::optional<QStringList> subjects = m_client->subjects(&error);
    QVERIFY2(subjects, qPrintable(error.message));
    QVERIFY(subjects->contains(subject));

    // A second version: ids are the registry's own (Apicurio's are global, not 1..n per subject).
    const std::optional<int> id2 = m_client->registerSchema(subject, QStringLiteral("AVRO"),
                                                            avroSchema(QStringLiteral("Order"), true), {}, &error);
    QVERIFY2(id2, qPrintable(error.message));
    QVERIFY(*id2 != *id);
    const std::optional<QList<int>> versions = m_client->versions(subject, &error);
    QVERIFY2(versions, qPrintable(error.message));
    QCOMPARE(*versions, (QList<int>{1, 2}));

    const std::optional<RegistrySchema> v1 = m_client->schemaByVersion(subject, 1, &error);
    QVERIFY2(v1, qPrintable(error.message));
    QCOMPARE(v1->id, *id);
    QCOMPARE(v1->subject, subject);
    QCOMPARE(v1->version, 1);
    QCOMPARE(v1->type, QStringLiteral("AVRO"));
    const std::optional<RegistrySchema> latest = m_client->schemaByVersion(subject, -1, &error);
    QVERIFY2(latest, qPrintable(error.message));
    QCOMPARE(latest->id, *id2);
    QCOMPARE(latest->version, 2);
    QCOMPARE(QJsonDocument::fromJson(latest->text), QJsonDocument::fromJson(avroSchema(QStringLiteral("Order"), true)));
}

void TestSchemaRegistryClient::protobufWithReference()
{
    const QString common = uniqueName(QStringLiteral("md-money")) + QStringLiteral(".proto");
    const QString subject = uniqueName(QStringLiteral("md-proto")) + QStringLiteral("-value");
    const QByteArray money =
        "syntax = \"proto3\";\npackage md.common;\nmessage Money { int64 cents = 1; string currency = 2; }\n";
    const QByteArray order = "syntax = \"proto3\";\npackage md.orders;\nimport \"" + common.toUtf8() +
                             "\";\nmessage Order { string id = 1; md.common.Money total = 2; }\n";
    RegistryError error;
    const std::optional<int> moneyId = m_client->registerSchema(common, QStringLiteral("PROTOBUF"), money, {}, &error);
    QVERIFY2(moneyId, qPrintable(error.message));
    const QList<SchemaReference> refs{{common, common, 1}};
    const std::optional<int> orderId =
        m_client->registerSchema(subject, QStringLiteral("PROTOBUF"), order, refs, &error);
    QVERIFY2(orderId, qPrintable(error.message));
    QVERIFY(*orderId != *moneyId);

    const std::optional<RegistrySchema> byId = m_client->schemaById(*orderId, &error);
    QVERIFY2(byId, qPrintable(error.message));
    QCOMPARE(byId->type, QStringLiteral("PROTOBUF"));
    QCOMPARE(byId->text, order);
    QCOMPARE(byId->references, refs);

    const std::optional<RegistrySchema> latest = m_client->schemaByVersion(subject, -1, &error);
    QVERIFY2(latest, qPrintable(error.message));
    QCOMPARE(latest->id, *orderId);
    QCOMPARE(latest->references, refs);
    // The reference resolves to the imported file by subject and version.
    const std::optional<RegistrySchema> imported = m_client->schemaByVersion(refs[0].subject, refs[0].version, &error);
    QVERIFY2(imported, qPrintable(error.message));
    QCOMPARE(imported->id, *moneyId);
    QCOMPARE(imported->text, money);
    // Earlier runs registered the same text under other subjects: the same id, listed for each.
    QVERIFY(
        m_client->versionsOfId(*moneyId, &error).value_or(QList<SubjectVersion>{}).contains(SubjectVersion{common, 1}));
}

void TestSchemaRegistryClient::jsonSchema()
{
    const QString subject = uniqueName(QStringLiteral("md-json")) + QStringLiteral("-value");
    const QByteArray schema =
        R"({"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"sku":{"type":"string"}}})";
    RegistryError error;
    const std::optional<int> id = m_client->registerSchema(subject, QStringLiteral("JSON"), schema, {}, &error);
    QVERIFY2(id, qPrintable(error.message));
    const std::optional<RegistrySchema> byId = m_client->schemaById(*id, &error);
    QVERIFY2(byId, qPrintable(error.message));
    QCOMPARE(byId->type, QStringLiteral("JSON"));
    QCOMPARE(QJsonDocument::fromJson(byId->text), QJsonDocument::fromJson(schema));
}

void TestSchemaRegistryClient::compatibilityOfSubjectAndGlobal()
{
    RegistryError error;
    const std::optional<QString> global = m_client->compatibility(QString(), &error);
    QVERIFY2(global, qPrintable(error.message));
    QVERIFY(!global->isEmpty());
    const QString subject = uniqueName(QStringLiteral("md-compat")) + QStringLiteral("-value");
    QVERIFY2(m_client->registerSchema(subject, QStringLiteral("AVRO"), avroSchema(QStringLiteral("C")), {}, &error),
             qPrintable(error.message));
    // No level of its own: the global one.
    QCOMPARE(m_client->compatibility(subject, &error).value_or(QStringLiteral("(none)")), *global);

    // Its own level, set with the API's PUT (the client only reads levels).
    const QString own = *global == QLatin1String("FULL") ? QStringLiteral("BACKWARD") : QStringLiteral("FULL");
    QProcess curl;
    curl.start(QStringLiteral("curl"),
               {QStringLiteral("-sf"), QStringLiteral("-X"), QStringLiteral("PUT"), QStringLiteral("-H"),
                QStringLiteral("Content-Type: application/vnd.schemaregistry.v1+json"), QStringLiteral("--data"),
                QStringLiteral("{\"compatibility\":\"%1\"}").arg(own),
                registryUrl() + QStringLiteral("/config/") + QString::fromLatin1(QUrl::toPercentEncoding(subject))});
    QVERIFY(curl.waitForFinished(10000));
    QCOMPARE(curl.exitCode(), 0);
    QCOMPARE(m_client->compatibility(subject, &error).value_or(QStringLiteral("(none)")), own);
    QCOMPARE(m_client->compatibility(QString(), &error).value_or(QStringLiteral("(none)")), *global);
}

void TestSchemaRegistryClient::unknownIdSubjectVersionAreNotFound()
{
    RegistryError error;
    QVERIFY(!m_client->schemaById(2000000000, &error));
    QCOMPARE(error.kind, RegistryError::Kind::NotFound);
    QCOMPARE(error.httpStatus, 404);
    // The registry's own words and where it was asked.
    QVERIFY2(error.message.contains(QLatin1String("2000000000")), qPrintable(error.message));
    QVERIFY2(error.message.contains(registryUrl()), qPrintable(error.message));

    QVERIFY(!m_client->versionsOfId(2000000000, &error));
    QCOMPARE(error.kind, RegistryError::Kind::NotFound);
    const QString nobody = uniqueName(QStringLiteral("md-nobody"));
    QVERIFY(!m_client->versions(nobody, &error));
    QCOMPARE(error.kind, RegistryError::Kind::NotFound);
    QVERIFY(!m_client->schemaByVersion(nobody, -1, &error));
    QCOMPARE(error.kind, RegistryError::Kind::NotFound);

    const QString subject = uniqueName(QStringLiteral("md-onever")) + QStringLiteral("-value");
    QVERIFY2(m_client->registerSchema(subject, QStringLiteral("AVRO"), avroSchema(QStringLiteral("One")), {}, &error),
             qPrintable(error.message));
    QVERIFY(!m_client->schemaByVersion(subject, 7, &error));
    QCOMPARE(error.kind, RegistryError::Kind::NotFound);
    // A success clears the previous error.
    QVERIFY(m_client->schemaByVersion(subject, 1, &error));
    QVERIFY(error.ok());
}

void TestSchemaRegistryClient::baseUrlWithTrailingSlash()
{
    SchemaRegistryClient client(configFor(registryUrl() + QStringLiteral("//")), kTimeoutMs);
    RegistryError error;
    QVERIFY2(client.subjects(&error), qPrintable(error.message));

    FakeRegistry fake;
    fake.answer("/apis/ccompat/v7/subjects", {200, "[]"});
    SchemaRegistryClient viaFake(configFor(fake.url() + QStringLiteral("/")), kTimeoutMs);
    QVERIFY(offThread([&] { return viaFake.subjects(&error); }));
    QCOMPARE(fake.requests().size(), 1);
    QCOMPARE(fake.requests()[0].path, QByteArray("/apis/ccompat/v7/subjects"));
}

void TestSchemaRegistryClient::oneClientSharedByThreads()
{
    const QString subject = uniqueName(QStringLiteral("md-shared")) + QStringLiteral("-value");
    RegistryError error;
    const std::optional<int> id =
        m_client->registerSchema(subject, QStringLiteral("AVRO"), avroSchema(QStringLiteral("Shared")), {}, &error);
    QVERIFY2(id, qPrintable(error.message));
    std::atomic<int> good{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < 25; ++i) {
                RegistryError e;
                if (m_client->schemaById(*id, &e) && m_client->versions(subject, &e))
                    ++good;
            }
        });
    for (std::thread &t : threads)
        t.join();
    QCOMPARE(good.load(), 100);
}

void TestSchemaRegistryClient::probe()
{
    const RegistryProbe ok = probeSchemaRegistry(configFor(registryUrl()), kTimeoutMs);
    QVERIFY2(ok.ok(), qPrintable(ok.error.message));
    QVERIFY(ok.subjectCount >= 1); // the subjects registered above
    QVERIFY(ok.elapsedMs >= 0);

    const RegistryProbe down =
        probeSchemaRegistry(configFor(QStringLiteral("http://127.0.0.1:%1").arg(closedPort())), kTimeoutMs);
    QVERIFY(!down.ok());
    QCOMPARE(down.error.kind, RegistryError::Kind::Unreachable);
    QCOMPARE(down.subjectCount, -1);
    QVERIFY(!probeSchemaRegistry(SchemaRegistryConfig{}, kTimeoutMs).ok());
}

void TestSchemaRegistryClient::closedPortIsUnreachableInBoundedTime()
{
    const QString url = QStringLiteral("http://127.0.0.1:%1/apis/ccompat/v7").arg(closedPort());
    SchemaRegistryClient client(configFor(url), kTimeoutMs);
    QElapsedTimer timer;
    timer.start();
    RegistryError error;
    QVERIFY(!client.schemaById(1, &error));
    QVERIFY2(timer.elapsed() < kBoundMs, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(error.kind, RegistryError::Kind::Unreachable);
    QCOMPARE(error.httpStatus, 0);
    QVERIFY2(error.message.contains(url), qPrintable(error.message));
}

void TestSchemaRegistryClient::silentServerTimesOut()
{
    // Listening, never answering: the kernel accepts, nobody reads.
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
    SchemaRegistryClient client(configFor(QStringLiteral("http://127.0.0.1:%1").arg(silent.serverPort())), kTimeoutMs);
    QElapsedTimer timer;
    timer.start();
    RegistryError error;
    QVERIFY(!client.subjects(&error));
    QVERIFY2(timer.elapsed() >= kTimeoutMs - 100 && timer.elapsed() < kBoundMs,
             qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(error.kind, RegistryError::Kind::Unreachable);
}

void TestSchemaRegistryClient::refusedCredentialsAreUnauthorized_data()
{
    QTest::addColumn<int>("status");
    QTest::newRow("401") << 401;
    QTest::newRow("403") << 403;
}

void TestSchemaRegistryClient::refusedCredentialsAreUnauthorized()
{
    QFETCH(int, status);
    FakeRegistry fake;
    fake.answer("/apis/ccompat/v7/schemas/ids/5", {status, R"({"error_code":40101,"message":"Unauthorized user"})"});
    SchemaRegistryConfig config = configFor(fake.url());
    config.username = QStringLiteral("alice");
    config.password = QStringLiteral("s3cret-pass-word");
    SchemaRegistryClient client(config, kTimeoutMs);
    RegistryError error;
    QVERIFY(!offThread([&] { return client.schemaById(5, &error); }));
    QCOMPARE(error.kind, RegistryError::Kind::Unauthorized);
    QCOMPARE(error.httpStatus, status);
    QVERIFY2(error.message.contains(QLatin1String("Unauthorized user")), qPrintable(error.message));
    QVERIFY2(error.message.contains(fake.url()), qPrintable(error.message));
    QVERIFY2(!error.message.contains(config.password), qPrintable(error.message));
}

void TestSchemaRegistryClient::authorizationHeaders()
{
    FakeRegistry fake;
    fake.answer("/subjects", {200, R"(["a","b"])"});
    RegistryError error;

    SchemaRegistryConfig basic = configFor(fake.url(QString()));
    basic.username = QStringLiteral("alice");
    basic.password = QStringLiteral("pa:ss wörd");
    SchemaRegistryClient basicClient(basic, kTimeoutMs);
    QCOMPARE(offThread([&] { return basicClient.subjects(&error); }).value_or(QStringList{}),
             (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
    QCOMPARE(fake.requests().last().headers.value("authorization"), basicHeader("alice", "pa:ss w\xc3\xb6rd"));

    SchemaRegistryConfig bearer = configFor(fake.url(QString()));
    bearer.token = QStringLiteral("tok-0123456789");
    SchemaRegistryClient bearerClient(bearer, kTimeoutMs);
    QVERIFY(offThread([&] { return bearerClient.subjects(&error); }));
    QCOMPARE(fake.requests().last().headers.value("authorization"), QByteArray("Bearer tok-0123456789"));

    SchemaRegistryClient anonymous(configFor(fake.url(QString())), kTimeoutMs);
    QVERIFY(offThread([&] { return anonymous.subjects(&error); }));
    QVERIFY(!fake.requests().last().headers.contains("authorization"));

    // A token cannot smuggle a header of its own.
    bearer.token = QStringLiteral("tok\r\nX-Evil: 1");
    SchemaRegistryClient evil(bearer, kTimeoutMs);
    const qsizetype before = fake.requests().size();
    QVERIFY(!offThread([&] { return evil.subjects(&error); }));
    QCOMPARE(fake.requests().size(), before);
    QVERIFY(!error.message.contains(QLatin1String("X-Evil")));
}

void TestSchemaRegistryClient::userinfoNeverShown()
{
    FakeRegistry fake;
    fake.answer("/apis/ccompat/v7/subjects", {401, R"({"error_code":40101,"message":"bad credentials"})"});
    const QString secret = QStringLiteral("hunter2-very-secret");
    const QString withUserinfo =
        QStringLiteral("http://bob:%1@127.0.0.1:%2/apis/ccompat/v7").arg(secret).arg(fake.port());
    SchemaRegistryClient client(configFor(withUserinfo), kTimeoutMs);
    RegistryError error;
    QVERIFY(!offThread([&] { return client.subjects(&error); }));
    QCOMPARE(error.kind, RegistryError::Kind::Unauthorized);
    QVERIFY2(!error.message.contains(secret) && !error.message.contains(QLatin1String("bob:")),
             qPrintable(error.message));
    QVERIFY2(error.message.contains(fake.url()), qPrintable(error.message));

    const QString down = QStringLiteral("https://bob:%1@127.0.0.1:%2/x").arg(secret).arg(closedPort());
    SchemaRegistryClient downClient(configFor(down), kTimeoutMs);
    QVERIFY(!downClient.subjects(&error));
    QCOMPARE(error.kind, RegistryError::Kind::Unreachable);
    QVERIFY2(!error.message.contains(secret), qPrintable(error.message));
    const RegistryProbe probe = probeSchemaRegistry(configFor(down), kTimeoutMs);
    QVERIFY2(!probe.error.message.contains(secret), qPrintable(probe.error.message));
}

void TestSchemaRegistryClient::requestShape()
{
    FakeRegistry fake;
    const QByteArray versionsPath = "/apis/ccompat/v7/subjects/a%20b%2Fc%3Fd/versions";
    fake.answer(versionsPath, {200, R"({"id":42})"});
    SchemaRegistryClient client(configFor(fake.url()), kTimeoutMs);
    RegistryError error;
    const QString subject = QStringLiteral("a b/c?d");
    const QList<SchemaReference> refs{{QStringLiteral("dep.proto"), QStringLiteral("dep"), 3}};
    const std::optional<int> id = offThread([&] {
        return client.registerSchema(subject, QStringLiteral("PROTOBUF"), "syntax = \"proto3\";", refs, &error);
    });
    QCOMPARE(id.value_or(-1), 42);
    const FakeRequest &post = fake.requests().last();
    QCOMPARE(post.method, QByteArray("POST"));
    QCOMPARE(post.path, versionsPath);
    QCOMPARE(post.headers.value("content-type"), QByteArray("application/vnd.schemaregistry.v1+json"));
    QVERIFY(post.headers.value("accept").contains("application/vnd.schemaregistry.v1+json"));
    const QJsonObject body = QJsonDocument::fromJson(post.body).object();
    QCOMPARE(body.value(QLatin1String("schemaType")).toString(), QStringLiteral("PROTOBUF"));
    QCOMPARE(body.value(QLatin1String("schema")).toString(), QStringLiteral("syntax = \"proto3\";"));
    const QJsonObject ref = body.value(QLatin1String("references")).toArray().at(0).toObject();
    QCOMPARE(ref.value(QLatin1String("name")).toString(), QStringLiteral("dep.proto"));
    QCOMPARE(ref.value(QLatin1String("subject")).toString(), QStringLiteral("dep"));
    QCOMPARE(ref.value(QLatin1String("version")).toInt(), 3);

    QVERIFY(!offThread([&] { return client.schemaByVersion(subject, -1, &error); }));
    QCOMPARE(fake.requests().last().method, QByteArray("GET"));
    QCOMPARE(fake.requests().last().path, QByteArray("/apis/ccompat/v7/subjects/a%20b%2Fc%3Fd/versions/latest"));
}

void TestSchemaRegistryClient::badAnswers_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("says");
    const int bad = int(RegistryError::Kind::BadResponse);
    QTest::newRow("html") << 200 << QByteArray("<html>proxy login</html>") << bad << QStringLiteral("not JSON");
    QTest::newRow("wrong shape") << 200 << QByteArray(R"({"subjects":[]})") << bad << QStringLiteral("not a list");
    QTest::newRow("too large") << 200 << QByteArray(17 * 1024 * 1024, ' ') << bad << QStringLiteral("larger than");
    QTest::newRow("500") << 500 << QByteArray(R"({"error_code":50001,"message":"Error in the backend"})")
                         << int(RegistryError::Kind::Other) << QStringLiteral("HTTP 500 for");
    QTest::newRow("404 html") << 404 << QByteArray("<html>nope</html>") << int(RegistryError::Kind::NotFound)
                              << QStringLiteral("HTTP 404");
}

void TestSchemaRegistryClient::badAnswers()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(int, kind);
    QFETCH(QString, says);
    FakeRegistry fake;
    fake.answer("/subjects", {status, body, "text/html"});
    SchemaRegistryClient client(configFor(fake.url(QString())), kTimeoutMs);
    RegistryError error;
    QVERIFY(!offThread([&] { return client.subjects(&error); }));
    QCOMPARE(int(error.kind), kind);
    QVERIFY2(error.message.contains(says), qPrintable(error.message));
    if (status != 200)
        QCOMPARE(error.httpStatus, status);
    if (status == 500)
        QVERIFY2(error.message.contains(QLatin1String("Error in the backend")), qPrintable(error.message));
}

void TestSchemaRegistryClient::confluentSubjectWithoutLevelFallsBackToGlobal()
{
    // Confluent answers 404 / error_code 40408 for a subject without a level of its own.
    FakeRegistry fake;
    fake.answer(
        "/config/orders-value",
        {404,
         R"({"error_code":40408,"message":"Subject 'orders-value' does not have subject-level compatibility configured"})"});
    fake.answer("/config", {200, R"({"compatibilityLevel":"BACKWARD_TRANSITIVE"})"});
    fake.answer("/config/own-value", {200, R"({"compatibilityLevel":"FORWARD"})"});
    fake.answer("/config/locked-value", {401, R"({"error_code":40101,"message":"Unauthorized"})"});
    SchemaRegistryClient client(configFor(fake.url(QString())), kTimeoutMs);
    RegistryError error;
    QCOMPARE(
        offThread([&] { return client.compatibility(QStringLiteral("orders-value"), &error); }).value_or(QString()),
        QStringLiteral("BACKWARD_TRANSITIVE"));
    QVERIFY(error.ok());
    QCOMPARE(offThread([&] { return client.compatibility(QStringLiteral("own-value"), &error); }).value_or(QString()),
             QStringLiteral("FORWARD"));
    // Only a missing level falls back: a refusal is the answer.
    QVERIFY(!offThread([&] { return client.compatibility(QStringLiteral("locked-value"), &error); }));
    QCOMPARE(error.kind, RegistryError::Kind::Unauthorized);
    const qsizetype before = fake.requests().size();
    QCOMPARE(offThread([&] { return client.compatibility(QString(), &error); }).value_or(QString()),
             QStringLiteral("BACKWARD_TRANSITIVE"));
    QCOMPARE(fake.requests().size(), before + 1);
    QCOMPARE(fake.requests().last().path, QByteArray("/config"));
}

void TestSchemaRegistryClient::redactedUrl_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("shown");
    QTest::newRow("plain") << QStringLiteral("http://h:8081/apis/ccompat/v7")
                           << QStringLiteral("http://h:8081/apis/ccompat/v7");
    QTest::newRow("user:secret") << QStringLiteral("https://u:p%40ss@h:8081/x") << QStringLiteral("https://h:8081/x");
    QTest::newRow("user only") << QStringLiteral("http://u@h") << QStringLiteral("http://h");
    QTest::newRow("@ in path") << QStringLiteral("http://h/a@b") << QStringLiteral("http://h/a@b");
    QTest::newRow("@ in password") << QStringLiteral("http://u:a@b@h/") << QStringLiteral("http://h/");
    QTest::newRow("@ in query") << QStringLiteral("http://h?x=a@b") << QStringLiteral("http://h?x=a@b");
}

void TestSchemaRegistryClient::redactedUrl()
{
    QFETCH(QString, url);
    QFETCH(QString, shown);
    QCOMPARE(redactedRegistryUrl(url), shown);
}

QTEST_GUILESS_MAIN(TestSchemaRegistryClient)
#include "tst_schemaregistry_client.moc"
