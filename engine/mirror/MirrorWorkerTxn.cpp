#include "engine/mirror/MirrorWorker.h"

#include "engine/core/ClusterConfig.h"
#include "engine/mirror/TopicNaming.h"

#include <QSet>
#include <QUuid>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

namespace md {

// ---------------------------------------------------------------- exactly-once (docs/ARCHITECTURE.md)
//
// One transactional producer per run of an instance. Records, the offset
// map's entries for them and the job's progress (the source offsets, under
// the job's group on the TARGET cluster) commit in one transaction, so a
// read_committed reader of the target, the map and the progress always agree.
// Each committed offset carries, as its metadata, the transactional id that
// wrote it, or "released" once its instance handed the partition over. An
// instance that takes a partition whose offset names another id (a crashed or
// stalled previous owner) fences that id before it reads the progress: the
// old owner's open transaction is aborted and it can never commit again.

namespace {

constexpr char kReleased[] = "mirrordesk:released";
constexpr char kOwnerPrefix[] = "mirrordesk:txn:";

// The transactional id a committed offset names, empty when the partition was
// handed over (or the offset was not written by an exactly-once run).
QString ownerOf(const rd_kafka_topic_partition_t &e)
{
    if (!e.metadata || e.metadata_size == 0)
        return {};
    const QByteArray m(static_cast<const char *>(e.metadata), qsizetype(e.metadata_size));
    if (!m.startsWith(kOwnerPrefix))
        return {};
    return QString::fromUtf8(m.mid(qsizetype(std::strlen(kOwnerPrefix))));
}

bool fencedCode(rd_kafka_resp_err_t code)
{
    return code == RD_KAFKA_RESP_ERR__FENCED || code == RD_KAFKA_RESP_ERR_PRODUCER_FENCED ||
           code == RD_KAFKA_RESP_ERR_INVALID_PRODUCER_EPOCH ||
           code == RD_KAFKA_RESP_ERR_TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
}

} // namespace

bool MirrorWorker::setupTransactions(QString *error)
{
    // Offsets committed in a transaction are read with require-stable
    // (isolation.level read_committed): a transaction still committing is
    // waited for, never read half done. The reader never joins the group.
    const QMap<QString, QString> overrides{
        {QStringLiteral("group.id"), m_groupId},
        {QStringLiteral("enable.auto.commit"), QStringLiteral("false")},
        {QStringLiteral("isolation.level"), QStringLiteral("read_committed")},
    };
    ConfResult cc = makeKafkaConf(m_spec.target, ClientRole::Consumer, overrides);
    if (!cc.conf) {
        *error = QStringLiteral("target cluster configuration: ") + cc.error;
        return false;
    }
    char errstr[512];
    rd_kafka_t *reader = rd_kafka_new(RD_KAFKA_CONSUMER, cc.conf.get(), errstr, sizeof errstr);
    if (!reader) {
        *error = QStringLiteral("target progress reader: ") + QString::fromUtf8(errstr);
        return false;
    }
    (void)cc.conf.release();
    m_progressReader.reset(reader);
    // The owners are read without waiting: a crashed owner's transaction
    // holds a stable read until it times out, and only fencing that owner
    // (whose id its claim committed) ends it sooner.
    QMap<QString, QString> unstable = overrides;
    unstable.insert(QStringLiteral("isolation.level"), QStringLiteral("read_uncommitted"));
    ConfResult oc = makeKafkaConf(m_spec.target, ClientRole::Consumer, unstable);
    rd_kafka_t *owners = oc.conf ? rd_kafka_new(RD_KAFKA_CONSUMER, oc.conf.get(), errstr, sizeof errstr) : nullptr;
    if (!owners) {
        *error = QStringLiteral("target progress reader: ") + (oc.conf ? QString::fromUtf8(errstr) : oc.error);
        return false;
    }
    (void)oc.conf.release();
    m_ownerReader.reset(owners);
    // The job's group on the target has no members: offsets go in as a
    // simple (generation -1) commit, which the coordinator accepts only for
    // a group without active members. Fencing is by transactional id.
    m_txnGroup.reset(rd_kafka_consumer_group_metadata_new(m_groupId.toUtf8().constData()));
    return true;
}

bool MirrorWorker::initTransactions()
{
    // Registers the id with the target's transaction coordinator (fencing an
    // earlier producer of the same id). An unreachable target is waited for,
    // serving Stop and Abort between attempts.
    for (int attempt = 1;; ++attempt) {
        ErrorPtr err(rd_kafka_init_transactions(m_producer.get(), 5000));
        if (!err)
            break;
        const rd_kafka_resp_err_t code = rd_kafka_error_code(err.get());
        const QString text = QString::fromUtf8(rd_kafka_error_string(err.get()));
        if (rd_kafka_error_is_fatal(err.get()) ||
            (!rd_kafka_error_is_retriable(err.get()) && code != RD_KAFKA_RESP_ERR__TIMED_OUT)) {
            fail(QStringLiteral("target kafka %1: cannot start transactions for the exactly-once job (%2); check that "
                                "the target's transaction state log can be written (transaction.state.log.replication."
                                "factor, min.isr) and that the job's target user may write transactional id %3")
                     .arg(m_spec.target.bootstrap, text, m_txnId));
            return false;
        }
        debouncedEvent(QStringLiteral("txn-init"), JobEvent::Severity::Warning,
                       QStringLiteral("target kafka %1: transactions not ready yet (%2); trying again")
                           .arg(m_spec.target.bootstrap, text));
        handleCommands();
        if (m_aborting || m_stopping)
            return false;
    }
    event(JobEvent::Severity::Info,
          QStringLiteral("exactly-once: transactional id %1 ready on the target").arg(m_txnId));
    return true;
}

bool MirrorWorker::beginTransaction()
{
    if (m_txnOpen)
        return true;
    ErrorPtr err(rd_kafka_begin_transaction(m_producer.get()));
    if (err) {
        fail(QStringLiteral("target kafka %1: cannot begin a transaction: %2")
                 .arg(m_spec.target.bootstrap, QString::fromUtf8(rd_kafka_error_string(err.get()))));
        return false;
    }
    m_txnOpen = true;
    m_txnRecords = 0;
    m_txnBegan = Clock::now();
    m_txnStretching = false;
    m_txnStretchCheck = m_txnBegan;
    return true;
}

void MirrorWorker::noteTransactional(PartState *p, qint64 before)
{
    if (p->txnBase < 0)
        p->txnBase = before;
    ++m_txnRecords;
}

void MirrorWorker::waitForMapSetup()
{
    // The map goes into every transaction: a topic still being created is
    // waited for (bounded by OffsetMapWriter::poll's own 15 s, three tries).
    while (m_map.setupPending() && !m_aborting && m_fatal.isEmpty()) {
        m_map.poll();
        if (m_map.setupPending())
            rd_kafka_poll(m_producer.get(), 20);
    }
}

bool MirrorWorker::commitTransaction(const std::vector<PartState *> *released, bool releaseAll, bool syncSource)
{
    if (!m_producer || !m_consumer || !m_fatal.isEmpty() || m_aborting)
        return false;
    QSet<const PartState *> releasing;
    if (released)
        for (const PartState *p : *released)
            releasing.insert(p);
    std::vector<PartState *> parts;
    const auto wants = [&](PartState *p) {
        // The target's coordinator takes offsets only for partitions it has:
        // one that is not there yet is claimed once it is (handleMessage).
        if (!p || p->consumedNext < 0 || !p->topic->targetReady || p->partition >= p->topic->targetPartitions)
            return false;
        const bool release = releaseAll || releasing.contains(p);
        if (!p->assigned && !release)
            return false;
        return p->consumedNext != p->committed || (release ? !p->releasedWritten : !p->claimed);
    };
    for (auto &[name, t] : m_topics)
        for (auto &p : t->parts)
            if (wants(p.get()))
                parts.push_back(p.get());
    if (!m_txnOpen && parts.empty())
        return true;

    waitForMapSetup();
    // Every record of the transaction acknowledged first: the map then
    // covers all of them, and the offsets below are exactly what was copied.
    if (!flushProducer(kFlushTimeoutMs)) {
        if (!m_aborting && m_fatal.isEmpty())
            debouncedEvent(QStringLiteral("txn-flush"), JobEvent::Severity::Warning,
                           QStringLiteral("target kafka %1 has not acknowledged the open transaction's %2 records "
                                          "within %3 s; committing later")
                               .arg(m_spec.target.bootstrap)
                               .arg(m_inFlight)
                               .arg(kFlushTimeoutMs / 1000));
        return false;
    }
    if (m_txnAbortPending) {
        abortTransaction(m_txnAbortWhy);
        // What was handed over is still marked so, at its last committed offset.
        return (!released && !releaseAll) ? false : commitTransaction(released, releaseAll, syncSource);
    }
    if (!beginTransaction())
        return false;
    std::vector<PartState *> mapped;
    for (auto &[name, t] : m_topics)
        for (auto &p : t->parts)
            if (p && (p->assigned || releaseAll || releasing.contains(p.get())))
                mapped.push_back(p.get());
    writeOffsetMap(&mapped);

    // Under the TARGET topic's name: the coordinator refuses offsets of
    // topics the target does not have. The offsets are the source's.
    const QByteArray owner = QByteArray(kOwnerPrefix) + m_txnId.toUtf8();
    PartitionListPtr offsets(rd_kafka_topic_partition_list_new(int(parts.size()) + 1));
    PartitionListPtr sourceOffsets(rd_kafka_topic_partition_list_new(int(parts.size()) + 1));
    for (PartState *p : parts) {
        rd_kafka_topic_partition_list_add(sourceOffsets.get(), p->topic->nameUtf8.constData(), p->partition)->offset =
            p->consumedNext;
        rd_kafka_topic_partition_t *e =
            rd_kafka_topic_partition_list_add(offsets.get(), p->topic->targetName.toUtf8().constData(), p->partition);
        e->offset = p->consumedNext;
        const QByteArray &meta = (releaseAll || releasing.contains(p)) ? QByteArray(kReleased) : owner;
        e->metadata = rd_kafka_mem_malloc(nullptr, size_t(meta.size()));
        std::memcpy(e->metadata, meta.constData(), size_t(meta.size()));
        e->metadata_size = size_t(meta.size());
    }
    if (offsets->cnt > 0) {
        ErrorPtr err(rd_kafka_send_offsets_to_transaction(m_producer.get(), offsets.get(), m_txnGroup.get(), 10000));
        if (err && !handleTxnError(err.get(), "send the offsets of"))
            return false;
        if (err)
            return released || releaseAll ? commitTransaction(released, releaseAll, syncSource) : false;
    }
    for (int attempt = 0;; ++attempt) {
        ErrorPtr err(rd_kafka_commit_transaction(m_producer.get(), 10000));
        if (!err)
            break;
        // A timeout or a coordinator move: the same commit again, until an
        // abort is asked for or the target stays away for long.
        if (rd_kafka_error_is_retriable(err.get()) && attempt < 30 && !m_aborting) {
            debouncedEvent(QStringLiteral("txn-commit"), JobEvent::Severity::Warning,
                           QStringLiteral("target kafka %1: transaction commit not confirmed yet (%2); trying again")
                               .arg(m_spec.target.bootstrap, QString::fromUtf8(rd_kafka_error_string(err.get()))));
            handleCommands();
            continue;
        }
        if (!handleTxnError(err.get(), "commit"))
            return false;
        return released || releaseAll ? commitTransaction(released, releaseAll, syncSource) : false;
    }
    m_txnOpen = false;
    m_txnRecords = 0;
    m_txnAborts = 0;
    for (PartState *p : parts) {
        p->committed = p->consumedNext;
        p->releasedWritten = releaseAll || releasing.contains(p);
        p->claimed = !p->releasedWritten;
    }
    for (PartState *p : mapped) {
        p->txnBase = -1;
        p->map.committedInTransaction();
    }
    // The source group gets the same progress, outside the transaction: what
    // `status`, lag views and a switch back to at-least-once read. It never
    // passes the target's, which wins on the next assignment.
    if (sourceOffsets->cnt > 0) {
        if (syncSource) {
            const rd_kafka_resp_err_t err = rd_kafka_commit(m_consumer.get(), sourceOffsets.get(), 0);
            if (err)
                debouncedEvent(QStringLiteral("commit"), JobEvent::Severity::Warning,
                               QStringLiteral("could not copy progress to source group %1: %2 (the target holds it)")
                                   .arg(m_groupId, kafkaErrorText(err)));
        } else {
            rd_kafka_commit(m_consumer.get(), sourceOffsets.get(), 1);
        }
    }
    return true;
}

bool MirrorWorker::handleTxnError(rd_kafka_error_t *error, const char *step)
{
    const rd_kafka_resp_err_t code = rd_kafka_error_code(error);
    const QString text = QString::fromUtf8(rd_kafka_error_string(error));
    if (rd_kafka_error_is_fatal(error)) {
        char buf[512] = {0};
        const rd_kafka_resp_err_t orig =
            code == RD_KAFKA_RESP_ERR__FATAL ? rd_kafka_fatal_error(m_producer.get(), buf, sizeof buf) : code;
        if (fencedCode(orig) || fencedCode(code))
            fail(QStringLiteral("exactly-once: this instance was fenced on the target (transactional id %1: %2): "
                                "another instance of the job took its partitions over, or a newer run started. It "
                                "stops without committing, so nothing is copied twice; its open transaction is aborted")
                     .arg(m_txnId, buf[0] ? QString::fromUtf8(buf) : text));
        else
            fail(QStringLiteral("exactly-once: target kafka %1 refused to %2 a transaction: %3")
                     .arg(m_spec.target.bootstrap, QString::fromLatin1(step), buf[0] ? QString::fromUtf8(buf) : text));
        return false;
    }
    abortTransaction(QStringLiteral("could not %1 the transaction: %2").arg(QString::fromLatin1(step), text));
    return m_fatal.isEmpty();
}

void MirrorWorker::abortTransaction(const QString &why)
{
    if (!m_txnOpen) {
        m_txnAbortPending = false;
        return;
    }
    // Purges what is still queued (its delivery reports come back as purged)
    // and ends the transaction: its records and map entries are never visible
    // to read_committed readers.
    for (int attempt = 0;; ++attempt) {
        ErrorPtr err(rd_kafka_abort_transaction(m_producer.get(), 10000));
        if (!err)
            break;
        if (rd_kafka_error_is_fatal(err.get()) || attempt >= 30 || m_aborting) {
            if (rd_kafka_error_is_fatal(err.get()))
                handleTxnError(err.get(), "abort");
            else
                fail(QStringLiteral("exactly-once: target kafka %1 did not confirm a transaction abort: %2")
                         .arg(m_spec.target.bootstrap, QString::fromUtf8(rd_kafka_error_string(err.get()))));
            m_txnOpen = false;
            return;
        }
        handleCommands();
    }
    m_txnOpen = false;
    m_txnRecords = 0;
    m_txnAbortPending = false;
    m_txnAbortWhy.clear();
    // Every partition the transaction touched copies again from where it began.
    int rewound = 0;
    for (auto &[name, t] : m_topics) {
        for (auto &p : t->parts) {
            if (!p || p->txnBase < 0)
                continue;
            const qint64 base = p->txnBase;
            p->txnBase = -1;
            if (!p->assigned)
                continue;
            p->copiedThisRun = std::max<qint64>(0, p->copiedThisRun - std::max<qint64>(0, p->consumedNext - base));
            p->ring.clear();
            p->consumedNext = base;
            p->resumeFrom = base;
            p->failedOffset = -1;
            p->atEof = false;
            if (m_spec.stop == StopCondition::AfterRecords)
                p->done = p->copiedThisRun >= m_spec.stopAfterRecords;
            // The map forgets what the aborted transaction copied; the rest is
            // written again in the next one.
            p->map.rewind(base);
            ++rewound;
        }
    }
    std::erase_if(m_pending, [&](const MessagePtr &m) {
        PartState *p = m ? partFor(topicFor(m->rkt), m->partition) : nullptr;
        return !p || p->resumeFrom >= 0;
    });
    if (++m_txnAborts > 5) {
        fail(QStringLiteral("exactly-once: %1 transactions aborted in a row; the last because it %2")
                 .arg(m_txnAborts - 1)
                 .arg(why));
        return;
    }
    event(JobEvent::Severity::Warning,
          QStringLiteral("exactly-once: transaction aborted (%1); %2 partitions copy again "
                         "from their committed progress")
              .arg(why)
              .arg(rewound));
    applyPauses(); // the seeks back
}

bool MirrorWorker::stretchTransaction(Clock::time_point now)
{
    // While the job catches up, a record's wait is the backlog ahead of it,
    // not the transaction: each commit then only costs throughput (the
    // producer drains, the coordinator writes, the next transaction registers
    // its partitions). So a transaction with at least as many records waiting
    // behind it as it holds goes on, up to its record budget and a second.
    const auto interval = std::chrono::milliseconds(m_spec.transactionIntervalMs);
    if (now - m_txnBegan >= std::max<std::chrono::milliseconds>(interval, kTxnStretchMax))
        return false;
    if (now < m_txnStretchCheck)
        return m_txnStretching;
    m_txnStretchCheck = now + std::chrono::milliseconds(10);
    qint64 waiting = 0;
    for (auto &[name, t] : m_topics) {
        for (auto &p : t->parts) {
            // A paused, finished or blocked partition's backlog is not being
            // copied: it must not hold the others' commits back.
            if (!p || !p->assigned || p->pausedActual || p->done || p->blocked || p->consumedNext < 0)
                continue;
            int64_t lo = -1, hi = -1;
            // Cached from fetch responses: no broker round trip.
            if (rd_kafka_get_watermark_offsets(m_consumer.get(), t->nameUtf8.constData(), p->partition, &lo, &hi) ==
                    RD_KAFKA_RESP_ERR_NO_ERROR &&
                hi > p->consumedNext)
                waiting += hi - p->consumedNext;
        }
    }
    m_txnStretching = waiting >= std::max<qint64>(m_txnRecords, 1);
    return m_txnStretching;
}

void MirrorWorker::tickTransactions(Clock::time_point now)
{
    if (m_txnAbortPending) {
        if (flushProducer(kFlushTimeoutMs))
            abortTransaction(m_txnAbortWhy);
        return;
    }
    const auto interval = std::chrono::milliseconds(m_spec.transactionIntervalMs);
    if (m_txnOpen && (now - m_txnBegan >= interval || transactionFull())) {
        if (!transactionFull() && stretchTransaction(now))
            return;
        commitTransaction(nullptr, false, false);
        m_nextCommit = Clock::now() + std::chrono::seconds(1);
    } else if (!m_txnOpen && now >= m_nextCommit) {
        // Progress without records (control markers, aborted source
        // transactions at the end): an offsets-only transaction now and then.
        commitTransaction(nullptr, false, false);
        m_nextCommit = Clock::now() + std::chrono::seconds(1);
    }
}

// ---------------------------------------------------------------- progress on the target

void MirrorWorker::claimPartitions(rd_kafka_topic_partition_list_t *parts)
{
    // Before any record of a newly assigned partition is written, its
    // committed offset names this run: whoever takes it next fences this run
    // unless it hands the partition over. Partitions without progress get a
    // number for their start first (a logical "beginning" cannot be claimed).
    for (int i = 0; i < parts->cnt; ++i) {
        rd_kafka_topic_partition_t &e = parts->elems[i];
        PartState *p = partFor(topicByName(QString::fromUtf8(e.topic)), e.partition);
        p->claimed = false;
        p->releasedWritten = false;
        if (e.offset >= 0 || (e.offset != RD_KAFKA_OFFSET_BEGINNING && e.offset != RD_KAFKA_OFFSET_END))
            continue;
        int64_t lo = -1, hi = -1;
        if (rd_kafka_query_watermark_offsets(m_consumer.get(), e.topic, e.partition, &lo, &hi, 10000) !=
            RD_KAFKA_RESP_ERR_NO_ERROR)
            continue; // left logical: claimed with its first commit
        e.offset = e.offset == RD_KAFKA_OFFSET_BEGINNING ? lo : hi;
        p->consumedNext = e.offset;
    }
    commitTransaction(nullptr, false, false);
}

bool MirrorWorker::readTargetProgress(rd_kafka_topic_partition_list_t *list, bool stable)
{
    // While the target group's coordinator moves (its broker killed, a new one
    // loading the group) the read fails, often at once, for as long as that
    // takes: ask again, paced, until a deadline rather than a number of times
    // (six quick failures stopped an exactly-once job 27 s after a kill -9 of
    // the coordinator in the chaos lane). Authorization does not come back.
    // A Stop or Abort ends the wait (the caller then assigns nothing new).
    using namespace std::chrono;
    const auto deadline = steady_clock::now() + (stable ? seconds(120) : seconds(15));
    rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR__TIMED_OUT;
    bool told = false;
    while (!stopAsked()) {
        for (int i = 0; i < list->cnt; ++i)
            list->elems[i].offset = RD_KAFKA_OFFSET_INVALID;
        err = rd_kafka_committed((stable ? m_progressReader : m_ownerReader).get(), list, 5000);
        if (!err)
            return true;
        if (err == RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED ||
            err == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED || steady_clock::now() >= deadline)
            return false;
        if (stable && !told) {
            told = true;
            event(JobEvent::Severity::Warning,
                  QStringLiteral("exactly-once: the progress of group %1 on the target cannot be read yet (%2); "
                                 "asking again for up to %3 s before copying the assigned partitions")
                      .arg(m_groupId, kafkaErrorText(err))
                      .arg(duration_cast<seconds>(deadline - steady_clock::now()).count()));
        }
        for (int i = 0; i < 5 && !stopAsked(); ++i)
            std::this_thread::sleep_for(milliseconds(100));
    }
    return false;
}

bool MirrorWorker::fenceTransactionalId(const QString &id)
{
    // A producer of the old id, registered once: the coordinator aborts the
    // old owner's open transaction and bumps the epoch, so the old owner can
    // never write or commit again.
    ConfResult pc = makeKafkaConf(m_spec.target, ClientRole::Producer,
                                  {{QStringLiteral("transactional.id"), id},
                                   {QStringLiteral("enable.idempotence"), QStringLiteral("true")},
                                   {QStringLiteral("acks"), QStringLiteral("all")}});
    if (!pc.conf)
        return false;
    char errstr[512];
    KafkaPtr fencer(rd_kafka_new(RD_KAFKA_PRODUCER, pc.conf.get(), errstr, sizeof errstr));
    if (!fencer)
        return false;
    (void)pc.conf.release();
    for (int attempt = 0; attempt < 6 && !stopAsked(); ++attempt) {
        ErrorPtr err(rd_kafka_init_transactions(fencer.get(), 10000));
        if (!err)
            return true;
        if (!rd_kafka_error_is_retriable(err.get()) && rd_kafka_error_code(err.get()) != RD_KAFKA_RESP_ERR__TIMED_OUT) {
            event(JobEvent::Severity::Warning, QStringLiteral("exactly-once: could not fence transactional id %1: %2")
                                                   .arg(id, QString::fromUtf8(rd_kafka_error_string(err.get()))));
            return false;
        }
    }
    return false;
}

void MirrorWorker::mergeTargetProgress(rd_kafka_topic_partition_list_t *committed, rd_kafka_resp_err_t *sourceErr)
{
    // Kept under the target topics' names (commitTransaction).
    PartitionListPtr target(rd_kafka_topic_partition_list_new(committed->cnt + 1));
    for (int i = 0; i < committed->cnt; ++i)
        rd_kafka_topic_partition_list_add(
            target.get(), targetTopicName(m_spec, QString::fromUtf8(committed->elems[i].topic)).toUtf8().constData(),
            committed->elems[i].partition);
    // Who owns them, as last committed (no wait), else as a stable read says.
    PartitionListPtr owned(rd_kafka_topic_partition_list_copy(target.get()));
    bool ok = readTargetProgress(owned.get(), false) || readTargetProgress(owned.get(), true);
    if (ok) {
        QSet<QString> owners;
        for (int i = 0; i < owned->cnt; ++i) {
            const QString owner = owned->elems[i].err ? QString() : ownerOf(owned->elems[i]);
            if (!owner.isEmpty() && owner != m_txnId)
                owners.insert(owner);
        }
        for (const QString &owner : std::as_const(owners)) {
            if (fenceTransactionalId(owner))
                event(JobEvent::Severity::Info,
                      QStringLiteral("exactly-once: fenced transactional id %1, an earlier owner of partitions now "
                                     "assigned here that did not hand them over")
                          .arg(owner));
            else
                fail(QStringLiteral("exactly-once: could not fence transactional id %1 that still owns partitions "
                                    "assigned here; stopping rather than risk copying records twice")
                         .arg(owner));
        }
        if (!m_fatal.isEmpty() || m_stopping || m_aborting)
            return;
        ok = readTargetProgress(target.get(), true); // what a fenced owner had committed, and no more
    }
    if (!ok && (m_stopping || m_aborting))
        return; // stopped while waiting: nothing of these partitions is copied (assignPartitions)
    if (!ok) {
        fail(QStringLiteral("exactly-once: could not read the job's progress from group %1 on the target kafka %2; "
                            "stopping rather than copy records twice")
                 .arg(m_groupId, m_spec.target.bootstrap));
        return;
    }
    // The target's progress wins; the source group's copy follows it and is
    // ahead only after a run in at-least-once mode (a switch keeps progress).
    for (int i = 0; i < committed->cnt; ++i) {
        rd_kafka_topic_partition_t &e = committed->elems[i];
        const rd_kafka_topic_partition_t *t = &target->elems[i]; // same order
        const qint64 fromTarget = t && !t->err ? t->offset : -1;
        if (*sourceErr) {
            e.offset = RD_KAFKA_OFFSET_INVALID;
            e.err = fromTarget >= 0 ? RD_KAFKA_RESP_ERR_NO_ERROR : *sourceErr;
        }
        if (fromTarget >= 0 && (e.err || e.offset < fromTarget)) {
            e.offset = fromTarget;
            e.err = RD_KAFKA_RESP_ERR_NO_ERROR;
        }
    }
    *sourceErr = RD_KAFKA_RESP_ERR_NO_ERROR;
}

} // namespace md
