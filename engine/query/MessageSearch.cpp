#include "engine/query/MessageSearch.h"

#include "engine/core/BackgroundPriority.h"
#include "engine/core/KafkaError.h"
#include "engine/core/KafkaHandles.h"
#include "engine/core/Tasks.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLocale>

#include <algorithm>
#include <vector>

namespace md {

namespace {

QString count(qint64 n)
{
    return QLocale(QLocale::English).toString(qlonglong(n));
}

// Backwards, each partition is read in chunks from its end towards its start;
// a chunk's matches are shown newest first before the next chunk is read.
constexpr qint64 backwardsChunkRecords = 200000; // per round, over all partitions
constexpr qint64 minChunkPerPartition = 1000;
constexpr int batchSize = 4096;
constexpr int reportEveryMs = 100;

struct PartitionScan {
    int partition = -1;
    qint64 low = 0;  // the log start when the search began
    qint64 from = 0; // the range being read: [from, to)
    qint64 to = 0;
    bool active = false;
};

class Searcher {
public:
    Searcher(const SearchSpec &spec, const std::atomic_bool *cancel, const SearchBatch &batch)
        : m_spec(spec), m_cancel(cancel), m_batch(batch), m_topic(spec.topic.toUtf8())
    {
    }

    SearchResult run()
    {
        if (m_spec.topic.isEmpty())
            return fail(QStringLiteral("search: no topic given"));
        if (m_spec.maxMatches < 1)
            return fail(QStringLiteral("search: the match limit must be at least 1"));
        QString error;
        std::optional<CompiledFilter> filter = CompiledFilter::compile(m_spec.filter, &error);
        if (!filter)
            return fail(QStringLiteral("search: ") + error);
        m_filter = std::move(*filter);
        std::shared_ptr<RegistryDecoders> decoders = m_spec.decoders;
        if (!decoders && m_spec.cluster.schemaRegistry.isSet())
            decoders = std::make_shared<RegistryDecoders>(m_spec.cluster.schemaRegistry);
        if (decoders)
            m_decoders = decoders->cache();
        if (!plan() || !openConsumer())
            return m_result;
        if (m_spec.start == SearchSpec::Start::EndBackwards)
            searchBackwards();
        else
            scanRound(false);
        m_result.cancelled = m_result.error.isEmpty() && m_stoppedByCancel && !m_result.limitReached;
        report(true);
        return m_result;
    }

private:
    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }
    bool limitReached() const { return m_result.progress.matched >= m_spec.maxMatches; }

    SearchResult fail(const QString &error)
    {
        m_result.error = error;
        return m_result;
    }

    QString what() const { return QStringLiteral("cannot search topic \"%1\"").arg(m_spec.topic); }

    // Partitions and the ranges to read, from the offsets when the search starts.
    bool plan()
    {
        QString error;
        std::unique_ptr<AdminService> admin = AdminService::create(m_spec.cluster, &error, m_spec.timeoutMs);
        if (!admin) {
            fail(what() + QStringLiteral(": ") + error);
            return false;
        }
        QMap<QString, QList<int>> partitions;
        if (!admin->partitionsOf({m_spec.topic}, &partitions, &error)) {
            fail(what() + QStringLiteral(": ") + error);
            return false;
        }
        if (!partitions.contains(m_spec.topic)) {
            fail(what() + QStringLiteral(": the topic does not exist"));
            return false;
        }
        QList<TopicPartitionRef> parts;
        for (int p : partitions.value(m_spec.topic)) {
            if (m_spec.partition < 0 || p == m_spec.partition)
                parts.append({m_spec.topic, p});
        }
        if (parts.isEmpty()) {
            fail(what() + QStringLiteral(": the topic has no partition %1").arg(m_spec.partition));
            return false;
        }
        QMap<TopicPartitionRef, qint64> low, high, start;
        bool ok = admin->offsetsAt(parts, -2, &low, &error) && admin->offsetsAt(parts, -1, &high, &error);
        if (ok && m_spec.start == SearchSpec::Start::Timestamp)
            ok = admin->offsetsAt(parts, m_spec.timestampMs, &start, &error);
        if (!ok) {
            fail(what() + QStringLiteral(": ") + error);
            return false;
        }
        for (const TopicPartitionRef &tp : parts) {
            PartitionScan s;
            s.partition = tp.partition;
            s.low = low.value(tp);
            s.to = high.value(tp);
            switch (m_spec.start) {
            case SearchSpec::Start::Beginning:
            case SearchSpec::Start::EndBackwards: s.from = s.low; break;
            case SearchSpec::Start::Offset: s.from = qBound(s.low, m_spec.offset, s.to); break;
            case SearchSpec::Start::Timestamp: {
                const qint64 at = start.value(tp, -1);
                s.from = at < 0 ? s.to : qBound(s.low, at, s.to);
                break;
            }
            }
            m_result.progress.total += std::max<qint64>(0, s.to - s.from);
            m_scans.push_back(s);
        }
        if (m_spec.start == SearchSpec::Start::EndBackwards) {
            // Each round reads the chunk below the last one: start at the end.
            for (PartitionScan &s : m_scans)
                s.from = s.to;
        }
        return true;
    }

    bool openConsumer()
    {
        QString error;
        m_consumer = newBrowserConsumer(m_spec.cluster, &error);
        if (!m_consumer) {
            fail(what() + QStringLiteral(": ") + error);
            return false;
        }
        m_queue.reset(rd_kafka_queue_get_consumer(m_consumer.get()));
        return true;
    }

    // Backwards: chunks from the end down to each partition's start, newest first.
    void searchBackwards()
    {
        qint64 active = 0;
        for (const PartitionScan &s : m_scans)
            active += s.to > s.low ? 1 : 0;
        const qint64 chunk = m_spec.backwardsChunk > 0 ? m_spec.backwardsChunk : backwardsChunkRecords;
        const qint64 minimum = m_spec.backwardsChunk > 0 ? 1 : minChunkPerPartition;
        const qint64 perPartition = std::max(minimum, chunk / std::max<qint64>(1, active));
        for (;;) {
            bool any = false;
            for (PartitionScan &s : m_scans) {
                s.to = s.from; // the chunk below the previous one
                s.from = std::max(s.low, s.to - perPartition);
                any = any || s.from < s.to;
            }
            if (!any)
                return;
            if (cancelled()) { // between chunks: records were left unread
                m_stoppedByCancel = true;
                return;
            }
            if (!scanRound(true) || limitReached())
                return;
        }
    }

    // Reads every partition's [from, to) once. False on an error.
    bool scanRound(bool newestFirst)
    {
        PartitionListPtr assignment(rd_kafka_topic_partition_list_new(int(m_scans.size())));
        int left = 0;
        for (PartitionScan &s : m_scans) {
            s.active = s.from < s.to;
            if (!s.active)
                continue;
            rd_kafka_topic_partition_list_add(assignment.get(), m_topic.constData(), s.partition)->offset = s.from;
            ++left;
        }
        if (left == 0)
            return true;
        if (rd_kafka_resp_err_t err = rd_kafka_assign(m_consumer.get(), assignment.get())) {
            m_result.error = what() + QStringLiteral(": ") + kafkaErrorText(err);
            return false;
        }
        std::vector<rd_kafka_message_t *> batch(batchSize);
        std::vector<RecordView::Header> headers;
        QList<KafkaMessage> roundMatches;
        QElapsedTimer idle;
        idle.start();
        bool ok = true;
        while (left > 0 && !cancelled() && !(limitReached() && !newestFirst)) {
            const ssize_t n = rd_kafka_consume_batch_queue(m_queue.get(), 100, batch.data(), batch.size());
            if (n <= 0) {
                if (idle.elapsed() > m_spec.timeoutMs) {
                    m_result.error =
                        what() + QStringLiteral(": no record arrived within %1 s (%2 of %3 read)")
                                     .arg(m_spec.timeoutMs / 1000.0)
                                     .arg(count(m_result.progress.scanned), count(m_result.progress.total));
                    ok = false;
                    break;
                }
                report(false);
                continue;
            }
            idle.start();
            for (ssize_t i = 0; i < n; ++i) {
                MessagePtr msg(batch[size_t(i)]);
                // The rest of a batch is only released: a message kept would hold the consumer open.
                if (!ok || left == 0 || (!newestFirst && limitReached()))
                    continue;
                PartitionScan *s = scanOf(msg->partition);
                if (!s || !s->active)
                    continue;
                if (msg->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
                    s->active = false;
                    --left;
                    continue;
                }
                if (msg->err) {
                    if (msg->err == RD_KAFKA_RESP_ERR__TRANSPORT || msg->err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN)
                        continue; // librdkafka retries; the idle bound above ends a long outage
                    m_result.error =
                        what() + QStringLiteral(": ") + QString::fromUtf8(rd_kafka_message_errstr(msg.get()));
                    ok = false;
                    continue;
                }
                if (msg->offset >= s->to) {
                    s->active = false;
                    --left;
                    continue;
                }
                ++m_result.progress.scanned;
                if (consider(msg.get(), headers)) {
                    if (newestFirst)
                        roundMatches.append(matchFrom(msg.get()));
                    else if (!limitReached())
                        addMatch(matchFrom(msg.get()));
                }
                if (msg->offset + 1 >= s->to) {
                    s->active = false;
                    --left;
                }
            }
            if (!newestFirst)
                report(false);
            else
                report(false, /*progressOnly=*/true);
        }
        if (left > 0 && cancelled())
            m_stoppedByCancel = true;
        rd_kafka_assign(m_consumer.get(), nullptr);
        if (newestFirst) {
            const bool onePartition = m_scans.size() == 1;
            std::stable_sort(roundMatches.begin(), roundMatches.end(),
                             [onePartition](const KafkaMessage &a, const KafkaMessage &b) {
                                 if (onePartition)
                                     return a.offset > b.offset;
                                 return std::tie(a.timestampMs, a.partition, a.offset) >
                                        std::tie(b.timestampMs, b.partition, b.offset);
                             });
            for (KafkaMessage &m : roundMatches) {
                if (limitReached())
                    break;
                addMatch(std::move(m));
            }
            report(true);
        }
        return ok;
    }

    PartitionScan *scanOf(int partition)
    {
        // Partition ids are dense and ordered; a lookup table would not pay off below thousands.
        if (m_scans.size() == 1)
            return m_scans[0].partition == partition ? &m_scans[0] : nullptr;
        auto it = std::lower_bound(m_scans.begin(), m_scans.end(), partition,
                                   [](const PartitionScan &s, int p) { return s.partition < p; });
        return it != m_scans.end() && it->partition == partition ? &*it : nullptr;
    }

    bool consider(const rd_kafka_message_t *msg, std::vector<RecordView::Header> &headers)
    {
        RecordView r;
        r.keyNull = msg->key == nullptr;
        if (msg->key)
            r.key = std::string_view(static_cast<const char *>(msg->key), msg->key_len);
        r.valueNull = msg->payload == nullptr;
        if (msg->payload)
            r.value = std::string_view(static_cast<const char *>(msg->payload), msg->len);
        m_keyPart.reset();
        m_valuePart.reset();
        if (m_decoders) {
            // Only what a condition reads is decoded before the filter; matches get the rest.
            if (m_filter.usesKey() && !r.keyNull)
                r.key = decodedView(r.key, &m_keyPart);
            if (m_filter.usesValue() && !r.valueNull)
                r.value = decodedView(r.value, &m_valuePart);
        }
        rd_kafka_timestamp_type_t type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
        r.timestampMs = rd_kafka_message_timestamp(msg, &type);
        if (m_filter.needsHeaders()) {
            headers.clear();
            rd_kafka_headers_t *hdrs = nullptr; // owned by the message
            if (rd_kafka_message_headers(msg, &hdrs) == RD_KAFKA_RESP_ERR_NO_ERROR && hdrs) {
                const char *name = nullptr;
                const void *value = nullptr;
                size_t size = 0;
                for (size_t i = 0; rd_kafka_header_get_all(hdrs, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR;
                     ++i)
                    headers.push_back({std::string_view(name), std::string_view(static_cast<const char *>(value), size),
                                       value == nullptr});
            }
            r.headers = headers.data();
            r.headerCount = int(headers.size());
        }
        bool notJson = false;
        const bool match = m_filter.matches(r, &notJson);
        if (notJson)
            ++m_result.progress.notJson;
        return match;
    }

    // The decoded JSON when the bytes decode, else the bytes.
    std::string_view decodedView(std::string_view bytes, std::optional<DecodedPart> *part)
    {
        *part = m_decoders->decode(bytes.data(), bytes.size());
        if ((*part)->status != DecodedPart::Status::Decoded)
            return bytes;
        return std::string_view((*part)->json.constData(), size_t((*part)->json.size()));
    }

    // A matching record (consider() just saw it), its key and value decoded.
    KafkaMessage matchFrom(const rd_kafka_message_t *msg)
    {
        KafkaMessage m = kafkaMessageFrom(msg, m_spec.topic);
        if (m_decoders) {
            if (m_keyPart)
                m.keyDecoded = std::move(*m_keyPart);
            else if (m.key)
                m.keyDecoded = m_decoders->decode(*m.key);
            if (m_valuePart)
                m.valueDecoded = std::move(*m_valuePart);
            else if (m.value)
                m.valueDecoded = m_decoders->decode(*m.value);
        }
        return m;
    }

    void addMatch(KafkaMessage &&m)
    {
        ++m_result.progress.matched;
        m_pending.append(std::move(m));
        if (limitReached())
            m_result.limitReached = true;
    }

    void report(bool force, bool progressOnly = false)
    {
        if (!m_batch)
            return;
        if (!force && m_lastReport.isValid() && m_lastReport.elapsed() < reportEveryMs)
            return;
        m_lastReport.start();
        if (progressOnly) {
            m_batch({}, m_result.progress);
            return;
        }
        m_batch(m_pending, m_result.progress);
        m_pending.clear();
    }

    const SearchSpec &m_spec;
    const std::atomic_bool *m_cancel;
    const SearchBatch &m_batch;
    const QByteArray m_topic;
    CompiledFilter m_filter;
    std::shared_ptr<SchemaDecoderCache> m_decoders; // null: no registry
    std::optional<DecodedPart> m_keyPart;           // what consider() decoded of the current record
    std::optional<DecodedPart> m_valuePart;
    std::vector<PartitionScan> m_scans; // by partition id
    KafkaPtr m_consumer;
    QueuePtr m_queue; // released before the consumer (declared after it)
    QList<KafkaMessage> m_pending;
    SearchResult m_result;
    bool m_stoppedByCancel = false;
    QElapsedTimer m_lastReport;
};

} // namespace

QString SearchResult::summary() const
{
    if (!error.isEmpty())
        return error;
    const QString matches =
        progress.matched == 1 ? QStringLiteral("1 match") : QStringLiteral("%1 matches").arg(count(progress.matched));
    QString text = cancelled ? QStringLiteral("cancelled: %1 in %2 of %3 records")
                                   .arg(matches, count(progress.scanned), count(progress.total))
                             : QStringLiteral("%1 in %2 records").arg(matches, count(progress.scanned));
    if (limitReached)
        text += QStringLiteral(" (match limit reached)");
    if (progress.notJson > 0)
        text += QStringLiteral("; %1 were not JSON").arg(count(progress.notJson));
    return text;
}

SearchResult searchMessages(const SearchSpec &spec, const std::atomic_bool *cancel, const SearchBatch &batch)
{
    Searcher searcher(spec, cancel, batch);
    return searcher.run();
}

MessageSearchJob::MessageSearchJob(SearchSpec spec, QObject *parent) : BackgroundJob(parent), m_spec(std::move(spec))
{
    qRegisterMetaType<SearchProgress>();
    qRegisterMetaType<SearchResult>();
}

void MessageSearchJob::start()
{
    if (!beginRun())
        return;
    auto future = runTask([spec = m_spec, cancel = cancelFlag(), deliver = deliverer(this)] {
        const BackgroundPriority background; // the window's thread first
        const SearchResult result =
            searchMessages(spec, cancel.get(), [deliver](const QList<KafkaMessage> &matches, const SearchProgress &p) {
                deliver([matches, p](MessageSearchJob *job) { Q_EMIT job->matchesFound(matches, p); });
            });
        deliver([result](MessageSearchJob *job) {
            job->endRun();
            Q_EMIT job->finished(result);
        });
    });
    Q_UNUSED(future)
}

} // namespace md
