#pragma once

#include "engine/schema/SchemaRegistryClient.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>

namespace md {

// What a registry holds, as the Schemas tab shows it: blocking reads over a
// SchemaRegistryClient, for background tasks only (like every registry call).

// One subject's line in the list.
struct SubjectSummary {
    QString subject;
    int latestVersion = 0;
    int latestId = 0;
    int versionCount = 0;
    QString type;                  // "AVRO", "PROTOBUF", "JSON"
    QString compatibility;         // the subject's own level, else the global one
    bool ownCompatibility = false; // false: the global level applies
    QString error;                 // why the details could not be read (empty: they were)
    bool operator==(const SubjectSummary &) const = default;
};

struct SubjectList {
    QStringList subjects;        // sorted
    QString globalCompatibility; // empty when the registry would not say
    RegistryError error;
};
// GET /subjects, then /config (a registry that refuses the latter still lists).
SubjectList readSubjectList(SchemaRegistryClient &client);

struct SummaryBatch {
    QList<SubjectSummary> summaries; // in the order asked; those read before a stop
    // The failure that ended the batch early (unreachable, credentials refused);
    // a failure of one subject (deleted meanwhile) stays in its summary.
    RegistryError error;
};
// Three requests per subject (its versions, the latest, its own level),
// `globalCompatibility` filling in for subjects without a level. Returns early,
// with what it has, once *cancel is true or the registry stops answering.
SummaryBatch readSubjectSummaries(SchemaRegistryClient &client, const QStringList &subjects,
                                  const QString &globalCompatibility, const std::atomic<bool> *cancel = nullptr);

// One version of a subject, with everything its details show.
struct SubjectVersionDetail {
    QString subject;
    int askedVersion = -1; // -1: the latest
    QList<int> versions;
    RegistrySchema schema;
    QString compatibility;
    bool ownCompatibility = false;
    RegistryError error; // set: nothing else is
};
// Once *cancel is true it returns before its next request (the answer is then incomplete, for nobody).
SubjectVersionDetail readSubjectVersion(SchemaRegistryClient &client, const QString &subject, int version,
                                        const std::atomic<bool> *cancel = nullptr);

// Schema text for reading: Avro and JSON schemas as indented JSON, keys in
// their order and numbers as written (an Avro reader expects "name" before
// "fields"; QJsonDocument would sort them); Protobuf, and anything that is not
// JSON, as registered.
QString prettySchemaText(const QString &type, const QByteArray &text);

} // namespace md
