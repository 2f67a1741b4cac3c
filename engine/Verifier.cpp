#include "Verifier.h"

#include "ClusterProbe.h"
#include "KafkaHandles.h"
#include "TopicNaming.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QHash>
#include <QMutex>
#include <QRegularExpression>
#include <QUuid>

#include <deque>
#include <future>
#include <memory>
#include <optional>

namespace md {

namespace {

constexpr int kPollSliceMs = 200;
// How far ahead in the source a differing target record is looked for, to tell
// "records missing on the target" from "this record differs".
constexpr qint64 kMissingLookahead = 1000;
constexpr quint64 kNullMarker = 0x6e756c6c2d6d6172ULL; // a null key/value/header value, distinct from empty

quint64 mix(quint64 h, quint64 v)
{
    // splitmix64 finaliser over the running value: order-sensitive combination.
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 31;
    return h;
}

quint64 hashBytes(const void *data, size_t size, quint64 seed)
{
    if (!data)
        return mix(seed, kNullMarker);
    static const char empty = 0;
    return mix(qHashBits(size ? data : &empty, size, size_t(seed)), size + 1);
}

// Per-field 64-bit hashes of one record: enough to match records by content and
// to say which field differs, in about 40 bytes of memory per remembered record.
struct Fingerprint {
    quint64 key = 0;
    quint64 value = 0;
    quint64 headers = 0;
    qint64 timestamp = 0;

    quint64 combined() const { return mix(mix(mix(key, value), headers), quint64(timestamp)); }
    bool operator==(const Fingerprint &) const = default;
};

template<typename F>
void forEachHeader(const rd_kafka_message_t *m, F &&f)
{
    rd_kafka_headers_t *headers = nullptr; // owned by the message
    if (rd_kafka_message_headers(m, &headers) != RD_KAFKA_RESP_ERR_NO_ERROR || !headers)
        return;
    const char *name = nullptr;
    const void *value = nullptr;
    size_t size = 0;
    for (size_t i = 0; rd_kafka_header_get_all(headers, i, &name, &value, &size) == RD_KAFKA_RESP_ERR_NO_ERROR; ++i)
        f(name, value, size);
}

Fingerprint fingerprint(const rd_kafka_message_t *m)
{
    Fingerprint fp;
    fp.key = hashBytes(m->key, m->key_len, 1);
    fp.value = hashBytes(m->payload, m->len, 2);
    quint64 h = 3;
    quint64 count = 0;
    forEachHeader(m, [&](const char *name, const void *value, size_t size) {
        h = hashBytes(name, qstrlen(name), h);
        h = hashBytes(value, size, h);
        ++count;
    });
    fp.headers = mix(h, count);
    rd_kafka_timestamp_type_t type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
    fp.timestamp = rd_kafka_message_timestamp(m, &type);
    return fp;
}

void addField(QCryptographicHash &sha, const void *data, size_t size)
{
    // Tag and length first, so null, empty and adjacent fields cannot be confused.
    const char tag = data ? 'b' : 'n';
    sha.addData(QByteArrayView(&tag, 1));
    const quint64 len = data ? quint64(size) : 0;
    sha.addData(QByteArrayView(reinterpret_cast<const char *>(&len), sizeof len));
    if (data && size)
        sha.addData(QByteArrayView(static_cast<const char *>(data), qsizetype(size)));
}

void addToDigest(QCryptographicHash &sha, const rd_kafka_message_t *m)
{
    addField(sha, m->key, m->key_len);
    addField(sha, m->payload, m->len);
    quint64 count = 0;
    forEachHeader(m, [&](const char *, const void *, size_t) { ++count; });
    sha.addData(QByteArrayView(reinterpret_cast<const char *>(&count), sizeof count));
    forEachHeader(m, [&](const char *name, const void *value, size_t size) {
        addField(sha, name, qstrlen(name));
        addField(sha, value, size);
    });
    rd_kafka_timestamp_type_t type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
    const qint64 ts = rd_kafka_message_timestamp(m, &type);
    sha.addData(QByteArrayView(reinterpret_cast<const char *>(&ts), sizeof ts));
}

QString describeDifference(const Fingerprint &source, const Fingerprint &target)
{
    QStringList what;
    if (source.key != target.key)
        what << QStringLiteral("key");
    if (source.value != target.value)
        what << QStringLiteral("value");
    if (source.headers != target.headers)
        what << QStringLiteral("headers");
    if (source.timestamp != target.timestamp)
        what << QStringLiteral("timestamp (source %1, target %2)").arg(source.timestamp).arg(target.timestamp);
    return what.join(QStringLiteral(", ")) + (what.size() == 1 ? QStringLiteral(" differs") : QStringLiteral(" differ"));
}

QString topicPartition(const QString &topic, int partition)
{
    return topic + QLatin1Char('[') + QString::number(partition) + QLatin1Char(']');
}

// Connection errors reported by librdkafka's error callback, for messages that
// say more than "timed out".
struct ErrorLog {
    QMutex mutex;
    QString last;
};

void onClientError(rd_kafka_t *, int err, const char *reason, void *opaque)
{
    auto *log = static_cast<ErrorLog *>(opaque);
    QMutexLocker lock(&log->mutex);
    if (err != RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN || log->last.isEmpty())
        log->last = QString::fromUtf8(reason);
}

// One side's consumer, reading one partition at a time from a start offset up
// to an end offset fixed when the read starts (or the end of committed data).
class PartitionReader final
{
    Q_DISABLE_COPY_MOVE(PartitionReader)
public:
    enum class Next { Record, End, Failed };

    PartitionReader(const ClusterConfig &cluster, int idleTimeoutMs)
        : m_where(cluster.bootstrap)
        , m_idleTimeoutMs(idleTimeoutMs)
        , m_cluster(cluster)
    {
    }

    ~PartitionReader()
    {
        if (m_rk) {
            rd_kafka_assign(m_rk.get(), nullptr);
            rd_kafka_consumer_close(m_rk.get());
        }
    }

    QString open()
    {
        const QMap<QString, QString> overrides{
            // A throw-away group id: assign() needs one, and nothing is ever committed to it.
            {QStringLiteral("group.id"), QStringLiteral("mirrordesk-verify-") + QUuid::createUuid().toString(QUuid::WithoutBraces)},
            {QStringLiteral("enable.auto.commit"), QStringLiteral("false")},
            {QStringLiteral("enable.auto.offset.store"), QStringLiteral("false")},
            {QStringLiteral("enable.partition.eof"), QStringLiteral("true")},
            {QStringLiteral("isolation.level"), QStringLiteral("read_committed")},
            // A start offset that vanished (retention) must be an error, not a silent skip.
            {QStringLiteral("auto.offset.reset"), QStringLiteral("error")},
            {QStringLiteral("max.partition.fetch.bytes"), QStringLiteral("8388608")},
            {QStringLiteral("fetch.wait.max.ms"), QStringLiteral("100")},
            // Bounds librdkafka's prefetch queue, and so the memory of a verify run.
            {QStringLiteral("queued.max.messages.kbytes"), QStringLiteral("32768")},
        };
        ConfResult conf = makeKafkaConf(m_cluster, ClientRole::Consumer, overrides);
        if (!conf.conf)
            return m_where + QStringLiteral(": invalid client setting ") + conf.error;
        rd_kafka_conf_set_opaque(conf.conf.get(), &m_errors);
        rd_kafka_conf_set_error_cb(conf.conf.get(), &onClientError);
        // Errors reach the report through onClientError; nothing goes to stderr.
        rd_kafka_conf_set_log_cb(conf.conf.get(), [](const rd_kafka_t *, int, const char *, const char *) {});
        char errstr[512];
        m_rk.reset(rd_kafka_new(RD_KAFKA_CONSUMER, conf.conf.get(), errstr, sizeof errstr));
        if (!m_rk)
            return m_where + QStringLiteral(": ") + QString::fromUtf8(errstr);
        conf.conf.release(); // rd_kafka_new took ownership
        return {};
    }

    QString failure(const QString &what) const
    {
        QString text = m_where + QStringLiteral(": ") + what;
        QMutexLocker lock(&m_errors.mutex);
        if (!m_errors.last.isEmpty())
            text += QStringLiteral(" (last client error: ") + m_errors.last + QLatin1Char(')');
        return text;
    }

    bool watermarks(const QString &topic, int partition, qint64 *low, qint64 *high, QString *error)
    {
        int64_t lo = -1, hi = -1;
        const QByteArray name = topic.toUtf8();
        const auto err = rd_kafka_query_watermark_offsets(m_rk.get(), name.constData(), partition, &lo, &hi,
                                                          m_idleTimeoutMs);
        if (err) {
            *error = failure(QStringLiteral("cannot read the offsets of %1: %2")
                                 .arg(topicPartition(topic, partition), kafkaErrorText(err)));
            return false;
        }
        *low = lo;
        *high = hi;
        return true;
    }

    // The first offset whose timestamp is at or after `ms`; -1 when there is none.
    bool offsetForTime(const QString &topic, int partition, qint64 ms, qint64 *offset, QString *error)
    {
        PartitionListPtr list(rd_kafka_topic_partition_list_new(1));
        const QByteArray name = topic.toUtf8();
        rd_kafka_topic_partition_list_add(list.get(), name.constData(), partition)->offset = ms;
        auto err = rd_kafka_offsets_for_times(m_rk.get(), list.get(), m_idleTimeoutMs);
        if (!err)
            err = list->elems[0].err;
        if (err) {
            *error = failure(QStringLiteral("cannot look up the start timestamp in %1: %2")
                                 .arg(topicPartition(topic, partition), kafkaErrorText(err)));
            return false;
        }
        *offset = list->elems[0].offset;
        return true;
    }

    QString start(const QString &topic, int partition, qint64 from, qint64 end)
    {
        m_topic = topic;
        m_topicUtf8 = topic.toUtf8();
        m_partition = partition;
        m_next = from;
        m_end = end;
        m_ended = from >= end;
        PartitionListPtr list(rd_kafka_topic_partition_list_new(1));
        rd_kafka_topic_partition_list_add(list.get(), m_topicUtf8.constData(), partition)->offset = from;
        if (const auto err = rd_kafka_assign(m_rk.get(), m_ended ? nullptr : list.get()))
            return failure(QStringLiteral("cannot read %1: %2").arg(topicPartition(topic, partition), kafkaErrorText(err)));
        return {};
    }

    // The next record of the partition, End once the end offset (or the end of
    // committed data) is reached, Failed after idleTimeoutMs without progress.
    Next next(MessagePtr *out, QString *error)
    {
        if (m_ended)
            return Next::End;
        QElapsedTimer idle;
        idle.start();
        while (true) {
            MessagePtr m(rd_kafka_consumer_poll(m_rk.get(), kPollSliceMs));
            if (!m) {
                if (idle.elapsed() > m_idleTimeoutMs) {
                    *error = failure(QStringLiteral("no progress reading %1 at offset %2 for %3 s")
                                         .arg(topicPartition(m_topic, m_partition))
                                         .arg(m_next)
                                         .arg(m_idleTimeoutMs / 1000.0));
                    return Next::Failed;
                }
                continue;
            }
            const bool ours = m->rkt && m->partition == m_partition
                              && qstrcmp(rd_kafka_topic_name(m->rkt), m_topicUtf8.constData()) == 0;
            if (m->err) {
                if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
                    if (ours) {
                        m_ended = true;
                        return Next::End;
                    }
                    continue;
                }
                if (ours || !m->rkt) {
                    // Transport trouble is retried by librdkafka; anything else about our partition is final.
                    const bool transient = m->err == RD_KAFKA_RESP_ERR__TRANSPORT
                                           || m->err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN
                                           || m->err == RD_KAFKA_RESP_ERR__TIMED_OUT;
                    if (!transient) {
                        *error = failure(QStringLiteral("cannot read %1 at offset %2: %3")
                                             .arg(topicPartition(m_topic, m_partition))
                                             .arg(m_next)
                                             .arg(kafkaErrorText(m->err)));
                        return Next::Failed;
                    }
                }
                continue;
            }
            if (!ours || m->offset < m_next)
                continue; // left over from the previous assignment
            if (m->offset >= m_end) {
                m_ended = true;
                return Next::End;
            }
            m_next = m->offset + 1;
            if (m_next >= m_end)
                m_ended = true;
            *out = std::move(m);
            return Next::Record;
        }
    }

private:
    QString m_where;
    int m_idleTimeoutMs;
    ClusterConfig m_cluster;
    mutable ErrorLog m_errors;
    KafkaPtr m_rk;
    QString m_topic;
    QByteArray m_topicUtf8;
    int m_partition = -1;
    qint64 m_next = 0;
    qint64 m_end = 0;
    bool m_ended = true;
};

// The source records read so far, by position in the mirrored range (0, 1, ...),
// keeping only the last `capacity` fingerprints.
class SourceWindow final
{
public:
    explicit SourceWindow(int capacity)
        : m_capacity(std::max(capacity, 1))
    {
    }

    qint64 size() const { return m_base + qint64(m_entries.size()); }

    const std::pair<qint64, Fingerprint> *at(qint64 pos) const
    {
        if (pos < m_base || pos >= size())
            return nullptr;
        return &m_entries[size_t(pos - m_base)];
    }

    void push(qint64 offset, const Fingerprint &fp)
    {
        m_latest.insert(fp.combined(), size());
        m_entries.emplace_back(offset, fp);
        while (qint64(m_entries.size()) > m_capacity) {
            const quint64 key = m_entries.front().second.combined();
            if (m_latest.value(key, -1) == m_base)
                m_latest.remove(key);
            m_entries.pop_front();
            ++m_base;
        }
    }

    // The latest remembered position holding a record with this content, or -1.
    qint64 find(const Fingerprint &fp) const
    {
        const qint64 pos = m_latest.value(fp.combined(), -1);
        const auto *entry = at(pos);
        return entry && entry->second == fp ? pos : -1;
    }

private:
    qint64 m_capacity;
    qint64 m_base = 0;
    std::deque<std::pair<qint64, Fingerprint>> m_entries;
    QHash<quint64, qint64> m_latest;
};

struct PartitionJob {
    QString sourceTopic;
    QString targetTopic;
    int partition = 0;
};

class PartitionComparison final
{
public:
    PartitionComparison(const MirrorJobSpec &spec, const VerifyOptions &options, PartitionReader &source,
                        PartitionReader &target)
        : m_spec(spec)
        , m_options(options)
        , m_source(source)
        , m_target(target)
    {
    }

    // nullopt with *error set when the partition could not be compared.
    std::optional<PartitionVerdict> run(const PartitionJob &job, QString *error)
    {
        PartitionVerdict v;
        v.sourceTopic = job.sourceTopic;
        v.targetTopic = job.targetTopic;
        v.partition = job.partition;

        qint64 srcLow = 0, srcHigh = 0, tgtLow = 0, tgtHigh = 0;
        if (!m_source.watermarks(job.sourceTopic, job.partition, &srcLow, &srcHigh, error)
            || !m_target.watermarks(job.targetTopic, job.partition, &tgtLow, &tgtHigh, error))
            return std::nullopt;

        qint64 from = srcLow;
        bool aligned = true;
        if (m_spec.start == StartPosition::Timestamp && m_spec.startTimestamp.isValid()) {
            qint64 offset = -1;
            if (!m_source.offsetForTime(job.sourceTopic, job.partition, m_spec.startTimestamp.toMSecsSinceEpoch(),
                                        &offset, error))
                return std::nullopt;
            from = offset < 0 ? srcHigh : std::max(offset, srcLow);
            v.sourceSkipped = from - srcLow; // offsets, close to records: those before are never read
        } else if (m_spec.start == StartPosition::Latest) {
            // Where the job started is not recorded: the target's first record marks it.
            aligned = false;
        }

        if (QString e = m_source.start(job.sourceTopic, job.partition, from, srcHigh); !e.isEmpty()) {
            *error = e;
            return std::nullopt;
        }
        if (QString e = m_target.start(job.targetTopic, job.partition, tgtLow, tgtHigh); !e.isEmpty()) {
            *error = e;
            return std::nullopt;
        }

        QCryptographicHash sourceSha(QCryptographicHash::Sha256);
        QCryptographicHash targetSha(QCryptographicHash::Sha256);
        SourceWindow window(m_options.replayWindow);
        bool sourceDone = false;

        // Reads one source record into the window; false at the end of the range.
        auto readSource = [&](bool *failed) -> bool {
            if (sourceDone)
                return false;
            MessagePtr m;
            switch (m_source.next(&m, error)) {
            case PartitionReader::Next::Failed: *failed = true; return false;
            case PartitionReader::Next::End: sourceDone = true; return false;
            case PartitionReader::Next::Record: break;
            }
            window.push(m->offset, fingerprint(m.get()));
            addToDigest(sourceSha, m.get());
            return true;
        };

        qint64 expected = 0; // position in the source range the next target record should equal
        qint64 copied = 0;   // positions [0, copied) have been seen on the target at least once
        bool different = false;
        qint64 lastTargetOffset = tgtLow - 1;

        while (true) {
            MessagePtr t;
            const auto next = m_target.next(&t, error);
            if (next == PartitionReader::Next::Failed)
                return std::nullopt;
            if (next == PartitionReader::Next::End)
                break;
            ++v.targetCount;
            lastTargetOffset = t->offset;
            if (different)
                continue; // only counting from here on
            const Fingerprint fp = fingerprint(t.get());

            if (!aligned) {
                while (true) {
                    MessagePtr m;
                    const auto r = m_source.next(&m, error);
                    if (r == PartitionReader::Next::Failed)
                        return std::nullopt;
                    if (r == PartitionReader::Next::End) {
                        sourceDone = true;
                        break;
                    }
                    if (fingerprint(m.get()) == fp) {
                        window.push(m->offset, fp);
                        addToDigest(sourceSha, m.get());
                        aligned = true;
                        break;
                    }
                    ++v.sourceSkipped;
                }
                if (!aligned) {
                    different = true;
                    v.targetOffset = t->offset;
                    v.difference = QStringLiteral("the target's first record is not in the source (start: latest)");
                    continue;
                }
            }

            bool failed = false;
            if (expected == window.size() && !readSource(&failed) && failed)
                return std::nullopt;
            // A copy: reading further source records may evict the window's oldest entries.
            std::optional<std::pair<qint64, Fingerprint>> want;
            if (const auto *entry = window.at(expected))
                want = *entry;
            qint64 matched = -1;
            if (want && want->second == fp) {
                matched = expected;
            } else if (expected < copied) {
                // Replaying: the replay may end where the first copy ended.
                if (copied == window.size() && !readSource(&failed) && failed)
                    return std::nullopt;
                if (const auto *resume = window.at(copied); resume && resume->second == fp)
                    matched = copied;
            }
            if (matched < 0) {
                // An at-least-once restart re-sends from an earlier committed offset.
                if (const qint64 back = window.find(fp); back >= 0 && back < expected)
                    matched = back;
            }
            if (matched < 0) {
                different = true;
                v.targetOffset = t->offset;
                if (want) {
                    v.sourceOffset = want->first;
                    v.difference = describeDifference(want->second, fp);
                    // A record the target lacks shows up as the target holding a later source record.
                    const qint64 limit = expected + std::min<qint64>(kMissingLookahead, m_options.replayWindow - 1);
                    for (qint64 k = expected + 1; k <= limit; ++k) {
                        if (k == window.size() && !readSource(&failed)) {
                            if (failed)
                                return std::nullopt;
                            break;
                        }
                        const auto *entry = window.at(k);
                        if (entry && entry->second == fp) {
                            const auto *last = window.at(k - 1);
                            v.difference = QStringLiteral("missing on the target: %1 source record%2 (offsets %3 to %4)")
                                               .arg(k - expected)
                                               .arg(k - expected == 1 ? QString() : QStringLiteral("s"))
                                               .arg(want->first)
                                               .arg(last ? last->first : -1);
                            break;
                        }
                    }
                } else {
                    v.difference = QStringLiteral("extra record on the target (the source range has %1 records)")
                                       .arg(window.size());
                }
                continue;
            }
            if (matched < copied) {
                ++v.duplicates;
            } else {
                copied = matched + 1;
                addToDigest(targetSha, t.get());
            }
            expected = matched + 1;
        }

        // The rest of the source range: counted, and the first record the target lacks named.
        qint64 firstMissingOffset = -1;
        if (const auto *entry = window.at(copied))
            firstMissingOffset = entry->first;
        while (aligned) {
            bool failed = false;
            if (!readSource(&failed)) {
                if (failed)
                    return std::nullopt;
                break;
            }
            if (firstMissingOffset < 0 && window.size() - 1 == copied)
                firstMissingOffset = window.at(copied)->first;
        }
        v.sourceCount = aligned ? window.size() : 0;

        if (!different && aligned && copied < window.size()) {
            different = true;
            v.sourceOffset = firstMissingOffset;
            v.targetOffset = lastTargetOffset + 1;
            v.difference = QStringLiteral("missing on the target (%1 of %2 records copied)").arg(copied).arg(window.size());
        }
        if (different) {
            v.status = PartitionVerdict::Status::Different;
        } else {
            v.status = v.duplicates ? PartitionVerdict::Status::MatchWithDuplicates : PartitionVerdict::Status::Match;
            v.sourceDigest = sourceSha.result().toHex();
            v.targetDigest = targetSha.result().toHex();
            if (v.sourceDigest != v.targetDigest) {
                // Only possible if two different records shared every 64-bit field hash.
                v.status = PartitionVerdict::Status::Different;
                v.difference = QStringLiteral("SHA-256 digests differ although every record matched");
            }
        }
        if (!aligned)
            v.sourceSkipped = 0;
        return v;
    }

private:
    const MirrorJobSpec &m_spec;
    const VerifyOptions &m_options;
    PartitionReader &m_source;
    PartitionReader &m_target;
};

} // namespace

QString PartitionVerdict::location() const
{
    if (partition < 0)
        return sourceTopic + QStringLiteral(" -> ") + targetTopic;
    return topicPartition(sourceTopic, partition) + QStringLiteral(" -> ") + topicPartition(targetTopic, partition);
}

QString PartitionVerdict::toString() const
{
    QString line = location();
    if (partition >= 0)
        line += QStringLiteral("  source %1  target %2  ").arg(sourceCount).arg(targetCount);
    else
        line += QStringLiteral("  ");
    switch (status) {
    case Status::Match: line += QStringLiteral("OK"); break;
    case Status::MatchWithDuplicates:
        line += QStringLiteral("OK with %1 duplicate%2 (at-least-once replay)").arg(duplicates).arg(duplicates == 1 ? QString() : QStringLiteral("s"));
        break;
    case Status::Different: {
        line += QStringLiteral("DIFFERENT: ") + difference;
        if (partition >= 0) {
            line += QStringLiteral(" at source offset ")
                    + (sourceOffset >= 0 ? QString::number(sourceOffset) : QStringLiteral("-"))
                    + QStringLiteral(", target offset ")
                    + (targetOffset >= 0 ? QString::number(targetOffset) : QStringLiteral("-"));
        }
        break;
    }
    }
    if (status != Status::Different && !sourceDigest.isEmpty())
        line += QStringLiteral("  sha256 ") + QString::fromLatin1(sourceDigest.left(16));
    if (sourceSkipped > 0)
        line += QStringLiteral("  (%1 source records before the start position)").arg(sourceSkipped);
    return line;
}

const PartitionVerdict *VerifyReport::firstDifference() const
{
    for (const PartitionVerdict &v : partitions) {
        if (!v.matches())
            return &v;
    }
    return nullptr;
}

int VerifyReport::exitCode() const
{
    if (!completed)
        return 2;
    return firstDifference() ? 1 : 0;
}

QString VerifyReport::summary() const
{
    qint64 records = 0, duplicates = 0;
    int matching = 0, differing = 0;
    for (const PartitionVerdict &v : partitions) {
        records += v.sourceCount;
        if (v.matches())
            duplicates += v.duplicates; // a differing partition's count says nothing about replays
        v.matches() ? ++matching : ++differing;
    }
    QString text;
    if (!completed) {
        text = QStringLiteral("verify: cannot compare: ") + error;
        if (!partitions.isEmpty())
            text += QStringLiteral(" (after %1 partitions, %2 differing)").arg(partitions.size()).arg(differing);
        return text;
    }
    text = QStringLiteral("verify: %1 partitions, %2 records: %3 match, %4 differ")
               .arg(partitions.size())
               .arg(records)
               .arg(matching)
               .arg(differing);
    if (duplicates)
        text += QStringLiteral("; warning: %1 duplicate records on the target (at-least-once replay)").arg(duplicates);
    if (const PartitionVerdict *first = firstDifference()) {
        text += QStringLiteral("\nfirst difference: ") + first->location() + QStringLiteral(": ") + first->difference;
        if (first->partition >= 0) {
            text += QStringLiteral(" (source offset %1, target offset %2)")
                        .arg(first->sourceOffset >= 0 ? QString::number(first->sourceOffset) : QStringLiteral("-"),
                             first->targetOffset >= 0 ? QString::number(first->targetOffset) : QStringLiteral("-"));
        }
    }
    return text;
}

Verifier::Verifier(MirrorJobSpec spec, VerifyOptions options)
    : m_spec(std::move(spec))
    , m_options(std::move(options))
{
}

VerifyReport Verifier::run(const PartitionCallback &onPartition)
{
    VerifyReport report;
    std::optional<QRegularExpression> filter;
    if (!m_options.topicFilter.isEmpty()) {
        filter.emplace(QRegularExpression::anchoredPattern(m_options.topicFilter));
        if (!filter->isValid()) {
            report.error = QStringLiteral("--topic: invalid regular expression: ") + filter->errorString();
            return report;
        }
    }

    // Both clusters at once, so an unreachable pair costs one timeout, not two.
    auto sourceFuture = std::async(std::launch::async, probeCluster, m_spec.source, m_options.connectTimeoutMs);
    const ClusterProbeResult target = probeCluster(m_spec.target, m_options.connectTimeoutMs);
    const ClusterProbeResult source = sourceFuture.get();
    if (!source.reachable || !target.reachable) {
        QStringList errors;
        if (!source.reachable)
            errors << QStringLiteral("source ") + source.error;
        if (!target.reachable)
            errors << QStringLiteral("target ") + target.error;
        report.error = errors.join(QStringLiteral("; "));
        return report;
    }

    QList<std::pair<ProbedTopic, QString>> topics; // source topic, target name
    for (const ProbedTopic &t : source.topics) {
        if (!t.error.isEmpty() || !topicSelected(m_spec, t.name))
            continue;
        if (filter && !filter->match(t.name).hasMatch())
            continue;
        topics.append({t, targetTopicName(m_spec, t.name)});
    }
    if (topics.isEmpty()) {
        report.error = QStringLiteral("no source topic on %1 is mirrored by this job%2")
                           .arg(m_spec.source.bootstrap,
                                filter ? QStringLiteral(" and matches --topic ") + m_options.topicFilter : QString());
        return report;
    }

    PartitionReader sourceReader(m_spec.source, m_options.idleTimeoutMs);
    PartitionReader targetReader(m_spec.target, m_options.idleTimeoutMs);
    if (QString e = sourceReader.open(); !e.isEmpty()) {
        report.error = e;
        return report;
    }
    if (QString e = targetReader.open(); !e.isEmpty()) {
        report.error = e;
        return report;
    }
    PartitionComparison comparison(m_spec, m_options, sourceReader, targetReader);

    auto emitVerdict = [&](PartitionVerdict v) {
        if (onPartition)
            onPartition(v);
        report.partitions.append(std::move(v));
    };

    for (const auto &[topic, targetName] : topics) {
        const ProbedTopic *onTarget = target.topic(targetName);
        if (!onTarget || !onTarget->error.isEmpty()) {
            PartitionVerdict v;
            v.sourceTopic = topic.name;
            v.targetTopic = targetName;
            v.status = PartitionVerdict::Status::Different;
            v.difference = onTarget ? QStringLiteral("target topic %1 cannot be read: %2").arg(targetName, onTarget->error)
                                    : QStringLiteral("target topic %1 does not exist on %2").arg(targetName, m_spec.target.bootstrap);
            emitVerdict(std::move(v));
            continue;
        }
        if (onTarget->partitions > topic.partitions) {
            report.warnings << QStringLiteral("%1 has %2 partitions, more than the source's %3: the extra ones are not compared")
                                   .arg(targetName)
                                   .arg(onTarget->partitions)
                                   .arg(topic.partitions);
        }
        for (int p = 0; p < topic.partitions; ++p) {
            if (p >= onTarget->partitions) {
                PartitionVerdict v;
                v.sourceTopic = topic.name;
                v.targetTopic = targetName;
                v.partition = p;
                v.status = PartitionVerdict::Status::Different;
                v.difference = QStringLiteral("target partition missing (%1 has %2 partitions)").arg(targetName).arg(onTarget->partitions);
                emitVerdict(std::move(v));
                continue;
            }
            QString error;
            auto verdict = comparison.run({topic.name, targetName, p}, &error);
            if (!verdict) {
                report.error = error;
                return report;
            }
            emitVerdict(std::move(*verdict));
        }
    }
    report.completed = true;
    return report;
}

} // namespace md
