#include "engine/groupsync/GroupSyncRunner.h"

#include "engine/groupsync/GroupAdmin.h"
#include "engine/groupsync/GroupOffsetSync.h"
#include "engine/mirror/RunnerEvents.h"
#include "engine/offsetmap/Mm2Checkpoints.h"
#include "engine/offsetmap/OffsetMap.h"

#include <QHash>
#include <QLocale>
#include <QSet>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>

namespace md {

namespace {

using Clock = std::chrono::steady_clock;

QString number(qint64 n)
{
    return QLocale(QLocale::English).toString(qlonglong(n));
}

QString plural(qint64 n, const char *one, const char *many)
{
    return number(n) + QLatin1Char(' ') + QLatin1String(n == 1 ? one : many);
}

} // namespace

struct GroupSyncRunner::Shared {
    MirrorJobSpec spec;
    std::atomic<bool> cancel{false};               // also ends a pass under way (its Kafka calls take it)
    mutable std::mutex mutex;                      // guards summary
    RunnerEvents events{std::chrono::seconds(60)}; // the same warning at most once a minute
    QList<GroupSyncMetrics> summary;
    int mapFailures = 0; // in a row: a starting job may not have written its map yet
    // Kept across passes, and read on from where the last pass stopped: an
    // exactly-once job adds a map record per partition and transaction.
    OffsetMap map;
    OffsetMapCursor mapCursor;
    groupadmin::Clients clients;                      // kept across passes; dropped after a failed one
    std::unique_ptr<Mm2CheckpointWriter> checkpoints; // made at the first round that emits

    void pass();
    void writeCheckpoints(const GroupSyncPlan &plan, int timeoutMs);
    QList<GroupSyncMetrics> summarize(const GroupSyncPlan &plan, const GroupSyncOutcome &outcome,
                                      const OffsetMap &map) const;
};

QList<GroupSyncMetrics> GroupSyncRunner::Shared::summarize(const GroupSyncPlan &plan, const GroupSyncOutcome &outcome,
                                                           const OffsetMap &map) const
{
    QHash<QString, GroupSyncMetrics> previous;
    {
        std::lock_guard lock(mutex);
        for (const GroupSyncMetrics &m : summary)
            previous.insert(m.group, m);
    }
    QSet<QString> failedGroups;
    QSet<QPair<QString, QPair<QString, int>>> failedParts;
    for (const GroupSyncOutcome::Failure &f : outcome.failures) {
        if (f.topic.isEmpty())
            failedGroups.insert(f.group);
        else
            failedParts.insert({f.group, {f.topic, f.partition}});
    }
    for (const QString &r : outcome.refused)
        failedGroups.insert(r.section(QLatin1Char(' '), 0, 0));
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QList<GroupSyncMetrics> out;
    for (const GroupSyncEntry &g : plan.groups) {
        GroupSyncMetrics m;
        m.group = g.group;
        m.partitions = int(g.partitions.size());
        m.lastSync = previous.value(g.group).lastSync;
        qint64 lag = 0;
        bool lagKnown = false;
        for (const GroupPartitionSync &p : g.partitions) {
            bool synced = p.action == GroupSyncAction::AlreadyThere;
            if (p.action == GroupSyncAction::Write)
                synced =
                    !failedGroups.contains(g.group) && !failedParts.contains({g.group, {p.targetTopic, p.partition}});
            if (synced) {
                ++m.partitionsTranslated;
                lag += p.readAgain;
                lagKnown = true;
            } else if (p.action == GroupSyncAction::SkipWouldRewind) {
                lagKnown = true; // ahead of the source group: no lag
            } else if (p.targetCurrent >= 0) {
                // Where the target group stands, in source offsets.
                const PartitionOffsetMap *pm = map.partition(p.topic, p.partition);
                const qint64 at = pm ? pm->sourceFor(p.targetCurrent) : -1;
                if (at >= 0) {
                    lag += std::max<qint64>(0, p.sourceCommitted - at);
                    lagKnown = true;
                }
            }
            if (m.skipReason.isEmpty() && !synced && p.action != GroupSyncAction::SkipWouldRewind)
                m.skipReason =
                    p.action == GroupSyncAction::SkipActiveMembers
                        ? QStringLiteral("active members on the target: ") + g.targetMembers.join(QStringLiteral(", "))
                        : p.note;
        }
        if (failedGroups.contains(g.group) && m.skipReason.isEmpty())
            m.skipReason = QStringLiteral("could not write its offsets on the target");
        m.lag = lagKnown ? lag : -1;
        if (m.partitionsTranslated > 0)
            m.lastSync = now;
        out.append(m);
    }
    return out;
}

void GroupSyncRunner::Shared::writeCheckpoints(const GroupSyncPlan &plan, int timeoutMs)
{
    if (!checkpoints)
        checkpoints = std::make_unique<Mm2CheckpointWriter>(spec);
    const Mm2CheckpointWriter::Result r = checkpoints->write(checkpointsOfPlan(plan), timeoutMs, &cancel);
    if (!r.ok && !cancel)
        events.warnOnce(QStringLiteral("checkpoints"), QStringLiteral("group offset sync: cannot write ") + r.error);
}

void GroupSyncRunner::Shared::pass()
{
    const int timeoutMs = std::clamp(spec.groupSyncIntervalMs, 5000, 30000);
    QString error;
    if (!readOffsetMap(spec.target, offsetMapTopicOf(spec), timeoutMs, &map, &error, &mapCursor)) {
        if (!cancel && ++mapFailures >= 3)
            events.warnOnce(QStringLiteral("map"),
                            QStringLiteral("group offset sync: cannot read the offset map: ") + error);
        return;
    }
    mapFailures = 0;
    if (cancel)
        return;
    GroupSyncOptions options;
    options.allowPartial = true; // where the copy stands is the best the target has
    options.cancel = &cancel;
    options.clients = &clients;
    const GroupSyncPlan plan = planGroupSync(spec, map, options, timeoutMs);
    if (cancel)
        return;
    if (!plan.ok) {
        clients = {};
        events.warnOnce(QStringLiteral("plan"), QStringLiteral("group offset sync: ") + plan.error);
        return;
    }
    // After the plan, before the writes: checkpoints say where the source groups
    // are, whether or not the target groups could be moved there.
    if (spec.emitCheckpoints)
        writeCheckpoints(plan, timeoutMs);
    if (cancel || !spec.syncGroupOffsets)
        return;
    const GroupSyncOutcome outcome = applyGroupSync(spec, plan, timeoutMs);
    if (cancel)
        return;
    if (outcome.partitionsWritten > 0)
        events.report(JobEvent::Severity::Info, QStringLiteral("synced offsets of %1 (%2) to the target")
                                                    .arg(plural(outcome.groupsWritten, "group", "groups"),
                                                         plural(outcome.partitionsWritten, "partition", "partitions")));
    if (!outcome.error.isEmpty())
        clients = {};
    if (!outcome.error.isEmpty())
        events.warnOnce(QStringLiteral("apply"), QStringLiteral("group offset sync: ") + outcome.error);
    for (const GroupSyncEntry &g : plan.groups) {
        if (g.count(GroupSyncAction::SkipActiveMembers) > 0)
            events.warnOnce(
                QStringLiteral("active:") + g.group,
                QStringLiteral("group offset sync: group %1 is not synced: it has active members on the target (%2%3)")
                    .arg(g.group, g.targetState,
                         g.targetMembers.isEmpty()
                             ? QString()
                             : QStringLiteral(": ") + g.targetMembers.join(QStringLiteral(", "))));
    }
    for (const QString &r : outcome.refused)
        events.warnOnce(
            QStringLiteral("active:") + r.section(QLatin1Char(' '), 0, 0),
            QStringLiteral("group offset sync: group %1 is not synced: it became active on the target").arg(r));
    for (const GroupSyncOutcome::Failure &f : outcome.failures)
        events.warnOnce(
            QStringLiteral("failed:") + f.group,
            QStringLiteral("group offset sync: could not write the offsets of group %1%2: %3")
                .arg(f.group, f.topic.isEmpty() ? QString() : QStringLiteral(" (%1[%2])").arg(f.topic).arg(f.partition),
                     f.error));
    QList<GroupSyncMetrics> s = summarize(plan, outcome, map);
    std::lock_guard lock(mutex);
    summary = std::move(s);
}

GroupSyncRunner::GroupSyncRunner(MirrorJobSpec spec, EventSink events) : m_shared(std::make_shared<Shared>())
{
    m_shared->spec = std::move(spec);
    m_shared->events.setSink(std::move(events));
}

GroupSyncRunner::~GroupSyncRunner()
{
    stop();
    finish(1000);
}

bool GroupSyncRunner::wanted(const MirrorJobSpec &spec)
{
    return spec.offsetMap && (spec.syncGroupOffsets || spec.emitCheckpoints) && !spec.groupsInclude.isEmpty();
}

void GroupSyncRunner::start()
{
    // The round owns a reference: it may outlive this object (see finish()).
    m_runner.start(
        std::chrono::milliseconds(std::max(1000, m_shared->spec.groupSyncIntervalMs)),
        PeriodicRunner::First::AfterInterval,
        [s = m_shared] {
            s->pass();
            return true;
        },
        [s = m_shared] {
            // Closed here, on this thread: whoever lets go of Shared last (maybe
            // the UI thread) then has no client to close.
            s->clients = {};
            s->mapCursor.reader.reset();
        });
}

void GroupSyncRunner::stop()
{
    m_shared->cancel = true;
    m_runner.stop();
}

void GroupSyncRunner::finish(int timeoutMs)
{
    if (!m_runner.finish(timeoutMs)) {
        // Still inside a call that cannot be interrupted: let it end by itself, silently.
        m_shared->events.cutOff();
    }
}

QList<GroupSyncMetrics> GroupSyncRunner::summary() const
{
    std::lock_guard lock(m_shared->mutex);
    return m_shared->summary;
}

} // namespace md
