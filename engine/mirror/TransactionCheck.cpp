#include "engine/mirror/TransactionCheck.h"

#include "engine/admin/ConfigEntry.h"
#include "engine/admin/ProbeClient.h"

#include <memory>

namespace md {

namespace {

std::optional<qint64> number(const QList<ConfigEntry> &entries, const QString &name)
{
    for (const ConfigEntry &e : entries) {
        if (e.name != name || !e.value)
            continue;
        bool ok = false;
        const qint64 v = e.value->trimmed().toLongLong(&ok);
        return ok ? std::optional<qint64>(v) : std::nullopt;
    }
    return std::nullopt;
}

QString brokers(int n)
{
    return QStringLiteral("%1 broker%2").arg(n).arg(n == 1 ? QString() : QStringLiteral("s"));
}

} // namespace

qint64 producerTransactionTimeoutMs(const MirrorJobSpec &spec)
{
    // The engine sets the producer's timeout from target.producerProperties only
    // (over anything target.properties says), else 60000.
    bool ok = false;
    const qint64 v =
        spec.target.producerProperties.value(QStringLiteral("transaction.timeout.ms")).trimmed().toLongLong(&ok);
    return ok ? v : kDefaultTransactionTimeoutMs;
}

TransactionCheckResult judgeTransactionSettings(const TransactionSettings &s, qint64 producerTimeoutMs)
{
    TransactionCheckResult r;
    r.settings = s;
    r.producerTimeoutMs = producerTimeoutMs;
    auto text = [](const std::optional<qint64> &v) { return v ? QString::number(*v) : QStringLiteral("unknown"); };
    auto opt = [](const std::optional<int> &v) { return v ? std::optional<qint64>(*v) : std::nullopt; };
    r.summary =
        QStringLiteral("transaction log replication factor %1, min.isr %2, %3%4; transaction.max.timeout.ms %5, "
                       "the job's transaction.timeout.ms %6")
            .arg(text(opt(s.logReplicationFactor)), text(opt(s.logMinIsr)), brokers(s.brokerCount),
                 s.logExists ? QStringLiteral(" (the log exists)") : QString(), text(s.maxTimeoutMs))
            .arg(producerTimeoutMs);
    // The log is created at the first transaction with this factor; a log that
    // exists already was created when the cluster had the brokers for it.
    const bool cannotCreate =
        !s.logExists && s.logReplicationFactor && s.brokerCount > 0 && *s.logReplicationFactor > s.brokerCount;
    if (cannotCreate) {
        r.problems << QStringLiteral(
                          "transaction.state.log.replication.factor is %1 but the target has %2: the transaction "
                          "log (__transaction_state) cannot be created, so no transaction would ever start; set "
                          "it to at most %3 on the target's brokers")
                          .arg(*s.logReplicationFactor)
                          .arg(brokers(s.brokerCount))
                          .arg(s.brokerCount);
    } else if (s.logMinIsr && s.logReplicationFactor) {
        // In-sync replicas: at most the factor, and at most the brokers there are.
        const int replicas = s.brokerCount > 0 ? qMin(*s.logReplicationFactor, s.brokerCount) : *s.logReplicationFactor;
        if (*s.logMinIsr > replicas)
            r.problems << QStringLiteral(
                              "transaction.state.log.min.isr is %1 but the transaction log can have at most %2 "
                              "in-sync replicas here: its writes would be refused, so no transaction could commit")
                              .arg(*s.logMinIsr)
                              .arg(replicas);
    }
    if (s.maxTimeoutMs && *s.maxTimeoutMs < producerTimeoutMs)
        r.problems << QStringLiteral(
                          "transaction.max.timeout.ms is %1 on the target, below the job's transaction.timeout.ms "
                          "%2: the target refuses the job's transactional producer; lower transaction.timeout.ms "
                          "in target.producerProperties or raise the broker setting")
                          .arg(*s.maxTimeoutMs)
                          .arg(producerTimeoutMs);
    return r;
}

TransactionCheckResult checkTransactions(const MirrorJobSpec &spec, int brokerCount, bool logExists, int timeoutMs)
{
    TransactionCheckResult r;
    r.producerTimeoutMs = producerTransactionTimeoutMs(spec);
    QString error;
    const std::unique_ptr<ProbeClient> client = ProbeClient::create(spec.target, &error, timeoutMs);
    if (!client) {
        r.error = error;
        return r;
    }
    const DescribedTopicConfigs broker = describeBrokerConfigEntries(client->handle(), timeoutMs);
    if (!broker.ok()) {
        r.error = client->describeFailure(QStringLiteral("cannot read the broker configs"), RD_KAFKA_RESP_ERR_NO_ERROR,
                                          broker.error);
        return r;
    }
    TransactionSettings s;
    s.brokerCount = brokerCount;
    s.logExists = logExists;
    if (const auto v = number(broker.entries, QStringLiteral("transaction.state.log.replication.factor")))
        s.logReplicationFactor = int(*v);
    if (const auto v = number(broker.entries, QStringLiteral("transaction.state.log.min.isr")))
        s.logMinIsr = int(*v);
    s.maxTimeoutMs = number(broker.entries, QStringLiteral("transaction.max.timeout.ms"));
    return judgeTransactionSettings(s, r.producerTimeoutMs);
}

} // namespace md
