#pragma once

#include "engine/mirror/MirrorJobSpec.h"

#include <QRegularExpression>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace md {

// Which registry subjects follow a job, and under which names (schema sync,
// engine/schemasync/). A record's schema is found by TopicNameStrategy:
// `<topic>-key` for its key, `<topic>-value` for its value. Such a subject of
// a mirrored topic is renamed as the topic is; a subject that is not one (a
// referenced type, a RecordNameStrategy subject) keeps its name.
struct TopicSubject {
    QString topic;
    bool key = false;
};
std::optional<TopicSubject> topicOfSubject(const QString &subject);
QString subjectOfTopic(const QString &topic, bool key);

// schemas.subjects.include/exclude, compiled once; an empty include selects
// every subject.
class SchemaSubjectFilter {
public:
    explicit SchemaSubjectFilter(const MirrorJobSpec &spec);
    bool selects(const QString &subject) const;

private:
    std::vector<QRegularExpression> m_include, m_exclude;
};

QString targetSubjectName(const MirrorJobSpec &spec, const QString &sourceSubject);

// The topic subjects of the mirrored topics that the source registry holds
// and the filter selects, sorted.
QStringList topicSubjectsToSync(const MirrorJobSpec &spec, const QStringList &sourceSubjects);

} // namespace md
