#include "model/acl/AclSyncPreview.h"

#include "engine/acl/AclSync.h"
#include "engine/acl/AclSyncRecords.h"
#include "engine/acl/AclSyncRunner.h"
#include "engine/admin/AdminService.h"

#include <QCoreApplication>

#include <memory>

namespace md {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("AclSyncPreview", text);
}
} // namespace

QString AclSyncPreview::summary() const
{
    const QString how =
        tr("ACL sync (%1 mode, every %2 s)")
            .arg(mode == MirrorJobSpec::AclSyncMode::Exact ? QStringLiteral("exact") : QStringLiteral("safe"))
            .arg(intervalMs / 1000.0);
    switch (state) {
    case State::Off:
        return tr("ACL sync is off: the job leaves the target's ACLs alone (Topics tab, \"Keep the target's ACLs in "
                  "step\").");
    case State::NoTargetAuthorizer: return how + tr(": the job would run without it: %1").arg(error);
    case State::Failed: return how + tr(": not checked: %1").arg(error);
    case State::Ready: break;
    }
    return how + tr(": %1 binding(s) follow the job, %2 to create, %3 to delete now (only bindings this job created, "
                    "recorded in %4, are ever deleted)")
                     .arg(wanted)
                     .arg(create.size())
                     .arg(remove.size())
                     .arg(recordsTopic);
}

QList<AclSyncPreview::Line> AclSyncPreview::lines() const
{
    QList<Line> out;
    if (state != State::Ready)
        return out;
    if (!sourceHasAuthorizer)
        out.append({Line::Kind::Note, tr("note: the source has no authorizer: no binding to copy")});
    for (const AclEntry &b : create)
        out.append({Line::Kind::Create, tr("create %1").arg(describeAcl(b))});
    for (const AclEntry &b : remove)
        out.append({Line::Kind::Delete, tr("delete %1 (made by this job, gone from the source)").arg(describeAcl(b))});
    for (const QString &note : notes)
        out.append({Line::Kind::Note, tr("note: %1").arg(note)});
    return out;
}

AclSyncPreview readAclSyncPreview(const MirrorJobSpec &spec, int timeoutMs)
{
    AclSyncPreview p;
    p.mode = spec.aclSyncMode;
    p.intervalMs = spec.aclSyncIntervalMs;
    if (!spec.syncAcls)
        return p;
    p.recordsTopic = aclSyncRecordsTopicOf(spec);
    QString error;
    const std::unique_ptr<AdminService> source = AdminService::create(spec.source, &error, timeoutMs);
    const std::unique_ptr<AdminService> target =
        source ? AdminService::create(spec.target, &error, timeoutMs) : nullptr;
    if (!source || !target) {
        p.state = AclSyncPreview::State::Failed;
        p.error = error;
        return p;
    }
    AclSyncRecords records(spec.target, p.recordsTopic);
    const AclSyncRound r = runAclSyncRound(spec, *source, *target, records, /*apply*/ false);
    if (!r.ok) {
        p.state = r.stop == AclSyncRound::Stop::NoTargetAuthorizer ? AclSyncPreview::State::NoTargetAuthorizer
                                                                   : AclSyncPreview::State::Failed;
        p.error = r.error;
        return p;
    }
    p.state = AclSyncPreview::State::Ready;
    p.sourceHasAuthorizer = r.sourceHasAuthorizer;
    p.wanted = r.plan.wanted.size();
    p.create = r.plan.create;
    p.remove = r.plan.remove;
    p.notes = r.plan.notes;
    return p;
}

} // namespace md
