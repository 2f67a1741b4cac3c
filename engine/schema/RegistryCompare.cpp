#include "engine/schema/RegistryCompare.h"

#include "engine/admin/AdminService.h"
#include "engine/schema/SchemaDecoding.h"

#include <QMap>

#include <algorithm>

namespace md {

namespace {

QString typeOf(const RegistrySchema &s)
{
    return s.type.isEmpty() ? QStringLiteral("AVRO") : s.type;
}

// The registries keep the text as registered, so a copy registered from the
// same text compares equal; whitespace at the ends is not part of a schema.
bool sameSchema(const RegistrySchema &a, const RegistrySchema &b)
{
    return typeOf(a) == typeOf(b) && a.text.trimmed() == b.text.trimmed();
}

QString usesText(const QList<SubjectVersion> &uses)
{
    QStringList parts;
    for (const SubjectVersion &u : uses)
        parts << QStringLiteral("%1 version %2").arg(u.subject).arg(u.version);
    return parts.join(QStringLiteral(", "));
}

// What id means on the target, as the end of "records ... will point at schema
// id N, which on the target registry is ...", or empty when it is the same schema.
QString onTarget(const RegistrySchema &source, const std::optional<RegistrySchema> &target,
                 const QList<SubjectVersion> &uses, bool *absent)
{
    *absent = !target;
    if (!target)
        return QStringLiteral("absent");
    if (sameSchema(source, *target))
        return {};
    const QString kind = typeOf(*target) == typeOf(source)
                             ? QStringLiteral("a different %1 schema").arg(typeOf(source))
                             : QStringLiteral("a %1 schema, not %2").arg(typeOf(*target), typeOf(source));
    if (uses.isEmpty())
        return kind;
    return usesText(uses) + QStringLiteral(" (") + kind + QLatin1Char(')');
}

} // namespace

QStringList topicSubjects(const QString &topic)
{
    return {topic + QStringLiteral("-key"), topic + QStringLiteral("-value")};
}

QString RegistryComparison::summary() const
{
    switch (state) {
    case State::NoRegistry: return QStringLiteral("schemas: no schema registry configured");
    case State::OneSided: return QStringLiteral("schemas: not compared (one cluster has no schema registry)");
    case State::NotRead: return QStringLiteral("schemas: not compared (a registry could not be read)");
    case State::Compared: break;
    }
    int missing = 0, differ = 0, unchecked = 0;
    for (const SchemaFinding &f : findings) {
        if (f.kind == SchemaFinding::Kind::SubjectMissing)
            ++missing;
        else if (f.kind == SchemaFinding::Kind::Unchecked)
            ++unchecked;
        else
            ++differ;
    }
    QString text = QStringLiteral("schemas: %1 subject%2, %3 id%4 compared")
                       .arg(subjects)
                       .arg(subjects == 1 ? QString() : QStringLiteral("s"))
                       .arg(ids)
                       .arg(ids == 1 ? QString() : QStringLiteral("s"));
    if (findings.isEmpty())
        return text + QStringLiteral(": the target registry has every one");
    QStringList parts;
    if (missing)
        parts << QStringLiteral("%1 subject%2 missing on the target")
                     .arg(missing)
                     .arg(missing == 1 ? QString() : QStringLiteral("s"));
    if (differ)
        parts << QStringLiteral("%1 id%2 absent or different on the target")
                     .arg(differ)
                     .arg(differ == 1 ? QString() : QStringLiteral("s"));
    if (unchecked)
        parts << QStringLiteral("%1 not checked").arg(unchecked);
    return text + QStringLiteral(": ") + parts.join(QStringLiteral(", "));
}

QStringList RegistryComparison::lines() const
{
    QStringList out = notes;
    for (const SchemaFinding &f : findings)
        out << f.text;
    return out;
}

RegistryComparison compareRegistries(const QList<MirroredTopic> &topics, const RegistryAnswers &source,
                                     const RegistryAnswers &target)
{
    RegistryComparison out;
    if (!source.configured && !target.configured)
        return out;
    if (source.configured != target.configured) {
        out.state = RegistryComparison::State::OneSided;
        out.notes << (source.configured
                          ? QStringLiteral("only the source cluster has a schema registry (%1): records copied byte "
                                           "for byte keep schema ids the target side cannot look up")
                                .arg(source.url)
                          : QStringLiteral("only the target cluster has a schema registry (%1): the source's schema "
                                           "ids cannot be compared with it")
                                .arg(target.url));
        return out;
    }
    if (!source.error.isEmpty() || !target.error.isEmpty()) {
        out.state = RegistryComparison::State::NotRead;
        if (!source.error.isEmpty())
            out.notes << QStringLiteral("source registry %1 not compared: %2").arg(source.url, source.error);
        if (!target.error.isEmpty())
            out.notes << QStringLiteral("target registry %1 not compared: %2").arg(target.url, target.error);
        return out;
    }
    out.state = RegistryComparison::State::Compared;
    if (source.omittedVersions > 0)
        out.notes << QStringLiteral("only the latest %1 versions of each subject were compared (%2 older not read)")
                         .arg(RegistryCompareMaxVersions)
                         .arg(source.omittedVersions);
    QSet<int> idsSeen;
    for (const MirroredTopic &topic : topics) {
        const QStringList sourceSubjects = topicSubjects(topic.source);
        const QStringList targetSubjects = topicSubjects(topic.target);
        for (qsizetype i = 0; i < sourceSubjects.size(); ++i) {
            const QString &ss = sourceSubjects[i];
            const QString &ts = targetSubjects[i];
            if (!source.subjects.contains(ss))
                continue; // the topic's records of that side carry no registered schema by this strategy
            ++out.subjects;
            SchemaFinding base;
            base.sourceTopic = topic.source;
            base.sourceSubject = ss;
            base.targetSubject = ts;
            if (const QString why = source.subjectErrors.value(ss); !why.isEmpty()) {
                SchemaFinding f = base;
                f.text = QStringLiteral("%1: not checked, its versions could not be read on the source registry: %2")
                             .arg(ss, why);
                out.findings << f;
                continue;
            }
            const QList<RegistrySchema> versions = source.versions.value(ss);
            if (!target.subjects.contains(ts)) {
                SchemaFinding f = base;
                f.kind = SchemaFinding::Kind::SubjectMissing;
                f.text = (ss == ts ? QStringLiteral("%1: missing on the target registry").arg(ss)
                                   : QStringLiteral("%1: missing on the target registry (as %2, the subject of "
                                                    "target topic %3)")
                                         .arg(ss, ts, topic.target)) +
                         QStringLiteral(" (%1 version%2 on the source)")
                             .arg(versions.size())
                             .arg(versions.size() == 1 ? QString() : QStringLiteral("s"));
                out.findings << f;
            }
            for (qsizetype n = 0; n < versions.size(); ++n) {
                const RegistrySchema &v = versions[n];
                idsSeen.insert(v.id);
                const bool latest = n == versions.size() - 1;
                SchemaFinding f = base;
                f.schemaId = v.id;
                f.version = v.version;
                const QString where = QStringLiteral("%1 version %2%3")
                                          .arg(ss)
                                          .arg(v.version)
                                          .arg(latest ? QStringLiteral(" (latest)") : QString());
                if (const QString why = target.idErrors.value(v.id); !why.isEmpty()) {
                    f.text = QStringLiteral("%1: schema id %2 not checked on the target registry: %3")
                                 .arg(where)
                                 .arg(v.id)
                                 .arg(why);
                    out.findings << f;
                    continue;
                }
                if (!target.ids.contains(v.id))
                    continue; // not asked (a reader that stopped early says so in idErrors)
                bool absent = false;
                const QString there = onTarget(v, target.ids.value(v.id), target.idUses.value(v.id), &absent);
                if (there.isEmpty())
                    continue;
                f.kind = absent ? SchemaFinding::Kind::IdAbsent : SchemaFinding::Kind::IdDiffers;
                f.text = QStringLiteral("%1: records copied byte for byte will point at schema id %2, which on the "
                                        "target registry is %3")
                             .arg(where)
                             .arg(v.id)
                             .arg(there);
                out.findings << f;
            }
        }
    }
    out.ids = int(idsSeen.size());
    return out;
}

namespace {

// One registry's subject list and the versions of `wanted` among them.
void readSide(SchemaRegistryClient &client, const QStringList &wanted, RegistryAnswers *side)
{
    RegistryError error;
    const std::optional<QStringList> all = client.subjects(&error);
    if (!all) {
        side->error = error.message;
        return;
    }
    side->subjects = QSet<QString>(all->cbegin(), all->cend());
    for (const QString &subject : wanted) {
        if (!side->subjects.contains(subject) || side->versions.contains(subject))
            continue;
        const std::optional<QList<int>> numbers = client.versions(subject, &error);
        if (!numbers) {
            side->subjectErrors.insert(subject, error.message);
            continue;
        }
        QList<int> sorted = *numbers;
        std::sort(sorted.begin(), sorted.end());
        if (sorted.size() > RegistryCompareMaxVersions) {
            side->omittedVersions += int(sorted.size()) - RegistryCompareMaxVersions;
            sorted = sorted.mid(sorted.size() - RegistryCompareMaxVersions);
        }
        QList<RegistrySchema> schemas;
        for (int v : std::as_const(sorted)) {
            std::optional<RegistrySchema> s = client.schemaByVersion(subject, v, &error);
            if (!s) {
                side->subjectErrors.insert(subject, error.message);
                break;
            }
            if (s->version == 0)
                s->version = v;
            schemas << *s;
        }
        if (!side->subjectErrors.contains(subject))
            side->versions.insert(subject, schemas);
    }
}

// The target's answer for one id; an unreachable registry stops the rest.
bool lookUpId(SchemaRegistryClient &client, int id, const std::optional<RegistrySchema> &compareWith, IdAnswer *out)
{
    RegistryError error;
    out->schema = client.schemaById(id, &error);
    if (!out->schema && error.kind != RegistryError::Kind::NotFound) {
        out->error = error.message;
        return error.kind != RegistryError::Kind::Unreachable && error.kind != RegistryError::Kind::Tls;
    }
    // Where a different schema under this id is registered, to name it.
    if (out->schema && compareWith && !sameSchema(*compareWith, *out->schema)) {
        if (const std::optional<QList<SubjectVersion>> uses = client.versionsOfId(id, &error))
            out->uses = *uses;
    }
    return true;
}

} // namespace

RegistryComparison readRegistryComparison(const SchemaRegistryConfig &source, const SchemaRegistryConfig &target,
                                          const QList<MirroredTopic> &topics, int timeoutMs)
{
    RegistryAnswers s, t;
    s.configured = source.isSet();
    t.configured = target.isSet();
    s.url = redactedRegistryUrl(source.url);
    t.url = redactedRegistryUrl(target.url);
    if (!s.configured || !t.configured)
        return compareRegistries(topics, s, t);
    QStringList sourceWanted, targetWanted;
    for (const MirroredTopic &topic : topics) {
        sourceWanted << topicSubjects(topic.source);
        targetWanted << topicSubjects(topic.target);
    }
    SchemaRegistryClient sourceClient(source, timeoutMs);
    SchemaRegistryClient targetClient(target, timeoutMs);
    readSide(sourceClient, sourceWanted, &s);
    // The target's own versions are not needed: what matters is what the
    // source's ids mean there. Only its subject list is read.
    readSide(targetClient, {}, &t);
    if (s.error.isEmpty() && t.error.isEmpty()) {
        QMap<int, RegistrySchema> byId; // ascending, one lookup per id
        for (const QList<RegistrySchema> &versions : std::as_const(s.versions))
            for (const RegistrySchema &v : versions)
                byId.insert(v.id, v);
        bool reachable = true;
        for (auto it = byId.cbegin(); it != byId.cend(); ++it) {
            if (!reachable) {
                t.idErrors.insert(it.key(), QStringLiteral("the target registry stopped answering"));
                continue;
            }
            IdAnswer answer;
            reachable = lookUpId(targetClient, it.key(), it.value(), &answer);
            if (!answer.error.isEmpty()) {
                t.idErrors.insert(it.key(), answer.error);
                continue;
            }
            t.ids.insert(it.key(), answer.schema);
            t.idUses.insert(it.key(), answer.uses);
        }
    }
    return compareRegistries(topics, s, t);
}

QString CopySchemaCheck::text() const
{
    return (problems + notes).join(QLatin1Char('\n'));
}

void WireSchemaIdSet::add(const void *data, size_t size)
{
    if (!data)
        return;
    if (const std::optional<WirePrefix> p = parseWirePrefix(static_cast<const char *>(data), size)) {
        if (!m_all.contains(p->schemaId)) {
            m_all.insert(p->schemaId);
            m_new.append(p->schemaId);
        }
    }
}

QList<int> WireSchemaIdSet::ids() const
{
    QList<int> out(m_all.cbegin(), m_all.cend());
    std::sort(out.begin(), out.end());
    return out;
}

QList<int> WireSchemaIdSet::takeNew()
{
    QList<int> out;
    out.swap(m_new);
    std::sort(out.begin(), out.end());
    return out;
}

QList<int> wireSchemaIds(const QList<KafkaMessage> &messages)
{
    WireSchemaIdSet ids;
    for (const KafkaMessage &m : messages) {
        for (const std::optional<QByteArray> *part : {&m.key, &m.value}) {
            if (*part)
                ids.add((*part)->constData(), size_t((*part)->size()));
        }
    }
    return ids.ids();
}

CopySchemaCheck judgeCopySchemaIds(const QList<int> &ids, const QHash<int, IdAnswer> &source,
                                   const QHash<int, IdAnswer> &target, const QString &targetUrl)
{
    CopySchemaCheck out;
    out.ids = ids;
    for (int id : ids) {
        const IdAnswer s = source.value(id);
        if (!s.error.isEmpty()) {
            out.notes << QStringLiteral("schema id %1 not checked: %2").arg(id).arg(s.error);
            continue;
        }
        if (!s.schema)
            continue; // unknown to the source registry: bytes that only look like the wire format
        if (targetUrl.isEmpty()) {
            out.problems << QStringLiteral("schema id %1 (%2): the other cluster's connection has no schema registry, "
                                           "so readers there cannot look it up")
                                .arg(id)
                                .arg(typeOf(*s.schema));
            continue;
        }
        if (!target.contains(id)) {
            out.notes << QStringLiteral("schema id %1 not checked on the target registry").arg(id);
            continue;
        }
        const IdAnswer t = target.value(id);
        if (!t.error.isEmpty()) {
            out.notes << QStringLiteral("schema id %1 not checked on the target registry: %2").arg(id).arg(t.error);
            continue;
        }
        bool absent = false;
        const QString there = onTarget(*s.schema, t.schema, t.uses, &absent);
        if (!there.isEmpty())
            out.problems << QStringLiteral("schema id %1: the copied records will point at it, which on the target "
                                           "registry (%2) is %3")
                                .arg(id)
                                .arg(targetUrl, there);
    }
    return out;
}

CopySchemaCheck checkCopySchemaIds(const QList<int> &ids, const SchemaRegistryConfig &source,
                                   const SchemaRegistryConfig &target, int timeoutMs)
{
    if (!source.isSet() || ids.isEmpty()) {
        CopySchemaCheck out;
        out.ids = ids;
        return out;
    }
    QHash<int, IdAnswer> s, t;
    SchemaRegistryClient sourceClient(source, timeoutMs);
    bool reachable = true;
    for (int id : ids) {
        IdAnswer a;
        if (!reachable)
            a.error = QStringLiteral("the source registry stopped answering");
        else
            reachable = lookUpId(sourceClient, id, std::nullopt, &a);
        s.insert(id, a);
    }
    if (target.isSet()) {
        SchemaRegistryClient targetClient(target, timeoutMs);
        reachable = true;
        for (int id : ids) {
            if (!s.value(id).schema)
                continue;
            IdAnswer a;
            if (!reachable)
                a.error = QStringLiteral("the target registry stopped answering");
            else
                reachable = lookUpId(targetClient, id, s.value(id).schema, &a);
            t.insert(id, a);
        }
    }
    return judgeCopySchemaIds(ids, s, t, target.isSet() ? redactedRegistryUrl(target.url) : QString());
}

} // namespace md
