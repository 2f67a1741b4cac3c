#include "FencingProxy.h"

#include <QDebug>
#include <QHash>
#include <QtEndian>

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace md::test {

namespace {

constexpr qint16 kMetadataApiKey = 3;
constexpr qint16 kFindCoordinatorApiKey = 10;
constexpr char kProxyHost[] = "127.0.0.1";
constexpr int kProxyHostLength = sizeof kProxyHost - 1;

qint32 readBe32(const char *p)
{
    return qFromBigEndian<qint32>(p);
}

qint16 readBe16(const char *p)
{
    return qFromBigEndian<qint16>(p);
}

void appendBe32(QByteArray &out, qint32 v)
{
    const quint32 u = quint32(v);
    out.append(char(u >> 24)).append(char(u >> 16)).append(char(u >> 8)).append(char(u));
}

void appendUVarint(QByteArray &out, quint32 v)
{
    for (; v >= 0x80; v >>= 7)
        out.append(char((v & 0x7f) | 0x80));
    out.append(char(v));
}

// Array lengths and strings: flexible versions (KIP-482) write N+1 as an
// unsigned varint, older ones N as int32 (arrays) or int16 (strings).
void appendArrayCount(QByteArray &out, int n, bool flexible)
{
    if (flexible)
        appendUVarint(out, quint32(n + 1));
    else
        appendBe32(out, n);
}

void appendString(QByteArray &out, const char *s, int length, bool flexible)
{
    if (flexible)
        appendUVarint(out, quint32(length + 1));
    else
        out.append(char(length >> 8)).append(char(length));
    out.append(s, length);
}

// Reads a frame front to back; any read past its end leaves ok false.
struct Reader {
    const QByteArray &data;
    qsizetype pos = 0;
    bool ok = true;

    bool has(qsizetype n)
    {
        ok = ok && n >= 0 && pos + n <= data.size();
        return ok;
    }
    void skip(qsizetype n)
    {
        if (has(n))
            pos += n;
    }
    qint32 int32()
    {
        if (!has(4))
            return 0;
        pos += 4;
        return readBe32(data.constData() + pos - 4);
    }
    qint16 int16()
    {
        if (!has(2))
            return 0;
        pos += 2;
        return readBe16(data.constData() + pos - 2);
    }
    quint32 uvarint()
    {
        quint32 v = 0;
        for (int shift = 0; shift < 35 && has(1); shift += 7) {
            const auto b = quint8(data.at(pos++));
            v |= quint32(b & 0x7f) << shift;
            if (!(b & 0x80))
                return v;
        }
        ok = false;
        return 0;
    }
    // A (nullable) string, in either encoding.
    void skipString(bool flexible)
    {
        const qsizetype length = flexible ? qsizetype(uvarint()) - 1 : int16();
        if (length > 0)
            skip(length);
    }
    // Tagged fields: a count, then per field its tag, its size and its bytes.
    void skipTags()
    {
        for (quint32 n = uvarint(); n > 0 && ok; --n) {
            uvarint();
            skip(qsizetype(uvarint()));
        }
    }
};

// Node id, host and port at the reader's position, written to `out` with the
// proxy's host and `port` (as they were for node -1: no broker, an error's).
void readdress(Reader &r, QByteArray &out, bool flexible, int port)
{
    const qsizetype start = r.pos;
    const qint32 node = r.int32();
    r.skipString(flexible);
    r.skip(4); // port
    if (!r.ok)
        return;
    if (node < 0) {
        out.append(r.data.constData() + start, r.pos - start);
        return;
    }
    out.append(r.data.constData() + start, 4);
    appendString(out, kProxyHost, kProxyHostLength, flexible);
    appendBe32(out, port);
}

// A response body with the size that goes before it.
QByteArray framed(const QByteArray &body)
{
    QByteArray out;
    appendBe32(out, qint32(body.size()));
    return out + body;
}

bool sendAll(int fd, const QByteArray &bytes)
{
    for (qsizetype sent = 0; sent < bytes.size();) {
        const ssize_t n = ::send(fd, bytes.constData() + sent, size_t(bytes.size() - sent), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        sent += n;
    }
    return true;
}

// Appends what the socket has; false when the peer closed it or it broke.
bool receive(int fd, QByteArray &buffer)
{
    char chunk[65536];
    ssize_t n;
    do
        n = ::recv(fd, chunk, sizeof chunk, 0);
    while (n < 0 && errno == EINTR);
    if (n <= 0)
        return false;
    buffer.append(chunk, n);
    return true;
}

// The next whole frame (int32 size, then that many bytes) taken off the
// front of `buffer`, or empty while it is incomplete.
QByteArray takeFrame(QByteArray &buffer, bool *broken)
{
    if (buffer.size() < 4)
        return {};
    const qint32 size = readBe32(buffer.constData());
    if (size < 4 || size > 64 * 1024 * 1024) {
        *broken = true;
        return {};
    }
    if (buffer.size() < 4 + qsizetype(size))
        return {};
    QByteArray frame = buffer.left(4 + size);
    buffer.remove(0, 4 + size);
    return frame;
}

int connectTo(const QByteArray &host, int port)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *found = nullptr;
    if (getaddrinfo(host.constData(), QByteArray::number(port).constData(), &hints, &found) != 0)
        return -1;
    int fd = -1;
    for (addrinfo *a = found; a && fd < 0; a = a->ai_next) {
        fd = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd >= 0 && ::connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
            ::close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(found);
    return fd;
}

} // namespace

// One client connection and the proxy's own connection to the broker for it.
struct FencingProxy::Connection {
    int client = -1;
    int broker = -1;
    QByteArray fromClient, fromBroker;                 // bytes of frames not yet whole
    QHash<qint32, std::pair<qint16, qint16>> requests; // api key and version by correlation id
    ~Connection()
    {
        ::close(client);
        if (broker >= 0)
            ::close(broker);
    }
};

FencingProxy::FencingProxy(const QString &upstream)
{
    const qsizetype colon = upstream.lastIndexOf(QLatin1Char(':'));
    m_upstreamHost = upstream.left(colon).toUtf8();
    m_upstreamPort = upstream.mid(colon + 1).toInt();

    m_listenFd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof addr;
    if (m_listenFd < 0 || ::bind(m_listenFd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 ||
        ::listen(m_listenFd, 16) != 0 || ::getsockname(m_listenFd, reinterpret_cast<sockaddr *>(&addr), &length) != 0 ||
        ::pipe(m_wakeFds) != 0) {
        qWarning("FencingProxy: cannot listen: %s", strerror(errno));
        return;
    }
    m_port = ntohs(addr.sin_port);
    m_thread = std::thread([this] { run(); });
}

FencingProxy::~FencingProxy()
{
    if (m_thread.joinable()) {
        const char stop = 0;
        (void)!::write(m_wakeFds[1], &stop, 1);
        m_thread.join();
    }
    m_connections.clear();
    for (int fd : {m_listenFd, m_wakeFds[0], m_wakeFds[1]}) {
        if (fd >= 0)
            ::close(fd);
    }
}

QString FencingProxy::address() const
{
    return QStringLiteral("%1:%2").arg(QLatin1String(kProxyHost)).arg(m_port);
}

QList<int> FencingProxy::metadataVersions() const
{
    std::lock_guard lock(m_mutex);
    return m_versions;
}

void FencingProxy::run()
{
    std::vector<pollfd> fds;
    for (;;) {
        fds.assign({{m_wakeFds[0], POLLIN, 0}, {m_listenFd, POLLIN, 0}});
        for (const auto &c : m_connections) {
            fds.push_back({c->client, POLLIN, 0});
            fds.push_back({c->broker, POLLIN, 0});
        }
        if (::poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR)
                continue;
            qWarning("FencingProxy: poll: %s", strerror(errno));
            return;
        }
        if (fds[0].revents)
            return;
        // From the back, so erasing a connection leaves the indexes before it valid.
        for (auto i = qsizetype(m_connections.size()) - 1; i >= 0; --i) {
            Connection &c = *m_connections[size_t(i)];
            const bool clientReady = fds[size_t(2 + 2 * i)].revents != 0;
            const bool brokerReady = fds[size_t(3 + 2 * i)].revents != 0;
            if ((clientReady && !fromClient(c)) || (brokerReady && !fromBroker(c)))
                m_connections.erase(m_connections.begin() + i);
        }
        if (fds[1].revents)
            accept();
    }
}

void FencingProxy::accept()
{
    const int client = ::accept(m_listenFd, nullptr, nullptr);
    if (client < 0)
        return;
    auto c = std::make_unique<Connection>();
    c->client = client;
    c->broker = connectTo(m_upstreamHost, m_upstreamPort);
    // Without a broker behind it the client sees its connection closed, as it would with the broker down.
    if (c->broker >= 0)
        m_connections.push_back(std::move(c));
}

bool FencingProxy::fromClient(Connection &c)
{
    if (!receive(c.client, c.fromClient))
        return false;
    bool broken = false;
    for (QByteArray frame = takeFrame(c.fromClient, &broken); !frame.isEmpty();
         frame = takeFrame(c.fromClient, &broken)) {
        // Request header: size, api key, api version, correlation id, ...
        if (frame.size() >= 12) {
            const qint16 apiKey = readBe16(frame.constData() + 4);
            const qint16 version = readBe16(frame.constData() + 6);
            c.requests.insert(readBe32(frame.constData() + 8), {apiKey, version});
            if (apiKey == kMetadataApiKey) {
                std::lock_guard lock(m_mutex);
                if (!m_versions.contains(version))
                    m_versions.append(version);
            }
        }
        if (!sendAll(c.broker, frame))
            return false;
    }
    return !broken;
}

bool FencingProxy::fromBroker(Connection &c)
{
    if (!receive(c.broker, c.fromBroker))
        return false;
    bool broken = false;
    for (QByteArray frame = takeFrame(c.fromBroker, &broken); !frame.isEmpty();
         frame = takeFrame(c.fromBroker, &broken)) {
        // Response header: size, correlation id, ...
        const auto request = c.requests.take(readBe32(frame.constData() + 4));
        if (request.first == kMetadataApiKey)
            frame = rewriteMetadata(frame, request.second);
        else if (request.first == kFindCoordinatorApiKey)
            frame = rewriteFindCoordinator(frame, request.second);
        if (!sendAll(c.client, frame))
            return false;
    }
    return !broken;
}

// The Metadata response as librdkafka 2.12 reads it (rd_kafka_parse_Metadata0):
// correlation id, tagged fields (v9+), throttle time (v3+), then the brokers:
// node id, host, port, rack (v1+), tagged fields (v9+). Only the broker array
// changes; what follows it is copied as it came.
QByteArray FencingProxy::rewriteMetadata(const QByteArray &frame, int version)
{
    const bool flexible = version >= 9;
    Reader r{frame, 4};
    r.skip(4);
    if (flexible)
        r.skipTags();
    if (version >= 3)
        r.skip(4);
    const qsizetype headerEnd = r.pos;
    const int count = flexible ? int(r.uvarint()) - 1 : r.int32();
    QByteArray brokers;
    for (int i = 0; i < count && r.ok; ++i) {
        readdress(r, brokers, flexible, m_port);
        const qsizetype rest = r.pos;
        if (version >= 1)
            r.skipString(flexible);
        if (flexible)
            r.skipTags();
        if (r.ok)
            brokers.append(frame.constData() + rest, r.pos - rest);
    }
    if (!r.ok || count < 0) {
        qWarning("FencingProxy: a Metadata v%d answer not understood; forwarded as it came", version);
        return frame;
    }
    const bool fenced = m_fenced.load();
    QByteArray body = frame.mid(4, headerEnd - 4);
    appendArrayCount(body, fenced ? 0 : count, flexible);
    if (!fenced)
        body += brokers;
    body += frame.mid(r.pos);
    ++m_metadataAnswers;
    if (fenced)
        ++m_fencedAnswers;
    return framed(body);
}

// A consumer with a group.id learns its coordinator's address from
// FindCoordinator, and librdkafka then updates the broker of that id to it: it
// would leave the proxy. librdkafka 2.12 asks v0-v2 (rd_kafka_FindCoordinatorRequest):
// correlation id, throttle time and error code and message (v1+), then node
// id, host, port. v4+ answers with an array of coordinators, not read here.
QByteArray FencingProxy::rewriteFindCoordinator(const QByteArray &frame, int version)
{
    const bool flexible = version >= 3;
    Reader r{frame, 4};
    r.skip(4);
    if (flexible)
        r.skipTags();
    if (version >= 1) {
        r.skip(4 + 2);
        r.skipString(flexible);
    }
    QByteArray body = frame.mid(4, r.pos - 4);
    if (version < 4)
        readdress(r, body, flexible, m_port);
    if (version >= 4 || !r.ok) {
        qWarning("FencingProxy: a FindCoordinator v%d answer not understood; forwarded as it came", version);
        return frame;
    }
    return framed(body + frame.mid(r.pos));
}

} // namespace md::test
