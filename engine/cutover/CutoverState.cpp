#include "engine/cutover/CutoverState.h"

#include "engine/groupsync/GroupOffsetSync.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace md {

namespace {

const char kKey[] = "cutover";

struct StepNames {
    CutoverStep step;
    const char *name;
    const char *title;
};
constexpr StepNames kSteps[] = {
    {CutoverStep::Preflight, "preflight", "Preflight: drift report"},
    {CutoverStep::Fence, "fence", "Fence the source's producers"},
    {CutoverStep::Drain, "drain", "Drain: copy everything"},
    {CutoverStep::Groups, "groups", "Move the consumer groups"},
    {CutoverStep::Stop, "stop", "Stop the job"},
    {CutoverStep::Done, "done", "Done"},
};

QJsonObject aclJson(const AclEntry &b)
{
    return {{QStringLiteral("resourceType"), b.resourceType},
            {QStringLiteral("resourceName"), b.resourceName},
            {QStringLiteral("patternType"), b.patternType},
            {QStringLiteral("principal"), b.principal},
            {QStringLiteral("host"), b.host},
            {QStringLiteral("operation"), b.operation},
            {QStringLiteral("permission"), b.permission}};
}

} // namespace

QString cutoverStepName(CutoverStep step)
{
    for (const StepNames &s : kSteps)
        if (s.step == step)
            return QString::fromLatin1(s.name);
    return {};
}

QString cutoverStepTitle(CutoverStep step)
{
    for (const StepNames &s : kSteps)
        if (s.step == step)
            return QString::fromLatin1(s.title);
    return {};
}

std::optional<CutoverStep> cutoverStepFromName(const QString &name)
{
    for (const StepNames &s : kSteps)
        if (name == QLatin1String(s.name))
            return s.step;
    return std::nullopt;
}

QByteArray CutoverState::toJson() const
{
    QJsonArray bindings;
    for (const AclEntry &b : fence)
        bindings.append(aclJson(b));
    QJsonObject o{{QStringLiteral("version"), 1},
                  {QStringLiteral("job"), job},
                  {QStringLiteral("group"), group},
                  {QStringLiteral("next"), cutoverStepName(next)},
                  {QStringLiteral("started"), started.toUTC().toString(Qt::ISODateWithMs)},
                  {QStringLiteral("updated"), updated.toUTC().toString(Qt::ISODateWithMs)},
                  {QStringLiteral("fencePrincipals"), QJsonArray::fromStringList(fencePrincipals)},
                  {QStringLiteral("fence"), bindings}};
    if (!stoppedBecause.isEmpty())
        o.insert(QStringLiteral("stoppedBecause"), stoppedBecause);
    if (!report.isEmpty())
        o.insert(QStringLiteral("report"), report);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

std::optional<CutoverState> CutoverState::fromJson(const QByteArray &json, QString *error)
{
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parse);
    if (!doc.isObject()) {
        *error = QStringLiteral("the recorded cutover state is not a JSON object (%1)").arg(parse.errorString());
        return std::nullopt;
    }
    const QJsonObject o = doc.object();
    if (o.value(QLatin1String("version")).toInt() != 1) {
        *error = QStringLiteral("the recorded cutover state has version %1, this build reads version 1")
                     .arg(o.value(QLatin1String("version")).toInt());
        return std::nullopt;
    }
    CutoverState s;
    s.job = o.value(QLatin1String("job")).toString();
    s.group = o.value(QLatin1String("group")).toString();
    const std::optional<CutoverStep> next = cutoverStepFromName(o.value(QLatin1String("next")).toString());
    if (!next) {
        *error = QStringLiteral("the recorded cutover state names an unknown step \"%1\"")
                     .arg(o.value(QLatin1String("next")).toString());
        return std::nullopt;
    }
    s.next = *next;
    s.started = QDateTime::fromString(o.value(QLatin1String("started")).toString(), Qt::ISODateWithMs);
    s.updated = QDateTime::fromString(o.value(QLatin1String("updated")).toString(), Qt::ISODateWithMs);
    for (const QJsonValue &p : o.value(QLatin1String("fencePrincipals")).toArray())
        s.fencePrincipals.append(p.toString());
    for (const QJsonValue &v : o.value(QLatin1String("fence")).toArray()) {
        const QJsonObject b = v.toObject();
        const auto f = [&](const char *key) { return b.value(QLatin1String(key)).toString(); };
        QString why;
        const std::optional<AclEntry> acl = normalizedAcl({f("resourceType"), f("resourceName"), f("patternType"),
                                                           f("principal"), f("host"), f("operation"), f("permission")},
                                                          &why);
        if (!acl) {
            *error = QStringLiteral("the recorded cutover state holds a binding a broker cannot hold: %1").arg(why);
            return std::nullopt;
        }
        s.fence.append(*acl);
    }
    s.stoppedBecause = o.value(QLatin1String("stoppedBecause")).toString();
    s.report = o.value(QLatin1String("report")).toObject();
    return s;
}

QString cutoverRecordsTopicOf(const MirrorJobSpec &spec)
{
    QString stem = offsetMapTopicOf(spec);
    if (stem.endsWith(QLatin1String(".offset-map")))
        stem.chop(int(qstrlen(".offset-map")));
    return stem + QStringLiteral(".cutover");
}

CutoverStore::CutoverStore(const MirrorJobSpec &spec) : m_records(spec.target, cutoverRecordsTopicOf(spec))
{
}

bool CutoverStore::load(AdminService &target, std::optional<CutoverState> *state, QString *error)
{
    state->reset();
    QList<KeyedRecords::Record> records;
    if (!m_records.load(target, &records, error))
        return false;
    for (const KeyedRecords::Record &r : std::as_const(records)) {
        if (r.key != kKey)
            continue;
        QString why;
        *state = CutoverState::fromJson(*r.value, &why);
        if (!*state) {
            *error = QStringLiteral("%1 in %2").arg(why, topic());
            return false;
        }
    }
    return true;
}

bool CutoverStore::save(AdminService &target, const CutoverState &state, QString *error)
{
    return m_records.write(target, {{QByteArray(kKey), state.toJson()}}, error);
}

bool CutoverStore::clear(AdminService &target, QString *error)
{
    return m_records.write(target, {{QByteArray(kKey), std::nullopt}}, error);
}

} // namespace md
