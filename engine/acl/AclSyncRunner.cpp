#include "engine/acl/AclSyncRunner.h"

#include "engine/acl/AclSyncRecords.h"
#include "engine/admin/AdminService.h"
#include "engine/mirror/RunnerEvents.h"

#include <QDateTime>
#include <QHash>

#include <algorithm>
#include <chrono>

namespace md {

namespace {

bool noAuthorizer(const KafkaError &e)
{
    return e.code == RD_KAFKA_RESP_ERR_SECURITY_DISABLED;
}

} // namespace

AclSyncRound runAclSyncRound(const MirrorJobSpec &spec, AdminService &source, AdminService &target,
                             AclSyncRecords &records, bool apply)
{
    AclSyncRound r;
    const auto fail = [&](const QString &what) {
        r.error = what;
        return r;
    };
    AclSyncInput in;
    const AdminResult<QList<AclEntry>> sourceAcls = source.listAcls();
    if (!sourceAcls.ok()) {
        if (!noAuthorizer(sourceAcls.kafkaError))
            return fail(QStringLiteral("cannot list the source's ACLs: ") + sourceAcls.error);
        r.sourceHasAuthorizer = false; // no binding to copy; what the job made earlier goes
    } else {
        in.source = sourceAcls.value;
    }
    const AdminResult<QList<AclEntry>> targetAcls = target.listAcls();
    if (!targetAcls.ok()) {
        if (noAuthorizer(targetAcls.kafkaError)) {
            r.stop = AclSyncRound::Stop::NoTargetAuthorizer;
            return fail(targetAcls.error);
        }
        return fail(QStringLiteral("cannot list the target's ACLs: ") + targetAcls.error);
    }
    in.target = targetAcls.value;
    const AdminResult<ClusterMetadata> md = source.metadata();
    if (!md.ok())
        return fail(QStringLiteral("cannot read the source's topics: ") + md.error);
    for (const TopicInfo &t : md.value.topics)
        in.sourceTopics.append(t.name);
    QString error;
    if (!records.load(target, &in.made, &error))
        return fail(error);
    r.plan = planAclSync(spec, in);
    if (!apply) {
        r.ok = true;
        return r;
    }
    if (!r.plan.create.isEmpty()) {
        // The record first: a binding is never on the target as the job's without it.
        if (!records.write(target, r.plan.create, true, &error))
            return fail(error);
        const AdminResult<Done> done = target.createAcls(r.plan.create);
        if (!done.ok()) {
            QString ignored;
            records.write(target, r.plan.create, false, &ignored); // not made after all
            if (done.kafkaError.code == RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED)
                r.stop = AclSyncRound::Stop::NoTargetAlter;
            else if (noAuthorizer(done.kafkaError))
                r.stop = AclSyncRound::Stop::NoTargetAuthorizer;
            return fail(done.error);
        }
        r.created = r.plan.create;
    }
    if (!r.plan.remove.isEmpty()) {
        const AdminResult<int> done = target.deleteAcls(r.plan.remove);
        if (!done.ok()) {
            if (done.kafkaError.code == RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED)
                r.stop = AclSyncRound::Stop::NoTargetAlter;
            return fail(done.error);
        }
        r.removed = r.plan.remove;
    }
    if (!records.write(target, r.plan.remove + r.plan.forget, false, &error))
        return fail(error);
    r.ok = true;
    return r;
}

struct AclSyncRunner::Shared {
    MirrorJobSpec spec;
    RunnerEvents events{std::chrono::minutes(10)};
    std::unique_ptr<AdminService> source, target;
    std::unique_ptr<AclSyncRecords> records;

    // False: ACL sync is over for this run.
    bool round()
    {
        QString error;
        if (!source)
            source = AdminService::create(spec.source, &error, 20000);
        if (source && !target)
            target = AdminService::create(spec.target, &error, 20000);
        if (!source || !target) {
            events.warnOnce(QStringLiteral("clients"), QStringLiteral("ACL sync: ") + error);
            return true;
        }
        if (!records)
            records = std::make_unique<AclSyncRecords>(spec.target, aclSyncRecordsTopicOf(spec));
        const AclSyncRound r = runAclSyncRound(spec, *source, *target, *records, true);
        for (const QString &note : r.plan.notes)
            events.warnOnce(QStringLiteral("note:") + note, QStringLiteral("ACL sync: ") + note);
        for (const AclEntry &b : r.created)
            events.report(JobEvent::Severity::Info,
                          QStringLiteral("ACL sync: created %1 on the target").arg(describeAcl(b)));
        for (const AclEntry &b : r.removed)
            events.report(
                JobEvent::Severity::Info,
                QStringLiteral("ACL sync: deleted %1 on the target (gone from the source)").arg(describeAcl(b)));
        if (r.ok)
            return true;
        switch (r.stop) {
        case AclSyncRound::Stop::NoTargetAuthorizer:
            events.report(
                JobEvent::Severity::Warning,
                QStringLiteral("ACL sync is off for this run: the target has no authorizer (%1)").arg(r.error));
            return false;
        case AclSyncRound::Stop::NoTargetAlter:
            events.report(
                JobEvent::Severity::Warning,
                QStringLiteral("ACL sync is off for this run: the target user may not change ACLs (%1)").arg(r.error));
            return false;
        case AclSyncRound::Stop::No: break;
        }
        // A passing fault (a cluster away): tried again next round, said once in a while.
        events.warnOnce(QStringLiteral("round"), QStringLiteral("ACL sync: ") + r.error);
        source.reset();
        target.reset();
        return true;
    }
};

AclSyncRunner::AclSyncRunner(MirrorJobSpec spec, EventSink events) : m_shared(std::make_shared<Shared>())
{
    m_shared->spec = std::move(spec);
    m_shared->events.setSink(std::move(events));
}

AclSyncRunner::~AclSyncRunner()
{
    stop();
    finish(1000);
}

void AclSyncRunner::start()
{
    m_runner.start(
        std::chrono::milliseconds(std::max(1000, m_shared->spec.aclSyncIntervalMs)), PeriodicRunner::First::AtOnce,
        [s = m_shared] { return s->round(); },
        [s = m_shared] {
            // Closed on this thread: whoever lets go of Shared last has none to close.
            s->records.reset();
            s->source.reset();
            s->target.reset();
        });
}

void AclSyncRunner::stop()
{
    m_runner.stop();
}

void AclSyncRunner::finish(int timeoutMs)
{
    if (!m_runner.finish(timeoutMs)) {
        m_shared->events.cutOff(); // still inside a Kafka call: it ends on its own, silently
    }
}

} // namespace md
