#include "engine/core/ReaderConsumer.h"
#include "engine/verify/VerifierDetail.h"

#include <QElapsedTimer>

namespace md::verify_detail {

namespace {

constexpr int kPollSliceMs = 200;

void onClientError(rd_kafka_t *, int err, const char *reason, void *opaque)
{
    auto *log = static_cast<ErrorLog *>(opaque);
    QMutexLocker lock(&log->mutex);
    if (err != RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN || log->last.isEmpty())
        log->last = QString::fromUtf8(reason);
}

} // namespace

PartitionReader::PartitionReader(const ClusterConfig &cluster, int idleTimeoutMs)
    : m_where(cluster.bootstrap), m_idleTimeoutMs(idleTimeoutMs), m_cluster(cluster)
{
}

PartitionReader::~PartitionReader()
{
    if (m_rk) {
        rd_kafka_assign(m_rk.get(), nullptr);
        rd_kafka_consumer_close(m_rk.get());
    }
}

QString PartitionReader::open()
{
    // A start offset that vanished (retention) must be an error, not a silent skip.
    ReaderOptions reader{.purpose = QStringLiteral("verify"), .offsetReset = QStringLiteral("error")};
    reader.extra = {{QStringLiteral("max.partition.fetch.bytes"), QStringLiteral("8388608")},
                    {QStringLiteral("fetch.wait.max.ms"), QStringLiteral("100")},
                    // Bounds librdkafka's prefetch queue, and so the memory of a verify run.
                    {QStringLiteral("queued.max.messages.kbytes"), QStringLiteral("32768")}};
    ConfResult conf = readerConf(m_cluster, reader);
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

QString PartitionReader::failure(const QString &what) const
{
    QString text = m_where + QStringLiteral(": ") + what;
    QMutexLocker lock(&m_errors.mutex);
    if (!m_errors.last.isEmpty())
        text += QStringLiteral(" (last client error: ") + m_errors.last + QLatin1Char(')');
    return text;
}

bool PartitionReader::watermarks(const QString &topic, int partition, qint64 *low, qint64 *high, QString *error)
{
    int64_t lo = -1, hi = -1;
    const QByteArray name = topic.toUtf8();
    const auto err =
        rd_kafka_query_watermark_offsets(m_rk.get(), name.constData(), partition, &lo, &hi, m_idleTimeoutMs);
    if (err) {
        *error = failure(QStringLiteral("cannot read the offsets of %1: %2")
                             .arg(topicPartition(topic, partition), kafkaErrorText(err)));
        return false;
    }
    *low = lo;
    *high = hi;
    return true;
}

bool PartitionReader::offsetForTime(const QString &topic, int partition, qint64 ms, qint64 *offset, QString *error)
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

QString PartitionReader::start(const QString &topic, int partition, qint64 from, qint64 end)
{
    m_topic = topic;
    m_topicUtf8 = topic.toUtf8();
    m_partition = partition;
    m_next = from;
    m_end = end;
    m_ended = from >= end;
    m_read = 0;
    m_sinceProgress.start();
    if (m_progress)
        m_progress(topic, partition, 0);
    PartitionListPtr list(rd_kafka_topic_partition_list_new(1));
    rd_kafka_topic_partition_list_add(list.get(), m_topicUtf8.constData(), partition)->offset = from;
    if (const auto err = rd_kafka_assign(m_rk.get(), m_ended ? nullptr : list.get()))
        return failure(QStringLiteral("cannot read %1: %2").arg(topicPartition(topic, partition), kafkaErrorText(err)));
    return {};
}

PartitionReader::Next PartitionReader::next(MessagePtr *out, QString *error)
{
    if (cancelled()) {
        *error = cancelledText();
        return Next::Failed;
    }
    if (m_ended)
        return Next::End;
    QElapsedTimer idle;
    idle.start();
    while (true) {
        if (cancelled()) {
            *error = cancelledText();
            return Next::Failed;
        }
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
        const bool ours =
            m->rkt && m->partition == m_partition && qstrcmp(rd_kafka_topic_name(m->rkt), m_topicUtf8.constData()) == 0;
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
                const bool transient = m->err == RD_KAFKA_RESP_ERR__TRANSPORT ||
                                       m->err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN ||
                                       m->err == RD_KAFKA_RESP_ERR__TIMED_OUT;
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
        ++m_read;
        if (m_progress && (m_ended || m_sinceProgress.elapsed() >= m_progressIntervalMs)) {
            m_sinceProgress.restart();
            m_progress(m_topic, m_partition, m_read);
        }
        if (m_rewrite)
            m_rewrite(m.get());
        *out = std::move(m);
        return Next::Record;
    }
}

} // namespace md::verify_detail
