#include "engine/mirror/MirrorWorker.h"

#include "engine/core/ClusterConfig.h"
#include "engine/core/KafkaError.h"
#include "engine/mirror/TopicNaming.h"

#include <algorithm>
#include <cstring>

namespace md {

namespace {

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

} // namespace

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
                if (p->consumedNext >= 0 && m->offset != p->consumedNext)
                    noteJump(p, m->offset, true);
                p->consumedNext = std::max(p->consumedNext, qint64(m->offset));
                p->atEof = true;
            }
            if (m_sourceTrouble) {
                m_sourceTrouble = false;
                event(JobEvent::Severity::Info,
                      QStringLiteral("source kafka %1 reachable again").arg(m_spec.source.bootstrap));
            }
        } else {
            const QString where =
                m->rkt
                    ? QStringLiteral(" (%1/%2)").arg(QString::fromUtf8(rd_kafka_topic_name(m->rkt))).arg(m->partition)
                    : QString();
            const QString text =
                QStringLiteral("source kafka %1: %2%3")
                    .arg(m_spec.source.bootstrap, QString::fromUtf8(rd_kafka_message_errstr(m)), where);
            debouncedEvent(QStringLiteral("source-msg-%1%2").arg(int(m->err)).arg(where), JobEvent::Severity::Warning,
                           text);
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
    if (!m_originHeader.isEmpty()) {
        if (m_targetClusterId.isEmpty() || m_sourceClusterId.isEmpty()) {
            if (!originIdsKnown()) {
                // Not judged without both ids: held like a partition whose target is not ready.
                p->blocked = true;
                p->resumeFrom = m->offset;
                applyPauses();
                msg.reset();
                return true;
            }
            event(JobEvent::Severity::Info,
                  QStringLiteral("copies carry header %1 = %2 (this source's cluster id); records whose %1 is "
                                 "the target's (%3) came from there and are not copied back")
                      .arg(QString::fromUtf8(m_originHeader), QString::fromUtf8(m_sourceClusterId),
                           QString::fromUtf8(m_targetClusterId)));
        }
        if (cameFromTarget(m)) {
            // Passed over like a record outside the stop time: progress moves past it.
            p->consumedNext = m->offset + 1;
            p->atEof = false;
            ++m_originSkipped;
            msg.reset();
            return true;
        }
    }
    if (!m_map.settled()) [[unlikely]] {
        // The map topic is still being created: nothing is copied before the
        // job knows it can keep its map, so a refusal stops it with nothing on
        // the target that the next run (or a plain migration) copies again.
        // Held in line like backpressure; tick() takes the answer.
        m_backpressure = true;
        return false;
    }
    if (m_inFlight >= m_inFlightWindow && !m_operatorWindow) {
        m_backpressure = true; // waits in line until acknowledgements make room
        return false;
    }
    // Headers move from the consumed message to the produced one (no copy).
    // librdkafka parses them on every ask when a record has none (nothing
    // is cached then), so they are asked for once.
    rd_kafka_headers_t *hdrs = nullptr;
    if (rd_kafka_message_detach_headers(m, &hdrs) != RD_KAFKA_RESP_ERR_NO_ERROR)
        hdrs = nullptr;
    if (!m_originHeader.isEmpty())
        stampOrigin(&hdrs);
    const qint64 bytes = qint64(m->len) + qint64(m->key_len) + headerBytes(hdrs);
    if (!m_throttle.mayTake()) {
        if (hdrs)
            rd_kafka_message_set_headers(m, hdrs); // back to the message while it waits
        return false;                              // in line until the budget refills
    }
    if (eos() && !p->claimed) {
        // Its committed offset must name this run before a record of it is
        // written (a target partition that appeared since the assignment).
        if (p->consumedNext < 0)
            p->consumedNext = m->offset;
        commitTransaction(nullptr, false, false);
        if (!p->claimed || p->resumeFrom >= 0) {
            if (p->resumeFrom < 0 && m_fatal.isEmpty()) {
                p->resumeFrom = m->offset; // fetched again once claimed
                applyPauses();
            }
            if (hdrs)
                rd_kafka_message_set_headers(m, hdrs);
            msg.reset();
            return true;
        }
    }
    if (eos() && !beginTransaction()) {
        if (hdrs)
            rd_kafka_message_set_headers(m, hdrs);
        msg.reset();
        return true;
    }
    SchemaUndo schemaUndo;
    if (m_schemaSync && !schemaIdsReady(p, m, &schemaUndo)) {
        if (hdrs)
            rd_kafka_message_set_headers(m, hdrs);
        msg.reset();
        return true;
    }
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
            undoSchemaIds(m, schemaUndo); // rewritten again when it is taken
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
        if (code > 0 && !eos()) {
            // A broker's answer that the producer remembers for the topic
            // (a lost WRITE permission): refused like a delivery, so the
            // partition is replayed, then parked (serviceReplays), alone.
            if (p->failedOffset < 0 || m->offset < p->failedOffset)
                p->failedOffset = m->offset;
            m_replaysPending = true;
            p->lastFailure = QString::fromUtf8(rd_kafka_err2str(code));
            p->lastFailureCode = code;
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

    if (p->consumedNext >= 0 && m->offset != p->consumedNext) [[unlikely]]
        noteJump(p, m->offset, false);

    if (eos())
        noteTransactional(p, p->consumedNext >= 0 ? p->consumedNext : m->offset);
    p->ring.push(m->offset, qint32(bytes), ts);
    ++m_inFlight;
    p->consumedNext = m->offset + 1;
    p->atEof = false;
    p->lastConsumedTs = ts;
    ++m_recordsConsumed;
    m_bytesConsumed += bytes;
    m_throttle.took(bytes);
    if (m_spec.stop == StopCondition::AfterRecords && ++p->copiedThisRun >= m_spec.stopAfterRecords) {
        p->done = true;
        applyPauses();
    }
    return true;
}

void MirrorWorker::noteJump(PartState *p, qint64 offset, bool eof)
{
    const qint64 expected = p->consumedNext;
    const QString where = QStringLiteral("%1/%2").arg(p->topic->name).arg(p->partition);
    if (offset < expected) {
        // Back without a seek of ours: the log under the job was replaced
        // (topic deleted and recreated) or truncated.
        event(JobEvent::Severity::Warning,
              QStringLiteral("%1: the source log went back from offset %2 to %3 (topic recreated or truncated); "
                             "copying it from there")
                  .arg(where)
                  .arg(expected)
                  .arg(offset));
        if (!eof)
            p->ring.clear(); // what is still in flight belongs to the old log; its reports are ignored
        p->consumedNext = offset;
        return;
    }
    // Forward: compaction and transaction markers leave gaps in the offsets,
    // but never move the log start. A log start past what the job expected
    // means retention or DeleteRecords removed records it had not copied.
    int64_t lo = -1, hi = -1;
    if (rd_kafka_get_watermark_offsets(m_consumer.get(), p->topic->nameUtf8.constData(), p->partition, &lo, &hi) !=
            RD_KAFKA_RESP_ERR_NO_ERROR ||
        lo <= expected)
        return;
    const qint64 gone = std::min<qint64>(lo, offset) - expected;
    if (gone <= 0)
        return;
    p->vanished += gone;
    event(
        JobEvent::Severity::Warning,
        QStringLiteral("%1: %2 records vanished from the source before they were copied (offsets %3 to %4, removed by "
                       "retention or DeleteRecords); continuing at %5")
            .arg(where)
            .arg(gone)
            .arg(expected)
            .arg(expected + gone - 1)
            .arg(offset));
}

void MirrorWorker::drainPending()
{
    while (!m_pending.empty()) {
        // Taken out of the line before it is handled: handling it may drop
        // other records from the line (a seek back, an aborted transaction),
        // which must not move or free the one in hand.
        MessagePtr msg = std::move(m_pending.front());
        m_pending.pop_front();
        if (!msg)
            continue;
        if (!handleMessage(msg)) {
            m_pending.push_front(std::move(msg)); // could not take it now: first in line again
            rd_kafka_poll(m_producer.get(), 10);  // let delivery reports free queue space
            return;
        }
    }
    m_backpressure = false;
}

void MirrorWorker::onDelivery(const rd_kafka_message_t *dm)
{
    // Offset map records share the producer; their opaque is a MapWrite.
    if (m_map.isMapRecord(dm)) [[unlikely]] {
        m_map.onDelivery(dm);
        return;
    }
    MessagePtr src(static_cast<rd_kafka_message_t *>(dm->_private)); // released at the end of this report
    --m_inFlight;
    m_targetSilence.delivered();
    PartState *p = partFor(topicFor(src->rkt), src->partition);
    // Delivered without an offset is not the broker's word (writeConfirmed):
    // the 20-minute chaos soak lost 3,787 records reported so, the offset
    // map saying target offset -1001 for each. Such a record is copied again.
    const bool ok = writeConfirmed(dm);
    const QString failure = ok ? QString() : unconfirmedWriteText(dm);
    qint32 bytes = 0;
    if (!p || !p->ring.complete(src->offset, ok, &bytes))
        return; // stale: the partition was revoked or replayed meanwhile
    if (ok) {
        if (!m_map.off()) // the map segments written at the next commit
            p->map.noteCopied(src->offset, dm->offset);
        ++p->records;
        p->bytes += bytes;
        ++m_recordsProduced;
        m_bytesProduced += bytes;
        if (p->parked) [[unlikely]]
            unpark(p, src->offset);
        rd_kafka_timestamp_type_t tsType = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
        const qint64 ts = rd_kafka_message_timestamp(src.get(), &tsType);
        if (tsType != RD_KAFKA_TIMESTAMP_NOT_AVAILABLE) {
            m_latency.add(double(nowMs() - ts));
            p->lastAckedTs = ts;
        }
        if (m_targetTrouble) {
            m_targetTrouble = false;
            // What piled up during the outage is acknowledged in a burst
            // now: commit it as it comes (tick), not a second later each
            // time, so a crash just after the target's return does not copy
            // it all again.
            m_nextCommit = Clock::now();
            m_quickCommitsUntil = Clock::now() + std::chrono::seconds(3);
            event(JobEvent::Severity::Info,
                  QStringLiteral("target kafka %1 reachable again").arg(m_spec.target.bootstrap));
        }
        return;
    }
    if (eos()) {
        // In a transaction a failed record fails the transaction: it aborts
        // and everything it held is copied again (abortTransaction).
        if (dm->err != RD_KAFKA_RESP_ERR__PURGE_QUEUE && dm->err != RD_KAFKA_RESP_ERR__PURGE_INFLIGHT &&
            !m_txnAbortPending) {
            m_txnAbortPending = true;
            m_txnAbortWhy = QStringLiteral("the target did not take %1/%2 offset %3: %4")
                                .arg(p->topic->name)
                                .arg(p->partition)
                                .arg(src->offset)
                                .arg(failure);
        }
        return;
    }
    if (p->failedOffset < 0 || src->offset < p->failedOffset)
        p->failedOffset = src->offset;
    m_replaysPending = true;
    if (const qint64 size = qint64(src->len) + qint64(src->key_len); size > p->largestRefusedBytes) {
        p->largestRefusedBytes = size;
        p->largestRefusedOffset = src->offset;
    }
    p->lastFailure = failure;
    p->lastFailureCode = dm->err;
    if (dm->err != RD_KAFKA_RESP_ERR__PURGE_QUEUE && dm->err != RD_KAFKA_RESP_ERR__PURGE_INFLIGHT)
        debouncedEvent(QStringLiteral("delivery-%1-%2").arg(p->topic->name).arg(p->partition),
                       JobEvent::Severity::Warning,
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
    // Every tick, so only when a delivery failed: a walk of 2,000 partitions
    // per tick was a quarter of an idle job's CPU.
    if (!m_replaysPending)
        return;
    bool changed = false;
    bool pending = false;
    for (auto &[name, t] : m_topics) {
        for (auto &p : t->parts) {
            if (p && p->failedOffset >= 0)
                pending = true; // waits for its records in flight, or parked: looked at again
            if (!p || p->failedOffset < 0 || p->ring.inFlight() > 0 || !p->assigned)
                continue;
            const auto now = Clock::now();
            if (p->parked) {
                if (now < p->retryAt)
                    continue;
                // Tried again quietly: the event said it waits; unpark says when it goes on.
                p->retryAt = now + std::chrono::seconds(std::min(30, 5 << std::min(++p->parkRetries, 3)));
            } else {
                p->failures = p->lastFailedOffset == p->failedOffset ? p->failures + 1 : 1;
                p->lastFailedOffset = p->failedOffset;
                if (p->failures > 5) {
                    park(p.get());
                    continue;
                }
                event(JobEvent::Severity::Warning,
                      QStringLiteral("replaying %1/%2 from offset %3 after a failed delivery")
                          .arg(t->name)
                          .arg(p->partition)
                          .arg(p->failedOffset));
            }
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
    // A partition replayed just now counts as pending once more: the next walk finds nothing and ends it.
    m_replaysPending = pending;
    if (changed)
        applyPauses();
}

void MirrorWorker::park(PartState *p)
{
    p->parked = true;
    p->parkRetries = 0;
    p->retryAt = Clock::now() + std::chrono::seconds(5);
    const TopicState *t = p->topic;
    QString culprit;
    const bool tooLarge = p->lastFailureCode == RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE ||
                          p->lastFailureCode == RD_KAFKA_RESP_ERR_RECORD_LIST_TOO_LARGE;
    if (p->lastFailureCode == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED)
        culprit = QStringLiteral(" (the target user needs WRITE on topic %1)").arg(t->targetName);
    else if (tooLarge && p->largestRefusedOffset >= 0)
        culprit = QStringLiteral(" (its largest refused record, offset %1, has %2 bytes of key and value)")
                      .arg(p->largestRefusedOffset)
                      .arg(p->largestRefusedBytes);
    event(JobEvent::Severity::Error,
          QStringLiteral("stopped copying %1/%2 at offset %3: target topic %4 refused it 5 times: %5%6. Nothing of "
                         "it is skipped: it is tried again after 5 s, then less often down to every 30 s, and "
                         "goes on once the target takes it (for example after raising the target topic's "
                         "max.message.bytes or granting WRITE); the other partitions go on")
              .arg(t->name)
              .arg(p->partition)
              .arg(p->failedOffset)
              .arg(t->targetName, p->lastFailure, culprit));
}

void MirrorWorker::unpark(PartState *p, qint64 offset)
{
    p->parked = false;
    p->failures = 0;
    p->parkRetries = 0;
    p->largestRefusedOffset = -1;
    p->largestRefusedBytes = 0;
    event(JobEvent::Severity::Info, QStringLiteral("target topic %1 takes %2/%3 again (offset %4 copied)")
                                        .arg(p->topic->targetName, p->topic->name)
                                        .arg(p->partition)
                                        .arg(offset));
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
            const bool want =
                m_userPaused || m_stopping || p->done || p->blocked || p->schemaWaiting || p->failedOffset >= 0;
            if (want && !p->pausedActual) {
                rd_kafka_topic_partition_list_add(pause.get(), t->nameUtf8.constData(), p->partition);
                p->pausedActual = true;
            } else if (!want && p->pausedActual) {
                rd_kafka_topic_partition_list_add(resume.get(), t->nameUtf8.constData(), p->partition);
                p->pausedActual = false;
            }
            if (!want && p->resumeFrom >= 0) {
                rd_kafka_topic_partition_list_add(seek.get(), t->nameUtf8.constData(), p->partition)->offset =
                    p->resumeFrom;
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
        std::vector<PartState *> sought;
        for (int i = 0; i < seek->cnt; ++i) {
            if (!err && !seek->elems[i].err) {
                seeking[size_t(i)]->resumeFrom = -1;
                sought.push_back(seeking[size_t(i)]);
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
        // What was polled before a seek comes again after it. Left in line it
        // would pass once resumeFrom is cleared, and the records between the
        // seek's offset and it would be skipped (seen as a forward gap): a
        // partition waiting for its claim sought to each of its records in
        // line in turn and went on after the last one.
        if (!sought.empty())
            std::erase_if(m_pending, [&](const MessagePtr &m) {
                PartState *p = m ? partFor(topicFor(m->rkt), m->partition) : nullptr;
                return p && std::find(sought.begin(), sought.end(), p) != sought.end();
            });
    }
}

} // namespace md
