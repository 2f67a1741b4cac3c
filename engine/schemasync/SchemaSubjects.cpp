#include "engine/schemasync/SchemaSubjects.h"

#include "engine/mirror/TopicNaming.h"

#include <algorithm>

namespace md {

namespace {

const QLatin1String kKeySuffix("-key");
const QLatin1String kValueSuffix("-value");

std::vector<QRegularExpression> compiled(const QStringList &patterns)
{
    std::vector<QRegularExpression> out;
    out.reserve(size_t(patterns.size()));
    for (const QString &p : patterns)
        out.emplace_back(QRegularExpression::anchoredPattern(p));
    return out;
}

bool anyMatches(const std::vector<QRegularExpression> &res, const QString &s)
{
    return std::any_of(res.begin(), res.end(), [&](const QRegularExpression &re) { return re.match(s).hasMatch(); });
}

} // namespace

std::optional<TopicSubject> topicOfSubject(const QString &subject)
{
    if (subject.endsWith(kKeySuffix) && subject.size() > kKeySuffix.size())
        return TopicSubject{subject.chopped(kKeySuffix.size()), true};
    if (subject.endsWith(kValueSuffix) && subject.size() > kValueSuffix.size())
        return TopicSubject{subject.chopped(kValueSuffix.size()), false};
    return std::nullopt;
}

QString subjectOfTopic(const QString &topic, bool key)
{
    return topic + (key ? kKeySuffix : kValueSuffix);
}

SchemaSubjectFilter::SchemaSubjectFilter(const MirrorJobSpec &spec)
    : m_include(compiled(spec.schemaSubjectsInclude)), m_exclude(compiled(spec.schemaSubjectsExclude))
{
}

bool SchemaSubjectFilter::selects(const QString &subject) const
{
    if (!m_include.empty() && !anyMatches(m_include, subject))
        return false;
    return !anyMatches(m_exclude, subject);
}

QString targetSubjectName(const MirrorJobSpec &spec, const QString &sourceSubject)
{
    const std::optional<TopicSubject> t = topicOfSubject(sourceSubject);
    if (!t || !topicSelected(spec, t->topic))
        return sourceSubject;
    return subjectOfTopic(targetTopicName(spec, t->topic), t->key);
}

QStringList topicSubjectsToSync(const MirrorJobSpec &spec, const QStringList &sourceSubjects)
{
    const SchemaSubjectFilter filter(spec);
    QStringList out;
    for (const QString &s : sourceSubjects) {
        const std::optional<TopicSubject> t = topicOfSubject(s);
        if (t && topicSelected(spec, t->topic) && filter.selects(s))
            out.append(s);
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace md
