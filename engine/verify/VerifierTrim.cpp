#include "engine/verify/VerifierDetail.h"

#include <QDateTime>
#include <QLocale>

namespace md::verify_detail {

namespace {

std::optional<QString> configValue(const DescribedTopicConfigs &configs, const QString &name)
{
    for (const ConfigEntry &e : configs.entries) {
        if (e.name == name)
            return e.value;
    }
    return std::nullopt;
}

QString timestampTypeName(int type)
{
    switch (type) {
    case RD_KAFKA_TIMESTAMP_CREATE_TIME: return QStringLiteral("CreateTime");
    case RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME: return QStringLiteral("LogAppendTime");
    default: return QStringLiteral("timestamp");
    }
}

} // namespace

void TrimmedRecords::add(const rd_kafka_message_t *m)
{
    if (count == 0)
        firstOffset = m->offset;
    lastOffset = m->offset;
    ++count;
    rd_kafka_timestamp_type_t type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
    const qint64 ts = rd_kafka_message_timestamp(m, &type);
    if (type == RD_KAFKA_TIMESTAMP_NOT_AVAILABLE || ts < 0)
        return;
    timestampType = type;
    minTimestamp = minTimestamp < 0 ? ts : std::min(minTimestamp, ts);
    maxTimestamp = std::max(maxTimestamp, ts);
}

QString groupedNumber(qint64 n)
{
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(n);
}

QString trimExplanation(const QString &side, qint64 logStart, const DescribedTopicConfigs &configs,
                        const TrimmedRecords &removed, qint64 nowMs)
{
    const QString text = QStringLiteral("%1 log starts at %2").arg(side, groupedNumber(logStart));
    QString carry; // "records carry 2024 CreateTimes"
    if (removed.maxTimestamp >= 0) {
        const int from = QDateTime::fromMSecsSinceEpoch(removed.minTimestamp, Qt::UTC).date().year();
        const int to = QDateTime::fromMSecsSinceEpoch(removed.maxTimestamp, Qt::UTC).date().year();
        carry = QStringLiteral("records carry %1 %2s")
                    .arg(from == to ? QString::number(from) : QStringLiteral("%1 to %2").arg(from).arg(to),
                         timestampTypeName(removed.timestampType));
    }
    if (!configs.ok())
        return text + QStringLiteral(" (deleted records or retention; the %1 topic's configs could not be read: %2)")
                          .arg(side, configs.error);

    const QString policy = configValue(configs, QStringLiteral("cleanup.policy")).value_or(QStringLiteral("delete"));
    const bool deletes = policy.split(QLatin1Char(','), Qt::SkipEmptyParts).contains(QStringLiteral("delete"));
    const std::optional<QString> retentionMs = configValue(configs, QStringLiteral("retention.ms"));
    const std::optional<QString> retentionBytes = configValue(configs, QStringLiteral("retention.bytes"));
    bool ok = false;
    const qint64 ms = retentionMs ? retentionMs->toLongLong(&ok) : -1;
    // Time retention deletes a segment once its newest record is older than
    // retention.ms, so every record it removed is older than that.
    if (deletes && ok && ms >= 0 && removed.maxTimestamp >= 0 && removed.maxTimestamp < nowMs - ms)
        return text + QStringLiteral(": removed by the %1's retention.ms=%2; %3").arg(side, *retentionMs, carry);
    if (!deletes)
        return text + QStringLiteral(" (deleted records: cleanup.policy=%1 deletes nothing by retention%2)")
                          .arg(policy, carry.isEmpty() ? QString() : QStringLiteral("; ") + carry);
    QStringList settings;
    settings << QStringLiteral("retention.ms=") + retentionMs.value_or(QStringLiteral("?"));
    if (retentionBytes && retentionBytes->toLongLong() >= 0)
        settings << QStringLiteral("retention.bytes=") + *retentionBytes;
    return text +
           QStringLiteral(" (deleted records or retention: %1%2)")
               .arg(settings.join(QStringLiteral(", ")), carry.isEmpty() ? QString() : QStringLiteral("; ") + carry);
}

const DescribedTopicConfigs &PartitionReader::topicConfigs(const QString &topic)
{
    auto it = m_configs.find(topic);
    if (it == m_configs.end()) {
        DescribedTopicConfigs d = describeTopicConfigEntries(m_rk.get(), {topic}, m_idleTimeoutMs).value(topic);
        if (!d.ok())
            d.error = failure(d.error);
        it = m_configs.insert(topic, d);
    }
    return *it;
}

} // namespace md::verify_detail
