#include "MirrorWorker.h"

#include "ClusterConfig.h"
#include "TopicNaming.h"

#include <QDateTime>

#include <algorithm>
#include <cstring>

namespace md {

namespace {

// A target topic that could not be created or grown is tried again after
// this long: each attempt can block the engine thread for an admin timeout.
constexpr std::chrono::seconds kSyncRetry(30);

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

qint64 headerBytes(const rd_kafka_headers_t *hdrs)
{
    if (!hdrs)
        return 0;
    qint64 total = 0;
    const char *name = nullptr;
    const void *value = nullptr;
    size_t size = 0;
    for (size_t i = 0; rd_kafka_header_get_all(hdrs, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++i)
        total += qint64(std::strlen(name)) + qint64(size);
    return total;
}

qint64 recordBytes(const rd_kafka_message_t *m)
{
    rd_kafka_headers_t *hdrs = nullptr;
    if (rd_kafka_message_headers(m, &hdrs) != RD_KAFKA_RESP_ERR_NO_ERROR)
        hdrs = nullptr;
    return qint64(m->len) + qint64(m->key_len) + headerBytes(hdrs);
}

// A default the operator may override through the free properties.
void setDefault(rd_kafka_conf_t *conf, const ClusterConfig &c, const QMap<QString, QString> &role, const QString &key,
                const QString &value)
{
    if (!c.properties.contains(key) && !role.contains(key))
        setConf(conf, key, value);
}

} // namespace

MirrorWorker::MirrorWorker(MirrorJobSpec spec, MirrorSink *sink)
    : m_spec(std::move(spec))
    , m_sink(sink)
{
}

MirrorWorker::~MirrorWorker() = default;

// ---------------------------------------------------------------- commands

void MirrorWorker::requestPause()
{
    std::lock_guard lock(m_cmdMutex);
    m_commands.push_back(Command::Pause);
    m_hasCommands = true;
}

void MirrorWorker::requestResume()
{
    std::lock_guard lock(m_cmdMutex);
    m_commands.push_back(Command::Resume);
    m_hasCommands = true;
}

void MirrorWorker::requestStop()
{
    std::lock_guard lock(m_cmdMutex);
    m_commands.push_back(Command::Stop);
    m_hasCommands = true;
}

void MirrorWorker::requestAbort()
{
    std::lock_guard lock(m_cmdMutex);
    m_commands.push_back(Command::Abort);
    m_hasCommands = true;
}

void MirrorWorker::setThrottle(qint64 bytesPerSecond)
{
    m_throttleRequest = qMax<qint64>(0, bytesPerSecond);
    m_hasCommands = true;
}

void MirrorWorker::handleCommands()
{
    if (!m_hasCommands.exchange(false))
        return;
    std::vector<Command> cmds;
    {
        std::lock_guard lock(m_cmdMutex);
        cmds.swap(m_commands);
    }
    for (Command c : cmds) {
        switch (c) {
        case Command::Pause:
            if (!m_userPaused && !m_stopping) {
                m_userPaused = true;
                setState(JobState::Paused);
                applyPauses();
            }
            break;
        case Command::Resume:
            if (m_userPaused && !m_stopping) {
                m_userPaused = false;
                setState(JobState::Running);
                applyPauses();
            }
            break;
        case Command::Stop: m_stopping = true; break;
        case Command::Abort: m_aborting = true; break;
        }
    }
    const qint64 rate = m_throttleRequest.exchange(-1);
    if (rate >= 0 && rate != m_throttleRate) {
        m_throttleRate = rate;
        m_tokens = std::min(m_tokens, 0.0);
        m_lastRefill = Clock::now();
        event(JobEvent::Severity::Info, rate > 0 ? QStringLiteral("throttle set to %1 bytes/s").arg(rate)
                                                 : QStringLiteral("throttle removed"));
        refillThrottle();
    }
}

// ---------------------------------------------------------------- life

bool MirrorWorker::setup(QString *error)
{
    m_groupId = consumerGroupId(m_spec);
    char errstr[512];

    const QMap<QString, QString> consumerOverrides{
        {QStringLiteral("group.id"), m_groupId},
        // Progress is committed by the engine only after the target acknowledged.
        {QStringLiteral("enable.auto.commit"), QStringLiteral("false")},
        {QStringLiteral("enable.auto.offset.store"), QStringLiteral("false")},
        // Aborted transactions are never copied.
        {QStringLiteral("isolation.level"), QStringLiteral("read_committed")},
        // EOF tells when a partition is caught up, past control records too.
        {QStringLiteral("enable.partition.eof"), QStringLiteral("true")},
        {QStringLiteral("auto.offset.reset"), QStringLiteral("earliest")},
        // New partitions of subscribed topics show up within this time.
        {QStringLiteral("topic.metadata.refresh.interval.ms"),
         QString::number(qBound(1000, m_spec.topicRefreshIntervalMs, 10000))},
    };
    ConfResult cc = makeKafkaConf(m_spec.source, ClientRole::Consumer, consumerOverrides);
    if (!cc.conf) {
        *error = QStringLiteral("source cluster configuration: ") + cc.error;
        return false;
    }
    setDefault(cc.conf.get(), m_spec.source, m_spec.source.consumerProperties, QStringLiteral("client.id"),
               QStringLiteral("mirrordesk-") + m_groupId);
    // Prefetch bounded to 16 MB (librdkafka's default is 64 MB): the
    // consumer outruns the target, so a deep prefetch buys no speed, only
    // resident memory. 16 MB still holds a full 1 MB fetch for 16 partitions.
    setDefault(cc.conf.get(), m_spec.source, m_spec.source.consumerProperties, QStringLiteral("queued.max.messages.kbytes"),
               QStringLiteral("16384"));
    setDefault(cc.conf.get(), m_spec.source, m_spec.source.consumerProperties, QStringLiteral("queued.min.messages"),
               QStringLiteral("20000"));
    rd_kafka_conf_set_opaque(cc.conf.get(), this);
    rd_kafka_conf_set_rebalance_cb(cc.conf.get(), &MirrorWorker::rebalanceCb);
    rd_kafka_conf_set_error_cb(cc.conf.get(), &MirrorWorker::errorCb);
    rd_kafka_conf_set_offset_commit_cb(cc.conf.get(), &MirrorWorker::commitCb);
    rd_kafka_t *consumer = rd_kafka_new(RD_KAFKA_CONSUMER, cc.conf.get(), errstr, sizeof errstr);
    if (!consumer) {
        *error = QStringLiteral("source consumer: ") + QString::fromUtf8(errstr);
        return false;
    }
    (void)cc.conf.release(); // owned by the handle now
    m_consumer.reset(consumer);
    rd_kafka_poll_set_consumer(consumer);

    const QMap<QString, QString> producerOverrides{
        {QStringLiteral("enable.idempotence"), QStringLiteral("true")},
        {QStringLiteral("acks"), QStringLiteral("all")},
        // A target outage must never drop a record: retry until it is back.
        {QStringLiteral("message.timeout.ms"), QStringLiteral("2147483647")},
        // Producing to a missing topic must not make the broker create it
        // with its defaults (wrong partition count).
        {QStringLiteral("allow.auto.create.topics"), QStringLiteral("false")},
    };
    ConfResult pc = makeKafkaConf(m_spec.target, ClientRole::Producer, producerOverrides);
    if (!pc.conf) {
        *error = QStringLiteral("target cluster configuration: ") + pc.error;
        return false;
    }
    setDefault(pc.conf.get(), m_spec.target, m_spec.target.producerProperties, QStringLiteral("client.id"),
               QStringLiteral("mirrordesk-") + m_groupId);
    // What is in flight stays bounded: every produced record pins its
    // consumed message (zero copy) until the target acknowledges it, about
    // 0.5 KB of bookkeeping plus the record. 50,000 records (or 32 MB) cover
    // several hundred milliseconds of acknowledgement delay at 100k+
    // records/s; more only grows memory (a 1M-record copy peaked at 194-330 MB
    // resident with 1,000,000, at 94-113 MB with this; docs/PERFORMANCE.md).
    setDefault(pc.conf.get(), m_spec.target, m_spec.target.producerProperties,
               QStringLiteral("queue.buffering.max.messages"), QStringLiteral("50000"));
    setDefault(pc.conf.get(), m_spec.target, m_spec.target.producerProperties,
               QStringLiteral("queue.buffering.max.kbytes"), QStringLiteral("32768"));
    setDefault(pc.conf.get(), m_spec.target, m_spec.target.producerProperties, QStringLiteral("linger.ms"),
               QStringLiteral("5"));
    // Records up to what the brokers allow; the target topic's
    // max.message.bytes (copied from the source) decides.
    setDefault(pc.conf.get(), m_spec.target, m_spec.target.producerProperties, QStringLiteral("message.max.bytes"),
               QStringLiteral("16777216"));
    rd_kafka_conf_set_opaque(pc.conf.get(), this);
    rd_kafka_conf_set_dr_msg_cb(pc.conf.get(), &MirrorWorker::deliveryCb);
    rd_kafka_conf_set_error_cb(pc.conf.get(), &MirrorWorker::errorCb);
    rd_kafka_t *producer = rd_kafka_new(RD_KAFKA_PRODUCER, pc.conf.get(), errstr, sizeof errstr);
    if (!producer) {
        *error = QStringLiteral("target producer: ") + QString::fromUtf8(errstr);
        return false;
    }
    (void)pc.conf.release();
    m_producer.reset(producer);
    return true;
}

void MirrorWorker::run()
{
    m_started = Clock::now();
    m_lastSample = m_started;
    m_lastRefill = m_started;
    setState(JobState::Starting);
    QString error;
    if (!setup(&error)) {
        m_consumer.reset();
        m_producer.reset();
        setState(JobState::Failed);
        m_sink->onFinished(false, error);
        return;
    }
    m_throttleRate = qMax<qint64>(0, m_spec.throttleBytesPerSecond);
    const auto sampleEvery = std::chrono::milliseconds(qMax(20, m_spec.samplingIntervalMs));
    m_nextSample = m_started + sampleEvery;
    m_nextCommit = m_started + std::chrono::seconds(1);
    event(JobEvent::Severity::Info, QStringLiteral("starting: group %1, source %2, target %3")
                                        .arg(m_groupId, m_spec.source.bootstrap, m_spec.target.bootstrap));
    refreshTopics();
    m_nextRefresh = Clock::now() + std::chrono::milliseconds(qMax(1000, m_spec.topicRefreshIntervalMs));
    setState(JobState::Running);

    while (true) {
        handleCommands();
        if (m_aborting || m_stopping || !m_fatal.isEmpty())
            break;
        refillThrottle();
        if (!m_pending.empty())
            drainPending();
        if (m_throttled || m_backpressure) {
            // Hold back without pausing partitions: a pause throws away what
            // librdkafka prefetched and costs a fetch round trip per resume.
            // A short consumer poll now and then still serves the group
            // (rebalances, max.poll.interval.ms); what it returns waits in line.
            rd_kafka_poll(m_producer.get(), 5);
            if (Clock::now() - m_lastConsumerPoll > std::chrono::milliseconds(500)) {
                m_lastConsumerPoll = Clock::now();
                if (MessagePtr msg{rd_kafka_consumer_poll(m_consumer.get(), 0)})
                    m_pending.push_back(std::move(msg));
            }
            tick();
            continue;
        }
        m_lastConsumerPoll = Clock::now();
        for (int i = 0; i < 5000; ++i) {
            const int timeout = i > 0 ? 0 : (m_inFlight > 0 || !m_pending.empty() ? 1 : 10);
            MessagePtr msg(rd_kafka_consumer_poll(m_consumer.get(), timeout));
            if (!msg)
                break;
            if (!m_pending.empty() || !handleMessage(msg))
                m_pending.push_back(std::move(msg));
            if (!m_fatal.isEmpty() || m_stopping || m_aborting || m_throttled || m_backpressure)
                break;
            if ((i & 255) == 255)
                rd_kafka_poll(m_producer.get(), 0);
        }
        rd_kafka_poll(m_producer.get(), 0);
        tick();
    }

    shutdown(!m_aborting);
    if (m_aborting) {
        setState(JobState::Stopped);
        m_sink->onFinished(false, QStringLiteral("aborted without flushing or committing"));
    } else if (!m_fatal.isEmpty()) {
        setState(JobState::Failed);
        m_sink->onFinished(false, m_fatal);
    } else {
        setState(JobState::Stopped);
        m_sink->onFinished(true, {});
    }
}

void MirrorWorker::shutdown(bool graceful)
{
    m_stopping = true;
    if (graceful) {
        setState(JobState::Stopping);
        applyPauses();
        m_pending.clear(); // consumed, never produced: the commit does not pass them
        if (m_fatal.isEmpty()) {
            const bool flushed = flushProducer(kFlushTimeoutMs);
            if (!flushed && !m_aborting)
                event(JobEvent::Severity::Warning,
                      QStringLiteral("%1 records were not acknowledged by the target within %2 s; they will be "
                                     "copied again on the next start")
                          .arg(m_inFlight)
                          .arg(kFlushTimeoutMs / 1000));
        }
        if (!m_aborting)
            commit(true);
        sampleMetrics();
    }
    m_pending.clear();
    // Every consumed message the producer still references must be released
    // (through its delivery report) before the consumer goes away.
    rd_kafka_purge(m_producer.get(), RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
    const auto deadline = Clock::now() + std::chrono::seconds(10);
    while (rd_kafka_outq_len(m_producer.get()) > 0 && Clock::now() < deadline)
        rd_kafka_poll(m_producer.get(), 50);
    if (graceful && !m_aborting) {
        rd_kafka_consumer_close(m_consumer.get()); // leaves the group (revoke: commits nothing new)
        m_consumer.reset();
    } else {
        // What a crash leaves: no commit, no leave-group.
        rd_kafka_destroy_flags(m_consumer.release(), RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
    }
    m_byRkt.clear();
    for (auto &[name, t] : m_topics)
        t->targetRkt.reset(); // topic handles go before their client
    m_producer.reset();
}

bool MirrorWorker::flushProducer(int timeoutMs)
{
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    while (rd_kafka_outq_len(m_producer.get()) > 0) {
        if (Clock::now() >= deadline)
            return false;
        rd_kafka_flush(m_producer.get(), 100);
        if (m_hasCommands) {
            // Only an abort may cut a flush short.
            std::lock_guard lock(m_cmdMutex);
            if (std::find(m_commands.begin(), m_commands.end(), Command::Abort) != m_commands.end())
                m_aborting = true;
        }
        if (m_aborting || !m_fatal.isEmpty())
            return false;
    }
    return true;
}

// ---------------------------------------------------------------- records

MirrorWorker::TopicState *MirrorWorker::topicByName(const QString &name)
{
    auto it = m_topics.find(name);
    if (it != m_topics.end())
        return it->second.get();
    auto t = std::make_unique<TopicState>();
    t->name = name;
    t->nameUtf8 = name.toUtf8();
    t->targetName = targetTopicName(m_spec, name);
    t->targetRkt.reset(rd_kafka_topic_new(m_producer.get(), t->targetName.toUtf8().constData(), nullptr));
    TopicState *raw = t.get();
    m_topics.emplace(name, std::move(t));
    return raw;
}

MirrorWorker::TopicState *MirrorWorker::topicFor(const rd_kafka_topic_t *rkt)
{
    if (!rkt)
        return nullptr;
    const char *name = rd_kafka_topic_name(rkt);
    // A handle address can be reused for another topic after a deletion:
    // the name check keeps the fast path honest.
    if (TopicState *t = m_byRkt.value(rkt, nullptr); t && std::strcmp(t->nameUtf8.constData(), name) == 0)
        return t;
    auto it = m_topics.find(QString::fromUtf8(name));
    if (it == m_topics.end())
        return nullptr;
    m_byRkt.insert(rkt, it->second.get());
    return it->second.get();
}

MirrorWorker::PartState *MirrorWorker::partFor(TopicState *t, int32_t partition)
{
    if (!t || partition < 0)
        return nullptr;
    if (size_t(partition) >= t->parts.size())
        t->parts.resize(size_t(partition) + 1);
    auto &p = t->parts[size_t(partition)];
    if (!p) {
        p = std::make_unique<PartState>();
        p->topic = t;
        p->partition = partition;
    }
    return p.get();
}

bool MirrorWorker::handleMessage(MessagePtr &msg)
{
    rd_kafka_message_t *m = msg.get();
    if (m->err) {
        if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
            PartState *p = partFor(topicFor(m->rkt), m->partition);
            if (p && p->assigned && !p->done && p->failedOffset < 0 && p->resumeFrom < 0 && !m_stopping) {
                // The fetch position passes control records and aborted
                // transactions, which are never delivered as messages.
                p->consumedNext = std::max(p->consumedNext, qint64(m->offset));
                p->atEof = true;
            }
            if (m_sourceTrouble) {
                m_sourceTrouble = false;
                event(JobEvent::Severity::Info, QStringLiteral("source kafka %1 reachable again").arg(m_spec.source.bootstrap));
            }
        } else {
            const QString where = m->rkt ? QStringLiteral(" (%1/%2)").arg(QString::fromUtf8(rd_kafka_topic_name(m->rkt))).arg(m->partition)
                                         : QString();
            const QString text = QStringLiteral("source kafka %1: %2%3")
                                     .arg(m_spec.source.bootstrap, QString::fromUtf8(rd_kafka_message_errstr(m)), where);
            debouncedEvent(QStringLiteral("source-msg-%1%2").arg(int(m->err)).arg(where), JobEvent::Severity::Warning, text);
        }
        msg.reset();
        return true;
    }

    TopicState *t = topicFor(m->rkt);
    PartState *p = partFor(t, m->partition);
    // Dropping a record is safe as long as consumedNext does not move past it.
    if (!p || !p->assigned || p->done || m_stopping || p->failedOffset >= 0 || p->resumeFrom >= 0) {
        msg.reset();
        return true;
    }
    if (p->blocked || !t->targetReady || m->partition >= t->targetPartitions) {
        p->blocked = true;
        p->resumeFrom = m->offset;
        applyPauses();
        msg.reset();
        return true;
    }
    rd_kafka_timestamp_type_t tsType = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
    const qint64 ts = rd_kafka_message_timestamp(m, &tsType);
    if (m_spec.stop == StopCondition::AtTimestamp && ts >= m_spec.stopTimestamp.toMSecsSinceEpoch()) {
        p->done = true; // this record and everything after it stay on the source
        applyPauses();
        msg.reset();
        return true;
    }
    const qint64 bytes = recordBytes(m);
    if (m_throttleRate > 0 && m_tokens < 0) {
        m_throttled = true; // wait in line until the budget refills
        return false;
    }

    // Headers move from the consumed message to the produced one (no copy).
    rd_kafka_headers_t *hdrs = nullptr;
    if (rd_kafka_message_detach_headers(m, &hdrs) != RD_KAFKA_RESP_ERR_NO_ERROR)
        hdrs = nullptr;
    rd_kafka_vu_t vu[8];
    size_t n = 0;
    vu[n].vtype = RD_KAFKA_VTYPE_RKT;
    vu[n++].u.rkt = t->targetRkt.get();
    vu[n].vtype = RD_KAFKA_VTYPE_PARTITION;
    vu[n++].u.i32 = m->partition;
    // Zero-copy: the produced record points into the consumed message's
    // buffer, which the delivery report releases (no RD_KAFKA_MSG_F_COPY).
    vu[n].vtype = RD_KAFKA_VTYPE_VALUE;
    vu[n].u.mem.ptr = m->payload;
    vu[n++].u.mem.size = m->len;
    vu[n].vtype = RD_KAFKA_VTYPE_KEY;
    vu[n].u.mem.ptr = m->key;
    vu[n++].u.mem.size = m->key_len;
    vu[n].vtype = RD_KAFKA_VTYPE_MSGFLAGS;
    vu[n++].u.i = 0;
    if (tsType != RD_KAFKA_TIMESTAMP_NOT_AVAILABLE) {
        vu[n].vtype = RD_KAFKA_VTYPE_TIMESTAMP;
        vu[n++].u.i64 = ts;
    }
    vu[n].vtype = RD_KAFKA_VTYPE_OPAQUE;
    vu[n++].u.ptr = m;
    if (hdrs) {
        vu[n].vtype = RD_KAFKA_VTYPE_HEADERS;
        vu[n++].u.headers = hdrs;
    }
    if (ErrorPtr err{rd_kafka_produceva(m_producer.get(), vu, n)}) {
        const rd_kafka_resp_err_t code = rd_kafka_error_code(err.get());
        if (hdrs)
            rd_kafka_message_set_headers(m, hdrs); // not taken: back to the message
        if (code == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
            m_backpressure = true;
            return false;
        }
        if (code == RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION || code == RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC) {
            p->blocked = true;
            p->resumeFrom = m->offset;
            t->targetReady = false; // re-read the target at the next refresh
            m_nextRefresh = Clock::now();
            debouncedEvent(QStringLiteral("unknown-") + t->targetName, JobEvent::Severity::Warning,
                           QStringLiteral("target topic %1 partition %2 is not known to the producer yet: %3")
                               .arg(t->targetName)
                               .arg(m->partition)
                               .arg(QString::fromUtf8(rd_kafka_error_string(err.get()))));
            applyPauses();
            msg.reset();
            return true;
        }
        fail(QStringLiteral("cannot produce %1/%2 offset %3 to target topic %4: %5")
                 .arg(t->name)
                 .arg(m->partition)
                 .arg(m->offset)
                 .arg(t->targetName, QString::fromUtf8(rd_kafka_error_string(err.get()))));
        msg.reset();
        return true;
    }
    (void)msg.release(); // owned by the produced record until its delivery report

    p->ring.push(m->offset);
    ++m_inFlight;
    p->consumedNext = m->offset + 1;
    p->atEof = false;
    p->lastConsumedTs = ts;
    ++m_recordsConsumed;
    m_bytesConsumed += bytes;
    if (m_throttleRate > 0)
        m_tokens -= double(bytes);
    if (m_spec.stop == StopCondition::AfterRecords && ++p->copiedThisRun >= m_spec.stopAfterRecords) {
        p->done = true;
        applyPauses();
    }
    return true;
}

void MirrorWorker::drainPending()
{
    while (!m_pending.empty()) {
        if (!m_pending.front()) {
            m_pending.pop_front();
            continue;
        }
        if (!handleMessage(m_pending.front())) {
            rd_kafka_poll(m_producer.get(), 10); // let delivery reports free queue space
            return;
        }
        m_pending.pop_front();
    }
    m_backpressure = false;
}

void MirrorWorker::onDelivery(const rd_kafka_message_t *dm)
{
    MessagePtr src(static_cast<rd_kafka_message_t *>(dm->_private)); // released at the end of this report
    --m_inFlight;
    PartState *p = partFor(topicFor(src->rkt), src->partition);
    const bool ok = dm->err == RD_KAFKA_RESP_ERR_NO_ERROR;
    if (!p || !p->ring.complete(src->offset, ok))
        return; // stale: the partition was revoked or replayed meanwhile
    if (ok) {
        const qint64 bytes = recordBytes(dm);
        ++p->records;
        p->bytes += bytes;
        ++m_recordsProduced;
        m_bytesProduced += bytes;
        rd_kafka_timestamp_type_t tsType = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
        const qint64 ts = rd_kafka_message_timestamp(src.get(), &tsType);
        if (tsType != RD_KAFKA_TIMESTAMP_NOT_AVAILABLE) {
            m_latency.add(double(nowMs() - ts));
            p->lastAckedTs = ts;
        }
        if (m_targetTrouble) {
            m_targetTrouble = false;
            event(JobEvent::Severity::Info, QStringLiteral("target kafka %1 reachable again").arg(m_spec.target.bootstrap));
        }
        return;
    }
    if (p->failedOffset < 0 || src->offset < p->failedOffset)
        p->failedOffset = src->offset;
    p->lastFailure = QString::fromUtf8(rd_kafka_err2str(dm->err));
    if (dm->err != RD_KAFKA_RESP_ERR__PURGE_QUEUE && dm->err != RD_KAFKA_RESP_ERR__PURGE_INFLIGHT)
        debouncedEvent(QStringLiteral("delivery-%1-%2").arg(p->topic->name).arg(p->partition), JobEvent::Severity::Warning,
                       QStringLiteral("target did not take %1/%2 offset %3: %4; copying it again")
                           .arg(p->topic->name)
                           .arg(p->partition)
                           .arg(src->offset)
                           .arg(p->lastFailure));
    if (!m_stopping)
        applyPauses();
}

void MirrorWorker::serviceReplays()
{
    bool changed = false;
    for (auto &[name, t] : m_topics) {
        for (auto &p : t->parts) {
            if (!p || p->failedOffset < 0 || p->ring.inFlight() > 0 || !p->assigned)
                continue;
            p->failures = p->lastFailedOffset == p->failedOffset ? p->failures + 1 : 1;
            p->lastFailedOffset = p->failedOffset;
            if (p->failures > 5) {
                fail(QStringLiteral("cannot deliver %1/%2 offset %3 to target topic %4 after 5 attempts: %5")
                         .arg(t->name)
                         .arg(p->partition)
                         .arg(p->failedOffset)
                         .arg(t->targetName, p->lastFailure));
                return;
            }
            event(JobEvent::Severity::Warning, QStringLiteral("replaying %1/%2 from offset %3 after a failed delivery")
                                                   .arg(t->name)
                                                   .arg(p->partition)
                                                   .arg(p->failedOffset));
            p->copiedThisRun = std::max<qint64>(0, p->copiedThisRun - (p->consumedNext - p->failedOffset));
            p->ring.clear();
            p->resumeFrom = p->failedOffset;
            p->consumedNext = p->failedOffset;
            p->failedOffset = -1;
            p->atEof = false;
            p->done = false;
            changed = true;
        }
    }
    if (changed)
        applyPauses();
}

// ---------------------------------------------------------------- pausing

void MirrorWorker::applyPauses()
{
    PartitionListPtr pause(rd_kafka_topic_partition_list_new(8));
    PartitionListPtr resume(rd_kafka_topic_partition_list_new(8));
    PartitionListPtr seek(rd_kafka_topic_partition_list_new(8));
    std::vector<PartState *> seeking;
    for (auto &[name, t] : m_topics) {
        for (auto &p : t->parts) {
            if (!p || !p->assigned)
                continue;
            const bool want = m_userPaused || m_stopping || p->done || p->blocked || p->failedOffset >= 0;
            if (want && !p->pausedActual) {
                rd_kafka_topic_partition_list_add(pause.get(), t->nameUtf8.constData(), p->partition);
                p->pausedActual = true;
            } else if (!want && p->pausedActual) {
                rd_kafka_topic_partition_list_add(resume.get(), t->nameUtf8.constData(), p->partition);
                p->pausedActual = false;
            }
            if (!want && p->resumeFrom >= 0) {
                rd_kafka_topic_partition_list_add(seek.get(), t->nameUtf8.constData(), p->partition)->offset = p->resumeFrom;
                seeking.push_back(p.get());
            }
        }
    }
    if (pause->cnt > 0)
        rd_kafka_pause_partitions(m_consumer.get(), pause.get());
    if (resume->cnt > 0)
        rd_kafka_resume_partitions(m_consumer.get(), resume.get());
    if (seek->cnt > 0) {
        ErrorPtr err{rd_kafka_seek_partitions(m_consumer.get(), seek.get(), 5000)};
        for (int i = 0; i < seek->cnt; ++i) {
            if (!err && !seek->elems[i].err) {
                seeking[size_t(i)]->resumeFrom = -1;
            } else {
                debouncedEvent(QStringLiteral("seek"), JobEvent::Severity::Warning,
                               QStringLiteral("could not seek %1/%2 back to offset %3: %4; retrying")
                                   .arg(QString::fromUtf8(seek->elems[i].topic))
                                   .arg(seek->elems[i].partition)
                                   .arg(seeking[size_t(i)]->resumeFrom)
                                   .arg(err ? QString::fromUtf8(rd_kafka_error_string(err.get()))
                                            : kafkaErrorText(seek->elems[i].err)));
            }
        }
    }
}

void MirrorWorker::refillThrottle()
{
    const auto now = Clock::now();
    const double dt = std::chrono::duration<double>(now - m_lastRefill).count();
    m_lastRefill = now;
    if (m_throttleRate <= 0) {
        m_tokens = 0;
        m_throttled = false;
        return;
    }
    // A burst of at most 100 ms worth of bytes keeps the rate honest over
    // any window longer than that.
    const double burst = std::max(double(m_throttleRate) * 0.1, 1024.0);
    m_tokens = std::min(m_tokens + dt * double(m_throttleRate), burst);
    if (m_throttled && m_tokens >= 0)
        m_throttled = false;
}

// ---------------------------------------------------------------- group

void MirrorWorker::rebalanceCb(rd_kafka_t *, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t *parts, void *opaque)
{
    static_cast<MirrorWorker *>(opaque)->onRebalance(err, parts);
}

void MirrorWorker::deliveryCb(rd_kafka_t *, const rd_kafka_message_t *msg, void *opaque)
{
    static_cast<MirrorWorker *>(opaque)->onDelivery(msg);
}

void MirrorWorker::errorCb(rd_kafka_t *rk, int err, const char *reason, void *opaque)
{
    static_cast<MirrorWorker *>(opaque)->onError(rk, err, reason);
}

void MirrorWorker::commitCb(rd_kafka_t *, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t *offsets, void *opaque)
{
    static_cast<MirrorWorker *>(opaque)->onCommit(err, offsets);
}

void MirrorWorker::onRebalance(rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t *parts)
{
    const bool cooperative = std::strcmp(rd_kafka_rebalance_protocol(m_consumer.get()), "COOPERATIVE") == 0;
    if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
        assignPartitions(parts);
        if (cooperative)
            ErrorPtr(rd_kafka_incremental_assign(m_consumer.get(), parts));
        else
            rd_kafka_assign(m_consumer.get(), parts);
        m_rebalancePending = false;
        applyPauses();
    } else if (err == RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS) {
        revokePartitions(parts);
        if (cooperative)
            ErrorPtr(rd_kafka_incremental_unassign(m_consumer.get(), parts));
        else
            rd_kafka_assign(m_consumer.get(), nullptr);
        m_rebalancePending = !cooperative && !m_stopping;
    } else {
        event(JobEvent::Severity::Error, QStringLiteral("source group %1 rebalance failed: %2").arg(m_groupId, kafkaErrorText(err)));
        rd_kafka_assign(m_consumer.get(), nullptr);
    }
}

bool MirrorWorker::ensureTargetPartitions(TopicState *t, int32_t partition)
{
    if (t->targetReady && partition < t->targetPartitions)
        return true;
    // One attempt per refresh interval: a target that cannot grow must not
    // stall every rebalance with admin timeouts.
    if (Clock::now() < t->nextSyncAttempt)
        return false;
    // The source grew before our periodic refresh saw it: catch up now.
    const ClusterTopics src = readClusterTopics(m_consumer.get(), 5000);
    const ClusterTopics tgt = readClusterTopics(m_producer.get(), 5000);
    if (!src.ok || !tgt.ok || !src.topics.contains(t->name))
        return false;
    const TopicSyncResult r =
        syncTargetTopic(m_consumer.get(), m_producer.get(), m_spec, src.topics.value(t->name), t->targetName, tgt, 5000);
    for (const QString &s : r.infos)
        event(JobEvent::Severity::Info, s);
    for (const QString &s : r.warnings)
        event(JobEvent::Severity::Warning, s);
    if (r.targetPartitions > 0) {
        t->targetPartitions = r.targetPartitions;
        t->targetReady = true;
        const rd_kafka_metadata_t *raw = nullptr;
        if (rd_kafka_metadata(m_producer.get(), 0, t->targetRkt.get(), &raw, 5000) == RD_KAFKA_RESP_ERR_NO_ERROR)
            MetadataPtr(raw).reset();
    }
    if (!r.error.isEmpty()) {
        t->nextSyncAttempt = Clock::now() + kSyncRetry;
        if (r.error != t->lastError)
            event(JobEvent::Severity::Error,
                  r.error + QStringLiteral("; partitions beyond %1 are not mirrored").arg(t->targetPartitions));
        t->lastError = r.error;
    }
    return t->targetReady && partition < t->targetPartitions;
}

void MirrorWorker::assignPartitions(rd_kafka_topic_partition_list_t *parts)
{
    PartitionListPtr byTime(rd_kafka_topic_partition_list_new(parts->cnt));
    for (int i = 0; i < parts->cnt; ++i) {
        rd_kafka_topic_partition_t &e = parts->elems[i];
        TopicState *t = topicByName(QString::fromUtf8(e.topic));
        PartState *p = partFor(t, e.partition);
        p->assigned = true;
        p->pausedActual = false;
        p->ring.clear();
        p->atEof = false;
        p->failedOffset = -1;
        p->resumeFrom = -1;
        p->consumedNext = -1;
        p->done = m_spec.stop == StopCondition::AfterRecords && m_spec.stopAfterRecords <= 0;
        p->blocked = !ensureTargetPartitions(t, e.partition);
        const bool first = !p->seenThisRun;
        p->seenThisRun = true;
        e.offset = RD_KAFKA_OFFSET_INVALID; // the group's committed offset (else auto.offset.reset=earliest)
        if (first) {
            switch (m_spec.start) {
            case StartPosition::Committed: break;
            case StartPosition::Earliest: e.offset = RD_KAFKA_OFFSET_BEGINNING; break;
            case StartPosition::Latest:
                // Only what exists at the job's start is skipped; topics and
                // partitions that appear later are copied from their start.
                if (!m_firstAssignmentDone)
                    e.offset = RD_KAFKA_OFFSET_END;
                break;
            case StartPosition::Timestamp:
                rd_kafka_topic_partition_list_add(byTime.get(), e.topic, e.partition)->offset =
                    m_spec.startTimestamp.toMSecsSinceEpoch();
                break;
            }
        }
    }
    if (byTime->cnt > 0) {
        const rd_kafka_resp_err_t err = rd_kafka_offsets_for_times(m_consumer.get(), byTime.get(), 10000);
        for (int i = 0; i < byTime->cnt; ++i) {
            const rd_kafka_topic_partition_t &r = byTime->elems[i];
            rd_kafka_topic_partition_t *e = rd_kafka_topic_partition_list_find(parts, r.topic, r.partition);
            if (!e)
                continue;
            if (err || r.err) {
                // Never skip on doubt: copy from the start.
                e->offset = RD_KAFKA_OFFSET_BEGINNING;
                event(JobEvent::Severity::Warning, QStringLiteral("could not look up the start time in %1/%2 (%3); "
                                                                  "copying from its first record")
                                                       .arg(QString::fromUtf8(r.topic))
                                                       .arg(r.partition)
                                                       .arg(kafkaErrorText(err ? err : r.err)));
            } else {
                e->offset = r.offset >= 0 ? r.offset : RD_KAFKA_OFFSET_END; // -1: nothing that new yet
            }
        }
    }
    if (parts->cnt > 0)
        m_firstAssignmentDone = true;

    PartitionListPtr committed(rd_kafka_topic_partition_list_copy(parts));
    if (rd_kafka_committed(m_consumer.get(), committed.get(), 5000) == RD_KAFKA_RESP_ERR_NO_ERROR) {
        for (int i = 0; i < committed->cnt; ++i) {
            const rd_kafka_topic_partition_t &c = committed->elems[i];
            if (PartState *p = partFor(topicByName(QString::fromUtf8(c.topic)), c.partition))
                p->committed = c.err == RD_KAFKA_RESP_ERR_NO_ERROR && c.offset >= 0 ? c.offset : -1;
        }
    }
    event(JobEvent::Severity::Info, QStringLiteral("assigned %1 source partitions").arg(parts->cnt));
}

void MirrorWorker::revokePartitions(rd_kafka_topic_partition_list_t *parts)
{
    // Whatever the target has not acknowledged yet would otherwise be copied
    // again by the next owner: wait for it (bounded) and commit.
    if (!m_aborting)
        flushProducer(kFlushTimeoutMs);
    std::vector<PartState *> revoked;
    for (int i = 0; i < parts->cnt; ++i) {
        auto it = m_topics.find(QString::fromUtf8(parts->elems[i].topic));
        if (it == m_topics.end())
            continue;
        if (PartState *p = partFor(it->second.get(), parts->elems[i].partition))
            revoked.push_back(p);
    }
    if (!m_aborting)
        commit(true, &revoked);
    for (PartState *p : revoked) {
        p->assigned = false;
        p->pausedActual = false;
        p->atEof = false;
    }
    // Records consumed but not handed over stay on the source for the next owner.
    std::erase_if(m_pending, [&](const MessagePtr &m) {
        if (!m)
            return true;
        PartState *p = partFor(topicFor(m->rkt), m->partition);
        return !p || !p->assigned;
    });
}

void MirrorWorker::commit(bool sync, const std::vector<PartState *> *only)
{
    if (!m_consumer)
        return;
    PartitionListPtr list(rd_kafka_topic_partition_list_new(16));
    std::vector<PartState *> in;
    auto consider = [&](PartState *p) {
        if (!p || (!p->assigned && !only))
            return;
        const qint64 o = p->committable();
        if (o >= 0 && o != p->committed) {
            rd_kafka_topic_partition_list_add(list.get(), p->topic->nameUtf8.constData(), p->partition)->offset = o;
            in.push_back(p);
        }
    };
    if (only) {
        for (PartState *p : *only)
            consider(p);
    } else {
        for (auto &[name, t] : m_topics)
            for (auto &p : t->parts)
                consider(p.get());
    }
    if (list->cnt == 0)
        return;
    if (!sync) {
        rd_kafka_commit(m_consumer.get(), list.get(), 1); // result in onCommit
        return;
    }
    const rd_kafka_resp_err_t err = rd_kafka_commit(m_consumer.get(), list.get(), 0);
    for (int i = 0; i < list->cnt; ++i) {
        if (!err && !list->elems[i].err)
            in[size_t(i)]->committed = list->elems[i].offset;
    }
    if (err)
        debouncedEvent(QStringLiteral("commit"), JobEvent::Severity::Warning,
                       QStringLiteral("could not commit progress to source group %1: %2").arg(m_groupId, kafkaErrorText(err)));
}

void MirrorWorker::onCommit(rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t *offsets)
{
    if (err == RD_KAFKA_RESP_ERR__NO_OFFSET)
        return;
    if (err) {
        debouncedEvent(QStringLiteral("commit"), JobEvent::Severity::Warning,
                       QStringLiteral("could not commit progress to source group %1: %2").arg(m_groupId, kafkaErrorText(err)));
        return;
    }
    for (int i = 0; offsets && i < offsets->cnt; ++i) {
        const rd_kafka_topic_partition_t &e = offsets->elems[i];
        if (e.err || e.offset < 0)
            continue;
        auto it = m_topics.find(QString::fromUtf8(e.topic));
        if (it != m_topics.end())
            if (PartState *p = partFor(it->second.get(), e.partition))
                p->committed = e.offset;
    }
}

void MirrorWorker::onError(rd_kafka_t *rk, int err, const char *reason)
{
    const bool target = rk == m_producer.get();
    const QString side = target ? QStringLiteral("target") : QStringLiteral("source");
    const QString bootstrap = target ? m_spec.target.bootstrap : m_spec.source.bootstrap;
    if (err == RD_KAFKA_RESP_ERR__FATAL) {
        char buf[512];
        const rd_kafka_resp_err_t orig = rd_kafka_fatal_error(rk, buf, sizeof buf);
        fail(QStringLiteral("%1 kafka %2: fatal error %3: %4").arg(side, bootstrap, kafkaErrorText(orig), QString::fromUtf8(buf)));
        return;
    }
    const auto code = rd_kafka_resp_err_t(err);
    const bool unreachable = code == RD_KAFKA_RESP_ERR__TRANSPORT || code == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN
                             || code == RD_KAFKA_RESP_ERR__RESOLVE || code == RD_KAFKA_RESP_ERR__TIMED_OUT;
    if (unreachable)
        (target ? m_targetTrouble : m_sourceTrouble) = true;
    const QString text = unreachable
                             ? QStringLiteral("%1 kafka %2 unreachable: %3").arg(side, bootstrap, QString::fromUtf8(reason))
                             : QStringLiteral("%1 kafka %2: %3").arg(side, bootstrap, QString::fromUtf8(reason));
    const auto severity = code == RD_KAFKA_RESP_ERR__AUTHENTICATION || code == RD_KAFKA_RESP_ERR__SSL
                              ? JobEvent::Severity::Error
                              : JobEvent::Severity::Warning;
    debouncedEvent(side + (unreachable ? QStringLiteral("-down") : QString::number(err)), severity, text);
}

// ---------------------------------------------------------------- topics

void MirrorWorker::refreshTopics()
{
    const ClusterTopics src = readClusterTopics(m_consumer.get(), 5000);
    if (!src.ok) {
        m_sourceKnown = false;
        m_sourceTrouble = true;
        debouncedEvent(QStringLiteral("source-down"), JobEvent::Severity::Warning,
                       QStringLiteral("source kafka %1 unreachable: cannot list topics: %2").arg(m_spec.source.bootstrap, src.error));
        return;
    }
    m_sourceKnown = true;
    QSet<QString> selected;
    for (auto it = src.topics.cbegin(); it != src.topics.cend(); ++it)
        if (topicSelected(m_spec, it.key()))
            selected.insert(it.key());
    if (selected.isEmpty())
        debouncedEvent(QStringLiteral("nomatch"), JobEvent::Severity::Warning,
                       QStringLiteral("no source topic matches the job's include patterns"));

    ClusterTopics tgt;
    bool tgtRead = false;
    QStringList wanted;
    QStringList names(selected.cbegin(), selected.cend());
    names.sort();
    for (const QString &name : names) {
        TopicState *t = topicByName(name);
        const TopicInfo &si = src.topics[name];
        t->sourcePartitions = si.partitions;
        if (!t->targetReady || t->targetPartitions < si.partitions) {
            if (!tgtRead) {
                tgt = readClusterTopics(m_producer.get(), 5000);
                tgtRead = true;
                if (!tgt.ok) {
                    m_targetTrouble = true;
                    debouncedEvent(QStringLiteral("target-down"), JobEvent::Severity::Warning,
                                   QStringLiteral("target kafka %1 unreachable: cannot list topics: %2")
                                       .arg(m_spec.target.bootstrap, tgt.error));
                }
            }
            if (tgt.ok && Clock::now() >= t->nextSyncAttempt) {
                const TopicSyncResult r = syncTargetTopic(m_consumer.get(), m_producer.get(), m_spec, si, t->targetName, tgt, 5000);
                for (const QString &s : r.infos)
                    event(JobEvent::Severity::Info, s);
                for (const QString &s : r.warnings)
                    event(JobEvent::Severity::Warning, s);
                const int before = t->targetPartitions;
                if (r.targetPartitions > 0) {
                    t->targetPartitions = r.targetPartitions;
                    t->targetReady = true;
                }
                if (t->targetPartitions != before && t->targetReady) {
                    // Let the producer see the new partitions before it is asked to use them.
                    const rd_kafka_metadata_t *raw = nullptr;
                    if (rd_kafka_metadata(m_producer.get(), 0, t->targetRkt.get(), &raw, 5000) == RD_KAFKA_RESP_ERR_NO_ERROR)
                        MetadataPtr(raw).reset();
                }
                if (!r.error.isEmpty()) {
                    t->nextSyncAttempt = Clock::now() + kSyncRetry;
                    if (r.error != t->lastError)
                        event(JobEvent::Severity::Error,
                              t->targetReady ? r.error + QStringLiteral("; partitions beyond %1 are not mirrored").arg(t->targetPartitions)
                                             : r.error);
                    t->lastError = r.error;
                } else {
                    t->lastError.clear();
                }
                for (auto &p : t->parts)
                    if (p && p->blocked && p->partition < t->targetPartitions)
                        p->blocked = false;
            }
        }
        if (t->targetReady)
            wanted << name;
    }
    m_selected = selected;
    if (wanted != m_subscribed) {
        for (const QString &name : wanted)
            if (!m_subscribed.contains(name))
                event(JobEvent::Severity::Info,
                      QStringLiteral("mirroring %1 to %2").arg(name, m_topics.at(name)->targetName));
        if (wanted.isEmpty()) {
            rd_kafka_unsubscribe(m_consumer.get());
        } else {
            PartitionListPtr list(rd_kafka_topic_partition_list_new(int(wanted.size())));
            for (const QString &name : wanted)
                rd_kafka_topic_partition_list_add(list.get(), m_topics.at(name)->nameUtf8.constData(), RD_KAFKA_PARTITION_UA);
            if (const rd_kafka_resp_err_t err = rd_kafka_subscribe(m_consumer.get(), list.get()))
                event(JobEvent::Severity::Error, QStringLiteral("could not subscribe: %1").arg(kafkaErrorText(err)));
        }
        m_subscribed = wanted;
        m_rebalancePending = !wanted.isEmpty();
    }
    applyPauses();
}

// ---------------------------------------------------------------- ticks

void MirrorWorker::tick()
{
    const auto now = Clock::now();
    if (now >= m_nextRefresh) {
        refreshTopics();
        m_nextRefresh = Clock::now() + std::chrono::milliseconds(qMax(1000, m_spec.topicRefreshIntervalMs));
    }
    serviceReplays();
    if (now >= m_nextCommit) {
        commit(false);
        m_nextCommit = now + std::chrono::seconds(1);
    }
    checkStopCondition();
    if (now >= m_nextSample) {
        sampleMetrics();
        const auto every = std::chrono::milliseconds(qMax(20, m_spec.samplingIntervalMs));
        m_nextSample += every;
        if (m_nextSample < now)
            m_nextSample = now + every;
    }
}

bool MirrorWorker::caughtUp() const
{
    // Caught up: every selected source partition is assigned to this job,
    // its fetch position reached the end offset (EOF) and the target has
    // acknowledged everything handed to it. Nothing assigned: not caught up.
    if (!m_sourceKnown || m_rebalancePending || !m_pending.empty() || m_selected.isEmpty())
        return false;
    int assigned = 0;
    for (const QString &name : m_selected) {
        auto it = m_topics.find(name);
        if (it == m_topics.end() || !m_subscribed.contains(name))
            return false;
        const TopicState &t = *it->second;
        int n = 0;
        for (const auto &p : t.parts) {
            if (!p || !p->assigned)
                continue;
            ++n;
            if (!(p->atEof || p->done) || !p->ring.isEmpty() || p->failedOffset >= 0 || p->blocked || p->resumeFrom >= 0)
                return false;
        }
        if (n < t.sourcePartitions)
            return false;
        assigned += n;
    }
    return assigned > 0;
}

void MirrorWorker::checkStopCondition()
{
    if (m_spec.stop == StopCondition::RunForever || m_stopping)
        return;
    if (m_spec.stop == StopCondition::CaughtUp) {
        if (caughtUp()) {
            event(JobEvent::Severity::Info, QStringLiteral("caught up: stopping"));
            m_stopping = true;
        }
        return;
    }
    const qint64 now = nowMs();
    if (m_spec.stop == StopCondition::AtTimestamp && now >= m_spec.stopTimestamp.toMSecsSinceEpoch()) {
        // Past the stop time, a partition at its end gets no older records.
        for (auto &[name, t] : m_topics)
            for (auto &p : t->parts)
                if (p && p->assigned && p->atEof && !p->done)
                    p->done = true;
    }
    // Done partitions count as at EOF for caughtUp().
    bool allDone = true;
    for (auto &[name, t] : m_topics)
        for (auto &p : t->parts)
            if (p && p->assigned && !p->done)
                allDone = false;
    if (allDone && caughtUp()) {
        event(JobEvent::Severity::Info, QStringLiteral("stop condition reached: stopping"));
        m_stopping = true;
    }
}

void MirrorWorker::sampleMetrics()
{
    const auto now = Clock::now();
    const double dt = std::max(1e-3, std::chrono::duration<double>(now - m_lastSample).count());
    m_lastSample = now;
    MetricsSnapshot s;
    s.jobName = m_spec.name;
    s.time = QDateTime::currentDateTimeUtc();
    s.elapsedMs = std::chrono::duration_cast<std::chrono::milliseconds>(now - m_started).count();
    s.state = m_state;
    s.recordsConsumed = m_recordsConsumed;
    s.recordsProduced = m_recordsProduced;
    s.bytesConsumed = m_bytesConsumed;
    s.bytesProduced = m_bytesProduced;
    s.consumeRecordsPerSec = double(m_recordsConsumed - m_prevConsumed) / dt;
    s.produceRecordsPerSec = double(m_recordsProduced - m_prevProduced) / dt;
    s.consumeBytesPerSec = double(m_bytesConsumed - m_prevBytesConsumed) / dt;
    s.produceBytesPerSec = double(m_bytesProduced - m_prevBytesProduced) / dt;
    m_prevConsumed = m_recordsConsumed;
    m_prevProduced = m_recordsProduced;
    m_prevBytesConsumed = m_bytesConsumed;
    m_prevBytesProduced = m_bytesProduced;
    s.inFlight = m_inFlight;
    s.latency = m_latency.stats();
    m_latency.reset();
    s.throttleBytesPerSecond = m_throttleRate;
    qint64 lagTime = -1;
    for (auto &[name, t] : m_topics) {
        for (auto &p : t->parts) {
            if (!p || !p->assigned)
                continue;
            int64_t lo = -1, hi = -1;
            // Cached from fetch responses: no broker round trip per tick.
            if (m_consumer
                && rd_kafka_get_watermark_offsets(m_consumer.get(), t->nameUtf8.constData(), p->partition, &lo, &hi)
                       == RD_KAFKA_RESP_ERR_NO_ERROR) {
                if (lo >= 0)
                    p->lo = lo;
                if (hi >= 0)
                    p->hi = hi;
            }
            PartitionMetrics pm;
            pm.topic = t->name;
            pm.targetTopic = t->targetName;
            pm.partition = p->partition;
            pm.logStartOffset = p->lo;
            pm.committedOffset = p->committed;
            const qint64 next = p->committable() >= 0 ? p->committable() : p->committed;
            pm.nextOffset = next;
            // The EOF position can be ahead of a cached high watermark.
            pm.endOffset = p->hi >= 0 ? std::max(p->hi, p->atEof ? p->consumedNext : -1) : (p->atEof ? p->consumedNext : -1);
            pm.lag = pm.endOffset >= 0 && next >= 0 ? std::max<qint64>(0, pm.endOffset - next) : -1;
            pm.records = p->records;
            pm.bytes = p->bytes;
            pm.lastSourceTimestampMs = p->lastAckedTs;
            pm.paused = p->pausedActual || m_throttled || m_backpressure;
            pm.caughtUp = p->atEof && p->ring.isEmpty();
            if (pm.lag > 0)
                s.totalLag += pm.lag;
            if (!p->ring.isEmpty() && p->lastConsumedTs >= 0 && p->lastAckedTs >= 0)
                lagTime = std::max(lagTime, p->lastConsumedTs - p->lastAckedTs);
            else if (pm.caughtUp)
                lagTime = std::max<qint64>(lagTime, 0);
            s.partitions.append(pm);
        }
    }
    s.lagTimeMs = lagTime;
    s.caughtUp = caughtUp();
    m_sink->onMetrics(s);
}

// ---------------------------------------------------------------- reporting

void MirrorWorker::event(JobEvent::Severity severity, const QString &text)
{
    JobEvent e;
    e.time = QDateTime::currentDateTimeUtc();
    e.severity = severity;
    e.text = text;
    m_sink->onEvent(e);
}

void MirrorWorker::debouncedEvent(const QString &key, JobEvent::Severity severity, const QString &text)
{
    const auto now = Clock::now();
    auto it = m_debounce.find(key);
    if (it != m_debounce.end() && now - it->last < std::chrono::seconds(10)) {
        ++it->suppressed;
        return;
    }
    const int suppressed = it != m_debounce.end() ? it->suppressed : 0;
    m_debounce.insert(key, Debounce{now, 0});
    event(severity, suppressed > 0 ? text + QStringLiteral(" (%1 more like this)").arg(suppressed) : text);
}

void MirrorWorker::setState(JobState s)
{
    if (s == m_state && s != JobState::Starting)
        return;
    m_state = s;
    m_sink->onState(s);
}

void MirrorWorker::fail(const QString &error)
{
    if (m_fatal.isEmpty()) {
        m_fatal = error;
        event(JobEvent::Severity::Error, error);
    }
}

} // namespace md
