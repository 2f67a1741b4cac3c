#pragma once

// Kafka's own VerifiableProducer as a background process of a test: it writes
// while the test does something else (kills brokers, cuts over), and says
// per record what the cluster acknowledged and what failed.

#include "headless_support.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryFile>
#include <QTest>

namespace md::test {

// Kafka's VerifiableProducer in the background: `count` records, values
// "<valuePrefix>.<i>", keys "0".."999" (so every partition gets records), acks=all,
// `perSecond` records a second.
class BackgroundProducer final {
public:
    struct Acked {
        int partition = -1;
        qint64 offset = -1;
        QString value;
    };

    ~BackgroundProducer()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(10000);
        }
    }

    // `properties`: producer settings beyond the tool's (--producer.config).
    bool start(const QString &bootstrapServers, const QString &topic, int count, int perSecond, QString *error,
               const QMap<QString, QString> &properties = {}, int valuePrefix = 1)
    {
        const KafkaTools tools = kafkaTools();
        if (!tools.ok()) {
            *error = tools.error;
            return false;
        }
        QStringList config;
        if (!properties.isEmpty()) {
            if (!m_config.open()) {
                *error = QStringLiteral("cannot write the producer's config: %1").arg(m_config.errorString());
                return false;
            }
            for (auto it = properties.cbegin(); it != properties.cend(); ++it)
                m_config.write((it.key() + QLatin1Char('=') + it.value() + QLatin1Char('\n')).toUtf8());
            m_config.flush();
            config = {QStringLiteral("--producer.config"), m_config.fileName()};
        }
        m_process.start(tools.java, QStringList{QStringLiteral("-Xms32m"),
                                                QStringLiteral("-Xmx128m"),
                                                QStringLiteral("-XX:+UseSerialGC"),
                                                QStringLiteral("-XX:TieredStopAtLevel=1"),
                                                QStringLiteral("-Djava.awt.headless=true"),
                                                QStringLiteral("-cp"),
                                                tools.libs + QStringLiteral("/*"),
                                                QStringLiteral("org.apache.kafka.tools.VerifiableProducer"),
                                                QStringLiteral("--bootstrap-server"),
                                                bootstrapServers,
                                                QStringLiteral("--topic"),
                                                topic,
                                                QStringLiteral("--max-messages"),
                                                QString::number(count),
                                                QStringLiteral("--throughput"),
                                                QString::number(perSecond),
                                                QStringLiteral("--value-prefix"),
                                                QString::number(valuePrefix),
                                                QStringLiteral("--repeating-keys"),
                                                QStringLiteral("1000"),
                                                QStringLiteral("--acks"),
                                                QStringLiteral("-1")} +
                                        config);
        if (!m_process.waitForStarted(10000)) {
            *error = QStringLiteral("VerifiableProducer did not start: %1").arg(m_process.errorString());
            return false;
        }
        return true;
    }

    bool running() const { return m_process.state() != QProcess::NotRunning; }

    // Waits for its exit, reading its output meanwhile (the event loop runs:
    // the job's signals keep coming).
    bool waitForExit(int timeoutMs)
    {
        QDeadlineTimer deadline(timeoutMs);
        while (running() && !deadline.hasExpired()) {
            drain();
            QTest::qWait(100);
        }
        drain();
        return !running();
    }

    // Records acknowledged so far (producer_send_success lines).
    qint64 ackedCount()
    {
        drain();
        return m_acked.size();
    }

    const QList<Acked> &acked() const { return m_acked; }
    // Send errors so far (producer_send_error lines).
    int sendErrors()
    {
        drain();
        return m_errors;
    }
    int exitCode() const { return m_process.exitCode(); }
    QString errorOutput() const { return m_err.right(3000); }
    QString errorLines() const { return m_errorLines.mid(0, 5).join(QLatin1Char('\n')); }

private:
    void drain()
    {
        m_partial += QString::fromUtf8(m_process.readAllStandardOutput());
        m_err += QString::fromUtf8(m_process.readAllStandardError());
        qsizetype nl;
        while ((nl = m_partial.indexOf(QLatin1Char('\n'))) >= 0) {
            const QString line = m_partial.left(nl);
            m_partial.remove(0, nl + 1);
            const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
            const QString name = o.value(QStringLiteral("name")).toString();
            if (name == QLatin1String("producer_send_success")) {
                m_acked.append({o.value(QStringLiteral("partition")).toInt(-1),
                                qint64(o.value(QStringLiteral("offset")).toDouble(-1)),
                                o.value(QStringLiteral("value")).toString()});
            } else if (name == QLatin1String("producer_send_error")) {
                ++m_errors;
                m_errorLines << line;
            }
        }
    }

    QString m_partial, m_err;
    QList<Acked> m_acked;
    int m_errors = 0;
    QStringList m_errorLines;
    QTemporaryFile m_config;
    QProcess m_process;
};

} // namespace md::test
