#pragma once

// Network faults between MirrorDesk and real brokers (issue #18): brokers
// started with `harness.sh start NAME --proxied` are reached through
// Toxiproxy, except by the test's own writer and reader, which use each
// broker's direct listener and so see no fault. A ContinuousWriter keeps
// numbered records coming while a fault is on, as in production.

#include "KafkaTestEnv.h"
#include "engine/core/KafkaHandles.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>

#include <atomic>
#include <chrono>
#include <thread>

namespace md::test {

// host:port of a --proxied broker's direct listener (empty when not started).
inline QString directBootstrap(const QString &name)
{
    QFile file(QDir(stateDir()).filePath(name + QStringLiteral("/direct-bootstrap")));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).trimmed();
}

// harness.sh toxic NAME ARGS... (add TYPE STREAM JSON, clear, disable, enable).
inline bool toxic(const QString &name, const QStringList &args, QString *error = nullptr)
{
    return runHarness(QStringList{QStringLiteral("toxic"), name} + args, error, 30000);
}

// Writes records "<prefix>-<n>" (padded to valueBytes) round-robin over
// `partitions` at about `perSecond`, idempotently, until stop(); counts what
// the broker acknowledged. The values are what a reader must find later.
class ContinuousWriter {
public:
    ContinuousWriter(QString bootstrap, QString topic, QString prefix, int partitions, int perSecond,
                     int valueBytes = 200)
        : m_bootstrap(std::move(bootstrap)), m_topic(std::move(topic)), m_prefix(std::move(prefix)),
          m_partitions(partitions), m_perSecond(perSecond), m_valueBytes(valueBytes)
    {
    }
    ~ContinuousWriter() { stop(); }
    ContinuousWriter(const ContinuousWriter &) = delete;
    ContinuousWriter &operator=(const ContinuousWriter &) = delete;

    bool start(QString *error)
    {
        char errstr[512];
        KafkaConfPtr conf(rd_kafka_conf_new());
        const auto set = [&](const char *k, const QByteArray &v) {
            return rd_kafka_conf_set(conf.get(), k, v.constData(), errstr, sizeof errstr) == RD_KAFKA_CONF_OK;
        };
        if (!set("bootstrap.servers", m_bootstrap.toUtf8()) || !set("enable.idempotence", "true") ||
            !set("linger.ms", "5")) {
            *error = QString::fromUtf8(errstr);
            return false;
        }
        rd_kafka_conf_set_opaque(conf.get(), this);
        rd_kafka_conf_set_dr_msg_cb(conf.get(), [](rd_kafka_t *, const rd_kafka_message_t *m, void *opaque) {
            auto *self = static_cast<ContinuousWriter *>(opaque);
            (m->err ? self->m_failed : self->m_acked).fetch_add(1);
        });
        m_producer.reset(rd_kafka_new(RD_KAFKA_PRODUCER, conf.get(), errstr, sizeof errstr));
        if (!m_producer) {
            *error = QString::fromUtf8(errstr);
            return false;
        }
        (void)conf.release(); // owned by the producer now
        m_thread = std::thread([this] { loop(); });
        return true;
    }

    // Stops writing and waits (bounded) until the broker acknowledged everything.
    void stop()
    {
        if (!m_thread.joinable())
            return;
        m_stop = true;
        m_thread.join();
        rd_kafka_flush(m_producer.get(), 30000);
    }

    qint64 written() const { return m_written; }
    qint64 acked() const { return m_acked; }
    qint64 failed() const { return m_failed; }
    QByteArray value(qint64 n) const
    {
        QByteArray v = (m_prefix + QStringLiteral("-%1").arg(n)).toUtf8();
        if (v.size() < m_valueBytes)
            v.append(QByteArray(m_valueBytes - v.size(), 'v'));
        return v;
    }

private:
    void loop()
    {
        const QByteArray topic = m_topic.toUtf8();
        const auto begin = std::chrono::steady_clock::now();
        while (!m_stop) {
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
            const qint64 due = qint64(seconds * m_perSecond);
            while (m_written < due && !m_stop) {
                const QByteArray v = value(m_written);
                const QByteArray key = QByteArray::number(m_written);
                const rd_kafka_resp_err_t err = rd_kafka_producev(
                    m_producer.get(), RD_KAFKA_V_TOPIC(topic.constData()),
                    RD_KAFKA_V_PARTITION(int32_t(m_written % m_partitions)), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                    RD_KAFKA_V_KEY(key.constData(), size_t(key.size())),
                    RD_KAFKA_V_VALUE(const_cast<char *>(v.constData()), size_t(v.size())), RD_KAFKA_V_END);
                if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL)
                    break; // served below, tried again
                if (err) {
                    m_failed.fetch_add(1);
                    break;
                }
                ++m_written;
            }
            rd_kafka_poll(m_producer.get(), 10);
        }
    }

    QString m_bootstrap, m_topic, m_prefix;
    int m_partitions, m_perSecond, m_valueBytes;
    KafkaPtr m_producer;
    std::thread m_thread;
    std::atomic<bool> m_stop{false};
    std::atomic<qint64> m_written{0}, m_acked{0}, m_failed{0};
};

} // namespace md::test
