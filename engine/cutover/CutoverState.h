#pragma once

#include "engine/acl/Acl.h"
#include "engine/admin/KeyedRecords.h"
#include "engine/mirror/MirrorJobSpec.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace md {

class AdminService;

// The steps of a cutover, in order (docs/ARCHITECTURE.md, "The cutover").
enum class CutoverStep { Preflight, Fence, Drain, Groups, Stop, Done };
QString cutoverStepName(CutoverStep step);  // "preflight", "fence", ...
QString cutoverStepTitle(CutoverStep step); // "Fence the source's producers", ...
std::optional<CutoverStep> cutoverStepFromName(const QString &name);

// What a cutover has done so far, kept on the target (cutoverRecordsTopicOf)
// before each step acts, so that one interrupted anywhere (a signal, a crash,
// a cluster down) resumes where it was, from any machine, and --rollback
// removes exactly the bindings it made.
struct CutoverState {
    QString job;                               // the profile's name, for the operator
    QString group;                             // the job's consumer group: whose cutover this is
    CutoverStep next = CutoverStep::Preflight; // the first step not completed
    QDateTime started;
    QDateTime updated;
    QStringList fencePrincipals; // what was asked ("User:*" for everyone)
    QList<AclEntry> fence;       // DENY bindings this cutover created on the source
    QString stoppedBecause;      // why the last attempt ended before Done
    QJsonObject report;          // the final report, once Done

    bool finished() const { return next == CutoverStep::Done; }
    QByteArray toJson() const;
    static std::optional<CutoverState> fromJson(const QByteArray &json, QString *error);
};

// "<map topic's stem>.cutover" on the target. Never mirrored.
QString cutoverRecordsTopicOf(const MirrorJobSpec &spec);

// One record, key "cutover", in that compacted topic.
class CutoverStore final {
public:
    explicit CutoverStore(const MirrorJobSpec &spec);
    const QString &topic() const { return m_records.topic(); }
    // *state stays empty when no cutover is recorded. False with *error.
    bool load(AdminService &target, std::optional<CutoverState> *state, QString *error);
    bool save(AdminService &target, const CutoverState &state, QString *error);
    bool clear(AdminService &target, QString *error); // a tombstone: no cutover recorded

private:
    KeyedRecords m_records;
};

} // namespace md
