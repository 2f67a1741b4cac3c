#pragma once

// A TCP proxy in front of one Kafka broker (a one-broker MockCluster) that can
// make the broker look fenced by its KRaft controller: its Metadata answers
// then list no brokers, the answer that makes librdkafka 2.10+ forget every
// broker it knew (librdkafka issue 5301), which the mock itself never gives.
// Otherwise it forwards bytes as they are, except that Metadata and
// FindCoordinator answers name the proxy as every broker's address: the mock
// advertises its own, and a client would go around the proxy to it after its
// first answer.
// Its sockets run on a thread of its own, so the test thread may block in
// librdkafka calls.

#include <QByteArray>
#include <QList>
#include <QString>

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace md::test {

class FencingProxy final {
public:
    // Forwards to `upstream` ("host:port"); listens on an ephemeral port of 127.0.0.1.
    explicit FencingProxy(const QString &upstream);
    ~FencingProxy();
    FencingProxy(const FencingProxy &) = delete;
    FencingProxy &operator=(const FencingProxy &) = delete;

    bool isListening() const { return m_port > 0; }
    // What a client gives as bootstrap.servers: "127.0.0.1:<port>".
    QString address() const;

    // While on, every Metadata answer lists no brokers (topics as the broker
    // listed them). FindCoordinator answers still name the broker: a client
    // with a group.id can learn it again that way.
    void setFenced(bool fenced) { m_fenced.store(fenced); }
    // Metadata answers sent with no brokers, and with the brokers (readdressed).
    int fencedAnswers() const { return m_fencedAnswers.load(); }
    int metadataAnswers() const { return m_metadataAnswers.load(); }
    // The versions of the Metadata requests seen, each once, in order of first use.
    QList<int> metadataVersions() const;

private:
    struct Connection;
    void run();
    void accept();
    // False when the connection ended (or broke) and is to be closed.
    bool fromClient(Connection &c);
    bool fromBroker(Connection &c);
    QByteArray rewriteMetadata(const QByteArray &frame, int version);
    QByteArray rewriteFindCoordinator(const QByteArray &frame, int version);

    QByteArray m_upstreamHost;
    int m_upstreamPort = 0;
    int m_listenFd = -1;
    int m_port = 0;
    int m_wakeFds[2] = {-1, -1}; // a pipe: written to end the thread's poll
    std::atomic<bool> m_fenced{false};
    std::atomic<int> m_fencedAnswers{0};
    std::atomic<int> m_metadataAnswers{0};
    mutable std::mutex m_mutex;
    QList<int> m_versions;                                  // guarded by m_mutex
    std::vector<std::unique_ptr<Connection>> m_connections; // proxy thread only
    std::thread m_thread;
};

} // namespace md::test
