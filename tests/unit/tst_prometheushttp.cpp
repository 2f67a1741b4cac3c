// The Prometheus exporter's HTTP server over real loopback sockets: unknown
// paths, other methods and garbage, requests in pieces or oversized, many
// clients at once, updates from another thread while scraped, a real HTTP
// client, and listen errors and addresses.

#include "PrometheusTestUtil.h"
#include "service/PrometheusExporter.h"

#include <QDeadlineTimer>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>
#include <vector>

using namespace md;
using namespace md::test;

class TestPrometheusHttp final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void unknownPathIs404();
    void otherMethodsAndGarbage();
    void partialRequestIsAnswered();
    void oversizedRequestIsRefused();
    void manyClientsAtOnce();
    void updatesFromAnotherThread();
    void worksWithQNetworkAccessManager();
    void listenErrorIsClear();
    void listensOnTheAddressItIsGiven();
};

void TestPrometheusHttp::unknownPathIs404()
{
    PrometheusExporter exporter;
    QVERIFY(exporter.listen(0));
    exporter.update(sampleSnapshot(QStringLiteral("j")), JobLagStatus::Ok);
    QCOMPARE(get(exporter.serverPort(), "/").code, 404);
    QCOMPARE(get(exporter.serverPort(), "/metricsx").code, 404);
    QCOMPARE(get(exporter.serverPort(), "/favicon.ico").code, 404);
    const Response withQuery = get(exporter.serverPort(), "/metrics?name[]=mirrordesk_job_up");
    QCOMPARE(withQuery.code, 200);
    QVERIFY(parseExposition(withQuery.body).error.isEmpty());
}

void TestPrometheusHttp::otherMethodsAndGarbage()
{
    PrometheusExporter exporter;
    QVERIFY(exporter.listen(0));
    const quint16 port = exporter.serverPort();
    const Response post = exchange(port, {"POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n"});
    QCOMPARE(post.code, 405);
    QCOMPARE(post.headers.value("allow"), QByteArray("GET, HEAD"));
    const Response head = exchange(port, {"HEAD /metrics HTTP/1.1\r\n\r\n"});
    QCOMPARE(head.code, 200);
    QVERIFY(head.body.isEmpty());
    QCOMPARE(exchange(port, {"hello there\r\n\r\n"}).code, 400);
    QCOMPARE(exchange(port, {"GET /metrics\r\n\r\n"}).code, 400);
    // The server survived all that.
    QCOMPARE(get(port, "/metrics").code, 200);
}

void TestPrometheusHttp::partialRequestIsAnswered()
{
    PrometheusExporter exporter;
    QVERIFY(exporter.listen(0));
    exporter.update(sampleSnapshot(QStringLiteral("j")), JobLagStatus::Ok);
    const QByteArray request = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\n\r\n";
    QList<QByteArray> bytes;
    for (char c : request)
        bytes.append(QByteArray(1, c));
    const Response r = exchange(exporter.serverPort(), bytes, 3);
    QCOMPARE(r.code, 200);
    const Exposition e = parseExposition(r.body);
    QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
    QCOMPARE(e.find(QStringLiteral("mirrordesk_partition_lag")).size(), 2);
    // Split in the middle of the blank line.
    QCOMPARE(exchange(exporter.serverPort(), {"GET /metrics HTTP/1.1\r\n\r", "\n"}, 20).code, 200);
}

void TestPrometheusHttp::oversizedRequestIsRefused()
{
    PrometheusExporter exporter;
    QVERIFY(exporter.listen(0));
    const QByteArray huge = "GET /metrics HTTP/1.1\r\nX-Junk: " + QByteArray(20000, 'x');
    QCOMPARE(exchange(exporter.serverPort(), {huge}).code, 431);
}

void TestPrometheusHttp::manyClientsAtOnce()
{
    PrometheusExporter exporter;
    QVERIFY(exporter.listen(0));
    exporter.update(sampleSnapshot(QStringLiteral("j")), JobLagStatus::Ok);
    constexpr int kClients = 64;
    std::vector<std::unique_ptr<QTcpSocket>> sockets;
    QList<QByteArray> received(kClients);
    for (int i = 0; i < kClients; ++i) {
        auto s = std::make_unique<QTcpSocket>();
        s->connectToHost(QHostAddress::LocalHost, exporter.serverPort());
        sockets.push_back(std::move(s));
    }
    // Everyone sends half a request first, then the rest: the server juggles them all.
    QDeadlineTimer deadline(20000);
    auto allConnected = [&] {
        return std::all_of(sockets.begin(), sockets.end(),
                           [](const auto &s) { return s->state() == QAbstractSocket::ConnectedState; });
    };
    while (!allConnected() && !deadline.hasExpired())
        QTest::qWait(5);
    QVERIFY(allConnected());
    for (auto &s : sockets)
        s->write("GET /metrics HT");
    QTest::qWait(20);
    for (auto &s : sockets)
        s->write("TP/1.1\r\n\r\n");
    auto allDone = [&] {
        bool done = true;
        for (int i = 0; i < kClients; ++i) {
            received[i] += sockets[size_t(i)]->readAll();
            done = done && sockets[size_t(i)]->state() == QAbstractSocket::UnconnectedState;
        }
        return done;
    };
    while (!allDone() && !deadline.hasExpired())
        QTest::qWait(5);
    QVERIFY(allDone());
    for (int i = 0; i < kClients; ++i) {
        const Response r = parseResponse(received[i]);
        QCOMPARE(r.code, 200);
        QVERIFY(parseExposition(r.body).error.isEmpty());
    }
}

void TestPrometheusHttp::updatesFromAnotherThread()
{
    PrometheusExporter exporter;
    QVERIFY(exporter.listen(0));
    std::atomic<bool> stop{false};
    std::atomic<int> updates{0};
    std::thread engine([&] {
        MetricsSnapshot s = sampleSnapshot(QStringLiteral("threaded"));
        for (qint64 i = 0; !stop.load(); ++i) {
            s.partitions[0].lag = i;
            s.partitions[0].records = i;
            exporter.update(s, i % 2 ? JobLagStatus::Ok : JobLagStatus::Warn);
            updates.fetch_add(1);
        }
    });
    double lastRecords = -1;
    for (int scrape = 0; scrape < 20; ++scrape) {
        const Response r = get(exporter.serverPort(), "/metrics");
        QCOMPARE(r.code, 200);
        const Exposition e = parseExposition(r.body);
        QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
        const auto records = e.find(QStringLiteral("mirrordesk_records_copied_total"),
                                    {{QStringLiteral("partition"), QStringLiteral("1")}});
        if (!records.isEmpty()) {
            QVERIFY(records.first().value >= lastRecords); // a counter never goes back
            lastRecords = records.first().value;
        }
    }
    stop = true;
    engine.join();
    QVERIFY(updates.load() > 0);
}

void TestPrometheusHttp::worksWithQNetworkAccessManager()
{
    PrometheusExporter exporter;
    QVERIFY(exporter.listen(0));
    exporter.update(sampleSnapshot(QStringLiteral("nam")), JobLagStatus::Ok);
    QNetworkAccessManager nam;
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(exporter.serverPort());
    url.setPath(QStringLiteral("/metrics"));
    QNetworkReply *reply = nam.get(QNetworkRequest(url));
    QSignalSpy finished(reply, &QNetworkReply::finished);
    QVERIFY(finished.wait(10000));
    QCOMPARE(reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    const Exposition e = parseExposition(reply->readAll());
    QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
    QCOMPARE(e.value(QStringLiteral("mirrordesk_job_up"), {{QStringLiteral("job"), QStringLiteral("nam")}}), 1.0);
    reply->deleteLater();
}

void TestPrometheusHttp::listenErrorIsClear()
{
    PrometheusExporter first;
    QVERIFY(first.listen(0));
    PrometheusExporter second;
    QString error;
    QVERIFY(!second.listen(first.serverPort(), &error));
    QVERIFY2(error.contains(QStringLiteral("127.0.0.1:%1").arg(first.serverPort())), qPrintable(error));
    QVERIFY(!second.isListening());
}

void TestPrometheusHttp::listensOnTheAddressItIsGiven()
{
    // Another loopback address stands in for an interface a remote Prometheus reaches.
    const QHostAddress other(QStringLiteral("127.0.0.2"));
    PrometheusExporter exporter;
    QString error;
    QVERIFY2(exporter.listen(0, &error, other), qPrintable(error));
    exporter.update(sampleSnapshot(QStringLiteral("remote")), JobLagStatus::Ok);
    const QByteArray request = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.2\r\n\r\n";
    QCOMPARE(exchange(exporter.serverPort(), {request}, 0, other).code, 200);
    QTcpSocket elsewhere; // not on 127.0.0.1
    elsewhere.connectToHost(QHostAddress::LocalHost, exporter.serverPort());
    QVERIFY(!elsewhere.waitForConnected(2000));

    // An address of no interface here: the error names it.
    PrometheusExporter nowhere;
    QVERIFY(!nowhere.listen(0, &error, QHostAddress(QStringLiteral("192.0.2.1"))));
    QVERIFY2(error.startsWith(QStringLiteral("cannot serve metrics on 192.0.2.1:0: ")), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestPrometheusHttp)
#include "tst_prometheushttp.moc"
