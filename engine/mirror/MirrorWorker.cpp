#include "engine/mirror/MirrorWorker.h"

#include <QUuid>

#include "engine/core/BootstrapRevival.h"
#include "engine/core/ClusterConfig.h"
#include "engine/core/KafkaError.h"
#include "engine/core/RebalanceProtocol.h"
#include "engine/mirror/CopyBounds.h"
#include "engine/mirror/TopicNaming.h"

#include <QDateTime>

#include <algorithm>

namespace md {

MirrorWorker::MirrorWorker(MirrorJobSpec spec, MirrorSink *sink)
    : m_spec(std::move(spec)), m_sink(sink),
      m_map({[this](JobEvent::Severity s, const QString &text) { event(s, text); },
             [this](const QString &key, JobEvent::Severity s, const QString &text) { debouncedEvent(key, s, text); },
             [this](const QString &why) { fail(why); },
             [this](const QString &why) {
                 if (!m_txnAbortPending) {
                     m_txnAbortPending = true;
                     m_txnAbortWhy = why;
                 }
             }},
            m_spec.delivery == DeliveryGuarantee::ExactlyOnce)
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
    if (rate >= 0 && rate != m_throttle.rate()) {
        m_throttle.setRate(Clock::now(), rate);
        event(JobEvent::Severity::Info,
              rate > 0 ? QStringLiteral("throttle set to %1 bytes/s").arg(rate) : QStringLiteral("throttle removed"));
    }
}

// ---------------------------------------------------------------- life

bool MirrorWorker::setup(QString *error)
{
    m_groupId = consumerGroupId(m_spec);
    m_originHeader = m_spec.originHeader.trimmed().toUtf8();
    m_consumer = makeConsumer(ConsumerPrefetch::kMinRecords, 0, &m_cooperative, error);
    if (!m_consumer)
        return false;
    m_prefetchRecords = ConsumerPrefetch::kMinRecords;

    char errstr[512];
    const QMap<QString, QString> producerOverrides{
        {QStringLiteral("enable.idempotence"), QStringLiteral("true")},
        {QStringLiteral("acks"), QStringLiteral("all")},
        // A target outage must never drop a record: retry until it is back.
        {QStringLiteral("message.timeout.ms"), QStringLiteral("2147483647")},
        // Producing to a missing topic must not make the broker create it
        // with its defaults (wrong partition count).
        {QStringLiteral("allow.auto.create.topics"), QStringLiteral("false")},
    };
    QMap<QString, QString> overrides = producerOverrides;
    if (eos()) {
        // One id per run of an instance: a restarted instance is a new
        // producer, and the partitions it takes over fence the old id
        // (MirrorWorkerTxn.cpp).
        m_txnId = QStringLiteral("%1.%2").arg(m_groupId, QUuid::createUuid().toString(QUuid::Id128).left(12));
        overrides.insert(QStringLiteral("transactional.id"), m_txnId);
        // A record that cannot be delivered within the transaction's time
        // fails it (abort, copied again) instead of waiting for ever.
        const QString txnTimeout =
            m_spec.target.producerProperties.value(QStringLiteral("transaction.timeout.ms"), QStringLiteral("60000"));
        overrides.insert(QStringLiteral("transaction.timeout.ms"), txnTimeout);
        overrides.insert(QStringLiteral("message.timeout.ms"), txnTimeout);
    }
    ConfResult pc = makeKafkaConf(m_spec.target, ClientRole::Producer, overrides);
    if (!pc.conf) {
        *error = QStringLiteral("target cluster configuration: ") + pc.error;
        return false;
    }
    setConfDefault(pc.conf.get(), m_spec.target, m_spec.target.producerProperties, QStringLiteral("client.id"),
                   QStringLiteral("mirrordesk-") + m_groupId);
    // What is in flight stays bounded by the engine's window
    // (CopyBounds.h, which grows with the partitions assigned); the
    // queue's own bound is above it. An operator's own setting of the queue
    // is the window instead (a 1M-record copy peaked at 194-330 MB resident
    // with 1,000,000; docs/PERFORMANCE.md).
    const QString queueKey = QStringLiteral("queue.buffering.max.messages");
    m_operatorWindow = operatorSet(m_spec.target, m_spec.target.producerProperties, queueKey);
    setConfDefault(pc.conf.get(), m_spec.target, m_spec.target.producerProperties, queueKey,
                   QString::number(InFlightWindow::kMaxRecords + InFlightWindow::kProducerHeadroom));
    setConfDefault(pc.conf.get(), m_spec.target, m_spec.target.producerProperties,
                   QStringLiteral("queue.buffering.max.kbytes"), QStringLiteral("32768"));
    setConfDefault(pc.conf.get(), m_spec.target, m_spec.target.producerProperties, QStringLiteral("linger.ms"),
                   QStringLiteral("5"));
    // Records up to what the brokers allow; the target topic's
    // max.message.bytes (copied from the source) decides.
    setConfDefault(pc.conf.get(), m_spec.target, m_spec.target.producerProperties, QStringLiteral("message.max.bytes"),
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
    m_map.start(m_producer.get(),
                m_spec.offsetMapTopic.isEmpty() ? defaultOffsetMapTopic(m_groupId) : m_spec.offsetMapTopic,
                m_spec.offsetMap);
    startSchemaSync();
    m_lagTime = std::make_unique<LagTimeReader>(m_spec.source);
    m_lagTime->start();
    return !eos() || setupTransactions(error);
}

void MirrorWorker::run()
{
    m_started = Clock::now();
    setState(JobState::Starting);
    QString error;
    if (!setup(&error)) {
        m_consumer.reset();
        m_producer.reset();
        setState(JobState::Failed);
        m_sink->onFinished(false, error);
        return;
    }
    m_throttle.start(Clock::now(), m_spec.throttleBytesPerSecond);
    const auto sampleEvery = std::chrono::milliseconds(qMax(20, m_spec.samplingIntervalMs));
    m_nextSample = m_started + sampleEvery;
    m_nextCommit = m_started + std::chrono::seconds(1);
    event(JobEvent::Severity::Info, QStringLiteral("starting: group %1, source %2, target %3")
                                        .arg(m_groupId, m_spec.source.bootstrap, m_spec.target.bootstrap));
    // Exactly-once: the transactional id is registered before anything is
    // read, so no partition is assigned to a producer that cannot write yet.
    const bool ready = !eos() || initTransactions();
    m_nextRefresh = Clock::now() + std::chrono::milliseconds(qMax(1000, m_spec.topicRefreshIntervalMs));
    if (ready)
        refreshTopics();
    // Created topics got the source's configs just now; later changes follow.
    m_nextConfigSync = Clock::now() + std::chrono::milliseconds(qMax(1000, m_spec.configSyncIntervalMs));
    setState(JobState::Running);

    while (ready) {
        handleCommands();
        if (m_aborting || m_stopping || !m_fatal.isEmpty())
            break;
        m_throttle.refill(Clock::now());
        if (!m_pending.empty())
            drainPending();
        if (m_throttle.waiting() || m_backpressure) {
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
            if (!m_fatal.isEmpty() || m_stopping || m_aborting || m_throttle.waiting() || m_backpressure ||
                transactionFull())
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
    if (m_schemaSync)
        m_schemaSync->stop(); // answers nothing more; joined below, after the flush
    if (m_lagTime)
        m_lagTime->stop(); // a read under way ends by its own timeout, on its own thread
    if (graceful) {
        setState(JobState::Stopping);
        applyPauses();
        m_pending.clear(); // consumed, never produced: the commit does not pass them
        if (m_fatal.isEmpty() && !eos()) {
            const bool flushed = flushProducer(kFlushTimeoutMs);
            if (!flushed && !m_aborting)
                event(JobEvent::Severity::Warning,
                      QStringLiteral("%1 records were not acknowledged by the target within %2 s; they will be "
                                     "copied again on the next start")
                          .arg(m_inFlight)
                          .arg(kFlushTimeoutMs / 1000));
        }
        if (!m_aborting && eos())
            commitTransaction(nullptr, true, true); // every partition handed over
        else if (!m_aborting)
            commit(true); // writes the map and waits for it first
        sampleMetrics();
    }
    m_pending.clear();
    // Every consumed message the producer still references must be released
    // (through its delivery report) before the consumer goes away.
    rd_kafka_purge(m_producer.get(), RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
    const auto deadline = Clock::now() + std::chrono::seconds(10);
    while (rd_kafka_outq_len(m_producer.get()) > 0 && Clock::now() < deadline)
        rd_kafka_poll(m_producer.get(), 50);
    m_topicIds.close(); // a queue goes before its client
    m_map.closeQueue();
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
    m_map.close();
    m_producer.reset();
    m_progressReader.reset();
    m_ownerReader.reset();
    m_schemaSync.reset(); // its thread joined (a registry call in flight ends by its own timeout)
}

bool MirrorWorker::flushProducer(int timeoutMs)
{
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    while (rd_kafka_outq_len(m_producer.get()) > 0) {
        if (Clock::now() >= deadline)
            return false;
        rd_kafka_flush(m_producer.get(), 100);
        if (abortAsked() || !m_fatal.isEmpty()) // only an abort may cut a flush short
            return false;
    }
    return true;
}

bool MirrorWorker::commandQueued(Command c)
{
    if (!m_hasCommands)
        return false;
    std::lock_guard lock(m_cmdMutex);
    return std::find(m_commands.begin(), m_commands.end(), c) != m_commands.end();
}

bool MirrorWorker::abortAsked()
{
    if (!m_aborting && commandQueued(Command::Abort))
        m_aborting = true;
    return m_aborting;
}

bool MirrorWorker::stopAsked()
{
    if (!m_stopping && commandQueued(Command::Stop))
        m_stopping = true;
    return abortAsked() || m_stopping;
}

// ---------------------------------------------------------------- callbacks

void MirrorWorker::rebalanceCb(rd_kafka_t *, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t *parts,
                               void *opaque)
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

void MirrorWorker::commitCb(rd_kafka_t *, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t *offsets,
                            void *opaque)
{
    static_cast<MirrorWorker *>(opaque)->onCommit(err, offsets);
}

void MirrorWorker::onError(rd_kafka_t *rk, int err, const char *reason)
{
    const bool target = rk == m_producer.get();
    const QString side = target ? QStringLiteral("target") : QStringLiteral("source");
    const QString bootstrap = target ? m_spec.target.bootstrap : m_spec.source.bootstrap;
    if (err == RD_KAFKA_RESP_ERR__FATAL) {
        char buf[512];
        const rd_kafka_resp_err_t orig = rd_kafka_fatal_error(rk, buf, sizeof buf);
        fail(QStringLiteral("%1 kafka %2: fatal error %3: %4")
                 .arg(side, bootstrap, kafkaErrorText(orig), QString::fromUtf8(buf)));
        return;
    }
    const auto code = rd_kafka_resp_err_t(err);
    const bool unreachable = code == RD_KAFKA_RESP_ERR__TRANSPORT || code == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN ||
                             code == RD_KAFKA_RESP_ERR__RESOLVE || code == RD_KAFKA_RESP_ERR__TIMED_OUT;
    if (unreachable)
        (target ? m_targetTrouble : m_sourceTrouble) = true;
    const QString why = describeConnectionError(rk, err, reason);
    const QString text = unreachable ? QStringLiteral("%1 kafka %2 unreachable: %3").arg(side, bootstrap, why)
                                     : QStringLiteral("%1 kafka %2: %3").arg(side, bootstrap, why);
    const auto severity = code == RD_KAFKA_RESP_ERR__AUTHENTICATION || code == RD_KAFKA_RESP_ERR__SSL
                              ? JobEvent::Severity::Error
                              : JobEvent::Severity::Warning;
    debouncedEvent(side + (unreachable ? QStringLiteral("-down") : QString::number(err)), severity, text);
}

// ---------------------------------------------------------------- ticks

void MirrorWorker::checkTargetSilence(Clock::time_point now)
{
    const TargetSilenceWatch::Check c = m_targetSilence.check(now, m_inFlight);
    if (c.revive)
        reviveBrokers(true); // at most once a minute
    switch (c.verdict) {
    case TargetSilenceWatch::Verdict::Nothing: break;
    case TargetSilenceWatch::Verdict::KeepsUpAgain:
        event(JobEvent::Severity::Info, QStringLiteral("target kafka %1 keeps up again").arg(m_spec.target.bootstrap));
        break;
    case TargetSilenceWatch::Verdict::Unreachable:
        // Under the key of the target's other outage events; its next
        // acknowledgement says it is back (m_targetTrouble).
        m_targetTrouble = true;
        debouncedEvent(QStringLiteral("target-down"), JobEvent::Severity::Warning,
                       QStringLiteral("target kafka %1 unreachable: it has acknowledged nothing for %2 s while %3 "
                                      "records wait for it")
                           .arg(m_spec.target.bootstrap)
                           .arg(c.silentSeconds)
                           .arg(m_inFlight));
        break;
    case TargetSilenceWatch::Verdict::Slow:
        debouncedEvent(QStringLiteral("target-slow"), JobEvent::Severity::Warning,
                       QStringLiteral("target kafka %1 slow or failing: records have waited %2 s for its "
                                      "acknowledgement, %3 wait for it now")
                           .arg(m_spec.target.bootstrap)
                           .arg(c.waitedSeconds)
                           .arg(m_inFlight));
        break;
    }
}

void MirrorWorker::reviveBrokers(bool target)
{
    // At most once a minute per client: during a real outage it changes nothing.
    const auto now = Clock::now();
    Clock::time_point &next = target ? m_nextTargetRevival : m_nextSourceRevival;
    if (now < next)
        return;
    next = now + std::chrono::seconds(60);
    if (target)
        reviveBootstrapBrokers(m_producer.get(), m_spec.target.bootstrap);
    else
        reviveBootstrapBrokers(m_consumer.get(), m_spec.source.bootstrap);
}

void MirrorWorker::tick()
{
    const auto now = Clock::now();
    if (now >= m_nextRefresh) {
        // Set first: a target topic that failed to sync pulls the next refresh forward.
        m_nextRefresh = Clock::now() + std::chrono::milliseconds(qMax(1000, m_spec.topicRefreshIntervalMs));
        refreshTopics();
    }
    if (now >= m_nextConfigSync) {
        syncTopicConfigs();
        m_nextConfigSync = Clock::now() + std::chrono::milliseconds(qMax(1000, m_spec.configSyncIntervalMs));
    }
    pollTopicIds();
    m_map.poll();
    serviceReplays();
    if (m_schemaSync)
        serviceSchemaWaits(now);
    if (eos()) {
        tickTransactions(now);
    } else if (now >= m_nextCommit) {
        // The map first; the offsets follow as soon as the target acknowledged
        // it (commitLimit), within a tick, so a crash copies again about one
        // commit interval at most.
        writeOffsetMap(nullptr);
        m_offsetCommitPending = true;
        m_offsetCommitBy = now + std::chrono::milliseconds(500);
        m_nextCommit =
            now + (now < m_quickCommitsUntil ? std::chrono::milliseconds(200) : std::chrono::milliseconds(1000));
    }
    if (!eos() && m_offsetCommitPending && (m_map.inFlight() == 0 || now >= m_offsetCommitBy)) {
        m_offsetCommitPending = false;
        commitOffsets(false, nullptr);
    }
    checkStopCondition();
    checkTargetSilence(now);
    if (now >= m_nextSample) {
        sampleMetrics();
        const auto every = std::chrono::milliseconds(qMax(20, m_spec.samplingIntervalMs));
        m_nextSample += every;
        if (m_nextSample < now)
            m_nextSample = now + every;
    }
}

// ---------------------------------------------------------------- reporting

qint64 MirrorWorker::nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

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
