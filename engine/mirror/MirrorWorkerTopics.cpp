#include "engine/mirror/MirrorWorker.h"

#include "engine/core/ClusterConfig.h"
#include "engine/mirror/TopicNaming.h"

namespace md {

namespace {

// A target topic that could not be created or grown is tried again after
// 2 s, then twice as long each time up to 30 s: each attempt can block the
// engine thread for an admin timeout, but the usual failure is brief (a
// created topic the broker has not put in its metadata yet; ten jobs that
// create their targets at once on one broker waited a whole 30 s for it).
constexpr std::chrono::seconds kFirstSyncRetry(2);
constexpr std::chrono::seconds kMaxSyncRetry(30);

} // namespace

// ---------------------------------------------------------------- topics

bool MirrorWorker::applySyncResult(TopicState *t, const TopicSyncResult &r, bool refreshProducer)
{
    for (const QString &s : r.infos)
        event(JobEvent::Severity::Info, s);
    for (const QString &s : r.warnings)
        event(JobEvent::Severity::Warning, s);
    const int before = t->targetPartitions;
    const bool wasReady = t->targetReady;
    if (r.targetPartitions > 0) {
        t->targetPartitions = r.targetPartitions;
        t->targetReady = true;
    }
    const bool grown = t->targetReady && (t->targetPartitions != before || !wasReady);
    if (grown && refreshProducer) {
        // Let the producer see the new (or recreated) topic and partitions
        // before it is asked to use them.
        const rd_kafka_metadata_t *raw = nullptr;
        if (rd_kafka_metadata(m_producer.get(), 0, t->targetRkt.get(), &raw, 5000) == RD_KAFKA_RESP_ERR_NO_ERROR)
            MetadataPtr(raw).reset();
    }
    if (!r.error.isEmpty()) {
        t->syncRetryDelay = std::clamp(2 * t->syncRetryDelay, kFirstSyncRetry, kMaxSyncRetry);
        t->nextSyncAttempt = Clock::now() + t->syncRetryDelay;
        // The refresh that tries again comes no later than the attempt is due.
        m_nextRefresh = std::min(m_nextRefresh, t->nextSyncAttempt);
        if (r.error != t->lastError)
            event(JobEvent::Severity::Error,
                  t->targetReady
                      ? r.error + QStringLiteral("; partitions beyond %1 are not mirrored").arg(t->targetPartitions)
                      : r.error);
        t->lastError = r.error;
    } else {
        t->lastError.clear();
        t->syncRetryDelay = std::chrono::seconds(0);
    }
    for (auto &p : t->parts)
        if (p && p->blocked && p->partition < t->targetPartitions)
            p->blocked = false;
    return grown;
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
    applySyncResult(t, syncTargetTopic(m_consumer.get(), m_producer.get(), m_spec, src.topics.value(t->name),
                                       t->targetName, tgt, 5000));
    return t->targetReady && partition < t->targetPartitions;
}

void MirrorWorker::refreshTopics()
{
    const ClusterTopics src = readClusterTopics(m_consumer.get(), 5000);
    if (!src.ok) {
        m_sourceKnown = false;
        m_sourceTrouble = true;
        debouncedEvent(QStringLiteral("source-down"), JobEvent::Severity::Warning,
                       QStringLiteral("source kafka %1 unreachable: cannot list topics: %2")
                           .arg(m_spec.source.bootstrap, src.error));
        reviveBrokers(false);
        return;
    }
    m_sourceKnown = true;
    QSet<QString> selected;
    for (auto it = src.topics.cbegin(); it != src.topics.cend(); ++it)
        if (topicSelected(m_spec, it.key()))
            selected.insert(it.key());
    for (auto &[name, t] : m_topics) {
        const bool present = src.topics.contains(name);
        if (!present && m_selected.contains(name) && !t->missing) {
            t->missing = true;
            event(JobEvent::Severity::Warning,
                  QStringLiteral("source topic %1 was deleted; its copy %2 on the target is kept")
                      .arg(name, t->targetName));
        } else if (present && t->missing && selected.contains(name)) {
            // Its old progress (if the group still has any) is for another log.
            t->missing = false;
            t->recreated = true;
            t->topicId.clear();
            event(JobEvent::Severity::Warning,
                  QStringLiteral("source topic %1 was recreated: copying it from its first record").arg(name));
        }
    }
    if (selected.isEmpty())
        debouncedEvent(QStringLiteral("nomatch"), JobEvent::Severity::Warning,
                       QStringLiteral("no source topic matches the job's include patterns"));
    QList<qint64> selectedPartitions;
    for (const QString &name : selected)
        selectedPartitions << src.topics.value(name).partitions;
    sizeConsumer(selectedPartitions);

    ClusterTopics tgt;
    bool tgtRead = false;
    QStringList names(selected.cbegin(), selected.cend());
    names.sort();
    QList<TopicSyncRequest> sync;
    QList<TopicState *> syncing;
    for (const QString &name : names) {
        TopicState *t = topicByName(name);
        const TopicShape &si = src.topics[name];
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
                    reviveBrokers(true);
                }
            }
            if (tgt.ok && Clock::now() >= t->nextSyncAttempt) {
                sync << TopicSyncRequest{si, t->targetName};
                syncing << t;
            }
        }
    }
    // All at once: a job over 200 new topics creates them in two requests.
    const QList<TopicSyncResult> synced =
        sync.isEmpty() ? QList<TopicSyncResult>()
                       : syncTargetTopics(m_consumer.get(), m_producer.get(), m_spec, sync, tgt, 5000);
    bool grown = false;
    for (qsizetype i = 0; i < syncing.size(); ++i)
        grown = applySyncResult(syncing[i], synced.value(i), syncing.size() == 1) || grown;
    if (grown && syncing.size() > 1) {
        // One read of all topics updates every topic the producer knows, in
        // place of a request per new topic.
        const rd_kafka_metadata_t *raw = nullptr;
        if (rd_kafka_metadata(m_producer.get(), 1, nullptr, &raw, 5000) == RD_KAFKA_RESP_ERR_NO_ERROR)
            MetadataPtr(raw).reset();
    }
    QStringList wanted;
    for (const QString &name : names)
        if (topicByName(name)->targetReady)
            wanted << name;
    m_selected = selected;
    m_topicIds.ask(m_consumer.get(), names, Clock::now()); // a recreated topic: pollTopicIds
    if (wanted != m_subscribed) {
        for (const QString &name : wanted)
            if (!m_subscribedSet.contains(name))
                event(JobEvent::Severity::Info,
                      QStringLiteral("mirroring %1 to %2").arg(name, m_topics.at(name)->targetName));
        if (wanted.isEmpty()) {
            rd_kafka_unsubscribe(m_consumer.get());
        } else {
            PartitionListPtr list(rd_kafka_topic_partition_list_new(int(wanted.size())));
            for (const QString &name : wanted)
                rd_kafka_topic_partition_list_add(list.get(), m_topics.at(name)->nameUtf8.constData(),
                                                  RD_KAFKA_PARTITION_UA);
            if (const rd_kafka_resp_err_t err = rd_kafka_subscribe(m_consumer.get(), list.get()))
                event(JobEvent::Severity::Error, QStringLiteral("could not subscribe: %1").arg(kafkaErrorText(err)));
        }
        m_subscribed = wanted;
        m_subscribedSet = QSet<QString>(wanted.begin(), wanted.end());
        m_rebalancePending = !wanted.isEmpty();
    }
    applyPauses();
}

} // namespace md
