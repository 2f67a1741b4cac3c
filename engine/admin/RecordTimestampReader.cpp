#include "engine/admin/RecordTimestampReader.h"

#include "engine/admin/ConfigEntry.h"
#include "engine/core/ReaderConsumer.h"

#include <QElapsedTimer>
#include <QSet>

namespace md {

namespace {

constexpr int kPollSliceMs = 100;
constexpr qsizetype kCacheBound = 20000; // entries; past it the cache starts again
constexpr int kAhead = 2000;             // records after an asked one kept from the same fetch

} // namespace

bool RecordTimestampReader::ensureConsumer(QString *error)
{
    if (m_rk)
        return true;
    ReaderOptions options{.purpose = QStringLiteral("lag-time")};
    // One record per partition is wanted: keep each fetch small.
    options.extra = {{QStringLiteral("queued.max.messages.kbytes"), QStringLiteral("256")},
                     {QStringLiteral("fetch.max.bytes"), QStringLiteral("1048576")},
                     {QStringLiteral("max.partition.fetch.bytes"), QStringLiteral("65536")},
                     {QStringLiteral("fetch.wait.max.ms"), QStringLiteral("50")}};
    ConfResult conf = readerConf(m_cluster, options);
    if (!conf.conf) {
        if (error)
            *error = QStringLiteral("invalid client setting ") + conf.error;
        return false;
    }
    rd_kafka_conf_set_log_cb(conf.conf.get(), [](const rd_kafka_t *, int, const char *, const char *) {});
    char errstr[512];
    m_rk.reset(rd_kafka_new(RD_KAFKA_CONSUMER, conf.conf.get(), errstr, sizeof errstr));
    if (!m_rk) {
        if (error)
            *error = QString::fromUtf8(errstr);
        return false;
    }
    conf.conf.release(); // rd_kafka_new took ownership
    return true;
}

QHash<RecordAt, RecordTime> RecordTimestampReader::read(const QList<RecordAt> &records, int timeoutMs, QString *error)
{
    QHash<RecordAt, RecordTime> out;
    // Only the newest asked offset of a partition is fetched (several offsets
    // of one partition cannot be assigned at once).
    QHash<QPair<QString, int>, qint64> wanted;
    for (const RecordAt &r : records) {
        if (r.offset < 0)
            continue;
        if (auto it = m_cache.constFind(r); it != m_cache.constEnd()) {
            out.insert(r, *it);
            continue;
        }
        qint64 &o = wanted[{r.topic, r.partition}];
        o = std::max(o, r.offset);
    }
    if (wanted.isEmpty() || !ensureConsumer(error))
        return out;
    PartitionListPtr list(rd_kafka_topic_partition_list_new(int(wanted.size())));
    QHash<QString, QByteArray> names;
    for (auto it = wanted.cbegin(); it != wanted.cend(); ++it) {
        QByteArray &name = names[it.key().first];
        if (name.isEmpty())
            name = it.key().first.toUtf8();
        rd_kafka_topic_partition_list_add(list.get(), name.constData(), it.key().second)->offset = it.value();
    }
    if (const auto err = rd_kafka_assign(m_rk.get(), list.get())) {
        if (error)
            *error = kafkaErrorText(err);
        return out;
    }
    if (m_cache.size() > kCacheBound)
        m_cache.clear();
    // The fetch that brings the asked record brings the ones after it too: their
    // timestamps are kept (up to kAhead a partition), so a position that moves on
    // (a throttled job, a group committing) finds its next record answered without
    // another read. Never more than that one fetch.
    QHash<QPair<QString, int>, qint64> answered; // partition -> asked offset
    QHash<QPair<QString, int>, int> ahead;
    const auto keep = [&](const QPair<QString, int> &key, qint64 askedOffset, const rd_kafka_message_t *m) {
        rd_kafka_timestamp_type_t type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
        RecordTime t;
        t.timestampMs = rd_kafka_message_timestamp(m, &type);
        t.logAppendTime = type == RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME;
        t.offset = m->offset;
        const RecordAt at{key.first, key.second, askedOffset >= 0 ? askedOffset : m->offset};
        m_cache.insert(at, t);
        out.insert(at, t);
    };
    QElapsedTimer timer;
    timer.start();
    bool drained = false;
    qsizetype taken = 0; // after the asked ones: bounded, however fast the partitions grow
    while (timer.elapsed() < timeoutMs && (!wanted.isEmpty() || (!drained && taken < kAhead * answered.size()))) {
        // Once every asked record is in, what is already fetched is taken without waiting.
        MessagePtr m(rd_kafka_consumer_poll(m_rk.get(), wanted.isEmpty() ? 0 : kPollSliceMs));
        if (!m) {
            drained = wanted.isEmpty();
            continue;
        }
        if (!m->rkt)
            continue;
        const QPair<QString, int> key{QString::fromUtf8(rd_kafka_topic_name(m->rkt)), int(m->partition)};
        if (m->err && m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF)
            continue; // a transient error: the bound decides
        if (auto done = answered.constFind(key); done != answered.cend()) {
            ++taken;
            int &n = ahead[key];
            if (!m->err && m->offset > *done && n < kAhead) {
                ++n;
                keep(key, -1, m.get());
            }
            continue;
        }
        auto w = wanted.find(key);
        if (w == wanted.end())
            continue; // a late record of an earlier read
        const qint64 asked = w.value();
        if (!m->err && m->offset < asked)
            continue; // before the asked offset (a fetch begun earlier): not the record
        // A newer offset of the partition replaces its older entries.
        m_cache.removeIf([&](const auto &e) {
            return e.key().partition == key.second && e.key().topic == key.first && e.key().offset < asked;
        });
        if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
            RecordTime t;
            t.atEnd = true; // not cached: the end moves, asked again it may have a record
            out.insert(RecordAt{key.first, key.second, asked}, t);
        } else {
            keep(key, asked, m.get());
        }
        answered.insert(key, asked);
        wanted.erase(w);
    }
    rd_kafka_assign(m_rk.get(), nullptr);
    return out;
}

QHash<QString, TopicTimeConfig> RecordTimestampReader::topicConfigs(const QStringList &topics, int timeoutMs)
{
    QHash<QString, TopicTimeConfig> out;
    if (topics.isEmpty() || !ensureConsumer(nullptr))
        return out;
    const TopicConfigsByName described = describeTopicConfigEntries(m_rk.get(), topics, timeoutMs);
    for (auto it = described.cbegin(); it != described.cend(); ++it) {
        if (!it.value().ok())
            continue;
        TopicTimeConfig c;
        c.known = true;
        for (const ConfigEntry &e : it.value().entries) {
            const QString v = e.value.value_or(QString());
            if (e.name == QLatin1String("retention.ms"))
                c.retentionMs = v.toLongLong();
            else if (e.name == QLatin1String("message.timestamp.type"))
                c.timestampType = v;
            else if (e.name == QLatin1String("cleanup.policy"))
                c.deletes = v.split(QLatin1Char(','), Qt::SkipEmptyParts).contains(QStringLiteral("delete"));
        }
        out.insert(it.key(), c);
    }
    return out;
}

} // namespace md
