// The metrics endpoint's request reader (readHttpRequestHead), the pure part
// of PrometheusExporter's socket handling that tests/fuzz/fuzz_http.cpp fuzzes.
#include "service/HttpRequestHead.h"

#include <QtTest/QtTest>

using namespace md;
using Kind = HttpRequestVerdict::Kind;

Q_DECLARE_METATYPE(md::HttpRequestVerdict::Kind)

class TestHttpRequestHead final : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void verdict_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<Kind>("kind");
        QTest::addColumn<bool>("head");
        QTest::newRow("scrape") << QByteArray("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n") << Kind::Metrics << false;
        QTest::newRow("head, query") << QByteArray("HEAD /metrics?a=1 HTTP/1.0\r\n\r\n") << Kind::Metrics << true;
        QTest::newRow("hand-typed") << QByteArray("GET /metrics HTTP/1.1\n\n") << Kind::Metrics << false;
        QTest::newRow("partial") << QByteArray("GET /metrics HTTP/1.1\r\nHost: x\r\n") << Kind::Incomplete << false;
        QTest::newRow("empty") << QByteArray() << Kind::Incomplete << false;
        QTest::newRow("other path") << QByteArray("GET / HTTP/1.1\r\n\r\n") << Kind::NotFound << false;
        QTest::newRow("head other path") << QByteArray("HEAD /x HTTP/1.1\r\n\r\n") << Kind::NotFound << true;
        QTest::newRow("post") << QByteArray("POST /metrics HTTP/1.1\r\n\r\n") << Kind::MethodNotAllowed << false;
        QTest::newRow("no version") << QByteArray("GET /metrics\r\n\r\n") << Kind::Malformed << false;
        QTest::newRow("blank first") << QByteArray("\r\n\r\n") << Kind::Malformed << false;
        QTest::newRow("binary") << QByteArray("\x00\xff GET\n\n", 9) << Kind::Malformed << false;
    }
    void verdict()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(Kind, kind);
        QFETCH(bool, head);
        const HttpRequestVerdict v = readHttpRequestHead(bytes);
        QCOMPARE(v.kind, kind);
        QCOMPARE(v.head, head);
    }

    // The limit holds whether or not the end of an oversized head came in the same read.
    void oversizedHeadIsRefused()
    {
        const QByteArray line = "GET /metrics HTTP/1.1\r\nX-Pad: " + QByteArray(100, 'a') + "\r\n";
        QCOMPARE(readHttpRequestHead(line, 64).kind, Kind::TooLarge);
        QCOMPARE(readHttpRequestHead(line + "\r\n", 64).kind, Kind::TooLarge);
        QCOMPARE(readHttpRequestHead(line + "\r\n").kind, Kind::Metrics);
        QCOMPARE(readHttpRequestHead(QByteArray(kMaxHttpRequestHead + 1, 'a')).kind, Kind::TooLarge);
        QCOMPARE(readHttpRequestHead(QByteArray(kMaxHttpRequestHead, 'a')).kind, Kind::Incomplete);
        // Found by fuzz_http: a short head must not be refused for a long request pipelined after it.
        const QByteArray shortHead = "GET /metrics HTTP/1.1\n\n";
        QCOMPARE(readHttpRequestHead(shortHead + "GET / HTTP/1.1\r\nX: " + QByteArray(100, 'b') + "\r\n\r\n", 64).kind,
                 Kind::Metrics);
    }
};

QTEST_GUILESS_MAIN(TestHttpRequestHead)
#include "tst_httprequesthead.moc"
