#pragma once

// A local Prometheus exporter as a test reads it: a free port to serve on, and
// one GET /metrics.

#include <QByteArray>
#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>

namespace md::test {

// A loopback port free at the time of asking.
inline quint16 freePort()
{
    QTcpServer server;
    return server.listen(QHostAddress::LocalHost, 0) ? server.serverPort() : 0;
}

// GET http://127.0.0.1:port/metrics, the whole response (headers and body).
inline QByteArray scrapeMetrics(quint16 port)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(5000))
        return {};
    socket.write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    QByteArray response;
    while (socket.state() == QAbstractSocket::ConnectedState && socket.waitForReadyRead(5000))
        response += socket.readAll();
    return response + socket.readAll();
}

} // namespace md::test
