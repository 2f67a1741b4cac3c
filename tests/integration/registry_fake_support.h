#pragma once

// A tiny HTTP/1.1 server on loopback standing in for a schema registry where
// the real one cannot be made to misbehave: it answers each path with a set
// status and body, and records what the client sent (method, path, headers,
// body). One request per connection (it answers "Connection: close").

#include <QByteArray>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QMap>
#include <QString>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QtTest/QTest>

#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <optional>

namespace md::test {

struct FakeRequest {
    QByteArray method;
    QByteArray path;
    QMap<QByteArray, QByteArray> headers; // names lower-cased
    QByteArray body;
};

struct FakeAnswer {
    int status = 200;
    QByteArray body;
    QByteArray contentType = "application/vnd.schemaregistry.v1+json";
    int delayMs = 0; // a slow registry: the answer leaves this long after the request came
};

class FakeRegistry {
public:
    FakeRegistry()
    {
        QObject::connect(&m_server, &QTcpServer::newConnection, &m_server, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection())
                serve(socket);
        });
        m_server.listen(QHostAddress::LocalHost, 0);
    }

    quint16 port() const { return m_server.serverPort(); }
    QString url(const QString &path = QStringLiteral("/apis/ccompat/v7")) const
    {
        return QStringLiteral("http://127.0.0.1:%1%2").arg(QString::number(port()), path);
    }
    // Paths not set answer `fallback`.
    void answer(const QByteArray &path, FakeAnswer a) { m_answers.insert(path, std::move(a)); }
    // Asked first, for a registry with state (one that takes what is registered): an answer, or
    // nullopt for the fixed answers above.
    std::function<std::optional<FakeAnswer>(const FakeRequest &)> handler;
    FakeAnswer fallback{404, R"({"error_code":40400,"message":"no such path in the fake"})"};
    const QList<FakeRequest> &requests() const { return m_requests; }

private:
    void serve(QTcpSocket *socket)
    {
        auto buffer = std::make_shared<QByteArray>();
        QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer] {
            buffer->append(socket->readAll());
            const qsizetype end = buffer->indexOf("\r\n\r\n");
            if (end < 0)
                return;
            FakeRequest request;
            const QList<QByteArray> lines = buffer->left(end).split('\n');
            const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
            request.method = first.value(0);
            request.path = first.value(1);
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const qsizetype colon = lines[i].indexOf(':');
                if (colon > 0)
                    request.headers.insert(lines[i].left(colon).trimmed().toLower(), lines[i].mid(colon + 1).trimmed());
            }
            const qsizetype length = request.headers.value("content-length", "0").toLongLong();
            if (buffer->size() < end + 4 + length)
                return; // the body is still coming
            request.body = buffer->mid(end + 4, length);
            m_requests.append(request);
            std::optional<FakeAnswer> handled = handler ? handler(request) : std::nullopt;
            const FakeAnswer a = handled ? *handled : m_answers.value(request.path, fallback);
            QByteArray reply = "HTTP/1.1 " + QByteArray::number(a.status) + " Fake\r\nContent-Type: " + a.contentType +
                               "\r\nContent-Length: " + QByteArray::number(a.body.size()) +
                               "\r\nConnection: close\r\n\r\n" + a.body;
            if (a.delayMs > 0) {
                QTimer::singleShot(a.delayMs, socket, [socket, reply] {
                    socket->write(reply);
                    socket->disconnectFromHost();
                });
                return;
            }
            socket->write(reply);
            socket->disconnectFromHost();
        });
    }

    QTcpServer m_server;
    QHash<QByteArray, FakeAnswer> m_answers;
    QList<FakeRequest> m_requests;
};

// Runs a blocking call on another thread while this one serves the fake's
// sockets; fails the test if the call takes longer than limitMs.
template <typename F> auto offThread(F &&call, int limitMs = 30000)
{
    auto future = std::async(std::launch::async, std::forward<F>(call));
    QElapsedTimer timer;
    timer.start();
    while (future.wait_for(std::chrono::milliseconds(0)) != std::future_status::ready) {
        if (timer.elapsed() > limitMs)
            qFatal("a registry call did not return within %d ms", limitMs);
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    }
    return future.get();
}

} // namespace md::test
