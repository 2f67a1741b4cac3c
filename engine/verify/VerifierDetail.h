#pragma once

// What the Verifier*.cpp files share (the verifier is split by feature: record
// fingerprints, the partition reader, the record-by-record comparison, and the
// run with its report). Not part of Verifier's interface.

#include "engine/admin/ConfigEntry.h"
#include "engine/core/KafkaHandles.h"
#include "engine/verify/Verifier.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QHash>
#include <QMutex>

#include <deque>
#include <optional>
#include <utility>

namespace md::verify_detail {

// How far ahead in the source a differing target record is looked for, to tell
// "records missing on the target" from "this record differs".
constexpr qint64 kMissingLookahead = 1000;

quint64 mix(quint64 h, quint64 v);

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

// `ignoredHeader` (the job's originHeader, which copies carry and originals
// do not): left out of the headers' hash on both sides.
Fingerprint fingerprint(const rd_kafka_message_t *m, const QByteArray &ignoredHeader = {});
void addToDigest(QCryptographicHash &sha, const rd_kafka_message_t *m, const QByteArray &ignoredHeader = {});
QString describeDifference(const Fingerprint &source, const Fingerprint &target);

QString topicPartition(const QString &topic, int partition);

// Connection errors reported by librdkafka's error callback, for messages that
// say more than "timed out".
struct ErrorLog {
    QMutex mutex;
    QString last;
};

// One side's consumer, reading one partition at a time from a start offset up
// to an end offset fixed when the read starts (or the end of committed data).
class PartitionReader final {
    Q_DISABLE_COPY_MOVE(PartitionReader)
public:
    enum class Next { Record, End, Failed };

    PartitionReader(const ClusterConfig &cluster, int idleTimeoutMs);
    ~PartitionReader();

    // The run's cancel flag: next() fails with cancelledText() once it is set.
    void setCancel(const std::atomic_bool *cancel) { m_cancel = cancel; }
    bool cancelled() const { return m_cancel && m_cancel->load(); }
    static QString cancelledText() { return QStringLiteral("cancelled"); }
    // Records next() returned since start(), reported at most every intervalMs.
    // Applied to every record next() returns (the source side of a job whose
    // schema sync translates ids: the source's ids become the target's).
    void setRewrite(std::function<void(rd_kafka_message_t *)> rewrite) { m_rewrite = std::move(rewrite); }
    void setProgress(std::function<void(const QString &, int, qint64)> progress, int intervalMs)
    {
        m_progress = std::move(progress);
        m_progressIntervalMs = intervalMs;
    }

    QString open();
    QString failure(const QString &what) const;
    bool watermarks(const QString &topic, int partition, qint64 *low, qint64 *high, QString *error);
    // The first offset whose timestamp is at or after `ms`; -1 when there is none.
    bool offsetForTime(const QString &topic, int partition, qint64 ms, qint64 *offset, QString *error);
    QString start(const QString &topic, int partition, qint64 from, qint64 end);
    // The next record of the partition, End once the end offset (or the end of
    // committed data) is reached, Failed after idleTimeoutMs without progress.
    Next next(MessagePtr *out, QString *error);
    // DescribeConfigs of a topic on this side, asked once per topic (the
    // error names the cluster).
    const DescribedTopicConfigs &topicConfigs(const QString &topic);

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
    QHash<QString, DescribedTopicConfigs> m_configs;
    const std::atomic_bool *m_cancel = nullptr;
    std::function<void(const QString &, int, qint64)> m_progress;
    std::function<void(rd_kafka_message_t *)> m_rewrite;
    int m_progressIntervalMs = 100;
    qint64 m_read = 0; // records returned since start()
    QElapsedTimer m_sinceProgress;
};

// Records one side holds that the other side's log start removed: what the
// explanation of the trimming says about them.
struct TrimmedRecords {
    qint64 count = 0;
    qint64 firstOffset = -1; // on the side that still holds them
    qint64 lastOffset = -1;
    qint64 minTimestamp = -1; // -1: no timestamp seen
    qint64 maxTimestamp = -1;
    int timestampType = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;

    void add(const rd_kafka_message_t *m);
};

// "1,000"
QString groupedNumber(qint64 n);

// Why `side`'s ("target", "source") log starts at logStart, as far as its
// configs and the removed records' timestamps tell: "target log starts at 205:
// removed by the target's retention.ms=604800000; records carry 2024
// CreateTimes", or "source log starts at 1,000 (deleted records or retention:
// retention.ms=-1)".
QString trimExplanation(const QString &side, qint64 logStart, const DescribedTopicConfigs &configs,
                        const TrimmedRecords &removed, qint64 nowMs);

// The source records read so far, by position in the mirrored range (0, 1, ...),
// keeping only the last `capacity` fingerprints.
class SourceWindow final {
public:
    explicit SourceWindow(int capacity) : m_capacity(std::max(capacity, 1)) {}

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

class PartitionComparison final {
public:
    PartitionComparison(const MirrorJobSpec &spec, const VerifyOptions &options, PartitionReader &source,
                        PartitionReader &target);

    // nullopt with *error set when the partition could not be compared.
    std::optional<PartitionVerdict> run(const PartitionJob &job, QString *error);

private:
    QByteArray m_ignoredHeader; // the job's originHeader (see fingerprint)
    struct Range {
        qint64 srcLow = 0, srcHigh = 0, tgtLow = 0, tgtHigh = 0;
        qint64 from = 0;     // where the mirrored range of the source starts
        bool aligned = true; // false: the target's first record marks the start (start: latest)
    };
    // Where the compared range starts when a log start moved: None, at the
    // target's first record (found in the source), or at the source's first
    // record (found on the target).
    enum class Anchor { None, TargetStart, SourceStart };
    struct Attempt {
        PartitionVerdict verdict;
        bool anchored = true; // false: the anchor record was not found where trimming could have left it
    };
    std::optional<Attempt> compare(const PartitionJob &job, const Range &range, Anchor anchor, QString *error);

    const MirrorJobSpec &m_spec;
    const VerifyOptions &m_options;
    PartitionReader &m_source;
    PartitionReader &m_target;
};

} // namespace md::verify_detail
