#include "engine/offsetmap/Mm2Checkpoints.h"

#include "engine/admin/AdminCall.h"
#include "engine/core/ClusterConfig.h"
#include "engine/core/KafkaHandles.h"
#include "engine/groupsync/GroupOffsetSync.h"
#include "engine/mirror/TopicSync.h"

#include <QDeadlineTimer>
#include <QHash>
#include <QPair>

#include <algorithm>
#include <limits>
#include <vector>

namespace md {

namespace {

constexpr qint16 kVersion = 0; // Checkpoint.VERSION

void putInt16(QByteArray *out, qint16 v)
{
    const auto u = quint16(v);
    out->append(char(u >> 8));
    out->append(char(u & 0xff));
}

void putInt32(QByteArray *out, qint32 v)
{
    const auto u = quint32(v);
    for (int shift = 24; shift >= 0; shift -= 8)
        out->append(char((u >> shift) & 0xff));
}

void putInt64(QByteArray *out, qint64 v)
{
    const auto u = quint64(v);
    for (int shift = 56; shift >= 0; shift -= 8)
        out->append(char((u >> shift) & 0xff));
}

// Kafka's STRING: int16 length, then the UTF-8 bytes; never null.
bool putString(QByteArray *out, const QString &s)
{
    const QByteArray bytes = s.toUtf8();
    if (bytes.size() > std::numeric_limits<qint16>::max())
        return false;
    putInt16(out, qint16(bytes.size()));
    out->append(bytes);
    return true;
}

class Reader {
public:
    explicit Reader(const QByteArray &b) : m_b(b) {}
    bool atEnd() const { return m_pos == m_b.size(); }
    std::optional<quint64> bits(int bytes)
    {
        if (m_b.size() - m_pos < bytes)
            return std::nullopt;
        quint64 v = 0;
        for (int i = 0; i < bytes; ++i)
            v = (v << 8) | quint8(m_b.at(m_pos++));
        return v;
    }
    std::optional<QString> string()
    {
        const auto n = bits(2);
        if (!n || qint16(*n) < 0 || m_b.size() - m_pos < qint16(*n))
            return std::nullopt;
        const QString s = QString::fromUtf8(m_b.constData() + m_pos, qint16(*n));
        m_pos += qint16(*n);
        return s;
    }

private:
    const QByteArray &m_b;
    qsizetype m_pos = 0;
};

} // namespace

std::optional<QByteArray> mm2CheckpointKey(const Mm2Checkpoint &c)
{
    QByteArray out;
    if (!putString(&out, c.group) || !putString(&out, c.topic))
        return std::nullopt;
    putInt32(&out, c.partition);
    return out;
}

std::optional<QByteArray> mm2CheckpointValue(const Mm2Checkpoint &c)
{
    QByteArray out;
    putInt16(&out, kVersion);
    putInt64(&out, c.upstreamOffset);
    putInt64(&out, c.downstreamOffset);
    if (!putString(&out, c.metadata))
        return std::nullopt;
    return out;
}

std::optional<Mm2Checkpoint> parseMm2Checkpoint(const QByteArray &key, const QByteArray &value)
{
    Mm2Checkpoint c;
    Reader k(key);
    const auto group = k.string();
    const auto topic = k.string();
    const auto partition = k.bits(4);
    if (!group || !topic || !partition || !k.atEnd())
        return std::nullopt;
    Reader v(value);
    const auto version = v.bits(2);
    if (!version || *version != quint64(kVersion))
        return std::nullopt;
    const auto up = v.bits(8);
    const auto down = v.bits(8);
    const auto metadata = v.string();
    if (!up || !down || !metadata || !v.atEnd())
        return std::nullopt;
    c.group = *group;
    c.topic = *topic;
    c.partition = qint32(quint32(*partition));
    c.upstreamOffset = qint64(*up);
    c.downstreamOffset = qint64(*down);
    c.metadata = *metadata;
    return c;
}

QList<Mm2Checkpoint> checkpointsOfPlan(const GroupSyncPlan &plan)
{
    QList<Mm2Checkpoint> out;
    for (const GroupSyncEntry &g : plan.groups)
        for (const GroupPartitionSync &p : g.partitions) {
            if (!p.translation.exact() || p.translation.targetOffset < 0 || p.sourceCommitted < 0)
                continue;
            Mm2Checkpoint c;
            c.group = g.group;
            c.topic = p.targetTopic.isEmpty() ? p.translation.targetTopic : p.targetTopic;
            c.partition = p.partition;
            c.upstreamOffset = p.sourceCommitted;
            c.downstreamOffset = p.translation.targetOffset;
            if (!c.topic.isEmpty())
                out.append(c);
        }
    return out;
}

// ------------------------------------------------------------------ writer

struct Mm2CheckpointWriter::State {
    MirrorJobSpec spec;
    QString topic;
    KafkaPtr rk;
    bool topicReady = false;
    // Delivery reports of earlier, abandoned batches carry an older generation.
    quint32 generation = 0;
    std::vector<QString> batchErrors; // per record of the current batch; "?" until reported
    using Key = QPair<QString, QPair<QString, int>>;
    QHash<Key, QPair<qint64, qint64>> acknowledged; // last written (upstream, downstream)

    static void onDelivery(rd_kafka_t *, const rd_kafka_message_t *m, void *opaque)
    {
        auto *s = static_cast<State *>(opaque);
        const auto tag = quint64(reinterpret_cast<quintptr>(m->_private));
        if (quint32(tag >> 32) != s->generation || (tag & 0xffffffffu) >= s->batchErrors.size())
            return;
        s->batchErrors[tag & 0xffffffffu] = m->err ? kafkaErrorText(m->err) : QString();
    }

    QString open(int timeoutMs);
    QString ensureTopic(int timeoutMs);
};

QString Mm2CheckpointWriter::State::open(int timeoutMs)
{
    if (rk)
        return {};
    ConfResult conf =
        makeKafkaConf(spec.target, ClientRole::Producer,
                      {{QStringLiteral("acks"), QStringLiteral("all")},
                       {QStringLiteral("linger.ms"), QStringLiteral("5")},
                       {QStringLiteral("message.timeout.ms"), QString::number(std::max(timeoutMs, 1000))}});
    if (!conf.conf)
        return QStringLiteral("invalid client setting ") + conf.error;
    rd_kafka_conf_set_opaque(conf.conf.get(), this);
    rd_kafka_conf_set_dr_msg_cb(conf.conf.get(), &State::onDelivery);
    rd_kafka_conf_set_log_cb(conf.conf.get(), [](const rd_kafka_t *, int, const char *, const char *) {});
    char errstr[512];
    rk.reset(rd_kafka_new(RD_KAFKA_PRODUCER, conf.conf.get(), errstr, sizeof errstr));
    if (!rk)
        return QString::fromUtf8(errstr);
    conf.conf.release(); // rd_kafka_new took it
    return {};
}

// Created before the first record: a broker that auto-creates topics would
// otherwise make a deleting, multi-partition one MM2's reader does not expect.
QString Mm2CheckpointWriter::State::ensureTopic(int timeoutMs)
{
    if (topicReady)
        return {};
    const ClusterTopics topics = readClusterTopics(rk.get(), timeoutMs);
    if (!topics.ok)
        return QStringLiteral("cannot read the target's metadata: ") + topics.error;
    if (topics.topics.contains(topic)) {
        topicReady = true;
        return {};
    }
    char errstr[512];
    NewTopicPtr nt(rd_kafka_NewTopic_new(topic.toUtf8().constData(), 1, -1, errstr, sizeof errstr));
    if (!nt)
        return QString::fromUtf8(errstr);
    rd_kafka_NewTopic_set_config(nt.get(), "cleanup.policy", "compact");
    rd_kafka_NewTopic_t *arr[] = {nt.get()};
    QString error;
    EventPtr ev = adminCall(
        rk.get(), RD_KAFKA_ADMIN_OP_CREATETOPICS, timeoutMs,
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) { rd_kafka_CreateTopics(rk.get(), arr, 1, o, q); },
        &error);
    if (!ev)
        return QStringLiteral("cannot create it: ") + error;
    size_t cnt = 0;
    const rd_kafka_topic_result_t **res =
        rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev.get()), &cnt);
    const rd_kafka_resp_err_t err = cnt > 0 ? rd_kafka_topic_result_error(res[0]) : RD_KAFKA_RESP_ERR__BAD_MSG;
    if (err && err != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
        const char *s = cnt > 0 ? rd_kafka_topic_result_error_string(res[0]) : nullptr;
        return QStringLiteral("cannot create it: ") + QString::fromUtf8(s && *s ? s : rd_kafka_err2str(err));
    }
    topicReady = true;
    return {};
}

Mm2CheckpointWriter::Mm2CheckpointWriter(const MirrorJobSpec &spec) : d(std::make_unique<State>())
{
    d->spec = spec;
    d->topic = mm2CheckpointsTopicOf(spec);
}

Mm2CheckpointWriter::~Mm2CheckpointWriter()
{
    if (d->rk) {
        // Not waiting for records still in flight: a stopping job must not be held up.
        rd_kafka_purge(d->rk.get(), RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
        rd_kafka_poll(d->rk.get(), 0);
    }
}

Mm2CheckpointWriter::Result Mm2CheckpointWriter::write(const QList<Mm2Checkpoint> &checkpoints, int timeoutMs,
                                                       const std::atomic<bool> *cancel)
{
    Result r;
    const auto fail = [&](const QString &why) {
        r.error = QStringLiteral("MM2 checkpoints to %1: %2").arg(d->topic, why);
        return r;
    };
    QList<Mm2Checkpoint> todo;
    for (const Mm2Checkpoint &c : checkpoints) {
        const auto it = d->acknowledged.constFind({c.group, {c.topic, c.partition}});
        if (it != d->acknowledged.cend() && it->first == c.upstreamOffset && it->second == c.downstreamOffset)
            ++r.unchanged;
        else
            todo.append(c);
    }
    if (todo.isEmpty()) {
        r.ok = true;
        return r;
    }
    if (const QString e = d->open(timeoutMs); !e.isEmpty())
        return fail(e);
    if (const QString e = d->ensureTopic(timeoutMs); !e.isEmpty())
        return fail(e);

    ++d->generation;
    d->batchErrors.assign(size_t(todo.size()), QStringLiteral("?"));
    const QByteArray topic = d->topic.toUtf8();
    for (qsizetype i = 0; i < todo.size(); ++i) {
        const auto key = mm2CheckpointKey(todo.at(i));
        const auto value = mm2CheckpointValue(todo.at(i));
        if (!key || !value) {
            d->batchErrors[size_t(i)] = QStringLiteral("group or topic name too long for MM2's format");
            continue;
        }
        const quint64 tag = (quint64(d->generation) << 32) | quint64(i);
        const rd_kafka_resp_err_t err = rd_kafka_producev(
            d->rk.get(), RD_KAFKA_V_TOPIC(topic.constData()), RD_KAFKA_V_PARTITION(0),
            RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(key->constData(), size_t(key->size())),
            RD_KAFKA_V_VALUE(const_cast<char *>(value->constData()), size_t(value->size())),
            RD_KAFKA_V_OPAQUE(reinterpret_cast<void *>(quintptr(tag))), RD_KAFKA_V_END);
        if (err)
            d->batchErrors[size_t(i)] = kafkaErrorText(err);
    }
    // Waiting in slices, so a stop is served within ~100 ms.
    QDeadlineTimer deadline(std::max(timeoutMs, 1000));
    while (rd_kafka_outq_len(d->rk.get()) > 0 && !deadline.hasExpired() && !(cancel && *cancel))
        rd_kafka_poll(d->rk.get(), 100);
    rd_kafka_poll(d->rk.get(), 0);

    QString firstError;
    for (qsizetype i = 0; i < todo.size(); ++i) {
        const QString &e = d->batchErrors[size_t(i)];
        const Mm2Checkpoint &c = todo.at(i);
        if (e.isEmpty()) {
            ++r.written;
            d->acknowledged.insert({c.group, {c.topic, c.partition}}, {c.upstreamOffset, c.downstreamOffset});
        } else if (firstError.isEmpty()) {
            firstError = QStringLiteral("%1 %2[%3]: %4")
                             .arg(c.group, c.topic)
                             .arg(c.partition)
                             .arg(e == QLatin1String("?") ? QStringLiteral("not acknowledged in time") : e);
        }
    }
    if (!firstError.isEmpty())
        return fail(QStringLiteral("%1 of %2 not written (first: %3)")
                        .arg(todo.size() - r.written)
                        .arg(todo.size())
                        .arg(firstError));
    r.ok = true;
    return r;
}

} // namespace md
