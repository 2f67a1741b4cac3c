#pragma once

// Shared by the tst_mirror*.cpp integration tests: a job spec against the
// harness brokers and a way to run a job to its end inside a test.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/mirror/MirrorJob.h"

#include <QRegularExpression>
#include <QSet>

#include <QSignalSpy>
#include <QtTest/QtTest>
#include <algorithm>

namespace md::test {

inline MirrorJobSpec harnessSpec(const QString &name, const QStringList &include)
{
    MirrorJobSpec s;
    s.name = name;
    s.groupId = uniqueName(QStringLiteral("grp-") + name);
    s.source = clusterConfig(QStringLiteral("source"));
    s.target = clusterConfig(QStringLiteral("target"));
    s.include = include;
    s.naming = NamingPolicy::Identity;
    s.start = StartPosition::Earliest;
    s.stop = StopCondition::CaughtUp;
    s.samplingIntervalMs = 250;
    s.topicRefreshIntervalMs = 5000;
    // A crashed member leaves the group after this (the broker minimum).
    s.source.consumerProperties.insert(QStringLiteral("session.timeout.ms"), QStringLiteral("6000"));
    return s;
}

struct JobOutcome {
    bool finished = false;
    bool ok = false;
    QString error;
    QStringList events;
    QList<MetricsSnapshot> snapshots;
    qint64 elapsedMs = 0;
};

// Starts `job` and waits for finished() (the caller has a running event loop
// through QSignalSpy::wait).
inline JobOutcome runJob(MirrorJob &job, int timeoutMs)
{
    JobOutcome out;
    QSignalSpy finished(&job, &MirrorJob::finished);
    QObject ctx;
    QObject::connect(&job, &MirrorJob::eventRaised, &ctx, [&](const JobEvent &e) { out.events << e.text; });
    QObject::connect(&job, &MirrorJob::metricsSampled, &ctx, [&](const MetricsSnapshot &s) { out.snapshots << s; });
    QElapsedTimer t;
    t.start();
    job.start();
    QDeadlineTimer deadline(timeoutMs);
    while (finished.isEmpty() && !deadline.hasExpired())
        finished.wait(int(std::clamp<qint64>(deadline.remainingTime(), 1, 1000)));
    out.elapsedMs = t.elapsed();
    if (finished.isEmpty())
        return out;
    out.finished = true;
    out.ok = finished.first().at(0).toBool();
    out.error = finished.first().at(1).toString();
    return out;
}

inline QString joined(const QStringList &events)
{
    return events.join(QStringLiteral("\n  "));
}

// Values of every record, for at-least-once checks (duplicates allowed).
inline QSet<QByteArray> valueSet(const QList<TestRecord> &records)
{
    QSet<QByteArray> out;
    for (const TestRecord &r : records)
        out.insert(r.value.value_or(QByteArray("<null>")));
    return out;
}

// Whether the target topic holds every value of `expected`, read in a bounded
// time (a QTRY loop's bound only holds when each try is short: a read that
// waits 30 s for an unreachable broker turns a 90 s bound into minutes).
// *state says what the last read saw, for the failure message.
inline bool targetHolds(const QString &topic, const QSet<QByteArray> &expected, QString *state, int readMs = 10000)
{
    QString error;
    ConsumeOptions options;
    options.timeoutMs = readMs;
    const auto copied = consumeAll(targetBootstrap(), topic, &error, options);
    if (!copied) {
        *state = QStringLiteral("last read of the target failed: %1").arg(error);
        return false;
    }
    const QSet<QByteArray> values = valueSet(*copied);
    qsizetype missing = 0;
    for (const QByteArray &v : expected)
        missing += values.contains(v) ? 0 : 1;
    *state = QStringLiteral("last read of the target: %1 records, %2 of %3 expected values missing")
                 .arg(copied->size())
                 .arg(missing)
                 .arg(expected.size());
    return missing == 0;
}

inline QList<TestRecord> numbered(const QString &prefix, int n, int partitions, int valueBytes = 0)
{
    QList<TestRecord> out;
    for (int i = 0; i < n; ++i) {
        TestRecord r;
        r.partition = i % partitions;
        r.key = QByteArray::number(i);
        QByteArray v = (prefix + QStringLiteral("-%1").arg(i)).toUtf8();
        if (valueBytes > v.size())
            v.append(QByteArray(valueBytes - v.size(), 'p'));
        r.value = v;
        out << r;
    }
    return out;
}

} // namespace md::test
