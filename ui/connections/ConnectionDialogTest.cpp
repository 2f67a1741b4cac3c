// ConnectionDialog's "Test connection": the engine's testConnection runs in
// the background (md::inBackground); the answer is put in words here, by the
// error's kind, never by librdkafka's text.
#include "ui/connections/ConnectionDialog.h"

#include "ui/widgets/Background.h"

#include <QPushButton>
#include <QTimer>

namespace md {

namespace {

// The probe gives up after 8 s; the dialog answers at 10 s whatever happens
// (a DNS lookup librdkafka cannot interrupt must not leave the user waiting).
constexpr int kProbeTimeoutMs = 8000;
constexpr int kAnswerWithinMs = 10000;

QString brokerList(const ClusterMetadata &md)
{
    QStringList parts;
    for (const BrokerInfo &b : md.brokers) {
        QString text =
            QString::number(b.id) + QStringLiteral(" at ") + b.host + QLatin1Char(':') + QString::number(b.port);
        if (b.controller)
            text += QStringLiteral(" (controller)");
        parts.append(text);
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace

void ConnectionDialog::testConnection()
{
    QList<ConnectionIssue> issues;
    const Connection c = formConnection(&issues);
    showRegistryIssues(issues);
    if (!issues.isEmpty()) {
        setStatus(tr("Cannot test:\n") + joinIssues(issues), true);
        Q_EMIT testFinished(false, joinIssues(issues),
                            KafkaError::from(RD_KAFKA_RESP_ERR__INVALID_ARG, joinIssues(issues)));
        return;
    }
    QPointer<ConnectionDialog> self(this);
    withSecrets(c, [self, c](const Secrets &secrets) {
        if (self)
            self->startTest(c.toClusterConfig(secrets.saslPassword, secrets.keyPassword, secrets.registrySecret));
    });
}

void ConnectionDialog::startTest(const ClusterConfig &config)
{
    const quint64 generation = ++m_testGeneration;
    m_testRunning = true;
    m_testButton->setEnabled(false);
    setStatus(tr("Testing %1…").arg(config.bootstrap), false);
    startRegistryTest(config.schemaRegistry);

    // Closing the dialog drops the answer; nothing waits for the probe.
    inBackground<ConnectionTestResult>(
        this, [config] { return md::testConnection(config, kProbeTimeoutMs); },
        [this, generation, bootstrap = config.bootstrap](const ConnectionTestResult &r) {
            if (r.metadata) {
                const ClusterMetadata &md = *r.metadata;
                finishTest(
                    generation, true,
                    tr("Connected to %1 in %2 ms: %n broker(s): %3; %4 topic(s).", nullptr, int(md.brokers.size()))
                        .arg(bootstrap)
                        .arg(r.elapsedMs)
                        .arg(brokerList(md))
                        .arg(md.topics.size()),
                    {});
            } else {
                finishTest(generation, false, explainFailure(r.failedStep, r.error), r.error);
            }
        });
    QTimer::singleShot(kAnswerWithinMs, this, [this, generation, bootstrap = config.bootstrap] {
        const QString text =
            tr("unreachable: %1 did not answer within %2 s").arg(bootstrap).arg(kAnswerWithinMs / 1000);
        finishTest(generation, false, text,
                   KafkaError::withKind(KafkaErrorKind::Timeout, RD_KAFKA_RESP_ERR__TIMED_OUT, text));
    });
}

void ConnectionDialog::finishTest(quint64 generation, bool ok, const QString &message, const KafkaError &error)
{
    if (generation != m_testGeneration || !m_testRunning)
        return; // answered already (the deadline), or a newer test runs
    m_testRunning = false;
    m_testButton->setEnabled(true);
    setStatus(message, !ok);
    Q_EMIT testFinished(ok, message, error);
}

QString ConnectionDialog::explainFailure(ConnectionTestResult::Step step, const KafkaError &error)
{
    const QString &detail = error.message;
    switch (error.kind) {
    case KafkaErrorKind::Authentication:
        return tr("authentication failed: the cluster refused the user name or password, or the SASL "
                  "mechanism (%1)")
            .arg(detail);
    case KafkaErrorKind::Tls:
        // Before any connection the TLS error is librdkafka refusing the
        // client's own files (it reads them when the client is created).
        if (step == ConnectionTestResult::Step::CreateClient)
            return tr("TLS failed: the client key or certificates could not be read; check the files and the "
                      "key password (%1)")
                .arg(detail);
        return tr("TLS failed: the secure connection could not be set up; check the security protocol and the "
                  "certificate files (%1)")
            .arg(detail);
    case KafkaErrorKind::Unreachable:
        if (error.code == RD_KAFKA_RESP_ERR__RESOLVE)
            return tr("unreachable: the host name does not resolve (%1)").arg(detail);
        return tr("unreachable: no broker answered (%1)").arg(detail);
    case KafkaErrorKind::Timeout: return tr("unreachable: no broker answered in time (%1)").arg(detail);
    case KafkaErrorKind::Authorization:
        return tr("not authorized: the cluster accepted the user but refused the request (%1)").arg(detail);
    case KafkaErrorKind::Invalid: return tr("invalid setting: %1").arg(detail);
    case KafkaErrorKind::NotFound:
    case KafkaErrorKind::Other:
    case KafkaErrorKind::None: break;
    }
    return tr("failed: %1").arg(detail.isEmpty() ? kafkaErrorText(error.code) : detail);
}

} // namespace md
