#pragma once

// The schema registries of a mirror job's two clusters, compared for the
// topics it mirrors. The mirror copies records byte for byte, so a record in
// the Confluent wire format keeps its schema id: on the target it means
// whatever the target's registry calls that id. This finds the subjects the
// target lacks (by TopicNameStrategy, <topic>-key and <topic>-value, the
// target's under the target topic's name) and every schema id of the source's
// versions that on the target is absent or another schema. The comparison is
// pure (compareRegistries, over what the registries answered); the reading
// (readRegistryComparison) blocks on both registries: tasks and headless
// commands only, never the UI thread.

#include "engine/schema/SchemaRegistryClient.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>

namespace md {

struct KafkaMessage;

// A topic the job copies and what it is called on the target.
struct MirroredTopic {
    QString source;
    QString target;
    bool operator==(const MirroredTopic &) const = default;
};

// What one registry answered about the subjects of the mirrored topics.
struct RegistryAnswers {
    bool configured = false;
    QString url;                                    // redacted (no userinfo), for messages
    QString error;                                  // the subject list could not be read: nothing below is known
    QSet<QString> subjects;                         // every subject the registry has
    QHash<QString, QList<RegistrySchema>> versions; // of the subjects looked at, ascending by version
    QHash<QString, QString> subjectErrors;          // subject -> why its versions were not read
    int omittedVersions = 0;                        // older versions past the per-subject limit, not read
    // Target only: what the source's schema ids are there (nullopt: no such id),
    // where they are registered, and the ids that could not be looked up.
    QHash<int, std::optional<RegistrySchema>> ids;
    QHash<int, QList<SubjectVersion>> idUses;
    QHash<int, QString> idErrors;
};

// One thing a byte-for-byte copy gets wrong, in a sentence for the user.
struct SchemaFinding {
    enum class Kind {
        SubjectMissing, // the target registry has no subject for the target topic
        IdAbsent,       // a source schema id the target registry does not know
        IdDiffers,      // a source schema id that on the target is another schema
        Unchecked,      // a subject or an id that could not be read
    };
    Kind kind = Kind::Unchecked;
    QString sourceTopic;
    QString sourceSubject;
    QString targetSubject;
    int schemaId = 0; // Id*: the source's id
    int version = 0;  // Id*: the source version that has it
    QString text;
    bool operator==(const SchemaFinding &) const = default;
};

struct RegistryComparison {
    enum class State {
        NoRegistry, // neither cluster has one: nothing to say
        OneSided,   // only one has one: said once in notes
        NotRead,    // a registry could not be read (down, refused, TLS): notes say which and why
        Compared,
    };
    State state = State::NoRegistry;
    QStringList notes; // once-lines: a side without a registry, a registry that did not answer
    QList<SchemaFinding> findings;
    int subjects = 0; // source subjects of mirrored topics compared
    int ids = 0;      // distinct source schema ids checked on the target

    // "schemas: 4 subjects, 6 ids compared: 1 subject missing on the target, 2 ids differ".
    QString summary() const;
    // notes, then each finding's text.
    QStringList lines() const;
};

// The subjects TopicNameStrategy gives a topic: <topic>-key, <topic>-value.
QStringList topicSubjects(const QString &topic);

// Pure: the two registries' answers compared for `topics`.
RegistryComparison compareRegistries(const QList<MirroredTopic> &topics, const RegistryAnswers &source,
                                     const RegistryAnswers &target);

// At most this many of a subject's latest versions are read.
inline constexpr int RegistryCompareMaxVersions = 50;

// Blocking: reads what compareRegistries needs from both registries (the
// subject lists, the mirrored topics' subjects' versions, the source's ids on
// the target) and compares. A registry that does not answer is a note, not a
// failure.
RegistryComparison readRegistryComparison(const SchemaRegistryConfig &source, const SchemaRegistryConfig &target,
                                          const QList<MirroredTopic> &topics, int timeoutMs = 10000);

// What a copy of some records would do to their schema ids (the copy dialog's check).
struct CopySchemaCheck {
    QList<int> ids;       // the distinct ids of the records' keys and values in the wire format
    QStringList problems; // per id that the target registry lacks or has as another schema
    QStringList notes;    // what could not be checked, and why
    bool warn() const { return !problems.isEmpty(); }
    QString text() const; // problems and notes, one per line
};

// The distinct schema ids of the messages' keys and values in the wire format, ascending.
QList<int> wireSchemaIds(const QList<KafkaMessage> &messages);

// The same, collected as records go by (a range copy reads its records only
// as it runs): a prefix check and a set lookup per key or value.
class WireSchemaIdSet {
public:
    void add(const void *data, size_t size); // null, or not the wire format: nothing
    QList<int> ids() const;                  // every id added, ascending
    // The ids added since the last call, ascending: what a progress report
    // has to tell that it did not tell before.
    QList<int> takeNew();

private:
    QSet<int> m_all;
    QList<int> m_new;
};

// Pure: per id, what the source registry holds (nullopt: unknown there, so
// the bytes are not a schema record after all) against the target's answer.
struct IdAnswer {
    std::optional<RegistrySchema> schema;
    QList<SubjectVersion> uses; // where the target registers it (for the sentence)
    QString error;              // the lookup failed (not "not found")
};
CopySchemaCheck judgeCopySchemaIds(const QList<int> &ids, const QHash<int, IdAnswer> &source,
                                   const QHash<int, IdAnswer> &target, const QString &targetUrl);

// Blocking: looks each id up on both registries and judges. No source
// registry: nothing to check (the bytes may only look like the wire format);
// no target registry while the source knows the ids: a problem per id.
CopySchemaCheck checkCopySchemaIds(const QList<int> &ids, const SchemaRegistryConfig &source,
                                   const SchemaRegistryConfig &target, int timeoutMs = 10000);

} // namespace md
