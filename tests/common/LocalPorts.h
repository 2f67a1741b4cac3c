#pragma once

#include <QHostAddress>
#include <QString>
#include <QTcpServer>

namespace md::test {

// A port of 127.0.0.1 nobody listens on: connections to it are refused at once.
inline QString closedPort()
{
    QTcpServer s;
    s.listen(QHostAddress::LocalHost);
    const quint16 port = s.serverPort();
    s.close();
    return QStringLiteral("127.0.0.1:%1").arg(port);
}

} // namespace md::test
