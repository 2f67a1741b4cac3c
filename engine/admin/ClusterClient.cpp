#include "engine/admin/ClusterClient.h"

#include <QTimer>

#include <algorithm>
#include <atomic>

namespace md {

namespace {
constexpr int kMetadataTimeoutMs = 8000; // the UI promises an answer within ten seconds
constexpr int kWatermarkTimeoutMs = 8000;

int partitionCount(const ClusterMetadata &md)
{
    int n = 0;
    for (const TopicInfo &t : md.topics)
        n += int(t.partitions.size());
    return n;
}

void registerTypes()
{
    static const bool once = [] {
        qRegisterMetaType<ClusterConfig>("md::ClusterConfig");
        qRegisterMetaType<ClusterMetadata>("md::ClusterMetadata");
        return true;
    }();
    Q_UNUSED(once);
}
} // namespace

// Lives on the client's admin thread: owns the librdkafka handle and does every
// blocking call there.
class ClusterWorker final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterWorker)
public:
    explicit ClusterWorker(ClusterClientOptions options) : m_options(std::move(options)), m_timer(this)
    {
        connect(&m_timer, &QTimer::timeout, this, &ClusterWorker::refresh);
    }

    void connectTo(const ClusterConfig &config)
    {
        m_probe.reset();
        m_config = config;
        m_answered = false;
        refresh();
    }

    void setAutoRefresh(int ms)
    {
        if (ms > 0)
            m_timer.start(ms);
        else
            m_timer.stop();
    }

    void refresh()
    {
        if (m_config.bootstrap.isEmpty() || m_closing.load())
            return;
        QString error;
        if (!m_probe) {
            m_probe = ProbeClient::create(m_config, &error);
            if (!m_probe) {
                Q_EMIT failure(error);
                return;
            }
            m_probe->setCancelFlag(&m_closing);
            m_probe->setOptions(m_options.probe);
        }
        if (!m_answered) {
            std::optional<ClusterMetadata> md = m_probe->fetchMetadata(kMetadataTimeoutMs, false, &error);
            if (!md) {
                Q_EMIT failure(error);
                return;
            }
            m_answered = true;
            if (partitionCount(*md) > m_options.listFirstPartitions)
                Q_EMIT metadata(*md);
            QString wmError; // watermarks are a nicety: metadata without them is still an answer
            if (!m_closing.load())
                m_probe->fetchWatermarks(md->topics, kWatermarkTimeoutMs, &wmError);
            Q_EMIT metadata(*md);
            return;
        }
        if (auto md = m_probe->fetchMetadata(kMetadataTimeoutMs, true, &error))
            Q_EMIT metadata(*md);
        else
            Q_EMIT failure(error);
    }

Q_SIGNALS:
    void metadata(const md::ClusterMetadata &metadata);
    void failure(const QString &message);

public:
    // Set by the client as it goes (from its thread): ends a fetch under way early.
    std::atomic<bool> m_closing{false};

private:
    const ClusterClientOptions m_options;
    ClusterConfig m_config;
    std::unique_ptr<ProbeClient> m_probe;
    QTimer m_timer;
    bool m_answered = false; // the connection's first metadata went out
};

ClusterClient::ClusterClient(QObject *parent) : ClusterClient(ClusterClientOptions{}, parent)
{
}

ClusterClient::ClusterClient(const ClusterClientOptions &options, QObject *parent) : QObject(parent)
{
    registerTypes();
    m_worker = new ClusterWorker(options);
    m_thread.adopt(m_worker);
    connect(m_worker, &ClusterWorker::metadata, this, &ClusterClient::onMetadata);
    connect(m_worker, &ClusterWorker::failure, this, &ClusterClient::onFailure);
    m_thread.start();
}

ClusterClient::~ClusterClient()
{
    // A refresh of a large cluster can take long; closing must not wait for all of it.
    // The worker lives until its thread ends, which is after this (WorkerThread).
    m_worker->m_closing = true;
}

void ClusterClient::connectTo(const ClusterConfig &config)
{
    m_config = config;
    m_metadata = {};
    setState(State::Connecting);
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, config] { w->connectTo(config); }, Qt::QueuedConnection);
}

void ClusterClient::refresh()
{
    QMetaObject::invokeMethod(m_worker, &ClusterWorker::refresh, Qt::QueuedConnection);
}

void ClusterClient::setAutoRefreshInterval(int ms)
{
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, ms] { w->setAutoRefresh(ms); }, Qt::QueuedConnection);
}

void ClusterClient::onMetadata(const ClusterMetadata &metadata)
{
    m_metadata = metadata;
    m_lastError.clear();
    setState(State::Connected);
    Q_EMIT metadataReady(m_metadata);
}

void ClusterClient::onFailure(const QString &message)
{
    m_lastError = message;
    setState(State::Unreachable);
    Q_EMIT errorOccurred(message);
}

void ClusterClient::setState(State s)
{
    if (m_state == s)
        return;
    m_state = s;
    Q_EMIT stateChanged(s);
}

} // namespace md

#include "ClusterClient.moc"
