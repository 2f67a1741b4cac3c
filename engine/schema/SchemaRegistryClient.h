#pragma once

#include "engine/schema/SchemaRegistryConfig.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace md {

// What went wrong talking to a registry. `kind` lets callers word it (and
// cache a missing id apart from an unreachable registry); `message` is the
// sentence for the user and never holds a secret or a URL's userinfo.
struct RegistryError {
    enum class Kind {
        None,
        Unreachable,  // connect/timeout: nothing answered
        Tls,          // https: the handshake failed, the certificate was not trusted, or the CA file is unusable
        Unauthorized, // 401 or 403
        NotFound,     // 404: unknown id, subject or version
        BadResponse,  // an answer that is not the Confluent API's JSON
        Other         // any other HTTP error (status in httpStatus)
    };
    Kind kind = Kind::None;
    int httpStatus = 0; // 0 when no HTTP answer came
    QString message;
    bool ok() const { return kind == Kind::None; }
};

// A schema reference as the registry returns it: `name` is how the schema
// refers to it (a Protobuf import path, an Avro full type name, a JSON $ref).
struct SchemaReference {
    QString name;
    QString subject;
    int version = 0;
    bool operator==(const SchemaReference &) const = default;
};

// One schema as GET /schemas/ids/{id} or /subjects/{s}/versions/{v} gives it.
struct RegistrySchema {
    int id = 0;
    QString subject; // empty from /schemas/ids (see versionsOfId)
    int version = 0; // 0 from /schemas/ids
    QString type;    // "AVRO" (the registry's default when absent), "PROTOBUF" or "JSON"
    QByteArray text; // the schema as registered
    QList<SchemaReference> references;
};

struct SubjectVersion {
    QString subject;
    int version = 0;
    bool operator==(const SubjectVersion &) const = default;
};

// The lookups decoding needs, apart from the HTTP client so that the decoder
// cache can be tested against a fake.
class SchemaLookup {
public:
    virtual ~SchemaLookup() = default;
    virtual std::optional<RegistrySchema> schemaById(int id, RegistryError *error) = 0;
    // version -1: "latest".
    virtual std::optional<RegistrySchema> schemaByVersion(const QString &subject, int version,
                                                          RegistryError *error) = 0;
    // Where an id is registered: [{subject, version}] (GET /schemas/ids/{id}/versions).
    virtual std::optional<QList<SubjectVersion>> versionsOfId(int id, RegistryError *error) = 0;
};

// The Confluent Schema Registry REST API over libcurl: blocking calls, made
// inside background tasks like the engine's other cluster I/O. One curl
// handle per client, calls serialised by a mutex, so one client may be shared
// by the tasks of a cluster. Every call is bounded by the client's timeout.
class SchemaRegistryClient final : public SchemaLookup {
public:
    explicit SchemaRegistryClient(SchemaRegistryConfig config, int timeoutMs = 10000);
    ~SchemaRegistryClient();
    SchemaRegistryClient(const SchemaRegistryClient &) = delete;
    SchemaRegistryClient &operator=(const SchemaRegistryClient &) = delete;

    const SchemaRegistryConfig &config() const;

    std::optional<RegistrySchema> schemaById(int id, RegistryError *error) override;
    std::optional<QList<SubjectVersion>> versionsOfId(int id, RegistryError *error) override;
    std::optional<QStringList> subjects(RegistryError *error);
    std::optional<QList<int>> versions(const QString &subject, RegistryError *error);
    std::optional<RegistrySchema> schemaByVersion(const QString &subject, int version, RegistryError *error) override;
    // The subject's compatibility level, or the global one when subject is
    // empty or has none of its own ("BACKWARD", "NONE", ...).
    std::optional<QString> compatibility(const QString &subject, RegistryError *error);
    // The subject's own level only: an empty string when it has none (it
    // follows the global one), so a caller that knows the global level asks
    // once per subject, not twice.
    std::optional<QString> subjectCompatibility(const QString &subject, RegistryError *error);
    // POST /subjects/{subject}/versions: the id the registry gives the schema
    // (an identical one already there answers its id). `id`: that id, which
    // only a registry in IMPORT mode takes.
    std::optional<int> registerSchema(const QString &subject, const QString &type, const QByteArray &text,
                                      const QList<SchemaReference> &references, RegistryError *error, int id = 0);
    // POST /subjects/{subject}: the version and id under which the subject
    // holds this schema; NotFound when it does not (nothing is registered).
    std::optional<RegistrySchema> lookupSchema(const QString &subject, const QString &type, const QByteArray &text,
                                               const QList<SchemaReference> &references, RegistryError *error);
    // PUT /config/{subject}.
    bool setCompatibility(const QString &subject, const QString &level, RegistryError *error);
    // GET /mode (subject empty) or /mode/{subject}: READWRITE, READONLY, IMPORT.
    std::optional<QString> mode(const QString &subject, RegistryError *error);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

// "Test connection" for a registry: one GET of the subject list.
struct RegistryProbe {
    RegistryError error;
    int subjectCount = -1;
    qint64 elapsedMs = 0;
    bool ok() const { return error.ok(); }
};
RegistryProbe probeSchemaRegistry(const SchemaRegistryConfig &config, int timeoutMs);

// The URL as it may be shown or logged: userinfo ("user:secret@") removed.
QString redactedRegistryUrl(const QString &url);

} // namespace md
