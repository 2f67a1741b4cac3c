#pragma once

// Internal to the job profile reader (not a public API): typed reads of one
// key each, with the type, range, known keys and messages of the key's entry
// in the schema table (ProfileSchema.h), and the issues of one parse.

#include "model/profile/JobProfile.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>

namespace md::profile_detail {

class ProfileReader final {
public:
    ProfileReader(const QString &fileName, QList<ProfileIssue> *issues) : m_fileName(fileName), m_issues(issues) {}

    void error(const QString &path, const QString &message);
    void warn(const QString &path, const QString &message);
    // True when `path` or a key enclosing it already has an error.
    bool hadErrorAt(const QString &path) const;
    void syntaxError(const QByteArray &data, qsizetype offset, const QString &message);
    void fileError(const QString &message);

    // Each read takes the key path ("source.sasl.username"); `o` is the object
    // that holds its last part. Absent keys return false (and report a
    // required key as missing); a wrong type is an error naming the path.
    bool string(const QJsonObject &o, const QString &path, QString *out);
    bool boolean(const QJsonObject &o, const QString &path, bool *out);
    bool integer(const QJsonObject &o, const QString &path, qint64 *out);
    bool integer(const QJsonValue &v, const QString &path, qint64 *out);
    bool object(const QJsonObject &o, const QString &path, QJsonObject *out);
    bool stringList(const QJsonObject &o, const QString &path, QStringList *out);
    // A Keyword key: true with *out set to one of the table's allowed values.
    bool keyword(const QJsonObject &o, const QString &path, QString *out);
    // The "unknown <noun>" check alone; the error goes to `at` when given (a shorthand's own key).
    bool keywordValue(const QString &value, const QString &path, const QString &at = QString());
    void propertyMap(const QJsonObject &o, const QString &path, QMap<QString, QString> *out);
    void timestamp(const QJsonValue &v, const QString &path, QDateTime *out);
    // Warns about keys of `o` that the table does not list under `path`; keeps them in *keep.
    void unknownKeys(const QJsonObject &o, const QString &path, QJsonObject *keep = nullptr);
    // Reports a required key of `path` that `o` lacks; true when it is there.
    bool present(const QJsonObject &o, const QString &path);
    // The error for a value of the wrong type at `path`.
    void wrongType(const QString &path, const QJsonValue &v);

    // validate()'s issues, less the ones about keys that already have an error.
    void appendValidation(const JobProfile &p);

private:
    void add(ProfileIssue::Severity s, const QString &path, const QString &message);
    bool value(const QJsonObject &o, const QString &path, QJsonValue *out);

    QString m_fileName;
    QList<ProfileIssue> *m_issues;
    QSet<QString> m_errorPaths;
};

} // namespace md::profile_detail
