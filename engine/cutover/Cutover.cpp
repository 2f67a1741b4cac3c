#include "engine/cutover/Cutover.h"

#include "engine/admin/AdminService.h"
#include "engine/cutover/CutoverReport.h"
#include "engine/mirror/TopicNaming.h"
#include "engine/offsetmap/OffsetMap.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QHash>
#include <QSet>
#include <QThread>

#include <algorithm>

namespace md {

namespace {

constexpr int kCallTimeoutMs = 30000;
constexpr int kPollMs = 1000;

QString partitionKey(const QString &topic, int partition)
{
    return QStringLiteral("%1[%2]").arg(topic).arg(partition);
}

// The DENY WRITE bindings that keep `principals` from producing to `topics`.
QList<AclEntry> fenceBindings(const QStringList &topics, const QStringList &principals)
{
    QList<AclEntry> out;
    for (const QString &t : topics)
        for (const QString &p : principals)
            out.append({QStringLiteral("TOPIC"), t, QStringLiteral("LITERAL"), p, QStringLiteral("*"),
                        QStringLiteral("WRITE"), QStringLiteral("DENY")});
    return out;
}

// "orders[0] +12, orders[3] +1" for the partitions whose end moved, largest first.
QString movedText(const QHash<QString, qint64> &moved, int max = 20)
{
    QList<QPair<QString, qint64>> list;
    for (auto it = moved.cbegin(); it != moved.cend(); ++it)
        list.append({it.key(), it.value()});
    std::sort(list.begin(), list.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    QStringList parts;
    for (qsizetype i = 0; i < list.size() && i < max; ++i)
        parts.append(QStringLiteral("%1 +%2").arg(list.at(i).first).arg(list.at(i).second));
    if (list.size() > max)
        parts.append(QStringLiteral("and %1 more partitions").arg(list.size() - max));
    return parts.join(QStringLiteral(", "));
}

QString behindText(const CopyLag &lag, int max = 20)
{
    QStringList parts;
    const QList<CopyLag::Partition> behind = lag.behind();
    for (qsizetype i = 0; i < behind.size() && i < max; ++i)
        parts.append(QStringLiteral("%1: %2 records")
                         .arg(partitionKey(behind.at(i).topic, behind.at(i).partition))
                         .arg(behind.at(i).lag));
    if (behind.size() > max)
        parts.append(QStringLiteral("and %1 more partitions").arg(behind.size() - max));
    return parts.join(QStringLiteral(", "));
}

} // namespace

struct Cutover::Context {
    CutoverOutcome out;
    CutoverState state;
    std::unique_ptr<AdminService> source, target;
    std::unique_ptr<CutoverStore> store;
    OffsetMap map;
    OffsetMapCursor cursor;
    QElapsedTimer stepClock;
};

Cutover::Cutover(MirrorJobSpec spec, CutoverOptions options, CutoverJobControl *job, CutoverSink *sink)
    : m_spec(std::move(spec)), m_options(std::move(options)), m_job(job), m_sink(sink)
{
}

Cutover::~Cutover() = default;

bool Cutover::fail(Context &c, CutoverStep step, const QString &why, int exitCode)
{
    c.out.exitCode = exitCode;
    c.out.reached = step;
    c.out.error = why;
    m_sink->stepChanged(step, CutoverStepState::Failed, why);
    if (c.store && step != CutoverStep::Preflight) {
        c.state.next = step;
        c.state.stoppedBecause = why;
        save(c); // best effort: the cluster may be what failed
    }
    return false;
}

bool Cutover::save(Context &c)
{
    c.state.updated = QDateTime::currentDateTimeUtc();
    QString error;
    if (c.store->save(*c.target, c.state, &error))
        return true;
    c.out.error = QStringLiteral("cannot record the cutover's state: ") + error;
    return false;
}

bool Cutover::cancelled(Context &c, CutoverStep step)
{
    if (!m_cancel)
        return false;
    fail(c, step,
         QStringLiteral("interrupted during step \"%1\"; run the cutover again to go on from there")
             .arg(cutoverStepName(step)));
    return true;
}

bool Cutover::open(Context &c, std::optional<CutoverState> *recorded)
{
    QString error;
    c.source = AdminService::create(m_spec.source, &error, kCallTimeoutMs);
    c.target = c.source ? AdminService::create(m_spec.target, &error, kCallTimeoutMs) : nullptr;
    if (!c.source || !c.target) {
        c.out.error = error;
        return false;
    }
    c.store = std::make_unique<CutoverStore>(m_spec);
    if (!c.store->load(*c.target, recorded, &error)) {
        c.out.error = error;
        return false;
    }
    return true;
}

CutoverOutcome Cutover::run()
{
    Context c;
    QString error;
    std::optional<CutoverState> recorded;
    if (!open(c, &recorded))
        return c.out;
    if (recorded && recorded->finished()) {
        c.out.exitCode = 0;
        c.out.alreadyDone = true;
        c.out.reached = CutoverStep::Done;
        c.out.report = recorded->report;
        return c.out;
    }

    // 1. Preflight, always (also when resuming: the clusters may have changed).
    m_sink->stepChanged(CutoverStep::Preflight, CutoverStepState::Running, {});
    CutoverOptions options = m_options;
    if (recorded)
        for (const QString &p : std::as_const(recorded->fencePrincipals))
            if (!options.fencePrincipals.contains(p))
                options.fencePrincipals.append(p);
    c.out.preflight = runCutoverPreflight(m_spec, options, kCallTimeoutMs);
    m_sink->preflightReady(c.out.preflight);
    if (!c.out.preflight.ok) {
        fail(c, CutoverStep::Preflight, c.out.preflight.error, 2);
        return c.out;
    }
    const int blockers = c.out.preflight.count(CutoverFinding::Severity::Blocker);
    if (blockers > 0 || m_options.dryRun) {
        c.out.exitCode = blockers > 0 ? 1 : 0;
        c.out.error = blockers == 1  ? QStringLiteral("1 blocker: see the report")
                      : blockers > 1 ? QStringLiteral("%1 blockers: see the report").arg(blockers)
                                     : QString();
        m_sink->stepChanged(CutoverStep::Preflight, blockers > 0 ? CutoverStepState::Failed : CutoverStepState::Done,
                            c.out.error);
        return c.out;
    }
    m_sink->stepChanged(CutoverStep::Preflight, CutoverStepState::Done, {});

    if (recorded) {
        c.state = *recorded;
        c.out.resumed = true;
        m_sink->progress(QStringLiteral("resuming the cutover started at %1, at step \"%2\"%3")
                             .arg(c.state.started.toString(Qt::ISODate), cutoverStepName(c.state.next),
                                  c.state.stoppedBecause.isEmpty()
                                      ? QString()
                                      : QStringLiteral(" (it stopped: %1)").arg(c.state.stoppedBecause)));
        c.state.fencePrincipals = options.fencePrincipals;
    } else {
        c.state.job = m_spec.name;
        c.state.group = consumerGroupId(m_spec);
        c.state.started = QDateTime::currentDateTimeUtc();
        c.state.next = CutoverStep::Fence;
        c.state.fencePrincipals = options.fencePrincipals;
    }
    c.state.stoppedBecause.clear();
    if (!save(c)) {
        c.out.exitCode = 2;
        return c.out;
    }
    m_options = options;
    // The job copies from here on (one more instance if it runs elsewhere).
    if (c.state.next <= CutoverStep::Stop && !m_job->ensureRunning(&error)) {
        fail(c, c.state.next, QStringLiteral("cannot run the job: ") + error, 2);
        return c.out;
    }
    using Step = bool (Cutover::*)(Context &);
    const std::pair<CutoverStep, Step> steps[] = {{CutoverStep::Fence, &Cutover::stepFence},
                                                  {CutoverStep::Drain, &Cutover::stepDrain},
                                                  {CutoverStep::Groups, &Cutover::stepGroups},
                                                  {CutoverStep::Stop, &Cutover::stepStop}};
    for (const auto &[step, body] : steps) {
        if (step < c.state.next) {
            m_sink->stepChanged(step, CutoverStepState::Done, QStringLiteral("done before"));
            continue;
        }
        if (cancelled(c, step))
            return c.out;
        m_sink->stepChanged(step, CutoverStepState::Running, {});
        c.stepClock.start();
        if (!(this->*body)(c))
            return c.out;
        if (c.state.next == step) // a step may send the cutover back (stepStop)
            c.state.next = CutoverStep(int(step) + 1);
        if (!save(c)) {
            fail(c, c.state.next, c.out.error, 2);
            return c.out;
        }
    }
    c.out.exitCode = 0;
    c.out.reached = CutoverStep::Done;
    c.out.report = c.state.report;
    return c.out;
}

bool Cutover::stepFence(Context &c)
{
    const CutoverStep step = CutoverStep::Fence;
    if (m_options.fences()) {
        const AdminResult<QList<AclEntry>> existing = c.source->listAcls();
        if (!existing.ok())
            return fail(c, step, QStringLiteral("cannot read the source's ACLs: ") + existing.error, 2);
        // A binding already there (the operator's own) is neither made nor
        // recorded, so --rollback never takes away what it did not add.
        const QSet<AclEntry> there(existing.value.cbegin(), existing.value.cend());
        QList<AclEntry> create;
        for (const AclEntry &b : fenceBindings(c.out.preflight.sourceTopics, m_options.fencePrincipals))
            if (!there.contains(b) || c.state.fence.contains(b))
                create.append(b);
        for (const AclEntry &b : std::as_const(create))
            if (!c.state.fence.contains(b))
                c.state.fence.append(b);
        // Recorded before they are made: a crash in between leaves nothing unrecorded.
        if (!save(c))
            return fail(c, step, c.out.error, 2);
        if (!create.isEmpty()) {
            const AdminResult<Done> done = c.source->createAcls(create);
            if (!done.ok())
                return fail(c, step, QStringLiteral("cannot create the fence on the source: ") + done.error, 2);
        }
        m_sink->progress(QStringLiteral("fenced: DENY WRITE on %1 topics for %2")
                             .arg(c.out.preflight.sourceTopics.size())
                             .arg(m_options.fencePrincipals.join(QStringLiteral(", "))));
    }
    // Watch the source's ends: they must stand still for settleS seconds.
    QHash<QString, qint64> last, moved;
    QElapsedTimer quiet;
    quiet.start();
    const QDeadlineTimer deadline(qint64(m_options.timeoutS) * 1000);
    const OffsetMap none;
    for (;;) {
        const CopyLag ends = readCopyLag(m_spec, none, kCallTimeoutMs);
        if (!ends.ok)
            return fail(c, step, QStringLiteral("cannot read the source's end offsets: ") + ends.error, 2);
        QHash<QString, qint64> now;
        QHash<QString, qint64> movedNow;
        for (const CopyLag::Partition &p : ends.partitions) {
            const QString key = partitionKey(p.topic, p.partition);
            now.insert(key, p.end);
            if (last.contains(key) && p.end != last.value(key)) {
                moved[key] += p.end - last.value(key);
                movedNow[key] += p.end - last.value(key);
            }
        }
        if (!movedNow.isEmpty()) {
            quiet.restart();
            m_sink->progress(QStringLiteral("the source is still written to: %1").arg(movedText(movedNow)));
        }
        last = now;
        if (quiet.elapsed() >= qint64(m_options.settleS) * 1000)
            break;
        if (deadline.hasExpired())
            return fail(c, step,
                        QStringLiteral("producers still write to the source after %1 s: %2. Fence their principals "
                                       "(--fence-principals, or --fence-all), or stop them")
                            .arg(m_options.timeoutS)
                            .arg(movedText(moved)));
        if (cancelled(c, step))
            return false;
        QThread::msleep(kPollMs);
    }
    m_sink->stepChanged(step, CutoverStepState::Done,
                        (m_options.fences() ? QString() : QStringLiteral("nothing fenced; ")) +
                            (moved.isEmpty() ? QStringLiteral("no writes for %1 s").arg(m_options.settleS)
                                             : QStringLiteral("writes stopped (%1); then none for %2 s")
                                                   .arg(movedText(moved))
                                                   .arg(m_options.settleS)));
    return true;
}

bool Cutover::stepDrain(Context &c)
{
    const CutoverStep step = CutoverStep::Drain;
    const QDeadlineTimer deadline(qint64(m_options.timeoutS) * 1000);
    const QString mapTopic = offsetMapTopicOf(m_spec);
    for (;;) {
        QString error;
        if (!readOffsetMap(m_spec.target, mapTopic, kCallTimeoutMs, &c.map, &error, &c.cursor))
            return fail(c, step, QStringLiteral("cannot read the offset map: ") + error, 2);
        const CopyLag lag = readCopyLag(m_spec, c.map, kCallTimeoutMs);
        if (!lag.ok)
            return fail(c, step, QStringLiteral("cannot read the source's end offsets: ") + lag.error, 2);
        if (lag.total() == 0) {
            m_sink->stepChanged(step, CutoverStepState::Done,
                                QStringLiteral("every record copied (%1 partitions) in %2 s")
                                    .arg(lag.partitions.size())
                                    .arg(c.stepClock.elapsed() / 1000.0, 0, 'f', 1));
            return true;
        }
        if (const QString why = m_job->failure(); !why.isEmpty())
            return fail(c, step, QStringLiteral("the job stopped: ") + why);
        if (deadline.hasExpired())
            return fail(
                c, step,
                QStringLiteral("not everything copied after %1 s: %2").arg(m_options.timeoutS).arg(behindText(lag)));
        m_sink->progress(
            QStringLiteral("%1 records in %2 partitions not copied yet").arg(lag.total()).arg(lag.behind().size()));
        if (cancelled(c, step))
            return false;
        QThread::msleep(kPollMs);
    }
}

bool Cutover::stepGroups(Context &c)
{
    const CutoverStep step = CutoverStep::Groups;
    const GroupFilter filter(m_spec, m_options.groupPattern);
    if (!filter.selectsAny()) {
        c.state.report.insert(QStringLiteral("groups"), QJsonArray());
        m_sink->stepChanged(step, CutoverStepState::Skipped, QStringLiteral("no consumer group selected"));
        return true;
    }
    QString error;
    if (!readOffsetMap(m_spec.target, offsetMapTopicOf(m_spec), kCallTimeoutMs, &c.map, &error, &c.cursor))
        return fail(c, step, QStringLiteral("cannot read the offset map: ") + error, 2);
    GroupSyncOptions go;
    go.groupPattern = m_options.groupPattern;
    const GroupSyncPlan plan = planGroupSync(m_spec, c.map, go, kCallTimeoutMs);
    if (!plan.ok)
        return fail(c, step, QStringLiteral("cannot plan the groups: ") + plan.error, 2);
    QStringList refused;
    for (const GroupSyncEntry &g : plan.groups) {
        if (g.targetActive())
            refused.append(QStringLiteral("%1 has active members on the target (%2): stop its consumers there")
                               .arg(g.group, g.targetMembers.join(QStringLiteral(", "))));
        for (const GroupPartitionSync &p : g.partitions)
            if (p.action == GroupSyncAction::SkipNotTranslatable)
                refused.append(QStringLiteral("%1 %2 cannot be translated: %3")
                                   .arg(g.group, partitionKey(p.topic, p.partition), p.note));
    }
    if (!refused.isEmpty())
        return fail(c, step, QStringLiteral("refused: ") + refused.join(QStringLiteral("; ")));
    const GroupSyncOutcome outcome = applyGroupSync(m_spec, plan, kCallTimeoutMs);
    QStringList failures;
    for (const QString &r : outcome.refused)
        failures.append(QStringLiteral("%1 became active on the target").arg(r));
    for (const GroupSyncOutcome::Failure &f : outcome.failures)
        failures.append(QStringLiteral("%1 %2: %3")
                            .arg(f.group, f.topic.isEmpty() ? QString() : partitionKey(f.topic, f.partition), f.error));
    if (!outcome.error.isEmpty())
        failures.append(outcome.error);
    if (!failures.isEmpty())
        return fail(c, step, QStringLiteral("groups not moved: ") + failures.join(QStringLiteral("; ")));
    c.state.report.insert(QStringLiteral("groups"), cutoverGroupsJson(plan.groups));
    m_sink->stepChanged(step, CutoverStepState::Done,
                        QStringLiteral("%1, %2 partition offsets written (%3 already there)")
                            .arg(plan.groups.size() == 1 ? QStringLiteral("1 group")
                                                         : QStringLiteral("%1 groups").arg(plan.groups.size()))
                            .arg(outcome.partitionsWritten)
                            .arg(plan.count(GroupSyncAction::AlreadyThere)));
    return true;
}

bool Cutover::stepStop(Context &c)
{
    const CutoverStep step = CutoverStep::Stop;
    QString error;
    if (!m_job->stopJob(&error))
        return fail(c, step, QStringLiteral("the job did not stop cleanly: ") + error);
    // What the job left behind must be nothing: records that came after the drain.
    if (!readOffsetMap(m_spec.target, offsetMapTopicOf(m_spec), kCallTimeoutMs, &c.map, &error, &c.cursor))
        return fail(c, step, QStringLiteral("cannot read the offset map: ") + error, 2);
    const CopyLag lag = readCopyLag(m_spec, c.map, kCallTimeoutMs);
    if (!lag.ok)
        return fail(c, step, QStringLiteral("cannot read the source's end offsets: ") + lag.error, 2);
    if (lag.total() > 0) {
        // Back to the drain: a resumed cutover runs the job again and copies them.
        return fail(c, CutoverStep::Drain,
                    QStringLiteral("%1 records reached the source after the drain and are not copied: %2. Fence or "
                                   "stop their producers, then run the cutover again")
                        .arg(lag.total())
                        .arg(behindText(lag)));
    }
    QJsonObject &r = c.state.report;
    r.insert(QStringLiteral("job"), m_spec.name);
    r.insert(QStringLiteral("started"), c.state.started.toUTC().toString(Qt::ISODateWithMs));
    r.insert(QStringLiteral("finished"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    r.insert(QStringLiteral("topics"), cutoverTopicsJson(m_spec, lag));
    if (!r.contains(QLatin1String("groups")))
        r.insert(QStringLiteral("groups"), QJsonArray());
    r.insert(QStringLiteral("fence"), cutoverFenceJson(c.state.fence));
    r.insert(QStringLiteral("notCopied"), lag.total());
    r.insert(QStringLiteral("switchTo"), cutoverSwitchJson(m_spec.target));
    m_sink->stepChanged(step, CutoverStepState::Done, QStringLiteral("stopped; nothing left to copy"));
    return true;
}

CutoverOutcome Cutover::rollback()
{
    Context c;
    QString error;
    std::optional<CutoverState> recorded;
    if (!open(c, &recorded))
        return c.out;
    if (!recorded) {
        c.out.exitCode = 1;
        c.out.error = QStringLiteral("no cutover is recorded for this job (in %1 on the target)").arg(c.store->topic());
        return c.out;
    }
    c.state = *recorded;
    if (!c.state.fence.isEmpty()) {
        const AdminResult<int> removed = c.source->deleteAcls(c.state.fence);
        if (!removed.ok()) {
            c.out.error = QStringLiteral("cannot remove the fence from the source: ") + removed.error;
            return c.out;
        }
        m_sink->progress(QStringLiteral("removed %1 fence bindings from the source").arg(removed.value));
    }
    if (!c.store->clear(*c.target, &error)) {
        c.out.error = error;
        return c.out;
    }
    c.out.exitCode = 0;
    c.out.reached = c.state.next;
    return c.out;
}

} // namespace md
