#pragma once

#include <QObject>
#include <QStringList>

class QLocalServer;

namespace md {

// One MirrorDesk window per user: a second `mirrordesk FILE...` hands its
// files to the running instance over a local socket and exits. The socket
// lives in the user's runtime directory when there is one (private to the
// user), else in the temporary directory under a name holding the user id;
// MIRRORDESK_INSTANCE_NAME overrides it (tests, several sessions).
//
// Protocol: the client sends a QDataStream of a magic number and a
// QStringList of absolute paths; the server answers one byte once it has
// taken them, so the client only exits after the hand-over really happened.
class SingleInstance final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SingleInstance)
public:
    static constexpr int DefaultTimeoutMs = 3000;

    explicit SingleInstance(const QString &serverName = defaultServerName(), QObject *parent = nullptr);
    ~SingleInstance() override;

    static QString defaultServerName();
    QString serverName() const { return m_name; }

    // Client side: true when a running instance took the files (which may be
    // empty: it then only raises its window). False quickly when nobody listens,
    // including when a crashed instance left its socket file behind.
    bool sendToRunning(const QStringList &files, int timeoutMs = DefaultTimeoutMs) const;

    // Server side: listens for later launches. A socket file left by a crash is
    // removed first; false (and *error) when another instance already listens
    // or the socket cannot be created.
    bool listen(QString *error);
    bool isListening() const;

Q_SIGNALS:
    // Files handed over by a later launch (absolute paths; may be empty).
    void filesReceived(const QStringList &files);

private:
    void acceptConnection();

    QString m_name;
    QLocalServer *m_server = nullptr;
};

} // namespace md
