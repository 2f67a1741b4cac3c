#pragma once

// `check`'s answer for an exactly-once job: can the target run its
// transactions? A transaction starts only when the target's transaction log
// (__transaction_state) can be written, and the target refuses a producer
// whose transaction.timeout.ms exceeds its transaction.max.timeout.ms.

#include "engine/mirror/MirrorJobSpec.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace md {

// The engine's producer timeout unless target.producerProperties sets one.
inline constexpr qint64 kDefaultTransactionTimeoutMs = 60000;

// The target broker's transaction settings, as DescribeConfigs reports them.
struct TransactionSettings {
    int brokerCount = 0;
    bool logExists = false;                  // __transaction_state exists already
    std::optional<int> logReplicationFactor; // transaction.state.log.replication.factor
    std::optional<int> logMinIsr;            // transaction.state.log.min.isr
    std::optional<qint64> maxTimeoutMs;      // transaction.max.timeout.ms
};

struct TransactionCheckResult {
    TransactionSettings settings;
    qint64 producerTimeoutMs = kDefaultTransactionTimeoutMs;
    QString error;        // the settings could not be read: nothing was judged
    QStringList problems; // each one keeps every transaction from starting
    QString summary;      // one line of what was read, for the plan

    bool ok() const { return error.isEmpty() && problems.isEmpty(); }
};

// The transaction.timeout.ms the job's target producer runs with: the
// profile's target producerProperties, else 60000 (what the engine sets).
qint64 producerTransactionTimeoutMs(const MirrorJobSpec &spec);

// Pure: judges settings read from the target against the producer's timeout.
TransactionCheckResult judgeTransactionSettings(const TransactionSettings &settings, qint64 producerTimeoutMs);

// Blocking (headless commands and worker threads, never the UI thread):
// DescribeConfigs of a target broker, then judgeTransactionSettings.
// brokerCount and logExists come from the caller's probe of the target.
TransactionCheckResult checkTransactions(const MirrorJobSpec &spec, int brokerCount, bool logExists, int timeoutMs);

} // namespace md
