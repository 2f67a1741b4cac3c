#include "ui/window/SingleInstance.h"

#include <QDataStream>
#include <QDir>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>
#include <QPointer>
#include <QStandardPaths>
#include <QTimer>

#include <algorithm>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

namespace md {

namespace {

constexpr quint32 kMagic = 0x4d445031; // "MDP1"
constexpr qint64 kMaxMessageBytes = 1024 * 1024;
constexpr int kServerReadTimeoutMs = 5000;
constexpr char kAck = 'K';

} // namespace

SingleInstance::SingleInstance(const QString &serverName, QObject *parent) : QObject(parent), m_name(serverName)
{
}

SingleInstance::~SingleInstance() = default;

QString SingleInstance::defaultServerName()
{
    const QString override = qEnvironmentVariable("MIRRORDESK_INSTANCE_NAME");
    if (!override.isEmpty())
        return override;
#ifdef Q_OS_UNIX
    const QString user = QString::number(::getuid());
    // The runtime directory is the user's own (0700): nobody else can put a socket there.
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty() && QFileInfo(runtime).isDir() && QFileInfo(runtime).isWritable())
        return QDir(runtime).filePath(QStringLiteral("mirrordesk-") + user + QStringLiteral(".socket"));
#else
    const QString user = qEnvironmentVariable("USERNAME");
#endif
    return QStringLiteral("mirrordesk-") + user;
}

bool SingleInstance::sendToRunning(const QStringList &files, int timeoutMs) const
{
    QLocalSocket socket;
    socket.connectToServer(m_name);
    // A stale socket file refuses at once; a live server accepts at once.
    if (!socket.waitForConnected(std::min(timeoutMs, 1000)))
        return false;
    QByteArray message;
    {
        QDataStream out(&message, QIODevice::WriteOnly);
        out.setVersion(QDataStream::Qt_6_0);
        out << kMagic << files;
    }
    socket.write(message);
    if (!socket.waitForBytesWritten(timeoutMs))
        return false;
    // Wait for the server's acknowledgement: it has the files now.
    while (socket.bytesAvailable() < 1) {
        if (!socket.waitForReadyRead(timeoutMs))
            return false;
    }
    char ack = 0;
    socket.getChar(&ack);
    socket.disconnectFromServer();
    return ack == kAck;
}

bool SingleInstance::listen(QString *error)
{
    if (m_server && m_server->isListening())
        return true;
    delete m_server;
    m_server = new QLocalServer(this);
    m_server->setSocketOptions(QLocalServer::UserAccessOption);
    // Ask first: with socket options Qt binds elsewhere and renames over the
    // name, which would silently take the socket from a live instance.
    // Someone answers: a live instance. Nobody: any file there is what a crash left.
    QLocalSocket probe;
    probe.connectToServer(m_name);
    if (probe.waitForConnected(500)) {
        probe.abort();
        *error = tr("another MirrorDesk instance is listening on %1").arg(m_name);
        return false;
    }
    QLocalServer::removeServer(m_name);
    if (!m_server->listen(m_name)) {
        *error = m_server->errorString();
        return false;
    }
    connect(m_server, &QLocalServer::newConnection, this, &SingleInstance::acceptConnection);
    return true;
}

bool SingleInstance::isListening() const
{
    return m_server && m_server->isListening();
}

void SingleInstance::acceptConnection()
{
    while (QLocalSocket *socket = m_server->nextPendingConnection()) {
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        // A client that connects and says nothing must not hold a socket forever.
        QTimer::singleShot(kServerReadTimeoutMs, socket, [socket] { socket->abort(); });
        QPointer<SingleInstance> self(this);
        connect(socket, &QLocalSocket::readyRead, this, [self, socket] {
            if (socket->bytesAvailable() > kMaxMessageBytes) {
                socket->abort();
                return;
            }
            // Something that is not a MirrorDesk launch: hang up at once.
            if (socket->bytesAvailable() >= qint64(sizeof(kMagic))) {
                QByteArray head = socket->peek(sizeof(kMagic));
                QDataStream peek(&head, QIODevice::ReadOnly);
                quint32 m = 0;
                peek >> m;
                if (m != kMagic) {
                    socket->abort();
                    return;
                }
            }
            QDataStream in(socket);
            in.setVersion(QDataStream::Qt_6_0);
            in.startTransaction();
            quint32 magic = 0;
            QStringList files;
            in >> magic >> files;
            if (!in.commitTransaction())
                return; // not all there yet
            if (magic != kMagic) {
                socket->abort();
                return;
            }
            socket->putChar(kAck);
            socket->flush();
            if (self)
                Q_EMIT self->filesReceived(files);
        });
    }
}

} // namespace md
